// kb/packaging.toml loader. Rows are checked field by field so that a typo in the
// table is a clear one-line error naming the row, never a silently empty plan.
#include "plan/packaging.h"

#include <fmt/format.h>

#include <toml++/toml.h>

#include "util/toml_guard.h"

namespace tfgpu::plan {
namespace {

struct RowError {
  std::string message;
};

class Row {
 public:
  Row(const toml::table& t, std::string_view file, std::string_view kind, size_t index)
      : t_(t), where_(fmt::format("{}: [[{}]] row {}", file, kind, index + 1)) {}

  std::string str(std::string_view key, bool required = true) const {
    const auto* node = t_.get(key);
    if (!node) {
      if (required) throw RowError{fmt::format("{}: missing '{}'", where_, key)};
      return {};
    }
    auto v = node->value<std::string>();
    if (!v) throw RowError{fmt::format("{}: '{}' must be a string", where_, key)};
    return *v;
  }
  std::vector<std::string> list(std::string_view key, bool required = true) const {
    std::vector<std::string> out;
    const auto* node = t_.get(key);
    if (!node) {
      if (required) throw RowError{fmt::format("{}: missing '{}'", where_, key)};
      return out;
    }
    const auto* arr = node->as_array();
    if (!arr) throw RowError{fmt::format("{}: '{}' must be an array of strings", where_, key)};
    for (const auto& e : *arr) {
      auto v = e.value<std::string>();
      if (!v) throw RowError{fmt::format("{}: '{}' must be an array of strings", where_, key)};
      out.push_back(*v);
    }
    return out;
  }
  Version version(std::string_view key) const {
    auto text = str(key);
    auto v = Version::parse(text);
    if (!v) throw RowError{fmt::format("{}: '{}' = '{}' is not a version", where_, key, text)};
    return *v;
  }
  VersionRange range(std::string_view key) const {
    auto text = str(key);
    auto r = VersionRange::parse(text);
    if (!r) throw RowError{fmt::format("{}: '{}' = '{}' is not a version range", where_, key, text)};
    return *r;
  }
  Platform platform(std::string_view key) const {
    auto text = str(key);
    if (text == "windows") return Platform::kWindows;
    if (text == "linux") return Platform::kLinux;
    throw RowError{fmt::format("{}: '{}' = '{}' must be windows or linux", where_, key, text)};
  }
  PackagingSource prov() const {
    PackagingSource p;
    p.source = list("source");
    if (p.source.empty()) throw RowError{fmt::format("{}: 'source' is empty", where_)};
    const auto* node = t_.get("verified");
    if (!node || !node->value<bool>()) throw RowError{fmt::format("{}: missing boolean 'verified'", where_)};
    p.verified = *node->value<bool>();
    return p;
  }

 private:
  const toml::table& t_;
  std::string where_;
};

template <typename Fn>
void each_row(const toml::table& doc, std::string_view file, std::string_view kind, Fn&& fn) {
  const auto* node = doc.get(kind);
  if (!node) return;
  const auto* arr = node->as_array();
  if (!arr) throw RowError{fmt::format("{}: '{}' must be an array of tables ([[{}]])", file, kind, kind)};
  for (size_t i = 0; i < arr->size(); ++i) {
    const auto* t = (*arr)[i].as_table();
    if (!t) throw RowError{fmt::format("{}: '{}' must be an array of tables ([[{}]])", file, kind, kind)};
    fn(Row(*t, file, kind, i));
  }
}

}  // namespace

const DockerImage* Packaging::docker_for(const Version& tf) const {
  for (const auto& d : docker_)
    if (d.tf.contains(tf)) return &d;
  return nullptr;
}

const CondaCuda* Packaging::conda_for(Platform p, const Version& cuda, const Version& cudnn) const {
  for (const auto& c : conda_)
    if (c.platform == p && c.cuda.truncated(2) == cuda.truncated(2) && c.cudnn.truncated(2) == cudnn.truncated(2))
      return &c;
  return nullptr;
}

const CudaInstaller* Packaging::installer_for(Platform p, const Version& cuda) const {
  for (const auto& i : installers_)
    if (i.platform == p && i.cuda.truncated(2) == cuda.truncated(2)) return &i;
  return nullptr;
}

const WindowsPath* Packaging::windows_path_for(const Version& tf) const {
  for (const auto& w : windows_paths_)
    if (w.tf.contains(tf)) return &w;
  return nullptr;
}

const AndCudaGap* Packaging::and_cuda_gap(const Version& tf, const Version& python) const {
  for (const auto& g : gaps_) {
    if (!g.tf.contains(tf)) continue;
    for (const auto& p : g.python)
      if (p.truncated(2) == python.truncated(2)) return &g;
  }
  return nullptr;
}

Result<Packaging> parse_packaging(std::string_view text, std::string_view name) {
  Packaging out;
  toml::table doc;
  // toml++ 3.3.0 crashes on some shapes of input: checked first (util/toml_guard.h).
  if (auto guarded = guard_toml(text, name); !guarded) return fail(guarded.error());
  try {
    doc = toml::parse(text, std::string(name));
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    return fail(Error::input(fmt::format("{}:{}:{}: {}", name, b.line, b.column, e.description())));
  }
  try {
    each_row(doc, name, "docker", [&](const Row& r) {
      out.docker_.push_back({r.range("tf"), r.str("image"), r.str("tag"), r.str("note", false), r.prov()});
    });
    each_row(doc, name, "conda", [&](const Row& r) {
      out.conda_.push_back({r.platform("platform"), r.version("cuda"), r.version("cudnn"), r.str("channel"),
                            r.list("packages"), r.str("note", false), r.prov()});
    });
    each_row(doc, name, "cuda_installer", [&](const Row& r) {
      out.installers_.push_back({r.version("cuda"), r.platform("platform"), r.str("file"), r.str("sha256", false), r.prov()});
    });
    each_row(doc, name, "windows_path", [&](const Row& r) {
      out.windows_paths_.push_back({r.range("tf"), r.list("entries"), r.str("cuda_root"), r.str("cudnn_root"),
                                    r.str("note", false), r.prov()});
    });
    each_row(doc, name, "and_cuda_gap", [&](const Row& r) {
      std::vector<Version> pys;
      for (const auto& t : r.list("python")) {
        auto v = Version::parse(t);
        if (!v) throw RowError{fmt::format("{}: [[and_cuda_gap]] python '{}' is not a version", name, t)};
        pys.push_back(*v);
      }
      out.gaps_.push_back({r.range("tf"), std::move(pys), r.str("wheel"), r.str("note", false), r.prov()});
    });
  } catch (const RowError& e) {
    return fail(Error::input(e.message));
  }
  return out;
}

Result<Packaging> load_packaging(std::span<const EmbeddedFile> files) {
  for (const auto& f : files)
    if (f.name == kPackagingFile) return parse_packaging(f.text, f.name);
  return fail(Error::internal(fmt::format("the built-in knowledge base has no {}", kPackagingFile)));
}

Result<Packaging> load_packaging(const Host& host, const std::string& kb_dir) {
  if (!kb_dir.empty()) {
    std::string path = kb_dir + "/" + std::string(kPackagingFile);
    if (host.is_file(path)) {
      auto text = host.read_file(path, 8u << 20);
      if (!text) return fail(Error::input(fmt::format("--kb {}: {}", kb_dir, text.error().message)));
      auto p = parse_packaging(*text, path);
      if (!p) return fail(Error::input(fmt::format("--kb {}: {}", kb_dir, p.error().message)));
      return p;
    }
    // Not the built-in copy instead: --kb DIR is the whole knowledge base.
    return fail(Error::input(fmt::format("--kb {}: {} is missing", kb_dir, path)));
  }
  return load_packaging(embedded_kb_files());
}

}  // namespace tfgpu::plan
