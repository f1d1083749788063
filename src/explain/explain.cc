// Ranking for explain. A finding's score is its strongest argument (a signature's or an
// inference's weight) plus a small bonus for each further independent argument, times
// what refuting lines leave of it. Harmless lines never add to a finding; when nothing
// but harmless lines was recognised, the answer is `harmless_warning_only`.
#include "explain/explain.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "explain/infer.h"

namespace tfgpu::explain {

namespace {

constexpr double kBonusPerArgument = 0.03;
constexpr double kMaxBonus = 0.1;
constexpr double kHarmlessBelow = 0.25;  // findings weaker than this do not count as a problem
constexpr double kConfident = 0.7;       // from here on explain names a cause with confidence
constexpr double kListedAbove = 0.05;    // findings at or below this are not listed
constexpr double kIfGpuWanted = 0.2;     // a harmless-unless-a-GPU-is-wanted line's own cause, at most
constexpr double kIfGpuWantedShare = 0.4;  // ... and at most this share of its signature's weight
constexpr size_t kEvidencePerFinding = 8;

struct Candidate {
  double best = 0.0;
  std::set<std::string> arguments;  // distinct signatures / inference rules
  double refute_factor = 1.0;
  std::vector<Evidence> evidence;

  double score() const {
    double bonus = std::min(kMaxBonus, kBonusPerArgument * (arguments.empty() ? 0.0 : arguments.size() - 1.0));
    return std::min(1.0, best + bonus) * refute_factor;
  }
};

std::string one_line(std::string_view raw) {
  std::string s(raw);
  while (!s.empty() && (s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

void add_evidence(Candidate& c, Evidence e) {
  for (const auto& old : c.evidence)
    if (old.line == e.line && old.fact == e.fact) return;
  c.evidence.push_back(std::move(e));
}

}  // namespace

ExplainResult explain_scan(ScanResult scan, const SignatureSet& signatures, const kb::KnowledgeBase* kb,
                           const ExplainOptions& options) {
  ExplainResult out;
  LogFacts& facts = scan.facts;

  // TensorFlow.js's Node binding runs the libtensorflow its release downloads: with no
  // TensorFlow release stated, that one's CUDA and cuDNN needs are the report's.
  if (kb && facts.tf_version.empty() && facts.flag("tfjs_node") && !facts.tfjs_node_version.empty()) {
    if (auto v = Version::parse(facts.tfjs_node_version.value))
      if (const kb::TfjsNodeRelease* row = kb->find_tfjs_node(*v)) {
        facts.tf_version = Fact{row->libtensorflow.str(), facts.tfjs_node_version.line};
        facts.tf_from_tfjs_node = facts.tfjs_node_version;
      }
  }

  // device_lib.list_local_devices() listed devices, none of them a GPU: the GPU is not listed.
  if (const Fact* cpu = facts.flag_fact("device_list_cpu"); cpu && !facts.flag("device_list_gpu"))
    facts.flags.emplace("gpu_missing", *cpu);

  // Is the log about using a GPU at all? Decides whether "cudart dlerror" lines are noise.
  bool gpu_context = facts.flag("gpu_wanted") || facts.flag("gpu_missing") || facts.flag("gpu_seen") ||
                     facts.flag("pip_cuda") || facts.flag("gpu_works") || !facts.gpu_names.empty() ||
                     !facts.driver_version.empty() || !facts.cuda_version.empty() || !facts.cudnn_version.empty() ||
                     !facts.gpu_list_empty.empty();
  if (!gpu_context && kb) gpu_context = failed_runtime_only_gpu_package_loads(facts, *kb);
  if (!gpu_context) {
    for (const auto& h : scan.hits) {
      const Signature& s = *h.signature;
      if ((s.kind == SignatureKind::kCause || s.kind == SignatureKind::kSymptom) && !s.noise_without_gpu) {
        gpu_context = true;
        break;
      }
    }
  }

  std::map<std::string, Candidate> cands;
  std::map<std::string, NoiseLine> noise;  // by signature id
  std::map<std::string, std::set<std::string>> refutes;  // finding -> refuting signature ids
  std::map<std::string, double> refute_weight;            // "finding|signature" -> weight

  for (const auto& h : scan.hits) {
    const Signature& s = *h.signature;
    for (const auto& r : s.refutes) {
      if (refutes[r.finding].insert(s.id).second) refute_weight[r.finding + "|" + s.id] = r.weight;
    }
    // Harmless unless the report is about what it concerns (CUPTI's messages when the
    // reporter is profiling): then neither harmless nor a known cause.
    if (!s.noise_unless.empty() && facts.flag(s.noise_unless)) continue;
    bool harmless = s.kind == SignatureKind::kNoise || (s.noise_without_gpu && !gpu_context);
    if (harmless) {
      auto [it, fresh] = noise.emplace(s.id, NoiseLine{});
      NoiseLine& n = it->second;
      if (fresh) {
        n.signature = s.id;
        n.line = h.line;
        n.text = one_line(h.excerpt);
        n.why = s.meaning;
        if (s.kind != SignatureKind::kNoise) n.why += " (nothing in the log says a GPU is wanted)";
      }
      n.count = scan.hit_counts[s.id];
      continue;
    }
    if (s.kind == SignatureKind::kFact) continue;
    auto support = [&](const std::string& finding, double weight) {
      if (weight <= 0.0) return;
      Candidate& c = cands[finding];
      c.best = std::max(c.best, weight);
      c.arguments.insert("sig:" + s.id);
      if (c.evidence.size() < kEvidencePerFinding) add_evidence(c, {one_line(h.excerpt), "log", h.line});
    };
    support(s.finding, s.weight);
    for (const auto& l : s.supports) support(l.finding, l.weight);
  }

  // Inferences over the facts (first round), then those that build on the scores.
  std::map<std::string, double> sig_scores;
  for (const auto& [id, c] : cands) sig_scores[id] = c.score();
  InferenceInput input{facts, scan.hit_counts, sig_scores, gpu_context};
  auto apply = [&](const std::vector<Inference>& infs) {
    for (const auto& inf : infs) {
      if (inf.refutes) {
        const std::string by = "rule:" + inf.rule;
        if (refutes[inf.finding].insert(by).second) refute_weight[inf.finding + "|" + by] = inf.weight;
        continue;
      }
      Candidate& c = cands[inf.finding];
      c.best = std::max(c.best, inf.weight);
      c.arguments.insert("rule:" + inf.rule);
      for (const auto& e : inf.evidence)
        if (c.evidence.size() < kEvidencePerFinding + 4) add_evidence(c, e);
    }
  };
  apply(infer(input, kb));

  // Doctor rules over the partial snapshot, when the caller supplies them.
  out.snapshot = facts.to_snapshot();
  if (options.rules && kb) {
    for (Finding& f : options.rules(out.snapshot, *kb)) {
      if (f.severity == Severity::kInfo) continue;
      Candidate& c = cands[f.id];
      c.best = std::max(c.best, f.severity == Severity::kBlocker ? 0.7 : 0.4);
      c.arguments.insert("doctor:" + f.id);
      for (auto& e : f.evidence)
        if (c.evidence.size() < kEvidencePerFinding + 4) add_evidence(c, std::move(e));
    }
  }

  // Memory growth set in a config is not a memory problem of its own: in a report whose
  // complaint is that the GPU is not used at all, it says nothing about preallocation.
  if (auto it = cands.find("gpu_memory_preallocation");
      it != cands.end() && (facts.flag("gpu_missing") || !facts.gpu_list_empty.empty()) && !facts.flag("gpu_seen") &&
      it->second.arguments == std::set<std::string>{"sig:memory_growth_prose"}) {
    refutes["gpu_memory_preallocation"].insert("gpu_not_used");
    refute_weight["gpu_memory_preallocation|gpu_not_used"] = 1.0;
  }

  // With Docker Compose, a `docker run --gpus` in the report is a separate test: it does
  // not show that the compose service got the GPU.
  if (facts.flag("compose")) refutes["container_gpu_runtime_missing"].erase("container_gpus_flag");

  // What the machine printed outranks what the reporter believes: the interpreter's own
  // banner ("[MSC v.1916 32 bit (Intel)]") is not refuted by a sentence calling it 64-bit.
  if (facts.python_bits.value == "32") refutes.erase("python_32bit");

  auto apply_refutes = [&]() {
    for (auto& [id, c] : cands) {
      c.refute_factor = 1.0;
      auto it = refutes.find(id);
      if (it == refutes.end()) continue;
      for (const auto& sig : it->second) c.refute_factor *= 1.0 - 0.6 * refute_weight[id + "|" + sig];
    }
  };
  apply_refutes();
  std::map<std::string, double> scores;
  for (const auto& [id, c] : cands) scores[id] = c.score();
  apply(infer_second_round(input, scores));
  apply_refutes();

  // Nothing specific, yet the report is about a GPU that TensorFlow does not use or fails
  // on: list the usual causes of such reports as low-likelihood guesses (below the
  // "a problem was recognised" bar), so that the reader has where to start.
  double strongest = 0.0;
  for (const auto& [id, c] : cands) strongest = std::max(strongest, c.score());
  // Not when TensorFlow created a GPU device: every usual cause is one that keeps it from
  // doing so.
  // Nor when the report shows TensorFlow listing the GPU and says nothing of it missing.
  const bool listed_only = facts.flag("gpu_listed") && !facts.flag("gpu_missing");
  // A report that names the CUDA or cuDNN it installed is about using the GPU too, when
  // nothing at all was recognised in it.
  const bool toolkit_named = strongest == 0.0 && (!facts.cuda_version.empty() || !facts.cudnn_version.empty());
  if (strongest < kHarmlessBelow && (facts.flag("gpu_missing") || facts.flag("gpu_wanted") || toolkit_named) &&
      !facts.flag("gpu_works") && !listed_only) {
    std::vector<std::pair<const char*, double>> usual = {
        {"cuda_version_mismatch", 0.2}, {"wrong_package", 0.18}, {"cudart_missing", 0.16}};
    // In a container that was not shown to get the GPU (no --gpus / nvidia runtime), the
    // usual cause is the container runtime: without it no device and no driver library
    // reach the container.
    if (!facts.container.empty() && !facts.flag("container_gpus"))
      usual.insert(usual.begin(), {"container_gpu_runtime_missing", 0.24});
    for (const auto& [id, w] : usual) {
      Candidate& c = cands[id];
      if (c.best >= w) continue;
      c.best = w;
      c.arguments.insert("prior:usual_gpu_report_cause");
      add_evidence(c, {"nothing more specific recognised: one of the usual causes of a GPU that TensorFlow does "
                       "not use (a guess; run tfgpu doctor on the machine)",
                       "prior", 0});
    }
    apply_refutes();
  } else if (strongest < kConfident && (facts.flag("gpu_missing") || facts.flag("gpu_wanted")) &&
             !facts.flag("gpu_works") && !listed_only && !(facts.flag("gpu_seen") && !facts.flag("gpu_missing"))) {
    // Something was recognised, but not with confidence, and it names fewer than three
    // causes (and TensorFlow is not shown using the GPU, as when it runs out of its
    // memory): the usual causes it does not name fill the list, below it, as the
    // alternatives to rule out. They never touch a cause already named (a second
    // argument would raise it).
    size_t named = 0;
    for (const auto& [id, c] : cands) named += c.score() > kListedAbove;
    for (const auto& [id, w] : {std::pair{"cuda_version_mismatch", 0.2}, std::pair{"wrong_package", 0.18},
                                std::pair{"cudart_missing", 0.16}}) {
      if (named >= 3) break;
      auto it = cands.find(id);
      if (it != cands.end() && it->second.score() > kListedAbove) continue;
      Candidate& c = cands[id];
      c.best = w;
      c.arguments.insert("prior:usual_gpu_report_cause");
      add_evidence(c, {"not ruled out by the report: one of the usual causes of a GPU that TensorFlow does not use "
                       "(a guess; run tfgpu doctor on the machine)",
                       "prior", 0});
      ++named;
    }
    apply_refutes();
  }

  // Only messages that are harmless unless a GPU is wanted ("Could not load dynamic library
  // 'cudart64_110.dll'" alone): below "nothing to fix", still say what each one stops when
  // TensorFlow should use a GPU, with its fix, so that the answer is not only "nothing".
  auto crash = scan.hit_counts.find("crash_marker");
  const bool crashed = crash != scan.hit_counts.end() && crash->second > 0;
  if (strongest < kHarmlessBelow && !crashed) {
    bool added = false;
    for (const auto& [sig_id, n] : noise) {
      const Signature* s = signatures.signature(sig_id);
      if (!s || !s->noise_without_gpu) continue;
      Candidate& c = cands[s->finding];
      const double w = std::min(kIfGpuWanted, s->weight * kIfGpuWantedShare);
      if (c.best >= w) continue;
      c.best = w;
      c.arguments.insert("if_gpu_wanted:" + sig_id);
      add_evidence(c, {n.text, "log", n.line});
      add_evidence(c, {"harmless where the machine has no NVIDIA GPU or TensorFlow is meant to run on the CPU; "
                       "if it should use a GPU, this is what stops it",
                       "prior", 0});
      added = true;
    }
    if (added) apply_refutes();
  }

  // Rank.
  double top = 0.0;
  for (const auto& [id, c] : cands) top = std::max(top, c.score());
  std::vector<Finding> findings;
  for (auto& [id, c] : cands) {
    double score = c.score();
    if (score <= kListedAbove) continue;
    const FindingInfo* info = signatures.finding(id);
    if (info && !info->platforms.empty() && !facts.os.value.empty() &&
        std::find(info->platforms.begin(), info->platforms.end(), facts.os.value) == info->platforms.end())
      continue;  // a cause of another platform than the report's
    Finding f;
    f.id = id;
    f.score = score;
    if (info) {
      f.layer = info->layer;
      f.severity = info->severity;
      f.title = info->title;
      f.fix = info->fix_on(facts.os.value);
    } else {
      f.title = id;  // from the doctor rules, with an id explain has no text for
    }
    std::sort(c.evidence.begin(), c.evidence.end(), [](const Evidence& a, const Evidence& b) {
      if ((a.line == 0) != (b.line == 0)) return a.line != 0;
      return a.line < b.line;
    });
    f.evidence = std::move(c.evidence);
    if (options.specific_fix) {
      std::vector<std::string> steps = options.specific_fix(f, facts);
      f.fix.insert(f.fix.begin(), steps.begin(), steps.end());
    }
    findings.push_back(std::move(f));
  }
  // A crash (traceback, F-level line, abort, segfault) is never "only harmless messages",
  // even when no known cause matched.
  if (top < kHarmlessBelow && !noise.empty() && !crashed) {
    const FindingInfo* info = signatures.finding("harmless_warning_only");
    Finding f;
    f.id = "harmless_warning_only";
    f.score = 0.5;
    f.layer = info->layer;
    f.severity = info->severity;
    f.title = info->title;
    f.fix = info->fix_on(facts.os.value);
    std::vector<const NoiseLine*> ordered;
    for (const auto& [id, n] : noise) ordered.push_back(&n);
    std::sort(ordered.begin(), ordered.end(), [](auto* a, auto* b) { return a->line < b->line; });
    for (const NoiseLine* n : ordered) {
      if (f.evidence.size() >= kEvidencePerFinding) break;
      f.evidence.push_back({n->text, "log", n->line});
    }
    findings.push_back(std::move(f));
  }
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    if (a.score != b.score) return a.score > b.score;
    if (a.severity != b.severity) return a.severity < b.severity;  // blocker first
    return a.id < b.id;
  });
  out.findings = std::move(findings);

  // Not sure: what to run on the machine to tell the first candidates apart, one entry per
  // command (findings that share a command are answers to the same run).
  if (!out.findings.empty() && out.findings.front().score < kSureFrom) {
    size_t considered = 0;
    for (const Finding& f : out.findings) {
      if (considered == kCheckedFindings) break;
      if (f.id == "harmless_warning_only") continue;
      ++considered;
      const FindingInfo* info = signatures.finding(f.id);
      if (!info) continue;
      auto [run, means] = info->check_on(facts.os.value);
      if (run.empty()) continue;
      auto same = std::find_if(out.checks.begin(), out.checks.end(), [&](const Check& c) { return c.run == run; });
      if (same == out.checks.end()) same = out.checks.insert(out.checks.end(), Check{run, {}});
      same->answers.push_back({f.id, means});
    }
  }

  for (auto& [id, n] : noise) out.noise.push_back(std::move(n));
  std::sort(out.noise.begin(), out.noise.end(), [](const NoiseLine& a, const NoiseLine& b) { return a.line < b.line; });
  out.crash = crashed;
  out.stats = scan.stats;
  out.facts = std::move(scan.facts);
  return out;
}

ExplainResult explain_log(std::istream& in, const SignatureSet& signatures, const kb::KnowledgeBase* kb,
                          const ExplainOptions& options) {
  return explain_scan(scan_stream(signatures, in), signatures, kb, options);
}

ExplainResult explain_text(std::string_view text, const SignatureSet& signatures, const kb::KnowledgeBase* kb,
                           const ExplainOptions& options) {
  return explain_scan(scan_text(signatures, text), signatures, kb, options);
}

}  // namespace tfgpu::explain
