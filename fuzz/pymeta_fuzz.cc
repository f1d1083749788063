// libFuzzer target for the text readers of Python and CUDA metadata: METADATA / PKG-INFO,
// pyvenv.cfg, TensorFlow's build_info.py (the literal-subset parser), version.json,
// version.txt, cudnn_version.h and ld.so.conf lines. The first byte picks the parser so
// the fuzzer can specialise inputs per format; every parser also sees every input.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "binfmt/cuda_version.h"
#include "binfmt/ld_so_conf.h"
#include "binfmt/py_literal.h"
#include "binfmt/python_metadata.h"
#include "binfmt/tf_build_info.h"

namespace {
template <typename R>
void check(const R& r) {
  if (!r && r.error().message.empty()) __builtin_trap();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tfgpu::binfmt;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  check(parse_tf_build_info(text, "build_info.py"));
  check(parse_py_literal(text));
  check(parse_dist_metadata(text, "METADATA"));
  check(parse_pyvenv_cfg(text, "pyvenv.cfg"));
  check(parse_cuda_version_json(text, "version.json"));
  check(parse_cuda_version_txt(text, "version.txt"));
  check(parse_cudnn_version_header(text, "cudnn_version.h"));
  (void)parse_ld_so_conf_text(text);
  size_t half = text.size() / 2;
  (void)glob_match(text.substr(0, half), text.substr(half));
  auto v = parse_py_literal(text);
  if (v) (void)v->to_display();
  return 0;
}
