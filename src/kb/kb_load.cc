// Reads kb/*.toml into KnowledgeBase. Structural problems (missing field, malformed
// version, unknown platform) fail the load with the file and row named; cross-table
// consistency is checked by tests/kb_test.cc, so a `--kb DIR` with a typo fails loudly
// while one with a questionable fact still loads.
#include <algorithm>
#include <charconv>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "kb/kb.h"
#include "kb/kb_blob.h"
#include "util/strings.h"
#include "util/toml_guard.h"

namespace tfgpu::kb {

namespace {

// Thrown inside the loader only; converted to an Error at load_texts().
struct LoadError {
  std::string message;
};

[[noreturn]] void fail_load(std::string message) { throw LoadError{std::move(message)}; }

// Canonical order of library components in reports (driver first, cuDNN last), so a
// table reads the same whatever order the TOML keys come in.
constexpr std::string_view kComponentOrder[] = {"driver", "nvml",     "cudart",   "cublas", "cublasLt",
                                                "cufft",  "curand",   "cusolver", "cusparse", "nvrtc",
                                                "nvJitLink", "cupti", "nccl",     "cudnn"};

size_t component_rank(std::string_view c) {
  for (size_t i = 0; i < std::size(kComponentOrder); ++i)
    if (kComponentOrder[i] == c) return i;
  return std::size(kComponentOrder);
}

class Row {
 public:
  Row(const toml::table& t, std::string where) : t_(t), where_(std::move(where)) {}

  const std::string& where() const { return where_; }
  bool has(std::string_view key) const { return t_.contains(key); }

  std::string str(std::string_view key) const {
    auto v = t_[key].value<std::string>();
    if (!v) fail_load(fmt::format("{}: '{}' missing or not a string", where_, key));
    return *v;
  }
  std::string str_or(std::string_view key, std::string fallback = {}) const {
    if (!has(key)) return fallback;
    return str(key);
  }
  bool boolean_or(std::string_view key, bool fallback) const {
    if (!has(key)) return fallback;
    auto v = t_[key].value<bool>();
    if (!v) fail_load(fmt::format("{}: '{}' is not a boolean", where_, key));
    return *v;
  }
  int64_t integer(std::string_view key) const {
    auto v = t_[key].value<int64_t>();
    if (!v) fail_load(fmt::format("{}: '{}' missing or not an integer", where_, key));
    return *v;
  }
  std::optional<double> number(std::string_view key) const {
    if (!has(key)) return std::nullopt;
    auto v = t_[key].value<double>();
    if (!v) fail_load(fmt::format("{}: '{}' is not a number", where_, key));
    return v;
  }
  std::vector<std::string> strings(std::string_view key) const {
    std::vector<std::string> out;
    if (!has(key)) return out;
    const toml::node& n = *t_.get(key);
    if (auto s = n.value<std::string>()) return {*s};
    const toml::array* a = n.as_array();
    if (!a) fail_load(fmt::format("{}: '{}' must be a string or an array of strings", where_, key));
    for (const auto& e : *a) {
      auto s = e.value<std::string>();
      if (!s) fail_load(fmt::format("{}: '{}' must hold strings only", where_, key));
      out.push_back(*s);
    }
    return out;
  }
  Version version(std::string_view key) const { return parse_version(str(key), key); }
  std::optional<Version> version_opt(std::string_view key) const {
    if (!has(key)) return std::nullopt;
    return version(key);
  }
  Version parse_version(const std::string& text, std::string_view key) const {
    auto v = Version::parse(text);
    if (!v) fail_load(fmt::format("{}: '{}': {}", where_, key, v.error().message));
    return *v;
  }
  VersionRange range(std::string_view key) const { return parse_range(str(key), key); }
  VersionRange parse_range(const std::string& text, std::string_view key) const {
    auto r = VersionRange::parse(text);
    if (!r) fail_load(fmt::format("{}: '{}': {}", where_, key, r.error().message));
    return *r;
  }
  ComputeCapability cc(std::string_view key) const { return parse_cc(str(key), key); }
  ComputeCapability parse_cc(const std::string& text, std::string_view key) const {
    auto c = ComputeCapability::parse(text);
    if (!c) fail_load(fmt::format("{}: '{}': {}", where_, key, c.error().message));
    return *c;
  }
  Platform platform(const std::string& text) const {
    auto p = parse_platform(text);
    if (!p) fail_load(fmt::format("{}: {}", where_, p.error().message));
    return *p;
  }
  std::vector<Platform> platforms(std::string_view key) const {
    std::vector<Platform> out;
    for (const auto& s : strings(key)) out.push_back(platform(s));
    return out;
  }
  Provenance prov(std::string_view source_key = "source", std::string_view verified_key = "verified") const {
    Provenance p;
    p.source = strings(source_key);
    if (p.source.empty()) fail_load(fmt::format("{}: '{}' missing: every row needs a source", where_, source_key));
    p.verified = boolean_or(verified_key, true);
    return p;
  }
  const toml::table* table(std::string_view key) const { return t_[key].as_table(); }
  const toml::array* array(std::string_view key) const { return t_[key].as_array(); }
  // A sub-table of component = file name pairs, in canonical component order.
  std::vector<LibraryName> library_names(std::string_view key) const {
    std::vector<LibraryName> out;
    const toml::table* sub = table(key);
    if (!sub) return out;
    for (const auto& [k, v] : *sub) {
      auto s = v.value<std::string>();
      if (!s) fail_load(fmt::format("{}: [{}] {} is not a string", where_, key, k.str()));
      out.push_back({std::string(k.str()), *s});
    }
    std::stable_sort(out.begin(), out.end(), [](const LibraryName& a, const LibraryName& b) {
      return component_rank(a.component) < component_rank(b.component);
    });
    return out;
  }

 private:
  const toml::table& t_;
  std::string where_;
};

// Calls fn(Row) for each table of the array-of-tables `key`.
template <typename Fn>
void for_each_row(const toml::table& doc, std::string_view file, std::string_view key, Fn&& fn) {
  const toml::node* n = doc.get(key);
  if (!n) return;
  const toml::array* a = n->as_array();
  if (!a) fail_load(fmt::format("{}: '{}' must be an array of tables ([[{}]])", file, key, key));
  size_t i = 0;
  for (const auto& e : *a) {
    ++i;
    const toml::table* t = e.as_table();
    if (!t) fail_load(fmt::format("{}: [[{}]] #{} is not a table", file, key, i));
    std::string label;
    if (auto v = (*t)["version"].value<std::string>()) label = *v;
    else if (auto id = (*t)["id"].value<std::string>()) label = *id;
    else if (auto p = (*t)["pci_id"].value<std::string>()) label = *p;
    else if (auto nm = (*t)["name"].value<std::string>()) label = *nm;
    else label = "#" + std::to_string(i);
    fn(Row(*t, fmt::format("{}: [[{}]] {}", file, key, label)));
  }
}

Tristate parse_tristate(const Row& r, std::string_view key) {
  std::string s = r.str_or(key, "unknown");
  if (s == "yes") return Tristate::kYes;
  if (s == "no") return Tristate::kNo;
  if (s == "unknown") return Tristate::kUnknown;
  fail_load(fmt::format("{}: '{}' must be yes, no or unknown", r.where(), key));
}

Result<uint16_t> parse_hex16(std::string_view s) {
  if (s.empty() || s.size() > 4) return fail(Error::input(fmt::format("'{}' is not a 4-digit hex id", s)));
  unsigned value = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value, 16);
  if (ec != std::errc() || ptr != s.data() + s.size())
    return fail(Error::input(fmt::format("'{}' is not a hex id", s)));
  return static_cast<uint16_t>(value);
}

}  // namespace

class KbLoader {
 public:
  static void load_sources(KnowledgeBase& kb, const toml::table& doc, std::string_view file) {
    for_each_row(doc, file, "source", [&](const Row& r) {
      kb.sources_.push_back({r.str("id"), r.str_or("title"), r.str("url"), r.str_or("ref")});
    });
  }

  static void load_tensorflow(KnowledgeBase& kb, const toml::table& doc, std::string_view file) {
    for_each_row(doc, file, "release", [&](const Row& r) {
      TfRelease t;
      t.version = r.version("version");
      for (auto [key, platform] : {std::pair{"python_linux", Platform::kLinux},
                                   std::pair{"python_windows", Platform::kWindows},
                                   std::pair{"python_macos", Platform::kMacos}}) {
        if (!r.has(key)) continue;
        auto& list = t.python[platform];
        for (const auto& s : r.strings(key)) list.push_back(r.parse_version(s, key));
      }
      t.cuda = r.version("cuda");
      t.cudnn = r.version("cudnn");
      t.gpu_platforms = r.platforms("gpu_platforms");
      t.library_set = r.str("library_set");
      t.compute_capabilities = r.strings("compute_capabilities");
      for (const auto& c : t.compute_capabilities) r.parse_cc(c, "compute_capabilities");
      if (!t.compute_capabilities.empty()) {
        t.cc_prov = r.prov("cc_source", "cc_verified");
        t.cc_note = r.str_or("cc_note");
      }
      t.notes = r.strings("notes");
      t.plan = r.boolean_or("plan", true);
      t.cudnn_minor_exact = r.boolean_or("cudnn_minor_exact", false);
      t.avx = r.boolean_or("avx", true);
      if (r.has("avx") || r.has("windows_missing_cuda_dll")) t.import_prov = r.prov("import_source", "import_verified");
      if (r.has("windows_missing_cuda_dll")) {
        using M = TfRelease::MissingDll;
        const std::string how = r.str("windows_missing_cuda_dll");
        if (how == "dll_load_failed")
          t.windows_missing_cuda_dll = M::kDllLoadFailed;
        else if (how == "named_at_import")
          t.windows_missing_cuda_dll = M::kNamedAtImport;
        else if (how == "logged_at_run_time")
          t.windows_missing_cuda_dll = M::kLoggedAtRunTime;
        else
          fail_load(
              fmt::format("{}: 'windows_missing_cuda_dll' is '{}': expected dll_load_failed, named_at_import or "
                          "logged_at_run_time",
                          r.where(), how));
      }
      t.prov = r.prov();
      kb.tf_.push_back(std::move(t));
    });
    for_each_row(doc, file, "yanked", [&](const Row& r) {
      kb.yanked_.push_back({r.version("version"), r.version("use"), r.str_or("note"), r.prov()});
    });
    for_each_row(doc, file, "library_set", [&](const Row& r) {
      LibrarySet s;
      s.id = r.str("id");
      s.must_load = r.strings("must_load");
      s.must_load_verified = r.boolean_or("must_load_verified", true);
      s.linked = r.boolean_or("linked", false);
      // Every release loads the driver first; a set says so explicitly or gets it.
      s.platform_init = r.has("platform_init") ? r.strings("platform_init") : std::vector<std::string>{"driver"};
      if (const toml::array* ds = r.array("derivation")) {
        for (const auto& e : *ds) {
          const toml::table* t = e.as_table();
          if (!t) fail_load(fmt::format("{}: derivation must be tables ([[library_set.derivation]])", r.where()));
          Row d(*t, r.where() + " derivation");
          s.derivations.push_back({d.version("tf"), d.str("method"), d.str_or("what"), d.str("how")});
        }
      }
      for (auto [key, platform] : {std::pair{"linux", Platform::kLinux}, std::pair{"windows", Platform::kWindows},
                                   std::pair{"macos", Platform::kMacos}}) {
        auto names = r.library_names(key);
        if (!names.empty()) s.names[platform] = std::move(names);
      }
      s.notes = r.strings("notes");
      s.prov = r.prov();
      kb.library_sets_.push_back(std::move(s));
    });
    for_each_row(doc, file, "package", [&](const Row& r) {
      kb.packages_.push_back(
          {r.str("name"), r.range("tf"), r.platforms("platforms"), r.str("role"), r.str_or("note"), r.prov()});
    });
    for_each_row(doc, file, "and_cuda", [&](const Row& r) {
      kb.and_cuda_.push_back({r.range("tf"), r.platforms("platforms"), r.strings("wheels"), r.str_or("note"), r.prov()});
    });
    for_each_row(doc, file, "pip_constraint", [&](const Row& r) {
      kb.pip_constraints_.push_back({r.range("tf"), r.platforms("platforms"), r.str("requirement"), r.str("why"), r.prov()});
    });
    for_each_row(doc, file, "tensorrt", [&](const Row& r) {
      kb.tensorrt_.push_back({r.range("tf"), r.platforms("platforms"), r.strings("files"), r.str("warning"), r.prov()});
    });
    for_each_row(doc, file, "platform_note", [&](const Row& r) {
      kb.platform_notes_.push_back(
          {r.platform(r.str("platform")), r.range("tf"), r.str("message"), r.strings("alternatives"), r.prov()});
    });
    for_each_row(doc, file, "tfjs_node", [&](const Row& r) {
      kb.tfjs_node_.push_back({r.range("tfjs"), r.version("libtensorflow"), r.prov()});
    });
  }

  static void load_cuda(KnowledgeBase& kb, const toml::table& doc, std::string_view file) {
    for_each_row(doc, file, "wsl2_driver", [&](const Row& r) {
      kb.wsl2_drivers_.push_back({static_cast<int>(r.integer("major")), r.version("driver"), r.str_or("note"), r.prov()});
    });
    for_each_row(doc, file, "family", [&](const Row& r) {
      CudaFamily f;
      f.major = static_cast<int>(r.integer("major"));
      f.minor_version_compat = r.boolean_or("minor_version_compat", false);
      f.driver_linux = r.version_opt("driver_linux");
      f.driver_windows = r.version_opt("driver_windows");
      f.driver_branch_below = r.version_opt("driver_branch_below");
      f.note = r.str_or("note");
      f.prov = r.prov();
      kb.families_.push_back(std::move(f));
    });
    for_each_row(doc, file, "release", [&](const Row& r) {
      CudaRelease c;
      c.version = r.version("version");
      c.ga = r.version("ga");
      c.driver_linux = r.version("driver_linux");
      c.driver_windows = r.version_opt("driver_windows");
      if (const toml::array* ups = r.array("updates")) {
        for (const auto& e : *ups) {
          const toml::table* t = e.as_table();
          if (!t) fail_load(fmt::format("{}: updates must be inline tables", r.where()));
          Row u(*t, r.where() + " update");
          c.updates.push_back({u.str("label"), u.version("driver_linux"), u.version_opt("driver_windows")});
        }
      }
      c.sass_min = r.cc("sass_min");
      c.sass_max = r.cc("sass_max");
      for (const auto& d : r.strings("dropped")) c.dropped.push_back(r.parse_cc(d, "dropped"));
      c.cc_prov = r.prov("cc_source", "cc_verified");
      c.cc_note = r.str_or("cc_note");
      for (auto [key, platform] : {std::pair{"linux", Platform::kLinux}, std::pair{"windows", Platform::kWindows}}) {
        auto names = r.library_names(key);
        if (!names.empty()) c.libraries[platform] = std::move(names);
      }
      if (!c.libraries.empty()) c.lib_prov = r.prov("lib_source", "lib_verified");
      c.notes = r.strings("notes");
      c.prov = r.prov();
      kb.cuda_.push_back(std::move(c));
    });
  }

  static void load_cudnn(KnowledgeBase& kb, const toml::table& doc, std::string_view file) {
    for_each_row(doc, file, "major", [&](const Row& r) {
      CudnnMajor m;
      m.major = static_cast<int>(r.integer("major"));
      m.header = r.str("header");
      m.version_multiplier = static_cast<int>(r.integer("version_multiplier"));
      m.libraries[Platform::kLinux] = r.strings("linux");
      m.libraries[Platform::kWindows] = r.strings("windows");
      m.note = r.str_or("note");
      m.prov = r.prov();
      kb.cudnn_majors_.push_back(std::move(m));
    });
    for_each_row(doc, file, "release", [&](const Row& r) {
      CudnnRelease c;
      c.version = r.version("version");
      for (const auto& s : r.strings("cuda")) c.cuda.push_back(r.parse_range(s, "cuda"));
      if (r.has("min_cc")) c.min_cc = r.cc("min_cc");
      c.windows_zlibwapi = parse_tristate(r, "windows_zlibwapi");
      c.note = r.str_or("note");
      c.prov = r.prov();
      kb.cudnn_.push_back(std::move(c));
    });
  }

  static void load_gpus(KnowledgeBase& kb, const toml::table& doc, std::string_view file) {
    for_each_row(doc, file, "architecture", [&](const Row& r) {
      kb.architectures_.push_back({r.range("cc"), r.str("name"), r.prov()});
    });
    for_each_row(doc, file, "gpu", [&](const Row& r) {
      Gpu g;
      g.pci_id = to_lower(r.str("pci_id"));
      auto colon = g.pci_id.find(':');
      if (colon == std::string::npos) fail_load(fmt::format("{}: pci_id must be vendor:device", r.where()));
      auto vendor = parse_hex16(std::string_view(g.pci_id).substr(0, colon));
      auto device = parse_hex16(std::string_view(g.pci_id).substr(colon + 1));
      if (!vendor || !device) fail_load(fmt::format("{}: pci_id must be two 4-digit hex ids", r.where()));
      g.vendor = *vendor;
      g.device = *device;
      g.chip = r.str_or("chip");
      g.name = r.str("name");
      g.cc = r.cc("compute_capability");
      g.memory_gb = r.number("memory_gb");
      if (r.has("tensor_cores")) g.tensor_cores = r.boolean_or("tensor_cores", true);
      g.note = r.str_or("note");
      if (const toml::table* p = r.table("peak")) {
        Row pr(*p, r.where() + " peak");
        GpuPeak peak;
        peak.fp32_tflops = pr.number("fp32_tflops");
        peak.tf32_tflops = pr.number("tf32_tflops");
        peak.fp16_tflops = pr.number("fp16_tflops");
        peak.bf16_tflops = pr.number("bf16_tflops");
        peak.fp8_tflops = pr.number("fp8_tflops");
        peak.bandwidth_gbs = pr.number("bandwidth_gbs");
        peak.note = pr.str_or("note");
        peak.prov = pr.prov();
        g.peak = std::move(peak);
      }
      g.prov = r.prov();
      kb.gpus_.push_back(std::move(g));
    });
    for_each_row(doc, file, "tensor_core_math", [&](const Row& r) {
      kb.tensor_core_math_.push_back({r.str("feature"), r.cc("min_cc"), r.str_or("note"), r.prov()});
    });
  }

  static void sort_tables(KnowledgeBase& kb) {
    auto by_version = [](const auto& a, const auto& b) { return a.version < b.version; };
    std::stable_sort(kb.tf_.begin(), kb.tf_.end(), by_version);
    std::stable_sort(kb.cuda_.begin(), kb.cuda_.end(), by_version);
    std::stable_sort(kb.cudnn_.begin(), kb.cudnn_.end(), by_version);
    std::stable_sort(kb.families_.begin(), kb.families_.end(),
                     [](const CudaFamily& a, const CudaFamily& b) { return a.major < b.major; });
    std::stable_sort(kb.gpus_.begin(), kb.gpus_.end(), [](const Gpu& a, const Gpu& b) {
      return std::pair(a.vendor, a.device) < std::pair(b.vendor, b.device);
    });
  }
};

Result<KnowledgeBase> load_texts(std::span<const EmbeddedFile> files) {
  KnowledgeBase kb;
  bool any = false;
  try {
    for (const auto& f : files) {
      std::string_view name = f.name;
      if (auto slash = name.find_last_of("/\\"); slash != std::string_view::npos) name.remove_prefix(slash + 1);
      using LoadFn = void (*)(KnowledgeBase&, const toml::table&, std::string_view);
      LoadFn fn = nullptr;
      if (name == "sources.toml") fn = &KbLoader::load_sources;
      else if (name == "tensorflow.toml") fn = &KbLoader::load_tensorflow;
      else if (name == "cuda.toml") fn = &KbLoader::load_cuda;
      else if (name == "cudnn.toml") fn = &KbLoader::load_cudnn;
      else if (name == "gpus.toml") fn = &KbLoader::load_gpus;
      if (!fn) continue;  // another slice's table (log signatures, ...)
      toml::table doc;
      // toml++ 3.3.0 crashes on some shapes of input: checked first (util/toml_guard.h).
      if (auto guarded = guard_toml(f.text, name); !guarded) return fail(guarded.error());
      try {
        doc = toml::parse(f.text, std::string(name));
      } catch (const toml::parse_error& e) {
        const auto& b = e.source().begin;
        return fail(Error::input(fmt::format("{}:{}:{}: {}", name, b.line, b.column, e.description())));
      }
      fn(kb, doc, name);
      any = true;
    }
  } catch (const LoadError& e) {
    return fail(Error::input(e.message));
  }
  if (!any || kb.tf_releases().empty())
    return fail(Error::input("knowledge base has no tensorflow.toml release rows"));
  KbLoader::sort_tables(kb);
  return kb;
}

Result<KnowledgeBase> load_embedded() {
  // The tables compiled at build time (kb_blob.h); the TOML only where the build had none.
  if (std::string_view blob = embedded_kb_blob(); !blob.empty()) {
    auto kb = deserialize_kb(blob);
    if (!kb) return fail(Error::internal("built-in knowledge base: " + kb.error().message));
    return kb;
  }
  auto kb = load_texts(embedded_kb_files());
  if (!kb) return fail(Error::internal("built-in knowledge base: " + kb.error().message));
  return kb;
}

Result<KnowledgeBase> load_directory(const Host& host, const std::string& dir) {
  auto entries = host.list_dir(dir);
  if (!entries) return fail(Error::input(fmt::format("--kb {}: {}", dir, entries.error().message)));
  std::vector<std::pair<std::string, std::string>> texts;
  for (const auto& e : *entries) {
    if (!ends_with(e.name, ".toml")) continue;
    std::string path = dir + "/" + e.name;
    auto text = host.read_file(path, 8u << 20);
    if (!text) return fail(Error::input(fmt::format("--kb {}: {}", dir, text.error().message)));
    texts.emplace_back(e.name, std::move(*text));
  }
  std::sort(texts.begin(), texts.end());
  // Every file the built-in copy has must be there: a missing one is an error naming it,
  // not a knowledge base silently missing its tables.
  for (const auto& e : embedded_kb_files()) {
    bool present = std::any_of(texts.begin(), texts.end(), [&](const auto& t) { return t.first == e.name; });
    if (!present) {
      std::vector<std::string> names;
      for (const auto& n : embedded_kb_files()) names.emplace_back(n.name);
      return fail(Error::input(fmt::format("--kb {}: {}/{} is missing (a knowledge base directory holds {})", dir, dir,
                                           e.name, join(names, ", "))));
    }
  }
  std::vector<EmbeddedFile> files;
  for (const auto& [name, text] : texts) files.push_back({name, text});
  auto kb = load_texts(files);
  if (!kb) return fail(Error::input(fmt::format("--kb {}: {}", dir, kb.error().message)));
  return kb;
}

Result<KnowledgeBase> load_for_command(const Host& host, const std::string& kb_dir) {
  if (kb_dir.empty()) return load_embedded();
  return load_directory(host, kb_dir);
}

}  // namespace tfgpu::kb
