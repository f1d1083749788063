#pragma once
// The small files CUDA and cuDNN installs carry their version in, each with a pure parser:
// version.json (CUDA >= 11.1), version.txt (CUDA <= 11.0), cudnn_version.h (cuDNN >= 8)
// and cudnn.h (cuDNN <= 7).

#include <map>
#include <string>
#include <string_view>

#include "util/error.h"

namespace tfgpu::binfmt {

struct CudaVersionJson {
  std::string version;  // the "cuda" entry's version: "12.2.2"
  // Every component with a version: "cuda_cudart" -> "12.2.140", "libcublas" -> "12.2.5.6".
  std::map<std::string, std::string> components;
};

// Errors: kInput "NAME: not valid JSON: ..." / "NAME: no \"cuda\" version in version.json".
Result<CudaVersionJson> parse_cuda_version_json(std::string_view text, std::string_view name = {});

// "CUDA Version 10.2.89" -> "10.2.89". Errors: kInput "NAME: no 'CUDA Version' line".
Result<std::string> parse_cuda_version_txt(std::string_view text, std::string_view name = {});

// `#define CUDNN_MAJOR 9` / `CUDNN_MINOR` / `CUDNN_PATCHLEVEL` -> "9.19.0" (cudnn_version.h
// for cuDNN >= 8, cudnn.h before). Errors: kNotFound "NAME: no CUDNN_MAJOR define" (a
// cudnn.h of cuDNN >= 8 only includes cudnn_version.h), kInput for malformed numbers.
Result<std::string> parse_cudnn_version_header(std::string_view text, std::string_view name = {});

}  // namespace tfgpu::binfmt
