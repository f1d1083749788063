#pragma once
// TensorFlow's tensorflow/python/platform/build_info.py read without running it, as
// tf.sysconfig.get_build_info() would return it (facts/tensorflow.md §2).

#include <map>
#include <string>
#include <string_view>

#include "util/error.h"

namespace tfgpu::binfmt {

// Recognised layouts:
//  - TF >= 2.3: `build_info = collections.OrderedDict([('cuda_version', '11.8'), ...])`
//    or `build_info = {...}` (plain dict, TF 2.3 Windows);
//  - TF <= 2.2: module-level assignments (`cuda_version_number = '10.1'`,
//    `is_cuda_build = True`, ...), each becoming one key.
// When both appear, the `build_info` dict wins for its keys.
// Values: strings as-is, lists joined with ',' ("sm_35,sm_50,compute_80"), booleans
// "True"/"False", None "None", numbers as written.
// Errors: kInput "NAME: ..." when the file is not the literal subset (see py_literal.h)
// or defines neither a build_info dict nor any literal assignment.
Result<std::map<std::string, std::string>> parse_tf_build_info(std::string_view text,
                                                               std::string_view name = {});

}  // namespace tfgpu::binfmt
