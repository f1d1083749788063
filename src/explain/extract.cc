// Value extractors for explain. Every function here scans a bounded line a constant
// number of times (no regular expressions, no backtracking).
#include "explain/extract.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstring>

#include "util/strings.h"
#include "util/version.h"

namespace tfgpu::explain {

namespace {

bool is_alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// Keyword boundary: the byte before is not a letter or digit.
bool boundary_before(std::string_view s, size_t pos) { return pos == 0 || !is_alnum(s[pos - 1]); }
bool boundary_after(std::string_view s, size_t end) { return end >= s.size() || !is_alnum(s[end]); }

// Whether one of `words` occurs in `text` as a whole word (or as a word's start when the
// entry ends in '*': "allocat*" is "allocates", "allocated", "allocating").
bool has_word(std::string_view text, std::initializer_list<std::string_view> words) {
  for (std::string_view w : words) {
    const bool stem = !w.empty() && w.back() == '*';
    if (stem) w.remove_suffix(1);
    for (size_t at = text.find(w); at != std::string_view::npos; at = text.find(w, at + 1))
      if (boundary_before(text, at) && (stem || boundary_after(text, at + w.size()))) return true;
  }
  return false;
}

// Every boundary-delimited occurrence of `kw` (lower-case) in `lower`, calling f(end).
template <typename F>
void for_each_keyword(std::string_view lower, std::string_view kw, F&& f, bool need_after_boundary = true) {
  size_t pos = 0;
  int guard = 0;
  while ((pos = lower.find(kw, pos)) != std::string_view::npos && guard++ < 64) {
    size_t end = pos + kw.size();
    if (boundary_before(lower, pos) && (!need_after_boundary || boundary_after(lower, end))) {
      if (f(end)) return;
    }
    pos = end;
  }
}

// After a keyword: the word ends there, or a dotted version is glued to it ("CUDA12.2",
// "cuDNN8.9", as some reporters write them); not "cudart", "cudnn64_8.dll".
bool boundary_or_glued_version(std::string_view s, size_t end) {
  if (boundary_after(s, end)) return true;
  if (!is_digit(s[end])) return false;
  size_t i = end;
  while (i < s.size() && is_digit(s[i])) ++i;
  return i + 1 < s.size() && s[i] == '.' && is_digit(s[i + 1]);
}

// A token that is a dotted version, possibly with a leading v/r and a trailing suffix
// ("v2.12.0", "R1.10", "2.16.0rc1", "8.1.0."). Returns the numeric dotted part.
std::optional<std::string> as_version(std::string_view tok) {
  if (!tok.empty() && (tok[0] == 'v' || tok[0] == 'r') && tok.size() > 1 && is_digit(tok[1])) tok.remove_prefix(1);
  if (tok.empty() || !is_digit(tok[0])) return std::nullopt;
  size_t i = 0;
  int dots = 0;
  while (i < tok.size() && (is_digit(tok[i]) || (tok[i] == '.' && i + 1 < tok.size() && is_digit(tok[i + 1])))) {
    if (tok[i] == '.') ++dots;
    ++i;
  }
  if (dots == 0) return std::nullopt;
  // A letter right after the digits is only allowed as a pre-release suffix (rc, a, b, dev).
  return std::string(tok.substr(0, i));
}

bool in_list(std::string_view w, std::initializer_list<std::string_view> list) {
  return std::find(list.begin(), list.end(), w) != list.end();
}

// "cu12" in NVIDIA's pip wheel names ("nvidia-cudnn-cu12==9.3.0.75",
// "nvidia-cuda-runtime-cu12 12.3.101"): the CUDA major the wheel is for, between the
// component's name and its version.
bool wheel_cuda_major(std::string_view w) {
  return w.size() >= 4 && w.size() <= 5 && w.substr(0, 2) == "cu" &&
         std::all_of(w.begin() + 2, w.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool allowed_word(VersionOf what, std::string_view w) {
  if (in_list(w, {"version", "ver", "v", "is", "installed"})) return true;
  if ((what == VersionOf::kCuda || what == VersionOf::kCudnn) && wheel_cuda_major(w)) return true;
  switch (what) {
    case VersionOf::kTensorflow:
      return in_list(w, {"gpu", "cpu", "intel", "tf", "use", "command", "below", "release", "nightly", "from",
                         "source", "or", "binary", "pip", "pypi", "r", "tensorflow", "windows", "linux", "darwin",
                         "x86", "64"});
    case VersionOf::kPython:
      return in_list(w, {"interpreter"});
    case VersionOf::kCuda:
      return in_list(w, {"toolkit", "runtime", "release", "cuda", "compilation", "tools", "r", "says", "shows", "gives",
                         "reports", "prints"});
    case VersionOf::kCudnn:
      return in_list(w, {"library", "runtime", "windows", "linux", "x86", "64", "archive", "cudnn"});
    case VersionOf::kDriver:
      return in_list(w, {"nvidia", "gpu", "display"});
  }
  return false;
}

bool separator(char c) {
  return is_space(c) || c == ':' || c == '=' || c == '-' || c == '_' || c == '(' || c == ')' || c == '\'' ||
         c == '"' || c == ',' || c == '`' || c == '*' || c == '[' || c == ']';
}

bool version_sane(VersionOf what, const std::string& v) {
  auto parsed = Version::parse(v);
  if (!parsed) return false;
  int major = parsed->major(), minor = parsed->minor();
  switch (what) {
    case VersionOf::kTensorflow: return major >= 0 && major <= 3 && minor < 100;
    case VersionOf::kPython: return (major == 2 || major == 3) && minor < 40;
    case VersionOf::kCuda: return major >= 1 && major <= 20;
    case VersionOf::kCudnn: return major >= 1 && major <= 20;
    case VersionOf::kDriver: return major >= 100 && major <= 999 && parsed->size() >= 2;
  }
  return false;
}

void set_fact(Fact& f, std::string value, int line, bool labelled, bool* was_labelled) {
  if (f.empty() || (labelled && was_labelled && !*was_labelled)) {
    f.value = std::move(value);
    f.line = line;
    if (was_labelled) *was_labelled = labelled;
  }
}

void set_fact(Fact& f, std::string value, int line) {
  if (f.empty()) {
    f.value = std::move(value);
    f.line = line;
  }
}

// ---- per-extractor code ------------------------------------------------------------

// The distributions that install the `tensorflow` module, as pip and conda name them.
bool is_tf_distribution(std::string_view name) {
  static constexpr std::string_view kDists[] = {"tensorflow",       "tensorflow-gpu",   "tensorflow-cpu",
                                                "tensorflow-intel", "tensorflow-macos", "tf-nightly",
                                                "tf-nightly-gpu",   "tensorflow_gpu"};
  return std::find(std::begin(kDists), std::end(kDists), name) != std::end(kDists);
}

void extract_tensorflow(std::string_view line, std::string_view lower, int n, LogFacts& facts) {
  // The interpreter's answer on the same line: "tf.__version__ = '2.15.0'", "tf.__version__: 2.4.1",
  // "tensorflow.__version__ -> 2.12.0" (machine output: labelled).
  for (std::string_view kw : {"tf.__version__", "tensorflow.__version__", "tf.version.version"}) {
    size_t p = lower.find(kw);
    if (p == std::string_view::npos) continue;
    size_t i = p + kw.size();
    while (i < lower.size() && i < p + kw.size() + 16 && (separator(lower[i]) || lower[i] == '>' || lower[i] == '-'))
      ++i;
    size_t b = i;
    while (i < lower.size() && (is_digit(lower[i]) || lower[i] == '.')) ++i;
    if (auto v = as_version(lower.substr(b, i - b)); v && version_sane(VersionOf::kTensorflow, *v)) {
      set_fact(facts.tf_version, *v, n, true, &facts.tf_version_labelled);
      return;
    }
    // No answer on this line (">>> tf.__version__", `python -c "...; print(tf.__version__); ..."`):
    // the interpreter's, if any, is the next line, which then holds only a version.
    facts.asked = {LogFacts::Asked::What::kTfVersion, n, {}};
  }
  // A row of `pip list` / `conda list` / `pip freeze`: "tensorflow-intel   2.11.0",
  // "tensorflow 2.3.0 mkl_py38h1fcfbd6_0", "tensorflow==2.10.0". Every TensorFlow
  // distribution listed, with its version (two at different releases are two builds of one
  // module); the plain one listed is the plain package installed.
  // The tools print the names in lower case (a sentence's "TensorFlow 2.3.1 crashes" is no
  // row); after the version only a conda build string, a channel or a location follows.
  {
    std::string_view t = trim(line);
    std::string_view tok[4];
    size_t count = 0, i = 0;
    while (i < t.size() && count < 5) {
      while (i < t.size() && is_space(t[i])) ++i;
      const size_t b = i;
      while (i < t.size() && !is_space(t[i])) ++i;
      if (i > b) {
        if (count < 4) tok[count] = t.substr(b, i - b);
        ++count;
      }
    }
    auto not_prose = [](std::string_view w) {
      return w.find_first_of("0123456789_/\\:") != std::string_view::npos || w == "pypi" || w == "conda-forge" ||
             w == "defaults" || w == "anaconda" || w == "nvidia";
    };
    std::string_view name = tok[0], ver = tok[1];
    if (count == 1 && name.find("==") != std::string_view::npos) {  // pip freeze
      ver = name.substr(name.find("==") + 2);
      name = name.substr(0, name.find("=="));
    } else if (count < 2 || count > 4 || (count >= 3 && !not_prose(tok[2])) || (count == 4 && !not_prose(tok[3]))) {
      name = {};
    }
    if (std::any_of(name.begin(), name.end(), [](char c) { return c >= 'A' && c <= 'Z'; })) name = {};
    auto v = name.empty() ? std::nullopt : as_version(ver);
    if (v && is_tf_distribution(name) && v->size() == ver.size() && version_sane(VersionOf::kTensorflow, *v)) {
      std::string dist(name);
      std::replace(dist.begin(), dist.end(), '_', '-');
      facts.flags.emplace("tf_dist:" + dist, Fact{*v, n});
      if (dist == "tensorflow") facts.flags.emplace("plain_tf_installed", Fact{"yes", n});
    }
  }
  // `pip show tensorflow` prints "Name: tensorflow" and the version on the next line
  // ("Version: 2.10.0").
  if (std::string_view t = trim(lower); starts_with(t, "name:")) {
    if (is_tf_distribution(trim(t.substr(5)))) {
      facts.asked = {LogFacts::Asked::What::kTfVersion, n, {}};
      return;
    }
  }
  // "libtensorflow": the C library's archives carry the release ("libtensorflow-gpu-windows-x86_64-2.11.0.zip").
  for (std::string_view kw : {"tensorflow", "tensor flow", "tf", "libtensorflow"}) {
    for_each_keyword(lower, kw, [&](size_t end) {
      if (kw == "tf" && lower.substr(end, 4) == "-trt") return false;
      // The extra of the install command TensorFlow's docs give: "tensorflow[and-cuda]==2.15.0".
      if (lower.substr(end, 10) == "[and-cuda]") end += 10;
      bool labelled = false;
      auto v = version_after(lower, end, VersionOf::kTensorflow, &labelled);
      if (v && version_sane(VersionOf::kTensorflow, *v)) {
        set_fact(facts.tf_version, *v, n, labelled, &facts.tf_version_labelled);
        return true;
      }
      return false;
    });
  }
  // "I upgraded tensorflow from 2.3 to 2.5": the release now installed is the one after "to".
  if (has_word(lower, {"upgrad*", "updat*", "downgrad*", "switch*", "moved", "went"})) {
    for (size_t f = lower.find("from "); f != std::string_view::npos; f = lower.find("from ", f + 5)) {
      size_t i = f + 5;
      if (i < lower.size() && lower[i] == 'v') ++i;
      const size_t a = i;
      while (i < lower.size() && (is_digit(lower[i]) || lower[i] == '.')) ++i;
      auto from = as_version(lower.substr(a, i - a));
      if (!from || lower.substr(i, 4) != " to ") continue;
      // TensorFlow's the last product named before "from" ("tensorflow-gpu from", "TF
      // version from"), not Python's, CUDA's or another package's.
      const std::string_view before = lower.substr(f > 40 ? f - 40 : 0, f > 40 ? 40 : f);
      size_t tf_at = std::string_view::npos;
      for (std::string_view kw : {"tensorflow", "tf"})
        for_each_keyword(before, kw, [&](size_t end) {
          tf_at = tf_at == std::string_view::npos ? end : std::max(tf_at, end);
          return false;
        });
      if (tf_at == std::string_view::npos) continue;
      if (has_word(before.substr(tf_at), {"python", "cuda", "cudnn", "driver*", "numpy", "keras", "pip", "conda"}))
        continue;
      i += 4;
      if (i < lower.size() && lower[i] == 'v') ++i;
      const size_t b = i;
      while (i < lower.size() && (is_digit(lower[i]) || lower[i] == '.')) ++i;
      auto to = as_version(lower.substr(b, i - b));
      if (!to || !version_sane(VersionOf::kTensorflow, *to) || !version_sane(VersionOf::kTensorflow, *from)) continue;
      if (facts.tf_version.empty() || (facts.tf_version.line == n && facts.tf_version.value == *from)) {
        facts.tf_version.value = *to;
        facts.tf_version.line = n;
      }
      break;
    }
  }
  // "tf2.5", "TF1.15": the short name glued to its release.
  for (size_t p = lower.find("tf"); p != std::string_view::npos; p = lower.find("tf", p + 2)) {
    if (p > 0 && (is_alnum(lower[p - 1]) || lower[p - 1] == '.' || lower[p - 1] == '_')) continue;
    if (p + 3 >= lower.size() || !(lower[p + 2] == '1' || lower[p + 2] == '2') || lower[p + 3] != '.') continue;
    size_t e = p + 2;
    while (e < lower.size() && (is_digit(lower[e]) || lower[e] == '.')) ++e;
    if (e < lower.size() && (std::isalpha(static_cast<unsigned char>(lower[e])) || lower[e] == '_')) continue;
    if (auto v = as_version(lower.substr(p + 2, e - p - 2)); v && version_sane(VersionOf::kTensorflow, *v)) {
      set_fact(facts.tf_version, *v, n, false, &facts.tf_version_labelled);
      break;
    }
  }
}

void extract_python(std::string_view lower, int n, LogFacts& facts) {
  // No boundary needed after the keyword: "python3.8" (a path) states the version too.
  for_each_keyword(
      lower, "python",
      [&](size_t end) {
        bool labelled = false;
        auto v = version_after(lower, end, VersionOf::kPython, &labelled);
        if (v && version_sane(VersionOf::kPython, *v)) {
          set_fact(facts.python_version, *v, n, labelled, &facts.python_version_labelled);
          return true;
        }
        return false;
      },
      false);
  // "64 bit (AMD64)" / "32 bit (Intel)" in the interpreter banner.
  if (lower.find("64 bit (amd64)") != std::string_view::npos) set_fact(facts.python_bits, "64", n);
  if (lower.find("32 bit (intel)") != std::string_view::npos) facts.python_bits = {"32", n};
}

// "CUDA/cuDNN version: 11.2/8.1" (the TF issue template).
// The bug template's "CUDA/cuDNN version: 11.2/8.1" (also "CUDA: 10.2 cuDNN: 7.6.5"): what
// the reporter says is installed. It overrides versions read earlier from prose (a title
// like "TF looking for CUDA 10.1" names what TF wants, not what is there).
void extract_cuda_cudnn_label(std::string_view lower, int n, LogFacts& facts) {
  size_t p = lower.find("cuda/cudnn version");
  if (p == std::string_view::npos) return;
  size_t colon = lower.find(':', p);
  if (colon == std::string_view::npos || colon > p + 60) return;
  std::string_view rest = trim(lower.substr(colon + 1));
  size_t i = 0;
  auto skip = [&]() {
    while (i < rest.size()) {
      if (rest[i] == '/' || rest[i] == ',' || rest[i] == ':' || rest[i] == '=' || is_space(rest[i])) {
        ++i;
      } else if (rest.substr(i, 5) == "cudnn") {
        i += 5;
      } else if (rest.substr(i, 4) == "cuda") {
        i += 4;
      } else {
        break;
      }
    }
  };
  auto token = [&]() {
    size_t b = i;
    while (i < rest.size() && (is_digit(rest[i]) || rest[i] == '.')) ++i;
    return rest.substr(b, i - b);
  };
  skip();
  auto a = as_version(token());
  if (!a || !version_sane(VersionOf::kCuda, *a)) return;
  if (facts.flags.emplace("cuda_from_template", Fact{"yes", n}).second) facts.cuda_version = Fact{*a, n};
  skip();
  auto b = as_version(token());
  if (b && version_sane(VersionOf::kCudnn, *b) && facts.flags.emplace("cudnn_from_template", Fact{"yes", n}).second)
    facts.cudnn_version = Fact{*b, n};
}

// "CUDA 10", "CUDA 11 or newer": a bare major right after the keyword (7..13, the CUDA
// majors TF ever used, so "cuda 0" or "cuda 2080" are not read as one).
std::optional<std::string> bare_cuda_major_after(std::string_view lower, size_t pos) {
  size_t i = pos;
  while (i < lower.size() && (lower[i] == ' ' || lower[i] == '=' || lower[i] == ':')) ++i;
  size_t b = i;
  while (i < lower.size() && is_digit(lower[i]) && i - b < 3) ++i;
  if (i == b || i - b > 2) return std::nullopt;
  // "CUDA 11.x": the major, any minor.
  const bool any_minor = i + 1 < lower.size() && lower[i] == '.' && lower[i + 1] == 'x' &&
                         (i + 2 == lower.size() || !is_alnum(lower[i + 2]));
  if (!any_minor && i < lower.size() && (is_alnum(lower[i]) || lower[i] == '.' || lower[i] == '_')) return std::nullopt;
  int major = std::stoi(std::string(lower.substr(b, i - b)));
  if (major < 7 || major > 13) return std::nullopt;
  return std::to_string(major);
}

// Every distinct toolkit version a report names (a report naming two leaves open which
// one TensorFlow met).
void note_cuda_stated(LogFacts& facts, const std::string& v) {
  auto parsed = Version::parse(v);
  if (!parsed || parsed->size() < 2 || facts.cuda_versions_stated.size() >= 8) return;
  std::string key = parsed->truncated(2).str();
  if (std::find(facts.cuda_versions_stated.begin(), facts.cuda_versions_stated.end(), key) ==
      facts.cuda_versions_stated.end())
    facts.cuda_versions_stated.push_back(std::move(key));
}

// TensorFlow 1.x's own Windows import check names the version it needs ("Download and
// install CUDA 8.0 from this URL", "You may install the necessary DLL by downloading cuDNN 6
// from this URL"): a requirement, not what the machine has.
bool tf_names_what_it_needs(std::string_view lower) {
  return lower.find("download and install cuda") != std::string_view::npos ||
         lower.find("by downloading cudnn") != std::string_view::npos;
}

void extract_cuda(std::string_view lower, int n, LogFacts& facts) {
  if (tf_names_what_it_needs(lower)) return;
  extract_cuda_cudnn_label(lower, n, facts);
  // The compiler's own release in prose, also beside nvidia-smi's driver CUDA: "nvcc
  // --version says release 11.8", "nvcc -V: 12.1".
  for_each_keyword(lower, "nvcc", [&](size_t end) {
    auto v = version_after(lower, end, VersionOf::kCuda);
    if (!v || !version_sane(VersionOf::kCuda, *v)) return false;
    note_cuda_stated(facts, *v);
    set_fact(facts.cuda_version, *v, n);
    return true;
  });
  // nvidia-smi's banner (or a sentence quoting it): its "CUDA Version" is the newest CUDA
  // the driver supports, not an installed toolkit.
  // XLA's "The NVIDIA driver's CUDA version is 12.2 which is older than the ptxas CUDA
  // version" names the driver's too.
  // A sentence naming a driver version and "CUDA 11.0" without nvidia-smi's "CUDA Version"
  // label ("has CUDA 11.0 and driver version 450") names a toolkit.
  const bool cuda_version_label = lower.find("cuda version") != std::string_view::npos;
  bool smi_line = (lower.find("driver version") != std::string_view::npos && cuda_version_label) ||
                  lower.find("driver's cuda version") != std::string_view::npos ||
                  (lower.find("nvidia-smi") != std::string_view::npos && cuda_version_label);
  // "I have CUDA 12.2 installed (checked with nvidia-smi)": one CUDA named beside nvidia-smi,
  // and no compiler or toolkit, is what nvidia-smi shows: the driver's.
  if (!smi_line && lower.find("nvidia-smi") != std::string_view::npos && lower.find("nvcc") == std::string_view::npos &&
      lower.find("toolkit") == std::string_view::npos) {
    std::optional<std::string> only;
    int named = 0;
    for_each_keyword(
        lower, "cuda",
        [&](size_t end) {
          if (!boundary_or_glued_version(lower, end)) return false;
          if (auto v = version_after(lower, end, VersionOf::kCuda); v && version_sane(VersionOf::kCuda, *v)) {
            ++named;
            only = v;
          }
          return false;
        },
        false);
    if (named == 1) {
      set_fact(facts.driver_cuda_version, *only, n);
      return;
    }
  }
  if (smi_line) {
    size_t p = lower.find("cuda version");
    if (p != std::string_view::npos) {
      auto v = version_after(lower, p + 12, VersionOf::kCuda);
      if (v && version_sane(VersionOf::kCuda, *v)) set_fact(facts.driver_cuda_version, *v, n);
    }
    return;  // the CUDA on an nvidia-smi line is the driver's, not an installed toolkit
  }
  // conda's virtual package (`conda info`: "virtual packages : __cuda=11.1=0") is likewise
  // the newest CUDA the display driver supports, not a toolkit in the environment.
  if (size_t p = lower.find("__cuda="); p != std::string_view::npos) {
    auto v = version_after(lower, p + 7, VersionOf::kCuda);
    if (v && version_sane(VersionOf::kCuda, *v)) set_fact(facts.driver_cuda_version, *v, n);
    return;
  }
  auto conda = lower.find("conda") != std::string_view::npos;
  for_each_keyword(lower, "cudatoolkit", [&](size_t end) {
    auto v = version_after(lower, end, VersionOf::kCuda);
    if (v && version_sane(VersionOf::kCuda, *v)) {
      note_cuda_stated(facts, *v);
      set_fact(facts.cuda_version, *v, n);
      set_fact(facts.cuda_kind, "conda", n);
      return true;
    }
    return false;
  });
  for_each_keyword(
      lower, "cuda",
      [&](size_t end) {
        // "tensorflow[and-cuda]==2.15.0": the extra of TensorFlow's install command; the
        // version after it is TensorFlow's, not a toolkit's.
        if (end >= 8 && lower.substr(end - 8, 8) == "and-cuda") return false;
        if (!boundary_or_glued_version(lower, end)) return false;  // "cudart", "cudaMalloc"
        bool labelled = false;
        auto v = version_after(lower, end, VersionOf::kCuda, &labelled);
        if (!v && boundary_after(lower, end)) v = bare_cuda_major_after(lower, end);
        if (v && version_sane(VersionOf::kCuda, *v)) {
          note_cuda_stated(facts, *v);
          const bool first = facts.cuda_version.empty();
          set_fact(facts.cuda_version, *v, n);
          if (conda) set_fact(facts.cuda_kind, "conda", n);
          // "... needs CUDA 11.3", "CUDA 11.3 is required": what the reporter thinks is needed,
          // not a toolkit the machine has.
          if (first && !labelled) {
            for (std::string_view w :
                 {"need", "require", "should install", "must install", "have to install", "supposed to"})
              if (lower.find(w) != std::string_view::npos) {
                facts.flags.emplace("cuda_stated_as_requirement", Fact{"yes", n});
                break;
              }
          }
          return false;  // every toolkit the line names counts ("CUDA 10.1 and CUDA 11.2")
        }
        return false;
      },
      false);
  // "the CUDA version in the image is 9.2", "CUDA version on my machine: 10.1": a few words
  // between the label and the number, ended by "is" / "was" / ':' / '='.
  size_t p = lower.find("cuda version");
  if (p == std::string_view::npos || (!facts.cuda_version.empty() && facts.cuda_version.line == n)) return;
  size_t i = p + 12;
  for (int words = 0; words < 6 && i < lower.size(); ++words) {
    while (i < lower.size() && lower[i] == ' ') ++i;
    const size_t b = i;
    while (i < lower.size() && (is_alnum(lower[i]) || lower[i] == '\'')) ++i;
    const std::string_view w = lower.substr(b, i - b);
    const bool mark = i < lower.size() && (lower[i] == ':' || lower[i] == '=');
    if (w == "is" || w == "was" || mark) {  // version_after skips the ':' / '='
      if (auto v = version_after(lower, i, VersionOf::kCuda); v && version_sane(VersionOf::kCuda, *v)) {
        note_cuda_stated(facts, *v);
        set_fact(facts.cuda_version, *v, n);
      }
      return;
    }
    if (w.empty()) return;
  }
}

void extract_cudnn(std::string_view lower, int n, LogFacts& facts) {
  if (tf_names_what_it_needs(lower)) return;
  size_t p = lower.find("loaded runtime cudnn library:");
  if (p != std::string_view::npos) {
    auto loaded = version_after(lower, p + 29, VersionOf::kCudnn);
    if (loaded) set_fact(facts.cudnn_loaded, *loaded, n);
    size_t q = lower.find("compiled with:", p);
    if (q != std::string_view::npos) {
      auto compiled = version_after(lower, q + 14, VersionOf::kCudnn);
      if (compiled) set_fact(facts.cudnn_compiled, *compiled, n);
    }
    return;
  }
  // cuDNN's header, as reporters grep it ("cat cudnn_version.h | grep CUDNN_MAJOR -A 2"):
  // "#define CUDNN_MAJOR 8" states the major, "#define CUDNN_MINOR 6" on the next line
  // its minor.
  for (std::string_view part : {"cudnn_major", "cudnn_minor"}) {
    const size_t d = lower.find("#define");
    const size_t k = lower.find(part);
    if (d == std::string_view::npos || k == std::string_view::npos || k < d) continue;
    size_t i = k + part.size();
    while (i < lower.size() && is_space(lower[i])) ++i;
    const size_t b = i;
    while (i < lower.size() && is_digit(lower[i]) && i - b < 3) ++i;
    if (i == b || (i < lower.size() && !is_space(lower[i]))) return;
    const std::string num(lower.substr(b, i - b));
    if (part == "cudnn_major") {
      if (version_sane(VersionOf::kCudnn, num + ".0")) set_fact(facts.cudnn_version, num, n);
    } else if (facts.cudnn_version.line == n - 1 && facts.cudnn_version.value.find('.') == std::string::npos) {
      facts.cudnn_version.value += "." + num;  // the major read on the line before
    }
    return;
  }
  // Debian packages name the major and carry the full version: dpkg -l's "libcudnn8
  // 8.6.0.163-1+cuda11.8", apt's "libcudnn8=8.1.0.77-1+cuda11.2", the file
  // "libcudnn7_7.0.5.15-1+cuda9.0_amd64.deb" (not "libcudnn7-dev", the headers).
  for (size_t a = lower.find("libcudnn"); a != std::string_view::npos; a = lower.find("libcudnn", a + 8)) {
    size_t i = a + 8;
    const size_t mb = i;
    while (i < lower.size() && is_digit(lower[i])) ++i;
    if (i == mb || i - mb > 2) continue;
    const std::string_view major = lower.substr(mb, i - mb);
    if (i >= lower.size() || !(lower[i] == '_' || lower[i] == '=' || is_space(lower[i]))) continue;
    while (i < lower.size() && (lower[i] == '_' || lower[i] == '=' || is_space(lower[i]))) ++i;
    size_t e = i;
    while (e < lower.size() && (is_digit(lower[e]) || lower[e] == '.')) ++e;
    auto v = as_version(lower.substr(i, e - i));
    if (v && e < lower.size() && lower[e] == '-' && v->starts_with(std::string(major) + ".") &&
        version_sane(VersionOf::kCudnn, *v)) {
      set_fact(facts.cudnn_version, *v, n);
      return;
    }
  }
  // NVIDIA's archive names put the CUDA version first and cuDNN's own after "-v":
  // "cudnn-9.0-windows10-x64-v7.3.0.29.zip", "cudnn-11.2-linux-x64-v8.1.1.33.tgz".
  for (size_t a = lower.find("cudnn-"); a != std::string_view::npos; a = lower.find("cudnn-", a + 6)) {
    size_t dash_v = lower.find("-v", a + 6);
    size_t stop = lower.find_first_of(" \t/\\", a);
    if (dash_v == std::string_view::npos || (stop != std::string_view::npos && dash_v > stop)) continue;
    size_t e = dash_v + 2;
    while (e < lower.size() && (is_digit(lower[e]) || lower[e] == '.')) ++e;
    auto v = as_version(lower.substr(dash_v + 2, e - dash_v - 2));
    if (v && version_sane(VersionOf::kCudnn, *v)) {
      set_fact(facts.cudnn_version, *v, n);
      return;
    }
  }
  for_each_keyword(
      lower, "cudnn",
      [&](size_t end) {
        if (!boundary_or_glued_version(lower, end)) return false;
        auto v = version_after(lower, end, VersionOf::kCudnn);
        if (v && version_sane(VersionOf::kCudnn, *v)) {
          set_fact(facts.cudnn_version, *v, n);
          return true;
        }
        return false;
      },
      false);
  if (!facts.cudnn_version.empty()) return;
  // A bare major in prose: "cuDNN 6", "cudnn v7" (the major is what names the library file).
  for_each_keyword(lower, "cudnn", [&](size_t end) {
    size_t i = end;
    while (i < lower.size() && is_space(lower[i])) ++i;
    if (i < lower.size() && lower[i] == 'v') ++i;
    size_t b = i;
    while (i < lower.size() && is_digit(lower[i]) && i - b < 3) ++i;
    if (i == b || i - b > 2 || (i < lower.size() && is_alnum(lower[i]))) return false;
    if (i + 1 < lower.size() && lower[i] == '.' && is_digit(lower[i + 1])) return false;
    std::string major(lower.substr(b, i - b));
    if (!version_sane(VersionOf::kCudnn, major + ".0")) return false;
    set_fact(facts.cudnn_version, major, n);
    return true;
  });
}

void extract_driver(std::string_view lower, int n, LogFacts& facts) {
  auto take = [&](std::string_view kw, Fact& into) {
    size_t p = lower.find(kw);
    if (p == std::string_view::npos) return false;
    auto v = version_after(lower, p + kw.size(), VersionOf::kDriver);
    if (v && version_sane(VersionOf::kDriver, *v)) {
      set_fact(into, *v, n);
      return true;
    }
    return false;
  };
  if (take("kernel reported version is", facts.kernel_module_version)) return;
  if (take("libcuda reported version is", facts.driver_version)) return;
  if (take("driver version", facts.driver_version)) return;
  for_each_keyword(lower, "driver", [&](size_t end) {
    auto v = version_after(lower, end, VersionOf::kDriver);
    if (v && version_sane(VersionOf::kDriver, *v)) {
      set_fact(facts.driver_version, *v, n);
      return true;
    }
    return false;
  });
  for_each_keyword(lower, "nvidia", [&](size_t end) {
    auto v = version_after(lower, end, VersionOf::kDriver);
    if (v && version_sane(VersionOf::kDriver, *v)) {
      set_fact(facts.driver_version, *v, n);
      return true;
    }
    return false;
  });
}

// Model words after a brand: "GeForce GTX 1050 Ti", "Tesla P100-SXM2-16GB", "Quadro K2000M".
void extract_gpu(std::string_view line, std::string_view lower, int n, LogFacts& facts) {
  // Compute capability: "compute capability: 3.0", "Cuda compute capability 3.0",
  // "major: 3 minor: 0".
  // The dotted number at `i`, after blanks, a colon and the words given ("of", "is").
  auto number_at = [&](size_t i, std::initializer_list<std::string_view> words = {}) -> std::optional<std::string> {
    while (i < lower.size() && (is_space(lower[i]) || lower[i] == ':')) ++i;
    for (std::string_view w : words)
      if (lower.substr(i, w.size()) == w) i += w.size();
    size_t b = i;
    while (i < lower.size() && (is_digit(lower[i]) || lower[i] == '.')) ++i;
    return as_version(lower.substr(b, i - b));
  };
  // lspci names the chip before the marketing name: "VGA compatible controller: NVIDIA
  // Corporation GK107 [GeForce GT 640] (rev a1)". The chip pins the architecture where the
  // name does not (a GT 640 was built on GK107 and on GK208).
  if (size_t c = lower.find("nvidia corporation "); c != std::string_view::npos) {
    size_t i = c + 19;
    const size_t b = i;
    while (i < lower.size() && is_alnum(lower[i])) ++i;
    const std::string_view token = lower.substr(b, i - b);
    if (!token.empty() && token.size() <= 12 && lower.substr(i, 2) == " [" &&
        token.find_first_of("0123456789") != std::string_view::npos) {
      std::string chip(line.substr(b, i - b));
      std::transform(chip.begin(), chip.end(), chip.begin(), [](unsigned char ch) { return std::toupper(ch); });
      facts.flags.emplace("gpu_chip", Fact{chip, n});
    }
  }
  size_t p = lower.find("compute capability");
  if (p != std::string_view::npos) {
    if (auto v = number_at(p + 18)) {
      set_fact(facts.compute_capability, *v, n);
      if (lower.find("ignoring visible gpu device") != std::string_view::npos) set_fact(facts.cc_ignored, *v, n);
    }
  }
  size_t req = lower.find("minimum required cuda capability is");
  if (req != std::string_view::npos)
    if (auto v = number_at(req + 35)) set_fact(facts.cc_min_required, *v, n);
  // In prose: "needs a minimum compute capability of 7.0", "the minimum compute capability is 3.5".
  if (size_t mi = lower.find("minimum"); mi != std::string_view::npos && facts.cc_min_required.empty()) {
    size_t cp = lower.find("compute capability", mi);
    if (cp != std::string_view::npos && cp < mi + 24)
      if (auto v = number_at(cp + 18, {"of ", "is "})) set_fact(facts.cc_min_required, *v, n);
  }
  size_t mj = lower.find("major: ");
  if (mj != std::string_view::npos) {
    size_t mn = lower.find("minor: ", mj);
    if (mn != std::string_view::npos && mn < mj + 16 && mj + 7 < lower.size() && mn + 7 < lower.size() &&
        is_digit(lower[mj + 7]) && is_digit(lower[mn + 7])) {
      std::string cc;
      for (size_t i = mj + 7; i < lower.size() && is_digit(lower[i]); ++i) cc += lower[i];
      cc += '.';
      for (size_t i = mn + 7; i < lower.size() && is_digit(lower[i]); ++i) cc += lower[i];
      set_fact(facts.compute_capability, cc, n);
    }
  }
  if (facts.gpu_names.size() >= 8) return;
  for (std::string_view brand : {"geforce", "quadro", "tesla", "titan", "rtx", "gtx", "nvidia a", "nvidia h", "nvidia l"}) {
    size_t pos = lower.find(brand);
    if (pos == std::string_view::npos || !boundary_before(lower, pos)) continue;
    size_t i = pos;
    int words = 0;
    bool has_digit = false;
    size_t end = pos;
    while (i < line.size() && words < 5) {
      size_t b = i;
      while (i < line.size() && (is_alnum(line[i]) || line[i] == '-')) ++i;
      if (i == b) break;
      std::string_view w = lower.substr(b, i - b);
      // The memory size reporters write after the model ("RTX 3070 8GB", "GTX 960M 4Gb") is
      // not part of its name.
      auto is_size = [](std::string_view x) {
        size_t d = 0;
        while (d < x.size() && is_digit(x[d])) ++d;
        std::string_view unit = x.substr(d);
        return d > 0 && (unit == "gb" || unit == "g" || unit == "mb" || unit == "gib");
      };
      if (words > 0 && is_size(w)) break;
      bool digit = std::any_of(w.begin(), w.end(), is_digit);
      bool known = in_list(w, {"geforce", "quadro", "tesla", "titan", "rtx", "gtx", "gt", "ti", "super", "nvidia",
                               "laptop", "mobile", "max-q", "xp", "v", "x"});
      if (!digit && !known && words > 0) break;
      has_digit = has_digit || digit;
      end = i;
      ++words;
      if (i < line.size() && line[i] == ' ') ++i;
      else break;
    }
    if (has_digit) {
      std::string name(trim(line.substr(pos, end - pos)));
      bool seen = false;
      for (const auto& g : facts.gpu_names) seen = seen || iequals(g.value, name);
      if (!seen) facts.gpu_names.push_back({name, n});
      return;
    }
  }
}

void extract_cpu(std::string_view line, std::string_view lower, int n, LogFacts& facts) {
  std::string_view t = trim(lower);
  if (starts_with(t, "model name")) {
    size_t colon = line.find(':');
    if (colon != std::string_view::npos) set_fact(facts.cpu_model, std::string(trim(line.substr(colon + 1))), n);
    return;
  }
  if (starts_with(t, "flags") || starts_with(t, "features")) {
    size_t colon = t.find(':');
    if (colon == std::string_view::npos || colon > 16) return;
    std::string_view flags = t.substr(colon + 1);
    if (flags.find("sse") == std::string_view::npos && flags.find("fpu") == std::string_view::npos) return;
    bool avx = false;
    size_t i = 0;
    while (i < flags.size()) {
      while (i < flags.size() && is_space(flags[i])) ++i;
      size_t b = i;
      while (i < flags.size() && !is_space(flags[i])) ++i;
      if (flags.substr(b, i - b) == "avx") avx = true;
    }
    facts.cpu_avx = avx ? Tri::kYes : Tri::kNo;
    set_fact(facts.cpu_flags, avx ? "avx" : "no avx", n);
  }
}

// The library file name at `pos` (after an opening quote or a space).
std::string_view file_token(std::string_view line, size_t pos) {
  size_t i = pos;
  while (i < line.size() && (is_alnum(line[i]) || line[i] == '.' || line[i] == '_' || line[i] == '-' ||
                             line[i] == '/' || line[i] == '\\' || line[i] == ':'))
    ++i;
  std::string_view tok = line.substr(pos, i - pos);
  while (!tok.empty() && (tok.back() == '.' || tok.back() == ':')) tok.remove_suffix(1);
  size_t slash = tok.find_last_of("/\\");
  if (slash != std::string_view::npos) tok.remove_prefix(slash + 1);
  return tok;
}

// A file named again: TensorFlow's own message about it outranks the reporter's words (a
// title "cudart64_110.dll not found" above the log line that says it).
void add_library(std::vector<LibraryMention>& list, std::string_view name, std::string detail, int n,
                 bool in_prose = false) {
  if (name.empty()) return;
  for (auto& l : list)
    if (l.name == name) {
      if (l.in_prose && !in_prose) {
        l.detail = std::move(detail);
        l.line = n;
        l.in_prose = false;
      }
      return;
    }
  if (list.size() >= 64) return;
  list.push_back({std::string(name), library_component(name), std::move(detail), n, in_prose});
}

// A shared library's file name ("libcudart.so.11.0", "cudart64_110.dll", "libfoo.dylib"),
// not a word that happens to follow a message ("Could not load dynamic library Error").
bool is_library_file_name(std::string_view name) {
  const std::string lname = to_lower(name);
  return ends_with(lname, ".dll") || lname.find(".so") != std::string::npos ||
         lname.find(".dylib") != std::string::npos;
}

// File-name stems of the CUDA / cuDNN / driver libraries TF loads (lower case).
std::span<const std::string_view> cuda_library_stems() {
  static constexpr std::string_view kStems[] = {
      "cudart64_", "libcudart.so", "cublas64_", "libcublas.so", "cublaslt64_", "libcublaslt.so", "cufft64_",
      "libcufft.so", "curand64_", "libcurand.so", "cusolver64_", "libcusolver.so", "cusparse64_", "libcusparse.so",
      "cudnn64_", "libcudnn.so", "nvcuda.dll", "libcuda.so", "zlibwapi.dll", "nvinfer", "libnvidia-ml.so"};
  return kStems;
}

void extract_library_mentions(std::string_view line, std::string_view lower, int n, LogFacts& facts);

void extract_library_present(std::string_view line, std::string_view lower, int n, LogFacts& facts);

void extract_library(std::string_view line, std::string_view lower, int n, LogFacts& facts) {
  // Windows' `where cudart64_110.dll` (after a prompt, "C:\\> where ..."): the answer is
  // the next line.
  if (size_t w = lower.find("where ");
      w != std::string_view::npos && (w == 0 || lower[w - 1] == ' ' || lower[w - 1] == '>')) {
    const std::string_view before = trim(lower.substr(0, w));
    const std::string_view asked = trim(line.substr(w + 6));
    if ((before.empty() || before.back() == '>' || before == "$") && is_library_file_name(asked) &&
        asked.find_first_of(" \t/\\") == std::string_view::npos && asked.size() <= 64) {
      facts.asked = {LogFacts::Asked::What::kWhere, n, std::string(asked)};
      return;
    }
  }
  extract_library_mentions(line, lower, n, facts);
  extract_library_present(line, lower, n, facts);
}

void extract_library_mentions(std::string_view line, std::string_view lower, int n, LogFacts& facts) {
  size_t p = lower.find("could not load dynamic library");
  if (p != std::string_view::npos) {
    size_t q = p + 30;
    while (q < line.size() && (is_space(line[q]) || line[q] == '\'' || line[q] == '"')) ++q;
    std::string_view name = file_token(line, q);
    if (!is_library_file_name(name)) return;  // a title quoting the message without the file
    std::string detail;
    size_t d = lower.find("dlerror:", q);
    if (d != std::string_view::npos) detail = std::string(trim(line.substr(d + 8, 200)));
    add_library(facts.failed_libraries, name, std::move(detail), n);
    return;
  }
  for (std::string_view kw : {"successfully opened dynamic library", "successfully opened cuda library"}) {
    size_t s = lower.find(kw);
    if (s != std::string_view::npos) {
      size_t q = s + kw.size();
      while (q < line.size() && is_space(line[q])) ++q;
      add_library(facts.loaded_libraries, file_token(line, q), "", n);
      return;
    }
  }
  // macOS's dyld, for a library linked at load time (TF 1.0-1.1's GPU wheels link CUDA 8):
  // "Library not loaded: @rpath/libcudart.8.0.dylib ... Reason: image not found".
  if (size_t l = lower.find("library not loaded: "); l != std::string_view::npos) {
    size_t q = l + 20;
    while (q < line.size() && (is_space(line[q]) || line[q] == '@')) ++q;
    std::string_view name = file_token(line, q);
    if (is_library_file_name(name))
      add_library(facts.failed_libraries, name, std::string(trim(line.substr(l, 200))), n);
    return;
  }
  // TF 1.x linked CUDA at load time: "ImportError: libcublas.so.9.0: cannot open shared object file".
  size_t c = lower.find(": cannot open shared object file");
  if (c != std::string_view::npos) {
    size_t b = c;
    while (b > 0 && !is_space(line[b - 1]) && line[b - 1] != '\'' && line[b - 1] != '"') --b;
    add_library(facts.failed_libraries, file_token(line, b), std::string(trim(line.substr(b, 200))), n);
    return;
  }
  // Windows import checks: "Could not find 'cudart64_100.dll'", "Could not locate zlibwapi.dll".
  for (std::string_view kw : {"could not find '", "could not locate ", "could not load library "}) {
    size_t s = lower.find(kw);
    if (s != std::string_view::npos) {
      std::string_view name = file_token(line, s + kw.size());
      if (is_library_file_name(name)) add_library(facts.failed_libraries, name, "", n);
      return;
    }
  }
  // In the reporter's own words: "it can't find cudart64_100.dll", "libcublas.so.9.0 is
  // missing". A CUDA library file named on a line that also says it is not there.
  static constexpr std::string_view kFailure[] = {
      "not found",      "can't find",       "cannot find",
      "can not find",   "couldn't find",    "could not find",
      "unable to find", "missing",          "failed to load",
      "fails",          "not exist",        "no such file",
      "importerror",    "failed to import", "unable to load",
      "can't load",     "cannot load",      "error while loading shared libraries",
      "looking for",    "wants ",           "asks for"};
  auto has_failure = [&](std::string_view text) {
    for (std::string_view w : kFailure)
      if (text.find(w) != std::string_view::npos) return true;
    return false;
  };
  if (!has_failure(lower)) return;
  // The clause a file is named in: a sentence names what is installed and what is missing
  // ("cuDNN 7.6.5, whose library is cudnn64_7.dll, but it cannot find cudnn64_8.dll").
  // Clauses end at a sentence end, a semicolon, or before "but" / "whose" / "which".
  auto clause_of = [&](size_t at) {
    static constexpr std::string_view kStarts[] = {". ", "; ", " but ", ", whose ", ", which ", ", while "};
    size_t b = 0, e = lower.size();
    for (std::string_view s : kStarts) {
      size_t before = lower.rfind(s, at);
      if (before != std::string_view::npos) b = std::max(b, before + (s[0] == ' ' || s[0] == ',' ? 1 : s.size()));
      size_t after = lower.find(s, at);
      if (after != std::string_view::npos) e = std::min(e, after);
    }
    return lower.substr(b, e > b ? e - b : 0);
  };
  struct Named {
    std::string_view name;
    bool failing_clause;
  };
  std::vector<Named> named;
  for (std::string_view stem : cuda_library_stems()) {
    for (size_t at = lower.find(stem); at != std::string_view::npos && named.size() < 16;
         at = lower.find(stem, at + stem.size())) {
      size_t b = at;
      while (b > 0 && (is_alnum(line[b - 1]) || line[b - 1] == '_')) --b;
      std::string_view name = file_token(line, b);
      if (is_library_file_name(name)) named.push_back({name, has_failure(clause_of(at))});
    }
  }
  // Only the files named where the failure is, when the failure is said of some of them.
  const bool any_in_failing_clause =
      std::any_of(named.begin(), named.end(), [](const Named& x) { return x.failing_clause; });
  for (const Named& x : named)
    if (x.failing_clause || !any_in_failing_clause)
      add_library(facts.failed_libraries, x.name, std::string(trim(line.substr(0, 200))), n, true);
}

// In the reporter's words, a CUDA library file is on disk: "libcudart.so.7.5 can be found in
// /usr/local/cuda-7.5/lib64", "cudnn64_8.dll exists in C:\tools\cuda\bin". A line that
// also says something is missing names no present file.
// One of `negations` in the `width` characters before `at` ("is not present in", "did not
// copy").
bool negated_before(std::string_view lower, size_t at, size_t width,
                    std::initializer_list<std::string_view> negations) {
  const std::string_view before = lower.substr(at > width ? at - width : 0, at > width ? width : at);
  return std::any_of(negations.begin(), negations.end(),
                     [&](std::string_view neg) { return before.find(neg) != std::string_view::npos; });
}

void extract_library_present(std::string_view line, std::string_view lower, int n, LogFacts& facts) {
  static constexpr std::string_view kPresent[] = {"can be found in", "is found in",    "exists in",   "is located in",
                                                  "is present in",   "are present in", "is there in", "which is in /"};
  // The file as the object of "I have": "... but I have libcudart.7.5.dylib", "I only have
  // cudart64_101.dll" (not "I have no ...", whose next word is no file).
  // Also the file the reporter put somewhere ("I copied cudnn64_8.dll into ...\\v11.2\\bin"):
  // it is on disk, whether or not that folder is searched.
  for (std::string_view w : {"i have ", "i've got ", "i only have ", "we have ", "they have ", "copied ", "copying ",
                             "pasted ", "placed ", "moved ", "put "}) {
    size_t h = lower.find(w);
    if (h == std::string_view::npos || (h > 0 && is_alnum(lower[h - 1]))) continue;
    if (negated_before(lower, h, 12, {"not ", "n't ", "never "})) continue;
    size_t q = h + w.size();
    for (std::string_view skip : {"only ", "the ", "a ", "all "})
      if (lower.substr(q, skip.size()) == skip) q += skip.size();
    std::string_view cand = file_token(line, q);
    const std::string component = library_component(cand);
    if (is_library_file_name(cand) && (is_cuda_component(component) || component == "cudnn"))
      add_library(facts.present_libraries, cand, std::string(trim(line.substr(0, 200))), n);
  }
  size_t at = std::string_view::npos;
  for (std::string_view w : kPresent) at = std::min(at, lower.find(w));
  if (at == std::string_view::npos) return;
  // A negation just before the words: "is not present in".
  if (negated_before(lower, at, 39, {"not", "cannot", "can't", "no such", "missing", "doesn't", "does not"})) return;
  // The file named last before the words: the subject of "... X can be found in ...".
  std::string_view name;
  for (std::string_view stem : cuda_library_stems()) {
    size_t s = lower.rfind(stem, at);
    if (s == std::string_view::npos) continue;
    size_t b = s;
    while (b > 0 && (is_alnum(line[b - 1]) || line[b - 1] == '_')) --b;
    std::string_view cand = file_token(line, b);
    if (is_library_file_name(cand) && (name.empty() || b > static_cast<size_t>(name.data() - line.data()))) name = cand;
  }
  if (!name.empty()) add_library(facts.present_libraries, name, std::string(trim(line.substr(0, 200))), n);
}

void extract_wheel(std::string_view line, std::string_view lower, int n, LogFacts& facts) {
  size_t p = lower.find(".whl");
  if (p == std::string_view::npos || facts.wheels.size() >= 16) return;
  size_t b = p;
  while (b > 0 && !is_space(line[b - 1]) && line[b - 1] != '/' && line[b - 1] != '\\' && line[b - 1] != '"' &&
         line[b - 1] != '\'' && line[b - 1] != '=')
    --b;
  std::string file(line.substr(b, p + 4 - b));
  auto parts = split(std::string_view(file).substr(0, file.size() - 4), '-');
  if (parts.size() < 5) return;
  WheelMention w;
  w.file = file;
  w.package = parts[0];
  w.version = parts[1];
  w.python = parts[parts.size() - 3];
  w.platform = parts.back();
  w.line = n;
  facts.wheels.push_back(std::move(w));
}

void extract_cuda_path(std::string_view lower, int n, LogFacts& facts) {
  for (std::string_view kw : {"cuda-", "cuda\\v", "cuda/v"}) {
    size_t pos = 0;
    int guard = 0;
    while ((pos = lower.find(kw, pos)) != std::string_view::npos && guard++ < 16) {
      size_t i = pos + kw.size();
      size_t b = i;
      while (i < lower.size() && (is_digit(lower[i]) || lower[i] == '.')) ++i;
      // A path component ends right after the version: "/usr/local/cuda-11.2/lib64".
      bool path_end = i >= lower.size() || lower[i] == '/' || lower[i] == '\\' || lower[i] == ':' ||
                      lower[i] == ';' || is_space(lower[i]);
      auto v = as_version(lower.substr(b, i - b));
      if (v && path_end && version_sane(VersionOf::kCuda, *v) && facts.cuda_path_versions.size() < 16) {
        auto key = Version::parse(*v)->truncated(2).str();
        facts.cuda_path_versions.emplace(key, Fact{key, n});
        // The Windows installer's folder ("...\NVIDIA GPU Computing Toolkit\CUDA\v11.0\bin")
        // names the toolkit installed there, as "/usr/local/cuda-11.0" does on Linux (which
        // the prose extractor reads through the keyword "cuda").
        if (kw != "cuda-" && !tf_names_what_it_needs(lower)) {
          note_cuda_stated(facts, key);
          set_fact(facts.cuda_version, key, n);
        }
      }
      pos = i;
    }
  }
}

// The line is commented out before `at` (`# ...`, `// ...`): a setting shown, not made.
bool commented_out_before(std::string_view lower, size_t at) {
  const size_t first = lower.find_first_not_of(" \t");
  return first < at && (lower[first] == '#' || lower.substr(first, 2) == "//");
}

// CUDA_VISIBLE_DEVICES given a value: a shell's `CUDA_VISIBLE_DEVICES=0`, `%env ...=-1`, a
// YAML/ini `CUDA_VISIBLE_DEVICES: 0`, Python's `os.environ['CUDA_VISIBLE_DEVICES'] = '-1'`
// or `os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")`. Only a literal: `=$GPU` and
// `] = str(args.gpu)` say nothing of the value. Not on a line commented out.
void extract_visible_devices(std::string_view line, std::string_view lower, int n, LogFacts& facts) {
  size_t p = lower.find("cuda_visible_devices");
  if (p == std::string_view::npos) return;
  if (commented_out_before(lower, p)) return;
  size_t i = p + 20;
  // Python's key is quoted: the closing quote (and `]`) come before `=`, or `,` in setdefault.
  bool python = false;
  while (i < line.size() && (line[i] == '\'' || line[i] == '"' || line[i] == ']')) {
    python = true;
    ++i;
  }
  while (i < line.size() && is_space(line[i])) ++i;
  if (i >= line.size() || (line[i] != '=' && line[i] != ':' && !(python && line[i] == ','))) return;
  ++i;
  while (i < line.size() && is_space(line[i]) && line[i] != '\n') ++i;
  const bool quoted = i < line.size() && (line[i] == '"' || line[i] == '\'');
  if ((python && !quoted) || (i < line.size() && line[i] == '$')) return;
  size_t b = i;
  if (quoted) {
    size_t close = line.find(line[i], i + 1);
    if (close == std::string_view::npos) return;
    i = close + 1;
  } else {
    while (i < line.size() && !is_space(line[i]) && line[i] != ';' && line[i] != ',') ++i;
  }
  std::string value(line.substr(b, i - b));
  if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'')) value = value.substr(1, value.size() - 2);
  if (!facts.cuda_visible_devices_set) {
    facts.cuda_visible_devices = {value, n};
    facts.cuda_visible_devices_set = true;
  }
}

// TF_CPP_MIN_LOG_LEVEL set to 2 or 3 (`export TF_CPP_MIN_LOG_LEVEL=3`,
// `os.environ['TF_CPP_MIN_LOG_LEVEL'] = '2'`, `setdefault('TF_CPP_MIN_LOG_LEVEL', '3')`):
// TensorFlow's W-level lines, among them every "Could not load dynamic library", are not
// printed, so its silence about CUDA says nothing. Not on a line commented out.
void extract_log_level(std::string_view lower, int n, LogFacts& facts) {
  constexpr std::string_view kName = "tf_cpp_min_log_level";
  size_t p = lower.find(kName);
  if (p == std::string_view::npos) return;
  if (commented_out_before(lower, p)) return;
  size_t i = p + kName.size();
  bool assigned = false;
  while (i < lower.size() && (is_space(lower[i]) || lower[i] == '\'' || lower[i] == '"' || lower[i] == ']' ||
                              lower[i] == '=' || lower[i] == ':' || lower[i] == ',')) {
    assigned = assigned || lower[i] == '=' || lower[i] == ':' || lower[i] == ',';
    ++i;
  }
  if (!assigned || i >= lower.size() || (lower[i] != '2' && lower[i] != '3')) return;
  if (i + 1 < lower.size() && is_digit(lower[i + 1])) return;
  facts.flags.emplace("tf_logs_hidden", Fact{std::string("TF_CPP_MIN_LOG_LEVEL=") + lower[i], n});
}

// A size as TensorFlow prints it (strings::HumanReadableNumBytes: "11.17GiB", "977.81MiB",
// "80.00GiB") at `i`, in MiB; nullopt for anything else. Advances `i` past it.
std::optional<double> human_size_mib(std::string_view lower, size_t& i) {
  size_t b = i;
  while (i < lower.size() && (is_digit(lower[i]) || lower[i] == '.')) ++i;
  double value = 0;
  if (i == b || i - b > 12) return std::nullopt;
  auto [end, ec] = std::from_chars(lower.data() + b, lower.data() + i, value, std::chars_format::fixed);
  if (ec != std::errc() || end != lower.data() + i) return std::nullopt;  // "1.2.3GiB"
  double scale = 0;
  const std::string_view unit = lower.substr(i, 3);
  if (unit == "kib")
    scale = 1.0 / 1024;
  else if (unit == "mib")
    scale = 1;
  else if (unit == "gib")
    scale = 1024;
  else if (unit == "tib")
    scale = 1024.0 * 1024;
  else
    return std::nullopt;
  i += 3;
  return value * scale;
}

void set_mib(LogFacts& facts, std::string_view key, double mib, int n) {
  facts.flags.emplace(std::string(key), Fact{std::to_string(static_cast<long long>(mib + 0.5)), n});
}

// TensorFlow's own figures for the first GPU's memory when it starts (gpu_device.cc):
// 1.x "totalMemory: 11.17GiB freeMemory: 1.10GiB" (the driver's cuMemGetInfo), 2.x
// "deviceMemorySize: 8.00GiB" and "Created device .../device:GPU:0 with 6955 MB memory"
// (what its allocator may use: the free memory less a reserve). Only the first of each.
void extract_memory_figures(std::string_view lower, int n, LogFacts& facts) {
  auto after = [&](std::string_view label, std::string_view key) {
    size_t p = lower.find(label);
    if (p == std::string_view::npos) return;
    size_t i = p + label.size();
    while (i < lower.size() && is_space(lower[i])) ++i;
    if (auto mib = human_size_mib(lower, i)) set_mib(facts, key, *mib, n);
  };
  after("totalmemory:", "gpu_memory_total_mib");
  after("devicememorysize:", "gpu_memory_total_mib");
  after("freememory:", "gpu_memory_free_mib");
  // When cuDNN cannot start, TF 2.x's cuda_dnn.cc prints the device's memory right after
  // "Could not create cudnn handle": "Memory usage: 1245184 bytes free, 8589410304 bytes
  // total." (cuMemGetInfo at that moment, TensorFlow's own reservation included).
  if (size_t p = lower.find("memory usage: "); p != std::string_view::npos) {
    size_t i = p + 14;
    auto bytes = [&](std::string_view unit) -> std::optional<double> {
      const size_t b = i;
      while (i < lower.size() && is_digit(lower[i])) ++i;
      if (i == b || i - b > 16 || lower.substr(i, unit.size()) != unit) return std::nullopt;
      long long v = 0;
      std::from_chars(lower.data() + b, lower.data() + i, v);
      i += unit.size();
      return static_cast<double>(v) / (1024.0 * 1024.0);
    };
    auto free = bytes(" bytes free, ");
    auto total = free ? bytes(" bytes total") : std::nullopt;
    if (free && total && *total > 0) {
      set_mib(facts, "gpu_memory_free_at_cudnn_failure_mib", *free, n);
      set_mib(facts, "gpu_memory_total_at_cudnn_failure_mib", *total, n);
    }
  }
  // "Created device /job:localhost/replica:0/task:0/device:GPU:0 with 6955 MB memory"
  // (1.x: "Creating TensorFlow device (/job:localhost/.../device:GPU:0 with 10764 MB memory)")
  size_t c = lower.find("creat");
  if (c == std::string_view::npos || lower.find("device:gpu:", c) == std::string_view::npos) return;
  size_t w = lower.find(" with ", c);
  if (w == std::string_view::npos) return;
  size_t i = w + 6, b = i;
  while (i < lower.size() && is_digit(lower[i])) ++i;
  if (i == b || i - b > 9 || lower.substr(i, 10) != " mb memory") return;
  long long mb = 0;
  std::from_chars(lower.data() + b, lower.data() + i, mb);
  set_mib(facts, "gpu_memory_tf_limit_mib", static_cast<double>(mb), n);
}

// The calls that list GPUs: a sentence naming one may carry its answer.
constexpr std::string_view kGpuListingCalls[] = {"list_physical_devices", "list_logical_devices", "get_visible_devices",
                                                 "list_local_devices",    "is_gpu_available",     "gpu_device_name"};

// The reporter's names for that list ("the GPU list is empty").
constexpr std::string_view kGpuListNouns[] = {"gpu list",        "list of gpus",    "list of gpu", "gpus list",
                                              "gpu device list", "list of devices", "device list"};

std::vector<std::string> empty_list_keywords() {
  std::vector<std::string> k = {"[]", "[ ]", "''", "\"\""};
  k.insert(k.end(), std::begin(kGpuListingCalls), std::end(kGpuListingCalls));
  k.insert(k.end(), std::begin(kGpuListNouns), std::end(kGpuListNouns));
  return k;
}

// What follows a GPU-listing call (or the list's name) says it holds no GPU: "[]", "an
// empty list", "nothing", "len(...) -> 0" (a count ending the line), "False" for
// is_gpu_available. Not when a device follows ("[PhysicalDevice(name='/physical_device:GPU:0',
// ...)]": its "0" is the device's index) or the call answers True.
bool says_no_gpu_listed(std::string_view after, bool is_bool) {
  if (after.find("physicaldevice") != std::string_view::npos || after.find("gpu:") != std::string_view::npos ||
      has_word(after, {"not empty", "isn't empty", "non-empty", "nonempty", "true"}))
    return false;
  std::string_view end = trim(after);
  while (!end.empty() && (end.back() == '.' || end.back() == ')')) end.remove_suffix(1);
  const bool count_zero = end.size() >= 2 && end.back() == '0' && !is_alnum(end[end.size() - 2]) &&
                          end[end.size() - 2] != '.' && end[end.size() - 2] != '(';
  return after.find("[]") != std::string_view::npos || has_word(after, {"empty", "nothing", "zero"}) || count_zero ||
         (is_bool && has_word(after, {"false"}));
}

void extract_empty_list(std::string_view lower, int n, LogFacts& facts) {
  std::string_view t = trim(lower);
  if (starts_with(t, ">>>")) t = trim(t.substr(3));
  if (t == "[]" || t == "[ ]" || ends_with(t, ": []") || ends_with(t, "= []") || ends_with(t, "gpu []") ||
      ends_with(t, ": [ ]"))
    set_fact(facts.gpu_list_empty, "yes", n);
  // `print(tf.__version__, tf.config.list_physical_devices('GPU'))` answers "2.16.1 []".
  if (ends_with(t, " []") && as_version(trim(t.substr(0, t.size() - 3))).has_value())
    set_fact(facts.gpu_list_empty, "yes", n);
  // tf.test.gpu_device_name() answering an empty string: no GPU device.
  if ((t == "''" || t == "\"\"") && facts.flag("gpu_device_name_call")) set_fact(facts.gpu_list_empty, "yes", n);
  // A GPU-listing call and its answer told in the same sentence, whatever the verb:
  // "list_physical_devices('GPU') is []", "... shows an empty list", "is_gpu_available() gives False".
  for (std::string_view call : kGpuListingCalls) {
    size_t at = t.find(call);
    if (at == std::string_view::npos) continue;
    std::string_view after = t.substr(at + call.size());
    // The answer told first: "I still get [] from list_physical_devices".
    std::string_view before = t.substr(0, at);
    const bool told_first = (before.find("[] from") != std::string_view::npos ||
                             before.find("empty list from") != std::string_view::npos) &&
                            after.find("physicaldevice") == std::string_view::npos;
    if (told_first || says_no_gpu_listed(after, call == "is_gpu_available")) set_fact(facts.gpu_list_empty, "yes", n);
    return;
  }
  for (std::string_view noun : kGpuListNouns) {
    size_t at = t.find(noun);
    if (at == std::string_view::npos || !boundary_before(t, at)) continue;
    if (says_no_gpu_listed(t.substr(at + noun.size()), false)) set_fact(facts.gpu_list_empty, "yes", n);
    return;
  }
}

// device_lib.list_local_devices() prints one `device_type: "..."` per device; a listing with
// CPU devices and no GPU one means TensorFlow registered no GPU (the explain pass decides
// once every line is read).
void extract_device_list(std::string_view lower, int n, LogFacts& facts) {
  if (lower.find("gpu_device_name") != std::string_view::npos) facts.flags.emplace("gpu_device_name_call", Fact{"yes", n});
  // ">>> tf.test.is_built_with_cuda()" with the interpreter's answer on the next line.
  if (size_t q = lower.find("is_built_with_cuda()");
      q != std::string_view::npos && trim(lower.substr(q + 20)).find_first_not_of(")") == std::string_view::npos)
    facts.asked = {LogFacts::Asked::What::kBuiltWithCuda, n, {}};
  size_t p = lower.find("device_type");
  if (p == std::string_view::npos) return;
  std::string_view rest = lower.substr(p + 11);
  size_t q = rest.find('"');
  if (q == std::string_view::npos || q > 4) return;
  rest = rest.substr(q + 1);
  if (starts_with(rest, "gpu\"") || starts_with(rest, "xla_gpu\""))
    facts.flags.emplace("device_list_gpu", Fact{"yes", n});
  else if (starts_with(rest, "cpu\"") || starts_with(rest, "xla_cpu\""))
    facts.flags.emplace("device_list_cpu", Fact{"yes", n});
}

}  // namespace

namespace {

void read_tf_version_answer(std::string_view line, int line_no, LogFacts& facts) {
  std::string_view t = trim(line.substr(0, 64));
  // pip show's field after "Name: tensorflow".
  if (t.size() > 8 && to_lower(t.substr(0, 8)) == "version:") t = trim(t.substr(8));
  if (t.size() >= 2 && (t.front() == '\'' || t.front() == '"') && t.back() == t.front()) t = t.substr(1, t.size() - 2);
  // `print(tf.__version__, tf.config.list_physical_devices('GPU'))` answers "2.16.1 []" or
  // "2.16.1 [PhysicalDevice(...)]": the version is the first field.
  if (size_t sp = t.find(' '); sp != std::string_view::npos && sp + 1 < t.size() && t[sp + 1] == '[')
    t = t.substr(0, sp);
  if (t.empty() || t.size() > 24) return;
  size_t i = 0;
  while (i < t.size() && (is_digit(t[i]) || t[i] == '.')) ++i;
  // Only a version, perhaps with a pre-release suffix ("2.16.0rc1", "2.15.0-dev"): never prose.
  for (size_t k = i; k < t.size(); ++k)
    if (!is_alnum(t[k]) && t[k] != '-' && t[k] != '+' && t[k] != '.') return;
  if (auto v = as_version(t.substr(0, i)); v && version_sane(VersionOf::kTensorflow, *v))
    set_fact(facts.tf_version, *v, line_no, true, &facts.tf_version_labelled);
}

void read_where_answer(std::string_view line, int line_no, LogFacts& facts) {
  const std::string lower = to_lower(line.substr(0, 256));
  if (lower.find("could not find files for the given pattern") != std::string::npos)
    add_library(facts.failed_libraries, facts.asked.file, "where: on no folder of PATH", line_no);
  else if (ends_with(trim(lower), to_lower(facts.asked.file)))
    add_library(facts.present_libraries, facts.asked.file, std::string(trim(line.substr(0, 256))), line_no);
}

}  // namespace

void read_answer(std::string_view line, int line_no, LogFacts& facts) {
  switch (facts.asked.what) {
    case LogFacts::Asked::What::kTfVersion:
      read_tf_version_answer(line, line_no, facts);
      break;
    case LogFacts::Asked::What::kBuiltWithCuda:
      // The interpreter's "False": a build without CUDA (what the signature
      // built_without_cuda reads when question and answer share a line).
      if (to_lower(trim(line.substr(0, 16))) == "false")
        facts.flags.emplace("tf_built_without_cuda", Fact{"yes", line_no});
      break;
    case LogFacts::Asked::What::kWhere:
      read_where_answer(line, line_no, facts);
      break;
    case LogFacts::Asked::What::kNone:
      break;
  }
  facts.asked = {};
}

std::optional<std::string> version_after(std::string_view line, size_t pos, VersionOf what, bool* labelled) {
  if (labelled) *labelled = false;
  const size_t limit = std::min(line.size(), pos + 64);
  size_t i = pos;
  int words = 0;
  while (i < limit) {
    char c = line[i];
    if (separator(c)) {
      ++i;
      continue;
    }
    if (!is_alnum(c)) return std::nullopt;  // '/', '\\', '<', '>', '.', '!' ... end the search
    size_t b = i;
    while (i < line.size() && (is_alnum(line[i]) || line[i] == '.')) ++i;
    std::string_view tok = line.substr(b, i - b);
    if (auto v = as_version(tok)) return v;
    std::string low = to_lower(tok);
    while (!low.empty() && low.back() == '.') low.pop_back();
    if (low.find('.') != std::string::npos) return std::nullopt;  // "tf.config", "python.exe"
    if (!allowed_word(what, low)) return std::nullopt;
    if (low == "version" || low == "ver") {
      if (labelled) *labelled = true;
    }
    if (++words > 8) return std::nullopt;
  }
  return std::nullopt;
}

// Calls fn(sentence) for each sentence of a prose line (ended by ". ", "? ", "! " or "; ")
// until fn returns true. Linear: each stop is searched for again only once passed.
template <typename Fn>
void for_each_sentence(std::string_view lower, Fn&& fn) {
  static constexpr std::string_view kStops[] = {". ", "? ", "! ", "; "};
  size_t next[std::size(kStops)];
  for (size_t k = 0; k < std::size(kStops); ++k) next[k] = lower.find(kStops[k]);
  size_t start = 0;
  while (start < lower.size()) {
    size_t end = lower.size();
    for (size_t k = 0; k < std::size(kStops); ++k) {
      if (next[k] != std::string_view::npos && next[k] < start) next[k] = lower.find(kStops[k], start);
      if (next[k] != std::string_view::npos) end = std::min(end, next[k] + 1);
    }
    if (fn(lower.substr(start, end - start))) return;
    start = end;
  }
}

// TF's own log lines (a source location, allocator byte counts) are not the reporter's prose.
bool is_log_line(std::string_view lower) {
  return lower.find(".cc:") != std::string_view::npos || lower.find("bytes") != std::string_view::npos;
}

// The reporter's words for TensorFlow taking all of a GPU's memory, in any order within
// one sentence: the GPU's memory, a word for all of it, and a word for taking it ("all
// the GPU memory is occupied at the beginning of training", "GPU 0 memory is drained by
// the learner").
void extract_memory_prose(std::string_view lower, int n, LogFacts& facts) {
  if (facts.flags.count("all_gpu_memory_prose") || is_log_line(lower)) return;
  for_each_sentence(lower, [&](std::string_view sentence) {
    if (!has_word(sentence, {"memory", "vram"})) return false;
    const bool gpu = has_word(sentence, {"gpu*", "vram", "graphics", "video memory", "device memory", "cuda memory"});
    const bool drains = has_word(sentence, {"drained", "drains", "exhausted", "hogs", "hogged", "eats up", "eaten up",
                                            "fills up", "filled up"});
    const bool total = drains || has_word(sentence, {"all", "whole", "entire", "entirely", "full", "fully", "nearly all",
                                                     "almost all", "100%", "maximum", "most of"});
    const bool takes = drains || has_word(sentence, {"occupied", "occupies", "occupy", "allocat*", "take", "takes",
                                                     "took", "taken", "taking", "grab*", "consum*", "reserv*", "fill*",
                                                     "uses", "used", "using", "eat*", "hog*", "map*", "claim*", "block*"});
    if (!(gpu && total && takes)) return false;
    facts.flags.emplace("all_gpu_memory_prose", Fact{"yes", n});
    return true;
  });
}

// A program that works in a notebook but fails as a script, in one sentence ("It runs fine
// in a Jupyter notebook but throws this error when run as a .py file", "Model is running in
// Jupyter Notebook but not in Python Script"): the clause before the contrast works and
// names the notebook, the one after fails. A notebook's kernel keeps its TensorFlow, and
// the GPU memory that TensorFlow mapped at start, until it is shut down.
void extract_notebook_script(std::string_view lower, int n, LogFacts& facts) {
  if (facts.flags.count("works_in_notebook_not_script") || facts.flags.count("ide_and_terminal") || is_log_line(lower))
    return;
  constexpr std::string_view kContrasts[] = {" but ", " however", " whereas ", " while ", " though "};
  for_each_sentence(lower, [&](std::string_view sentence) {
    size_t cut = std::string_view::npos, cut_len = 0;
    for (std::string_view c : kContrasts)
      if (size_t at = sentence.find(c); at < cut) cut = at, cut_len = c.size();
    if (cut == std::string_view::npos) return false;
    const std::string_view before = sentence.substr(0, cut), after = sentence.substr(cut + cut_len);
    auto fails = [](std::string_view t) {
      return has_word(t, {"not", "fail*", "error*", "crash*", "throw*", "raise*", "oom", "out of memory", "hang*",
                          "freez*", "stuck", "cannot", "never", "exception"}) ||
             t.find("n't") != std::string_view::npos;
    };
    const bool notebook = has_word(before, {"jupyter*", "notebook*", "ipynb"});
    const bool works = has_word(before, {"works", "work", "worked", "working", "runs", "running", "run fine", "fine",
                                         "ok", "okay", "successfully"});
    const bool script = has_word(after, {"script*", "py file", "terminal", "command line", "console", "shell"}) ||
                        after.find(".py") != std::string_view::npos;
    if (notebook && works && !fails(before) && fails(after) && script) {
      facts.flags.emplace("works_in_notebook_not_script", Fact{"yes", n});
      return true;
    }
    // The other way round, in either order: it works (sees the GPU) from a terminal or a
    // prompt, and fails (or lists no GPU) in a notebook or an IDE. A kernel or an IDE not
    // started from the activated shell lacks its environment (conda's activate scripts set
    // the CUDA library path there): the same as an IDE started from the desktop.
    auto shell_side = [&](std::string_view t) {
      return has_word(t, {"terminal", "command line", "console", "shell", "prompt", "cmd", "powershell"});
    };
    auto ide_side = [&](std::string_view t) {
      return has_word(
          t, {"jupyter*", "notebook*", "ipynb", "pycharm", "spyder", "vscode", "vs code", "visual studio code", "ide"});
    };
    auto good = [&](std::string_view t) {
      return !fails(t) && has_word(t, {"works", "work", "worked", "working", "runs", "fine", "ok", "okay", "sees",
                                       "detects", "detected", "finds", "found", "lists", "listed", "uses", "recogni*"});
    };
    auto bad = [&](std::string_view t) {
      return fails(t) || t.find("[]") != std::string_view::npos || has_word(t, {"empty"});
    };
    const bool shell_first =
        shell_side(before) && !ide_side(before) && good(before) && ide_side(after) && !shell_side(after) && bad(after);
    const bool ide_first =
        ide_side(before) && !shell_side(before) && bad(before) && shell_side(after) && !ide_side(after) && good(after);
    if (!shell_first && !ide_first) return false;
    facts.flags.emplace("ide_and_terminal", Fact{"yes", n});
    return true;
  });
}

// Two TensorFlow distributions said to be installed together, in the reporter's words: one
// sentence naming `tensorflow-gpu` and the plain `tensorflow`, with a word for having both
// ("the package tensorflow installed in addition to tensorflow-gpu"). Both install the same
// `tensorflow` module; before 2.1 the plain one is the CPU-only build.
void extract_packages_prose(std::string_view lower, int n, LogFacts& facts) {
  if (facts.flags.count("plain_tf_installed") || is_log_line(lower)) return;
  for_each_sentence(lower, [&](std::string_view sentence) {
    // The plain name alone: not tensorflow-gpu, tensorflow_estimator, site-packages/tensorflow,
    // tensorflow.keras (a '.' ending the sentence is fine).
    auto name_char = [](char c) { return is_alnum(c) || c == '-' || c == '_' || c == '/'; };
    const std::string_view s = sentence;
    bool plain = false;
    for (size_t at = s.find("tensorflow"); at != std::string_view::npos && !plain; at = s.find("tensorflow", at + 1)) {
      const size_t end = at + 10;
      const bool start_ok = at == 0 || !(name_char(s[at - 1]) || s[at - 1] == '.');
      const bool end_ok =
          end >= s.size() || !(name_char(s[end]) || (s[end] == '.' && end + 1 < s.size() && is_alnum(s[end + 1])));
      plain = start_ok && end_ok;
    }
    if (!plain) return false;
    const bool gpu = sentence.find("tensorflow-gpu") != std::string_view::npos ||
                     sentence.find("tensorflow_gpu") != std::string_view::npos;
    const bool together = has_word(sentence, {"in addition", "alongside", "as well as", "next to", "together with",
                                              "both", "besides", "on top of", "side by side"});
    const bool undoing = has_word(sentence, {"uninstall*", "remov*", "instead of", "rather than", "replace*"});
    if (!(gpu && together) || undoing) return false;
    facts.flags.emplace("plain_tf_installed", Fact{"yes", n});
    return true;
  });
}

// TensorFlow.js's Node.js binding and its version: "@tensorflow/tfjs-node-gpu@2.0.1",
// "tfjs-node-gpu 1.5.1", "\"@tensorflow/tfjs-node\": \"^3.8.0\"", or the issue template's
// "TensorFlow.js version: 2.0.1" in a report that names tfjs-node. Browser TensorFlow.js
// never uses CUDA, so only the Node binding's version counts.
void extract_tfjs_node(std::string_view lower, int n, LogFacts& facts) {
  auto read_after = [&](size_t i) -> std::optional<std::string> {
    const size_t limit = std::min(lower.size(), i + 24);
    while (i < limit && !is_digit(lower[i])) {
      if (lower.substr(i, 7) == "version") {
        i += 7;
        continue;
      }
      if (std::string_view(" \t@:\"'^~=v>,").find(lower[i]) == std::string_view::npos) return std::nullopt;
      ++i;
    }
    size_t b = i;
    while (i < lower.size() && (is_digit(lower[i]) || lower[i] == '.')) ++i;
    return as_version(lower.substr(b, i - b));
  };
  for (std::string_view kw : {"tfjs-node-gpu", "tfjs-node"}) {
    size_t p = lower.find(kw);
    if (p == std::string_view::npos) continue;
    facts.flags.emplace("tfjs_node", Fact{"yes", n});
    if (auto v = read_after(p + kw.size()); v && facts.tfjs_node_version.empty()) facts.tfjs_node_version = Fact{*v, n};
    return;
  }
  for (std::string_view kw : {"tensorflow.js version", "tfjs version"}) {
    size_t p = lower.find(kw);
    if (p == std::string_view::npos) continue;
    if (auto v = read_after(p + kw.size()); v && facts.tfjs_node_version.empty()) facts.tfjs_node_version = Fact{*v, n};
    return;
  }
}

// The reporter saying, in their own words, that TensorFlow does not see or use the GPU,
// whatever the wording around it: a negated verb of seeing or using with the GPU as its
// object ("does not see gpu", "never detected my NVIDIA GPU", "fails to recognise the
// graphics card", "won't run on the GPU"), or the GPU as the subject of a negated
// participle ("the GPU is not being detected", "GPU wasn't found"). Not in a sentence that
// asks how to keep TensorFlow off the GPU or states a condition ("if it does not find a
// GPU ..."), nor about the GPU's memory or driver.
bool says_gpu_unseen(std::string_view sentence) {
  std::vector<std::string_view> w;
  for (size_t i = 0; i < sentence.size() && w.size() < 96;) {
    while (i < sentence.size() && !(is_alnum(sentence[i]) || sentence[i] == '\'')) ++i;
    size_t b = i;
    while (i < sentence.size() && (is_alnum(sentence[i]) || sentence[i] == '\'')) ++i;
    if (i > b) w.push_back(sentence.substr(b, i - b));
  }
  for (std::string_view t : w)
    if (in_list(t, {"if", "unless", "whether", "want", "wants", "prefer", "force", "disable", "avoid", "hide", "instead"}))
      return false;
  if (has_word(sentence, {"how to", "how can", "how do", "so that", "in order to"})) return false;
  auto negation = [&](std::string_view t) {
    return in_list(t, {"not", "never", "cannot", "cant", "unable", "fail", "fails", "failed", "failing", "no"}) ||
           (t.size() > 3 && t.substr(t.size() - 3) == "n't");
  };
  // A word that is one of `stems` with at most a 4-letter ending ("detect" -> "detects",
  // "detected", "detecting").
  auto inflects = [](std::string_view t, std::initializer_list<std::string_view> stems) {
    for (std::string_view stem : stems)
      if (starts_with(t, stem) && t.size() <= stem.size() + 4) return true;
    return false;
  };
  auto verb = [&](std::string_view t) {
    return inflects(t, {"see", "saw", "detect", "recogni", "find", "found", "use", "using", "utili", "show", "list",
                        "register", "access", "identif", "pick", "load"});
  };
  auto participle = [&](std::string_view t) {
    return in_list(t, {"detected",  "recognized",  "recognised",  "found",     "used",       "utilized", "utilised",
                       "visible",   "listed",      "shown",       "showing",   "registered", "seen",     "identified",
                       "available", "recognizing", "recognising", "detecting", "utilizing",  "utilising"});
  };
  auto filler = [&](std::string_view t) {
    return in_list(t, {"the", "my", "a", "an", "any", "our", "their", "his", "her", "its", "nvidia", "nvidia's", "dedicated",
                  "discrete", "available", "both", "all", "this", "that", "cuda", "single", "second", "first", "of"});
  };
  // Only the CPU at work: "training still only occupies the CPU", "it uses only the CPU",
  // "only the CPU is used".
  auto usage = [&](std::string_view t) {
    return inflects(t, {"use", "using", "utili", "run", "ran", "occup", "train", "work", "comput", "load"});
  };
  for (size_t j = 0; j < w.size(); ++j) {
    if (w[j] != "cpu" && w[j] != "cpus") continue;
    size_t k = j;
    while (k > 0 && j - k < 2 && (w[k - 1] == "the" || w[k - 1] == "my" || w[k - 1] == "on")) --k;
    bool only_before = false;
    for (size_t b = k; b > 0 && k - b < 4; --b) {
      if (in_list(w[b - 1], {"only", "just", "solely", "still"})) only_before = true;
      if (usage(w[b - 1]) && (only_before || (b >= 2 && in_list(w[b - 2], {"only", "just", "solely"})))) return true;
    }
    // "only the CPU is used"
    if (k > 0 && in_list(w[k - 1], {"only", "just", "solely"}))
      for (size_t a = j + 1; a < w.size() && a <= j + 3; ++a)
        if (in_list(w[a], {"used", "utilized", "utilised", "working", "busy", "occupied", "loaded"})) return true;
  }
  for (size_t i = 0; i < w.size(); ++i) {
    size_t end = i;  // last word of the GPU's name
    if (w[i] == "gpu" || w[i] == "gpus" || w[i] == "gpu's") {
    } else if ((w[i] == "card" || w[i] == "cards") && i > 0 && (w[i - 1] == "graphics" || w[i - 1] == "video")) {
      --i;  // the name starts one word earlier
    } else if (in_list(w[i], {"rtx", "gtx", "geforce", "quadro", "tesla", "titan"})) {
      // A GPU named by its model ("my RTX 3070", "the GeForce GTX 1080 Ti"): the name runs
      // over the series words and the tokens with digits after it.
      auto model_part = [&](std::string_view t) {
        return in_list(t, {"rtx", "gtx", "ti", "super", "laptop", "mobile"}) ||
               std::any_of(t.begin(), t.end(), [](char c) { return is_digit(c); });
      };
      while (end + 1 < w.size() && model_part(w[end + 1])) ++end;
      if (end == i) continue;  // "tesla" alone is no model
    } else {
      continue;
    }
    const size_t start = i;
    // "GPU devices are not detected", "the GPU card is not found": the noun after it.
    if (end + 1 < w.size() && in_list(w[end + 1], {"device", "devices", "card", "cards"})) ++end;
    i = end;
    if (end + 1 < w.size() && in_list(w[end + 1], {"memory", "ram", "vram", "driver", "drivers", "version", "name"}))
      continue;
    // A negated verb before it: "does not see [the] gpu", "won't run on the gpu".
    size_t j = start;
    int skipped = 0;
    while (j > 0 && skipped < 3 && filler(w[j - 1])) --j, ++skipped;
    if (j > 0) {
      size_t v = j - 1;
      if (in_list(w[v], {"on", "with"}) && v > 0 &&
          in_list(w[v - 1], {"run", "runs", "running", "ran", "train", "trains", "training", "work", "works", "working",
                        "execute", "executed", "compute"}))
        --v;
      else if (w[v] == "up" && v > 0 && starts_with(w[v - 1], "pick"))
        --v;
      if (verb(w[v]) || v + 1 < j) {
        for (size_t k = v; k > 0 && v - k < 4; --k)
          if (negation(w[k - 1])) return true;
      }
    }
    // The GPU as the subject: "gpu is not (being) detected", "gpu wasn't found", "no gpu was detected".
    bool neg = start > 0 && w[start - 1] == "no";
    for (size_t k = end + 1; k < w.size() && k <= end + 4; ++k) {
      if (negation(w[k])) {
        neg = true;
        continue;
      }
      if (in_list(w[k], {"is", "was", "are", "were", "being", "been", "still", "also", "even", "at", "all"})) continue;
      if (participle(w[k]) && neg) return true;
      break;
    }
  }
  return false;
}

void extract_gpu_unseen_prose(std::string_view lower, int n, LogFacts& facts) {
  if (facts.flags.count("gpu_unseen_prose") || is_log_line(lower)) return;
  for_each_sentence(lower, [&](std::string_view sentence) {
    if (!says_gpu_unseen(sentence)) return false;
    facts.flags.emplace("gpu_unseen_prose", Fact{"yes", n});
    facts.flags.emplace("gpu_missing", Fact{"yes", n});
    facts.flags.emplace("gpu_wanted", Fact{"yes", n});
    return true;
  });
}

// A shell prompt whose host name is 12 hex digits ("root@3f4e1c2a9b7d:/workspace#"): Docker
// names a container's host after the first 12 hex digits of its id unless told otherwise.
void extract_container_prompt(std::string_view lower, int n, LogFacts& facts) {
  if (!facts.container.empty()) return;
  for (size_t at = lower.find('@'); at != std::string_view::npos; at = lower.find('@', at + 1)) {
    if (at == 0 || !(is_alnum(lower[at - 1]) || lower[at - 1] == '_' || lower[at - 1] == '-')) continue;
    size_t i = at + 1;
    bool letter = false, digit = false;
    while (i < lower.size() && i - at - 1 < 13 && std::isxdigit(static_cast<unsigned char>(lower[i]))) {
      (is_digit(lower[i]) ? digit : letter) = true;
      ++i;
    }
    if (i - at - 1 == 12 && letter && digit && i < lower.size() && lower[i] == ':') {
      set_fact(facts.container, "docker", n);
      return;
    }
  }
}

bool is_cuda_component(std::string_view component) {
  static constexpr std::string_view kCuda[] = {"cudart", "cublas",   "cublaslt", "cufft",
                                               "curand", "cusolver", "cusparse", "nvjitlink"};
  return std::find(std::begin(kCuda), std::end(kCuda), component) != std::end(kCuda);
}

std::string library_component(std::string_view file_name) {
  std::string low = to_lower(file_name);
  std::string_view s = low;
  if (starts_with(s, "lib")) s.remove_prefix(3);
  size_t i = 0;
  while (i < s.size() && std::isalpha(static_cast<unsigned char>(s[i]))) ++i;
  std::string base(s.substr(0, i));
  if (base == "cuda" || base == "nvcuda") return "cuda_driver";
  if (base == "nvidia" && s.find("ml") != std::string_view::npos) return "nvml";
  if (base.empty()) return "other";
  return base;
}

std::span<const ExtractorKeywords> extractor_keywords() {
  // clang-format off
  static const std::vector<ExtractorKeywords> kTable = {
      {Extractor::kTensorflow, {"tensorflow", "tensor flow", "tf ", "tf.__version__", "tf.version.version", "tf1.", "tf2."}},
      {Extractor::kPython, {"python", "32 bit (intel)", "64 bit (amd64)"}},  // the banner without "python" (sys.version)
      {Extractor::kCuda, {"cuda", "nvcc"}},
      {Extractor::kCudnn, {"cudnn"}},
      {Extractor::kDriver, {"driver", "nvidia ", "reported version is"}},
      {Extractor::kGpu, {"geforce", "quadro", "tesla", "titan", "rtx", "gtx", "nvidia a", "nvidia h", "nvidia l",
                         "compute capability", "major: "}},
      {Extractor::kCpu, {"model name", "flags", "features"}},
      {Extractor::kLibrary, {"could not load dynamic library", "successfully opened", "cannot open shared object file",
                             "could not find '", "could not locate ", "could not load library ", "cudart64_",
                             "libcudart.so", "cublas64_", "libcublas.so", "cudnn64_", "libcudnn.so", "cusolver64_",
                             "libcusolver.so", "cufft64_", "libcufft.so", "nvcuda.dll", "libcuda.so", "curand64_",
                             "libcurand.so", "cusparse64_", "libcusparse.so", "library not loaded: "}},
      {Extractor::kWheel, {".whl"}},
      {Extractor::kCudaPath, {"cuda-", "cuda\\v", "cuda/v"}},
      {Extractor::kVisibleDevices, {"cuda_visible_devices"}},
      {Extractor::kEmptyList, empty_list_keywords()},
      {Extractor::kMemoryProse, {"memory", "vram"}},
      {Extractor::kPackagesProse, {"tensorflow-gpu", "tensorflow_gpu"}},
      {Extractor::kTfjsNode, {"tfjs-node", "tensorflow.js version", "tfjs version"}},
      {Extractor::kGpuUnseenProse, {"gpu", "graphics card", "video card", "cpu", "rtx", "gtx", "geforce", "quadro", "tesla", "titan"}},
      {Extractor::kDeviceList, {"device_type", "gpu_device_name", "is_built_with_cuda"}},
      {Extractor::kContainerPrompt, {"@"}},
      {Extractor::kLogLevel, {"tf_cpp_min_log_level"}},
      {Extractor::kNotebookScript, {"jupyter", "notebook", "ipynb", "pycharm", "spyder", "vscode", "vs code", "visual studio code"}},
      {Extractor::kMemoryFigures, {"freememory:", "devicememorysize:", " mb memory", "bytes free"}},
  };
  // clang-format on
  return kTable;
}

void run_extractor(Extractor which, std::string_view line, int line_no, LogFacts& facts) {
  std::string lower_buf = to_lower(line);
  run_extractor(which, line, lower_buf, line_no, facts);
}

void run_extractor(Extractor which, std::string_view line, std::string_view lower, int line_no, LogFacts& facts) {
  switch (which) {
    case Extractor::kTensorflow: extract_tensorflow(line, lower, line_no, facts); break;
    case Extractor::kPython: extract_python(lower, line_no, facts); break;
    case Extractor::kCuda: extract_cuda(lower, line_no, facts); break;
    case Extractor::kCudnn: extract_cudnn(lower, line_no, facts); break;
    case Extractor::kDriver: extract_driver(lower, line_no, facts); break;
    case Extractor::kGpu: extract_gpu(line, lower, line_no, facts); break;
    case Extractor::kCpu: extract_cpu(line, lower, line_no, facts); break;
    case Extractor::kLibrary: extract_library(line, lower, line_no, facts); break;
    case Extractor::kWheel: extract_wheel(line, lower, line_no, facts); break;
    case Extractor::kCudaPath: extract_cuda_path(lower, line_no, facts); break;
    case Extractor::kVisibleDevices: extract_visible_devices(line, lower, line_no, facts); break;
    case Extractor::kEmptyList: extract_empty_list(lower, line_no, facts); break;
    case Extractor::kMemoryProse: extract_memory_prose(lower, line_no, facts); break;
    case Extractor::kPackagesProse: extract_packages_prose(lower, line_no, facts); break;
    case Extractor::kTfjsNode: extract_tfjs_node(lower, line_no, facts); break;
    case Extractor::kGpuUnseenProse: extract_gpu_unseen_prose(lower, line_no, facts); break;
    case Extractor::kDeviceList: extract_device_list(lower, line_no, facts); break;
    case Extractor::kContainerPrompt: extract_container_prompt(lower, line_no, facts); break;
    case Extractor::kLogLevel:
      extract_log_level(lower, line_no, facts);
      break;
    case Extractor::kNotebookScript:
      extract_notebook_script(lower, line_no, facts);
      break;
    case Extractor::kMemoryFigures:
      extract_memory_figures(lower, line_no, facts);
      break;
    case Extractor::kCount: break;
  }
}

}  // namespace tfgpu::explain
