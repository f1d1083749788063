// Python discovery on a FakeHost: PATH, pyenv, venv, conda; versions, site-packages,
// packages and TensorFlow's build_info read without running anything.
#include <gtest/gtest.h>

#include "host/fake_host.h"
#include "python/python_env.h"
#include "support/probe_fixtures.h"

namespace tfgpu {
namespace {

using python::Candidate;

const PythonEnv* find_env(const std::vector<PythonEnv>& envs, const std::string& exe) {
  for (const auto& e : envs)
    if (e.executable == exe) return &e;
  return nullptr;
}

std::vector<PythonEnv> read_all(const FakeHost& host, const std::vector<std::string>& given = {}) {
  std::vector<PythonEnv> out;
  for (const auto& c : python::find_interpreters(host, given)) out.push_back(python::read_environment(host, c));
  python::mark_active(host, out);
  return out;
}

TEST(PythonDiscovery, FindsPathPyenvVersionsAndSkipsShims) {
  FakeHost host;
  host.set_env("HOME", "/home/u");
  host.set_env("PATH", "/home/u/.pyenv/shims:/usr/bin");
  host.add_file("/home/u/.pyenv/shims/python3", "#!/bin/bash\nexec pyenv ...\n", 0755);
  host.add_file("/usr/bin/python3.11", test::elf64_stub(), 0755);
  host.add_symlink("/usr/bin/python3", "python3.11");
  host.add_file("/usr/bin/python3-config", "#!/bin/sh\n", 0755);
  host.add_dir("/usr/lib/python3/dist-packages");
  host.add_file("/home/u/.pyenv/versions/3.10.13/bin/python3", test::elf64_stub(), 0755);
  host.add_file("/home/u/.pyenv/versions/3.12.1/bin/python3.12", test::elf64_stub(), 0755);
  host.add_symlink("/home/u/.pyenv/versions/3.12.1/bin/python3", "python3.12");

  auto envs = read_all(host);
  ASSERT_EQ(envs.size(), 3u);
  // python3 and python3.11 in /usr/bin are one interpreter, found on PATH first.
  EXPECT_EQ(envs[0].executable, "/usr/bin/python3");
  EXPECT_EQ(envs[0].kind, "system");
  EXPECT_EQ(envs[0].version, "3.11");  // no patchlevel.h: major.minor from the file name
  EXPECT_EQ(envs[0].bits, 64);
  EXPECT_EQ(envs[0].prefix, "/usr");
  EXPECT_EQ(envs[0].site_packages, std::vector<std::string>{"/usr/lib/python3/dist-packages"});
  EXPECT_EQ(envs[1].kind, "pyenv");
  EXPECT_EQ(envs[1].version, "3.10.13");
  EXPECT_EQ(envs[1].source, "pyenv");
  EXPECT_EQ(envs[2].version, "3.12.1");
  // Shims are scripts: no shim path is reported as an interpreter.
  for (const auto& e : envs) EXPECT_EQ(e.executable.find("/shims/"), std::string::npos) << e.executable;
}

TEST(PythonDiscovery, VenvIsItsOwnEnvironmentAndIsActive) {
  FakeHost host;
  host.set_env("HOME", "/home/u");
  host.set_env("PATH", "/home/u/proj/.venv/bin:/usr/bin");
  host.set_env("VIRTUAL_ENV", "/home/u/proj/.venv");
  host.add_file("/usr/bin/python3.11", test::elf64_stub(), 0755);
  host.add_symlink("/usr/bin/python3", "python3.11");
  host.add_symlink("/home/u/proj/.venv/bin/python3", "/usr/bin/python3");
  host.add_file("/home/u/proj/.venv/pyvenv.cfg",
                "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.11.2\n"
                "executable = /usr/bin/python3.11\ncommand = /usr/bin/python3 -m venv /home/u/proj/.venv\n");
  test::add_tensorflow(host, "/home/u/proj/.venv/lib/python3.11/site-packages", "tensorflow", "2.21.0",
                          test::kLinuxBuildInfo221);

  auto envs = read_all(host);
  ASSERT_EQ(envs.size(), 2u);
  const PythonEnv* venv = find_env(envs, "/home/u/proj/.venv/bin/python3");
  ASSERT_NE(venv, nullptr);
  EXPECT_EQ(venv->kind, "venv");
  EXPECT_EQ(venv->name, ".venv");
  EXPECT_EQ(venv->version, "3.11.2");  // from pyvenv.cfg
  EXPECT_TRUE(venv->active);
  EXPECT_EQ(venv->site_packages, std::vector<std::string>{"/home/u/proj/.venv/lib/python3.11/site-packages"});
  ASSERT_EQ(venv->tensorflow.size(), 1u);
  const auto& tf = venv->tensorflow[0];
  EXPECT_EQ(tf.package, "tensorflow");
  EXPECT_EQ(tf.version, "2.21.0");
  EXPECT_EQ(tf.build_info_state.status, ProbeStatus::kOk);
  EXPECT_EQ(tf.build_info_state.source,
            "/home/u/proj/.venv/lib/python3.11/site-packages/tensorflow/python/platform/build_info.py");
  EXPECT_EQ(tf.build_info.at("cuda_version"), "12.5.1");
  EXPECT_EQ(tf.build_info.at("cudnn_version"), "9");
  EXPECT_EQ(tf.build_info.at("cuda_compute_capabilities"), "sm_60,sm_70,sm_80,sm_89,compute_90");
  EXPECT_EQ(tf.build_info.at("is_cuda_build"), "True");
  // The system interpreter is found too, but is not the active one.
  const PythonEnv* sys = find_env(envs, "/usr/bin/python3");
  ASSERT_NE(sys, nullptr);
  EXPECT_FALSE(sys->active);
}

TEST(PythonDiscovery, TheEnvironmentTfgpuIsInstalledInIsFoundFromItsOwnPath) {
  // `pip install tfgpu` into a venv, then /opt/tfvenv/bin/tfgpu run without activating it.
  FakeHost host;
  host.add_file("/opt/tfvenv/pyvenv.cfg", "home = /usr/bin\nversion = 3.11.2\n");
  host.add_file("/opt/tfvenv/bin/python3", test::elf64_stub(), 0755);
  auto own = python::own_environment(host, "/opt/tfvenv/bin/tfgpu");
  ASSERT_TRUE(own.has_value());
  EXPECT_EQ(own->executable, "/opt/tfvenv/bin/python3");
  EXPECT_EQ(own->kind, "venv");
  EXPECT_EQ(own->name, "tfvenv");
  EXPECT_EQ(own->source, "tfgpu's environment");
  // conda: the env's conda-meta/ marks it.
  host.add_file("/home/u/miniconda3/envs/tf/bin/python3", test::elf64_stub(), 0755);
  host.add_dir("/home/u/miniconda3/envs/tf/conda-meta");
  auto conda = python::own_environment(host, "/home/u/miniconda3/envs/tf/bin/tfgpu");
  ASSERT_TRUE(conda.has_value());
  EXPECT_EQ(conda->kind, "conda");
  EXPECT_EQ(conda->name, "tf");
  // Not in an environment: /usr/local/bin (no pyvenv.cfg, no conda-meta), a bare folder.
  host.add_file("/usr/local/bin/python3", test::elf64_stub(), 0755);
  EXPECT_FALSE(python::own_environment(host, "/usr/local/bin/tfgpu").has_value());
  EXPECT_FALSE(python::own_environment(host, "/opt/tfvenv/tfgpu").has_value());
  EXPECT_FALSE(python::own_environment(host, "").has_value());
  // Windows: a venv's Scripts\ folder.
  FakeHost win(Platform::kWindows);
  win.add_file("C:/Users/u/tfvenv/pyvenv.cfg", "home = C:\\Python311\n");
  win.add_file("C:/Users/u/tfvenv/Scripts/python.exe", "MZ", 0755);
  auto w = python::own_environment(win, "C:/Users/u/tfvenv/Scripts/tfgpu.exe");
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->executable, "C:/Users/u/tfvenv/Scripts/python.exe");
}

TEST(PythonDiscovery, CondaEnvironmentsFromEnvironmentsTxtAndRoots) {
  FakeHost host;
  host.set_env("HOME", "/home/u");
  host.set_env("PATH", "/usr/bin");
  host.set_env("CONDA_PREFIX", "/home/u/miniconda3/envs/tf");
  host.add_file("/home/u/.conda/environments.txt", "/home/u/miniconda3\n/home/u/miniconda3/envs/tf\n/data/envs/other\n");
  for (const char* prefix : {"/home/u/miniconda3", "/home/u/miniconda3/envs/tf", "/data/envs/other"}) {
    host.add_file(std::string(prefix) + "/bin/python3.10", test::elf64_stub(), 0755);
    host.add_symlink(std::string(prefix) + "/bin/python3", "python3.10");
    host.add_file(std::string(prefix) + "/conda-meta/python-3.10.14-h955ad1f_0.json", "{}");
    host.add_dir(std::string(prefix) + "/lib/python3.10/site-packages");
  }
  test::add_dist(host, "/home/u/miniconda3/envs/tf/lib/python3.10/site-packages", "tensorflow-cpu", "2.12.0");
  test::add_dist(host, "/home/u/miniconda3/envs/tf/lib/python3.10/site-packages", "requests", "2.31.0");

  auto envs = read_all(host);
  ASSERT_EQ(envs.size(), 3u);
  const PythonEnv* tf = find_env(envs, "/home/u/miniconda3/envs/tf/bin/python3");
  ASSERT_NE(tf, nullptr);
  EXPECT_EQ(tf->kind, "conda");
  EXPECT_EQ(tf->name, "tf");
  EXPECT_EQ(tf->version, "3.10.14");  // conda-meta/python-3.10.14-*.json
  EXPECT_TRUE(tf->active);            // CONDA_PREFIX
  ASSERT_EQ(tf->packages.size(), 1u) << "only relevant packages are kept";
  EXPECT_EQ(tf->packages[0].name, "tensorflow-cpu");
  ASSERT_EQ(tf->tensorflow.size(), 1u);
  EXPECT_EQ(tf->tensorflow[0].package, "tensorflow-cpu");
  EXPECT_EQ(tf->tensorflow[0].build_info_state.status, ProbeStatus::kAbsent);
  EXPECT_NE(find_env(envs, "/data/envs/other/bin/python3"), nullptr);
}

TEST(PythonDiscovery, PyenvGlobalVersionIsTheActiveOneBehindTheShims) {
  FakeHost host;
  host.set_env("HOME", "/home/u");
  host.set_env("PATH", "/home/u/.pyenv/shims:/usr/bin");
  host.add_file("/home/u/.pyenv/shims/python3", "#!/bin/bash\n", 0755);
  host.add_file("/home/u/.pyenv/version", "3.12.1\n");
  host.add_file("/usr/bin/python3", test::elf64_stub(), 0755);
  host.add_file("/home/u/.pyenv/versions/3.10.13/bin/python3", test::elf64_stub(), 0755);
  host.add_file("/home/u/.pyenv/versions/3.12.1/bin/python3", test::elf64_stub(), 0755);
  auto envs = read_all(host);
  ASSERT_EQ(envs.size(), 3u);
  EXPECT_FALSE(find_env(envs, "/usr/bin/python3")->active);
  EXPECT_FALSE(find_env(envs, "/home/u/.pyenv/versions/3.10.13/bin/python3")->active);
  EXPECT_TRUE(find_env(envs, "/home/u/.pyenv/versions/3.12.1/bin/python3")->active);
}

TEST(PythonDiscovery, GivenInterpreterIsIncludedFirst) {
  FakeHost host;
  host.set_env("PATH", "");
  host.add_file("/opt/py/bin/python3.9", test::elf64_stub(), 0755);
  auto envs = read_all(host, {"/opt/py/bin/python3.9"});
  ASSERT_EQ(envs.size(), 1u);
  EXPECT_EQ(envs[0].kind, "given");
  EXPECT_EQ(envs[0].source, "--python");
  EXPECT_EQ(envs[0].version, "3.9");
}

// A site-packages dir that cannot be listed leaves TensorFlow unknown, not absent.
TEST(PythonPackages, UnlistableSitePackagesIsAFailedStateNotNoPackages) {
  FakeHost host;
  host.set_env("HOME", "/home/u");
  host.set_env("PATH", "/home/u/proj/.venv/bin:/usr/bin");
  host.add_file("/usr/bin/python3.11", test::elf64_stub(), 0755);
  host.add_symlink("/home/u/proj/.venv/bin/python3", "/usr/bin/python3.11");
  host.add_file("/home/u/proj/.venv/pyvenv.cfg", "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.11.2\n");
  const std::string site = "/home/u/proj/.venv/lib/python3.11/site-packages";
  test::add_tensorflow(host, site, "tensorflow", "2.21.0", test::kLinuxBuildInfo221);
  host.add_dir("/usr/lib/python3/dist-packages");
  host.set_list_dir_error(site, Error::io("cannot list " + site + ": Permission denied"));

  auto envs = read_all(host);
  const PythonEnv* venv = find_env(envs, "/home/u/proj/.venv/bin/python3");
  ASSERT_NE(venv, nullptr);
  EXPECT_TRUE(venv->packages.empty());
  EXPECT_TRUE(venv->tensorflow.empty());
  EXPECT_EQ(venv->packages_state.status, ProbeStatus::kFailed);
  EXPECT_NE(venv->packages_state.reason.find("Permission denied"), std::string::npos) << venv->packages_state.reason;
  const PythonEnv* system = find_env(envs, "/usr/bin/python3.11");
  ASSERT_NE(system, nullptr);
  EXPECT_EQ(system->packages_state.status, ProbeStatus::kOk) << system->packages_state.reason;
}

TEST(PythonPackages, ReadsNameAndVersionFromMetadataNotTheDirName) {
  FakeHost host;
  const std::string site = "/s";
  // Real METADATA header layout (core metadata 2.1); the dir name is normalised.
  host.add_file(site + "/tf_keras-2.15.1.dist-info/METADATA",
                "Metadata-Version: 2.1\nName: tf_keras\nVersion: 2.15.1\nSummary: Deep learning for humans.\n\nBody\n");
  host.add_file(site + "/nvidia_cudnn_cu12-9.3.0.75.dist-info/METADATA",
                "Metadata-Version: 2.1\nName: nvidia-cudnn-cu12\nVersion: 9.3.0.75\n");
  host.add_file(site + "/requests-2.32.3.dist-info/METADATA", "Metadata-Version: 2.1\nName: requests\nVersion: 2.32.3\n");
  auto pkgs = python::relevant_packages(host, site);
  ASSERT_EQ(pkgs.size(), 2u);
  EXPECT_EQ(pkgs[0].name, "nvidia-cudnn-cu12");
  EXPECT_EQ(pkgs[0].version, "9.3.0.75");
  EXPECT_EQ(pkgs[0].source, site + "/nvidia_cudnn_cu12-9.3.0.75.dist-info/METADATA");
  EXPECT_EQ(pkgs[1].name, "tf-keras");
}

TEST(PythonPackages, MalformedMetadataFallsBackToTheDirectoryName) {
  FakeHost host;
  host.add_file("/s/torch-2.3.0.dist-info/METADATA", std::string("\0\xff garbage", 10));
  auto pkgs = python::relevant_packages(host, "/s");
  ASSERT_EQ(pkgs.size(), 1u);
  EXPECT_EQ(pkgs[0].name, "torch");
  EXPECT_EQ(pkgs[0].version, "2.3.0");
  EXPECT_EQ(pkgs[0].source, "/s/torch-2.3.0.dist-info");
}

TEST(PythonPackages, BrokenBuildInfoIsAFailedFactNotACrash) {
  FakeHost host;
  test::add_tensorflow(host, "/s", "tensorflow", "2.16.1", "build_info = collections.OrderedDict([('cuda_version', ");
  PythonEnv env;
  env.packages = python::relevant_packages(host, "/s");
  auto tf = python::read_tensorflow(host, env);
  ASSERT_EQ(tf.size(), 1u);
  EXPECT_EQ(tf[0].build_info_state.status, ProbeStatus::kFailed);
  EXPECT_FALSE(tf[0].build_info_state.reason.empty());
}

}  // namespace
}  // namespace tfgpu
