// Rule: cuDNN as TensorFlow needs it: the entry library resolves (cudnn64_8.dll /
// libcudnn.so.8), its version is not older than the one TF was built with, no older
// copy shadows the right one, and the copy is complete (cuDNN 8/9 are split into
// sub-libraries loaded lazily; a lone cudnn64_8.dll fails at the first convolution).
#include <fmt/format.h>

#include "rules/rule_list.h"
#include "rules/rule_support.h"
#include "util/strings.h"

namespace tfgpu::rules {

namespace {

std::optional<Version> cudnn_version_of(const Snapshot& s, const LibraryFile& f) {
  if (auto v = Version::parse(f.version); v && v->size() >= 2) return *v;
  if (const CudnnInstall* i = cudnn_install_of(s, f))
    if (auto v = Version::parse(i->version); v && v->size() >= 2) return *v;
  return std::nullopt;
}

std::vector<std::string> cudnn_install_steps(const Snapshot& s, const TfEnv& e, const kb::KnowledgeBase& kb) {
  std::vector<std::string> steps;
  const auto& rel = *e.release;
  std::string py = e.py->executable.empty() ? "python" : e.py->executable;
  if (is_windows(s)) {
    steps.push_back(fmt::format(
        "Download cuDNN {} for CUDA {}.x from https://developer.nvidia.com/rdp/cudnn-archive (zip); copy ALL files of its bin\\ into "
        "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v{}\\bin, include\\ and lib\\x64\\ likewise",
        rel.cudnn.str(), rel.cuda.major(), rel.cuda.str()));
    if (e.py->kind == "conda") steps.push_back(fmt::format("Or in this conda env: conda install -c conda-forge cudnn={}", rel.cudnn.str()));
  } else if (has_and_cuda_extra(kb, rel)) {
    steps.push_back(fmt::format("{} -m pip install \"tensorflow[and-cuda]=={}\" (brings the matching nvidia-cudnn wheel)", py, e.tf->version));
  } else {
    steps.push_back(fmt::format("Install cuDNN {} for CUDA {}.x (https://developer.nvidia.com/rdp/cudnn-archive, tar for Linux x86_64) "
                                "into /usr/local/cuda-{}: copy include/* and lib/* (keep the symlinks: cp -P), then sudo ldconfig",
                                rel.cudnn.str(), rel.cuda.major(), rel.cuda.str()));
  }
  return steps;
}

}  // namespace

std::vector<Finding> rule_cudnn(const Snapshot& s, const kb::KnowledgeBase& kb) {
  std::vector<Finding> out;
  auto wp = wheel_platform(s);
  if (!wp || !runtime_looked(s)) return out;
  for (const auto& e : tf_envs(s, kb)) {
    if (!e.release || !tf_gpu_build(e, s, kb)) continue;
    kb::TfLibraries libs = kb.tf_libraries(*e.release, *wp);
    const std::string name = libs.file_of("cudnn").value_or("");
    if (name.empty()) continue;
    Finding f;
    f.layer = Layer::kRuntime;
    f.severity = Severity::kBlocker;
    f.env = e.label;
    Evidence need = cite(kb.cite(*e.release), fmt::format("TensorFlow {} was built with cuDNN {} and loads {}", e.release->series().str(),
                                                           e.release->cudnn.str(), name));
    Resolution r = resolve(s, &e, name);
    if (r.found_path.empty()) {
      f.id = missing_library_id(s, e, r, "cudnn", "cudnn_version_mismatch", "cudnn_missing");
      if (!r.elsewhere.empty()) {
        f.evidence.push_back(loader_evidence(s, fmt::format("{} is at {} but not on the search path", name, r.elsewhere.front()->path), r));
      } else {
        f.evidence.push_back(loader_evidence(
            s, fmt::format("{} not found by the loader ({})", name, r.loader.error.empty() ? loader::to_string(r.loader.outcome) : r.loader.error), r));
        for (const LibraryFile* o : libraries_of(s, "cudnn"))
          f.evidence.push_back(fact(fmt::format("other cuDNN present: {}{}", o->path, o->version.empty() ? "" : " (" + o->version + ")"), "runtime probe"));
      }
      f.evidence.push_back(need);
      if (f.id == "cudnn_missing") {
        f.title = fmt::format("cuDNN {} is not installed ({} not found)", e.release->cudnn.str(), name);
        f.fix = cudnn_install_steps(s, e, kb);
      } else if (f.id == "cudnn_version_mismatch") {
        f.title = fmt::format("cuDNN is installed, but not the major version TensorFlow {} loads ({})", e.tf->version, name);
        f.fix = cudnn_install_steps(s, e, kb);
      } else if (f.id == "env_path_not_set") {
        f.title = fmt::format("cuDNN is installed but its folder is not on {}", path_var_name(s));
        f.fix = add_to_path_steps(s, dir_of(r.elsewhere.front()->path));
      } else {
        f.title = fmt::format("The pip nvidia-cudnn wheel is installed, but TensorFlow {} does not find {}", e.tf->version, name);
        f.fix.push_back("pushd $(dirname $(python -c 'print(__import__(\"tensorflow\").__file__)')); ln -svf ../nvidia/*/lib/*.so* .; popd");
      }
      out.push_back(std::move(f));
      continue;
    }
    // Found: version and completeness.
    auto v = r.found ? cudnn_version_of(s, *r.found) : std::nullopt;
    const Version& want = e.release->cudnn;
    if (v && v->major() == want.major() && !e.release->loads_cudnn(*v)) {
      f.id = "cudnn_version_mismatch";
      f.title = fmt::format("cuDNN {} is loaded, but TensorFlow {} was built with cuDNN {} (\"Loaded runtime CuDNN library: {} but source was compiled with: {}\")",
                            v->str(), e.tf->version, want.str(), v->str(), want.str());
      f.evidence.push_back(loader_evidence(s, fmt::format("{} loads first: {} (cuDNN {}, via {})", name, r.found_path, v->str(), r.found_via), r));
      bool better_later = false;
      for (const LibraryFile* sh : r.shadowed) {
        auto sv = cudnn_version_of(s, *sh);
        f.evidence.push_back(fact(fmt::format("shadowed copy: {}{}", sh->path, sv ? " (cuDNN " + sv->str() + ")" : ""), "loader model"));
        if (sv && e.release->loads_cudnn(*sv)) better_later = true;
      }
      f.evidence.push_back(need);
      if (better_later) {
        f.fix.push_back(fmt::format("An old cuDNN copy shadows the right one: delete or rename {} (or move its folder after the right one on {})",
                                    r.found_path, path_var_name(s)));
      } else {
        f.fix = cudnn_install_steps(s, e, kb);
      }
      f.fix.push_back("Run `tfgpu doctor` again");
      out.push_back(std::move(f));
      continue;
    }
    // Completeness: the sub-libraries of that cuDNN major in the same folder (KB).
    const kb::CudnnMajor* major = kb.cudnn_major(want.major());
    if (!major) continue;
    auto it = major->libraries.find(*wp);
    if (it == major->libraries.end() || it->second.size() < 2) continue;
    std::vector<std::string> missing;
    std::string dir = dir_of(r.found_path);
    const std::string dir_key = norm_path(s, dir);
    for (size_t i = 1; i < it->second.size(); ++i) {
      const std::string& sub = it->second[i];
      bool here = false;
      for (const auto& lf : s.libraries)
        here = here || ((is_windows(s) ? iequals(lf.name, sub) : lf.name == sub) && norm_path(s, dir_of(lf.path)) == dir_key);
      if (!here && resolve(s, &e, sub).found_path.empty()) missing.push_back(sub);
    }
    if (missing.empty()) continue;
    f.id = "cudnn_incomplete";
    f.title = fmt::format("Incomplete cuDNN copy: {} is there but {} of its sub-libraries are missing (convolutions fail at first use)",
                          name, missing.size());
    f.evidence.push_back(loader_evidence(s, fmt::format("{} found at {} (via {})", name, r.found_path, r.found_via), r));
    f.evidence.push_back(fact(fmt::format("missing next to it and on the search path: {}", join(missing, ", ")), "runtime probe"));
    f.evidence.push_back(cite(kb.cite(*major), major->note.empty() ? fmt::format("cuDNN {} ships {} libraries", want.major(), it->second.size()) : major->note));
    f.fix.push_back(fmt::format("Copy ALL library files of the cuDNN {} archive ({}), not only {}, into {}", v ? v->str() : want.str(),
                                is_windows(s) ? "bin\\*" : "lib/*", name, dir));
    f.fix.push_back("Run `tfgpu doctor` again");
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace tfgpu::rules
