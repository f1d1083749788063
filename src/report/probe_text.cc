#include "report/probe_text.h"

#include <map>

#include <fmt/format.h>

#include "snapshot/snapshot_json.h"
#include "util/strings.h"

namespace tfgpu {

namespace {

const char* yes_no(Tri t) { return t == Tri::kYes ? "yes" : t == Tri::kNo ? "no" : "?"; }

std::string from(const std::string& source) { return source.empty() ? "" : "  [" + source + "]"; }

void state_line(std::string& out, const ProbeState& st) {
  if (st.status == ProbeStatus::kOk && st.reason.empty()) return;
  out += fmt::format("  {}: {}{}\n", to_string(st.status), st.reason.empty() ? "-" : st.reason, from(st.source));
}

}  // namespace

std::string render_probe_text(const Snapshot& s, ProbeTextDetail detail) {
  std::string out;
  const HostInfo& h = s.host;
  out += fmt::format("Host: {}, kernel {}, {}", h.distro.empty() ? h.os : h.distro, h.kernel.empty() ? "?" : h.kernel,
                     h.arch.empty() ? "?" : h.arch);
  if (h.wsl2 == Tri::kYes) out += ", WSL2";
  if (!h.container.empty()) out += ", container: " + h.container;
  out += "\n";
  if (!h.cpu.model.empty() || !h.cpu.source.empty())
    out += fmt::format("CPU:  {} (AVX {}, AVX2 {}, AVX-512F {}, FMA {}){}\n", h.cpu.model.empty() ? "?" : h.cpu.model,
                       yes_no(h.cpu.avx), yes_no(h.cpu.avx2), yes_no(h.cpu.avx512f), yes_no(h.cpu.fma),
                       from(h.cpu.source));

  out += "\n1. Hardware\n";
  state_line(out, s.gpu_state);
  for (const auto& g : s.gpus) {
    out += fmt::format("  GPU{}: {}", g.index >= 0 ? fmt::format(" {}", g.index) : std::string(),
                       g.name.empty() ? "unknown NVIDIA GPU" : g.name);
    if (!g.pci_id.empty()) out += " (" + g.pci_id + ")";
    if (!g.pci_bus_id.empty()) out += " at " + g.pci_bus_id;
    out += g.compute_capability.empty() ? ", compute capability unknown" : ", compute capability " + g.compute_capability;
    if (g.memory_total_bytes) out += ", " + gib(g.memory_total_bytes);
    out += from(g.source) + "\n";
  }

  out += "\n2. Driver\n";
  const DriverInfo& d = s.driver;
  state_line(out, d.state);
  if (!d.version.empty() || !d.cuda_version.empty()) {
    out += fmt::format("  driver {}, supports CUDA up to {}", d.version.empty() ? "?" : d.version,
                       d.cuda_version.empty() ? "?" : d.cuda_version);
    if (d.device_count >= 0) out += fmt::format(", {} device(s)", d.device_count);
    out += from(d.state.source) + "\n";
  }
  if (!d.kernel_module_version.empty()) out += fmt::format("  kernel module {}  [/proc/driver/nvidia/version]\n", d.kernel_module_version);
  for (const auto& a : d.attempts) {
    out += fmt::format("  {}: ", a.library);
    if (!a.opened.empty()) out += "opened " + a.opened;
    else if (!a.tried.empty()) out += "tried " + join(a.tried, ", ");
    else out += "not loaded";
    if (!a.init_result.empty()) out += " -> " + a.init_result;
    else if (a.opened.empty() && !a.errors.empty()) out += " -> " + a.errors.front();
    out += "\n";
  }

  out += "\n3. Runtime (CUDA, cuDNN)\n";
  state_line(out, s.runtime_state);
  for (const auto& c : s.cuda) {
    out += fmt::format("  CUDA {} ({}{}) at {}{}\n", c.version.empty() ? "?" : c.version, c.kind,
                       c.package.empty() ? "" : " " + c.package, c.root, from(c.version_source));
  }
  for (const auto& c : s.cudnn) {
    out += fmt::format("  cuDNN {} ({}{}{}) at {}{}\n", c.version.empty() ? "?" : c.version, c.kind,
                       c.package.empty() ? "" : " " + c.package, c.cuda_major.empty() ? "" : ", for CUDA " + c.cuda_major,
                       c.root, from(c.version_source));
  }
  if (!s.libraries.empty()) {
    std::map<std::string, int> by_component;
    for (const auto& f : s.libraries) by_component[f.component]++;
    std::vector<std::string> parts;
    for (const auto& [c, n] : by_component) parts.push_back(fmt::format("{} {}", c, n));
    out += fmt::format("  {} library files: {}\n", s.libraries.size(), join(parts, ", "));
  }
  if (detail == ProbeTextDetail::kAllLibraries) {
    for (const auto& f : s.libraries) {
      out += fmt::format("    {}", f.path);
      if (!f.symlink_target.empty()) out += " -> " + f.symlink_target;
      if (!f.version.empty()) out += fmt::format("  {} ({})", f.version, f.version_source);
      if (!f.elf.soname.empty()) out += "  soname " + f.elf.soname;
      if (!f.error.empty()) out += "  [" + f.error + "]";
      out += "  <" + f.origin + ">\n";
    }
  }
  const LoaderInfo& l = s.loader;
  if (!l.ld_so_conf_dirs.empty() || l.ld_cache_state.status != ProbeStatus::kNotProbed) {
    out += fmt::format("  loader: {} ld.so.conf dirs; ld.so.cache: {}{}\n", l.ld_so_conf_dirs.size(),
                       l.ld_cache_state.reason.empty() ? to_string(l.ld_cache_state.status) : l.ld_cache_state.reason,
                       from(l.ld_cache_state.source));
  }

  out += "\n4. Framework (Python, TensorFlow)\n";
  state_line(out, s.python_state);
  for (const auto& p : s.pythons) {
    out += fmt::format("  {} Python {} ({}{}) {}", p.active ? "*" : "-", p.version.empty() ? "?" : p.version, p.kind,
                       p.name.empty() ? "" : " " + p.name, p.executable);
    if (p.bits) out += fmt::format(", {}-bit", p.bits);
    out += from(p.source) + "\n";
    for (const auto& tf : p.tensorflow) {
      out += fmt::format("      TensorFlow {} ({}) at {}\n", tf.version.empty() ? "?" : tf.version, tf.package,
                         tf.location.empty() ? "?" : tf.location);
      if (tf.build_info_state.status == ProbeStatus::kOk) {
        auto get = [&](const char* k) {
          auto it = tf.build_info.find(k);
          return it == tf.build_info.end() ? std::string("-") : it->second;
        };
        out += fmt::format("        build_info: cuda_version {}, cudnn_version {}, is_cuda_build {}{}\n",
                           get("cuda_version"), get("cudnn_version"), get("is_cuda_build"), from(tf.build_info_state.source));
      } else {
        out += fmt::format("        build_info {}: {}\n", to_string(tf.build_info_state.status), tf.build_info_state.reason);
      }
    }
    std::vector<std::string> others;
    for (const auto& pkg : p.packages) {
      if (starts_with(pkg.name, "tensorflow") || starts_with(pkg.name, "tf-nightly")) continue;
      others.push_back(pkg.name + " " + pkg.version);
    }
    if (!others.empty()) out += "      packages: " + join(others, ", ") + "\n";
  }

  if (!s.notes.empty()) {
    out += "\nNotes\n";
    for (const auto& n : s.notes) out += "  - " + n + "\n";
  }
  return out;
}

}  // namespace tfgpu
