// Rule: cuDNN 8.3+ on Windows loads zlibwapi.dll (KB: windows_zlibwapi per cuDNN
// release); without it the first convolution fails ("Could not locate zlibwapi.dll").
#include <fmt/format.h>

#include "rules/rule_list.h"
#include "rules/rule_support.h"

namespace tfgpu::rules {

std::vector<Finding> rule_zlibwapi(const Snapshot& s, const kb::KnowledgeBase& kb) {
  std::vector<Finding> out;
  if (!is_windows(s) || !runtime_looked(s)) return out;
  for (const auto& e : tf_envs(s, kb)) {
    if (!e.release || !tf_gpu_build(e, s, kb)) continue;
    kb::TfLibraries libs = kb.tf_libraries(*e.release, Platform::kWindows);
    for (const auto& l : libs.libraries) {
      if (l.component != "cudnn") continue;
      Resolution r = resolve(s, &e, l.file);
      if (!r.found) continue;
      std::optional<Version> v;
      if (auto p = Version::parse(r.found->version); p && p->size() >= 2) v = *p;
      if (!v)
        if (const CudnnInstall* i = cudnn_install_of(s, *r.found))
          if (auto p = Version::parse(i->version); p && p->size() >= 2) v = *p;
      if (!v) continue;
      const kb::CudnnRelease* cr = kb.find_cudnn(*v);
      if (!cr || cr->windows_zlibwapi != kb::Tristate::kYes) continue;
      Resolution z = resolve(s, &e, "zlibwapi.dll");
      if (!z.found_path.empty()) continue;
      Finding f;
      f.id = "zlibwapi_missing";
      f.layer = Layer::kRuntime;
      f.severity = Severity::kBlocker;
      f.env = e.label;
      f.title = fmt::format("cuDNN {} on Windows needs zlibwapi.dll, which is not found", v->str());
      f.evidence.push_back(fact(fmt::format("{} is cuDNN {} ({})", r.found_path, v->str(), r.found->version_source.empty() ? "version" : r.found->version_source), "runtime probe"));
      f.evidence.push_back(loader_evidence(
          s, fmt::format("zlibwapi.dll not found by the loader ({})", z.loader.error.empty() ? loader::to_string(z.loader.outcome) : z.loader.error), z));
      f.evidence.push_back(cite(kb.cite(*cr), fmt::format("cuDNN {} on Windows loads zlibwapi.dll", cr->version.str())));
      std::string dir = dir_of(r.found_path);
      f.fix.push_back("Download ZLIB DLL (x64) as the cuDNN install guide says: http://www.winimage.com/zLibDll/zlib123dllx64.zip");
      f.fix.push_back(fmt::format("Copy dll_x64\\zlibwapi.dll from the zip into {} (the folder of {})", dir, file_of(r.found_path)));
      f.fix.push_back("Open a new terminal and run `tfgpu doctor` again");
      out.push_back(std::move(f));
    }
  }
  return out;
}

}  // namespace tfgpu::rules
