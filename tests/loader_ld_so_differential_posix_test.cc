// Differential test of the ld.so model against glibc's real loader: seeded layouts of
// real shared libraries (built here by gcc from tests/loader_fixtures/*.c), each
// dlopened in a child process (tests/loader_fixtures/ld_probe.c) and simulated by
// loader::LdSo over a Snapshot of the same files, read back with the binfmt ELF reader.
// The chosen file (l_name), the objects
// newly mapped (in load order) and the failures must agree in every layout.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "binfmt/elf.h"
#include "host/host.h"
#include "loader/ld_so.h"
#include "probe/probe.h"
#include "util/strings.h"

namespace tfgpu::loader {
namespace {

namespace fs = std::filesystem;

constexpr int kLayouts = 150;
constexpr unsigned kSeed = 20261130;
const char* const kNames[] = {"libldmA.so.1", "libldmB.so.1", "libldmC.so.1", "libldmD.so.1"};
const char* const kDirs[] = {"bin/erp", "c", "d0", "d1", "d2", "d3", "w"};

// What this machine's ld.so does that the layouts depend on, asked of ld.so itself.
struct SystemFacts {
  std::vector<std::string> default_dirs;    // "(system search path)" lines of ld.so --help
  std::vector<std::string> hwcaps_subdirs;  // subdirs tried in each dir, from LD_DEBUG=libs
  std::string lib_token;                    // $LIB, as the model derives it from the default dirs
  std::string platform;                     // $PLATFORM as ld.so expands it here (LD_DEBUG=libs)
  HostInfo host;                            // what the real probe records of this machine (CPU, glibc)
  std::vector<std::string> extra_dirs;      // placement dirs reached only through $PLATFORM, $LIB, hwcaps
};

enum class Bad { kNone, kWrongClass, kWrongMachine, kNotElf };

// One library file in the pool, linked once and hard-linked into layouts.
struct Variant {
  std::string file;  // pool path
  ElfInfo elf;
  Bad bad = Bad::kNone;
};

struct Pool {
  std::string dir;
  std::string probe;                     // ld_probe executable
  std::vector<Variant> exes;             // ld_probe relinked with RPATH / RUNPATH to $ORIGIN/erp
  std::vector<Variant> callers;          // libldmcaller.so variants
  std::map<std::string, std::vector<Variant>> libs;  // by name
  std::map<std::string, std::vector<Variant>> bad;   // wrong class / machine / not ELF, by name
  std::string error;                     // set when the pool could not be built
};

Result<ProcessResult> sh(const std::string& script) {
  static auto host = make_system_host();
  ProcessSpec spec{{"sh", "-c", script}, std::chrono::milliseconds(120000)};
  return host->run(spec);
}

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string link_flags(const ElfInfo& elf) {
  std::string f;
  if (!elf.soname.empty()) f += " -Wl,-soname," + elf.soname;
  if (!elf.rpath.empty()) f += " -Wl,--disable-new-dtags -Wl,-rpath," + quote(join(elf.rpath, ":"));
  if (!elf.runpath.empty()) f += " -Wl,--enable-new-dtags -Wl,-rpath," + quote(join(elf.runpath, ":"));
  return f;
}

// Builds every variant with one shell script (2 shared cores: no per-file processes).
const Pool& pool() {
  static Pool p = [] {
    Pool pool;
    // One folder per test: ctest runs this suite's tests as parallel processes, and one
    // test's rebuild must not delete the files the other is linking.
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    pool.dir = std::string(TFGPU_TEST_BINARY_DIR) + "/loader_diff_pool-" + (test ? test->name() : "any");
    fs::remove_all(pool.dir);
    fs::create_directories(pool.dir + "/stubs");
    pool.dir = fs::canonical(pool.dir).string();
    std::string fx = std::string(TFGPU_SOURCE_DIR) + "/tests/loader_fixtures";
    std::string s = "set -e\ncd " + quote(pool.dir) + "\n";
    s += "gcc -O1 " + quote(fx + "/ld_probe.c") + " -o ld_probe\n";
    s += "gcc -c -fPIC -O1 " + quote(fx + "/lib.c") + " -o lib.o\n";
    pool.probe = pool.dir + "/ld_probe";
    // Link-time stand-ins so a variant can carry any DT_NEEDED.
    for (const char* n : kNames) s += std::string("gcc -shared -nostdlib lib.o -Wl,-soname,") + n + " -o stubs/" + n + "\n";
    auto add_exe = [&](const std::string& id, ElfInfo elf) {
      elf.bits = 64;
      elf.machine = "x86-64";
      s += "gcc -O1 " + quote(fx + "/ld_probe.c") + " -o " + id + link_flags(elf) + "\n";
      pool.exes.push_back({pool.dir + "/" + id, elf, Bad::kNone});
    };
    add_exe("exe_plain", {});
    add_exe("exe_rpath", ElfInfo{.rpath = {"$ORIGIN/erp"}});
    add_exe("exe_runpath", ElfInfo{.runpath = {"$ORIGIN/erp"}});
    auto add_caller = [&](const std::string& id, ElfInfo elf) {
      elf.bits = 64;
      elf.machine = "x86-64";
      elf.needed = {"libc.so.6"};
      if (id == "caller_needs_d") elf.needed.insert(elf.needed.begin(), "libldmD.so.1");
      std::string needs = id == "caller_needs_d" ? " -Lstubs -l:libldmD.so.1" : "";
      s += "gcc -shared -fPIC -O1 " + quote(fx + "/caller.c") + " -o " + id + link_flags(elf) +
           " -Wl,--no-as-needed" + needs + "\n";
      pool.callers.push_back({pool.dir + "/" + id, elf, Bad::kNone});
    };
    add_caller("caller_plain", {});
    add_caller("caller_rpath01", ElfInfo{.rpath = {"$ORIGIN/../d0", "$ORIGIN/../d1"}});
    add_caller("caller_runpath01", ElfInfo{.runpath = {"$ORIGIN/../d0", "$ORIGIN/../d1"}});
    add_caller("caller_rpath2", ElfInfo{.rpath = {"${ORIGIN}/../d2"}});
    add_caller("caller_runpath32", ElfInfo{.runpath = {"$ORIGIN/../d3", "$ORIGIN/../d2/"}});
    add_caller("caller_rpath_origin", ElfInfo{.rpath = {"$ORIGIN"}});
    add_caller("caller_needs_d", ElfInfo{.runpath = {"$ORIGIN/../d3"}});
    add_caller("caller_platform_lib", ElfInfo{.rpath = {"$ORIGIN/../p/$PLATFORM", "$ORIGIN/../${LIB}", "$ORIGIN/../d1"}});

    // Library variants: names A..D, A needs from {B,C,D}, B from {C,D}, C from {D}.
    std::mt19937 rng(kSeed);
    const std::vector<std::vector<std::string>> needs[] = {
        {{}, {"libldmB.so.1"}, {"libldmC.so.1"}, {"libldmB.so.1", "libldmC.so.1"}, {"libldmC.so.1", "libldmB.so.1"},
         {"libldmD.so.1"}, {"libldmB.so.1", "libldmD.so.1"}},
        {{}, {"libldmC.so.1"}, {"libldmD.so.1"}, {"libldmC.so.1", "libldmD.so.1"}},
        {{}, {"libldmD.so.1"}},
        {{}}};
    const std::vector<std::string> path_entries = {"$ORIGIN",       "$ORIGIN/../d0", "$ORIGIN/../d1", "$ORIGIN/../d2",
                                                   "$ORIGIN/../d3", "${ORIGIN}/../d2", "$ORIGIN/..",  "$ORIGIN/../w"};
    int counter = 0;
    for (int n = 0; n < 4; ++n) {
      for (int k = 0; k < 12; ++k) {
        ElfInfo elf;
        elf.bits = 64;
        elf.machine = "x86-64";
        elf.soname = (k % 5 == 4) ? "" : kNames[n];
        elf.needed = needs[n][rng() % needs[n].size()];
        int kind = static_cast<int>(rng() % 3);
        std::vector<std::string> entries;
        int count = 1 + static_cast<int>(rng() % 2);
        for (int e = 0; e < count; ++e) entries.push_back(path_entries[rng() % path_entries.size()]);
        if (kind == 1) elf.rpath = entries;
        if (kind == 2) elf.runpath = entries;
        std::string id = "v" + std::to_string(counter++);
        std::string deps;
        for (const auto& d : elf.needed) deps += " -l:" + d;
        s += "gcc -shared -nostdlib lib.o -o " + id + link_flags(elf) + " -Lstubs -Wl,--no-as-needed" + deps + "\n";
        pool.libs[kNames[n]].push_back({pool.dir + "/" + id, elf, Bad::kNone});
      }
      // A wrong-class copy (ELFCLASS32 in e_ident), a wrong-machine copy (e_machine =
      // EM_AARCH64) and a file that is not ELF at all. The header tweak stands in for a
      // real 32-bit build: ld.so decides on these header fields alone (open_verify).
      const Variant& base = pool.libs[kNames[n]].front();
      std::string cls = "bad_class" + std::to_string(n), mach = "bad_mach" + std::to_string(n),
                  text = "bad_text" + std::to_string(n);
      // A real 32-bit build where gcc -m32 links; otherwise ELFCLASS32 written into e_ident of a copy.
      s += "gcc -m32 -shared -nostdlib -fPIC " + quote(fx + "/lib.c") + " -Wl,-soname," + kNames[n] + " -o " + cls +
           " 2>/dev/null || { cp " + base.file + " " + cls + " && printf '\\001' | dd of=" + cls +
           " bs=1 seek=4 conv=notrunc 2>/dev/null; }\n";
      s += "cp " + base.file + " " + mach + " && printf '\\267\\000' | dd of=" + mach +
           " bs=1 seek=18 conv=notrunc 2>/dev/null\n";
      s += "printf 'this is not a shared library, only text standing where one is expected by name\\n' > " + text + "\n";
      ElfInfo c = base.elf;
      c.bits = 32;
      ElfInfo m = base.elf;
      m.machine = "aarch64";
      pool.bad[kNames[n]] = {{pool.dir + "/" + cls, c, Bad::kWrongClass},
                             {pool.dir + "/" + mach, m, Bad::kWrongMachine},
                             {pool.dir + "/" + text, {}, Bad::kNotElf}};
    }
    auto r = sh(s);
    if (!r || !r->exited || r->exit_code != 0)
      pool.error = "building the pool failed: " + (r ? r->describe() + "\n" + r->err : r.error().message);
    return pool;
  }();
  return p;
}

const SystemFacts& system_facts() {
  static SystemFacts f = [] {
    SystemFacts facts;
    static auto host = make_system_host();
    Snapshot probed;
    probe::probe_host(*host, probed);
    facts.host = probed.host;
    // The interpreter named in the probe's own link map answers --help with its dirs.
    ProcessSpec spec{{pool().probe}, std::chrono::milliseconds(20000)};
    auto run = host->run(spec);
    std::string ldso;
    if (run)
      for (const auto& line : split(run->out, '\n'))
        if (line.find("/ld-linux") != std::string::npos) ldso = line.substr(line.rfind(' ') + 1);
    if (!ldso.empty())
      if (auto help = host->run({{ldso, "--help"}, std::chrono::milliseconds(20000)}))
        for (const auto& line : split(help->out, '\n'))
          if (line.find("(system search path)") != std::string::npos)
            facts.default_dirs.push_back(std::string(trim(line.substr(0, line.find('(')))));
    for (const auto& d : facts.default_dirs)
      if (facts.lib_token.empty() && (starts_with(d, "/lib/") || starts_with(d, "/lib64"))) facts.lib_token = d.substr(1);
    // LD_DEBUG=libs shows every subdirectory tried inside a search dir, in order.
    const std::string marker = "/nonexistent-ldm-marker";
    ProcessSpec dbg{{pool().probe, "libldmNONE.so.9"}, std::chrono::milliseconds(20000)};
    dbg.env_overrides = {{"LD_DEBUG", "libs"}, {"LD_LIBRARY_PATH", marker}};
    if (auto r = host->run(dbg))
      for (const auto& line : split(r->err, '\n')) {
        size_t at = line.find("trying file=" + marker + "/");
        if (at == std::string::npos) continue;
        std::string rest = line.substr(at + 12 + marker.size() + 1);
        size_t slash = rest.rfind('/');
        if (slash == std::string::npos) break;  // the dir itself: the subdirs are done
        std::string sub = rest.substr(0, slash);
        if (std::find(facts.hwcaps_subdirs.begin(), facts.hwcaps_subdirs.end(), sub) == facts.hwcaps_subdirs.end())
          facts.hwcaps_subdirs.push_back(sub);
      }
    // $PLATFORM as ld.so itself expands it in LD_LIBRARY_PATH: glibc's dl_platform, which
    // on Intel x86-64 CPUs is "haswell" / "xeon_phi" rather than AT_PLATFORM.
    const std::string pmarker = "/nonexistent-ldm-platform";
    ProcessSpec pdbg{{pool().probe, "libldmNONE.so.9"}, std::chrono::milliseconds(20000)};
    pdbg.env_overrides = {{"LD_DEBUG", "libs"}, {"LD_LIBRARY_PATH", pmarker + "/$PLATFORM"}};
    if (auto r = host->run(pdbg))
      for (const auto& line : split(r->err, '\n')) {
        size_t at = line.find("trying file=" + pmarker + "/");
        if (at == std::string::npos) continue;
        std::string rest = line.substr(at + 12 + pmarker.size() + 1);
        facts.platform = rest.substr(0, rest.find('/'));
        break;
      }
    // Files in the platform dir ld.so uses and in the one it would use on the other kind
    // of x86-64 CPU, so that every machine tells a wrong $PLATFORM apart.
    facts.extra_dirs.push_back("p/" + facts.platform);
    facts.extra_dirs.push_back(facts.platform == "x86_64" ? "p/haswell" : "p/x86_64");
    if (!facts.lib_token.empty()) facts.extra_dirs.push_back(facts.lib_token);
    if (!facts.hwcaps_subdirs.empty()) {
      facts.extra_dirs.push_back("d1/" + facts.hwcaps_subdirs.front());
      facts.extra_dirs.push_back("d2/" + facts.hwcaps_subdirs.back());
    }
    return facts;
  }();
  return f;
}

struct Placed {
  std::string path;
  const Variant* variant = nullptr;
  std::string symlink_target;  // for symlinks
};

struct Layout {
  std::string root;
  const Variant* exe = nullptr;
  const Variant* caller = nullptr;
  std::string caller_path;
  std::optional<std::string> llp;
  std::vector<std::string> requests;
  std::vector<Placed> files;
  std::string describe() const {
    std::ostringstream o;
    o << root << "\n  exe " << exe->file << "\n";
    if (caller) o << "  caller " << caller->file << " at " << caller_path << "\n";
    o << "  LD_LIBRARY_PATH " << (llp ? "'" + *llp + "'" : "(unset)") << "\n";
    for (const auto& f : files)
      o << "  " << f.path << " <- " << (f.variant ? f.variant->file : "symlink " + f.symlink_target) << "\n";
    for (const auto& r : requests) o << "  dlopen " << r << "\n";
    return o.str();
  }
};

Layout make_layout(const Pool& pool, const SystemFacts& facts, int index, std::mt19937& rng) {
  Layout l;
  std::vector<std::string> dirs(std::begin(kDirs), std::end(kDirs));
  dirs.insert(dirs.end(), facts.extra_dirs.begin(), facts.extra_dirs.end());
  l.root = pool.dir + "/layouts/L" + std::to_string(index);
  fs::create_directories(l.root);
  l.root = fs::canonical(l.root).string();
  for (const auto& d : dirs) fs::create_directories(l.root + "/" + d);
  auto pick = [&rng](size_t n) { return static_cast<size_t>(rng() % n); };
  auto chance = [&rng](int percent) { return static_cast<int>(rng() % 100) < percent; };
  auto place = [&l](const Variant& v, const std::string& path) {
    for (const auto& f : l.files)
      if (f.path == path) return false;
    fs::create_hard_link(v.file, path);
    l.files.push_back({path, &v, ""});
    return true;
  };
  l.exe = &pool.exes[pick(pool.exes.size())];
  place(*l.exe, l.root + "/bin/ld_probe");
  if (chance(80)) {
    l.caller = &pool.callers[pick(pool.callers.size())];
    l.caller_path = l.root + "/c/libldmcaller.so";
    place(*l.caller, l.caller_path);
  }
  for (const char* name : kNames) {
    const auto& variants = pool.libs.at(name);
    // One to three copies each, so that most searches find something and the order decides.
    int copies = 1 + static_cast<int>(pick(3));
    for (int c = 0; c < copies; ++c)
      place(variants[pick(variants.size())], l.root + "/" + dirs[pick(dirs.size())] + "/" + name);
  }
  if (chance(30)) {
    const char* name = kNames[pick(4)];
    const auto& bad = pool.bad.at(name);
    place(bad[pick(bad.size())], l.root + "/" + dirs[pick(dirs.size())] + "/" + name);
  }
  // SONAME vs file name: an unversioned file name, a copy or a symlink to the .so.1.
  bool unversioned = chance(25);
  if (unversioned) {
    std::string dir = l.root + "/" + dirs[pick(dirs.size())];
    bool linked = false;
    if (chance(50))
      for (const auto& f : l.files)
        if (f.path == dir + "/libldmA.so.1") {
          fs::create_symlink("libldmA.so.1", dir + "/libldmA.so");
          l.files.push_back({dir + "/libldmA.so", nullptr, "libldmA.so.1"});
          linked = true;
          break;
        }
    if (!linked) {
      const auto& variants = pool.libs.at("libldmA.so.1");
      place(variants[pick(variants.size())], dir + "/libldmA.so");
    }
  }
  if (chance(85)) {
    std::vector<std::string> entries;
    int n = 2 + static_cast<int>(pick(4));
    for (int i = 0; i < n; ++i) {
      int k = static_cast<int>(pick(10));
      if (k < 6)
        entries.push_back(l.root + "/" + kDirs[2 + pick(5)]);
      else if (k == 6)
        entries.push_back("");  // an empty entry: the current directory
      else if (k == 7)
        entries.push_back("$ORIGIN/erp");  // the main program's origin
      else if (k == 8)
        entries.push_back(l.root + "/" + kDirs[2 + pick(4)] + "/");
      else
        entries.push_back(l.root + "/d1/../d2");
    }
    std::string sep = chance(20) ? ";" : ":";
    l.llp = join(entries, sep);
    // Put copies where the search will look, so that most layouts load and the order decides.
    std::vector<std::string> reachable;
    for (const auto& e : entries)
      if (starts_with(e, l.root)) reachable.push_back(normalize_path(e));
    if (!reachable.empty())
      for (const char* name : kNames)
        if (chance(std::string(name) == "libldmA.so.1" ? 70 : 55)) {
          const auto& variants = pool.libs.at(name);
          std::string dir = reachable[pick(reachable.size())];
          if (chance(25) && !facts.hwcaps_subdirs.empty()) {
            dir += "/" + facts.hwcaps_subdirs[pick(facts.hwcaps_subdirs.size())];
            fs::create_directories(dir);
          }
          place(variants[pick(variants.size())], dir + "/" + name);
        }
  }
  // What to dlopen: sometimes first a library by path (then its SONAME answers later
  // DT_NEEDED entries), then the target by SONAME, file name, path or $ORIGIN path.
  if (chance(25)) {
    std::vector<std::string> candidates;
    for (const auto& f : l.files)
      if (f.variant && f.variant->bad == Bad::kNone &&
          (ends_with(f.path, "/libldmD.so.1") || ends_with(f.path, "/libldmB.so.1")))
        candidates.push_back(f.path);
    if (!candidates.empty()) l.requests.push_back(candidates[pick(candidates.size())]);
  }
  int k = static_cast<int>(pick(100));
  if (unversioned && k < 40) {
    l.requests.push_back("libldmA.so");
  } else if (k < 75) {
    l.requests.push_back("libldmA.so.1");
  } else if (k < 85) {
    l.requests.push_back(kNames[1 + pick(3)]);
  } else if (k < 93) {
    l.requests.push_back(l.files.back().path);
  } else {
    l.requests.push_back("$ORIGIN/../d" + std::to_string(pick(4)) + "/libldmA.so.1");
  }
  if (chance(20)) l.requests.push_back("libldmA.so.1");  // a second load: already loaded or not
  return l;
}

// What a probe records for one file, read with the binfmt ELF reader. A file whose
// header has the ELF magic but does not parse keeps the class and machine of its header
// (what ld.so decides on first).
LibraryFile probe_file(const std::string& path) {
  LibraryFile lf;
  lf.path = path;
  lf.name = fs::path(path).filename().string();
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto elf = binfmt::parse_elf(bytes, path);
  if (elf) {
    lf.format = "elf";
    lf.elf = elf->to_info();
  } else if (binfmt::looks_like_elf(bytes)) {
    lf.format = "elf";
    lf.error = elf.error().message;
    if (bytes.size() >= 20) {
      lf.elf.bits = bytes[4] == 1 ? 32 : bytes[4] == 2 ? 64 : 0;
      lf.elf.machine = binfmt::elf_machine_name(static_cast<uint16_t>(static_cast<uint8_t>(bytes[18]) |
                                                                      (static_cast<uint8_t>(bytes[19]) << 8)));
    }
  } else {
    lf.format = "unknown";
    lf.error = elf.error().message;
  }
  return lf;
}

// The ELF facts the reader found must be the ones the variant was linked with.
std::string reader_disagrees(const LibraryFile& lf, const Variant& v) {
  if (v.bad != Bad::kNone) return "";
  const ElfInfo& a = lf.elf;
  const ElfInfo& b = v.elf;
  if (!lf.error.empty()) return lf.path + ": " + lf.error;
  if (a.soname != b.soname || a.rpath != b.rpath || a.runpath != b.runpath || a.bits != b.bits ||
      a.machine != b.machine)
    return lf.path + ": binfmt read soname '" + a.soname + "' rpath '" + join(a.rpath, ":") + "' runpath '" +
           join(a.runpath, ":") + "', linked with '" + b.soname + "' '" + join(b.rpath, ":") + "' '" +
           join(b.runpath, ":") + "'";
  // The executables' and callers' libc / ld.so entries are not in the spec: compare ours.
  if (a.needed != b.needed && !(b.needed.empty() && !a.needed.empty()))
    return lf.path + ": binfmt read NEEDED " + join(a.needed, ",") + ", linked with " + join(b.needed, ",");
  return "";
}

// What a probe of the layout records: every file with its ELF facts, read from disk.
Snapshot snapshot_of(const Layout& l, const SystemFacts& facts, std::string* reader_problems) {
  Snapshot s;
  s.origin = "test";
  s.host = facts.host;  // the model derives $PLATFORM from its CPU and glibc, $LIB from the default dirs
  s.loader.default_dirs = facts.default_dirs;
  s.loader.ld_cache_state.status = ProbeStatus::kOk;  // no entry for the libldm* names (checked below)
  for (const auto& f : l.files) {
    LibraryFile lf = probe_file(f.path);
    if (!f.variant) {
      lf.symlink_target = f.symlink_target;
    } else if (std::string d = reader_disagrees(lf, *f.variant); !d.empty()) {
      *reader_problems += d + "\n";
    }
    s.libraries.push_back(lf);
  }
  return s;
}

struct ProbeStep {
  bool ok = false;
  std::string text;  // l_name or dlerror()
  std::vector<std::string> map;
};

std::vector<ProbeStep> parse_probe(const std::string& out) {
  std::vector<ProbeStep> steps(1);
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string kind;
    int i = 0;
    ls >> kind >> i;
    std::string rest;
    std::getline(ls, rest);
    if (!rest.empty() && rest.front() == ' ') rest.erase(0, 1);
    if (i < 0 || i > 10) continue;
    if (static_cast<int>(steps.size()) <= i) steps.resize(i + 1);
    if (kind == "map") steps[i].map.push_back(rest);
    if (kind == "step") {
      steps[i].ok = starts_with(rest, "ok ");
      steps[i].text = rest.substr(rest.find(' ') + 1);
    }
  }
  return steps;
}

std::string before_colon(const std::string& s) { return s.substr(0, s.find(": ")); }

// Runs one layout through the real loader and the model; "" when they agree.
// Which rule decided a step, for the coverage lines ("DT_RPATH of caller", "hwcaps subdir").
std::string decided_by(const Layout& l, const LoadResult& m) {
  const Resolution& r = m.root;
  if (m.outcome != Outcome::kFound) {
    if (!r.trail.empty() && r.trail.back().why == Why::kInvalid) return "failed: invalid file";
    return m.root.outcome == Outcome::kFound ? "failed: missing dependency" : "failed: not found";
  }
  const Step& s = r.trail.back();
  if (s.why == Why::kAlreadyLoaded) return "already loaded";
  std::string src = s.source;
  if (starts_with(src, "DT_RPATH of ") || starts_with(src, "DT_RUNPATH of ")) {
    std::string who = src.substr(src.find(" of ") + 4);
    std::string kind = src.substr(0, src.find(" of "));
    src = kind + (who == l.caller_path ? " of caller" : ends_with(who, "/ld_probe") ? " of main" : " of a library");
  }
  for (const auto& step : r.trail)
    if (step.why == Why::kWrongClass || step.why == Why::kWrongMachine) src += ", after skipping wrong class/machine";
  if (s.dir.find("glibc-hwcaps") != std::string::npos || ends_with(s.dir, "/x86_64")) src += " (hwcaps subdir)";
  return "chosen via " + src;
}

std::string compare(const Layout& l, const SystemFacts& facts, std::map<std::string, int>* covered) {
  ProcessSpec spec;
  spec.argv = {l.root + "/bin/ld_probe", "--chdir", l.root + "/w"};
  if (l.caller) {
    spec.argv.push_back("--caller");
    spec.argv.push_back(l.caller_path);
  }
  for (const auto& r : l.requests) spec.argv.push_back(r);
  spec.env_overrides["LD_LIBRARY_PATH"] = l.llp.value_or("");
  spec.env_overrides["LD_PRELOAD"] = "";
  spec.timeout = std::chrono::milliseconds(20000);
  static auto host = make_system_host();
  auto run = host->run(spec);
  if (!run || !run->exited || run->exit_code != 0)
    return "probe did not run: " + (run ? run->describe() + " " + run->err + run->out : run.error().message);
  auto real = parse_probe(run->out);

  std::string reader_problems;
  Snapshot snap = snapshot_of(l, facts, &reader_problems);
  if (!reader_problems.empty()) return "ELF reader: " + reader_problems;
  LinuxProcess proc;
  proc.cwd = l.root + "/w";
  proc.ld_library_path = l.llp;
  proc.hwcaps_subdirs = facts.hwcaps_subdirs;
  LinuxObject main_obj;
  main_obj.path = l.root + "/bin/ld_probe";
  main_obj.elf = l.exe->elf;
  proc.objects.push_back(main_obj);
  for (const auto& m : real[0].map) {
    if (m.empty()) continue;
    LinuxObject o;
    o.path = m;
    o.loaded_by = 0;
    o.names = {fs::path(m).filename().string()};
    proc.objects.push_back(o);
  }
  auto ld = LdSo::create(snap, proc);
  if (!ld) return "model rejected the process: " + ld.error().message;
  int caller = 0;
  std::vector<std::string> names;
  if (l.caller) names.push_back(l.caller_path);
  for (const auto& r : l.requests) names.push_back(r);
  std::ostringstream diff;
  for (size_t i = 0; i < names.size(); ++i) {
    size_t step = i + 1;
    if (step >= real.size()) {
      if (i > 0 && l.caller && !real[1].ok) break;  // the caller failed: the probe stopped
      diff << "no real result for step " << step;
      break;
    }
    const ProbeStep& r = real[step];
    bool is_caller_step = l.caller && i == 0;
    LoadResult m = ld->dlopen_from(is_caller_step ? 0 : caller, names[i]);
    std::vector<std::string> before(real[step - 1].map), after(r.map);
    std::vector<std::string> real_new;
    for (const auto& a : after)
      if (std::find(before.begin(), before.end(), a) == before.end()) real_new.push_back(a);
    bool model_ok = m.outcome == Outcome::kFound;
    (*covered)[decided_by(l, m)]++;
    for (const auto& d : m.closure)
      if (d.resolution.outcome == Outcome::kFound && d.resolution.trail.back().why == Why::kChosen)
        (*covered)["dependency " + decided_by(l, LoadResult{d.resolution, {}, Outcome::kFound, "", })]++;
    if (r.ok != model_ok) {
      diff << "step " << step << " (" << names[i] << "): real " << (r.ok ? "ok " : "failed: ") << r.text << ", model "
           << to_string(m.outcome) << " " << m.error << "\n"
           << render_trail(m.root);
    } else if (r.ok) {
      if (r.text != m.root.path)
        diff << "step " << step << " (" << names[i] << "): real chose " << r.text << ", model " << m.root.path << "\n"
             << render_trail(m.root);
      if (real_new != m.newly_loaded())
        diff << "step " << step << " (" << names[i] << "): real loaded [" << join(real_new, ", ") << "], model ["
             << join(m.newly_loaded(), ", ") << "]\n";
    } else if (before_colon(r.text) != before_colon(m.error)) {
      diff << "step " << step << " (" << names[i] << "): real error '" << r.text << "', model '" << m.error << "'\n";
    }
    if (is_caller_step) {
      if (!r.ok) break;
      caller = ld->index_of(l.caller_path);
    }
  }
  return diff.str();
}

// glibc replaces AT_PLATFORM from CPU features on Intel (sysdeps/x86/cpu-features.c): the
// model's rule over what the probe recorded must give what this machine's ld.so uses.
TEST(LdSoDifferential, PlatformFromTheProbedCpuIsWhatLdSoExpands) {
  const SystemFacts& facts = system_facts();
  ASSERT_FALSE(facts.platform.empty()) << "LD_DEBUG=libs showed no $PLATFORM expansion";
  std::printf("[ loader ] cpu %s (%s), glibc %s: ld.so $PLATFORM=%s, model %s\n", facts.host.cpu.vendor.c_str(),
              facts.host.cpu.model.c_str(), facts.host.glibc_version.c_str(), facts.platform.c_str(),
              ld_so_platform(facts.host).c_str());
  EXPECT_FALSE(facts.host.glibc_version.empty());
  EXPECT_EQ(ld_so_platform(facts.host), facts.platform);
}

TEST(LdSoDifferential, ModelChoosesWhatGlibcDlopenChoosesInEveryGeneratedLayout) {
  const Pool& p = pool();
  ASSERT_TRUE(p.error.empty()) << p.error;
  // The layouts' names must be found nowhere on the system (not in ld.so.cache either).
  auto cache = sh("ldconfig -p 2>/dev/null | grep -c libldm || true");
  ASSERT_TRUE(cache.has_value());
  ASSERT_EQ(trim(cache->out), "0") << "libldm* names are in the system's ld.so.cache";

  const SystemFacts& facts = system_facts();
  ASSERT_FALSE(facts.default_dirs.empty()) << "ld.so --help listed no system search path";
  std::printf("[ loader ] ld.so: $LIB=%s $PLATFORM=%s, %zu hwcaps subdirs, default dirs %s\n", facts.lib_token.c_str(),
              facts.platform.c_str(), facts.hwcaps_subdirs.size(), join(facts.default_dirs, ":").c_str());
  fs::remove_all(p.dir + "/layouts");
  std::mt19937 rng(kSeed);
  int agree = 0;
  std::map<std::string, int> covered;
  std::string failures;
  for (int i = 0; i < kLayouts; ++i) {
    Layout l = make_layout(p, facts, i, rng);
    std::string d = compare(l, facts, &covered);
    if (d.empty()) {
      ++agree;
    } else if (failures.size() < 20000) {
      failures += "layout " + std::to_string(i) + ": " + l.describe() + d + "\n";
    }
    covered[l.caller ? (l.caller->elf.runpath.empty() ? (l.caller->elf.rpath.empty() ? "caller plain" : "caller RPATH")
                                                      : "caller RUNPATH")
                     : "dlopen from main"]++;
    if (l.llp) covered[l.llp->find("::") != std::string::npos || starts_with(*l.llp, ":") || ends_with(*l.llp, ":")
                           ? "LD_LIBRARY_PATH with empty entry"
                           : "LD_LIBRARY_PATH"]++;
    for (const auto& f : l.files) {
      if (f.variant && f.variant->bad != Bad::kNone) covered["bad file"]++;
      for (const auto& extra : facts.extra_dirs)
        if (f.path.find("/" + extra + "/") != std::string::npos) covered["file in " + extra]++;
    }
  }
  std::printf("[ loader ] %d/%d layouts agree with glibc dlopen\n", agree, kLayouts);
  for (const auto& [what, n] : covered) std::printf("[ loader ]   %-36s %d\n", what.c_str(), n);
  RecordProperty("layouts_agree", std::to_string(agree) + "/" + std::to_string(kLayouts));
  EXPECT_EQ(agree, kLayouts) << failures;
}

}  // namespace
}  // namespace tfgpu::loader
