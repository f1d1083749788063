#include "cli/explain_fix.h"

#include <algorithm>
#include <array>
#include <set>

#include <fmt/format.h>

#include "explain/infer.h"
#include "util/strings.h"

namespace tfgpu {

namespace {

constexpr std::array<std::string_view, 7> kRuntimeFindings = {
    "cudart_missing",  "cuda_version_mismatch", "cudnn_missing",        "cudnn_version_mismatch",
    "env_path_not_set", "multiple_cuda_on_path", "conda_cuda_conflict"};

// No release stated, but the GPU is known: the first TensorFlow release built with a CUDA
// that builds kernels for it (KB: each CUDA's sass_max, each release's CUDA), per platform.
std::vector<std::string> gpu_specific_fix(const Finding& finding, const explain::LogFacts& facts,
                                          const kb::KnowledgeBase& kb) {
  std::vector<std::string> steps;
  if (finding.id != "cuda_version_mismatch") return steps;
  const auto ccs = explain::stated_ccs(facts, kb);
  if (ccs.empty()) return steps;
  const kb::ComputeCapability* cc =
      &std::max_element(ccs.begin(), ccs.end(), [](const auto& a, const auto& b) { return a.first < b.first; })->first;
  const kb::CudaRelease* cuda = kb.first_cuda_building_for(*cc);
  if (!cuda) return steps;
  const bool windows = facts.os.value == "windows" && facts.wsl.empty();
  const Platform p = windows ? Platform::kWindows : Platform::kLinux;
  const kb::TfRelease* first_tf = nullptr;
  const kb::TfRelease* last_tf = nullptr;
  for (const auto& r : kb.tf_releases()) {
    // Only releases tfgpu would set up today (the KB's plan flag): not a 2017 tensorflow_gpu 1.0.
    if (!r.plan || r.cuda.empty() || !r.has_gpu_build(p) || r.cuda.truncated(2) < cuda->version) continue;
    if (!first_tf || r.version < first_tf->version) first_tf = &r;
    if (!last_tf || last_tf->version < r.version) last_tf = &r;
  }
  if (!first_tf) return steps;
  steps.push_back(fmt::format("A GPU of compute capability {} needs CUDA {} or newer: use TensorFlow {}{} (built with "
                              "CUDA {}; tfgpu matrix --tf {}) and the CUDA/cuDNN that release names",
                              cc->str(), cuda->version.str(), first_tf->series().str(),
                              windows ? fmt::format("-{} on native Windows", last_tf->series().str()) : " or newer",
                              first_tf->cuda.str(), first_tf->series().str()));
  return steps;
}

// No release stated, but TensorFlow named the CUDA / cuDNN file it could not open: the KB's
// library sets say which releases open that file, and with which CUDA / cuDNN.
std::vector<std::string> failed_file_fix(const Finding& finding, const explain::LogFacts& facts,
                                         const kb::KnowledgeBase& kb) {
  std::vector<std::string> steps;
  if (finding.id != "cuda_version_mismatch" && finding.id != "cudart_missing" && finding.id != "cudnn_missing" &&
      finding.id != "cudnn_version_mismatch")
    return steps;
  const bool cudnn = finding.id.starts_with("cudnn");
  for (const auto& l : facts.failed_libraries) {
    if ((l.component == "cudnn") != cudnn) continue;
    const Platform p = ends_with(to_lower(l.name), ".dll") ? Platform::kWindows : Platform::kLinux;
    const auto opening = kb.releases_opening(l.name, p);
    if (opening.empty()) continue;
    const kb::TfRelease* first = opening.front();
    const kb::TfRelease* last = opening.back();
    std::set<Version> builds;  // the CUDA (or cuDNN) those releases were built with
    for (const kb::TfRelease* r : opening) builds.insert(cudnn ? r->cudnn : r->cuda);
    const std::string what = cudnn ? "cuDNN" : "CUDA";
    const std::string range = first == last ? first->series().str()
                                            : fmt::format("{}-{}", first->series().str(), last->series().str());
    const std::string built = builds.size() == 1 ? fmt::format("{} {}", what, builds.begin()->str())
                                                 : fmt::format("{} {} to {}", what, builds.begin()->str(), builds.rbegin()->str());
    const std::string install = builds.size() == 1 ? fmt::format("install {} {}", what, builds.begin()->str())
                                                   : fmt::format("install the {} your release was built with", what);
    steps.push_back(fmt::format("{} is what TensorFlow {} open{} (built with {}): {} and put its {} folder on {} "
                                "(tfgpu matrix --tf {} for the whole set), or use a TensorFlow release built for the {} "
                                "you have",
                                l.name, range, first == last ? "s" : "", built, install,
                                p == Platform::kWindows ? "bin" : "lib64", p == Platform::kWindows ? "PATH" : "LD_LIBRARY_PATH",
                                last->series().str(), what));
    break;
  }
  return steps;
}

// No release stated, native Windows, a CUDA stated as installed, and the libraries' folder
// not on PATH: the releases built for that CUDA (and cuDNN) name the DLLs to make findable.
std::vector<std::string> stated_toolkit_path_fix(const Finding& finding, const explain::LogFacts& facts,
                                                 const kb::KnowledgeBase& kb) {
  std::vector<std::string> steps;
  if (finding.id != "env_path_not_set" || facts.os.value != "windows" || !facts.wsl.empty() ||
      facts.cuda_version.empty())
    return steps;
  const auto rels = explain::candidate_releases(facts, kb, Platform::kWindows);
  if (rels.empty()) return steps;
  const kb::TfLibraries libs = kb.tf_libraries(*rels.front(), Platform::kWindows);
  const auto cublas = libs.file_of("cublas");
  const auto cudnn = libs.file_of("cudnn");
  if (!cublas || !cudnn) return steps;
  for (const auto* r : rels) {
    const kb::TfLibraries other = kb.tf_libraries(*r, Platform::kWindows);
    if (other.file_of("cublas") != cublas || other.file_of("cudnn") != cudnn) return steps;  // not one answer
  }
  const std::string range = rels.size() == 1
                                ? rels.front()->series().str()
                                : fmt::format("{}-{}", rels.front()->series().str(), rels.back()->series().str());
  steps.push_back(
      fmt::format("TensorFlow {} (built for CUDA {} and cuDNN {}) loads {} and {}: add the bin folder of "
                  "your CUDA {} install (the one holding {}) and the folder holding {} to PATH, then open "
                  "a new terminal (where {} and where {} must both print a path)",
                  range, rels.front()->cuda.str(), rels.front()->cudnn.str(), *cublas, *cudnn, facts.cuda_version.value,
                  *cublas, *cudnn, *cublas, *cudnn));
  return steps;
}

}  // namespace

std::vector<std::string> version_specific_fix(const Finding& finding, const explain::LogFacts& facts,
                                              const kb::KnowledgeBase& kb, const plan::Packaging* packaging) {
  std::vector<std::string> steps;
  if (std::find(kRuntimeFindings.begin(), kRuntimeFindings.end(), finding.id) == kRuntimeFindings.end()) return steps;
  if (facts.os.value == "macos") return steps;
  if (facts.tf_version.empty()) {
    steps = failed_file_fix(finding, facts, kb);
    if (steps.empty()) steps = stated_toolkit_path_fix(finding, facts, kb);
    if (steps.empty()) steps = gpu_specific_fix(finding, facts, kb);
    return steps;
  }
  auto v = Version::parse(facts.tf_version.value);
  if (!v || v->size() < 2) return steps;
  const kb::TfRelease* r = kb.find_tf(*v);
  if (!r || r->cuda.empty() || r->cudnn.empty()) return steps;
  const bool windows = facts.os.value == "windows" && facts.wsl.empty();
  const Platform p = windows ? Platform::kWindows : Platform::kLinux;
  if (!r->has_gpu_build(p)) return steps;  // the platform finding says so
  const std::string tf = r->version.str();
  const std::string built = fmt::format("TensorFlow {} was built with CUDA {} and cuDNN {} (tfgpu matrix --tf {})",
                                        r->series().str(), r->cuda.str(), r->cudnn.str(), r->series().str());
  const plan::CondaCuda* conda = packaging ? packaging->conda_for(p, r->cuda, r->cudnn) : nullptr;
  if (windows) {
    steps.push_back(built + ": install exactly these, not newer ones");
    if (conda)
      steps.push_back(fmt::format("In a conda environment: conda install -c {} {} (then pip install \"tensorflow=={}\")",
                                  conda->channel, join(conda->packages, " "), tf));
    const plan::WindowsPath* wp = packaging ? packaging->windows_path_for(r->version) : nullptr;
    if (wp && !wp->cuda_root.empty()) {
      std::string root = wp->cuda_root;
      if (size_t at = root.find("{cuda}"); at != std::string::npos) root.replace(at, 6, r->cuda.str());
      steps.push_back(fmt::format("Or install CUDA {} and cuDNN {} from NVIDIA and add {}\\bin to PATH",
                                  r->cuda.str(), r->cudnn.str(), root));
    }
    return steps;
  }
  const kb::AndCudaPins* pins = kb.and_cuda_for(*r);
  bool gap = false;
  if (packaging && pins)
    for (const auto& g : packaging->and_cuda_gaps()) gap = gap || g.tf.contains(r->version);
  if (pins && !gap) {
    steps.push_back(fmt::format("{}: pip install \"tensorflow[and-cuda]=={}\" installs both as pip wheels in the "
                                "environment (leave LD_LIBRARY_PATH free of other CUDA folders), then check with: tfgpu doctor",
                                built, tf));
  } else {
    steps.push_back(built + ": install exactly these (same major, cuDNN not older) and put their lib folder on "
                            "LD_LIBRARY_PATH");
    if (conda)
      steps.push_back(fmt::format("In a conda environment: conda install -c {} {}", conda->channel,
                                  join(conda->packages, " ")));
  }
  return steps;
}

}  // namespace tfgpu
