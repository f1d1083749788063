// `tfgpu plan` end to end through run_cli (fake host; --out writes to a temp dir).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "host/fake_host.h"
#include "util/error.h"
#include "support/cli_run.h"

namespace tfgpu {
namespace {

namespace fs = std::filesystem;

using testing::CliRun;

using testing::run;

TEST(PlanCli, ClassicMachineByFlagsWritesEveryFile) {
  FakeHost host(Platform::kLinux);
  fs::path dir = fs::temp_directory_path() / ("tfgpu_plan_cli_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  auto r = run(host, {"plan", "--os", "windows", "--gpu", "10de:2503", "--driver", "522.06", "--out", dir.string()});
  EXPECT_EQ(r.code, kExitOk) << r.err;
  EXPECT_NE(r.out.find("Plan: TF 2.10.0 + CUDA 11.2 + cuDNN 8.1 + Python 3.10"), std::string::npos) << r.out;
  for (const char* f : {"tfgpu.lock.toml", "setup.ps1", "requirements.txt", "environment.yml", "verify.py"})
    EXPECT_TRUE(fs::exists(dir / f)) << f;
  fs::remove_all(dir);
}

TEST(PlanCli, JsonListsChosenRunnersUpAndRejections) {
  FakeHost host(Platform::kLinux);
  auto r = run(host, {"plan", "--os", "windows", "--gpu", "10de:2503", "--driver", "522.06", "--target", "wsl2", "--json"});
  EXPECT_EQ(r.code, kExitOk) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "ok");
  EXPECT_EQ(j["chosen"]["tensorflow"], "2.14.0");
  EXPECT_FALSE(j["runners_up"].empty());
  EXPECT_FALSE(j["rejected"].empty());
}

TEST(PlanCli, DriverTooOldExitsWithProblemsAndSaysUpdateFirst) {
  FakeHost host(Platform::kLinux);
  auto r = run(host, {"plan", "--os", "linux", "--gpu", "10de:2503", "--driver", "390.10"});
  EXPECT_EQ(r.code, kExitProblems);
  EXPECT_NE(r.out.find("1. Update the NVIDIA driver to >= "), std::string::npos) << r.out;
}

TEST(PlanCli, SnapshotFileIsRead) {
  FakeHost host(Platform::kLinux);
  host.add_file("/snap.json", R"({"schema_version": 1, "host": {"os": "linux"},
    "gpus": [{"name": "NVIDIA GeForce GTX 960", "pci_id": "10de:1401"}],
    "driver": {"state": {"status": "ok"}, "version": "535.104.05"}})");
  auto r = run(host, {"plan", "--snapshot", "/snap.json", "--json"});
  ASSERT_NE(r.out, "") << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["machine"]["compute_capability"], "5.2");
  EXPECT_EQ(j["machine"]["driver"], "535.104.05");
}

TEST(PlanCli, BadInputIsOneLineAndExitTwo) {
  FakeHost host(Platform::kLinux);
  for (std::vector<std::string> args : {std::vector<std::string>{"plan", "--snapshot", "/missing.json"},
                                        {"plan", "--os", "linux", "--gpu", "no such gpu xyz"},
                                        {"plan", "--os", "linux", "--tf", "9.99"},
                                        {"plan", "--os", "linux", "--driver", "new"},
                                        {"plan", "--os", "linux", "--target", "wsl2"}}) {
    auto r = run(host, args);
    EXPECT_EQ(r.code, kExitUsage) << args.back() << ": " << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
  }
  host.add_file("/bad.json", "{not json");
  auto r = run(host, {"plan", "--snapshot", "/bad.json"});
  EXPECT_EQ(r.code, kExitUsage);
}

// The machine a plan is for is the one the flags describe: nothing of the machine tfgpu
// runs on leaks in (its OS, WSL, Pythons, GPU). The issue: a plan made on a pyenv
// machine said "python 3.13 (already installed)" for a fresh WSL Ubuntu.
TEST(PlanCli, FlagsDescribeTheWholeMachineAndTheLocalOneIsNotProbed) {
  FakeHost host(Platform::kLinux);  // a WSL2 machine with its own Python
  host.set_os_release({"Linux", "5.15.153.1-microsoft-standard-WSL2", "x86_64"});
  host.add_dir("/usr/lib/wsl/lib");
  host.set_env("PATH", "/usr/bin");
  host.add_file("/usr/bin/python3.13", "#!", 0755);
  auto r = run(host, {"plan", "--os", "linux", "--gpu", "10de:2503", "--driver", "535.104.05", "--json"});
  EXPECT_EQ(r.code, kExitOk) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["machine"]["os"], "linux");
  EXPECT_EQ(j["machine"]["inside_wsl2"], false) << r.out;
  EXPECT_EQ(j["machine"]["compute_capability"], "8.6");
  EXPECT_EQ(j["machine"]["driver"], "535.104.05");
  EXPECT_EQ(host.processes_run(), 0) << "no probe child on the planning machine";
  EXPECT_EQ(r.out.find("already installed"), std::string::npos) << r.out;
}

// A user's own file at one of the names a plan writes is never overwritten without
// --force, and a refusal writes nothing at all.
TEST(PlanCli, OutNeverOverwritesAFileTfgpuDidNotWrite) {
  FakeHost host(Platform::kLinux);
  fs::path dir = fs::temp_directory_path() / ("tfgpu_plan_out_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  { std::ofstream(dir / "requirements.txt") << "my own pins\n"; }
  std::vector<std::string> args = {"plan", "--os", "linux", "--gpu", "10de:2503", "--driver", "535.104.05", "--out", dir.string()};
  auto refused = run(host, args);
  EXPECT_EQ(refused.code, kExitUsage);
  EXPECT_NE(refused.err.find("was not written by tfgpu"), std::string::npos) << refused.err;
  EXPECT_EQ(std::count(refused.err.begin(), refused.err.end(), '\n'), 1) << refused.err;
  EXPECT_FALSE(fs::exists(dir / "tfgpu.lock.toml")) << "nothing written on refusal";
  {
    std::ifstream mine(dir / "requirements.txt");  // closed before the folder is removed (Windows)
    std::string line;
    std::getline(mine, line);
    EXPECT_EQ(line, "my own pins");
  }
  args.push_back("--force");
  EXPECT_EQ(run(host, args).code, kExitOk);
  args.pop_back();
  EXPECT_EQ(run(host, args).code, kExitOk) << "its own files are rewritten freely";
  auto unwritable = run(host, {"plan", "--os", "linux", "--gpu", "10de:2503", "--out", "/proc/tfgpu-no-such-dir"});
  EXPECT_EQ(unwritable.code, kExitUsage) << unwritable.err;
  fs::remove_all(dir);
}

// One number for the Windows driver WSL2 needs (TF's pip page: >= 528.33 for WSL): plan,
// matrix and doctor's WSL2 fix all read it from the KB's [[wsl2_driver]].
TEST(PlanCli, TheWsl2DriverMinimumIsOneNumberInPlanAndMatrix) {
  FakeHost host(Platform::kLinux);
  auto plan = run(host, {"plan", "--os", "windows", "--gpu", "RTX 3080", "--driver", "560.94", "--target", "wsl2", "--tf", "2.21", "--json"});
  ASSERT_EQ(plan.code, kExitOk) << plan.err;
  auto matrix = run(host, {"matrix", "--tf", "2.21", "--os", "linux", "--json"});
  ASSERT_EQ(matrix.code, kExitOk) << matrix.err;
  auto p = nlohmann::json::parse(plan.out);
  auto m = nlohmann::json::parse(matrix.out);
  EXPECT_EQ(p["chosen"]["driver_min"], "528.33") << plan.out;
  EXPECT_EQ(m["tensorflow"][0]["min_windows_driver_wsl2"]["min_driver"], p["chosen"]["driver_min"]);
  auto old = run(host, {"plan", "--os", "windows", "--gpu", "RTX 3080", "--driver", "528.24", "--target", "wsl2", "--tf", "2.21"});
  EXPECT_EQ(old.code, kExitProblems) << "527.41 would do natively, not in WSL2: " << old.out;
}

TEST(PlanCli, FlagsWithoutTheOsAskForIt) {
  FakeHost host(Platform::kLinux);
  auto r = run(host, {"plan", "--gpu", "10de:2503", "--driver", "535.104.05"});
  EXPECT_EQ(r.code, kExitUsage);
  EXPECT_NE(r.err.find("--os"), std::string::npos) << r.err;
}

TEST(PlanCli, WithoutFlagsAMachineWithoutAnNvidiaGpuIsToldSoFirst) {
  FakeHost host(Platform::kLinux);  // probed: no NVIDIA PCI device, no driver
  host.add_dir("/sys/bus/pci/devices");
  auto r = run(host, {"plan"});
  auto first_note = r.out.find("note: ");
  ASSERT_NE(first_note, std::string::npos) << r.out << r.err;
  EXPECT_NE(r.out.find("has no NVIDIA GPU", first_note), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("this machine has no NVIDIA GPU"), first_note + 6) << r.out;
}

}  // namespace
}  // namespace tfgpu
