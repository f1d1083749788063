#pragma once
// Which library files matter to CUDA / TensorFlow, by file name, and what a file name
// or a package name says about a component. Pure string rules; the file name
// conventions are from nvidia.md §2a/§2b (sonames carry the library's own major).

#include <string>
#include <vector>

namespace tfgpu::probe {

// The snapshot's component name for a library file ("libcudart.so.13" -> "cudart",
// "libcudnn_ops.so.9" -> "cudnn_ops", "cudart64_110.dll" -> "cudart"), or "" when the
// file is not one tfgpu tracks (static archives, nvrtc-builtins, cufftw, ...).
std::string library_component(const std::string& file_name);

// The full version a file name spells ("libcudnn.so.9.19.0" -> "9.19.0"); "" when the
// name has only a soname major ("libcudart.so.13") or no version.
std::string version_from_file_name(const std::string& file_name);

// Components a version file / package names: "cuda_cudart" (version.json) or
// "nvidia-cuda-runtime-cu12" (pip) -> {"cudart"}; "libcublas" -> {"cublas", "cublasLt"}.
std::vector<std::string> components_of_package(const std::string& name);

}  // namespace tfgpu::probe
