#pragma once
// The knowledge base: typed rows read from kb/*.toml (TensorFlow, CUDA and cuDNN
// releases, GPUs) and the queries doctor rules, plan, explain, bench and matrix ask of
// it. Pure: no file system access except through a Host in load_directory. Every
// query result carries the citations (source + verified) of the rows it used.

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "host/host.h"
#include "kb/embedded.h"
#include "util/error.h"
#include "util/version.h"

namespace tfgpu::kb {

// "linux" / "windows" / "macos" (also "win", "wsl" -> linux, "mac", "darwin").
Result<Platform> parse_platform(std::string_view text);

// Where a fact comes from: the KB row that holds it and that row's sources, resolved to
// URLs (with "owner/repo:path@commit" where kb/sources.toml records one).
struct Citation {
  std::string row;                   // "tensorflow 2.10.0", "cuda 11.2", "gpu 10de:2504"
  std::vector<std::string> sources;  // resolved, in the row's order
  bool verified = true;              // false: the facts sheet marks it UNVERIFIED or inferred
};

// A row's `source` / `verified` as written in the TOML (source ids or literal URLs).
struct Provenance {
  std::vector<std::string> source;
  bool verified = true;

  bool operator==(const Provenance&) const = default;
};

// A GPU compute capability, "8.6".
struct ComputeCapability {
  int major = 0;
  int minor = 0;
  static Result<ComputeCapability> parse(std::string_view text);  // "8.6", "sm_86", "compute_90", "86"
  std::string str() const;                                        // "8.6"
  auto operator<=>(const ComputeCapability&) const = default;
};

// One library TF (or a toolkit) names: component ("cudart", "cublasLt", "cudnn",
// "driver", ...) and the exact file name for the platform.
struct LibraryName {
  std::string component;
  std::string file;

  bool operator==(const LibraryName&) const = default;
};

// How a library set was taken from one TF release: method "wheel" (the release's
// binary inspected), "run" (real TF run, its dso_loader log) or "source".
struct LibrarySetDerivation {
  Version tf;
  std::string method;
  std::string what;  // which facts it backs ("must_load, linux names")
  std::string how;

  bool operator==(const LibrarySetDerivation&) const = default;
};

struct LibrarySet {
  std::string id;
  std::vector<std::string> must_load;  // components that must all load or GPUs are skipped
  bool must_load_verified = true;
  // Components TF's CUDA platform initialisation loads and initialises before it counts
  // devices ("driver", and "nvml" where TF calls nvmlInit): one failing = no GPU at all.
  std::vector<std::string> platform_init;
  // true: the must-load libraries are linked into TensorFlow's native modules (TF 1.x), so
  // a missing one fails `import tensorflow` instead of TF skipping the GPU.
  bool linked = false;
  std::vector<LibrarySetDerivation> derivations;
  std::map<Platform, std::vector<LibraryName>> names;  // in canonical component order
  std::vector<std::string> notes;
  Provenance prov;

  bool operator==(const LibrarySet&) const = default;
};

// Whether a version a user states ("8", "8.0", "9.0.176") names a build's CUDA / cuDNN
// version ("8.0", "9.0"): the same major.minor, or a bare major that prefixes it.
bool stated_version_names(const Version& built, const Version& stated);

struct TfRelease {
  Version version;  // the patch the docs list, e.g. 2.16.1
  std::map<Platform, std::vector<Version>> python;  // tested Pythons; absent = not listed
  Version cuda;
  Version cudnn;
  std::vector<Platform> gpu_platforms;  // where the official wheel is a CUDA build
  std::string library_set;
  std::vector<std::string> compute_capabilities;  // build_info list ("sm_35", "compute_80"); empty = unknown
  Provenance cc_prov;
  std::string cc_note;
  std::vector<std::string> notes;
  // false: known (matrix, explain, doctor read it) but never proposed by `plan` unless
  // asked for by --tf; the row's notes say why.
  bool plan = true;
  // true: the wheel accepts only the cuDNN minor it was compiled with (7.0.x for 1.5-1.7);
  // false: any minor at or above it within the major (cuDNN >= 7 from TF 1.8).
  bool cudnn_minor_exact = false;
  // false: the official wheels run on a CPU without AVX (before 1.6).
  bool avx = true;
  // What `import tensorflow` does on native Windows when a CUDA / cuDNN DLL of the GPU wheel
  // is missing: kDllLoadFailed (the .pyd imports them, nothing names the one missing: a
  // bare "DLL load failed"), kNamedAtImport (self_check.py names it), kLoggedAtRunTime (opened
  // later, logged); kUnknown where the wheel was not read.
  enum class MissingDll { kUnknown, kDllLoadFailed, kNamedAtImport, kLoggedAtRunTime };
  MissingDll windows_missing_cuda_dll = MissingDll::kUnknown;
  Provenance import_prov;  // where avx / windows_missing_cuda_dll were read
  Provenance prov;

  Version series() const { return version.truncated(2); }
  bool has_gpu_build(Platform p) const;
  // Pythons with wheels for the platform; nullptr when the docs list none.
  const std::vector<Version>* python_on(Platform p) const;
  // Whether the wheel's load-time check accepts this cuDNN: the build's major, at its minor
  // or above (exactly its minor when cudnn_minor_exact). False when the row names no cuDNN.
  bool loads_cudnn(const Version& installed) const;

  bool operator==(const TfRelease&) const = default;
};

struct YankedRelease {
  Version version;
  Version use;
  std::string note;
  Provenance prov;

  bool operator==(const YankedRelease&) const = default;
};

// A pip package flavour over a range of TF releases. role: gpu, cpu, alias,
// installer, removed.
struct TfPackage {
  std::string name;
  VersionRange tf;
  std::vector<Platform> platforms;
  std::string role;
  std::string note;
  Provenance prov;

  bool operator==(const TfPackage&) const = default;
};

struct AndCudaPins {
  VersionRange tf;
  std::vector<Platform> platforms;
  std::vector<std::string> wheels;  // "nvidia-cudnn-cu12==9.3.0.75"
  std::string note;
  Provenance prov;

  bool operator==(const AndCudaPins&) const = default;
};

// A requirement a working pip install needs beyond the wheel's own Requires-Dist
// ("numpy<2" before TF 2.18).
struct PipConstraint {
  VersionRange tf;
  std::vector<Platform> platforms;
  std::string requirement;  // PEP 508, as it goes into requirements.txt
  std::string why;
  Provenance prov;

  bool operator==(const PipConstraint&) const = default;
};

// The TensorRT libraries (TF-TRT) a TF range opens when it starts (import, GPU listing),
// and the warning it prints when they are missing. Optional: GPU registration does not
// depend on them, only TF-TRT does.
struct TensorRtLoad {
  VersionRange tf;
  std::vector<Platform> platforms;
  std::vector<std::string> files;  // "libnvinfer.so.8", "libnvinfer_plugin.so.8", in TF's order
  std::string warning;             // "TF-TRT Warning: Could not find TensorRT"
  Provenance prov;

  bool operator==(const TensorRtLoad&) const = default;
};

// What to tell a user whose platform has no GPU build for a TF range.
struct PlatformNote {
  Platform platform = Platform::kLinux;
  VersionRange tf;
  std::string message;
  std::vector<std::string> alternatives;
  Provenance prov;

  bool operator==(const PlatformNote&) const = default;
};

// A range of TensorFlow.js Node.js binding releases (tfjs-node, tfjs-node-gpu: one version
// line) and the libtensorflow (TensorFlow's C library) they download at install: their CUDA
// and cuDNN needs are that TensorFlow release's.
struct TfjsNodeRelease {
  VersionRange tfjs;
  Version libtensorflow;
  Provenance prov;

  bool operator==(const TfjsNodeRelease&) const = default;
};

struct DriverUpdate {
  std::string label;
  Version driver_linux;
  std::optional<Version> driver_windows;

  bool operator==(const DriverUpdate&) const = default;
};

struct CudaRelease {
  Version version;  // major.minor
  Version ga;
  Version driver_linux;                   // bundled with the GA toolkit
  std::optional<Version> driver_windows;  // absent from 13.0 on (no bundled Windows driver)
  std::vector<DriverUpdate> updates;
  ComputeCapability sass_min;
  ComputeCapability sass_max;
  std::vector<ComputeCapability> dropped;
  Provenance cc_prov;
  std::string cc_note;
  std::map<Platform, std::vector<LibraryName>> libraries;  // empty where not sourced (9.x)
  Provenance lib_prov;
  std::vector<std::string> notes;
  Provenance prov;

  // File name of a component ("cusolver") on a platform, if known.
  std::optional<std::string> library(Platform p, std::string_view component) const;
  // Whether one of its libraries on a platform is this file (case-insensitive).
  bool ships(Platform p, std::string_view file) const;

  bool operator==(const CudaRelease&) const = default;
};

struct CudaFamily {
  int major = 0;
  bool minor_version_compat = false;
  std::optional<Version> driver_linux;
  std::optional<Version> driver_windows;
  std::optional<Version> driver_branch_below;  // newer branches run it through backward compatibility
  std::string note;
  Provenance prov;

  bool operator==(const CudaFamily&) const = default;
};

// The Windows driver CUDA of one major needs inside WSL2 ([[wsl2_driver]]).
struct Wsl2Driver {
  int major = 0;
  Version driver;
  std::string note;
  Provenance prov;

  bool operator==(const Wsl2Driver&) const = default;
};

struct CudnnMajor {
  int major = 0;
  std::string header;          // "cudnn.h" or "cudnn_version.h"
  int version_multiplier = 0;  // CUDNN_VERSION = major * multiplier + minor * 100 + patch
  std::map<Platform, std::vector<std::string>> libraries;  // entry library first
  std::string note;
  Provenance prov;

  bool operator==(const CudnnMajor&) const = default;
};

enum class Tristate { kNo, kYes, kUnknown };

struct CudnnRelease {
  Version version;
  std::vector<VersionRange> cuda;  // supported CUDA toolkits
  std::optional<ComputeCapability> min_cc;
  Tristate windows_zlibwapi = Tristate::kUnknown;
  std::string note;
  Provenance prov;

  bool supports_cuda(const Version& cuda_version) const;

  bool operator==(const CudnnRelease&) const = default;
};

struct GpuPeak {
  std::optional<double> fp32_tflops;
  std::optional<double> tf32_tflops;
  std::optional<double> fp16_tflops;  // tensor cores, FP32 accumulate, dense
  std::optional<double> bf16_tflops;
  std::optional<double> fp8_tflops;
  std::optional<double> bandwidth_gbs;
  std::string note;
  Provenance prov;

  bool operator==(const GpuPeak&) const = default;
};

struct Gpu {
  uint16_t vendor = 0x10de;
  uint16_t device = 0;
  std::string pci_id;  // "10de:2504"
  std::string chip;    // "GA106"
  std::string name;    // "GeForce RTX 3060 Lite Hash Rate"
  ComputeCapability cc;
  std::optional<double> memory_gb;
  std::optional<bool> tensor_cores;  // set only where a part lacks them despite its CC
  std::string note;
  std::optional<GpuPeak> peak;
  Provenance prov;

  bool operator==(const Gpu&) const = default;
};

struct Architecture {
  VersionRange cc;
  std::string name;
  Provenance prov;

  bool operator==(const Architecture&) const = default;
};

// The lowest compute capability whose Tensor Cores do one kind of math (nvidia.md §4c):
// feature "fp16" (Tensor Cores at all, Volta), "bf16" (bfloat16 and TF32, Ampere).
struct TensorCoreMath {
  std::string feature;
  ComputeCapability min_cc;
  std::string note;
  Provenance prov;

  bool operator==(const TensorCoreMath&) const = default;
};

struct Source {
  std::string id;
  std::string title;
  std::string url;
  std::string ref;  // "owner/repo:path@commit" where known

  bool operator==(const Source&) const = default;
};

// ---- query results -------------------------------------------------------------

struct TfLookup {
  const TfRelease* release = nullptr;
  std::string note;  // set when the row differs from what was asked ("2.16.0 was yanked ...")
  std::vector<Citation> cites;
};

struct LibraryEntry {
  std::string component;
  std::string file;
  bool must_load = false;  // in the set that must all load, or TF skips GPU registration
  bool platform_init = false;  // loaded by TF's platform initialisation: failing = no GPU listed
};

struct TfLibraries {
  Platform platform = Platform::kLinux;
  bool gpu_build = false;            // false: the platform's wheel is CPU-only, `libraries` is empty
  std::vector<LibraryEntry> libraries;  // driver first, then the toolkit libraries, cuDNN last
  bool must_load_verified = true;
  bool linked = false;  // the set's `linked`: a missing must-load library fails the import
  // Opened at start too, but nothing depends on them for the GPU (TensorRT, component
  // "tensorrt"); never in `libraries`. `optional_warning`: what TF prints when they are missing.
  std::vector<LibraryEntry> optional;
  std::string optional_warning;
  std::vector<Citation> optional_cites;
  std::vector<std::string> notes;
  std::vector<Citation> cites;

  // The file name of a component ("cudart" -> "libcudart.so.9.0"), or nullopt.
  std::optional<std::string> file_of(std::string_view component) const;
};

// Toolkit-exact: the driver bundled with that exact toolkit (full features).
// Minor-version compatibility: the family minimum that runs any CUDA >= 11 app of
// that major with a limited feature set (no PTX JIT from a newer toolkit).
enum class DriverPolicy { kToolkitExact, kMinorVersionCompat };

struct DriverRequirement {
  Version cuda;
  Platform platform = Platform::kLinux;
  DriverPolicy policy = DriverPolicy::kMinorVersionCompat;
  Version min_driver;
  std::string basis;  // one line: where the number comes from
  std::vector<Citation> cites;
};

struct DriverCapability {
  Version driver;
  Platform platform = Platform::kLinux;
  std::optional<Version> newest_cuda_toolkit_exact;  // newest toolkit whose bundled driver <= driver
  std::optional<Version> newest_cuda_minor_compat;   // newest toolkit the driver runs at all
  std::vector<Citation> cites;
};

enum class CcSupport {
  kNative,   // SASS for the device's major arch is in the wheel
  kPtxJit,   // only PTX of a lower arch: works after a slow JIT compile
  kIgnored,  // below the lowest compiled arch: TF ignores the device
  kUnknown,  // the release's compiled list is not in the KB
};
std::string_view to_string(CcSupport s);  // "native", "ptx_jit", "ignored", "unknown"

struct CcSupportResult {
  CcSupport support = CcSupport::kUnknown;
  std::optional<ComputeCapability> min_required;  // lowest arch compiled in
  std::string detail;                             // one line, e.g. "no sm_8x; JIT from compute_80"
  std::vector<Citation> cites;
};

// ---- the knowledge base ---------------------------------------------------------

class KnowledgeBase {
 public:
  // Whole tables, sorted by version (GPUs by PCI id).
  std::span<const TfRelease> tf_releases() const { return tf_; }
  std::span<const YankedRelease> yanked() const { return yanked_; }
  std::span<const LibrarySet> library_sets() const { return library_sets_; }
  std::span<const TfPackage> packages() const { return packages_; }
  std::span<const AndCudaPins> and_cuda() const { return and_cuda_; }
  std::span<const TensorRtLoad> tensorrt_loads() const { return tensorrt_; }
  std::span<const PlatformNote> platform_notes() const { return platform_notes_; }
  std::span<const TfjsNodeRelease> tfjs_node_releases() const { return tfjs_node_; }
  std::span<const CudaRelease> cuda_releases() const { return cuda_; }
  std::span<const CudaFamily> cuda_families() const { return families_; }
  std::span<const CudnnMajor> cudnn_majors() const { return cudnn_majors_; }
  std::span<const CudnnRelease> cudnn_releases() const { return cudnn_; }
  std::span<const Gpu> gpus() const { return gpus_; }
  std::span<const Architecture> architectures() const { return architectures_; }
  std::span<const TensorCoreMath> tensor_core_math() const { return tensor_core_math_; }
  std::span<const Source> sources() const { return sources_; }

  // TensorFlow release by version text: "2.10", "2.10.1" -> the 2.10 row; "2.16.0"
  // (yanked) -> the 2.16.1 row with a note. Malformed: kInput; unknown: kNotFound with
  // the nearest known versions in the message ("did you mean 2.21, 2.20?").
  Result<TfLookup> find_tf(std::string_view version) const;
  const TfRelease* find_tf(const Version& version) const;  // same rule, no note

  const LibrarySet* library_set(std::string_view id) const;
  // The exact file names TF opens on a platform and which must all load.
  TfLibraries tf_libraries(const TfRelease& tf, Platform p) const;
  // The releases whose GPU build on `p` opens a library of this file name (any case), oldest first.
  std::vector<const TfRelease*> releases_opening(std::string_view file, Platform p) const;
  std::vector<const TfPackage*> packages_for(const TfRelease& tf, Platform p) const;
  // The package that is the release's CUDA build on `p` ("tensorflow-gpu" up to 2.0), or nullptr.
  const TfPackage* gpu_package(const TfRelease& tf, Platform p) const;
  // Whether the plain `tensorflow` package of this release is the CPU-only build on Linux
  // (up to 2.0: the GPU build was `tensorflow-gpu`), read from the [[package]] rows.
  bool plain_tensorflow_cpu_only(const TfRelease& tf) const;
  const AndCudaPins* and_cuda_for(const TfRelease& tf) const;
  // The pip constraints for installing `tf` on `platform`, in KB order.
  std::vector<const PipConstraint*> pip_constraints_for(const TfRelease& tf, Platform platform) const;
  const PlatformNote* platform_note(const TfRelease& tf, Platform p) const;
  // The tfjs-node(-gpu) row whose range holds `tfjs`, or nullptr.
  const TfjsNodeRelease* find_tfjs_node(const Version& tfjs) const;
  // The oldest CUDA release that builds SASS for `cc` (its sass_max reaches it), or nullptr.
  const CudaRelease* first_cuda_building_for(const ComputeCapability& cc) const;
  // The first release whose wheels use AVX after releases that did not (1.6); nullptr when
  // every row says the same.
  const TfRelease* first_avx_release() const;

  // CUDA toolkit by "11.8" / "11.8.0" (major.minor required). kInput / kNotFound with suggestions.
  Result<const CudaRelease*> find_cuda(std::string_view version) const;
  const CudaRelease* find_cuda(const Version& version) const;
  const CudaFamily* cuda_family(int major) const;
  // Minimum driver for a CUDA version on an OS. kInput for macOS (no CUDA driver),
  // kNotFound for an unknown CUDA version.
  Result<DriverRequirement> min_driver(const Version& cuda, Platform p, DriverPolicy policy) const;
  // The Windows driver WSL2 needs for this CUDA, when the KB states one; nullptr otherwise.
  const Wsl2Driver* wsl2_driver(const Version& cuda) const;
  // Newest CUDA a driver runs (toolkit-exact and through minor-version compatibility).
  DriverCapability newest_cuda_for_driver(const Version& driver, Platform p) const;

  // cuDNN by "8.6" (newest 8.6 row) or "8.9.6" (newest row at or below). kInput / kNotFound.
  Result<const CudnnRelease*> find_cudnn(std::string_view version) const;
  const CudnnRelease* find_cudnn(const Version& version) const;
  const CudnnMajor* cudnn_major(int major) const;
  // CUDNN_VERSION / cudnnGetVersion() value -> version (8907 -> 8.9.7, 90100 -> 9.1.0).
  Result<Version> decode_cudnn_version(long encoded) const;

  // GPU by PCI id: "10de:2504", "0x2504", "2504", "PCI\\VEN_10DE&DEV_2504...".
  Result<const Gpu*> find_gpu_by_pci(std::string_view text) const;
  const Gpu* find_gpu(uint16_t vendor, uint16_t device) const;
  // GPUs whose name matches (case, spaces, "NVIDIA"/"GeForce" ignored): the exact name
  // if any, else every GPU whose name contains all the words. kNotFound with the
  // nearest names when nothing matches.
  Result<std::vector<const Gpu*>> find_gpus_by_name(std::string_view text) const;
  // What `--gpu TEXT` means in every command (matrix, plan): a PCI id when it says so
  // ("10de:2504", "0x2504", "PCI\\VEN_..."), else a name ("4090", "RTX 3060"), and only
  // when no name matches, a bare 4-digit device id ("2504").
  Result<std::vector<const Gpu*>> find_gpus(std::string_view text) const;
  std::string architecture_name(ComputeCapability cc) const;  // "Ampere"; "" if unknown
  // The Tensor Core row for a feature ("fp16", "bf16"); nullptr when the KB has none.
  const TensorCoreMath* tensor_core_min(std::string_view feature) const;

  // Whether a TF release's wheel has kernels for a compute capability.
  CcSupportResult tf_cc_support(const TfRelease& tf, ComputeCapability cc) const;

  // Citations for rows (source ids resolved to URLs).
  Citation cite(const TfRelease& r) const;
  Citation cite_cc(const TfRelease& r) const;
  Citation cite_import(const TfRelease& r) const;  // avx, windows_missing_cuda_dll
  Citation cite(const YankedRelease& r) const;
  Citation cite(const LibrarySet& r) const;
  Citation cite(const TfPackage& r) const;
  Citation cite(const AndCudaPins& r) const;
  Citation cite(const PipConstraint& r) const;
  Citation cite(const TensorRtLoad& r) const;
  Citation cite(const Wsl2Driver& r) const;
  Citation cite(const PlatformNote& r) const;
  Citation cite(const TfjsNodeRelease& r) const;
  Citation cite(const CudaRelease& r) const;
  Citation cite_libraries(const CudaRelease& r) const;
  Citation cite_cc(const CudaRelease& r) const;
  Citation cite(const CudaFamily& r) const;
  Citation cite(const CudnnMajor& r) const;
  Citation cite(const CudnnRelease& r) const;
  Citation cite(const Gpu& r) const;
  Citation cite_peak(const Gpu& r) const;  // the peak's own sources
  Citation cite(const TensorCoreMath& r) const;
  // One source string (id or literal) -> URL (+ ref). Unknown ids come back unchanged.
  std::string resolve_source(std::string_view id_or_literal) const;
  const Source* source(std::string_view id) const;

 bool operator==(const KnowledgeBase&) const = default;

 private:
  friend class KbLoader;
  friend struct KbBlobAccess;  // kb_blob.cc: the compiled copy
  std::vector<TfRelease> tf_;
  std::vector<YankedRelease> yanked_;
  std::vector<LibrarySet> library_sets_;
  std::vector<TfPackage> packages_;
  std::vector<AndCudaPins> and_cuda_;
  std::vector<PipConstraint> pip_constraints_;
  std::vector<TensorRtLoad> tensorrt_;
  std::vector<Wsl2Driver> wsl2_drivers_;
  std::vector<PlatformNote> platform_notes_;
  std::vector<TfjsNodeRelease> tfjs_node_;
  std::vector<CudaRelease> cuda_;
  std::vector<CudaFamily> families_;
  std::vector<CudnnMajor> cudnn_majors_;
  std::vector<CudnnRelease> cudnn_;
  std::vector<Gpu> gpus_;
  std::vector<Architecture> architectures_;
  std::vector<TensorCoreMath> tensor_core_math_;
  std::vector<Source> sources_;
};

// The copy compiled into the binary (kb/*.toml at build time).
Result<KnowledgeBase> load_embedded();
// DIR/*.toml read through the host (`--kb DIR`).
Result<KnowledgeBase> load_directory(const Host& host, const std::string& dir);
// Named TOML texts; files other than sources/tensorflow/cuda/cudnn/gpus.toml are
// ignored (other slices keep their own tables in kb/). Malformed TOML or a row with a
// missing or malformed field is a kInput error naming the file and row.
Result<KnowledgeBase> load_texts(std::span<const EmbeddedFile> files);

// The KB for a command: the embedded copy, or `--kb DIR` when given.
Result<KnowledgeBase> load_for_command(const Host& host, const std::string& kb_dir);

// NVIDIA driver versions print every component after the branch with two digits
// ("450.80.02", "522.06"); Version drops leading zeros, so reports format with this.
std::string driver_version_str(const Version& v);

// Up to `n` candidates closest to `wanted` (numeric distance for versions), for
// "did you mean" messages.
std::vector<std::string> nearest_versions(const Version& wanted, const std::vector<Version>& known, size_t n = 2);

}  // namespace tfgpu::kb
