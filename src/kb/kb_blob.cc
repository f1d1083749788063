#include "kb/kb_blob.h"

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace tfgpu::kb {

namespace {

constexpr std::string_view kMagic = "TFGPUKB\x02";

// Writing: every io() overload takes a mutable reference so that one field list per row
// type (below) serves both directions; Out never changes what it is given.
struct Out {
  std::string bytes;
  void u32(uint32_t v) {
    for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  }
  void u64(uint64_t v) {
    for (int i = 0; i < 8; ++i) bytes.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  }
  void u8(uint8_t v) { bytes.push_back(static_cast<char>(v)); }
  void str(const std::string& s) {
    u32(static_cast<uint32_t>(s.size()));
    bytes += s;
  }
};

// Reading: bounds-checked; the first short read sets `bad` and every later read yields 0.
struct In {
  std::string_view bytes;
  size_t pos = 0;
  bool bad = false;
  bool need(size_t n) {
    if (bad || bytes.size() - pos < n) bad = true;
    return !bad;
  }
  uint64_t le(size_t n) {
    if (!need(n)) return 0;
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) v |= static_cast<uint64_t>(static_cast<unsigned char>(bytes[pos + i])) << (8 * i);
    pos += n;
    return v;
  }
  uint32_t u32() { return static_cast<uint32_t>(le(4)); }
  uint64_t u64() { return le(8); }
  uint8_t u8() { return static_cast<uint8_t>(le(1)); }
  // A count of elements that each take at least one byte: never more than what is left.
  uint32_t count() {
    uint32_t n = u32();
    if (n > bytes.size() - pos) bad = true;
    return bad ? 0 : n;
  }
  std::string str() {
    uint32_t n = u32();
    if (!need(n)) return {};
    std::string s(bytes.substr(pos, n));
    pos += n;
    return s;
  }
};

// ---- scalars and library types (declared before the templates that use them)
void io(Out& a, int& v) { a.u32(static_cast<uint32_t>(v)); }
void io(In& a, int& v) { v = static_cast<int>(a.u32()); }
void io(Out& a, bool& v) { a.u8(v ? 1 : 0); }
void io(In& a, bool& v) { v = a.u8() != 0; }
void io(Out& a, uint16_t& v) { a.u32(v); }
void io(In& a, uint16_t& v) { v = static_cast<uint16_t>(a.u32()); }
void io(Out& a, double& v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  a.u64(bits);
}
void io(In& a, double& v) {
  uint64_t bits = a.u64();
  std::memcpy(&v, &bits, sizeof v);
}
void io(Out& a, std::string& v) { a.str(v); }
void io(In& a, std::string& v) { v = a.str(); }
template <class E>
  requires std::is_enum_v<E>
void io(Out& a, E& v) {
  a.u32(static_cast<uint32_t>(v));
}
template <class E>
  requires std::is_enum_v<E>
void io(In& a, E& v) {
  v = static_cast<E>(a.u32());
}
void io(Out& a, Version& v);
void io(In& a, Version& v);
template <class Ar, class T>
void io(Ar& a, std::optional<T>& v);
template <class T>
void io(Out& a, std::vector<T>& v);
template <class T>
void io(In& a, std::vector<T>& v);
template <class K, class V>
void io(Out& a, std::map<K, V>& m);
template <class K, class V>
void io(In& a, std::map<K, V>& m);

// Every row type, declared before `fields` so that its calls find them all.
template <class Ar> void io(Ar& a, VersionRange& r);
template <class Ar> void io(Ar& a, ComputeCapability& r);
template <class Ar> void io(Ar& a, Provenance& r);
template <class Ar> void io(Ar& a, LibraryName& r);
template <class Ar> void io(Ar& a, LibrarySetDerivation& r);
template <class Ar> void io(Ar& a, LibrarySet& r);
template <class Ar> void io(Ar& a, TfRelease& r);
template <class Ar> void io(Ar& a, YankedRelease& r);
template <class Ar> void io(Ar& a, TfPackage& r);
template <class Ar> void io(Ar& a, AndCudaPins& r);
template <class Ar> void io(Ar& a, PipConstraint& r);
template <class Ar> void io(Ar& a, TensorRtLoad& r);
template <class Ar> void io(Ar& a, PlatformNote& r);
template <class Ar> void io(Ar& a, TfjsNodeRelease& r);
template <class Ar> void io(Ar& a, DriverUpdate& r);
template <class Ar> void io(Ar& a, CudaRelease& r);
template <class Ar> void io(Ar& a, CudaFamily& r);
template <class Ar> void io(Ar& a, Wsl2Driver& r);
template <class Ar> void io(Ar& a, CudnnMajor& r);
template <class Ar> void io(Ar& a, CudnnRelease& r);
template <class Ar> void io(Ar& a, GpuPeak& r);
template <class Ar> void io(Ar& a, Gpu& r);
template <class Ar> void io(Ar& a, Architecture& r);
template <class Ar> void io(Ar& a, TensorCoreMath& r);
template <class Ar> void io(Ar& a, Source& r);

template <class Ar, class... T>
void fields(Ar& a, T&... t) {
  (io(a, t), ...);
}

// ---- row types: one field list each, in declaration order (kb.h)
template <class Ar> void io(Ar& a, ComputeCapability& r) { fields(a, r.major, r.minor); }
template <class Ar> void io(Ar& a, Provenance& r) { fields(a, r.source, r.verified); }
template <class Ar> void io(Ar& a, LibraryName& r) { fields(a, r.component, r.file); }
template <class Ar> void io(Ar& a, LibrarySetDerivation& r) { fields(a, r.tf, r.method, r.what, r.how); }
template <class Ar> void io(Ar& a, LibrarySet& r) {
  fields(a, r.id, r.must_load, r.must_load_verified, r.platform_init, r.linked, r.derivations, r.names, r.notes, r.prov);
}
template <class Ar> void io(Ar& a, TfRelease& r) {
  fields(a, r.version, r.python, r.cuda, r.cudnn, r.gpu_platforms, r.library_set, r.compute_capabilities, r.cc_prov,
         r.cc_note, r.notes, r.plan, r.cudnn_minor_exact, r.avx, r.windows_missing_cuda_dll, r.import_prov, r.prov);
}
template <class Ar> void io(Ar& a, YankedRelease& r) { fields(a, r.version, r.use, r.note, r.prov); }
template <class Ar> void io(Ar& a, TfPackage& r) { fields(a, r.name, r.tf, r.platforms, r.role, r.note, r.prov); }
template <class Ar> void io(Ar& a, AndCudaPins& r) { fields(a, r.tf, r.platforms, r.wheels, r.note, r.prov); }
template <class Ar> void io(Ar& a, PipConstraint& r) { fields(a, r.tf, r.platforms, r.requirement, r.why, r.prov); }
template <class Ar> void io(Ar& a, TensorRtLoad& r) { fields(a, r.tf, r.platforms, r.files, r.warning, r.prov); }
template <class Ar> void io(Ar& a, PlatformNote& r) { fields(a, r.platform, r.tf, r.message, r.alternatives, r.prov); }
template <class Ar> void io(Ar& a, TfjsNodeRelease& r) { fields(a, r.tfjs, r.libtensorflow, r.prov); }
template <class Ar> void io(Ar& a, DriverUpdate& r) { fields(a, r.label, r.driver_linux, r.driver_windows); }
template <class Ar> void io(Ar& a, CudaRelease& r) {
  fields(a, r.version, r.ga, r.driver_linux, r.driver_windows, r.updates, r.sass_min, r.sass_max, r.dropped, r.cc_prov,
         r.cc_note, r.libraries, r.lib_prov, r.notes, r.prov);
}
template <class Ar> void io(Ar& a, CudaFamily& r) {
  fields(a, r.major, r.minor_version_compat, r.driver_linux, r.driver_windows, r.driver_branch_below, r.note, r.prov);
}
template <class Ar> void io(Ar& a, Wsl2Driver& r) { fields(a, r.major, r.driver, r.note, r.prov); }
template <class Ar> void io(Ar& a, CudnnMajor& r) {
  fields(a, r.major, r.header, r.version_multiplier, r.libraries, r.note, r.prov);
}
template <class Ar> void io(Ar& a, CudnnRelease& r) {
  fields(a, r.version, r.cuda, r.min_cc, r.windows_zlibwapi, r.note, r.prov);
}
template <class Ar> void io(Ar& a, GpuPeak& r) {
  fields(a, r.fp32_tflops, r.tf32_tflops, r.fp16_tflops, r.bf16_tflops, r.fp8_tflops, r.bandwidth_gbs, r.note, r.prov);
}
template <class Ar> void io(Ar& a, Gpu& r) {
  fields(a, r.vendor, r.device, r.pci_id, r.chip, r.name, r.cc, r.memory_gb, r.tensor_cores, r.note, r.peak, r.prov);
}
template <class Ar> void io(Ar& a, Architecture& r) { fields(a, r.cc, r.name, r.prov); }
template <class Ar> void io(Ar& a, TensorCoreMath& r) { fields(a, r.feature, r.min_cc, r.note, r.prov); }
template <class Ar> void io(Ar& a, Source& r) { fields(a, r.id, r.title, r.url, r.ref); }

// ---- library types
void io(Out& a, Version& v) {
  std::vector<int> parts = v.parts();
  io(a, parts);
}
void io(In& a, Version& v) {
  std::vector<int> parts;
  io(a, parts);
  v = Version(std::move(parts));
}
template <class Ar> void io(Ar& a, VersionRange& r) {
  std::optional<Version> lo = r.lo(), hi = r.hi();
  fields(a, lo, hi);
  r = VersionRange(std::move(lo), std::move(hi));
}
template <class Ar, class T>
void io(Ar& a, std::optional<T>& v) {
  if constexpr (std::is_same_v<Ar, Out>) {
    a.u8(v ? 1 : 0);
    if (v) io(a, *v);
  } else {
    if (a.u8() == 0) {
      v.reset();
      return;
    }
    v.emplace();
    io(a, *v);
  }
}
template <class T>
void io(Out& a, std::vector<T>& v) {
  a.u32(static_cast<uint32_t>(v.size()));
  for (auto& e : v) io(a, e);
}
template <class T>
void io(In& a, std::vector<T>& v) {
  uint32_t n = a.count();
  v.clear();
  v.reserve(n);
  for (uint32_t i = 0; i < n && !a.bad; ++i) io(a, v.emplace_back());
}
template <class K, class V>
void io(Out& a, std::map<K, V>& m) {
  a.u32(static_cast<uint32_t>(m.size()));
  for (auto& [k, v] : m) {
    K key = k;
    io(a, key);
    io(a, v);
  }
}
template <class K, class V>
void io(In& a, std::map<K, V>& m) {
  uint32_t n = a.count();
  m.clear();
  for (uint32_t i = 0; i < n && !a.bad; ++i) {
    K key{};
    io(a, key);
    io(a, m[key]);
  }
}

}  // namespace

struct KbBlobAccess {
  template <class Ar>
  static void tables(Ar& a, KnowledgeBase& kb) {
    fields(a, kb.tf_, kb.yanked_, kb.library_sets_, kb.packages_, kb.and_cuda_, kb.pip_constraints_, kb.tensorrt_, kb.wsl2_drivers_,
           kb.platform_notes_, kb.cuda_, kb.families_, kb.cudnn_majors_, kb.cudnn_, kb.gpus_, kb.architectures_,
           kb.tensor_core_math_, kb.tfjs_node_, kb.sources_);
  }
};

std::string serialize_kb(const KnowledgeBase& kb) {
  KnowledgeBase copy = kb;  // io() takes mutable references; the copy is never changed
  Out out;
  out.bytes = kMagic;
  KbBlobAccess::tables(out, copy);
  return std::move(out.bytes);
}

Result<KnowledgeBase> deserialize_kb(std::string_view blob) {
  if (blob.substr(0, kMagic.size()) != kMagic)
    return fail(Error::internal("compiled knowledge base: not a tfgpu KB blob of format 1"));
  In in{blob, kMagic.size()};
  KnowledgeBase kb;
  KbBlobAccess::tables(in, kb);
  if (in.bad) return fail(Error::internal("compiled knowledge base: truncated or malformed"));
  if (in.pos != blob.size()) return fail(Error::internal("compiled knowledge base: trailing bytes"));
  return kb;
}

}  // namespace tfgpu::kb
