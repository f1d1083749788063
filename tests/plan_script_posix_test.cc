// The emitted bash scripts: syntax (bash -n), shellcheck, and idempotency against stub
// python / pip / conda executables first on PATH. The stubs log every state-changing
// call and keep "installed" state in a temp dir, so a second run must log nothing new.

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "plan/emit.h"
#include "plan_scenarios.h"
#include "support/read_file.h"
#include "support/shell_posix.h"

namespace tfgpu::plan {
namespace {

namespace fs = std::filesystem;

using Shell = ::tfgpu::testing::ShellRun;
Shell sh(const std::string& command) { return ::tfgpu::testing::run_shell(command); }

bool have(const std::string& tool) { return sh("command -v " + tool + " >/dev/null").code == 0; }

void write_exe(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
  fs::permissions(p, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec, fs::perm_options::replace);
}

class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "tfgpu_plan_XXXXXX").string();
    path_ = mkdtemp(tmpl.data());
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::vector<Lock> bash_locks() {
  std::vector<Lock> out;
  for (const auto& sc : testing::golden_scenarios()) {
    Lock l = testing::lock_for(testing::plan_for(sc.flags, sc.request));
    if (l.target != "docker" && !(l.os == "windows" && l.target == "native")) out.push_back(l);
  }
  // A system-CUDA plan too (TF older than the [and-cuda] extra).
  out.push_back(testing::lock_for(testing::plan_for({"linux", "10de:2503", "522.06", ""},
                                                    {Target::kNative, std::string("2.10"), Preference::kReuse})));
  return out;
}

TEST(PlanScript, EmittedBashParses) {
  TempDir dir;
  for (const Lock& l : bash_locks()) {
    fs::path script = dir.path() / ("setup-" + l.tensorflow + ".sh");
    std::ofstream(script) << emit_setup_sh(l);
    auto r = sh("bash -n '" + script.string() + "'");
    EXPECT_EQ(r.code, 0) << l.tensorflow << ": " << r.out;
  }
}

TEST(PlanScript, EmittedBashPassesShellcheck) {
  if (!have("shellcheck")) GTEST_SKIP() << "shellcheck is not installed (scripts/setup.sh installs it)";
  TempDir dir;
  for (const Lock& l : bash_locks()) {
    fs::path script = dir.path() / ("setup-" + l.tensorflow + ".sh");
    std::ofstream(script) << emit_setup_sh(l);
    auto r = sh("shellcheck --shell=bash --severity=style '" + script.string() + "'");
    EXPECT_EQ(r.code, 0) << l.tensorflow << ":\n" << r.out;
  }
}

// Stub interpreter for `pythonX.Y` (reports its version, creates venvs) and the venv's
// python (answers `pip show` from the state dir, records `pip install`).
constexpr const char* kBasePython = R"SH(#!/bin/sh
state="$TFGPU_STUB_STATE"
case "$1" in
  -c) echo "@@VERSION@@"; exit 0 ;;
  -m)
    if [ "$2" = venv ]; then
      mkdir -p "$3/bin"
      cp "$state/venv-python" "$3/bin/python"
      echo "venv $3" >>"$state/log"
      exit 0
    fi ;;
esac
echo "base-python $*" >>"$state/log"
)SH";

constexpr const char* kVenvPython = R"SH(#!/bin/sh
state="$TFGPU_STUB_STATE"
if [ "$1" = -m ] && [ "$2" = pip ]; then
  shift 2
  case "$1" in
    show)
      [ -f "$state/pkgs/$2" ] || exit 1
      echo "Name: $2"
      echo "Version: $(cat "$state/pkgs/$2")"
      exit 0 ;;
    install)
      shift
      echo "venv-pip install $*" >>"$state/log"
      mkdir -p "$state/pkgs"
      for req in "$@"; do
        name="${req%%==*}"; name="${name%%\[*}"
        echo "${req##*==}" >"$state/pkgs/$name"
      done
      exit 0 ;;
  esac
fi
echo "venv-python $*" >>"$state/log"
)SH";

constexpr const char* kLogger = R"SH(#!/bin/sh
echo "@@NAME@@ $*" >>"$TFGPU_STUB_STATE/log"
)SH";

// A PATH directory holding only the tools the scripts use, so that no real python,
// pip or conda on the test machine is ever reachable (stubs come first on PATH).
fs::path sandbox_tools(const fs::path& root) {
  fs::path bin = root / "tools";
  fs::create_directories(bin);
  for (const char* tool : {"bash", "sh", "env", "dirname", "sort", "head", "tr", "sed", "awk", "mkdir", "cat", "cp",
                           "ldconfig", "grep", "rm", "ls"}) {
    for (const char* dir : {"/usr/bin/", "/bin/", "/usr/sbin/", "/sbin/"}) {
      fs::path p = fs::path(dir) / tool;
      if (fs::exists(p)) {
        fs::create_symlink(p, bin / tool);
        break;
      }
    }
  }
  return bin;
}

std::string with(std::string text, const std::string& key, const std::string& value) {
  for (size_t pos = 0; (pos = text.find(key, pos)) != std::string::npos; pos += value.size()) text.replace(pos, key.size(), value);
  return text;
}

TEST(PlanScript, SecondRunChangesNothing) {
  for (const Lock& l : bash_locks()) {
    SCOPED_TRACE(l.tensorflow + " " + l.method);
    TempDir dir;
    fs::path stubs = dir.path() / "stubs", state = dir.path() / "state", out = dir.path() / "out";
    fs::create_directories(stubs);
    fs::create_directories(state);
    fs::create_directories(out);
    for (const auto& f : emit_all(l)) std::ofstream(out / f.name, std::ios::binary) << f.text;
    write_exe(stubs / ("python" + l.python), with(kBasePython, "@@VERSION@@", l.python));
    // Other interpreters on PATH are the wrong version: the script must not pick them.
    write_exe(stubs / "python3", with(kBasePython, "@@VERSION@@", "3.99"));
    write_exe(stubs / "python", with(kBasePython, "@@VERSION@@", "2.7"));
    write_exe(state / "venv-python", kVenvPython);
    for (const char* tool : {"pip", "pip3", "conda", "apt-get", "sudo"}) write_exe(stubs / tool, with(kLogger, "@@NAME@@", tool));
    write_exe(stubs / "nvidia-smi", "#!/bin/sh\necho 999.99\n");
    std::string env = "/usr/bin/env -i HOME='" + (dir.path() / "home").string() + "' PATH='" + stubs.string() +
                      ":" + sandbox_tools(dir.path()).string() + "' TFGPU_STUB_STATE='" + state.string() + "' TFGPU_VENV_DIR='" +
                      (dir.path() / "venv").string() + "' ";
    auto first = sh(env + "bash '" + (out / "setup.sh").string() + "'");
    ASSERT_EQ(first.code, 0) << first.out;
    std::string log1 = tfgpu::testing::read_file(state / "log");
    EXPECT_NE(log1.find("venv "), std::string::npos) << log1;
    EXPECT_NE(log1.find("venv-pip install " + l.pip.front()), std::string::npos) << log1;
    // Only the venv's own pip installs: never a global pip, conda, apt or sudo.
    std::istringstream lines(log1);
    for (std::string line; std::getline(lines, line);)
      for (const char* tool : {"pip ", "pip3 ", "conda ", "apt-get ", "sudo "})
        EXPECT_NE(line.rfind(tool, 0), 0u) << "called " << line;

    auto second = sh(env + "bash '" + (out / "setup.sh").string() + "'");
    ASSERT_EQ(second.code, 0) << second.out;
    EXPECT_EQ(tfgpu::testing::read_file(state / "log"), log1) << "second run changed state:\n" << second.out;
    EXPECT_NE(second.out.find("every pinned package is installed"), std::string::npos) << second.out;
  }
}

TEST(PlanScript, MissingPythonIsAClearErrorNotAPartialInstall) {
  TempDir dir;
  Lock l = testing::lock_for(testing::plan_for(testing::classic_machine(), {Target::kWsl2, std::nullopt, Preference::kReuse}));
  fs::path stubs = dir.path() / "stubs", state = dir.path() / "state";
  fs::create_directories(stubs);
  fs::create_directories(state);
  write_exe(stubs / "python3", with(kBasePython, "@@VERSION@@", "3.99"));
  std::ofstream(dir.path() / "setup.sh") << emit_setup_sh(l);
  auto r = sh("/usr/bin/env -i HOME='" + dir.path().string() + "' PATH='" + stubs.string() + ":" +
              sandbox_tools(dir.path()).string() + "' TFGPU_STUB_STATE='" +
              state.string() + "' TFGPU_VENV_DIR='" + (dir.path() / "venv").string() + "' bash '" +
              (dir.path() / "setup.sh").string() + "'");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.out.find("Python " + l.python + " not found"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(dir.path() / "venv"));
}

}  // namespace
}  // namespace tfgpu::plan
