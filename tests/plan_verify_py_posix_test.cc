// The emitted verify.py run by a real Python against a stand-in `tensorflow` module.
// Hand-written stand-in, because this machine has no GPU: the real TensorFlow here can only
// answer "no GPU", and what is tested is verify.py's comparison with the plan (build_info,
// compute capability, the lock next to it) and its one-line summary, for both answers.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "plan/emit.h"
#include "plan/lock.h"
#include "plan_scenarios.h"
#include "support/shell_posix.h"

namespace tfgpu::plan {
namespace {

namespace fs = std::filesystem;

// A `tensorflow` package answering like a TF built for `cuda`/`cudnn` that sees `gpus` GPUs
// of compute capability `cc`.
void write_fake_tf(const fs::path& dir, const std::string& version, const std::string& cuda, const std::string& cudnn,
                   int gpus, const std::string& cc) {
  fs::create_directories(dir / "tensorflow" / "keras");
  std::ofstream(dir / "tensorflow" / "keras" / "__init__.py") << "";
  std::ofstream(dir / "tensorflow" / "keras" / "mixed_precision.py")
      << "_p = 'float32'\n"
         "class _Policy:\n    def __init__(self, n): self.name = n\n"
         "def set_global_policy(n):\n    global _p\n    _p = n\n"
         "def global_policy():\n    return _Policy(_p)\n";
  std::ofstream(dir / "tensorflow" / "__init__.py")
      << "import contextlib, types\n"
      << "__version__ = '" << version << "'\n"
      << "class _Dev:\n    def __init__(self, i): self.name = '/physical_device:GPU:%d' % i\n"
      << "class _M:\n    def __init__(self, n): self.n = n\n    def numpy(self): return self\n"
      << "_gpus = [_Dev(i) for i in range(" << gpus << ")]\n"
      << "test = types.SimpleNamespace(is_built_with_cuda=lambda: True)\n"
      << "sysconfig = types.SimpleNamespace(get_build_info=lambda: {'cuda_version': '" << cuda
      << "', 'cudnn_version': '" << cudnn << "', 'cuda_compute_capabilities': ['sm_80']})\n"
      << "config = types.SimpleNamespace(list_physical_devices=lambda kind: list(_gpus), experimental=types.SimpleNamespace(\n"
      << "    set_memory_growth=lambda g, on: None,\n"
      << "    get_device_details=lambda g: {'device_name': 'NVIDIA Fake', 'compute_capability': tuple(int(x) for x in '" << cc
      << "'.split('.'))}))\n"
      << "random = types.SimpleNamespace(normal=lambda shape: _M(shape[0]))\n"
      << "def matmul(a, b): return _M(a.n)\n"
      << "def device(name): return contextlib.nullcontext()\n";
}

struct VerifyRun : ::tfgpu::testing::ShellRun {
  std::string first_line;
};

VerifyRun run_verify(const fs::path& dir) {
  VerifyRun r;
  static_cast<::tfgpu::testing::ShellRun&>(r) =
      ::tfgpu::testing::run_shell("cd '" + dir.string() + "' && PYTHONPATH='" + (dir / "site").string() + "' python3 verify.py");
  r.first_line = r.out.substr(0, r.out.find('\n'));
  return r;
}

class VerifyPy : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tfgpu_verify_py_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    // The WSL2 plan of the classic machine: TF 2.x on Linux with the KB's CUDA / cuDNN.
    lock_ = testing::lock_for(testing::plan_for(testing::classic_machine(), {Target::kWsl2, std::nullopt, Preference::kReuse}));
    std::ofstream(dir_ / "verify.py") << emit_verify_py(lock_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
  Lock lock_;
};

TEST_F(VerifyPy, AMatchingTensorflowIsOneOkLineThenJson) {
  write_fake_tf(dir_ / "site", lock_.tensorflow, lock_.cuda + ".1", lock_.cudnn, 1, lock_.compute_capability);
  VerifyRun r = run_verify(dir_);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.first_line.rfind("verify: OK - TensorFlow " + lock_.tensorflow + " uses 1 GPU(s)", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("\n{"), std::string::npos) << "the JSON object follows on its own line: " << r.out;
}

TEST_F(VerifyPy, ABuildForAnotherCudaFailsAndSaysBoth) {
  write_fake_tf(dir_ / "site", lock_.tensorflow, "11.2", lock_.cudnn, 1, lock_.compute_capability);
  VerifyRun r = run_verify(dir_);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.first_line.find("verify: FAILED - built for CUDA 11.2, the plan says " + lock_.cuda), std::string::npos) << r.out;
}

TEST_F(VerifyPy, NoGpuIsAFailureWithTheNextStep) {
  write_fake_tf(dir_ / "site", lock_.tensorflow, lock_.cuda, lock_.cudnn, 0, lock_.compute_capability);
  VerifyRun r = run_verify(dir_);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.first_line.find("TensorFlow lists no GPU: run tfgpu doctor --lock tfgpu.lock.toml"), std::string::npos) << r.out;
}

TEST_F(VerifyPy, TheLockNextToItIsWhatItComparesWith) {
  Lock edited = lock_;
  edited.tensorflow = "2.99.0";
  std::ofstream(dir_ / "tfgpu.lock.toml") << lock_to_toml(edited);
  write_fake_tf(dir_ / "site", lock_.tensorflow, lock_.cuda, lock_.cudnn, 1, lock_.compute_capability);
  VerifyRun r = run_verify(dir_);
  bool has_tomllib = std::system("python3 -c 'import tomllib' 2>/dev/null") == 0;
  if (!has_tomllib) GTEST_SKIP() << "python3 < 3.11 reads no TOML: verify.py uses its own copy";
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.first_line.find("the plan pins 2.99.0"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace tfgpu::plan
