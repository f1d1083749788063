#pragma once
// Where Windows keeps what the POSIX probe finds in well-known directories: CUDA
// toolkits registered by the NVIDIA installer, cuDNN's own installer layout, Python
// interpreters registered under PEP 514 or installed from the Microsoft Store, the
// loader facts the LoadLibrary model needs, and the bitness of a .exe from its PE header.
// Pure code over the Host seam (registry, files, environment), so FakeHost(kWindows)
// tests cover it; runtime.cc, probe.cc and loader_layer.cc call it when the platform
// is Windows.

#include <string>
#include <vector>

#include "host/host.h"
#include "python/python_env.h"
#include "snapshot/snapshot.h"

namespace tfgpu::probe {

// The registry key the CUDA installer writes one subkey per version under (v11.2, v12.4),
// each with an InstallDir value.
inline constexpr const char* kCudaRegistryKey = "HKLM\\SOFTWARE\\NVIDIA Corporation\\GPU Computing Toolkit\\CUDA";

struct RegisteredCuda {
  std::string key_version;  // "v11.2" as the subkey is named
  std::string install_dir;  // InstallDir value
};
// Every CUDA version registered, in subkey order; versions without InstallDir are skipped.
std::vector<RegisteredCuda> registered_cuda_installs(const Host& host);

// "C:\\Program Files" from %ProgramFiles% (falls back to the default spelling).
std::string program_files_dir(const Host& host);

// One cuDNN from NVIDIA's Windows installer: <ProgramFiles>\NVIDIA\CUDNN\v9.x with
// bin\<cuda>\cudnn64_9.dll (9.0-9.x) or bin\<cuda>\x64\ (newer), headers in include\<cuda>.
struct CudnnInstallerLayout {
  std::string root;          // "...\\NVIDIA\\CUDNN\\v9.1"
  std::string cuda_version;  // "12.4": the bin\ subdirectory it was built for ("" for a flat bin\)
  std::string cuda_major;    // "12"
  std::string lib_dir;       // the directory holding the DLLs
  std::string include_dir;   // include\<cuda> when present, else include
};
std::vector<CudnnInstallerLayout> cudnn_installer_layouts(const Host& host);

// Python interpreters registered under PEP 514 (HKCU, HKLM and HKLM's 32-bit view
// WOW6432Node; every company, PythonCore first) and Microsoft Store installs
// (%LOCALAPPDATA%\Microsoft\WindowsApps\PythonSoftwareFoundation.Python.3.*). The `py`
// launcher lists exactly the PEP 514 registrations, so it needs no separate run.
std::vector<python::Candidate> windows_python_candidates(const Host& host);

// 64 / 32 from the PE header of an executable; 0 when unreadable or not PE.
int pe_bits(const Host& host, const std::string& exe);

// Where Windows lists the DLLs its loader always takes from System32.
inline constexpr const char* kKnownDllsKey = "HKLM\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\KnownDLLs";

// LoaderInfo for Windows: System32 and the Windows dir from %SystemRoot% (windir),
// SafeDllSearchMode from the registry (absent = enabled, as on Windows), and the
// KnownDLLs (file names, sorted case-insensitively; a note when the key cannot be read).
void probe_windows_loader(const Host& host, Snapshot& s);

}  // namespace tfgpu::probe
