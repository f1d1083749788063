// Queries over the knowledge base. The rules that turn facts into answers (which row a
// version maps to, SASS vs PTX, toolkit vs minor-version driver minimums) live here;
// the facts themselves live in kb/*.toml.
#include "kb/kb.h"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "util/strings.h"

namespace tfgpu::kb {

namespace {

std::string versions_text(const std::vector<std::string>& v) { return join(v, ", "); }

std::string normalize_gpu_name(std::string_view text) {
  std::string lower = to_lower(text);
  std::string out;
  for (char c : lower) {
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) out += c;
    else out += ' ';
  }
  // Vendor and brand words carry no information for matching ("NVIDIA GeForce RTX
  // 3060" and "RTX 3060" are the same part).
  std::vector<std::string> words;
  for (auto& w : split_nonempty(out, ' '))
    if (w != "nvidia" && w != "geforce" && w != "corporation") words.push_back(w);
  return join(words, " ");
}

}  // namespace

Result<Platform> parse_platform(std::string_view text) {
  std::string s = to_lower(trim(text));
  if (s == "linux" || s == "wsl" || s == "wsl2") return Platform::kLinux;
  if (s == "windows" || s == "win" || s == "win32" || s == "win64") return Platform::kWindows;
  if (s == "macos" || s == "mac" || s == "darwin" || s == "osx") return Platform::kMacos;
  return fail(Error::usage(fmt::format("unknown OS '{}' (expected linux, windows or macos)", text)));
}

Result<ComputeCapability> ComputeCapability::parse(std::string_view text) {
  std::string_view s = trim(text);
  for (std::string_view prefix : {"sm_", "compute_"}) {
    if (starts_with(s, prefix)) {
      s.remove_prefix(prefix.size());
      // "sm_86" / "compute_90": last digit is the minor ("sm_100" = 10.0, "sm_120" = 12.0).
      if (s.size() < 2 || s.size() > 3 || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return fail(Error::input(fmt::format("'{}' is not a compute capability", text)));
      int value = 0;
      std::from_chars(s.data(), s.data() + s.size(), value);
      return ComputeCapability{value / 10, value % 10};
    }
  }
  auto v = Version::parse(s);
  if (!v || v->size() > 2 || s.find_first_not_of("0123456789.") != std::string_view::npos)
    return fail(Error::input(fmt::format("'{}' is not a compute capability (expected e.g. 8.6)", text)));
  if (v->size() == 1) {
    // "86" -> 8.6, as nvcc and CMake spell it.
    int n = v->major();
    if (n < 10 || n > 199) return fail(Error::input(fmt::format("'{}' is not a compute capability (expected e.g. 8.6)", text)));
    return ComputeCapability{n / 10, n % 10};
  }
  return ComputeCapability{v->major(), v->minor()};
}

std::string driver_version_str(const Version& v) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += i == 0 ? std::to_string(v.component(0)) : fmt::format(".{:02d}", v.component(i));
  return out;
}

std::string ComputeCapability::str() const { return fmt::format("{}.{}", major, minor); }

std::string_view to_string(CcSupport s) {
  switch (s) {
    case CcSupport::kNative: return "native";
    case CcSupport::kPtxJit: return "ptx_jit";
    case CcSupport::kIgnored: return "ignored";
    case CcSupport::kUnknown: break;
  }
  return "unknown";
}

bool TfRelease::has_gpu_build(Platform p) const {
  return std::find(gpu_platforms.begin(), gpu_platforms.end(), p) != gpu_platforms.end();
}

const std::vector<Version>* TfRelease::python_on(Platform p) const {
  auto it = python.find(p);
  return it == python.end() ? nullptr : &it->second;
}

bool stated_version_names(const Version& built, const Version& stated) {
  return built.matches_prefix(stated) || (stated.size() >= 2 && built.truncated(2) == stated.truncated(2));
}

bool TfRelease::loads_cudnn(const Version& installed) const {
  if (cudnn.empty() || installed.empty() || installed.major() != cudnn.major()) return false;
  if (cudnn_minor_exact) return installed.truncated(2) == cudnn.truncated(2);
  return !(installed.truncated(2) < cudnn.truncated(2));
}

std::optional<std::string> TfLibraries::file_of(std::string_view component) const {
  for (const auto& l : libraries)
    if (l.component == component) return l.file;
  return std::nullopt;
}

std::optional<std::string> CudaRelease::library(Platform p, std::string_view component) const {
  auto it = libraries.find(p);
  if (it == libraries.end()) return std::nullopt;
  for (const auto& l : it->second)
    if (l.component == component) return l.file;
  return std::nullopt;
}

bool CudaRelease::ships(Platform p, std::string_view file) const {
  auto it = libraries.find(p);
  return it != libraries.end() &&
         std::any_of(it->second.begin(), it->second.end(), [&](const LibraryName& l) { return iequals(l.file, file); });
}

bool CudnnRelease::supports_cuda(const Version& cuda_version) const {
  Version mm = cuda_version.truncated(2);
  return std::any_of(cuda.begin(), cuda.end(), [&](const VersionRange& r) { return r.contains(mm); });
}

std::vector<std::string> nearest_versions(const Version& wanted, const std::vector<Version>& known, size_t n) {
  // The known neighbours on each side of `wanted` in sorted order (2.22 -> 2.21, 2.20;
  // 11.9 -> 11.8, 12.0), closest first, then outward.
  std::vector<Version> sorted = known;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  auto hi = std::lower_bound(sorted.begin(), sorted.end(), wanted);
  auto lo = hi;
  std::vector<std::string> out;
  while (out.size() < n && (lo != sorted.begin() || hi != sorted.end())) {
    bool take_lo = lo != sorted.begin() && (hi == sorted.end() || out.size() % 2 == 0);
    if (take_lo) out.push_back((*--lo).str());
    else out.push_back((*hi++).str());
  }
  return out;
}

// ---- citations ---------------------------------------------------------------------

const Source* KnowledgeBase::source(std::string_view id) const {
  for (const auto& s : sources_)
    if (s.id == id) return &s;
  return nullptr;
}

std::string KnowledgeBase::resolve_source(std::string_view id_or_literal) const {
  if (const Source* s = source(id_or_literal)) return s->ref.empty() ? s->url : s->url + " (" + s->ref + ")";
  return std::string(id_or_literal);
}

namespace {
Citation make_cite(const KnowledgeBase& kb, std::string row, const Provenance& p) {
  Citation c{std::move(row), {}, p.verified};
  for (const auto& s : p.source) c.sources.push_back(kb.resolve_source(s));
  return c;
}
}  // namespace

Citation KnowledgeBase::cite(const TfRelease& r) const { return make_cite(*this, "tensorflow " + r.version.str(), r.prov); }
Citation KnowledgeBase::cite_cc(const TfRelease& r) const {
  return make_cite(*this, "tensorflow " + r.version.str() + " compute capabilities", r.cc_prov);
}
Citation KnowledgeBase::cite_import(const TfRelease& r) const {
  return make_cite(*this, "tensorflow " + r.version.str() + " import",
                   r.import_prov.source.empty() ? r.prov : r.import_prov);
}
Citation KnowledgeBase::cite(const YankedRelease& r) const {
  return make_cite(*this, "tensorflow " + r.version.str() + " (yanked)", r.prov);
}
Citation KnowledgeBase::cite(const LibrarySet& r) const { return make_cite(*this, "library set " + r.id, r.prov); }
Citation KnowledgeBase::cite(const TfPackage& r) const {
  return make_cite(*this, "package " + r.name + " " + r.tf.str(), r.prov);
}
Citation KnowledgeBase::cite(const AndCudaPins& r) const {
  return make_cite(*this, "tensorflow[and-cuda] " + r.tf.str(), r.prov);
}
Citation KnowledgeBase::cite(const TensorRtLoad& r) const {
  return make_cite(*this, "tensorflow " + r.tf.str() + " TensorRT libraries", r.prov);
}
Citation KnowledgeBase::cite(const PipConstraint& r) const {
  return make_cite(*this, fmt::format("pip constraint {} for tensorflow {}", r.requirement, r.tf.str()), r.prov);
}
Citation KnowledgeBase::cite(const Wsl2Driver& r) const {
  return make_cite(*this, fmt::format("cuda {} in WSL2: Windows driver", r.major), r.prov);
}
Citation KnowledgeBase::cite(const PlatformNote& r) const {
  return make_cite(*this, fmt::format("{} note for tensorflow {}", platform_name(r.platform), r.tf.str()), r.prov);
}
Citation KnowledgeBase::cite(const TfjsNodeRelease& r) const {
  return make_cite(*this, fmt::format("tfjs-node {} downloads libtensorflow {}", r.tfjs.str(), r.libtensorflow.str()),
                   r.prov);
}
Citation KnowledgeBase::cite(const CudaRelease& r) const { return make_cite(*this, "cuda " + r.version.str(), r.prov); }
Citation KnowledgeBase::cite_libraries(const CudaRelease& r) const {
  return make_cite(*this, "cuda " + r.version.str() + " library names", r.lib_prov);
}
Citation KnowledgeBase::cite_cc(const CudaRelease& r) const {
  return make_cite(*this, "cuda " + r.version.str() + " compute capabilities", r.cc_prov);
}
Citation KnowledgeBase::cite(const CudaFamily& r) const {
  return make_cite(*this, fmt::format("cuda {}.x family", r.major), r.prov);
}
Citation KnowledgeBase::cite(const CudnnMajor& r) const {
  return make_cite(*this, fmt::format("cudnn {}.x", r.major), r.prov);
}
Citation KnowledgeBase::cite(const CudnnRelease& r) const { return make_cite(*this, "cudnn " + r.version.str(), r.prov); }
Citation KnowledgeBase::cite(const Gpu& r) const { return make_cite(*this, "gpu " + r.pci_id + " " + r.name, r.prov); }
Citation KnowledgeBase::cite(const TensorCoreMath& r) const {
  return make_cite(*this, "tensor cores " + r.feature + " from compute capability " + r.min_cc.str(), r.prov);
}
const TensorCoreMath* KnowledgeBase::tensor_core_min(std::string_view feature) const {
  for (const auto& t : tensor_core_math_)
    if (t.feature == feature) return &t;
  return nullptr;
}
Citation KnowledgeBase::cite_peak(const Gpu& r) const {
  static const Provenance kNone{};
  return make_cite(*this, "gpu " + r.pci_id + " " + r.name + " peak", r.peak ? r.peak->prov : kNone);
}

// ---- TensorFlow ----------------------------------------------------------------------

const TfRelease* KnowledgeBase::find_tf(const Version& version) const {
  for (const auto& y : yanked_)
    if (y.version == version) return find_tf(y.use);
  // The newest row of the series at or below the asked patch; the series' first row
  // when the patch is older than every row (2.10.0 asked, 2.10.1 is the row).
  const TfRelease* best = nullptr;
  const TfRelease* first = nullptr;
  for (const auto& r : tf_) {
    if (r.series() != version.truncated(2) || version.size() < 2) continue;
    if (!first) first = &r;
    if (version.size() < 3 || r.version <= version) best = &r;
  }
  return best ? best : first;
}

Result<TfLookup> KnowledgeBase::find_tf(std::string_view text) const {
  auto v = Version::parse(text);
  if (!v || v->size() < 2)
    return fail(Error::input(fmt::format("malformed TensorFlow version '{}' (expected major.minor, e.g. 2.10)", text)));
  TfLookup out;
  for (const auto& y : yanked_) {
    if (y.version == *v) {
      out.note = y.note;
      out.cites.push_back(cite(y));
    }
  }
  out.release = find_tf(*v);
  if (!out.release) {
    std::vector<Version> known;
    for (const auto& r : tf_) known.push_back(r.series());
    return fail(Error::not_found(fmt::format("unknown TensorFlow version {} (did you mean {}?)", v->str(),
                                             versions_text(nearest_versions(*v, known)))));
  }
  if (out.note.empty() && v->size() >= 3 && *v != out.release->version)
    out.note = fmt::format("TensorFlow {} uses the {} row (facts are per minor release)", v->str(),
                           out.release->version.str());
  out.cites.push_back(cite(*out.release));
  return out;
}

const LibrarySet* KnowledgeBase::library_set(std::string_view id) const {
  for (const auto& s : library_sets_)
    if (s.id == id) return &s;
  return nullptr;
}

const PlatformNote* KnowledgeBase::platform_note(const TfRelease& tf, Platform p) const {
  for (const auto& n : platform_notes_)
    if (n.platform == p && n.tf.contains(tf.version)) return &n;
  return nullptr;
}

const TfjsNodeRelease* KnowledgeBase::find_tfjs_node(const Version& tfjs) const {
  for (const auto& r : tfjs_node_)
    if (r.tfjs.contains(tfjs)) return &r;
  return nullptr;
}

const TfRelease* KnowledgeBase::first_avx_release() const {
  bool before = false;
  for (const auto& r : tf_) {
    if (!r.avx)
      before = true;
    else if (before)
      return &r;
  }
  return nullptr;
}

const CudaRelease* KnowledgeBase::first_cuda_building_for(const ComputeCapability& cc) const {
  const CudaRelease* first = nullptr;
  for (const auto& c : cuda_)
    if (c.sass_max.major != 0 && !(c.sass_max < cc) && (!first || c.version < first->version)) first = &c;
  return first;
}

std::vector<const TfRelease*> KnowledgeBase::releases_opening(std::string_view file, Platform p) const {
  std::vector<const TfRelease*> out;
  for (const auto& r : tf_)
    if (r.has_gpu_build(p))
      for (const auto& l : tf_libraries(r, p).libraries)
        if (iequals(l.file, file)) {
          out.push_back(&r);
          break;
        }
  return out;
}

TfLibraries KnowledgeBase::tf_libraries(const TfRelease& tf, Platform p) const {
  TfLibraries out;
  out.platform = p;
  out.cites.push_back(cite(tf));
  if (!tf.has_gpu_build(p)) {
    if (const PlatformNote* n = platform_note(tf, p)) {
      out.notes.push_back(n->message);
      out.cites.push_back(cite(*n));
    }
    return out;
  }
  const LibrarySet* set = library_set(tf.library_set);
  if (!set) return out;  // caught by the KB tests (EveryLibrarySetNamedByTfExists)
  auto it = set->names.find(p);
  if (it == set->names.end()) return out;
  out.gpu_build = true;
  out.must_load_verified = set->must_load_verified;
  out.linked = set->linked;
  for (const auto& n : it->second) {
    bool must = std::find(set->must_load.begin(), set->must_load.end(), n.component) != set->must_load.end();
    bool init = std::find(set->platform_init.begin(), set->platform_init.end(), n.component) != set->platform_init.end();
    out.libraries.push_back({n.component, n.file, must, init});
  }
  out.notes = set->notes;
  out.cites.push_back(cite(*set));
  for (const auto& t : tensorrt_) {
    if (!t.tf.contains(tf.version) || std::find(t.platforms.begin(), t.platforms.end(), p) == t.platforms.end())
      continue;
    for (const auto& f : t.files) out.optional.push_back({"tensorrt", f, false, false});
    out.optional_warning = t.warning;
    out.optional_cites.push_back(cite(t));
    break;
  }
  return out;
}

std::vector<const TfPackage*> KnowledgeBase::packages_for(const TfRelease& tf, Platform p) const {
  std::vector<const TfPackage*> out;
  for (const auto& pkg : packages_) {
    if (!pkg.tf.contains(tf.version)) continue;
    if (std::find(pkg.platforms.begin(), pkg.platforms.end(), p) == pkg.platforms.end()) continue;
    out.push_back(&pkg);
  }
  return out;
}

const TfPackage* KnowledgeBase::gpu_package(const TfRelease& tf, Platform p) const {
  for (const TfPackage* pkg : packages_for(tf, p))
    if (pkg->role == "gpu") return pkg;
  return nullptr;
}

bool KnowledgeBase::plain_tensorflow_cpu_only(const TfRelease& tf) const {
  for (const TfPackage* pkg : packages_for(tf, Platform::kLinux))
    if (pkg->name == "tensorflow" && pkg->role == "cpu") return true;
  return false;
}

const AndCudaPins* KnowledgeBase::and_cuda_for(const TfRelease& tf) const {
  for (const auto& a : and_cuda_)
    if (a.tf.contains(tf.version)) return &a;
  return nullptr;
}

std::vector<const PipConstraint*> KnowledgeBase::pip_constraints_for(const TfRelease& tf, Platform platform) const {
  std::vector<const PipConstraint*> out;
  for (const auto& c : pip_constraints_)
    if (c.tf.contains(tf.version) && std::find(c.platforms.begin(), c.platforms.end(), platform) != c.platforms.end())
      out.push_back(&c);
  return out;
}

// ---- CUDA ------------------------------------------------------------------------------

const Wsl2Driver* KnowledgeBase::wsl2_driver(const Version& cuda) const {
  if (cuda.size() < 1) return nullptr;
  for (const auto& w : wsl2_drivers_)
    if (w.major == cuda.major()) return &w;
  return nullptr;
}

const CudaRelease* KnowledgeBase::find_cuda(const Version& version) const {
  if (version.size() < 2) return nullptr;
  for (const auto& r : cuda_)
    if (r.version == version.truncated(2)) return &r;
  return nullptr;
}

Result<const CudaRelease*> KnowledgeBase::find_cuda(std::string_view text) const {
  auto v = Version::parse(text);
  if (!v || v->size() < 2)
    return fail(Error::input(fmt::format("malformed CUDA version '{}' (expected major.minor, e.g. 11.8)", text)));
  if (const CudaRelease* r = find_cuda(*v)) return r;
  std::vector<Version> known;
  for (const auto& r : cuda_) known.push_back(r.version);
  return fail(Error::not_found(fmt::format("unknown CUDA version {} (did you mean {}?)", v->truncated(2).str(),
                                           versions_text(nearest_versions(*v, known)))));
}

const CudaFamily* KnowledgeBase::cuda_family(int major) const {
  for (const auto& f : families_)
    if (f.major == major) return &f;
  return nullptr;
}

Result<DriverRequirement> KnowledgeBase::min_driver(const Version& cuda, Platform p, DriverPolicy policy) const {
  if (p == Platform::kMacos) return fail(Error::input("there is no NVIDIA CUDA driver for macOS in the knowledge base"));
  const CudaRelease* r = find_cuda(cuda);
  if (!r) return fail(Error::not_found(fmt::format("unknown CUDA version {}", cuda.str())));
  DriverRequirement out;
  out.cuda = r->version;
  out.platform = p;
  out.policy = policy;
  const CudaFamily* fam = cuda_family(r->version.major());
  if (policy == DriverPolicy::kMinorVersionCompat && fam && fam->minor_version_compat) {
    const auto& d = p == Platform::kWindows ? fam->driver_windows : fam->driver_linux;
    const auto& own = p == Platform::kWindows ? r->driver_windows : std::optional<Version>(r->driver_linux);
    // CUDA 11.0 shipped with a driver older than the 11.x family minimum (450.51.05 <
    // 450.80.02): its own driver still runs it.
    if (d && !(own && *own < *d)) {
      out.min_driver = *d;
      out.basis = fmt::format("any CUDA {}.x application via minor-version compatibility", fam->major);
      out.cites.push_back(cite(*fam));
      return out;
    }
  }
  // Toolkit-exact (or a family without minor-version compatibility, CUDA <= 10.2).
  const auto& exact = p == Platform::kWindows ? r->driver_windows : std::optional<Version>(r->driver_linux);
  if (exact) {
    out.min_driver = *exact;
    out.basis = fmt::format("driver bundled with CUDA {}", r->ga.str());
    out.policy = DriverPolicy::kToolkitExact;
    out.cites.push_back(cite(*r));
    return out;
  }
  // CUDA 13.x on Windows: no bundled driver, only the family minimum.
  if (fam && fam->driver_windows) {
    out.min_driver = *fam->driver_windows;
    out.basis = fmt::format("no Windows driver bundled with CUDA {}; family minimum", r->version.str());
    out.policy = DriverPolicy::kMinorVersionCompat;
    out.cites.push_back(cite(*r));
    out.cites.push_back(cite(*fam));
    return out;
  }
  return fail(Error::not_found(fmt::format("no {} driver minimum recorded for CUDA {}", platform_name(p), r->version.str())));
}

DriverCapability KnowledgeBase::newest_cuda_for_driver(const Version& driver, Platform p) const {
  DriverCapability out;
  out.driver = driver;
  out.platform = p;
  if (p == Platform::kMacos) return out;
  const CudaRelease* exact_row = nullptr;
  const CudaRelease* compat_row = nullptr;
  for (const auto& r : cuda_) {  // sorted ascending: the last hit is the newest
    auto exact = min_driver(r.version, p, DriverPolicy::kToolkitExact);
    if (exact && exact->policy == DriverPolicy::kToolkitExact && exact->min_driver <= driver) exact_row = &r;
    auto compat = min_driver(r.version, p, DriverPolicy::kMinorVersionCompat);
    if (compat && compat->min_driver <= driver) compat_row = &r;
  }
  if (exact_row) {
    out.newest_cuda_toolkit_exact = exact_row->version;
    out.cites.push_back(cite(*exact_row));
  }
  if (compat_row) {
    out.newest_cuda_minor_compat = compat_row->version;
    if (const CudaFamily* f = cuda_family(compat_row->version.major())) out.cites.push_back(cite(*f));
  }
  return out;
}

// ---- cuDNN -----------------------------------------------------------------------------

const CudnnRelease* KnowledgeBase::find_cudnn(const Version& version) const {
  if (version.size() < 2) return nullptr;
  const CudnnRelease* best = nullptr;
  const CudnnRelease* first = nullptr;
  for (const auto& r : cudnn_) {
    if (r.version.truncated(2) != version.truncated(2)) continue;
    if (!first) first = &r;
    if (version.size() < 3 || r.version <= version) best = &r;
  }
  return best ? best : first;
}

Result<const CudnnRelease*> KnowledgeBase::find_cudnn(std::string_view text) const {
  auto v = Version::parse(text);
  if (!v || v->size() < 2)
    return fail(Error::input(fmt::format("malformed cuDNN version '{}' (expected major.minor, e.g. 8.6)", text)));
  if (const CudnnRelease* r = find_cudnn(*v)) return r;
  std::vector<Version> known;
  for (const auto& r : cudnn_) known.push_back(r.version.truncated(2));
  return fail(Error::not_found(fmt::format("unknown cuDNN version {} (did you mean {}?)", v->truncated(2).str(),
                                           versions_text(nearest_versions(*v, known)))));
}

const CudnnMajor* KnowledgeBase::cudnn_major(int major) const {
  for (const auto& m : cudnn_majors_)
    if (m.major == major) return &m;
  return nullptr;
}

Result<Version> KnowledgeBase::decode_cudnn_version(long encoded) const {
  // Try the largest multiplier first: 90100 / 10000 = 9 is a cuDNN 9 value, while
  // 8907 / 10000 = 0 matches nothing and falls through to the x1000 rule.
  std::vector<const CudnnMajor*> majors;
  for (const auto& m : cudnn_majors_) majors.push_back(&m);
  std::sort(majors.begin(), majors.end(),
            [](const CudnnMajor* a, const CudnnMajor* b) { return a->version_multiplier > b->version_multiplier; });
  for (const CudnnMajor* m : majors) {
    if (encoded / m->version_multiplier != m->major) continue;
    long rest = encoded % m->version_multiplier;
    return Version({m->major, static_cast<int>(rest / 100), static_cast<int>(rest % 100)});
  }
  return fail(Error::input(fmt::format("{} is not a known CUDNN_VERSION encoding", encoded)));
}

// ---- GPUs ------------------------------------------------------------------------------

const Gpu* KnowledgeBase::find_gpu(uint16_t vendor, uint16_t device) const {
  for (const auto& g : gpus_)
    if (g.vendor == vendor && g.device == device) return &g;
  return nullptr;
}

Result<const Gpu*> KnowledgeBase::find_gpu_by_pci(std::string_view text) const {
  std::string s = to_lower(trim(text));
  uint16_t vendor = 0x10de;
  std::string device_text;
  if (auto ven = s.find("ven_"); ven != std::string::npos) {  // PCI\VEN_10DE&DEV_2504&...
    auto dev = s.find("dev_");
    if (dev == std::string::npos) return fail(Error::input(fmt::format("malformed PCI id '{}'", text)));
    auto v = std::string(s.substr(ven + 4, 4));
    auto parsed = std::string_view(v).find_first_not_of("0123456789abcdef") == std::string_view::npos;
    if (!parsed) return fail(Error::input(fmt::format("malformed PCI id '{}'", text)));
    vendor = static_cast<uint16_t>(std::stoul(v, nullptr, 16));
    device_text = s.substr(dev + 4, 4);
  } else if (auto colon = s.find(':'); colon != std::string::npos) {
    std::string v = s.substr(0, colon);
    if (starts_with(v, "0x")) v = v.substr(2);
    if (v.empty() || v.size() > 4 || v.find_first_not_of("0123456789abcdef") != std::string::npos)
      return fail(Error::input(fmt::format("malformed PCI id '{}' (expected e.g. 10de:2504)", text)));
    vendor = static_cast<uint16_t>(std::stoul(v, nullptr, 16));
    device_text = s.substr(colon + 1);
  } else {
    device_text = s;
  }
  if (starts_with(device_text, "0x")) device_text = device_text.substr(2);
  if (device_text.empty() || device_text.size() > 4 ||
      device_text.find_first_not_of("0123456789abcdef") != std::string::npos)
    return fail(Error::input(fmt::format("malformed PCI id '{}' (expected e.g. 10de:2504)", text)));
  auto device = static_cast<uint16_t>(std::stoul(device_text, nullptr, 16));
  if (const Gpu* g = find_gpu(vendor, device)) return g;
  return fail(Error::not_found(fmt::format("PCI id {:04x}:{:04x} is not in the knowledge base", vendor, device)));
}

Result<std::vector<const Gpu*>> KnowledgeBase::find_gpus(std::string_view text) const {
  std::string lower = to_lower(text);
  if (lower.find(':') != std::string::npos || lower.find("ven_") != std::string::npos || starts_with(lower, "0x")) {
    auto g = find_gpu_by_pci(text);
    if (!g) return fail(g.error());
    return std::vector<const Gpu*>{*g};
  }
  auto named = find_gpus_by_name(text);
  if (named) return named;
  if (auto g = find_gpu_by_pci(text)) return std::vector<const Gpu*>{*g};
  return fail(named.error());
}

Result<std::vector<const Gpu*>> KnowledgeBase::find_gpus_by_name(std::string_view text) const {
  std::string wanted = normalize_gpu_name(text);
  if (wanted.empty()) return fail(Error::input(fmt::format("empty GPU name '{}'", text)));
  std::vector<const Gpu*> exact;
  std::vector<const Gpu*> partial;
  auto words = split_nonempty(wanted, ' ');
  for (const auto& g : gpus_) {
    std::string name = normalize_gpu_name(g.name);
    auto squeeze = [](std::string x) {
      x.erase(std::remove(x.begin(), x.end(), ' '), x.end());
      return x;
    };
    if (name == wanted || squeeze(name) == squeeze(wanted)) {  // "rtx3060" is "RTX 3060"
      exact.push_back(&g);
      continue;
    }
    auto name_words = split_nonempty(name, ' ');
    bool all = std::all_of(words.begin(), words.end(), [&](const std::string& w) {
      return std::find(name_words.begin(), name_words.end(), w) != name_words.end();
    });
    if (all) partial.push_back(&g);
  }
  if (!exact.empty()) return exact;
  if (!partial.empty()) {
    // Closest first: "3060" -> "GeForce RTX 3060" before "GeForce RTX 3060 Ti".
    std::stable_sort(partial.begin(), partial.end(),
                     [](const Gpu* a, const Gpu* b) { return a->name.size() < b->name.size(); });
    return partial;
  }
  // Nearest names by edit distance over the normalised names.
  std::vector<std::pair<size_t, std::string>> scored;
  for (const auto& g : gpus_) scored.emplace_back(edit_distance(wanted, normalize_gpu_name(g.name)), g.name);
  std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> names;
  for (const auto& [d, n] : scored) {
    if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
    if (names.size() == 2) break;
  }
  return fail(Error::not_found(
      fmt::format("unknown GPU '{}' (did you mean {}?)", text, join(names, ", "))));
}

std::string KnowledgeBase::architecture_name(ComputeCapability cc) const {
  Version v({cc.major, cc.minor});
  for (const auto& a : architectures_)
    if (a.cc.contains(v)) return a.name;
  return {};
}

CcSupportResult KnowledgeBase::tf_cc_support(const TfRelease& tf, ComputeCapability cc) const {
  CcSupportResult out;
  if (tf.compute_capabilities.empty()) {
    out.detail = fmt::format("compiled architectures of TensorFlow {} are not in the knowledge base", tf.version.str());
    return out;
  }
  out.cites.push_back(cite_cc(tf));
  std::optional<ComputeCapability> lowest;
  std::optional<ComputeCapability> native;   // sm_XY with X == major, Y <= minor
  std::optional<ComputeCapability> ptx;      // compute_XY <= cc
  for (const auto& entry : tf.compute_capabilities) {
    auto c = ComputeCapability::parse(entry);
    if (!c) continue;
    if (!lowest || *c < *lowest) lowest = *c;
    // SASS runs on GPUs of the same major with an equal or higher minor; PTX is
    // JIT-compiled by the driver for any equal or newer GPU.
    if (starts_with(entry, "sm_") && c->major == cc.major && c->minor <= cc.minor) native = *c;
    if (starts_with(entry, "compute_") && *c <= cc && (!ptx || *ptx < *c)) ptx = *c;
  }
  out.min_required = lowest;
  if (lowest && cc < *lowest) {
    out.support = CcSupport::kIgnored;
    out.detail = fmt::format("below the lowest compiled architecture {}: TensorFlow ignores the device", lowest->str());
  } else if (native) {
    out.support = CcSupport::kNative;
    out.detail = fmt::format("SASS for sm_{}{}", native->major, native->minor);
  } else if (ptx) {
    out.support = CcSupport::kPtxJit;
    out.detail = fmt::format("no SASS for {}.x: kernels JIT-compiled from compute_{}{} PTX on first use (slow start)",
                             cc.major, ptx->major, ptx->minor);
  } else {
    out.support = CcSupport::kIgnored;
    out.detail = "no SASS and no PTX usable for this architecture";
  }
  return out;
}

}  // namespace tfgpu::kb
