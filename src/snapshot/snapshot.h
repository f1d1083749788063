#pragma once
// The Snapshot: the whole machine as plain data, filled by the probes (or parsed
// from `tfgpu probe --json` of any machine, or partly from a log by explain).
// Nothing after probing touches the live system: rules, the loader model, plan and
// the renderers read only this. Missing facts are data with a reason (ProbeState).
// JSON schema: docs/snapshot.md; bump kSnapshotSchemaVersion on incompatible change.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tfgpu {

inline constexpr int kSnapshotSchemaVersion = 1;

// Why a fact is or is not there.
enum class ProbeStatus {
  kNotProbed,    // nobody looked (e.g. a partial snapshot from a log)
  kOk,           // found; value fields are filled
  kAbsent,       // looked, and it is not there (no driver, no GPU): a fact, not an error
  kUnsupported,  // cannot be known on this platform / in this mode
  kFailed,       // looking failed (reason says why, verbatim where possible)
};

struct ProbeState {
  ProbeStatus status = ProbeStatus::kNotProbed;
  std::string reason;  // "no NVIDIA PCI device in /sys/bus/pci/devices", "dlopen: ...: cannot open shared object file"
  std::string source;  // where it was read: a path, "nvml", "sysfs", "registry", "log line 12"
};

// Tri-state for facts that may be unknown (a CPU flag read from a log, say).
enum class Tri { kUnknown, kNo, kYes };

struct CpuInfo {
  std::string vendor;  // "GenuineIntel"
  std::string model;   // "Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz"
  Tri avx = Tri::kUnknown;
  Tri avx2 = Tri::kUnknown;
  Tri avx512f = Tri::kUnknown;
  Tri fma = Tri::kUnknown;
  // What glibc's ld.so reads to pick $PLATFORM on Intel x86-64 (sysdeps/x86/cpu-features.c,
  // init_cpu_features: "haswell", "xeon_phi"); /proc/cpuinfo names, lzcnt is its "abm" flag.
  Tri bmi1 = Tri::kUnknown;
  Tri bmi2 = Tri::kUnknown;
  Tri lzcnt = Tri::kUnknown;
  Tri movbe = Tri::kUnknown;
  Tri popcnt = Tri::kUnknown;
  Tri avx512cd = Tri::kUnknown;
  Tri avx512er = Tri::kUnknown;
  Tri avx512pf = Tri::kUnknown;
  std::string source;  // "/proc/cpuinfo", "cpuid"
};

struct HostInfo {
  std::string os;         // "linux" | "windows" | "macos" ("" unknown)
  std::string distro;     // "Debian GNU/Linux 12 (bookworm)", "Windows 10 Pro 22H2 (build 19045)"
  std::string kernel;     // uname -r, or the Windows build "10.0.19045"
  std::string arch;       // "x86_64", "aarch64", "AMD64"
  std::string glibc_version;  // "2.36": the C library's own answer (gnu_get_libc_version); "" unknown / not glibc
  std::string hostname;       // the machine's name (uname nodename / DNS host name); "" unknown, or older snapshots
  Tri wsl2 = Tri::kUnknown;
  std::string container;  // "" none/unknown, "docker", "podman", "kubernetes", "lxc"
  CpuInfo cpu;
  ProbeState state;
};

struct GpuInfo {
  int index = -1;                  // driver/NVML index; -1 when only seen on the bus
  std::string name;                // "NVIDIA GeForce RTX 3060"
  std::string pci_id;              // "10de:2504" (vendor:device, lower-case hex)
  std::string pci_bus_id;          // "0000:01:00.0"
  std::string compute_capability;  // "8.6" ("" unknown)
  uint64_t memory_total_bytes = 0;
  uint64_t memory_free_bytes = 0;
  std::string uuid;                // "GPU-..." (redacted in Markdown reports)
  std::string source;              // "sysfs", "nvml", "cuda", "kb:pci", "setupapi", "log"
};

// One attempt to load a vendor library (in a child process) and what it said.
struct LoadAttempt {
  std::string library;              // "nvml", "cuda"
  std::vector<std::string> tried;   // names/paths in order
  std::vector<std::string> errors;  // verbatim loader errors, one per failed try
  std::string opened;               // file that loaded ("" if none)
  std::string init_result;          // "NVML_SUCCESS", "CUDA_ERROR_NO_DEVICE (100)", "crashed: signal 11", "timed out"
};

struct DriverInfo {
  ProbeState state;               // kOk when a working driver answered
  std::string version;            // "535.104.05", "522.06"
  std::string cuda_version;       // newest CUDA the driver supports, "12.2"
  std::string kernel_module_version;  // /proc/driver/nvidia/version ("" on Windows/WSL2)
  int device_count = -1;          // -1 unknown
  std::vector<LoadAttempt> attempts;
};

struct ElfInfo {
  int bits = 0;                 // 32 / 64
  std::string machine;          // "x86-64", "aarch64", "i386"
  std::string soname;
  std::vector<std::string> needed;
  std::vector<std::string> rpath;    // DT_RPATH entries, unexpanded
  std::vector<std::string> runpath;  // DT_RUNPATH entries, unexpanded
  // Dynamic symbols the probe looked up (DT_GNU_HASH), mangled name -> defined in this
  // file. Only TensorFlow's own objects are asked (its DSO loader); absent = not looked up.
  std::map<std::string, bool> symbols;
};

struct PeInfo {
  int bits = 0;               // 32 / 64
  std::string machine;        // "x64", "x86", "arm64"
  std::vector<std::string> imports;  // imported DLL names
  std::string file_version;   // VERSIONINFO FileVersion, "6.14.11.9000"
  std::string product_version;
};

// A shared library file relevant to CUDA/TF found on disk.
struct LibraryFile {
  std::string path;           // absolute path as found
  std::string name;           // file name, "libcudart.so.13" / "cudart64_110.dll"
  std::string component;      // "cudart", "cublas", "cublasLt", "cufft", "curand", "cusolver", "cusparse",
                              // "cudnn", "cudnn_*", "nvjitlink", "cupti", "nccl", "nvrtc", "cuda_driver",
                              // "nvml", "zlibwapi", "msvcp140", "msvcp140_1", "tensorflow", "other"
  std::string version;        // best known version of the file ("13.0.96", "9.19.0")
  std::string version_source; // "file name", "version.json", "VERSIONINFO", "cudnn_version.h", "dist-info"
  std::string format;         // "elf" | "pe" | "unknown"
  ElfInfo elf;                // when format == "elf"
  PeInfo pe;                  // when format == "pe"
  std::string symlink_target; // when the path is a symlink
  std::string origin;         // which install it belongs to: "cuda:/usr/local/cuda-13.0", "pip:nvidia-cudnn-cu12",
                              // "conda:/opt/conda/envs/tf", "system", "wsl", "tensorflow"
  std::string error;          // why it could not be parsed ("truncated ELF header at offset 52")
  // What is known of the headers: "read" (parsed), "invalid" (read, and not a loadable
  // ELF/PE: the loader fails on it), "unreadable" (open() refused: the loader passes it
  // over), "unknown" (not read, or the read failed: cannot tell). "" in snapshots older
  // than this field: derived from format / error as before.
  std::string headers;
};

// A CUDA toolkit or runtime distribution (system toolkit, pip wheels, conda packages).
struct CudaInstall {
  std::string root;            // "/usr/local/cuda-13.0", ".../site-packages/nvidia/cuda_runtime"
  std::string version;         // "13.0.96" (as precise as known)
  std::string version_source;  // "/usr/local/cuda-13.0/version.json"
  std::string kind;            // "toolkit" | "pip" | "conda" | "system" | "registry"
  std::string package;         // pip/conda package name where kind is pip/conda
  std::vector<std::string> lib_dirs;
};

struct CudnnInstall {
  std::string root;            // dir holding include/ and lib/ (or the pip package dir)
  std::string version;         // "9.19.0"
  std::string version_source;  // "/usr/local/cuda/include/cudnn_version.h"
  std::string kind;            // "toolkit" | "pip" | "conda" | "system" | "standalone"
  std::string package;
  std::string cuda_major;      // CUDA major it was built for where known ("12" for -cu12 wheels)
  std::vector<std::string> lib_dirs;
};

struct LdCacheEntry {
  std::string name;   // "libcudart.so.12"
  std::string path;   // "/usr/local/cuda/lib64/libcudart.so.12"
  std::string arch;   // "x86-64", "i386", "aarch64" (libc6 flag text)
};

// Where the platform loader looks (enough to simulate it without the machine).
struct LoaderInfo {
  // Linux
  std::vector<std::string> ld_so_conf_dirs;   // in /etc/ld.so.conf order, includes expanded
  std::vector<LdCacheEntry> ld_cache;         // relevant entries only (CUDA/cuDNN/NVIDIA/TF names)
  ProbeState ld_cache_state;
  std::vector<std::string> default_dirs;      // trusted dirs ld.so searches last
  // Windows
  std::string system_dir;                     // "C:\\Windows\\System32"
  std::string windows_dir;                    // "C:\\Windows"
  std::vector<std::string> known_dlls;
  bool safe_dll_search_mode = true;
  // Directory symlinks on the paths the probe looked at: link path -> its target as
  // readlink gives it ("/usr/local/cuda" -> "/usr/local/cuda-13.0", "/usr/local/cuda-13.0/lib64"
  // -> "lib"), so the loader model names a file the way the filesystem does.
  std::map<std::string, std::string> dir_links;
};

struct PythonPackage {
  std::string name;      // normalised distribution name, "tensorflow", "nvidia-cudnn-cu12"
  std::string version;
  std::string location;  // site-packages dir it is in
  std::string source;    // the METADATA / PKG-INFO file read
};

struct TensorflowInstall {
  std::string package;   // "tensorflow", "tensorflow-cpu", "tensorflow-intel", "tensorflow-gpu", "tf-nightly"
  std::string version;   // "2.15.0"
  std::string location;  // ".../site-packages/tensorflow"
  // tf.sysconfig.get_build_info() as read from build_info.py without running it:
  // lists joined with ',' ("sm_35,sm_50,compute_80"), booleans "True"/"False".
  std::map<std::string, std::string> build_info;
  ProbeState build_info_state;
  // The object of TF's own whose dlopen opens the CUDA libraries (the one whose DSO
  // loader wins symbol lookup; its RUNPATH counts), and why; "" when not known.
  std::string dlopen_caller;
  std::string dlopen_caller_source;
};

struct PythonEnv {
  std::string executable;  // "/home/u/.venv/bin/python3", "C:\\Users\\u\\miniconda3\\envs\\tf\\python.exe"
  std::string prefix;      // sys.prefix equivalent
  std::string version;     // "3.10.12"
  int bits = 0;            // 64 / 32 (0 unknown)
  std::string kind;        // "system" | "pyenv" | "venv" | "conda" | "store" | "registry" | "given"
  std::string name;        // conda env name / pyenv version / venv dir name
  bool active = false;     // the one `python` resolves to now (VIRTUAL_ENV, CONDA_PREFIX, first on PATH)
  std::vector<std::string> site_packages;
  std::vector<PythonPackage> packages;  // relevant ones: tensorflow*, tf-*, keras, nvidia-*, torch, jax*, tensorrt
  ProbeState packages_state;  // kFailed: a site-packages dir could not be listed (or none was found), so
                              // `packages` may miss some; kNotProbed in snapshots older than the field
  std::vector<TensorflowInstall> tensorflow;
  std::string source;      // how it was found: "PATH", "pyenv", "conda environments.txt", "--python"
};

// Permissions of one directory on a library search path (PATH, LD_LIBRARY_PATH), for the
// library-planting check: a directory anyone can write to, searched before the CUDA
// folders, lets any local user plant a cudart/cudnn the next TensorFlow process loads.
struct SearchDirInfo {
  std::string path;
  Tri world_writable = Tri::kUnknown;  // POSIX: o+w (sticky or not); Windows: writable by Users/Everyone
  std::string source;                  // "stat", "acl"
};

struct Snapshot {
  int schema_version = kSnapshotSchemaVersion;
  std::string tool_version;
  std::string created_at;  // ISO 8601 UTC
  std::string origin;      // "probe" | "log" | "file" | "test"

  HostInfo host;
  ProbeState gpu_state;                    // hardware layer as a whole
  std::vector<GpuInfo> gpus;
  DriverInfo driver;
  std::map<std::string, std::string> env;  // only the variables that matter (PATH, LD_LIBRARY_PATH, CUDA_*, TF_*, ...)
  ProbeState runtime_state;
  std::vector<CudaInstall> cuda;
  std::vector<CudnnInstall> cudnn;
  std::vector<LibraryFile> libraries;
  LoaderInfo loader;
  ProbeState python_state;
  std::vector<PythonEnv> pythons;
  std::vector<std::string> notes;          // probe remarks worth showing ("skipped /mnt/c: not readable")
  std::vector<SearchDirInfo> search_dirs;  // PATH / LD_LIBRARY_PATH directories with their permissions (empty: not probed)
};

}  // namespace tfgpu
