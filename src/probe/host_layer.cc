// Host facts: OS, distro, kernel, WSL2, container, CPU model and flags (/proc/cpuinfo on
// Linux, CPUID through the Host on Windows); and the
// environment variables that matter. All through the Host, so FakeHost tests script them.
#include <set>

#include "host/machine_facts.h"
#include "probe/probe.h"
#include "util/secrets.h"
#include "util/strings.h"

namespace tfgpu::probe {

namespace {

// os-release(5): KEY=value lines, values optionally quoted.
std::map<std::string, std::string> parse_os_release(const std::string& text) {
  std::map<std::string, std::string> out;
  for (const auto& raw : split(text, '\n')) {
    std::string_view line = trim(raw);
    if (line.empty() || line[0] == '#') continue;
    auto eq = line.find('=');
    if (eq == std::string_view::npos) continue;
    std::string key(trim(line.substr(0, eq)));
    std::string_view v = trim(line.substr(eq + 1));
    if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front()) v = v.substr(1, v.size() - 2);
    out[key] = std::string(v);
  }
  return out;
}

Tri flag(const std::set<std::string>& flags, const char* name) {
  return flags.count(name) ? Tri::kYes : Tri::kNo;
}

void read_cpu(const Host& host, CpuInfo& cpu) {
  auto text = host.read_file("/proc/cpuinfo", 8u << 20);
  if (!text) return;
  std::set<std::string> flags;
  bool have_flags = false;
  // Only the first processor block: every core repeats the same model and flags.
  for (const auto& raw : split(*text, '\n')) {
    std::string_view line = raw;
    if (trim(line).empty() && (have_flags || !cpu.model.empty())) break;
    auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view key = trim(line.substr(0, colon));
    std::string_view value = trim(line.substr(colon + 1));
    if (key == "vendor_id" && cpu.vendor.empty()) cpu.vendor = std::string(value);
    else if (key == "model name" && cpu.model.empty()) cpu.model = std::string(value);
    else if ((key == "flags" || key == "Features") && !have_flags) {
      for (auto& f : split_nonempty(value, ' ')) flags.insert(f);
      have_flags = true;
    }
  }
  cpu.source = "/proc/cpuinfo";
  if (!have_flags) return;
  // /proc/cpuinfo flag names (arch/x86/include/asm/cpufeatures.h): avx, avx2, avx512f, fma.
  cpu.avx = flag(flags, "avx");
  cpu.avx2 = flag(flags, "avx2");
  cpu.avx512f = flag(flags, "avx512f");
  cpu.fma = flag(flags, "fma");
  // What glibc's ld.so reads to choose $PLATFORM (loader::ld_so_platform). LZCNT is
  // CPUID 0x80000001 ECX bit 5, which the kernel names "abm" (X86_FEATURE_ABM).
  cpu.bmi1 = flag(flags, "bmi1");
  cpu.bmi2 = flag(flags, "bmi2");
  cpu.lzcnt = flag(flags, "abm");
  cpu.movbe = flag(flags, "movbe");
  cpu.popcnt = flag(flags, "popcnt");
  cpu.avx512cd = flag(flags, "avx512cd");
  cpu.avx512er = flag(flags, "avx512er");
  cpu.avx512pf = flag(flags, "avx512pf");
}

// Windows (no /proc/cpuinfo): CPUID through the Host; left unknown when the host cannot.
void read_cpuid_features(const Host& host, CpuInfo& cpu) {
  auto f = host.cpu_features();
  if (!f) return;
  cpu.vendor = f->vendor;
  cpu.model = f->brand;
  cpu.avx = f->avx ? Tri::kYes : Tri::kNo;
  cpu.avx2 = f->avx2 ? Tri::kYes : Tri::kNo;
  cpu.avx512f = f->avx512f ? Tri::kYes : Tri::kNo;
  cpu.fma = f->fma ? Tri::kYes : Tri::kNo;
  cpu.source = "cpuid";
}

std::string detect_container(const Host& host) {
  if (host.exists("/.dockerenv")) return "docker";
  if (host.exists("/run/.containerenv")) return "podman";
  if (host.env("KUBERNETES_SERVICE_HOST")) return "kubernetes";
  if (auto cg = host.read_file("/proc/1/cgroup", 1u << 20)) {
    if (cg->find("kubepods") != std::string::npos) return "kubernetes";
    if (cg->find("docker") != std::string::npos) return "docker";
    if (cg->find("libpod") != std::string::npos) return "podman";
    if (cg->find("/lxc/") != std::string::npos) return "lxc";
  }
  if (auto env1 = host.env("container"); env1 && !env1->empty()) return *env1;  // systemd's convention
  return "";
}

}  // namespace

void probe_host(const Host& host, Snapshot& s) {
  HostInfo& h = s.host;
  h.os = platform_name(host.platform());
  OsRelease rel = host.os_release();
  h.kernel = rel.kernel_release;
  h.arch = rel.machine;
  h.glibc_version = rel.libc_version;
  h.hostname = rel.node_name;
  if (host.platform() != Platform::kLinux) {
    h.wsl2 = Tri::kNo;
    read_cpuid_features(host, h.cpu);
    h.state = {ProbeStatus::kOk, "", h.cpu.source.empty() ? "os" : "os, cpuid"};
    return;
  }
  if (auto text = host.read_file("/etc/os-release", 1u << 20)) {
    auto kv = parse_os_release(*text);
    h.distro = kv.count("PRETTY_NAME") ? kv["PRETTY_NAME"] : kv["NAME"];
  } else if (auto text2 = host.read_file("/usr/lib/os-release", 1u << 20)) {
    auto kv = parse_os_release(*text2);
    h.distro = kv["PRETTY_NAME"];
  }
  // WSL2 kernels say "microsoft-standard-WSL2" in the release; /proc/version says
  // "Microsoft" too (nvidia.md §6). WSL1 has no GPU support and is not WSL2.
  std::string proc_version = host.read_file("/proc/version", 1u << 16).value_or("");
  bool microsoft = icontains(h.kernel, "microsoft") || icontains(proc_version, "microsoft");
  bool wsl2 = icontains(h.kernel, "wsl2") || icontains(proc_version, "wsl2") ||
              (microsoft && host.is_dir("/usr/lib/wsl"));
  h.wsl2 = wsl2 ? Tri::kYes : Tri::kNo;
  h.container = detect_container(host);
  read_cpu(host, h.cpu);
  h.state = {ProbeStatus::kOk, "", "/etc/os-release, /proc/version, /proc/cpuinfo"};
}

bool is_relevant_env_var(const std::string& name) {
  // An allowlist: the snapshot is meant to be shared, so only variables that change what
  // TensorFlow, XLA, the CUDA libraries or the loader do are kept (not every TF_*: that
  // prefix is also Terraform's, TF_VAR_db_password). docs/snapshot.md lists them.
  static const std::set<std::string> exact = {
      "PATH", "LD_LIBRARY_PATH", "LD_PRELOAD", "CUDA_HOME", "CUDA_PATH", "CUDA_ROOT", "CUDNN_PATH", "CUDNN_ROOT",
      "CONDA_PREFIX", "CONDA_DEFAULT_ENV", "CONDA_EXE", "VIRTUAL_ENV", "PYENV_ROOT", "PYENV_VERSION", "PYTHONPATH",
      "PYTHONHOME", "XLA_FLAGS", "WSL_DISTRO_NAME", "KERAS_BACKEND", "TF_FORCE_GPU_ALLOW_GROWTH",
      "TF_GPU_ALLOCATOR", "TF_ENABLE_ONEDNN_OPTS", "TF_XLA_FLAGS", "TF_GPU_THREAD_MODE", "TF_GPU_THREAD_COUNT",
      "TF_MIN_GPU_MULTIPROCESSOR_COUNT", "TF_CUDA_COMPUTE_CAPABILITIES", "TF_DETERMINISTIC_OPS",
      "TF_FORCE_UNIFIED_MEMORY", "TF_GPU_HOST_MEM_LIMIT_IN_MB", "TF_USE_LEGACY_KERAS", "TF_ENABLE_XLA",
      "TF_NUM_INTEROP_THREADS", "TF_NUM_INTRAOP_THREADS", "TF_ENABLE_AUTO_MIXED_PRECISION"};
  if (exact.count(name)) return true;
  // CUDA_VISIBLE_DEVICES, CUDA_MODULE_LOADING, CUDA_CACHE_*, CUDA_PATH_V11_8 (Windows
  // installer, one per version); NVIDIA_VISIBLE_DEVICES and the container toolkit's
  // NVIDIA_*; TF_CPP_MIN_LOG_LEVEL / TF_CPP_MAX_VLOG_LEVEL / TF_CPP_VMODULE; TF_CUDNN_*.
  return starts_with(name, "CUDA_") || starts_with(name, "NVIDIA_") || starts_with(name, "TF_CPP_") ||
         starts_with(name, "TF_CUDNN_");
}

std::string recorded_env_value(const std::string& name, const std::string& value) {
  // Never a credential, even under an allowed name (CUDA_API_KEY, a token pasted into
  // XLA_FLAGS): the name says so, or a token of the value looks like one.
  if (looks_like_secret_name(name)) return std::string(kRedacted);
  return redact_secret_tokens(value);
}

void probe_env(const Host& host, Snapshot& s) {
  for (const auto& [k, v] : host.environment()) {
    if (is_relevant_env_var(k)) s.env[k] = recorded_env_value(k, v);
  }
}

}  // namespace tfgpu::probe
