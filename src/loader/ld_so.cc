// The glibc dynamic loader's search, as specified by ld.so(8) and implemented in
// glibc 2.36 elf/dl-load.c (_dl_map_object, open_path, open_verify, fillin_rpath,
// _dl_dst_substitute) and elf/dl-deps.c (_dl_map_object_deps). Comments cite the rule
// each piece follows; tests/loader_ld_so_differential_posix_test.cc checks the result against
// the real loader.

#include "loader/ld_so.h"

#include <map>
#include <mutex>
#include <unordered_set>
#include <algorithm>
#include <deque>
#include <initializer_list>

#include "loader/file_index.h"
#include "util/strings.h"
#include "util/version.h"

namespace tfgpu::loader {

namespace {
// Already normal: no empty, "." or ".." component and no trailing slash (most paths the
// loader model builds; they are returned as they are, without splitting).
bool is_normal_path(std::string_view path) {
  if (path.size() > 1 && path.back() == '/') return false;
  size_t start = 0;
  if (path.front() == '/') start = 1;
  while (start < path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    std::string_view part = path.substr(start, end - start);
    if (part.empty() || part == "." || part == "..") return false;
    start = end + 1;
  }
  return true;
}
}  // namespace

std::string normalize_path(std::string_view path) {
  if (path.empty()) return "";
  if (is_normal_path(path)) return std::string(path);
  const bool absolute = path.front() == '/';
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    std::string_view part = path.substr(start, end - start);
    start = end + 1;
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      if (!parts.empty() && parts.back() != "..")
        parts.pop_back();
      else if (!absolute)
        parts.push_back(part);
      continue;
    }
    parts.push_back(part);
  }
  std::string out = absolute ? "/" : "";
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) out += '/';
    out += parts[i];
  }
  if (out.empty()) out = ".";
  return out;
}

namespace {

bool ident_char(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

// glibc is_dst(): "$NAME" not followed by an identifier character, or "${NAME}".
size_t dst_length(std::string_view after_dollar, std::string_view token) {
  if (!after_dollar.empty() && after_dollar.front() == '{') {
    if (after_dollar.substr(1, token.size()) == token && after_dollar.size() > token.size() + 1 &&
        after_dollar[token.size() + 1] == '}')
      return token.size() + 2;
    return 0;
  }
  if (after_dollar.substr(0, token.size()) != token) return 0;
  if (after_dollar.size() > token.size() && ident_char(after_dollar[token.size()])) return 0;
  return token.size();
}

}  // namespace

std::optional<std::string> expand_dst(std::string_view element, std::string_view origin, std::string_view lib_token,
                                      std::string_view platform_token) {
  std::string out;
  for (size_t i = 0; i < element.size();) {
    if (element[i] != '$') {
      out += element[i++];
      continue;
    }
    std::string_view rest = element.substr(i + 1);
    struct Token {
      std::string_view name;
      std::string_view value;
    };
    const Token tokens[] = {{"ORIGIN", origin}, {"PLATFORM", platform_token}, {"LIB", lib_token}};
    bool replaced = false;
    for (const auto& t : tokens) {
      size_t len = dst_length(rest, t.name);
      if (len == 0) continue;
      // _dl_dst_substitute: an element whose substitution is unknown is dropped whole.
      if (t.value.empty()) return std::nullopt;
      out += t.value;
      i += 1 + len;
      replaced = true;
      break;
    }
    if (!replaced) out += element[i++];  // an unknown $NAME stays as written
  }
  return out;
}

std::string ld_so_platform(const HostInfo& host) {
  // The kernel's AT_PLATFORM on x86-64 is ELF_PLATFORM = utsname machine, "x86_64".
  const std::string& at_platform = host.arch;
  if (at_platform != "x86_64" || host.cpu.vendor != "GenuineIntel") return at_platform;
  // glibc 2.26 (commit 1432d38ea0, BZ #21391) first set dl_platform from CPU features; before
  // that ld.so kept AT_PLATFORM. An unknown version is taken as newer: the probe records it
  // wherever glibc runs, and no supported distribution ships an older one.
  if (!host.glibc_version.empty()) {
    auto v = Version::parse(host.glibc_version);
    if (v && *v < Version({2, 26})) return at_platform;
  }
  const CpuInfo& c = host.cpu;
  auto yes = [](Tri t) { return t == Tri::kYes; };
  auto known = [](std::initializer_list<Tri> ts) {
    for (Tri t : ts)
      if (t == Tri::kUnknown) return false;
    return true;
  };
  if (!known({c.avx2, c.fma, c.bmi1, c.bmi2, c.lzcnt, c.movbe, c.popcnt, c.avx512f, c.avx512cd, c.avx512er,
              c.avx512pf}))
    return at_platform;
  // glibc 2.36 sysdeps/x86/cpu-features.c, init_cpu_features (unchanged through 2.42):
  //   if (cpu_features->basic.kind == arch_kind_intel) {
  //     if (CPU_FEATURE_USABLE_P (cpu_features, AVX512CD)) {
  //       if (CPU_FEATURE_USABLE_P (cpu_features, AVX512ER)) {
  //         if (CPU_FEATURE_USABLE_P (cpu_features, AVX512PF)) platform = "xeon_phi"; } ...}
  //     if (platform == NULL && AVX2 && FMA && BMI1 && BMI2 && LZCNT && MOVBE && POPCNT usable)
  //       platform = "haswell";
  //     if (platform != NULL) GLRO(dl_platform) = platform; }
  // AVX512CD is only marked usable inside the AVX512F-usable branch (and 2.26 tested
  // AVX512F_Usable itself), hence avx512f here. "Usable" also needs the OS to save the
  // vector state; the kernel drops those flags from /proc/cpuinfo when it does not.
  // (glibc 2.26 as released set dl_platform to NULL on other CPUs; BZ #22299 fixed that
  // in 2.27 and on the 2.26 branch.)
  if (yes(c.avx512f) && yes(c.avx512cd) && yes(c.avx512er) && yes(c.avx512pf)) return "xeon_phi";
  if (yes(c.avx2) && yes(c.fma) && yes(c.bmi1) && yes(c.bmi2) && yes(c.lzcnt) && yes(c.movbe) && yes(c.popcnt))
    return "haswell";
  return at_platform;
}

const LdCacheEntry* ld_cache_lookup(const LoaderInfo& loader, std::string_view name, int elf_class_bits,
                                    std::string_view machine) {
  auto norm = [](std::string_view m) {
    std::string s = to_lower(m);
    std::replace(s.begin(), s.end(), '_', '-');
    if (s == "amd64" || s == "x64") s = "x86-64";
    if (s == "i686" || s == "i586" || s == "x86" || s == "80386") s = "i386";
    return s;
  };
  std::string want = norm(machine);
  for (const auto& e : loader.ld_cache) {
    if (e.name != name) continue;
    if (e.arch.empty() || want.empty()) return &e;
    std::string have = norm(e.arch);
    // ldconfig -p flags: "libc6,x86-64" for 64-bit x86, plain "libc6" for i386.
    if (have == want || (have == "libc6" && want == "i386" && elf_class_bits == 32)) return &e;
  }
  return nullptr;
}

namespace {

std::string norm_machine(std::string_view m) {
  std::string s = to_lower(m);
  std::replace(s.begin(), s.end(), '_', '-');
  if (s == "amd64" || s == "x64") s = "x86-64";
  if (s == "i686" || s == "i586" || s == "x86" || s == "80386" || s == "intel 80386") s = "i386";
  return s;
}

struct SearchList {
  std::string source;
  std::vector<std::string> dirs;  // without trailing '/', "" = the current directory
};

struct Arch {
  int bits = 64;
  std::string machine;  // normalised
};

// Search lists by requester index, for the objects that were in the process when they
// were computed (LdSo::memo_); a lock keeps a shared LdSo safe to read from threads.
// std::map nodes are stable, so a reference handed out stays valid.
struct ListsMemo {
  std::mutex mutex;
  std::map<int, std::vector<SearchList>> lists;
};

class Searcher {
 public:
  // `memo`: the LdSo's lists for requesters below `committed` (null: none).
  Searcher(const Snapshot& snap, const FileIndex& index, const LdSoOptions& options, const LinuxProcess& process,
           ListsMemo* memo = nullptr)
      : snap_(snap), index_(index), options_(options), shared_memo_(memo),
        committed_(static_cast<int>(process.objects.size())) {
    const ElfInfo& main_elf = process.objects.front().elf;
    arch_.bits = main_elf.bits ? main_elf.bits : 64;
    arch_.machine = norm_machine(main_elf.machine.empty() ? snap.host.arch : main_elf.machine);
    lib_token_ = process.lib_token.empty() ? derive_lib_token(snap) : process.lib_token;
    platform_token_ = process.platform_token.empty() ? ld_so_platform(snap.host) : process.platform_token;
  }

  Resolution find(const LinuxProcess& p, const std::string& name, int requester) const {
    Resolution r;
    r.name = name;
    // _dl_map_object: first the objects already loaded, by the names they were loaded
    // by and by DT_SONAME (the main program's l_name is "", so never by its path).
    if (int hit = match_loaded(p, name); hit >= 0) {
      r.outcome = Outcome::kFound;
      r.path = p.objects[hit].path;
      r.file = index_.resolve(absolute(p, r.path), nullptr);
      r.trail.push_back({"loaded objects", "", r.path, Why::kAlreadyLoaded, "answers to " + name});
      return r;
    }
    State st;
    if (name.find('/') != std::string::npos) {
      // A name with a slash is opened as given, after DST expansion with the requester.
      auto expanded = expand_dst(name, origin_of(p, requester), lib_token_, platform_token_);
      if (!expanded) {
        r.outcome = Outcome::kNotFound;
        r.error = name + ": cannot open shared object file: $ORIGIN of the loading object is unknown";
        return r;
      }
      try_file(p, r, st, "path given", dir_name(*expanded, PathStyle::kPosix), *expanded);
      finish(r, st);
      if (r.outcome == Outcome::kNotFound && st.other_class)
        r.error = *expanded + ": wrong ELF class: ELFCLASS" + std::to_string(arch_.bits == 64 ? 32 : 64);
      return r;
    }
    for (const auto& list : lists_for(p, requester)) {
      for (const auto& dir : list.dirs)
        if (try_dir(p, r, st, list.source, dir)) return r;
    }
    // ld.so.cache (_dl_load_cache_lookup), then the default dirs, unless found.
    if (try_cache(p, r, st)) return r;
    const auto& defaults = snap_.loader.default_dirs;
    if (defaults.empty()) r.trail.push_back({"default dirs", "", "", Why::kUnknown, "default dirs not in the snapshot"});
    for (const auto& d : defaults)
      if (try_dir(p, r, st, "default dirs", strip_slashes(d))) return r;
    finish(r, st);
    return r;
  }

 private:
  struct State {
    bool done = false;
    bool other_class = false;  // found_other_class in dl-load.c
    bool unknown = false;
  };

  static std::string derive_lib_token(const Snapshot& snap) {
    // $LIB is a build-time constant of glibc (DL_DST_LIB): "lib/x86_64-linux-gnu" on
    // Debian/Ubuntu multiarch, "lib64" on Fedora-like x86_64. The first system dir says which.
    for (const auto& d : snap.loader.default_dirs) {
      std::string s = strip_slashes(d);
      if (starts_with(s, "/lib/") || starts_with(s, "/lib64")) return s.substr(1);
    }
    return "lib";
  }

  static std::string strip_slashes(std::string s) {
    // fillin_rpath: "Remove trailing slashes (except for "/")".
    while (s.size() > 1 && s.back() == '/') s.pop_back();
    return s;
  }

  bool probed(const std::string& name) const { return !options_.probed_name || options_.probed_name(name); }

  std::string absolute(const LinuxProcess& p, const std::string& path) const {
    if (!path.empty() && path.front() == '/') return path;
    if (p.cwd.empty()) return path;
    return p.cwd + "/" + path;
  }

  std::string origin_of(const LinuxProcess& p, int index) const {
    if (index < 0 || index >= static_cast<int>(p.objects.size())) return "";
    const std::string& path = p.objects[index].path;
    if (path.empty()) return "";
    // _dl_new_object: l_origin is the directory of the name as opened (not resolved),
    // made absolute with the current directory.
    std::string dir = dir_name(absolute(p, path), PathStyle::kPosix);
    if (dir.empty() || dir.front() != '/') return "";
    return dir;
  }

  int match_loaded(const LinuxProcess& p, const std::string& name) const {
    for (size_t i = 0; i < p.objects.size(); ++i) {
      const auto& o = p.objects[i];
      if (i > 0 && o.path == name) return static_cast<int>(i);
      if (std::find(o.names.begin(), o.names.end(), name) != o.names.end()) return static_cast<int>(i);
      if (!o.elf.soname.empty() && o.elf.soname == name) return static_cast<int>(i);
    }
    return -1;
  }

  SearchList decompose(const LinuxProcess& p, const std::string& source, const std::vector<std::string>& entries,
                       std::string_view seps, int origin_object) const {
    SearchList list{source, {}};
    std::string origin = origin_of(p, origin_object);
    // One $ORIGIN for the whole list, so an element written twice expands to the same
    // directory: each distinct element is expanded once (TF 2.21's framework library
    // repeats 18 directories in 669 DT_RUNPATH elements).
    std::unordered_set<std::string_view> seen;
    for (const auto& entry : entries) {
      std::string_view rest = entry;
      while (true) {
        size_t end = rest.find_first_of(seps);
        std::string_view element = rest.substr(0, end);
        if (seen.insert(element).second) {
          std::optional<std::string> dir = std::string();
          if (!element.empty()) {
            dir = expand_dst(element, origin, lib_token_, platform_token_);
            if (dir) *dir = strip_slashes(std::move(*dir));
          }
          // fillin_rpath: a directory already on this list is not added twice.
          if (dir && std::find(list.dirs.begin(), list.dirs.end(), *dir) == list.dirs.end()) list.dirs.push_back(*dir);
        }
        if (end == std::string_view::npos) break;
        rest.remove_prefix(end + 1);
      }
    }
    return list;
  }

  // search_lists, once per requester: within one Searcher (one dlopen and its DT_NEEDED
  // closure) the objects at existing indices do not change, only new ones are appended.
  const std::vector<SearchList>& lists_for(const LinuxProcess& p, int requester) const {
    if (shared_memo_ && requester < committed_) {
      std::lock_guard lock(shared_memo_->mutex);
      auto it = shared_memo_->lists.find(requester);
      if (it == shared_memo_->lists.end()) it = shared_memo_->lists.emplace(requester, search_lists(p, requester)).first;
      return it->second;
    }
    auto it = lists_memo_.find(requester);
    if (it == lists_memo_.end()) it = lists_memo_.emplace(requester, search_lists(p, requester)).first;
    return it->second;
  }

  std::vector<SearchList> search_lists(const LinuxProcess& p, int requester) const {
    std::vector<SearchList> lists;
    const auto& req = p.objects[requester];
    // ld.so(8): DT_RPATH is used only when the requesting object has no DT_RUNPATH;
    // then the DT_RPATH of the requester, of the object that loaded it, and so on up,
    // then the executable's DT_RPATH. An object's DT_RPATH is ignored when it has
    // DT_RUNPATH (get-dynamic-info.h drops it), but the walk continues past it.
    if (req.elf.runpath.empty()) {
      bool did_main = false;
      for (int l = requester; l >= 0; l = p.objects[l].loaded_by) {
        const auto& o = p.objects[l];
        if (!o.elf.runpath.empty() || o.elf.rpath.empty()) continue;
        lists.push_back(decompose(p, "DT_RPATH of " + describe(p, l), o.elf.rpath, ":", l));
        did_main |= l == 0;
        if (p.objects[l].loaded_by == l) break;  // a malformed chain must not loop
      }
      const auto& main = p.objects.front();
      if (!did_main && main.elf.runpath.empty() && !main.elf.rpath.empty())
        lists.push_back(decompose(p, "DT_RPATH of " + describe(p, 0), main.elf.rpath, ":", 0));
    }
    // LD_LIBRARY_PATH (unset or empty: not used), split at ':' and ';', DSTs expanded
    // for the main program (_dl_init_paths).
    if (p.ld_library_path && !p.ld_library_path->empty())
      lists.push_back(decompose(p, "LD_LIBRARY_PATH", {*p.ld_library_path}, ":;", 0));
    // The requester's own DT_RUNPATH only: it is not inherited by what it loads.
    if (!req.elf.runpath.empty())
      lists.push_back(decompose(p, "DT_RUNPATH of " + describe(p, requester), req.elf.runpath, ":", requester));
    return lists;
  }

  static std::string describe(const LinuxProcess& p, int index) {
    const auto& path = p.objects[index].path;
    return path.empty() ? "the main program" : path;
  }

  // Tries `dir` (its hwcaps subdirs first). True when the search is over.
  bool try_dir(const LinuxProcess& p, Resolution& r, State& st, const std::string& source, const std::string& dir) const {
    for (const auto& sub : p.hwcaps_subdirs) {
      std::string sdir = dir.empty() ? sub : (dir == "/" ? "/" + sub : dir + "/" + sub);
      std::string path = sdir + "/" + r.name;
      // Absent hwcaps subdirectory tries are left out of the trail (they would multiply it).
      if (!index_.at(absolute(p, path))) continue;
      try_file(p, r, st, source, sdir, path);
      if (st.done) return true;
    }
    std::string path = dir.empty() ? r.name : (dir == "/" ? "/" + r.name : dir + "/" + r.name);
    if (dir.empty() && p.cwd.empty() && !index_.at(path)) {
      r.trail.push_back({source, dir, path, Why::kUnknown, "current directory unknown"});
      st.unknown = true;
      return false;
    }
    try_file(p, r, st, source, dir, path);
    return st.done;
  }

  bool try_cache(const LinuxProcess& p, Resolution& r, State& st) const {
    const auto& loader = snap_.loader;
    if (loader.ld_cache_state.status != ProbeStatus::kOk && loader.ld_cache.empty()) {
      r.trail.push_back({"ld.so.cache", "", "", Why::kUnknown, "ld.so.cache not in the snapshot"});
      st.unknown = true;
      return false;
    }
    const LdCacheEntry* e = ld_cache_lookup(loader, r.name, arch_.bits, arch_.machine);
    if (!e) {
      bool known = probed(r.name);
      r.trail.push_back({"ld.so.cache", "", "", known ? Why::kNotInCache : Why::kUnknown,
                         known ? "" : "the snapshot keeps only relevant cache entries"});
      st.unknown |= !known;
      return false;
    }
    // open_verify on the cached path: a stale or wrong-class entry is passed over.
    try_file(p, r, st, "ld.so.cache", "", e->path);
    return st.done;
  }

  void try_file(const LinuxProcess& p, Resolution& r, State& st, const std::string& source, const std::string& dir,
                const std::string& path) const {
    std::string identity;
    const LibraryFile* f = index_.resolve(absolute(p, path), &identity);
    Step step{source, dir, path, Why::kAbsent, ""};
    if (!f) {
      if (!probed(base_name(path, PathStyle::kPosix))) {
        step.why = Why::kUnknown;
        step.detail = "not looked for by the probe";
        st.unknown = true;
      } else if (auto others = other_versions(p, dir, r.name); !others.empty()) {
        step.why = Why::kOtherVersion;
        step.detail = "has " + join(others, ", ");
      }
      r.trail.push_back(step);
      return;
    }
    classify(*f, step);
    if (step.why == Why::kWrongClass) st.other_class = true;
    if (step.why == Why::kUnknown) {
      // The file is there but its headers were not read: ld.so would most likely take it,
      // or fail on it; the snapshot cannot tell which, and the search stops here unknown.
      r.trail.push_back(step);
      r.outcome = Outcome::kUnknown;
      r.path = path;
      r.file = f;
      r.error = path + ": " + step.detail;
      st.unknown = true;
      st.done = true;
      return;
    }
    if (step.why == Why::kInvalid) {
      // open_verify: "invalid ELF header" and the like end the whole load with an error.
      r.trail.push_back(step);
      r.outcome = Outcome::kFailed;
      r.path = path;
      r.file = f;
      r.error = path + ": " + step.detail;
      st.done = true;
      return;
    }
    if (step.why != Why::kChosen) {
      r.trail.push_back(step);  // wrong class / machine, unreadable: skipped, the search goes on
      return;
    }
    // _dl_map_object_from_fd: the same file (st_dev/st_ino) already loaded under another
    // name is that object, not a second copy.
    for (size_t i = 1; i < p.objects.size(); ++i) {
      std::string other;
      index_.resolve(absolute(p, p.objects[i].path), &other);
      if (other == identity) {
        step.why = Why::kAlreadyLoaded;
        step.detail = "same file as " + p.objects[i].path;
        r.trail.push_back(step);
        r.outcome = Outcome::kFound;
        r.path = p.objects[i].path;
        r.file = f;
        st.done = true;
        return;
      }
    }
    r.trail.push_back(step);
    r.outcome = Outcome::kFound;
    r.path = path;
    r.file = f;
    st.done = true;
  }

  void classify(const LibraryFile& f, Step& step) const {
    // open_verify checks e_ident's class before anything else and e_machine next: a file
    // of the other class is skipped even when the rest of it could not be parsed.
    if (f.format == "elf" && f.elf.bits != 0 && f.elf.bits != arch_.bits) {
      step.why = Why::kWrongClass;
      step.detail = "ELFCLASS" + std::to_string(f.elf.bits);
      return;
    }
    if (f.format == "elf" && !f.elf.machine.empty() && !arch_.machine.empty() &&
        norm_machine(f.elf.machine) != arch_.machine) {
      step.why = Why::kWrongMachine;
      step.detail = f.elf.machine;
      return;
    }
    switch (header_state(f)) {
      case HeaderState::kUnknown:
        step.why = Why::kUnknown;
        step.detail = "headers not read" + (f.error.empty() ? std::string() : ": " + f.error);
        return;
      case HeaderState::kUnreadable:
        step.why = Why::kUnreadable;
        step.detail = f.error;
        return;
      case HeaderState::kInvalid:
        step.why = Why::kInvalid;
        step.detail = f.error.empty() ? "invalid ELF header" : f.error;
        return;
      case HeaderState::kRead:
        break;
    }
    if (!f.format.empty() && f.format != "elf") {
      step.why = Why::kInvalid;
      step.detail = "invalid ELF header";
      return;
    }
    step.why = Why::kChosen;
  }

  std::vector<std::string> other_versions(const LinuxProcess& p, const std::string& dir, const std::string& name) const {
    // "libcudart.so.11.0" -> stem "libcudart.so": other files of that stem are other versions.
    size_t so = name.find(".so");
    if (so == std::string::npos) return {};
    std::string stem = name.substr(0, so + 3);
    std::vector<std::string> out;
    for (const auto& n : index_.names_in(absolute(p, dir.empty() ? "." : dir)))
      if (n != name && starts_with(n, stem) && (n.size() == stem.size() || n[stem.size()] == '.')) out.push_back(n);
    std::sort(out.begin(), out.end());
    if (out.size() > 3) out.resize(3);
    return out;
  }

  void finish(Resolution& r, const State& st) const {
    if (st.done) return;
    r.outcome = st.unknown ? Outcome::kUnknown : Outcome::kNotFound;
    r.error = r.name + ": cannot open shared object file: No such file or directory";
  }

  const Snapshot& snap_;
  const FileIndex& index_;
  const LdSoOptions& options_;
  mutable std::map<int, std::vector<SearchList>> lists_memo_;
  ListsMemo* shared_memo_;
  int committed_;
  Arch arch_;
  std::string lib_token_;
  std::string platform_token_;
};

}  // namespace

struct LdSo::SearchMemo : ListsMemo {};
LdSo::MemoSlot::MemoSlot() : memo(std::make_shared<SearchMemo>()) {}
LdSo::MemoSlot::MemoSlot(const MemoSlot&) : memo(std::make_shared<SearchMemo>()) {}
LdSo::MemoSlot& LdSo::MemoSlot::operator=(const MemoSlot& other) {
  if (this != &other) memo = std::make_shared<SearchMemo>();
  return *this;
}
LdSo::MemoSlot::~MemoSlot() = default;

LdSo::LdSo(const Snapshot& snapshot, LinuxProcess process, LdSoOptions options)
    : snapshot_(&snapshot),
      process_(std::move(process)),
      options_(std::move(options)),
      index_(std::make_shared<FileIndex>(snapshot.libraries, PathStyle::kPosix, &snapshot.loader.dir_links)) {}

Result<LdSo> LdSo::create(const Snapshot& snapshot, LinuxProcess process, LdSoOptions options) {
  const int n = static_cast<int>(process.objects.size());
  if (n == 0) return fail(Error::input("loader model: the process has no main program"));
  if (process.caller < 0 || process.caller >= n)
    return fail(Error::input("loader model: caller index " + std::to_string(process.caller) + " is out of range"));
  for (int i = 0; i < n; ++i) {
    int by = process.objects[i].loaded_by;
    if (by >= i || by < -1)
      return fail(Error::input("loader model: object " + std::to_string(i) + " (" + process.objects[i].path +
                               ") must be loaded by an earlier object or by dlopen (-1)"));
  }
  return LdSo(snapshot, std::move(process), std::move(options));
}

Resolution LdSo::find(const std::string& name, int requester) const {
  if (requester < 0 || requester >= static_cast<int>(process_.objects.size())) requester = process_.caller;
  Searcher s(*snapshot_, *index_, options_, process_, memo_.memo.get());
  return s.find(process_, name, requester);
}

int LdSo::index_of(std::string_view path) const {
  for (size_t i = 0; i < process_.objects.size(); ++i)
    if (process_.objects[i].path == path) return static_cast<int>(i);
  return -1;
}

LoadResult LdSo::dlopen(const std::string& name) { return dlopen_from(process_.caller, name); }

LoadResult LdSo::dlopen_from(int caller, const std::string& name) {
  Searcher s(*snapshot_, *index_, options_, process_, memo_.memo.get());
  // The load happens in place; a dlopen that fails leaves the process as it was (the
  // objects it added are dropped, the names it gave loaded objects taken back), as
  // glibc's _dl_close_worker does: no copy of the process per dlopen.
  LinuxProcess& p = process_;
  const size_t committed = p.objects.size();
  const int saved_caller = p.caller;
  std::vector<size_t> named;  // objects below `committed` that were given a new name
  auto rollback = [&] {
    p.objects.erase(p.objects.begin() + static_cast<std::ptrdiff_t>(committed), p.objects.end());
    for (auto it = named.rbegin(); it != named.rend(); ++it) p.objects[*it].names.pop_back();
    p.caller = saved_caller;
  };
  if (caller >= 0 && caller < static_cast<int>(p.objects.size())) p.caller = caller;
  LoadResult out;
  out.root = s.find(p, name, p.caller);
  if (out.root.outcome != Outcome::kFound) {
    out.outcome = out.root.outcome;
    out.error = out.root.error;
    rollback();
    return out;
  }
  auto remember_name = [&p, &named, committed](const std::string& path, const std::string& n) {
    for (size_t i = 1; i < p.objects.size(); ++i)
      if (p.objects[i].path == path) {
        auto& names = p.objects[i].names;
        if (std::find(names.begin(), names.end(), n) == names.end()) {
          names.push_back(n);
          if (i < committed) named.push_back(i);
        }
        return;
      }
  };
  auto add_object = [&p](const Resolution& r, int loaded_by) {
    LinuxObject o;
    o.path = r.path;
    if (r.file) o.elf = r.file->elf;
    o.loaded_by = loaded_by;
    o.names.push_back(r.name);
    p.objects.push_back(std::move(o));
    return static_cast<int>(p.objects.size()) - 1;
  };
  if (out.root.trail.back().why != Why::kChosen) {
    remember_name(out.root.path, name);
    p.caller = saved_caller;
    out.outcome = Outcome::kFound;
    return out;
  }
  // _dl_map_object_deps: breadth first over the new objects, each DT_NEEDED in order,
  // searched on behalf of the object that names it; the first failure fails the dlopen
  // and nothing stays loaded.
  // dl-load.c (_dl_map_object): "In case the LOADER information has only been provided
  // to get to the appropriate RUNPATH/RPATH information we do not need it anymore":
  // with __RTLD_CALLMAP (dlopen) l_loader stays NULL, so the caller's DT_RPATH does not
  // reach the new object's dependencies. The differential test caught this.
  std::deque<int> queue{add_object(out.root, -1)};
  while (!queue.empty()) {
    int idx = queue.front();
    queue.pop_front();
    const std::vector<std::string> needed = p.objects[idx].elf.needed;
    const std::string requester_path = p.objects[idx].path;
    for (const auto& n : needed) {
      Resolution r = s.find(p, n, idx);
      Outcome o = r.outcome;
      bool chosen = o == Outcome::kFound && r.trail.back().why == Why::kChosen;
      if (o == Outcome::kFound && !chosen) remember_name(r.path, n);
      int added = chosen ? add_object(r, idx) : -1;
      std::string error = r.error;
      out.closure.push_back({requester_path, std::move(r)});
      if (added >= 0) queue.push_back(added);
      // A dependency the snapshot cannot speak for is listed as unknown and does not
      // change the outcome (docs/loader-model.md).
      if (o == Outcome::kNotFound || o == Outcome::kFailed) {
        out.outcome = Outcome::kFailed;
        out.error = error;
        rollback();
        return out;
      }
    }
  }
  p.caller = saved_caller;
  out.outcome = Outcome::kFound;
  return out;
}

}  // namespace tfgpu::loader
