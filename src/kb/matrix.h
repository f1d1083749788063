#pragma once
// `tfgpu matrix` as a pure function: a query (TF / CUDA / cuDNN / Python / driver /
// GPU filters, intersected, for one OS) answered from the knowledge base into plain
// data that report/matrix_report.h renders as text or JSON.

#include <optional>
#include <string>
#include <vector>

#include "kb/kb.h"

namespace tfgpu::kb {

struct MatrixQuery {
  Platform platform = Platform::kLinux;
  std::optional<std::string> tf;      // "2.10"
  std::optional<std::string> cuda;    // "11.8" or a major, "11"
  std::optional<std::string> cudnn;   // "8.6"
  std::optional<std::string> python;  // "3.12"
  std::optional<std::string> driver;  // "522.06"
  std::optional<std::string> gpu;     // "RTX 3060", "10de:2504"
};

// One TensorFlow release that passed every filter.
struct MatrixTfRow {
  const TfRelease* release = nullptr;
  bool gpu_build = false;                          // on the queried OS
  std::vector<Version> python;                     // on the queried OS; empty = not listed
  std::optional<DriverRequirement> driver_compat;  // lowest driver that runs it
  std::optional<DriverRequirement> driver_exact;   // driver bundled with its CUDA (full features)
  std::optional<DriverRequirement> driver_wsl2;    // Linux wheels in WSL2: the Windows driver (KB [[wsl2_driver]])
  std::optional<CcSupportResult> gpu_support;      // with --gpu
  std::vector<std::string> why;                    // how it matched each filter, one line each
};

// --tf: everything about one release on the OS.
struct MatrixTfDetail {
  const TfRelease* release = nullptr;
  std::string lookup_note;  // "2.16.0 was yanked ..."
  TfLibraries libraries;
  std::vector<const TfPackage*> packages;
  const AndCudaPins* and_cuda = nullptr;        // Linux only
  const PlatformNote* no_gpu_note = nullptr;    // when the OS has no GPU build
  const TfRelease* first_avx = nullptr;         // the first release needing AVX, when this one does not
  std::vector<const Gpu*> gpus_native;          // KB GPUs by how the wheel treats them;
  std::vector<const Gpu*> gpus_ptx_jit;         // all empty when the compiled list is unknown
  std::vector<const Gpu*> gpus_ignored;
};

struct MatrixCudaDetail {
  const CudaRelease* release = nullptr;         // null for a family query ("11")
  int family = 0;
  std::optional<DriverRequirement> driver_exact;
  std::optional<DriverRequirement> driver_compat;
  std::vector<LibraryName> libraries;           // on the OS
};

struct MatrixCudnnDetail {
  const CudnnRelease* release = nullptr;
  const CudnnMajor* major = nullptr;
};

struct MatrixGpuDetail {
  std::vector<const Gpu*> gpus;  // every KB row the name / id matched (same compute capability)
  ComputeCapability cc;
  std::string architecture;
  std::vector<Version> tf_native;   // of the filtered rows with a GPU build on the OS
  std::vector<Version> tf_ptx_jit;
  std::vector<Version> tf_ignored;
  std::vector<Version> tf_unknown;
  std::optional<Version> newest_cuda_targeting;  // newest CUDA toolkit that can still build for it
};

struct MatrixResult {
  MatrixQuery query;
  std::vector<MatrixTfRow> rows;  // newest first
  std::optional<MatrixTfDetail> tf;
  std::optional<MatrixCudaDetail> cuda;
  std::optional<MatrixCudnnDetail> cudnn;
  std::optional<DriverCapability> driver;
  std::optional<MatrixGpuDetail> gpu;
  std::vector<std::string> notes;
  std::vector<Citation> citations;  // every row the answer used, de-duplicated
};

// Malformed or unknown values are kInput / kNotFound errors with one clear line and
// the nearest valid values; an answer that is simply empty (no TF for Python 3.13 on
// Windows 2.10) is a result with no rows and a note.
Result<MatrixResult> run_matrix(const KnowledgeBase& kb, const MatrixQuery& query);

// "3.7, 3.8, 3.9" -> "3.7-3.9"; "2.7, 3.3, ..., 3.7" -> "2.7, 3.3-3.7".
std::string compact_versions(const std::vector<Version>& versions);

}  // namespace tfgpu::kb
