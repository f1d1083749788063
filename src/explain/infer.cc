// Inference rules for explain. Each block is one rule: its conditions on the facts,
// the KB query that supplies the version fact, and the weight of its conclusion on the
// signature scale (a rule that pins down a root cause outranks the symptom lines it
// explains, e.g. "TF 2.12 on native Windows" outranks "Could not find cuda drivers").
#include "explain/infer.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include <fmt/format.h>

#include "explain/extract.h"
#include "util/strings.h"
#include "util/version.h"

namespace tfgpu::explain {

namespace {

Evidence from_fact(const std::string& what, const Fact& f) { return {what, "log", f.line}; }

Evidence from_kb(const std::string& what, const kb::Citation& c) {
  std::string src = "kb:" + c.row;
  if (!c.sources.empty()) src += " (" + c.sources.front() + ")";
  return {what, src, 0};
}

// "TensorFlow 2.7.0 stated", or where the release is the libtensorflow of a stated
// tfjs-node version, that.
std::string tf_stated(const LogFacts& f) {
  if (!f.tf_from_tfjs_node.empty())
    return fmt::format("TensorFlow {} (the libtensorflow tfjs-node {} downloads)", f.tf_version.value,
                       f.tf_from_tfjs_node.value);
  return fmt::format("TensorFlow {} stated", f.tf_version.value);
}

Platform platform_of(const LogFacts& f) {
  if (f.os.value == "windows") return Platform::kWindows;
  if (f.os.value == "macos") return Platform::kMacos;
  return Platform::kLinux;
}

bool has(const InferenceInput& in, const char* signature) { return in.hit_counts.count(signature) > 0; }

// CUDA_VISIBLE_DEVICES set to a value under which the CUDA runtime sees no device: empty,
// a negative index ("-1"), or a word that is no index and no GPU-/MIG- UUID ("none",
// YARN's "NoDevFiles"): CUDA stops at the first entry it cannot parse.
bool visible_devices_hide_all(const LogFacts& f) {
  if (!f.cuda_visible_devices_set) return false;
  std::string v = to_lower(f.cuda_visible_devices.value);
  if (v == "\"\"" || v == "''") return true;
  if (size_t comma = v.find(','); comma != std::string::npos) v.resize(comma);
  v = std::string(trim(v));
  if (v.empty()) return true;
  if (v[0] == '-') return v.size() > 1 && std::isdigit(static_cast<unsigned char>(v[1]));
  return v == "none" || v == "nodevfiles" || v == "void" || v == "no";
}

double score_of(const std::map<std::string, double>& scores, const std::string& id) {
  auto it = scores.find(id);
  return it == scores.end() ? 0.0 : it->second;
}

// The KB row for a stated TF version; a version newer than the KB's newest uses the
// newest row (what it says about platforms still holds), older than the oldest: none.
const kb::TfRelease* tf_row(const kb::KnowledgeBase& kb, const std::string& text, bool* newer_than_kb) {
  *newer_than_kb = false;
  auto v = Version::parse(text);
  if (!v || v->size() < 2) return nullptr;
  if (const kb::TfRelease* r = kb.find_tf(*v)) return r;
  auto all = kb.tf_releases();
  if (!all.empty() && v->truncated(2) > all.back().version.truncated(2)) {
    *newer_than_kb = true;
    return &all.back();
  }
  return nullptr;
}

bool python_listed(const std::vector<Version>& list, const Version& py) {
  return std::any_of(list.begin(), list.end(),
                     [&](const Version& v) { return v.major() == py.major() && v.minor() == py.minor(); });
}

bool gpu_missing(const LogFacts& f) { return f.flag("gpu_missing") || !f.gpu_list_empty.empty(); }

const Fact& gpu_missing_fact(const LogFacts& f) {
  if (const Fact* m = f.flag_fact("gpu_missing")) return *m;
  return f.gpu_list_empty;
}

// Whether TensorFlow needs the library to use the GPU. Not TensorRT (libnvinfer*): TF 2.12 and
// 2.16.1 log its failure and register the GPU all the same; nor CUPTI (libcupti*,
// cupti64_*.dll), which only the profiler opens, after the GPU is registered (real runs,
// tests/real/README.md).
bool needed_for_gpu(const LibraryMention& l) { return l.component != "nvinfer" && l.component != "cupti"; }

// The first library TensorFlow needs for the GPU that could not be loaded.
const LibraryMention* first_needed_failure(const LogFacts& f) {
  auto it = std::find_if(f.failed_libraries.begin(), f.failed_libraries.end(), needed_for_gpu);
  return it == f.failed_libraries.end() ? nullptr : &*it;
}
bool needed_library_failed(const LogFacts& f) { return first_needed_failure(f) != nullptr; }

// "12.0-12.9", or "2.21" when the first and last are one.
std::string version_span(const Version& first, const Version& last) {
  return first == last ? first.str() : first.str() + "-" + last.str();
}

// The CUDA runtime file a release opens on a platform (the KB's library set) and the one a
// stated toolkit ships (the KB's file names for it): they fit when they are the same file.
struct RuntimeFiles {
  std::optional<std::string> opens, ships;
  std::optional<bool> fit() const {  // nullopt when the KB knows either file not
    if (!opens || !ships) return std::nullopt;
    return iequals(*opens, *ships);
  }
};
RuntimeFiles runtime_files(const kb::KnowledgeBase& kb, const kb::TfRelease& r, const Version& cuda, Platform p) {
  const kb::CudaRelease* toolkit = kb.find_cuda(cuda.truncated(2));
  return {kb.tf_libraries(r, p).file_of("cudart"), toolkit ? toolkit->library(p, "cudart") : std::nullopt};
}

// ---- rules ---------------------------------------------------------------------------

void platform_rules(const InferenceInput& in, const kb::KnowledgeBase& kb, std::vector<Inference>& out) {
  const LogFacts& f = in.facts;
  // A report about a GPU (wants one, misses one, names CUDA, cuDNN, a GPU or a CUDA library),
  // not only one whose failure (NumPy's ABI, a Python without wheels) is on a platform
  // without CUDA builds: that failure is not the platform's.
  const bool about_gpu = f.flag("gpu_wanted") || f.flag("gpu_missing") || f.flag("gpu_seen") || f.flag("pip_cuda") ||
                         !f.gpu_names.empty() || !f.cuda_version.empty() || !f.cudnn_version.empty() ||
                         !f.failed_libraries.empty() || !f.loaded_libraries.empty();
  if (f.os.value == "windows" && f.wsl.empty() && !f.tf_version.empty()) {
    bool newer = false;
    if (const kb::TfRelease* r = tf_row(kb, f.tf_version.value, &newer);
        r && !r->has_gpu_build(Platform::kWindows) && r->has_gpu_build(Platform::kLinux)) {
      // A report naming Linux too (a distribution, .so files) may be from WSL2 without
      // saying so: less sure then.
      auto lv = f.os_votes.find("linux");
      bool linux_too = lv != f.os_votes.end() && lv->second > 0;
      // When pip could not even install TensorFlow, the install failure comes first.
      double w =
          (in.gpu_context && about_gpu ? 0.93 : 0.6) * (linux_too ? 0.6 : 1.0) * (f.flag("pip_failed") ? 0.5 : 1.0);
      Inference inf{"windows_native_gpu_unsupported_tf_ge_2_11", w, "platform.windows_no_cuda_build", {}};
      inf.evidence.push_back(from_fact(tf_stated(f), f.tf_version));
      inf.evidence.push_back(from_fact("native Windows (no WSL2 mentioned)", f.os));
      std::string msg = fmt::format("TensorFlow {} has no CUDA build for native Windows", r->version.str());
      if (const kb::PlatformNote* note = kb.platform_note(*r, Platform::kWindows)) {
        inf.evidence.push_back(from_kb(note->message, kb.cite(*note)));
      } else {
        inf.evidence.push_back(from_kb(msg, kb.cite(*r)));
      }
      if (gpu_missing(f)) inf.evidence.push_back(from_fact("the GPU is not listed", gpu_missing_fact(f)));
      out.push_back(std::move(inf));
    }
  }
  // No release named, but TensorFlow's own log dates it (its source paths, absl's prefix:
  // the signature's tf_at_least): on native Windows, when neither that release nor any
  // later one in the KB has a CUDA build there, that is the cause.
  if (const Fact* era = f.flag_fact("tf_at_least");
      era && f.os.value == "windows" && f.wsl.empty() && f.tf_version.empty() && in.gpu_context && about_gpu) {
    const auto from = Version::parse(era->value);
    const kb::TfRelease* first = nullptr;
    bool all_without = true;
    for (const auto& r : kb.tf_releases()) {
      if (!from || r.series() < from->truncated(2)) continue;
      if (!first) first = &r;
      all_without = all_without && !r.has_gpu_build(Platform::kWindows);
    }
    if (first && all_without) {
      auto lv = f.os_votes.find("linux");
      const bool linux_too = lv != f.os_votes.end() && lv->second > 0;
      Inference inf{"windows_native_gpu_unsupported_tf_ge_2_11",
                    linux_too ? 0.5 : 0.8,
                    "platform.windows_log_of_a_release_without_windows_gpu",
                    {}};
      inf.evidence.push_back(
          from_fact(fmt::format("TensorFlow's log is that of release {} or later", era->value), *era));
      inf.evidence.push_back(from_fact("native Windows (no WSL2 mentioned)", f.os));
      inf.evidence.push_back(from_kb(fmt::format("TensorFlow {} and every later release have no CUDA build for "
                                                 "native Windows",
                                                 first->version.str()),
                                     kb.cite(*first)));
      out.push_back(std::move(inf));
    }
  }
  // On macOS only a report that is about a GPU (about_gpu): any other failure there (NumPy,
  // Python) is not the platform's.
  if (f.os.value == "macos" && in.gpu_context && about_gpu) {
    // The stated release has no macOS CUDA build; with none stated, the current one has
    // none (only tensorflow_gpu 1.0-1.1 had one: less sure when the wording is TF 1.x).
    const kb::TfRelease* r = nullptr;
    bool newer = false;
    if (!f.tf_version.empty()) r = tf_row(kb, f.tf_version.value, &newer);
    const bool old_wording = !r && f.flag("tf_before_2_1");
    if (r ? !r->has_gpu_build(Platform::kMacos) : !kb.tf_releases().back().has_gpu_build(Platform::kMacos)) {
      // As on Windows: a failed install outranks the platform of a release not installed.
      Inference inf{"macos_gpu_unsupported", f.flag("pip_failed") ? 0.4 : (old_wording ? 0.75 : 0.9),
                    "platform.macos_no_cuda_build", {}};
      inf.evidence.push_back(from_fact("the report is from macOS", f.os));
      const kb::TfRelease& row = r ? *r : kb.tf_releases().back();
      if (const kb::PlatformNote* note = kb.platform_note(row, Platform::kMacos))
        inf.evidence.push_back(from_kb(note->message, kb.cite(*note)));
      else
        inf.evidence.push_back(from_kb("no TensorFlow release has a CUDA build for macOS", kb.cite(row)));
      out.push_back(std::move(inf));
    }
  }
}

void python_rules(const InferenceInput& in, const kb::KnowledgeBase& kb, std::vector<Inference>& out) {
  const LogFacts& f = in.facts;
  const Platform p = platform_of(f);
  const bool pip_failed = f.flag("pip_failed");
  std::optional<Version> py;
  if (!f.python_version.empty())
    if (auto v = Version::parse(f.python_version.value)) py = *v;

  // A 64-bit wheel for exactly this Python refused "on this platform": the interpreter is 32-bit.
  // An ARM wheel (a Jetson's, a Raspberry Pi's) refused: 32-bit Python is the x86 story; the
  // wheel is built for one Python only, and the pip that refuses it belongs to another.
  if (has(in, "pip_wheel_not_supported")) {
    for (const auto& w : f.wheels) {
      bool amd64 = w.platform.find("amd64") != std::string::npos || w.platform.find("x86_64") != std::string::npos;
      bool arm = w.platform.find("aarch64") != std::string::npos || w.platform.find("arm") != std::string::npos;
      if ((!amd64 && !arm) || !starts_with(w.python, "cp") || w.python.size() < 4) continue;
      std::string tag = w.python.substr(2);  // "35" -> 3.5, "310" -> 3.10
      std::string wheel_py = tag.substr(0, 1) + "." + tag.substr(1);
      Fact wf{w.file, w.line};
      if (!py && arm) {
        Inference inf{"python_version_unsupported", 0.55, "python.arm_wheel_refused", {}};
        inf.evidence.push_back(from_fact(
            fmt::format("the {} wheel {} is for Python {} only, and pip refuses it", w.platform, w.file, wheel_py),
            wf));
        out.push_back(std::move(inf));
      }
      if (py) {
        auto wv = Version::parse(wheel_py);
        if (wv && wv->major() == py->major() && wv->minor() == py->minor()) {
          if (!amd64) break;  // the right Python: the platform tag is what pip refuses
          Inference inf{"python_32bit", 0.9, "python.amd64_wheel_refused", {}};
          inf.evidence.push_back(from_fact(fmt::format("the 64-bit wheel {} for Python {} is refused", w.file, wheel_py), wf));
          inf.evidence.push_back(from_fact(fmt::format("Python {} stated", f.python_version.value), f.python_version));
          out.push_back(std::move(inf));
        } else {
          Inference inf{"python_version_unsupported", 0.75, "python.wheel_for_other_python", {}};
          inf.evidence.push_back(from_fact(fmt::format("the wheel {} is for Python {}", w.file, wheel_py), wf));
          inf.evidence.push_back(from_fact(fmt::format("Python {} stated", f.python_version.value), f.python_version));
          out.push_back(std::move(inf));
        }
      }
      break;
    }
  }

  // Installing said to fail, in prose, with a release and a Python named ("pip install
  // tensorflow==2.10 fails with Python 3.12"): the KB says whether that release has a wheel.
  const bool install_failed =
      f.flag("install_failed") && !f.tf_version.empty() && f.python_version.value.find('.') != std::string::npos;
  if ((!pip_failed && !install_failed) || !py) return;
  const Fact* pf = f.flag_fact("pip_failed");
  bool newer = false;
  const kb::TfRelease* r = f.tf_version.empty() ? nullptr : tf_row(kb, f.tf_version.value, &newer);
  bool supported = false;
  std::string basis;
  kb::Citation cite;
  if (r && !newer) {
    const auto* list = r->python_on(p);
    if (!list) list = r->python_on(Platform::kLinux);
    supported = list && python_listed(*list, *py);
    basis = fmt::format("TensorFlow {} has wheels for Python {}", r->version.str(),
                        list ? [&] {
                          std::vector<std::string> s;
                          for (const auto& v : *list) s.push_back(v.str());
                          return join(s, ", ");
                        }()
                             : std::string("(none listed)"));
    cite = kb.cite(*r);
  } else {
    const kb::TfRelease* any = nullptr;
    for (const auto& rel : kb.tf_releases()) {
      const auto* list = rel.python_on(p);
      if (!list) list = rel.python_on(Platform::kLinux);
      if (list && python_listed(*list, *py)) any = &rel;
    }
    supported = any != nullptr;
    basis = supported ? fmt::format("TensorFlow {} has a wheel for Python {}.{}", any->version.str(), py->major(), py->minor())
                      : fmt::format("no TensorFlow release in the knowledge base has a wheel for Python {}.{}",
                                    py->major(), py->minor());
    cite = kb.cite(any ? *any : kb.tf_releases().back());
  }
  if (!supported) {
    Inference inf{"python_version_unsupported", pip_failed ? 0.9 : 0.75, "python.no_wheel_for_version", {}};
    inf.evidence.push_back(from_fact(fmt::format("Python {} stated", f.python_version.value), f.python_version));
    if (r) inf.evidence.push_back(from_fact(fmt::format("TensorFlow {} requested", f.tf_version.value), f.tf_version));
    inf.evidence.push_back(from_kb(basis, cite));
    if (pf) inf.evidence.push_back(from_fact("pip found no matching distribution", *pf));
    else
      inf.evidence.push_back(from_fact("the report says installing fails", *f.flag_fact("install_failed")));
    out.push_back(std::move(inf));
  } else if (pip_failed) {
    // The Python version has wheels, yet pip finds none: the interpreter is not 64-bit.
    // Weaker than "Python version not supported" when only some release has them (the report
    // may predate the release that added this Python); stronger when the release the report
    // names has a wheel for exactly this Python on native Windows (on Linux an old pip that
    // does not know the manylinux tag is as likely).
    const bool release_has_it = r && !newer;
    const double w = p == Platform::kWindows ? (release_has_it ? 0.6 : 0.4) : 0.3;  // Linux: an old pip, as often
    Inference inf{"python_32bit", w, "python.supported_version_no_wheel", {}};
    inf.evidence.push_back(from_fact(fmt::format("Python {} stated, which has TensorFlow wheels", f.python_version.value),
                                     f.python_version));
    inf.evidence.push_back(from_kb(basis, cite));
    if (pf) inf.evidence.push_back(from_fact("pip found no matching distribution", *pf));
    out.push_back(std::move(inf));
  }
}

void cpu_rules(const InferenceInput& in, std::vector<Inference>& out) {
  const LogFacts& f = in.facts;
  if (f.cpu_avx != Tri::kNo) return;
  bool crashed = has(in, "illegal_instruction") || has(in, "avx_not_available") || has(in, "dll_init_routine_failed");
  Inference inf{"cpu_no_avx", crashed ? 0.9 : 0.5, "cpu.flags_without_avx", {}};
  inf.evidence.push_back(from_fact("the CPU flags list has no 'avx'", f.cpu_flags));
  if (!f.cpu_model.empty()) inf.evidence.push_back(from_fact("CPU: " + f.cpu_model.value, f.cpu_model));
  out.push_back(std::move(inf));
}

// No TensorFlow release stated, but every CUDA toolkit the report names is older than its
// GPU: none of them builds kernels for that architecture ("RTX 3070 with CUDA 10.1"), so a
// TensorFlow built with them cannot use the card well or at all; it needs a release built
// with a CUDA that knows the GPU.
void toolkit_older_than_gpu(const InferenceInput& in, const kb::KnowledgeBase& kb, std::vector<Inference>& out) {
  const LogFacts& f = in.facts;
  if (!in.gpu_context || f.flag("gpu_works") || f.cuda_versions_stated.empty()) return;
  auto ccs = stated_ccs(f, kb);
  if (ccs.empty()) return;
  const auto newest = std::max_element(ccs.begin(), ccs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<const kb::CudaRelease*> named;
  for (const auto& v : f.cuda_versions_stated) {
    auto parsed = Version::parse(v);
    const kb::CudaRelease* c = parsed ? kb.find_cuda(*parsed) : nullptr;
    if (!c || c->sass_max.major == 0) return;  // a toolkit the KB cannot judge
    if (!(c->sass_max < newest->first)) return;  // one of them knows the GPU
    named.push_back(c);
  }
  const kb::CudaRelease* first_ok = kb.first_cuda_building_for(newest->first);
  Inference inf{"cuda_version_mismatch", 0.6, "hardware.toolkit_older_than_gpu", {}};
  inf.evidence.push_back(from_fact(fmt::format("GPU compute capability {}", newest->first.str()), newest->second));
  for (const kb::CudaRelease* c : named)
    inf.evidence.push_back(from_kb(fmt::format("CUDA {} builds kernels up to compute capability {} only",
                                               c->version.str(), c->sass_max.str()),
                                   kb.cite_cc(*c)));
  if (first_ok)
    inf.evidence.push_back(from_kb(fmt::format("CUDA {} is the first that builds for {}: use a TensorFlow built with it "
                                               "or later",
                                               first_ok->version.str(), newest->first.str()),
                                   kb.cite_cc(*first_ok)));
  out.push_back(std::move(inf));
}

// The releases that open every CUDA / cuDNN library TensorFlow opened in the log
// (libcudart.so.12 and libcudnn.so.9: 2.18 and later); empty when it opened none.
std::vector<const kb::TfRelease*> releases_opening_loaded(const LogFacts& f, const kb::KnowledgeBase& kb, Platform p) {
  std::vector<const kb::TfRelease*> out;
  bool first = true;
  for (const auto& l : f.loaded_libraries) {
    if (!is_cuda_component(l.component) && l.component != "cudnn") continue;
    std::vector<const kb::TfRelease*> these = kb.releases_opening(l.name, p);
    if (first) {
      out = std::move(these);
      first = false;
      continue;
    }
    std::erase_if(out, [&](const kb::TfRelease* r) { return std::find(these.begin(), these.end(), r) == these.end(); });
  }
  return out;
}

// TensorFlow lists the GPU and warns that its kernels "will be jit-compiled from PTX", but
// the wheels of every release the log can be from carry PTX only for newer architectures
// than the GPU's (TF 2.21: compute_90): no kernel can be built for it.
void ptx_cannot_serve_gpu(const LogFacts& f, const kb::KnowledgeBase& kb, const std::vector<const kb::TfRelease*>& rels,
                          std::vector<Inference>& out) {
  if (rels.empty() || f.compute_capability.empty()) return;
  auto cc = kb::ComputeCapability::parse(f.compute_capability.value);
  if (!cc) return;
  kb::CcSupportResult first;
  for (const kb::TfRelease* r : rels) {
    kb::CcSupportResult s = kb.tf_cc_support(*r, *cc);
    if (s.support != kb::CcSupport::kIgnored) return;
    if (r == rels.front()) first = s;
  }
  const std::string span = version_span(rels.front()->version, rels.back()->version);
  Inference inf{"compute_capability_unsupported", 0.9, "hardware.cc_below_every_ptx", {}};
  inf.evidence.push_back(from_fact(fmt::format("GPU compute capability {}", cc->str()), f.compute_capability));
  inf.evidence.push_back(
      from_kb(fmt::format("TensorFlow {} (the releases this log can be from): {}", span, first.detail),
              first.cites.empty() ? kb.cite(*rels.front()) : first.cites.front()));
  out.push_back(std::move(inf));
  out.push_back(Inference{"ptx_jit_slow", 0.8, "hardware.cc_below_every_ptx", {}, true});
}

void gpu_rules(const InferenceInput& in, const kb::KnowledgeBase& kb, std::vector<Inference>& out) {
  const LogFacts& f = in.facts;
  if (has(in, "ptx_jit_warning")) {
    bool newer_release = false;
    const kb::TfRelease* stated = f.tf_version.empty() ? nullptr : tf_row(kb, f.tf_version.value, &newer_release);
    if (stated)
      ptx_cannot_serve_gpu(f, kb, {stated}, out);
    else if (!newer_release)
      ptx_cannot_serve_gpu(f, kb, releases_opening_loaded(f, kb, platform_of(f)), out);
  }
  // The report states both the GPU's capability and the minimum its build needs.
  if (!f.compute_capability.empty() && !f.cc_min_required.empty()) {
    auto have = kb::ComputeCapability::parse(f.compute_capability.value);
    auto need = kb::ComputeCapability::parse(f.cc_min_required.value);
    if (have && need && *have < *need) {
      Inference inf{"compute_capability_unsupported", 0.85, "hardware.cc_below_stated_minimum", {}};
      inf.evidence.push_back(from_fact(fmt::format("GPU compute capability {}", have->str()), f.compute_capability));
      inf.evidence.push_back(from_fact(fmt::format("the build needs at least {}", need->str()), f.cc_min_required));
      out.push_back(std::move(inf));
      return;
    }
  }
  bool newer = false;
  const kb::TfRelease* r = f.tf_version.empty() ? nullptr : tf_row(kb, f.tf_version.value, &newer);
  if (newer) return;
  // No release the KB knows (unstated, or older than the KB): a stated compute capability
  // that no TensorFlow release in the KB compiles kernels for (and that every release with
  // a known architecture list ignores) is unsupported whatever the release.
  if (!r) {
    toolkit_older_than_gpu(in, kb, out);
    if (f.compute_capability.empty() || !in.gpu_context) return;
    auto cc = kb::ComputeCapability::parse(f.compute_capability.value);
    if (!cc) return;
    const kb::TfRelease* lowest = nullptr;
    std::optional<kb::ComputeCapability> lowest_min;
    for (const auto& rel : kb.tf_releases()) {
      kb::CcSupportResult s = kb.tf_cc_support(rel, *cc);
      if (s.support == kb::CcSupport::kNative || s.support == kb::CcSupport::kPtxJit) return;
      if (s.support == kb::CcSupport::kIgnored && s.min_required && (!lowest_min || *s.min_required < *lowest_min)) {
        lowest_min = s.min_required;
        lowest = &rel;
      }
    }
    if (!lowest) return;
    Inference inf{"compute_capability_unsupported", 0.65, "hardware.cc_below_every_release", {}};
    inf.evidence.push_back(from_fact(fmt::format("GPU compute capability {}", cc->str()), f.compute_capability));
    inf.evidence.push_back(from_kb(fmt::format("no TensorFlow release in the knowledge base has kernels for {}; the lowest "
                                               "architecture any of them is built for is {} (TensorFlow {})",
                                               cc->str(), lowest_min->str(), lowest->version.str()),
                                   kb.cite(*lowest)));
    out.push_back(std::move(inf));
    return;
  }
  // Every GPU the report names counts (a report comparing a K80 with a V100 is about the
  // one that misbehaves): the stated compute capability and each name the KB resolves to
  // one capability. The worst verdict wins: ignored, then PTX-only.
  const auto ccs = stated_ccs(f, kb);
  const std::pair<kb::ComputeCapability, Fact>* ignored = nullptr;
  const std::pair<kb::ComputeCapability, Fact>* ptx = nullptr;
  kb::CcSupportResult ignored_s, ptx_s;
  // When the release's compiled list is not in the KB, its CUDA toolkit still bounds it:
  // a GPU newer than anything that toolkit can build SASS for only runs JIT-compiled PTX.
  const kb::CudaRelease* built_with = r->cuda.empty() ? nullptr : kb.find_cuda(r->cuda.truncated(2));
  for (const auto& entry : ccs) {
    kb::CcSupportResult s = kb.tf_cc_support(*r, entry.first);
    if (s.support == kb::CcSupport::kUnknown && built_with && entry.first > built_with->sass_max) {
      s.support = kb::CcSupport::kPtxJit;
      s.detail = fmt::format("built with CUDA {}, which builds SASS up to {} only: kernels for {} are JIT-compiled "
                             "from PTX (slow start, or no kernel at all)",
                             built_with->version.str(), built_with->sass_max.str(), entry.first.str());
      s.cites = {kb.cite_cc(*built_with)};
    }
    if (s.support == kb::CcSupport::kIgnored && !ignored) {
      ignored = &entry;
      ignored_s = s;
    } else if (s.support == kb::CcSupport::kPtxJit && !ptx) {
      ptx = &entry;
      ptx_s = s;
    }
  }
  if (ignored) {
    // Where a library TensorFlow needs did not even load, that is what stops it now; the
    // GPU's capability stops it next (listed, below the failure the log shows).
    Inference inf{
        "compute_capability_unsupported", needed_library_failed(f) ? 0.7 : 0.8, "hardware.cc_below_build", {}};
    inf.evidence.push_back(from_fact(fmt::format("GPU compute capability {}", ignored->first.str()), ignored->second));
    inf.evidence.push_back(from_kb(fmt::format("TensorFlow {}: {}", r->version.str(), ignored_s.detail),
                                   ignored_s.cites.empty() ? kb.cite(*r) : ignored_s.cites.front()));
    out.push_back(std::move(inf));
  } else if (ptx && !gpu_missing(f) && !needed_library_failed(f) && !f.flag("tf_built_without_cuda") &&
             r->has_gpu_build(platform_of(f))) {
    // JIT-compiling PTX makes a GPU slow to start, never absent: where the GPU is not listed,
    // a library it needs did not load, or the build has no CUDA on this platform, TensorFlow
    // never gets as far as compiling kernels. Where TensorFlow created the GPU device and its
    // own PTX warning (logged at that moment) is not in the log, nor a slow start in the
    // report, it is a heads-up below what the log itself says.
    const bool unseen = f.flag("gpu_works") && !has(in, "slow_first_start_prose");
    Inference inf{"ptx_jit_slow", unseen ? 0.2 : 0.35, "hardware.cc_ptx_only", {}};
    inf.evidence.push_back(from_fact(fmt::format("GPU compute capability {}", ptx->first.str()), ptx->second));
    inf.evidence.push_back(from_kb(fmt::format("TensorFlow {}: {}", r->version.str(), ptx_s.detail),
                                   ptx_s.cites.empty() ? kb.cite(*r) : ptx_s.cites.front()));
    out.push_back(std::move(inf));
  }
}

void driver_rules(const InferenceInput& in, const kb::KnowledgeBase& kb, std::vector<Inference>& out) {
  const LogFacts& f = in.facts;
  if (f.driver_version.empty()) return;
  auto driver = Version::parse(f.driver_version.value);
  if (!driver) return;
  // The CUDA the TF build needs (from the KB), or failing that the CUDA stated.
  std::optional<Version> cuda;
  std::string why;
  bool newer = false;
  if (!f.tf_version.empty())
    if (const kb::TfRelease* r = tf_row(kb, f.tf_version.value, &newer); r && !newer && !r->cuda.empty()) {
      cuda = r->cuda;
      why = fmt::format("TensorFlow {} is built with CUDA {}", r->version.str(), r->cuda.str());
    }
  if (!cuda && !f.cuda_version.empty())
    if (auto v = Version::parse(f.cuda_version.value)) {
      cuda = v->truncated(2);
      why = fmt::format("CUDA {} stated", cuda->str());
    }
  if (!cuda) return;
  // WSL2's nvidia-smi shows the Windows driver number.
  Platform p = (f.os.value == "windows" || !f.wsl.empty()) ? Platform::kWindows : Platform::kLinux;
  auto req = kb.min_driver(*cuda, p, kb::DriverPolicy::kMinorVersionCompat);
  if (!req) return;
  if (!(*driver < req->min_driver)) {
    // TensorFlow prints "Possibly insufficient driver version: <version>" on every cuDNN
    // start that fails with CUDNN_STATUS_NOT_INITIALIZED (cuda_dnn.cc), whatever the
    // version: a driver the release's CUDA accepts is not why. Not for conda's builds,
    // whose CUDA may not be the pip release's, nor against the runtime's own "driver
    // version is insufficient".
    if (has(in, "cudnn_insufficient_driver") && !has(in, "driver_insufficient") &&
        !has(in, "unsupported_ptx_version") && !has(in, "container_cuda_requirement_unsatisfied") && !f.flag("conda")) {
      Inference inf{"driver_too_old", 1.0, "driver.meets_what_the_cuda_needs", {}};
      inf.refutes = true;
      inf.evidence.push_back(from_fact(fmt::format("driver {} stated", f.driver_version.value), f.driver_version));
      inf.evidence.push_back(
          from_kb(fmt::format("{}; CUDA {} needs driver >= {}", why, cuda->str(), req->min_driver.str()),
                  req->cites.empty() ? kb::Citation{"cuda", {}, true} : req->cites.front()));
      out.push_back(std::move(inf));
    }
    return;
  }
  Inference inf{"driver_too_old", 0.85, "driver.older_than_cuda_needs", {}};
  inf.evidence.push_back(from_fact(fmt::format("driver {} stated", f.driver_version.value), f.driver_version));
  inf.evidence.push_back({why, "log", f.tf_version.line ? f.tf_version.line : f.cuda_version.line});
  inf.evidence.push_back(from_kb(fmt::format("CUDA {} needs driver >= {} ({})", cuda->str(), req->min_driver.str(), req->basis),
                                 req->cites.empty() ? kb::Citation{"cuda", {}, true} : req->cites.front()));
  out.push_back(std::move(inf));
}

// The TF release and the cuDNN stated, of the same major: the release accepts its build's
// minor or above (exactly that minor for the releases whose check compares major*1000 +
// minor*100, 1.5-1.7).
void cudnn_pairing_rule(const InferenceInput& in, const kb::KnowledgeBase& kb, std::vector<Inference>& out) {
  const LogFacts& f = in.facts;
  if (f.tf_version.empty() || f.cudnn_version.empty() || !f.cudnn_loaded.empty()) return;
  bool newer = false;
  const kb::TfRelease* r = tf_row(kb, f.tf_version.value, &newer);
  auto have = Version::parse(f.cudnn_version.value);
  if (!r || newer || r->cudnn.size() < 2 || !have || have->size() < 2) return;
  if (!r->has_gpu_build(platform_of(f))) return;
  const Version want = r->cudnn.truncated(2);
  if (!kb.cudnn_major(have->major()) || r->loads_cudnn(*have)) return;  // "cuDNN 10.1": a misread CUDA
  // Another major is another library file ("nvidia-cudnn-cu12==9.3" where 2.17 opens
  // libcudnn.so.8): the log's own lines (the file-name rules) judge that where it names
  // the file; where it names none and the GPU is missing, the stated major is the clue.
  // With TensorFlow's pip CUDA wheels the library folders are found (RUNPATH), so a cuDNN
  // wheel of another major (another package pinning it, e.g. a PyTorch in the same
  // environment) is what TensorFlow meets.
  const bool other_major = have->major() != want.major();
  if (other_major &&
      (!gpu_missing(f) || f.flag("gpu_works") || !f.failed_libraries.empty() || !f.loaded_libraries.empty()))
    return;
  Inference inf =
      other_major
          ? Inference{"cudnn_version_mismatch",
                      f.flag("pip_cuda") ? 0.85 : 0.5,
                      "runtime.tf_and_cudnn_major_stated_apart",
                      {}}
          : Inference{"cudnn_version_mismatch", in.gpu_context ? 0.7 : 0.55, "runtime.tf_and_cudnn_stated_apart", {}};
  inf.evidence.push_back(from_fact(tf_stated(f), f.tf_version));
  inf.evidence.push_back(from_fact(fmt::format("cuDNN {} stated", f.cudnn_version.value), f.cudnn_version));
  const std::string built =
      other_major
          ? fmt::format("TensorFlow {} was built with cuDNN {}: it opens cuDNN {}'s library file, not cuDNN {}'s",
                        r->version.str(), want.str(), want.major(), have->major())
          : fmt::format("TensorFlow {} was built with cuDNN {} and loads {}", r->version.str(), want.str(),
                        r->cudnn_minor_exact ? fmt::format("only {}.x", want.str())
                                             : fmt::format("{}.x from {} on", want.major(), want.str()));
  inf.evidence.push_back(from_kb(built, kb.cite(*r)));
  out.push_back(std::move(inf));
}

// The release and a system CUDA toolkit whose files are the ones it opens are both stated,
// yet TensorFlow skipped the GPU without naming the file it missed (2.12 on hide that line):
// a CUDA toolkit brings every library TensorFlow opens except cuDNN, which is a separate
// install, so cuDNN (absent, or of another major) is what is left. Not with the pip CUDA
// wheels, conda's CUDA, a cuDNN the log saw loaded, a named failed file (the file rules
// judge that), or a CUDA the reporter names as what TensorFlow needs.
void toolkit_matches_but_gpu_skipped(const InferenceInput& in, const kb::KnowledgeBase& kb, const kb::TfRelease& r,
                                     std::vector<Inference>& out) {
  const LogFacts& f = in.facts;
  if (!gpu_missing(f) || f.flag("gpu_works") || needed_library_failed(f) || !f.cudnn_loaded.empty() ||
      f.flag("pip_cuda") || f.flag("conda") || f.flag("colab") || r.cudnn.empty() ||
      f.flag("cuda_stated_as_requirement"))
    return;
  // A driver-level failure the log shows already explains the missing GPU: TensorFlow
  // never reached its libraries.
  for (const char* id : {"driver_missing", "driver_too_old", "driver_library_mismatch", "no_device_visible",
                         "wsl_libcuda", "container_gpu_runtime_missing", "uvm_stale_after_suspend",
                         "compute_capability_unsupported"})
    if (score_of(in.signature_scores, id) >= 0.5) return;
  const kb::TfLibraries libs = kb.tf_libraries(r, platform_of(f));
  auto cudnn_file = libs.file_of("cudnn");
  if (!libs.gpu_build || libs.linked || !cudnn_file || !libs.file_of("cudart")) return;
  // Every toolkit the report names is one whose runtime is the file the release opens (a
  // report naming 10.1 as what TF needs and 9.2 as what it has is a mismatch).
  for (const auto& v : f.cuda_versions_stated) {
    auto parsed = Version::parse(v);
    if (!parsed || !runtime_files(kb, r, *parsed, platform_of(f)).fit().value_or(false)) return;
  }
  // A cuDNN stated too: of another major, the stated-apart rule judges it; of the major the
  // release opens, every file is installed and what is left is the search path.
  if (auto stated = Version::parse(f.cudnn_version.value)) {
    if (stated->major() != r.cudnn.major()) return;
    Inference inf{"env_path_not_set", 0.45, "runtime.toolkit_and_cudnn_match_path_left", {}};
    inf.evidence.push_back(from_fact(tf_stated(f), f.tf_version));
    inf.evidence.push_back(from_fact(fmt::format("CUDA {} and cuDNN {} stated: the toolkit and the cuDNN major "
                                                 "TensorFlow {} opens",
                                                 f.cuda_version.value, f.cudnn_version.value, r.version.str()),
                                     f.cudnn_version));
    inf.evidence.push_back(from_fact("the GPU is not listed", gpu_missing_fact(f)));
    out.push_back(std::move(inf));
    return;
  }
  Inference inf{"cudnn_missing", 0.45, "runtime.toolkit_matches_cudnn_left", {}};
  inf.evidence.push_back(from_fact(tf_stated(f), f.tf_version));
  inf.evidence.push_back(from_fact(fmt::format("CUDA {} stated: the toolkit TensorFlow {} opens", f.cuda_version.value,
                                               r.version.str()),
                                   f.cuda_version));
  inf.evidence.push_back(from_fact("the GPU is not listed", gpu_missing_fact(f)));
  inf.evidence.push_back(from_kb(fmt::format("TensorFlow {} also opens {} (cuDNN {}), which no CUDA toolkit ships",
                                             r.version.str(), *cudnn_file, r.cudnn.truncated(2).str()),
                                 kb.cite(r)));
  out.push_back(std::move(inf));
  // The same unopened file when a cuDNN of another major is installed (cuDNN 9 where the
  // release opens libcudnn.so.8): the fix is the same cuDNN.
  Inference other{"cudnn_version_mismatch", 0.35, "runtime.toolkit_matches_cudnn_other_major", {}};
  other.evidence.push_back(from_kb(fmt::format("a cuDNN of another major than {} ships another file than {}",
                                               r.cudnn.major(), *cudnn_file),
                                   kb.cite(r)));
  out.push_back(std::move(other));
}

// Versions stated in prose or tables that do not belong together, even when no log line
// says so: the TF release and the CUDA installed (compared by the runtime file name each
// loads, so CUDA 11.8 with a TF built for 11.2 is fine); on native Windows, a CUDA whose
// major no TensorFlow release with a Windows GPU build ever used.
void pairing_rules(const InferenceInput& in, const kb::KnowledgeBase& kb, std::vector<Inference>& out) {
  const LogFacts& f = in.facts;
  cudnn_pairing_rule(in, kb, out);
  if (f.cuda_version.empty()) return;
  // NVIDIA's own TensorFlow build brings its CUDA as pip wheels: the stock pairing does not
  // apply; a system toolkit next to them is a second CUDA the loader may pick first.
  if (f.flag("nvidia_tf_build")) {
    const bool failing =
        gpu_missing(f) || needed_library_failed(f) || has(in, "crash_marker") || f.flag("failure_stated");
    if (failing) {
      Inference inf{"multiple_cuda_on_path", 0.45, "runtime.nvidia_tf_pip_cuda_vs_system_cuda", {}};
      inf.evidence.push_back(from_fact("NVIDIA's TensorFlow build (CUDA from pip wheels)", *f.flag_fact("nvidia_tf_build")));
      inf.evidence.push_back(from_fact(fmt::format("a system CUDA {} too", f.cuda_version.value), f.cuda_version));
      out.push_back(std::move(inf));
    }
    return;
  }
  auto stated = Version::parse(f.cuda_version.value);  // "11.2", or a bare major "10"
  if (!stated || stated->size() < 1) return;
  const Platform p = platform_of(f);
  const bool native_windows = f.os.value == "windows" && f.wsl.empty();
  if (!f.tf_version.empty()) {
    if (f.flag("tf_built_from_source")) return;  // built for the CUDA its builder configured
    bool newer = false;
    const kb::TfRelease* r = tf_row(kb, f.tf_version.value, &newer);
    if (!r || newer || r->cuda.empty() || !r->has_gpu_build(p)) return;
    const RuntimeFiles files = runtime_files(kb, *r, *stated, p);
    const bool differ = files.fit() ? !*files.fit() : stated->major() != r->cuda.major();
    if (!differ) {
      toolkit_matches_but_gpu_skipped(in, kb, *r, out);
      return;
    }
    Inference inf{"cuda_version_mismatch", 0.7, "runtime.tf_and_cuda_stated_apart", {}};
    inf.evidence.push_back(from_fact(tf_stated(f), f.tf_version));
    inf.evidence.push_back(from_fact(fmt::format("CUDA {} stated", f.cuda_version.value), f.cuda_version));
    std::string msg = fmt::format("TensorFlow {} is built with CUDA {}", r->version.str(), r->cuda.str());
    if (files.fit())
      msg += fmt::format(" and loads {}; CUDA {} ships {}", *files.opens, stated->truncated(2).str(), *files.ships);
    inf.evidence.push_back(from_kb(msg, kb.cite(*r)));
    out.push_back(std::move(inf));
    return;
  }
  // No release named, but the CUDA named is one no TensorFlow release loads: its runtime's
  // file name (libcudart.so.9.2, cudart64_92.dll) is none a release's GPU build opens, so
  // whichever TensorFlow is installed does not find it. Not for a CUDA that conda brings
  // into the environment (the TF from conda uses that one), nor for a build from source.
  // (Not when TensorFlow names the file it failed to open: that evidence is more specific.)
  if (f.tf_version.empty() && f.failed_libraries.empty() &&
      (gpu_missing(f) || f.flag("failure_stated") || f.flag("gpu_wanted")) &&
      f.cuda_kind.value != "conda" && !f.flag("conda") && !f.flag("pip_cuda") && !f.flag("tf_built_from_source")) {
    if (const kb::CudaRelease* have = stated->size() >= 2 ? kb.find_cuda(stated->truncated(2)) : nullptr) {
      std::vector<Platform> platforms = {p};
      if (f.os.empty()) platforms = {Platform::kLinux, Platform::kWindows};
      std::string have_file;
      bool loaded = false;
      for (Platform q : platforms)
        if (auto hf = have->library(q, "cudart")) {
          if (have_file.empty()) have_file = *hf;
          loaded = loaded || !kb.releases_opening(*hf, q).empty();
        }
      if (!have_file.empty() && !loaded) {
        Inference inf{"cuda_version_mismatch", in.gpu_context ? 0.55 : 0.45, "runtime.cuda_no_release_loads", {}};
        inf.evidence.push_back(from_fact(fmt::format("CUDA {} stated", f.cuda_version.value), f.cuda_version));
        std::vector<std::string> names;  // the runtimes the releases open, oldest first, once each
        for (const auto& r : kb.tf_releases())
          if (auto name = kb.tf_libraries(r, platforms.front()).file_of("cudart");
              name && std::find(names.begin(), names.end(), *name) == names.end())
            names.push_back(*name);
        inf.evidence.push_back(from_kb(fmt::format("CUDA {} ships {}, which no TensorFlow release opens (they open {})",
                                                   stated->truncated(2).str(), have_file, join(names, ", ")),
                                       kb.cite_libraries(*have)));
        out.push_back(std::move(inf));
      }
    }
  }
  if (native_windows) {
    int newest_major = 0;
    const kb::TfRelease* last = nullptr;
    for (const auto& r : kb.tf_releases())
      if (r.has_gpu_build(Platform::kWindows) && !r.cuda.empty() && r.cuda.major() >= newest_major) {
        newest_major = r.cuda.major();
        last = &r;
      }
    if (last && stated->major() > newest_major) {
      Inference inf{"windows_native_gpu_unsupported_tf_ge_2_11", in.gpu_context ? 0.7 : 0.5,
                    "platform.windows_cuda_beyond_last_gpu_build", {}};
      inf.evidence.push_back(from_fact(fmt::format("CUDA {} on native Windows", f.cuda_version.value), f.cuda_version));
      inf.evidence.push_back(from_kb(fmt::format("the last TensorFlow with a native Windows GPU build is {} (CUDA {}); "
                                                 "no release for CUDA {}.x exists there",
                                                 last->version.str(), last->cuda.str(), stated->major()),
                                     kb.cite(*last)));
      out.push_back(std::move(inf));
    }
  }
}

// The CUDA major a runtime / cuBLAS file name encodes: "libcudart.so.10.1" -> 10,
// "libcublas.so.9.0" -> 9, "cudart64_90.dll" -> 9, "cudart64_110.dll" -> 11, "cudart64_12.dll" -> 12.
std::optional<int> cuda_major_of_file(std::string_view name) {
  std::string low = to_lower(name);
  size_t so = low.find(".so.");
  std::string digits;
  if (so != std::string::npos) {
    for (size_t i = so + 4; i < low.size() && std::isdigit(static_cast<unsigned char>(low[i])); ++i) digits += low[i];
    if (digits.empty()) return std::nullopt;
    return std::stoi(digits.substr(0, 2));
  }
  size_t us = low.find("64_");
  if (us == std::string::npos || !ends_with(low, ".dll")) return std::nullopt;
  for (size_t i = us + 3; i < low.size() && std::isdigit(static_cast<unsigned char>(low[i])); ++i) digits += low[i];
  if (digits.size() == 2) return digits == "12" || digits == "13" ? std::stoi(digits) : digits[0] - '0';  // 90, 91, 92 -> 9
  if (digits.size() == 3) return std::stoi(digits.substr(0, 2));  // 100, 101, 110 -> 10, 10, 11
  return std::nullopt;
}

// The cuDNN major a library file name encodes: libcudnn.so.7 / libcudnn.so.8.1.0 -> 7 / 8,
// cudnn64_7.dll -> 7.
std::optional<int> cudnn_major_of_file(std::string_view name) {
  std::string low = to_lower(name);
  size_t at = std::string::npos;
  if (size_t so = low.find("libcudnn.so."); so != std::string::npos) at = so + 12;
  else if (size_t dll = low.find("cudnn64_"); dll != std::string::npos && ends_with(low, ".dll")) at = dll + 8;
  if (at == std::string::npos || at >= low.size() || !std::isdigit(static_cast<unsigned char>(low[at])))
    return std::nullopt;
  int major = 0;
  while (at < low.size() && std::isdigit(static_cast<unsigned char>(low[at])) && major < 1000) major = major * 10 + (low[at++] - '0');
  return major;
}

void library_rules(const InferenceInput& in, const kb::KnowledgeBase* kb, std::vector<Inference>& out) {
  const LogFacts& f = in.facts;
  const Platform p = platform_of(f);
  bool cudart_failed = false, other_failed = false;
  const LibraryMention* first_other = nullptr;
  for (const auto& l : f.failed_libraries) {
    if (l.component == "cudart") cudart_failed = true;
    else if (is_cuda_component(l.component)) {
      other_failed = true;
      if (!first_other) first_other = &l;
    }
  }
  bool cudart_loaded = std::any_of(f.loaded_libraries.begin(), f.loaded_libraries.end(),
                                   [](const LibraryMention& l) { return l.component == "cudart"; });
  // The report names several toolkits: whether the one shipping exactly the missing file is
  // the one TensorFlow met is open (a CUDA named in TF's own message is not "installed"
  // either, so only this claim is weakened).
  const bool cuda_ambiguous = f.cuda_versions_stated.size() >= 2;

  // The toolkit the loaded CUDA libraries pin: the KB's CUDA releases shipping every one of
  // them. When each of those also ships every CUDA file that failed, TensorFlow asked for the
  // right versions and only some folders were not searched: not a version mismatch.
  std::vector<const kb::CudaRelease*> toolkit;
  bool failed_in_loaded_toolkit = false;
  if (kb && other_failed && !cudart_failed && cudart_loaded) {
    // Every CUDA library of `libs` is one `cr` ships.
    auto ships_all = [&](const kb::CudaRelease& cr, const std::vector<LibraryMention>& libs) {
      return std::all_of(libs.begin(), libs.end(), [&](const LibraryMention& l) {
        return !is_cuda_component(l.component) || cr.ships(p, l.name);
      });
    };
    for (const auto& cr : kb->cuda_releases())
      if (ships_all(cr, f.loaded_libraries)) toolkit.push_back(&cr);
    failed_in_loaded_toolkit =
        !toolkit.empty() && std::all_of(toolkit.begin(), toolkit.end(),
                                        [&](const kb::CudaRelease* cr) { return ships_all(*cr, f.failed_libraries); });
  }
  if (failed_in_loaded_toolkit && first_other) {
    // A whole toolkit in one folder is found or missed as one; libraries found one by one are
    // pip's nvidia-* wheels, each in its own site-packages/nvidia/<lib>/lib folder, with the
    // [and-cuda] extra of the releases that open this file (tensorflow issue 63362).
    bool and_cuda = false;
    if (p == Platform::kLinux)
      for (const kb::TfRelease* r : kb->releases_opening(first_other->name, p))
        and_cuda = and_cuda || kb->and_cuda_for(*r);
    std::vector<std::string> loaded;
    for (const auto& l : f.loaded_libraries)
      if (is_cuda_component(l.component)) loaded.push_back(l.name);
    const std::string span = version_span(toolkit.front()->version, toolkit.back()->version);
    auto evidence = [&](Inference& inf) {
      inf.evidence.push_back(
          from_fact(fmt::format("{} could not be loaded while {} loaded", first_other->name, join(loaded, ", ")),
                    Fact{first_other->name, first_other->line}));
      inf.evidence.push_back(from_kb(fmt::format("every CUDA that ships those ({}) ships {} too: the version is right, "
                                                 "its folder is not searched",
                                                 span, first_other->name),
                                     kb->cite_libraries(*toolkit.front())));
    };
    if (and_cuda) {
      Inference inf{"pip_nvidia_libs_not_found", 0.6, "runtime.pip_library_folder_not_searched", {}};
      evidence(inf);
      out.push_back(std::move(inf));
    }
    Inference inf{"env_path_not_set", and_cuda ? 0.5 : 0.6, "runtime.toolkit_library_folder_not_searched", {}};
    evidence(inf);
    out.push_back(std::move(inf));
  }

  for (const auto& l : f.failed_libraries) {
    Fact lf{l.name, l.line};
    // Another major of the same library loaded: present, but not the name TF wants.
    for (const auto& ok : f.loaded_libraries) {
      if (ok.component == l.component && ok.name != l.name && is_cuda_component(l.component)) {
        Inference inf{"cuda_version_mismatch", 0.8, "runtime.other_version_loaded", {}};
        inf.evidence.push_back(from_fact(fmt::format("{} could not be loaded", l.name), lf));
        inf.evidence.push_back(from_fact(fmt::format("{} (another version) loads", ok.name), Fact{ok.name, ok.line}));
        out.push_back(std::move(inf));
        break;
      }
    }
    if (!kb) continue;
    // The CUDA / cuDNN the report says is installed: does it ship exactly this file?
    if (is_cuda_component(l.component) && !f.cuda_version.empty()) {
      auto v = Version::parse(f.cuda_version.value);
      const kb::CudaRelease* cr = v ? kb->find_cuda(v->truncated(2)) : nullptr;
      auto file = cr ? cr->library(p, l.component) : std::nullopt;
      if (file) {
        kb::Citation cite = kb->cite_libraries(*cr);
        if (iequals(*file, l.name)) {
          // A CUDA named as a requirement ("needs CUDA 11.3") is not known to be installed.
          const bool only_required = f.flag("cuda_stated_as_requirement");
          Inference inf{"env_path_not_set", cuda_ambiguous || only_required ? 0.5 : 0.8, "runtime.installed_but_not_found", {}};
          inf.evidence.push_back(from_fact(fmt::format("{} could not be loaded", l.name), lf));
          inf.evidence.push_back(from_fact(fmt::format("CUDA {} is installed{}", f.cuda_version.value,
                                                       f.cuda_kind.value == "conda" ? " (conda)" : ""),
                                           f.cuda_version));
          inf.evidence.push_back(from_kb(fmt::format("CUDA {} ships exactly {}: its folder is not on the search path",
                                                     cr->version.str(), *file),
                                         cite));
          out.push_back(std::move(inf));
        } else {
          Inference inf{"cuda_version_mismatch", 0.85, "runtime.installed_cuda_has_other_name", {}};
          inf.evidence.push_back(from_fact(fmt::format("TensorFlow asks for {}", l.name), lf));
          inf.evidence.push_back(from_fact(fmt::format("CUDA {} is installed", f.cuda_version.value), f.cuda_version));
          inf.evidence.push_back(from_kb(fmt::format("CUDA {} ships {} instead", cr->version.str(), *file), cite));
          out.push_back(std::move(inf));
        }
      }
    }
    // Several toolkits named and one of them ships exactly the missing file: that one is
    // usually named because TensorFlow asked for it; another named one that ships a different
    // file is then the one installed.
    if (is_cuda_component(l.component) && cuda_ambiguous) {
      const kb::CudaRelease* wanted = nullptr;
      const kb::CudaRelease* other = nullptr;
      std::optional<std::string> other_file;
      for (const auto& s : f.cuda_versions_stated) {
        auto v = Version::parse(s);
        const kb::CudaRelease* cr = v ? kb->find_cuda(v->truncated(2)) : nullptr;
        auto file = cr ? cr->library(p, l.component) : std::nullopt;
        if (!file) continue;
        if (iequals(*file, l.name))
          wanted = cr;
        else if (!other)
          other = cr, other_file = file;
      }
      if (wanted && other) {
        Inference inf{"cuda_version_mismatch", 0.55, "runtime.other_named_cuda_has_other_name", {}};
        inf.evidence.push_back(
            from_fact(fmt::format("TensorFlow asks for {} (CUDA {})", l.name, wanted->version.str()), lf));
        inf.evidence.push_back(
            from_kb(fmt::format("CUDA {}, also named, ships {} instead", other->version.str(), *other_file),
                    kb->cite_libraries(*other)));
        out.push_back(std::move(inf));
      }
    }
    if (l.component == "cudnn" && !f.cudnn_version.empty()) {
      auto v = Version::parse(f.cudnn_version.value);
      const kb::CudnnMajor* m = v ? kb->cudnn_major(v->major()) : nullptr;
      if (m) {
        auto it = m->libraries.find(p);
        if (it != m->libraries.end() && !it->second.empty()) {
          bool same = iequals(it->second.front(), l.name);
          Inference inf{same ? "env_path_not_set" : "cudnn_version_mismatch", same ? 0.75 : 0.85,
                        same ? "runtime.cudnn_installed_but_not_found" : "runtime.cudnn_other_major", {}};
          inf.evidence.push_back(from_fact(fmt::format("{} could not be loaded", l.name), lf));
          inf.evidence.push_back(from_fact(fmt::format("cuDNN {} is installed", f.cudnn_version.value), f.cudnn_version));
          inf.evidence.push_back(
              from_kb(fmt::format("cuDNN {} provides {}", m->major, it->second.front()), kb->cite(*m)));
          out.push_back(std::move(inf));
        }
      } else if (auto file_major = cudnn_major_of_file(l.name); v && file_major && *file_major != v->major()) {
        // A cuDNN major the KB has no row for (cuDNN 5, 6): the file name still encodes the
        // major TensorFlow wants (cudnn64_7.dll, libcudnn.so.7).
        Inference inf{"cudnn_version_mismatch", 0.85, "runtime.cudnn_file_major_differs", {}};
        inf.evidence.push_back(from_fact(fmt::format("{} (cuDNN {}) could not be loaded", l.name, *file_major), lf));
        inf.evidence.push_back(from_fact(fmt::format("cuDNN {} stated", f.cudnn_version.value), f.cudnn_version));
        out.push_back(std::move(inf));
      }
    }
  }
  // The stated CUDA has only a major ("CUDA 10"), is not in the KB, or the KB has no file
  // names for it (9.x): compare it with the CUDA major the failed runtime / cuBLAS file name
  // encodes (libcublas.so.9.0, cudart64_90.dll -> 9; cudart64_110.dll -> 11). Other
  // libraries' file majors differ from CUDA's own.
  if (!f.cuda_version.empty()) {
    auto v = Version::parse(f.cuda_version.value);
    const kb::CudaRelease* cr = kb && v && v->size() >= 2 ? kb->find_cuda(v->truncated(2)) : nullptr;
    for (const auto& l : f.failed_libraries) {
      if (!v || (l.component != "cudart" && l.component != "cublas")) continue;
      if (cr && cr->library(p, l.component)) continue;  // judged by the file names above
      std::optional<int> file_major = cuda_major_of_file(l.name);
      if (!file_major || *file_major == v->major()) continue;
      // As strong as the file-name comparison above: the installed toolkit's files carry
      // another major; less when the report names several toolkits or only a requirement.
      const bool unsure = cuda_ambiguous || f.flag("cuda_stated_as_requirement");
      Inference inf{"cuda_version_mismatch", unsure ? 0.6 : 0.85, "runtime.file_major_differs_from_stated_cuda", {}};
      inf.evidence.push_back(from_fact(fmt::format("{} (a CUDA {} library) is asked for", l.name, *file_major),
                                       Fact{l.name, l.line}));
      inf.evidence.push_back(from_fact(fmt::format("CUDA {} stated", f.cuda_version.value), f.cuda_version));
      out.push_back(std::move(inf));
      break;
    }
  }
  // Only non-runtime libraries fail while the runtime loads: a different CUDA is installed.
  if (other_failed && !cudart_failed && cudart_loaded && first_other && !failed_in_loaded_toolkit) {
    Inference inf{"cuda_version_mismatch", 0.75, "runtime.runtime_loads_library_does_not", {}};
    inf.evidence.push_back(from_fact(fmt::format("{} could not be loaded", first_other->name),
                                     Fact{first_other->name, first_other->line}));
    out.push_back(std::move(inf));
  }

  // The file TensorFlow could not load is there, the reporter says: its folder is not where
  // the loader looks.
  for (const auto& l : f.failed_libraries) {
    if (!needed_for_gpu(l)) continue;
    auto present = std::find_if(f.present_libraries.begin(), f.present_libraries.end(),
                                [&](const LibraryMention& x) { return iequals(x.name, l.name); });
    if (present == f.present_libraries.end()) continue;
    Inference inf{"env_path_not_set", 0.8, "runtime.failed_library_is_on_disk", {}};
    inf.evidence.push_back(from_fact(fmt::format("{} could not be loaded", l.name), Fact{l.name, l.line}));
    inf.evidence.push_back(from_fact(fmt::format("{} is on disk", l.name), Fact{present->detail, present->line}));
    out.push_back(std::move(inf));
    break;
  }
  // Another version of that library is there, the reporter says ("Library not loaded:
  // @rpath/libcudart.8.0.dylib but I have libcudart.7.5.dylib"): the installed CUDA / cuDNN
  // is not the one this TensorFlow was built for. Not the file behind the name TF opens
  // ("libcudnn.so.8.9.7" for "libcudnn.so.8"): that one is the same version.
  auto same_version = [](std::string_view a, std::string_view b) {
    const std::string la = to_lower(a), lb = to_lower(b);
    return starts_with(la, lb) || starts_with(lb, la);
  };
  for (const auto& l : f.failed_libraries) {
    if (!is_cuda_component(l.component) && l.component != "cudnn") continue;
    auto other = std::find_if(f.present_libraries.begin(), f.present_libraries.end(), [&](const LibraryMention& x) {
      return x.component == l.component && !same_version(x.name, l.name);
    });
    if (other == f.present_libraries.end()) continue;
    const bool cudnn = l.component == "cudnn";
    Inference inf{cudnn ? "cudnn_version_mismatch" : "cuda_version_mismatch", 0.8, "runtime.other_version_on_disk", {}};
    inf.evidence.push_back(from_fact(fmt::format("{} could not be loaded", l.name), Fact{l.name, l.line}));
    inf.evidence.push_back(
        from_fact(fmt::format("{} is installed: another version", other->name), Fact{other->detail, other->line}));
    out.push_back(std::move(inf));
    break;
  }
  // TensorFlow's import fails inside a container not shown to get the GPU (no --gpus, no
  // NVIDIA runtime): a GPU build that links the driver library at import finds no
  // libcuda.so.1 there, which only the NVIDIA container runtime mounts. No release named:
  // which releases link it so is not in the KB.
  if (!f.container.empty() && !f.flag("container_gpus") && f.tf_version.empty() && has(in, "pywrap_import_traceback") &&
      !f.flag("gpu_works")) {
    Inference inf{"container_gpu_runtime_missing", 0.45, "container.import_fails_without_gpus_flag", {}};
    inf.evidence.push_back(from_fact("TensorFlow's import fails inside a container", f.container));
    out.push_back(std::move(inf));
  }
  // A library fails to load in an IDE while the same program runs from a terminal: the IDE,
  // started from the desktop, does not get the shell's LD_LIBRARY_PATH / PATH.
  if (const Fact* ide = f.flag_fact("ide_and_terminal"); ide && first_needed_failure(f)) {
    Inference inf{"env_path_not_set", 0.75, "runtime.ide_without_shell_environment", {}};
    const LibraryMention* l = first_needed_failure(f);
    inf.evidence.push_back(from_fact(fmt::format("{} could not be loaded", l->name), Fact{l->name, l->line}));
    inf.evidence.push_back(from_fact("the program is run from a terminal and from an IDE", *ide));
    out.push_back(std::move(inf));
  } else if (ide && gpu_missing(f)) {
    // The same, with no library named: since TF 2.12 the failed loads are logged only at
    // a higher log level, so "[] in the IDE" is often all there is.
    Inference inf{"env_path_not_set", 0.45, "runtime.ide_without_shell_environment_unlisted", {}};
    inf.evidence.push_back(from_fact("the GPU is not listed", gpu_missing_fact(f)));
    inf.evidence.push_back(from_fact("the program is run from a terminal and from an IDE", *ide));
    out.push_back(std::move(inf));
  }
  // The driver library itself is missing.
  bool libcuda_failed = std::any_of(f.failed_libraries.begin(), f.failed_libraries.end(),
                                    [](const LibraryMention& l) { return l.component == "cuda_driver"; });
  if (libcuda_failed && f.wsl.empty()) {
    // No driver library where TF runs (in a container: the GPU runtime did not mount it).
    Inference inf{"driver_missing", 0.6, "driver.libcuda_missing", {}};
    for (const auto& l : f.failed_libraries)
      if (l.component == "cuda_driver") inf.evidence.push_back(from_fact(l.name + " could not be loaded", Fact{l.name, l.line}));
    out.push_back(std::move(inf));
  }
  if (libcuda_failed && !f.wsl.empty()) {
    Inference inf{"wsl_libcuda", 0.85, "driver.wsl_libcuda_missing", {}};
    for (const auto& l : f.failed_libraries)
      if (l.component == "cuda_driver") inf.evidence.push_back(from_fact(l.name + " could not be loaded", Fact{l.name, l.line}));
    inf.evidence.push_back(from_fact("WSL2", f.wsl));
    out.push_back(std::move(inf));
  }
  // The reporter says TensorFlow cannot find a CUDA or cuDNN file ("it can't find
  // cudart64_110.dll", "libcublas.so.9.0 is missing") and no TensorFlow message about that
  // library says so: the same conclusion as TensorFlow's own line, a little less sure.
  const LibraryMention *said_cudart = nullptr, *said_cudnn = nullptr, *said_other = nullptr;
  for (const auto& l : f.failed_libraries) {
    if (!l.in_prose) continue;
    if (l.component == "cudart")
      said_cudart = said_cudart ? said_cudart : &l;
    else if (l.component == "cudnn")
      said_cudnn = said_cudnn ? said_cudnn : &l;
    else if (is_cuda_component(l.component))
      said_other = said_other ? said_other : &l;
  }
  auto said = [&](const char* id, double w, const LibraryMention& l) {
    Inference inf{id, w, "runtime.library_said_missing", {}};
    inf.evidence.push_back(from_fact(fmt::format("the report says {} is not found", l.name), Fact{l.name, l.line}));
    out.push_back(std::move(inf));
  };
  if (said_cudart && score_of(in.signature_scores, "cudart_missing") == 0) {
    said("cudart_missing", 0.5, *said_cudart);
    said("cuda_version_mismatch", 0.3, *said_cudart);
  }
  if (said_cudnn && score_of(in.signature_scores, "cudnn_missing") == 0) said("cudnn_missing", 0.5, *said_cudnn);
  if (said_other && score_of(in.signature_scores, "cuda_version_mismatch") == 0) {
    said("cuda_version_mismatch", 0.45, *said_other);
    said("cudart_missing", 0.3, *said_other);
  }
  // Windows' `where` found a CUDA / cuDNN DLL on no PATH folder: the loader, which searches
  // the same folders, cannot find it either (the version question is the stated-CUDA rules').
  for (const auto& l : f.failed_libraries) {
    if (!l.detail.starts_with("where:")) continue;
    const bool cudnn = l.component == "cudnn";
    if (!cudnn && !is_cuda_component(l.component)) continue;
    Inference inf{cudnn ? "cudnn_missing" : "cudart_missing", 0.55, "runtime.where_finds_no_dll", {}};
    inf.evidence.push_back(
        from_fact(fmt::format("`where {}` finds it in no folder of PATH", l.name), Fact{l.name, l.line}));
    out.push_back(std::move(inf));
  }
}

// The stated release opens the runtime file of the CUDA the report states (TF 2.9 and CUDA
// 11.2 both stated: libcudart.so.11.0 either way).
bool release_opens_stated_cuda(const LogFacts& f, const kb::KnowledgeBase& kb) {
  bool newer = false;
  const kb::TfRelease* r = tf_row(kb, f.tf_version.value, &newer);
  auto stated = Version::parse(f.cuda_version.value);
  if (!r || newer || r->cuda.empty() || !stated || stated->size() < 2) return false;
  return runtime_files(kb, *r, *stated, platform_of(f)).fit().value_or(false);
}

void environment_rules(const InferenceInput& in, const kb::KnowledgeBase* kb, std::vector<Inference>& out) {
  const LogFacts& f = in.facts;
  const bool kb_newest_tf_has_no_windows_gpu =
      kb && !kb->tf_releases().empty() && !kb->tf_releases().back().has_gpu_build(Platform::kWindows);
  const bool works = f.flag("gpu_works");
  // The cause when the GPU is wanted; set on purpose to run on the CPU (a report only about
  // TF's "no CUDA-capable device" line), it is no problem (harmless_warning_only stays).
  const bool wanted = f.flag("gpu_wanted") || f.flag("gpu_unseen_prose") || !f.gpu_list_empty.empty();
  if (visible_devices_hide_all(f) && (wanted || works)) {
    const std::string& v = f.cuda_visible_devices.value;
    {
      Inference inf{"no_device_visible", works ? 0.3 : 0.85, "driver.cuda_visible_devices_hides_all", {}};
      inf.evidence.push_back(from_fact(fmt::format("CUDA_VISIBLE_DEVICES='{}' hides every GPU", v), f.cuda_visible_devices));
      out.push_back(std::move(inf));
    }
  }
  bool failures = has(in, "cannot_dlopen_gpu_libraries") || has(in, "could_not_find_cuda_drivers") ||
                  needed_library_failed(f) || gpu_missing(f);
  if (f.flag("pip_cuda") && f.os.value != "windows" && f.os.value != "macos" && failures && !works) {
    // TF's own dlerror shows the wheels' folders on LD_LIBRARY_PATH: they are searched, so a
    // library it misses is not in them (its own finding says which), not unsearched.
    const bool searched = f.flag("pip_cuda_searched");
    Inference inf{"pip_nvidia_libs_not_found", searched ? 0.3 : 0.8, "runtime.pip_cuda_not_found", {}};
    inf.evidence.push_back(from_fact("TensorFlow's pip CUDA libraries (and-cuda / nvidia-* wheels) are installed",
                                     *f.flag_fact("pip_cuda")));
    if (searched)
      inf.evidence.push_back(from_fact("but their folders are on LD_LIBRARY_PATH, which the loader searches",
                                       *f.flag_fact("pip_cuda_searched")));
    if (gpu_missing(f)) inf.evidence.push_back(from_fact("the GPU is not listed", gpu_missing_fact(f)));
    out.push_back(std::move(inf));
  }
  if (f.cuda_path_versions.size() >= 2) {
    std::vector<std::string> vs;
    int line = 0;
    for (const auto& [k, fact] : f.cuda_path_versions) {
      vs.push_back(k);
      if (!line) line = fact.line;
    }
    Inference inf{"multiple_cuda_on_path", 0.5, "runtime.several_cuda_paths", {}};
    inf.evidence.push_back({fmt::format("paths of several CUDA versions: {}", join(vs, ", ")), "log", line});
    out.push_back(std::move(inf));
  }
  // cuInit's CUDA_ERROR_UNKNOWN on a Linux machine that was suspended: the unified-memory
  // module is stale (it is not a driver/library mismatch; reloading nvidia_uvm fixes it).
  if (has(in, "cuinit_unknown_error") && has(in, "suspend_resume_prose") && !f.flag("wsl")) {
    Inference inf{"uvm_stale_after_suspend", 0.85, "driver.cuinit_unknown_after_suspend", {}};
    out.push_back(std::move(inf));
  }
  // The CPU-only package (tensorflow-cpu, or `tensorflow` before 2.1) where the GPU is wanted.
  // tensorflow-gpu named only to say it is not installed does not count as installed.
  const bool cpu_pkg = f.flag("cpu_package");
  const bool gpu_pkg = f.flag("gpu_package") && !f.flag("gpu_package_not_installed");
  if (cpu_pkg && (gpu_pkg || f.flag("gpu_wanted")) && !works) {
    Inference inf{"wrong_package", gpu_pkg ? 0.75 : 0.6, "framework.cpu_package_where_gpu_wanted", {}};
    inf.evidence.push_back(from_fact("a CPU-only TensorFlow package is named", *f.flag_fact("cpu_package")));
    if (gpu_pkg) inf.evidence.push_back(from_fact("tensorflow-gpu is named too", *f.flag_fact("gpu_package")));
    out.push_back(std::move(inf));
  }
  // The GPU is not used and TensorFlow never touched CUDA (no library loaded or failed, no
  // device line from TensorFlow; nvidia-smi output is the driver talking, not TF): before
  // 2.1 the plain `tensorflow` package was CPU-only. On Colab the preinstalled TF is a GPU
  // build, so there it is not the package.
  const bool colab = f.flag("colab");
  // With TF_CPP_MIN_LOG_LEVEL at 2 or 3 TensorFlow prints none of its warnings: its silence
  // about CUDA is then no evidence.
  const bool cuda_silent =
      f.failed_libraries.empty() && f.loaded_libraries.empty() && !f.flag("gpu_seen") && !f.flag("tf_logs_hidden");
  // The stated release's plain `tensorflow` package is the CPU-only one (KB [[package]]
  // rows); a release older than the KB's oldest counts as that oldest.
  bool old_tf = f.tf_version.empty() && f.flag("tf_before_2_1");
  if (kb && !f.tf_version.empty()) {
    bool newer = false;
    const kb::TfRelease* r = tf_row(*kb, f.tf_version.value, &newer);
    const auto tfv = Version::parse(f.tf_version.value);
    if (!r && !newer && tfv && tfv->size() >= 2 && !kb->tf_releases().empty() &&
        *tfv < kb->tf_releases().front().version)
      r = &kb->tf_releases().front();
    old_tf = r && kb->plain_tensorflow_cpu_only(*r);
  }
  // No release named, but the log dates it (its source paths) to one whose plain package is
  // a CUDA build (KB [[package]] rows; on Windows the platform rule speaks).
  bool log_from_gpu_package_release = false;
  if (const Fact* era = f.flag_fact("tf_at_least"); kb && era && f.tf_version.empty()) {
    bool newer = false;
    const kb::TfRelease* r = tf_row(*kb, era->value, &newer);
    log_from_gpu_package_release = r && !kb->plain_tensorflow_cpu_only(*r);
  }
  if (gpu_missing(f) && !works && cuda_silent && !gpu_pkg && !f.flag("pip_cuda") && !colab &&
      !f.flag("nvidia_tf_build") && !log_from_gpu_package_release) {
    if (old_tf || f.tf_version.empty()) {
      // With nothing dated, the package comes just before a CUDA of the wrong version (the
      // usual causes of a GPU left unused, in the development reports' proportions), unless
      // the report names a CUDA toolkit: someone who set one up more often has the wrong one.
      const double unstated = f.cuda_version.empty() ? 0.31 : 0.28;
      Inference inf{"wrong_package", old_tf ? 0.5 : unstated, "framework.plain_tensorflow_cpu_only_before_2_1", {}};
      inf.evidence.push_back(from_fact("the GPU is not used", gpu_missing_fact(f)));
      if (!f.tf_version.empty() && old_tf)
        inf.evidence.push_back(from_fact(tf_stated(f), f.tf_version));
      else if (old_tf)
        inf.evidence.push_back(from_fact("the log's wording is from TensorFlow 1.x", *f.flag_fact("tf_before_2_1")));
      out.push_back(std::move(inf));
    }
  }
  // The reporter says tensorflow-gpu is not installed (or asks whether to change `tensorflow`
  // to it) and the GPU is unused: the plain package is the one in use, CPU-only for the
  // stated release (KB [[package]] rows) or, with no release named, for the era in which
  // tensorflow-gpu was the GPU package.
  if (const Fact* not_gpu = f.flag_fact("gpu_package_not_installed");
      not_gpu && (gpu_missing(f) || f.flag("gpu_wanted")) && !works && !cpu_pkg && !colab &&
      (old_tf || f.tf_version.empty())) {
    Inference inf{"wrong_package", old_tf ? 0.7 : 0.5, "framework.gpu_package_not_installed", {}};
    inf.evidence.push_back(
        from_fact("tensorflow-gpu is not installed, so the plain `tensorflow` package is in use", *not_gpu));
    if (!f.tf_version.empty()) inf.evidence.push_back(from_fact(tf_stated(f), f.tf_version));
    out.push_back(std::move(inf));
  }
  // A package list with two TensorFlow distributions at different releases (tensorflow
  // 2.10.0 and tensorflow-intel 2.11.0, tensorflow-gpu 2.4.0 and tensorflow 2.6.0): both
  // install the one `tensorflow` module, so whichever was installed last is imported, with
  // the other's files mixed in.
  {
    std::vector<std::pair<std::string, const Fact*>> dists;
    for (auto it = f.flags.lower_bound("tf_dist:"); it != f.flags.end() && it->first.starts_with("tf_dist:"); ++it)
      dists.emplace_back(it->first.substr(8), &it->second);
    for (size_t a = 0; a < dists.size(); ++a)
      for (size_t b = a + 1; b < dists.size(); ++b) {
        if (dists[a].second->value == dists[b].second->value) continue;
        Inference inf{"wrong_package", 0.7, "framework.two_tensorflow_distributions_at_different_releases", {}};
        inf.evidence.push_back(
            from_fact(fmt::format("{} {} is installed", dists[a].first, dists[a].second->value), *dists[a].second));
        inf.evidence.push_back(from_fact(
            fmt::format("and {} {}: both install the one tensorflow module", dists[b].first, dists[b].second->value),
            *dists[b].second));
        out.push_back(std::move(inf));
        a = dists.size();
        break;
      }
  }
  // pip shows both `tensorflow` and `tensorflow-gpu`: two distributions of one module, and
  // before 2.1 the plain one is the CPU-only build (whichever was installed last wins).
  if (const Fact* plain = f.flag_fact("plain_tf_installed"); plain && gpu_pkg && !cpu_pkg && !works) {
    Inference inf{"wrong_package", old_tf ? 0.75 : 0.45, "framework.plain_and_gpu_package_both_installed", {}};
    inf.evidence.push_back(from_fact("pip shows the plain tensorflow distribution", *plain));
    inf.evidence.push_back(from_fact("and tensorflow-gpu", *f.flag_fact("gpu_package")));
    out.push_back(std::move(inf));
  }
  // tensorflow-gpu 1.x named, the import works, the GPU is unused and TensorFlow never
  // mentions CUDA: a GPU build up to 1.13 links CUDA at import (a missing CUDA fails the
  // import), and 1.14-2.0 log every CUDA library they cannot open; silence about CUDA means
  // the TensorFlow that imports is the CPU-only `tensorflow` package installed next to it
  // (both install the same `tensorflow` module).
  if (gpu_missing(f) && !works && cuda_silent && gpu_pkg && !cpu_pkg && !colab && old_tf && !f.flag("pip_failed")) {
    Inference inf{"wrong_package", 0.45, "framework.gpu_package_shadowed_before_2_1", {}};
    inf.evidence.push_back(from_fact("the GPU is not used", gpu_missing_fact(f)));
    inf.evidence.push_back(from_fact("tensorflow-gpu is named, yet TensorFlow neither loads nor misses a CUDA library",
                                     *f.flag_fact("gpu_package")));
    out.push_back(std::move(inf));
  }
  // Native Windows, the GPU unused, TensorFlow silent about CUDA and no release named: a
  // current install there is >= 2.11, which has no CUDA build for Windows (and so never
  // even tries to load CUDA). Only when nothing dates the report before 2.1.
  if (platform_of(f) == Platform::kWindows && f.wsl.empty() && f.tf_version.empty() && gpu_missing(f) && !works &&
      cuda_silent && !gpu_pkg && !f.flag("tf_before_2_1") && !cpu_pkg && kb_newest_tf_has_no_windows_gpu) {
    Inference inf{"windows_native_gpu_unsupported_tf_ge_2_11", 0.45, "platform.windows_tf_unstated_cuda_silent", {}};
    inf.evidence.push_back(from_fact("native Windows", f.os));
    inf.evidence.push_back(from_fact("the GPU is not used and TensorFlow loads no CUDA library", gpu_missing_fact(f)));
    out.push_back(std::move(inf));
  }
  // TensorFlow itself says it has no CUDA: on native Windows that is a release without a
  // Windows CUDA build (when none is named, or the one named has none); elsewhere the
  // CPU-only package.
  if (const Fact* nb = f.flag_fact("tf_built_without_cuda"); nb && f.os.value != "macos") {
    bool win_release_without_gpu = kb_newest_tf_has_no_windows_gpu;
    if (kb && !f.tf_version.empty()) {
      bool newer = false;
      const kb::TfRelease* r = tf_row(*kb, f.tf_version.value, &newer);
      win_release_without_gpu = r && !r->has_gpu_build(Platform::kWindows);
    }
    if (platform_of(f) == Platform::kWindows && f.wsl.empty() && win_release_without_gpu) {
      Inference inf{"windows_native_gpu_unsupported_tf_ge_2_11", 0.75, "platform.windows_build_without_cuda", {}};
      inf.evidence.push_back(from_fact("TensorFlow reports it was built without CUDA", *nb));
      inf.evidence.push_back(from_fact("native Windows", f.os));
      out.push_back(std::move(inf));
    } else {
      Inference inf{"wrong_package", 0.7, "framework.build_without_cuda", {}};
      inf.evidence.push_back(from_fact("TensorFlow reports it was built without CUDA: a CPU-only package", *nb));
      out.push_back(std::move(inf));
    }
  }
  // A release with a known GPU-detection regression (the KB's signature names the finding):
  // on Linux / WSL with the GPU unlisted, that regression comes first.
  // With the pip CUDA wheels in use ([and-cuda]) the report is about exactly that
  // regression even when it does not say the GPU is missing (asking how to set the path).
  if (const Fact* reg = f.flag_fact("known_gpu_regression");
      reg && !reg->value.empty() && (gpu_missing(f) || f.flag("pip_cuda")) && !works && !colab &&
      f.os.value != "windows" && f.os.value != "macos") {
    // A system CUDA toolkit stated and no pip CUDA wheels named: the regression (about the
    // pip wheels) may not be what this machine meets.
    const bool system_toolkit = !f.cuda_version.empty() && f.cuda_kind.value != "conda" && !f.flag("pip_cuda") &&
                                !f.flag("cuda_stated_as_requirement");
    Inference inf{reg->value, gpu_missing(f) ? (system_toolkit ? 0.4 : 0.55) : 0.45,
                  "framework.release_with_known_gpu_regression", {}};
    inf.evidence.push_back(from_fact("a TensorFlow release with a known GPU-detection regression", *reg));
    if (gpu_missing(f)) inf.evidence.push_back(from_fact("the GPU is not listed", gpu_missing_fact(f)));
    else inf.evidence.push_back(from_fact("the pip CUDA wheels (tensorflow[and-cuda]) are in use", *f.flag_fact("pip_cuda")));
    out.push_back(std::move(inf));
  }
  // Colab: the runtime ships a TensorFlow built for its own CUDA. A TensorFlow the user
  // installs on top (another release, tensorflow-gpu, tf-nightly) is built for another
  // CUDA: it fails to import, crashes, or lists no GPU.
  const bool failing =
      gpu_missing(f) || has(in, "crash_marker") || needed_library_failed(f) || f.flag("failure_stated");
  // A release stated together with the CUDA it was built with (an issue template filled in
  // on the runtime) is the runtime's own TensorFlow, not one installed on top.
  const bool stated_release_fits_stated_cuda = kb && !f.tf_version.empty() && !f.cuda_version.empty() &&
                                               release_opens_stated_cuda(f, *kb);
  if (colab && failing && !works &&
      (gpu_pkg || f.flag("tf_installed_by_user") || (!f.tf_version.empty() && !stated_release_fits_stated_cuda))) {
    Inference inf{"cuda_version_mismatch", gpu_pkg || f.flag("tf_installed_by_user") ? 0.6 : 0.45,
                  "runtime.colab_tf_not_the_runtime_build", {}};
    inf.evidence.push_back(from_fact("on Colab, whose runtime ships TensorFlow built for its own CUDA", *f.flag_fact("colab")));
    if (gpu_pkg) inf.evidence.push_back(from_fact("another TensorFlow GPU package is installed", *f.flag_fact("gpu_package")));
    if (!f.tf_version.empty())
      inf.evidence.push_back(from_fact(tf_stated(f), f.tf_version));
    out.push_back(std::move(inf));
  }
  // Nothing more specific: the GPU is not listed. Most often the CUDA libraries are not
  // installed at all (plain `pip install tensorflow`); since TF 2.12 the line naming
  // them is hidden. Not on Colab (CUDA is there).
  // Which comes first depends on the release: one with an [and-cuda] extra (KB) brings no
  // CUDA with a plain `pip install tensorflow`, so the libraries are most likely absent;
  // for older or unstated releases the usual reason is a CUDA installed, but not the
  // version the release was built with (tfgpu matrix --tf <version> tells which).
  if (gpu_missing(f) && !works && !colab) {
    bool pip_brings_cuda = false;
    if (kb && !f.tf_version.empty()) {
      bool newer = false;
      if (const kb::TfRelease* r = tf_row(*kb, f.tf_version.value, &newer)) pip_brings_cuda = kb->and_cuda_for(*r) != nullptr;
    }
    Inference inf{"cudart_missing", pip_brings_cuda ? 0.3 : 0.26, "runtime.gpu_not_listed_default", {}};
    inf.evidence.push_back(from_fact("the GPU is not listed", gpu_missing_fact(f)));
    out.push_back(std::move(inf));
    Inference other{"cuda_version_mismatch", pip_brings_cuda ? 0.26 : 0.3, "runtime.gpu_not_listed_version_default", {}};
    other.evidence.push_back(from_fact("the GPU is not listed", gpu_missing_fact(f)));
    out.push_back(std::move(other));
    // In a container not shown to get the GPU (no --gpus, no nvidia runtime): without the
    // NVIDIA container runtime no device and no driver library reach the container, so that
    // comes before the CUDA libraries inside it.
    if (!f.container.empty() && !f.flag("container_gpus")) {
      Inference ctr{"container_gpu_runtime_missing", 0.35, "container.gpu_not_listed_no_gpus_flag", {}};
      ctr.evidence.push_back(from_fact("the GPU is not listed", gpu_missing_fact(f)));
      ctr.evidence.push_back(from_fact("inside a container, started without --gpus / the NVIDIA runtime as far as "
                                       "the report shows",
                                       f.container));
      out.push_back(std::move(ctr));
    }
  }
}

}  // namespace

std::vector<std::pair<kb::ComputeCapability, Fact>> stated_ccs(const LogFacts& f, const kb::KnowledgeBase& kb) {
  std::vector<std::pair<kb::ComputeCapability, Fact>> ccs;
  if (!f.compute_capability.empty())
    if (auto c = kb::ComputeCapability::parse(f.compute_capability.value)) ccs.emplace_back(*c, f.compute_capability);
  for (const auto& name : f.gpu_names) {
    auto found = kb.find_gpus_by_name(name.value);
    // A laptop part has its desktop namesake's capability (the same architecture): "GTX
    // 960M laptop", "RTX 3060 Laptop GPU", "GTX 1060 Max-Q" are looked up without those words.
    std::string bare = to_lower(name.value);
    for (bool cut = true; (!found || found->empty()) && cut;) {
      cut = false;
      for (std::string_view tail : {" laptop", " gpu", " mobile", " notebook", " max-q", " max-p"})
        if (bare.size() > tail.size() && bare.ends_with(tail)) {
          bare.resize(bare.size() - tail.size());
          found = kb.find_gpus_by_name(bare);
          cut = true;
          break;
        }
    }
    if (!found || found->empty()) continue;
    auto first = found->front()->cc;
    bool same = std::all_of(found->begin(), found->end(), [&](const kb::Gpu* g) { return g->cc == first; });
    if (same) ccs.emplace_back(first, name);
  }
  // The chip lspci names ("GK107"): every KB row of that chip (or its workstation / mobile
  // variant, "GK107GL", "GK107M") has one capability.
  if (const Fact* chip = f.flag_fact("gpu_chip"); chip && ccs.empty()) {
    std::optional<kb::ComputeCapability> cc;
    bool same = true;
    for (const kb::Gpu& g : kb.gpus()) {
      std::string row = g.chip;
      std::transform(row.begin(), row.end(), row.begin(), [](unsigned char c) { return std::toupper(c); });
      if (!row.starts_with(chip->value)) continue;
      const std::string_view rest = std::string_view(row).substr(chip->value.size());
      if (!std::all_of(rest.begin(), rest.end(), [](char c) { return c >= 'A' && c <= 'Z'; })) continue;
      if (cc && !(*cc == g.cc)) same = false;
      cc = g.cc;
    }
    if (cc && same) ccs.emplace_back(*cc, *chip);
  }
  return ccs;
}

bool failed_runtime_only_gpu_package_loads(const LogFacts& facts, const kb::KnowledgeBase& kb) {
  bool any = false;
  for (const auto& l : facts.failed_libraries) {
    if (l.component != "cudart") continue;
    bool matched = false, unified = false;
    for (const auto& r : kb.tf_releases()) {
      if (r.cuda.empty()) continue;
      const kb::CudaRelease* cr = kb.find_cuda(r.cuda.truncated(2));
      if (!cr) continue;
      for (Platform p : {Platform::kLinux, Platform::kWindows}) {
        auto file = cr->library(p, "cudart");
        if (!file || !iequals(*file, l.name)) continue;
        matched = true;
        unified = unified || !kb.plain_tensorflow_cpu_only(r);  // `tensorflow` itself loads CUDA
      }
    }
    if (unified) return false;
    // Not a name any release in the KB loads: older than the KB's oldest release when its
    // CUDA major is at most the oldest release's.
    if (!matched) {
      auto major = cuda_major_of_file(l.name);
      auto all = kb.tf_releases();
      if (!major || all.empty() || all.front().cuda.empty() || *major > all.front().cuda.major()) return false;
    }
    any = true;
  }
  return any;
}

// Most of the GPU's memory already held when TensorFlow started, by its own figures
// (extract_memory_figures): 1.x prints the driver's free memory; 2.x the memory its
// allocator gets, which is the free memory less a reserve of at most max(1536 MiB, 6%)
// (MinSystemMemory in gpu_device.cc and pluggable_device_factory.cc). Another process
// (a notebook kernel, a second TensorFlow, a run that did not exit) holds the rest: an
// allocation that then fails is that, not a model too big for the card. Only cards of 4 GiB
// or more, and under 35% free: a desktop's display alone holds up to a GiB or so.
constexpr double kHeldMinTotalMib = 4096, kHeldFreeFraction = 0.35;

void held_memory_rule(const InferenceInput& in, std::vector<Inference>& out) {
  const LogFacts& f = in.facts;
  const Fact* total_f = f.flag_fact("gpu_memory_total_mib");
  if (!total_f) return;
  const Fact* free_f = f.flag_fact("gpu_memory_free_mib");
  const Fact* limit_f = f.flag_fact("gpu_memory_tf_limit_mib");
  if (!free_f && !limit_f) return;
  const double total = std::strtod(total_f->value.c_str(), nullptr);
  double free = 0;
  if (free_f) {
    free = std::strtod(free_f->value.c_str(), nullptr);
  } else {
    free = std::strtod(limit_f->value.c_str(), nullptr) + std::max(1536.0, 0.06 * total);
  }
  if (total < kHeldMinTotalMib || free < 0 || free >= kHeldFreeFraction * total) return;
  const bool failed =
      score_of(in.signature_scores, "oom") > 0 || score_of(in.signature_scores, "gpu_memory_preallocation") > 0;
  Inference inf{"gpu_memory_preallocation", failed ? 0.85 : 0.4, "memory.held_by_another_process_at_start", {}};
  const Fact& at = free_f ? *free_f : *limit_f;
  inf.evidence.push_back(from_fact(
      fmt::format("when TensorFlow started, about {:.1f} GiB of the GPU's {:.1f} GiB {} free: another process "
                  "holds the rest",
                  free / 1024, total / 1024, free_f ? "was" : "was at most"),
      at));
  out.push_back(std::move(inf));
}

// cuDNN could not start and TF printed the device's memory at that moment (cuda_dnn.cc,
// TF 2.x): with under a tenth of it free, cuDNN had no room for its workspace, which
// TensorFlow's own up-front reservation (or another process) took; with over a third free,
// memory is not why it failed.
void memory_at_cudnn_failure_rule(const InferenceInput& in, std::vector<Inference>& out) {
  const Fact* free_f = in.facts.flag_fact("gpu_memory_free_at_cudnn_failure_mib");
  const Fact* total_f = in.facts.flag_fact("gpu_memory_total_at_cudnn_failure_mib");
  if (!free_f || !total_f) return;
  const double free = std::strtod(free_f->value.c_str(), nullptr);
  const double total = std::strtod(total_f->value.c_str(), nullptr);
  if (total <= 0) return;
  const std::string said =
      fmt::format("when cuDNN failed to start, {:.2f} GiB of the GPU's {:.1f} GiB was free", free / 1024, total / 1024);
  if (free < 0.1 * total) {
    Inference inf{"gpu_memory_preallocation", 0.8, "memory.none_left_for_cudnn", {}};
    inf.evidence.push_back(from_fact(said, *free_f));
    out.push_back(std::move(inf));
  } else if (free > kHeldFreeFraction * total) {
    Inference inf{"gpu_memory_preallocation", 0.8, "memory.room_left_for_cudnn", {}};
    inf.refutes = true;
    inf.evidence.push_back(from_fact(said, *free_f));
    out.push_back(std::move(inf));
  }
}

// The reporter says TensorFlow takes all of the GPU's memory (extract_memory_prose): TF maps
// nearly all memory of every visible GPU at start unless told otherwise.
void memory_rules(const InferenceInput& in, std::vector<Inference>& out) {
  if (const Fact* said = in.facts.flag_fact("all_gpu_memory_prose")) {
    Inference inf{"gpu_memory_preallocation", 0.6, "memory.all_gpu_memory_prose", {}};
    inf.evidence.push_back(from_fact("the report says all of the GPU's memory is taken", *said));
    out.push_back(std::move(inf));
  }
  held_memory_rule(in, out);
  memory_at_cudnn_failure_rule(in, out);
  // Works in a notebook, fails as a script: the notebook's kernel, still running, holds the
  // memory its TensorFlow mapped at start (nearly all of every visible GPU's). Not when a
  // library or TensorFlow's import failed: then the script runs in another environment.
  if (const Fact* nb = in.facts.flag_fact("works_in_notebook_not_script");
      nb && in.facts.failed_libraries.empty() && !has(in, "pywrap_import_traceback")) {
    Inference inf{"gpu_memory_preallocation", 0.5, "memory.notebook_kernel_holds_the_gpu", {}};
    inf.evidence.push_back(from_fact(
        "the program works in a notebook and fails as a script: the notebook's TensorFlow, until its kernel is "
        "shut down, holds nearly all of the GPU's memory",
        *nb));
    out.push_back(std::move(inf));
  }
}

std::vector<const kb::TfRelease*> candidate_releases(const LogFacts& f, const kb::KnowledgeBase& kb, Platform p) {
  std::vector<const kb::TfRelease*> out;
  if (!f.tf_version.empty()) {
    bool newer = false;
    if (const kb::TfRelease* r = tf_row(kb, f.tf_version.value, &newer); r && !newer) out.push_back(r);
    return out;
  }
  auto cuda = Version::parse(f.cuda_version.value);
  if (f.cuda_version.empty() || !cuda || f.flag("cuda_stated_as_requirement")) return out;
  std::optional<Version> cudnn;
  if (auto v = Version::parse(f.cudnn_version.value); !f.cudnn_version.empty() && v) cudnn = *v;
  for (const auto& r : kb.tf_releases())
    if (r.has_gpu_build(p) && kb::stated_version_names(r.cuda, *cuda) &&
        (!cudnn || kb::stated_version_names(r.cudnn, *cudnn)))
      out.push_back(&r);
  return out;
}

namespace {

std::string version_list(const std::vector<const kb::TfRelease*>& rels) {
  std::string s;
  for (const auto* r : rels) s += (s.empty() ? "" : ", ") + r->series().str();
  return s;
}

// Import-time failures the release explains.
// - Native Windows, "DLL load failed" importing TensorFlow, and the release imports its
//   CUDA and cuDNN DLLs when loaded with nothing naming a missing one (tensorflow-gpu
//   1.1-1.3, KB `windows_missing_cuda_dll`): the DLL not found is most likely one of them.
//   With a CUDA / cuDNN stated as installed, its folder is not on PATH; otherwise cuDNN or
//   the toolkit is not installed. Where the release is only narrowed down by the stated
//   CUDA, each weight is scaled by the share of those releases that fail this way.
// - Every release the report can be about runs without AVX (before 1.6): a CPU without
//   AVX is not why it fails.
void import_rules(const InferenceInput& in, const kb::KnowledgeBase& kb, std::vector<Inference>& out) {
  const LogFacts& f = in.facts;
  const Platform p = platform_of(f);
  const auto rels = candidate_releases(f, kb, p);
  if (rels.empty()) return;
  const Fact& about = f.tf_version.empty() ? f.cuda_version : f.tf_version;
  const std::string about_text = f.tf_version.empty()
                                     ? fmt::format("CUDA {}{} stated", f.cuda_version.value,
                                                   f.cudnn_version.empty() ? "" : " / cuDNN " + f.cudnn_version.value)
                                     : tf_stated(f);

  if (std::none_of(rels.begin(), rels.end(), [](const kb::TfRelease* r) { return r->avx; })) {
    Inference inf{"cpu_no_avx", 1.0, "cpu.release_without_avx", {}};
    inf.refutes = true;
    out.push_back(std::move(inf));
  }

  if (p != Platform::kWindows || !f.wsl.empty() || !(has(in, "dll_load_failed_pywrap") || has(in, "dll_error_prose")))
    return;
  std::vector<const kb::TfRelease*> bare;
  for (const auto* r : rels)
    if (r->windows_missing_cuda_dll == kb::TfRelease::MissingDll::kDllLoadFailed) bare.push_back(r);
  if (bare.empty()) return;
  const double share = static_cast<double>(bare.size()) / static_cast<double>(rels.size());
  const kb::TfLibraries libs = kb.tf_libraries(*bare.front(), p);
  const std::string files =
      fmt::format("{}, {}", libs.file_of("cublas").value_or("cublas"), libs.file_of("cudnn").value_or("cudnn"));
  std::vector<Evidence> why = {
      from_fact("'DLL load failed' importing TensorFlow on native Windows", f.os), from_fact(about_text, about),
      from_kb(fmt::format(
                  "TensorFlow {} for Windows imports its CUDA and cuDNN DLLs ({} ...) when loaded and checks "
                  "none of them first: a missing one is a bare 'DLL load failed'{}",
                  version_list(bare), files,
                  share < 1.0 ? fmt::format(" ({} of the {} releases built for it)", bare.size(), rels.size()) : ""),
              kb.cite_import(*bare.front()))};
  const bool installed = !f.cuda_version.empty() || !f.cudnn_version.empty();
  const std::vector<std::pair<const char*, double>> weights =
      installed ? std::vector<std::pair<const char*, double>>{{"env_path_not_set", 0.75}, {"cudnn_missing", 0.45}}
                : std::vector<std::pair<const char*, double>>{
                      {"cudart_missing", 0.5}, {"cudnn_missing", 0.45}, {"env_path_not_set", 0.4}};
  for (const auto& [id, w] : weights) {
    Inference inf{id, w * share, "runtime.windows_linked_dll_not_found", why};
    out.push_back(std::move(inf));
  }
}

}  // namespace

std::vector<Inference> infer(const InferenceInput& in, const kb::KnowledgeBase* kb) {
  std::vector<Inference> out;
  if (kb && !kb->tf_releases().empty()) {
    platform_rules(in, *kb, out);
    python_rules(in, *kb, out);
    gpu_rules(in, *kb, out);
    driver_rules(in, *kb, out);
    pairing_rules(in, *kb, out);
    import_rules(in, *kb, out);
  }
  cpu_rules(in, out);
  memory_rules(in, out);
  library_rules(in, kb, out);
  environment_rules(in, kb, out);
  return out;
}

std::vector<Inference> infer_second_round(const InferenceInput& in, const std::map<std::string, double>& scores) {
  std::vector<Inference> out;
  const LogFacts& f = in.facts;
  // A version mismatch in a conda / pip environment on a machine that also has a system
  // CUDA: the environment's copy loses to the system one (LD_LIBRARY_PATH order).
  double mismatch = std::max(score_of(scores, "cudnn_version_mismatch"), score_of(scores, "cuda_version_mismatch"));
  bool env = f.flag("conda") || f.flag("pip_cuda");
  bool system = f.flag("system_cuda");
  if (mismatch >= 0.5 && env && system) {
    Inference inf{"conda_cuda_conflict", std::min(1.0, mismatch + 0.05), "runtime.env_vs_system_cuda", {}};
    const Fact* e = f.flag("conda") ? f.flag_fact("conda") : f.flag_fact("pip_cuda");
    inf.evidence.push_back(from_fact("CUDA/cuDNN from a conda or pip environment", *e));
    inf.evidence.push_back(from_fact("a system CUDA install is present too", *f.flag_fact("system_cuda")));
    out.push_back(std::move(inf));
  }
  // A version mismatch while paths of several CUDA versions are set: the loader finds
  // the wrong one first.
  if (mismatch >= 0.5 && f.cuda_path_versions.size() >= 2) {
    std::vector<std::string> vs;
    int line = 0;
    for (const auto& [k, fact] : f.cuda_path_versions) {
      vs.push_back(k);
      if (!line) line = fact.line;
    }
    Inference inf{"multiple_cuda_on_path", std::min(1.0, mismatch + 0.04), "runtime.several_cuda_one_wrong", {}};
    inf.evidence.push_back({fmt::format("paths of several CUDA versions are set: {}", join(vs, ", ")), "log", line});
    out.push_back(std::move(inf));
  }
  // WSL2: the GPU comes through the Windows driver's stubs in /usr/lib/wsl/lib; cuInit
  // finding no device there (outside a container that lacks --gpus) is that path broken,
  // usually by a Linux NVIDIA driver or CUDA driver package installed inside WSL.
  double wsl_no_gpu = std::max(score_of(scores, "no_device_visible"), score_of(scores, "driver_missing"));
  bool hidden = visible_devices_hide_all(f);
  if (wsl_no_gpu >= 0.5 && !f.wsl.empty() && !hidden && (f.container.empty() || f.flag("container_gpus"))) {
    Inference inf{"wsl_libcuda", std::min(1.0, wsl_no_gpu + 0.08), "driver.wsl_no_device", {}};
    inf.evidence.push_back(from_fact("WSL2", f.wsl));
    out.push_back(std::move(inf));
  }
  // No device / no driver inside a container that was not given the GPU.
  double no_gpu = std::max(score_of(scores, "no_device_visible"), score_of(scores, "driver_missing"));
  if (no_gpu >= 0.5 && !f.container.empty() && !f.flag("container_gpus")) {
    Inference inf{"container_gpu_runtime_missing", std::min(1.0, no_gpu + 0.05), "driver.container_without_gpus", {}};
    inf.evidence.push_back(from_fact("the program runs in a container", f.container));
    out.push_back(std::move(inf));
  } else if (const Fact* compose = f.flag_fact("compose"); compose && (no_gpu >= 0.5 || gpu_missing(f))) {
    // Docker Compose: a --gpus in a separate `docker run` test says nothing about the
    // service, which gets no GPU unless its compose file reserves one.
    Inference inf{"container_gpu_runtime_missing", std::max(0.6, std::min(1.0, no_gpu + 0.05)),
                  "driver.compose_service_without_gpu", {}};
    inf.evidence.push_back(from_fact("the container is started with Docker Compose", *compose));
    out.push_back(std::move(inf));
  }
  return out;
}

}  // namespace tfgpu::explain
