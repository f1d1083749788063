// explain on the project's own corpus of real reports (tests/explain_corpus, issue 14):
// fed only the body, how often is the labelled cause first (top-1) and among the first
// three (top-3)? Printed for the development part with one line per case, and for the
// held-out part as figures only (it is never tuned against), with how well the top
// finding's likelihood is calibrated there.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "explain/explain.h"
#include "kb/kb.h"
#include "support/report_cases.h"
#include "util/strings.h"

namespace tfgpu::explain {
namespace {

namespace fs = std::filesystem;
using ::tfgpu::testing::ReportCase;

// Floors: the figures measured when this test was last tuned, rounded down to 0.01
// (session 5: dev 72.9% / 77.6%, held-out 52.8% / 58.5%; explain2: dev 89.7% / 93.5%,
// held-out 52.8% / 62.3%; session 9: 45 more reports collected after the split, all
// development, measured before any tuning against them at 62.2% / 73.3% (28 and 33 of 45),
// then dev 88.8% / 92.8% (152 reports), held-out 56.6% / 66.0%; the acceptance is 90% / 97%
// on held-out, not reached yet); a second batch of 40 (after the first round of tuning)
// measured 65% / 70% before tuning against it; then dev 87.0% / 91.1% (192 reports),
// held-out 56.6% / 67.9%; session 10: 71 more reports split at random after the split's
// rule (52 dev, 19 held-out), each batch measured before tuning against it (9 at 3/9 and
// 4/9, 26 at 15/26 and 18/26, 12 at 5/12 and 7/12, 18 at 6/18 and 10/18, 6 at 1/6 and
// 3/6); then dev 82.7% / 88.8% (249 reports), held-out 51.4% / 63.9% (72 reports: the 53
// of session 9 at 60.4% / 69.8%, were 56.6% / 67.9%; the 19 new ones at 5/19 and 9/19);
// session 11 (KB rows for tensorflow_gpu 1.0-1.12 read from the real wheels, TF 1.x
// wording): dev 83.9% / 88.8%, held-out 52.8% / 65.3%; then 15 more reports split at random
// (11 dev, 4 held-out), measured before tuning against them at 5/15 and 10/15 (dev 4/11 and
// 7/11, held-out 1/4 and 3/4); then dev 82.7% / 87.7% (260), held-out 51.3% / 65.8% (76);
// session 12: 43 more reports in seven batches split at random (23 dev, 20 held-out), each
// measured before tuning against it (7/11 and 7/11, 3/7 and 6/7, 6/8 and 6/8, 1/3 and 3/3,
// 2/8 and 4/8, 3/4 and 3/4, 2/2 and 2/2: 24/43 and 31/43); then dev 82.7% / 89.8% (283), held-out
// 49.0% / 65.6% (96: the 76 of session 11 at 38/76 and 50/76, were 39 and 50; the 20 new
// ones at 9/20 and 13/20); session 13 (Windows 'DLL load failed' for releases that import
// their CUDA DLLs unchecked, AVX from 1.6, read from the win_amd64 wheels; NumPy's bfloat16
// CHECK): dev 83.4% / 90.5% (283), held-out unchanged at 47/96 and 63/96; then 6 more reports
// split at random (3 dev, 3 held-out), measured before tuning against them at 4/6 and 4/6
// (held-out 3/3); then dev 83.6% / 90.6% (286), held-out 50.5% / 66.7% (99); session 14:
// 4 more reports split at random (3 dev, 1 held-out), measured before any change at 3/4 and
// 4/4 (held-out 0/1 and 1/1): dev 83.7% / 90.7% (289), held-out 50.0% / 67.0% (100);
// session 15: 6 more reports split at random (4 dev, 2 held-out), measured before any change
// at 2/6 and 3/6 (held-out 0/2 and 1/2): dev 83.3% / 90.1% (293), held-out 49.0% / 66.7% (102);
// session 16 (prose "tensorflow-gpu is not installed", ARM wheels, two CUDAs named, pip's
// NumPy 2 conflict): 7 more reports split at random (4 dev, 3 held-out), measured before
// any change against them at 4/7 and 5/7 (held-out 3/3 and 3/3); then dev 83.8% / 90.6%
// (297), held-out 52.4% / 68.6% (105: the 102 of session 15 at 52 and 69, were 50 and 68);
// then 7 more, all assigned to dev, measured before any change against them at 2/7 and 4/7;
// then (IDE vs terminal, builds from source, platform-bound causes, a container's failed
// import) dev 83.6% / 90.5% (304), held-out unchanged at 52.4% / 68.6%; then 4 more (3 dev,
// 1 held-out), measured before any change against them at 1/4 and 3/4 (held-out 0/1 and
// 0/1); then dev 83.4% / 90.6% (307), held-out 51.9% / 67.9% (106: the 105 unchanged);
// session 17 (PTX-only GPUs that are not listed, the [and-cuda] install command's release,
// suspend wordings: same figures); then 13 more reports split at random (9 dev, 4
// held-out), measured before any change against them at 12/13 and 13/13 (held-out 4/4 and
// 4/4): dev 83.5% / 90.8% (316), held-out 53.6% / 69.1% (110); then 10 more (6 dev, 4
// held-out), measured before any change against them at 5/10 and 7/10 (held-out 1/4 and
// 3/4); then ("low GPU usage" wordings) dev 83.2% / 90.7% (322), held-out 52.6% / 69.3% (114);
// then 14 more (10 dev, 4 held-out), measured before any change against them at 10/14 and
// 11/14 (held-out 3/4 and 4/4); then ("OOM" as a word, the VC runtime said missing) dev
// 83.4% / 90.7% (332), held-out 54.2% / 71.2% (118); session 18: 9 more (5 dev, 4
// held-out), measured before any change against them at 8/9 and 8/9 (held-out 4/4 and 4/4);
// then ("GPU mode" says a GPU is wanted, a failed CUDA runtime also supports a version
// mismatch) 7 more (4 dev, 3 held-out), measured at 6/7 and 6/7 (held-out 3/3 and 3/3);
// then (macOS dyld's "Library not loaded", "but I have <another version of the file>") dev
// 83.6% / 90.9% (341), held-out 57.6% / 73.6% (125); session 21: 3 more (2 dev, 1
// held-out; three collectors found the stored threads they could read in full already in
// the corpus), measured before any change at 3/3 and 3/3 (held-out 1/1 and 1/1): dev 83.4%
// / 90.9% (350), held-out 57.9% / 73.8% (126); session 22 (the prior for a GPU left unused
// with no release dated and no CUDA named: the CPU-only package before a CUDA of the wrong
// version, in the development reports' proportions, 7 to 5) dev 84.6% / 90.9%, held-out
// 61.1% / 73.8% (Brier 0.152 -> 0.164: four more right answers at a likelihood of 0.31);
// then (TF_CPP_MIN_LOG_LEVEL 2 or 3 makes TF's silence about CUDA no evidence) dev 84.9% /
// 90.9%, held-out unchanged; then (an answer below 0.7 naming fewer than three causes is
// filled with the usual ones, as guesses below it) dev 84.9% / 91.4%, held-out 61.1% / 75.4%;
// session 23 (works in a notebook but not as a script; CUDA said not installed) dev 85.7% /
// 91.7%, held-out unchanged; then (a convolution failing on the GPU) dev 86.0% / 92.3%,
// held-out 61.9% / 76.2% (Brier 0.163, ECE 0.058: the first held-out gain of the session,
// from a mechanism tuned on dev alone); then (a library missing in RStudio Server, not in a
// plain R session) dev 86.3% / 92.3%, held-out 61.9% / 77.0%; session 24 (what the usual
// checks print: nvcc, cuDNN's header, dpkg, pip show, where, package rows; TF's "Possibly
// insufficient driver version" judged against the KB; a library said missing in prose)
// same figures, one held-out report fewer with no finding (Brier 0.165, ECE 0.061); then (a
// driver-API function missing from libcuda; a named toolkit with nothing recognised gets
// the usual guesses) dev 86.6% / 92.9%, held-out unchanged at 61.9% / 77.0%;
// raise them as explain improves, never lower them to fit (the floors moved down only
// because their part grew by reports not tuned before).
constexpr double kDevTop1Floor = 0.865;
constexpr double kDevTop3Floor = 0.925;
constexpr double kHeldTop1Floor = 0.615;
constexpr double kHeldTop3Floor = 0.765;

const fs::path kCorpus = fs::path(TFGPU_SOURCE_DIR) / "tests" / "explain_corpus";

std::map<std::string, std::string> read_split() {
  std::map<std::string, std::string> out;
  std::ifstream in(kCorpus / "split.txt");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    auto sp = line.find(' ');
    if (sp != std::string::npos) out[line.substr(0, sp)] = std::string(trim(line.substr(sp + 1)));
  }
  return out;
}

struct Outcome {
  const ReportCase* c;
  ExplainResult r;
  int rank = 0;  // 1-based rank of the labelled cause; 0 = not listed
  double top_score = 0;
  bool top_right = false;
};

struct Figures {
  int n = 0, top1 = 0, top3 = 0, nothing = 0;
};

class ExplainCorpus : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto sigs = load_signatures(embedded_kb_files());
    ASSERT_TRUE(sigs) << sigs.error().message;
    auto kb = kb::load_embedded();
    ASSERT_TRUE(kb) << kb.error().message;
    sigs_ = new SignatureSet(std::move(*sigs));
    kb_ = new kb::KnowledgeBase(std::move(*kb));
    cases_ = new std::vector<ReportCase>(::tfgpu::testing::read_report_cases(kCorpus / "cases"));
    split_ = new std::map<std::string, std::string>(read_split());
    outcomes_ = new std::vector<Outcome>;
    for (const auto& c : *cases_) {
      Outcome o{&c, explain_text(c.body, *sigs_, kb_), 0, 0, false};
      for (size_t i = 0; i < o.r.findings.size(); ++i)
        if (o.r.findings[i].id == c.cause) {
          o.rank = static_cast<int>(i) + 1;
          break;
        }
      if (!o.r.findings.empty()) o.top_score = o.r.findings.front().score;
      o.top_right = o.rank == 1;
      outcomes_->push_back(std::move(o));
    }
  }
  static const std::string& part(const ReportCase& c) {
    static const std::string none = "(unsplit)";
    auto it = split_->find(c.id);
    return it == split_->end() ? none : it->second;
  }
  static Figures figures(const std::string& which) {
    Figures f;
    for (const auto& o : *outcomes_) {
      if (part(*o.c) != which) continue;
      ++f.n;
      f.top1 += o.rank == 1;
      f.top3 += o.rank >= 1 && o.rank <= 3;
      f.nothing += o.r.findings.empty();
    }
    return f;
  }
  static inline SignatureSet* sigs_ = nullptr;
  static inline kb::KnowledgeBase* kb_ = nullptr;
  static inline std::vector<ReportCase>* cases_ = nullptr;
  static inline std::map<std::string, std::string>* split_ = nullptr;
  static inline std::vector<Outcome>* outcomes_ = nullptr;
};

TEST_F(ExplainCorpus, EveryCaseIsInTheSplitWithAKnownCause) {
  ASSERT_GE(cases_->size(), 150u) << "the corpus holds at least 150 reports";
  for (const auto& c : *cases_) {
    EXPECT_NE(part(c), "(unsplit)") << c.id << ": run scripts/explain/split_corpus.py";
    EXPECT_TRUE(c.cause == "harmless_warning_only" || sigs_->finding(c.cause) != nullptr)
        << c.id << ": cause '" << c.cause << "' has no [[finding]] in kb/signatures.toml";
    EXPECT_FALSE(c.body.empty()) << c.id;
  }
}

TEST_F(ExplainCorpus, PrintsTopOneAndTopThreeForDevAndHeldOut) {
  std::printf("  development part, per case (rank of the labelled cause; 0 = not listed):\n");
  for (const auto& o : *outcomes_) {
    if (part(*o.c) != "dev" || o.rank == 1) continue;
    std::string ranking;
    for (size_t i = 0; i < o.r.findings.size() && i < 3; ++i)
      ranking += fmt::format(" {}={:.2f}", o.r.findings[i].id, o.r.findings[i].score);
    std::printf("    %-8s rank %d  expected %-36s got%s\n", o.c->id.c_str(), o.rank, o.c->cause.c_str(),
                ranking.empty() ? " (nothing)" : ranking.c_str());
  }
  for (const char* which : {"dev", "heldout"}) {
    Figures f = figures(which);
    ASSERT_GT(f.n, 0) << which;
    std::printf("  %-8s %3d reports: top-1 %3d (%.1f%%), top-3 %3d (%.1f%%), no finding at all %d\n", which, f.n,
                f.top1, 100.0 * f.top1 / f.n, f.top3, 100.0 * f.top3 / f.n, f.nothing);
    RecordProperty(std::string(which) + "_top1", fmt::format("{:.3f}", double(f.top1) / f.n));
    RecordProperty(std::string(which) + "_top3", fmt::format("{:.3f}", double(f.top3) / f.n));
  }
  Figures dev = figures("dev"), held = figures("heldout");
  EXPECT_GE(double(dev.top1) / dev.n, kDevTop1Floor);
  EXPECT_GE(double(dev.top3) / dev.n, kDevTop3Floor);
  EXPECT_GE(double(held.top1) / held.n, kHeldTop1Floor);
  EXPECT_GE(double(held.top3) / held.n, kHeldTop3Floor);
}

// How well the top finding's likelihood predicts being right, on the held-out part:
// accuracy per likelihood band, the Brier score and the expected calibration error.
TEST_F(ExplainCorpus, PrintsCalibrationOnHeldOut) {
  struct Band {
    double lo, hi;
    int n = 0, right = 0;
    double sum = 0;
  };
  std::vector<Band> bands = {{0, 0.5}, {0.5, 0.7}, {0.7, 0.85}, {0.85, 1.01}};
  double brier = 0;
  int n = 0;
  for (const auto& o : *outcomes_) {
    if (part(*o.c) != "heldout") continue;
    ++n;
    double p = o.top_score;
    brier += (p - (o.top_right ? 1.0 : 0.0)) * (p - (o.top_right ? 1.0 : 0.0));
    for (auto& b : bands)
      if (p >= b.lo && p < b.hi) {
        ++b.n;
        b.right += o.top_right;
        b.sum += p;
      }
  }
  ASSERT_GT(n, 0);
  double ece = 0;
  for (const auto& b : bands) {
    if (!b.n) continue;
    double acc = double(b.right) / b.n, conf = b.sum / b.n;
    ece += std::abs(acc - conf) * b.n / n;
    std::printf("  likelihood [%.2f, %.2f): %2d reports, mean likelihood %.2f, right %.0f%%\n", b.lo,
                std::min(1.0, b.hi), b.n, conf, 100.0 * acc);
  }
  std::printf("  held-out calibration: Brier score %.3f, expected calibration error %.3f\n", brier / n, ece);
  EXPECT_LT(brier / n, 0.5);  // better than always answering 0.0 / 1.0 at random
}

// A report whose reporter had a crash (traceback, F-level line, abort, segfault) is never
// answered "only harmless messages".
TEST_F(ExplainCorpus, NoCrashIsAnsweredNothingToFix) {
  for (const auto& o : *outcomes_) {
    if (o.c->cause == "harmless_warning_only") continue;
    auto scan = scan_text(*sigs_, o.c->body);
    if (!scan.hit_counts.count("crash_marker")) continue;
    if (o.r.findings.empty()) continue;  // "no known problem recognised" is not "nothing to fix"
    EXPECT_NE(o.r.findings.front().id, "harmless_warning_only") << o.c->id;
  }
}

}  // namespace
}  // namespace tfgpu::explain
