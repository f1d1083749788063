// Rule: every CUDA library TensorFlow must load (KB library set, cuDNN aside) resolves
// on this machine's search path. If one fails, TF skips GPU registration silently
// ("Cannot dlopen some GPU libraries ... Skipping registering GPU devices").
#include <map>

#include <fmt/format.h>

#include "rules/rule_list.h"
#include "rules/rule_support.h"
#include "util/strings.h"

namespace tfgpu::rules {

namespace {

std::string where(const LibraryFile* f) {
  return f->version.empty() ? f->path : fmt::format("{} ({})", f->path, f->version);
}

}  // namespace

std::vector<Finding> rule_cuda_libraries(const Snapshot& s, const kb::KnowledgeBase& kb) {
  std::vector<Finding> out;
  auto wp = wheel_platform(s);
  if (!wp || !runtime_looked(s)) return out;
  for (const auto& e : tf_envs(s, kb)) {
    if (!e.release || !tf_gpu_build(e, s, kb)) continue;
    kb::TfLibraries libs = kb.tf_libraries(*e.release, *wp);
    std::map<std::string, Finding> by_id;
    std::vector<std::string> order;
    auto add = [&](const std::string& id, Evidence ev) -> Finding& {
      if (!by_id.count(id)) {
        order.push_back(id);
        Finding f;
        f.id = id;
        f.layer = Layer::kRuntime;
        f.severity = Severity::kBlocker;
        f.env = e.label;
        by_id[id] = f;
      }
      by_id[id].evidence.push_back(std::move(ev));
      return by_id[id];
    };
    std::vector<std::string> missing_names;
    std::string first_elsewhere_dir;
    for (const auto& lib : libs.libraries) {
      if (!lib.must_load || lib.component == "driver" || lib.component == "cudnn") continue;
      Resolution r = resolve(s, &e, lib.file);
      if (!r.found_path.empty() && r.dependency_error.empty()) {
        // An older runtime of the same major loaded first: TF was built against newer symbols.
        if (lib.component == "cudart" && r.found) {
          // Only a full version (x.y.z) says which runtime it is: a soname's x.y names the ABI
          // (every CUDA 11.x ships libcudart.so.11.0), so "11.0" from a file name is no version
          // (real tier: TF 2.12 loads the nvidia-cuda-runtime-cu11 11.8.89 wheel's libcudart.so.11.0).
          auto v = Version::parse(r.found->version);
          if (v && v->size() >= 3 && v->major() == e.release->cuda.major() && v->truncated(2) < e.release->cuda.truncated(2)) {
            Finding& f = add("cuda_version_mismatch",
                             loader_evidence(s, fmt::format("{} loads first: {} (via {})", lib.file, where(r.found), r.found_via), r));
            for (const LibraryFile* sh : r.shadowed) f.evidence.push_back(fact(fmt::format("shadowed: {}", where(sh)), "loader model"));
          }
        }
        continue;
      }
      if (!r.found_path.empty()) {
        // Found, but a library it needs is not: the dlopen fails as a whole.
        Resolution dep;
        dep.name = r.failed_dependency.name;
        dep.loader = r.failed_dependency;
        for (const auto& f : s.libraries)
          if (f.name == dep.name) dep.elsewhere.push_back(&f);
        std::string id = missing_library_id(s, e, dep, lib.component, "cuda_version_mismatch", "cudart_missing");
        add(id, loader_evidence(s, fmt::format("{} is at {}, but loading it fails: {}", lib.file, r.found_path, r.dependency_error),
                                dep));
        if (!dep.elsewhere.empty() && first_elsewhere_dir.empty()) first_elsewhere_dir = dir_of(dep.elsewhere.front()->path);
        missing_names.push_back(lib.file);
        continue;
      }
      std::string id = missing_library_id(s, e, r, lib.component, "cuda_version_mismatch", "cudart_missing");
      std::string detail = fmt::format("{} ({}) not found by the loader ({})", lib.file, lib.component,
                                       r.loader.error.empty() ? loader::to_string(r.loader.outcome) : r.loader.error);
      if (!r.elsewhere.empty()) {
        detail += fmt::format("; it is at {}", r.elsewhere.front()->path);
        if (first_elsewhere_dir.empty()) first_elsewhere_dir = dir_of(r.elsewhere.front()->path);
      } else if (id == "cuda_version_mismatch") {
        std::vector<std::string> others;
        for (const LibraryFile* o : libraries_of(s, lib.component)) others.push_back(where(o));
        detail += fmt::format("; other versions present: {}", join(others, ", "));
      }
      add(id, loader_evidence(s, detail, r));
      missing_names.push_back(lib.file);
    }
    for (const auto& id : order) {
      Finding f = by_id[id];
      f.evidence.push_back(cite(libs.cites.size() > 1 ? libs.cites[1] : kb.cite(*e.release),
                                fmt::format("TensorFlow {} (CUDA {}) loads: {}", e.release->series().str(), e.release->cuda.str(),
                                            [&] {
                                              std::vector<std::string> n;
                                              for (const auto& l : libs.libraries)
                                                if (l.must_load && l.component != "driver") n.push_back(l.file);
                                              return join(n, ", ");
                                            }())));
      const kb::TfRelease* loads = newest_release_that_loads(s, e, kb);
      std::string py = e.py->executable.empty() ? "python" : e.py->executable;
      if (id == "cudart_missing") {
        f.title = fmt::format("The CUDA {} runtime libraries TensorFlow {} loads are not installed ({})", e.release->cuda.str(),
                              e.tf->version, join(missing_names, ", "));
        f.fix = install_cuda_steps(s, e, kb);
      } else if (id == "cuda_version_mismatch") {
        f.title = fmt::format("A CUDA runtime is installed, but not the CUDA {} libraries TensorFlow {} loads", e.release->cuda.str(), e.tf->version);
        f.fix = install_cuda_steps(s, e, kb);
        if (is_windows(s))
          f.fix.push_back(fmt::format("Put the CUDA {} bin folder BEFORE other CUDA folders on PATH", e.release->cuda.str()));
        if (loads && loads != e.release) {
          // newest_release_that_loads found it for the wheel platform, so that is set.
          const kb::TfPackage* gpu = kb.gpu_package(*loads, *wheel_platform(s));
          f.fix.push_back(fmt::format("Or match TensorFlow to the CUDA you have: {} -m pip install \"{}=={}.*\" (its libraries all resolve here)",
                                      py, gpu ? gpu->name : "tensorflow", loads->series().str()));
        }
      } else if (id == "env_path_not_set") {
        f.title = fmt::format("The CUDA libraries TensorFlow {} needs are installed but not on {}", e.tf->version, path_var_name(s));
        f.fix = add_to_path_steps(s, first_elsewhere_dir);
      } else if (id == "pip_nvidia_libs_not_found") {
        f.title = fmt::format("The pip nvidia-* CUDA wheels are installed, but TensorFlow {} does not find them", e.tf->version);
        f.fix.push_back("Link the wheels' libraries next to TensorFlow (TensorFlow's pip install guide, GPU step): "
                        "pushd $(dirname $(python -c 'print(__import__(\"tensorflow\").__file__)')); ln -svf ../nvidia/*/lib/*.so* .; popd");
        f.fix.push_back("Or: export LD_LIBRARY_PATH=$(python -c 'import glob,os,nvidia; print(\":\".join(sorted(glob.glob(os.path.join(os.path.dirname(nvidia.__path__[0]), \"nvidia\", \"*\", \"lib\")))))')${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}");
        f.fix.push_back(fmt::format("Or reinstall so the wheels and TF agree: {} -m pip install --force-reinstall \"tensorflow[and-cuda]=={}\"", py, e.tf->version));
      }
      out.push_back(std::move(f));
    }
  }
  return out;
}

}  // namespace tfgpu::rules
