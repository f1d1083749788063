// Rule: a library TensorFlow loads has the file name TF asks for but belongs to a CUDA of
// another major than TF was built for. Math libraries keep their own sonames across CUDA
// majors (CUDA 13 ships libcusparse.so.12; cuDNN 9 is libcudnn.so.9 for CUDA 12 and 13),
// so the dlopen succeeds and nothing in TF's log says which CUDA it got. Whether it then
// works is not known from the files: a warning naming both versions, with the trail.
#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "rules/rule_list.h"
#include "rules/rule_support.h"
#include "util/strings.h"

namespace tfgpu::rules {

namespace {

struct CudaOf {
  int major = 0;
  std::string what;   // "CUDA 13.0.96", "cuDNN 9.19.0 for CUDA 13", "the CUDA 13 wheel nvidia-cusparse"
  std::string where;  // the install's root, or the file's dir
};

// "nvidia-cusparse-cu12" -> 12; "" when the name carries no CUDA major.
std::optional<int> package_cuda_major(std::string_view package) {
  for (int m : {11, 12, 13})
    if (ends_with(package, fmt::format("-cu{}", m))) return m;
  return std::nullopt;
}

// Which CUDA the file belongs to, from the install that holds it (its version, or a pip
// package's -cuNN suffix, or cuDNN's cuda_major); nullopt when nothing says.
std::optional<CudaOf> cuda_of(const Snapshot& s, const LibraryFile& f) {
  // A pip wheel's file first: its origin names the package ("pip:nvidia-cusparse-cu12", or the
  // shared CUDA 13 dir "pip:nvidia/cu13"); a conda env's CUDA install also contains site-packages.
  if (starts_with(f.origin, "pip:")) {
    std::string package = f.origin.substr(4);
    if (auto m = package_cuda_major(package)) return CudaOf{*m, fmt::format("the CUDA {} wheel {}", *m, package), dir_of(f.path)};
    if (package == "nvidia/cu13") return CudaOf{13, "the CUDA 13 wheels (nvidia/cu13)", dir_of(f.path)};
  }
  if (starts_with(f.component, "cudnn"))
    if (const CudnnInstall* cd = cudnn_install_of(s, f); cd && !cd->cuda_major.empty())
      if (auto v = Version::parse(cd->cuda_major))
        return CudaOf{v->major(), fmt::format("cuDNN {} for CUDA {}", cd->version.empty() ? "(version unknown)" : cd->version,
                                              cd->cuda_major),
                      cd->root};
  if (const CudaInstall* ci = cuda_install_of(s, f)) {
    if (auto m = package_cuda_major(ci->package))
      return CudaOf{*m, fmt::format("the CUDA {} wheel {}", *m, ci->package), ci->root};
    if (auto v = Version::parse(ci->version); v && ci->kind != "pip")
      return CudaOf{v->major(), fmt::format("CUDA {}", ci->version), ci->root};
  }
  return std::nullopt;
}

}  // namespace

std::vector<Finding> rule_other_cuda_major(const Snapshot& s, const kb::KnowledgeBase& kb) {
  std::vector<Finding> out;
  auto wp = wheel_platform(s);
  if (!wp || !runtime_looked(s)) return out;
  for (const auto& e : tf_envs(s, kb)) {
    if (!e.release || !tf_gpu_build(e, s, kb)) continue;
    // The CUDA TF was built for: its own build_info, else the KB row.
    Version built = e.release->cuda;
    std::string built_source = "kb";
    if (auto it = e.tf->build_info.find("cuda_version"); it != e.tf->build_info.end())
      if (auto v = Version::parse(it->second)) {
        built = *v;
        built_source = "build_info.py";
      }
    Finding f;
    std::vector<std::string> files, others, dirs;
    for (const auto& lib : kb.tf_libraries(*e.release, *wp).libraries) {
      if (lib.component == "driver") continue;  // libcuda is the driver's, not a toolkit's
      Resolution r = resolve(s, &e, lib.file);
      if (!r.found) continue;
      auto from = cuda_of(s, *r.found);
      if (!from || from->major == built.major()) continue;
      f.evidence.push_back(loader_evidence(
          s,
          fmt::format("{} comes from {} ({}), TensorFlow {} was built for CUDA {}", lib.file, from->what, from->where,
                      e.tf->version, built.str()),
          r));
      files.push_back(lib.file);
      std::string other = fmt::format("CUDA {}", from->major);
      if (std::find(others.begin(), others.end(), other) == others.end()) others.push_back(other);
      if (starts_with(r.found_via, path_var_name(s) + " ") &&
          std::find(dirs.begin(), dirs.end(), dir_of(r.found_path)) == dirs.end())
        dirs.push_back(dir_of(r.found_path));
    }
    if (files.empty()) continue;
    f.evidence.push_back(fact(fmt::format("TensorFlow {} was built for CUDA {}", e.tf->version, built.str()),
                              built_source == "kb" ? "kb: tensorflow " + e.release->version.str() : built_source));
    f.id = "cuda_library_other_major";
    f.layer = Layer::kRuntime;
    f.severity = Severity::kWarning;
    f.env = e.label;
    f.title = fmt::format("TensorFlow {} (built for CUDA {}) would load {} from {}: same file name, other CUDA",
                          e.tf->version, built.str(), join(files, ", "), join(others, " and "));
    for (const auto& d : dirs)
      f.fix.push_back(fmt::format("If {} is on {} only for another program, take it off for TensorFlow's shell, so that "
                                  "TensorFlow's own CUDA {} copies are found",
                                  d, path_var_name(s), built.major()));
    for (auto& step : install_cuda_steps(s, e, kb)) f.fix.push_back(std::move(step));
    f.fix.push_back(fmt::format("Check which files TensorFlow really maps: tfgpu verify --python {}",
                                e.py->executable.empty() ? "PYTHON" : e.py->executable));
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace tfgpu::rules
