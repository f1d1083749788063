#pragma once
// The loader model (src/loader) as the rules see it: for each Python environment with
// TensorFlow, the process TF's dlopen / LoadLibrary calls happen in and the simulated
// loads of the libraries the KB names for that TF version and platform. Computed once
// per environment while run_rules runs (LoaderScope) and shared by every rule; a rule
// called on its own computes it afresh. Pure: reads only the Snapshot and the KB.

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kb/kb.h"
#include "loader/loader.h"
#include "rules/finding.h"
#include "snapshot/snapshot.h"

namespace tfgpu::rules {

struct TfEnv;
struct Resolution;  // rule_support.h

// One environment's process and TF's loads in it.
struct EnvLoads {
  const PythonEnv* py = nullptr;
  std::optional<loader::TfProcess> process;  // nullopt: could not be built (`error` says why)
  std::string error;
  std::vector<std::string> path_added;  // Windows conda env: dirs `conda activate` puts first on PATH
  loader::TfLibraryList wanted;         // the KB's names (+ build_info), in TF's order
  loader::TfLoadReport report;          // simulate_tensorflow_loads over `wanted`
  // The loader for search_library() in `process`, built once (its file index is the costly
  // part: doctor searches dozens of names per environment). Null when it could not be built.
  std::shared_ptr<const loader::LdSo> linux_finder;
  std::shared_ptr<const loader::WindowsLoader> windows_finder;
  // resolve() answers by file name, remembered: the rules ask for the same names many
  // times (every KB release's set, when looking for one that would load here).
  mutable std::mutex resolved_mutex;
  mutable std::map<std::string, std::shared_ptr<const Resolution>, std::less<>> resolved;

  // TF's own load of `file` (compared the platform's way), nullptr when TF does not load it.
  const loader::TfLoad* load_of(std::string_view file) const;
};

// Loads for `env` (env.py identifies it): the cached copy while a LoaderScope for this
// snapshot and KB is active, else computed now.
std::shared_ptr<const EnvLoads> loads_for(const Snapshot& s, const kb::KnowledgeBase& kb, const TfEnv& env);

// Where the loader finds `name` in `loads`' process (the search alone, no TF loads
// before it); a process without TF when `loads` is nullptr (python's own search:
// LD_LIBRARY_PATH, ld.so.cache, default dirs; Windows: System32, PATH).
loader::Resolution search_library(const Snapshot& s, const EnvLoads* loads, const std::string& name);

// Makes run_rules compute each environment's loads once: while alive, loads_for()
// for this snapshot and KB answers from one cache. Not copyable; nests (innermost wins;
// a scope inside one for the same snapshot and KB shares its cache, so doctor's rules
// and verdicts simulate each environment once).
class LoaderScope {
 public:
  LoaderScope(const Snapshot& s, const kb::KnowledgeBase& kb);
  ~LoaderScope();
  LoaderScope(const LoaderScope&) = delete;
  LoaderScope& operator=(const LoaderScope&) = delete;

  const Snapshot* snapshot() const { return s_; }
  const kb::KnowledgeBase* kb() const { return kb_; }
  std::map<const PythonEnv*, std::shared_ptr<const EnvLoads>>& cache() { return shared_ ? shared_->cache_ : cache_; }

 private:
  const Snapshot* s_;
  const kb::KnowledgeBase* kb_;
  LoaderScope* outer_;
  LoaderScope* shared_ = nullptr;  // the outer scope whose cache this one uses
  std::map<const PythonEnv*, std::shared_ptr<const EnvLoads>> cache_;
};

// The loader's trail as evidence steps; PATH / LD_LIBRARY_PATH steps get the 1-based
// position of their entry in the user's variable (0 for a dir conda activation adds).
std::vector<TrailStep> trail_steps(const Snapshot& s, const loader::Resolution& r);
// "LD_LIBRARY_PATH #2", "PATH #1", "DT_RUNPATH of /x/libtensorflow_framework.so.2", "ld.so.cache".
std::string step_place(const TrailStep& step);
// Evidence for one resolution: `text` with the trail attached, source "loader model".
Evidence trail_evidence(const Snapshot& s, std::string text, const loader::Resolution& r);

}  // namespace tfgpu::rules
