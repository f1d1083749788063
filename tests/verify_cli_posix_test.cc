// `tfgpu verify` and `tfgpu bench` end to end: the real tfgpu binary, its child process,
// the mock libcuda.so.1 / libcublas.so.13 found through LD_LIBRARY_PATH exactly as the
// real ones would be. Covers the failures only a child process can survive: a driver that
// crashes or hangs inside cuInit.
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "host/host.h"
#include "support/mock_cuda.h"
#include "util/error.h"

namespace tfgpu {
namespace {

ProcessResult run_tfgpu(std::vector<std::string> args, std::map<std::string, std::string> env = {},
                        int timeout_ms = 60000) {
  auto host = make_system_host();
  ProcessSpec spec;
  spec.argv = {TFGPU_EXE};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.timeout = std::chrono::milliseconds(timeout_ms);
  env.emplace("LD_LIBRARY_PATH", testing::kMockCudaLibDir);
  env.emplace("TFGPU_MOCK_CUDA", "ok");
  env.emplace("COLUMNS", "1000");  // whole sentences on one line: the assertions search them
  spec.env_overrides = env;
  auto r = host->run(spec);
  EXPECT_TRUE(r.has_value());
  return r ? *r : ProcessResult{};
}

TEST(VerifyCli, HealthyGpuExitsZeroAndSaysItWorks) {
  auto r = run_tfgpu({"verify"});
  EXPECT_EQ(r.exit_code, kExitOk) << r.out << r.err;
  EXPECT_NE(r.out.find("the GPU works end to end (1 device checked)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[pass] Run a kernel"), std::string::npos) << r.out;
}

TEST(VerifyCli, JsonOutputIsTheDocumentedSchema) {
  auto r = run_tfgpu({"verify", "--json"});
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["schema"], "tfgpu.verify/1");
  EXPECT_EQ(j["passed"], true);
  EXPECT_EQ(j["devices"][0]["name"], "NVIDIA GeForce RTX 4090");
  EXPECT_EQ(j["devices"][0]["steps"].size(), 6u);
}

TEST(VerifyCli, NoDriverIsAFailureWithAFixNotACrash) {
  auto r = run_tfgpu({"verify", "--driver", "libcuda-not-here.so.1"});
  EXPECT_EQ(r.exit_code, kExitProblems) << r.err;
  EXPECT_NE(r.out.find("[FAIL] Load the CUDA driver library"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("fix: Install the NVIDIA driver"), std::string::npos) << r.out;
}

TEST(VerifyCli, CrashingDriverIsReportedAndTfgpuSurvives) {
  auto r = run_tfgpu({"verify"}, {{"TFGPU_MOCK_CUDA", "crash"}});
  EXPECT_TRUE(r.exited);
  EXPECT_EQ(r.exit_code, kExitProblems) << r.err;
  EXPECT_NE(r.out.find("crashed: signal 11"), std::string::npos) << r.out;
}

TEST(VerifyCli, HangingDriverIsKilledAfterTheTimeout) {
  auto r = run_tfgpu({"verify", "--timeout", "1"}, {{"TFGPU_MOCK_CUDA", "hang"}});
  EXPECT_EQ(r.exit_code, kExitProblems) << r.err;
  EXPECT_NE(r.out.find("timeout"), std::string::npos) << r.out;
}

// Hostile drivers (tests/support/mock_hostile.h) through the real binary: the deadline
// holds, the answer says "timed out", and the library's setsid() grandchild is killed.
TEST(VerifyCli, DriverClosingItsDescriptorsAndBlockingTimesOut) {
  auto r = run_tfgpu({"verify", "--timeout", "1"}, {{"TFGPU_MOCK_HOSTILE", "close_fds_block"}}, 20000);
  EXPECT_FALSE(r.timed_out) << "tfgpu verify itself hung";
  EXPECT_EQ(r.exit_code, kExitProblems) << r.err;
  EXPECT_NE(r.out.find("timed out"), std::string::npos) << r.out;
}

TEST(VerifyCli, StoppedDriverTimesOut) {
  auto r = run_tfgpu({"verify", "--timeout", "1"}, {{"TFGPU_MOCK_HOSTILE", "sigstop"}}, 20000);
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, kExitProblems) << r.err;
  EXPECT_NE(r.out.find("timed out"), std::string::npos) << r.out;
}

TEST(VerifyCli, SetsidGrandchildOfTheDriverIsKilled) {
  std::string pidfile = std::string(TFGPU_TEST_BINARY_DIR) + "/verify_grandchild_" + std::to_string(::getpid()) + ".pid";
  std::remove(pidfile.c_str());
  auto r = run_tfgpu({"verify", "--timeout", "1"},
                     {{"TFGPU_MOCK_HOSTILE", "setsid_grandchild_block"}, {"TFGPU_MOCK_PIDFILE", pidfile}}, 20000);
  EXPECT_FALSE(r.timed_out);
  EXPECT_NE(r.out.find("timed out"), std::string::npos) << r.out;
  long pid = 0;
  std::ifstream(pidfile) >> pid;
  ASSERT_GT(pid, 0) << "the mock's grandchild did not start";
  EXPECT_TRUE(::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) << "grandchild " << pid << " outlived tfgpu verify";
}

TEST(ProbeCliHostile, DriverClosingItsDescriptorsAndBlockingTimesOutAndIsAFailure) {
  std::string nvml = std::string(TFGPU_TEST_BINARY_DIR) + "/mocks_nvml";
  auto r = run_tfgpu(
      {"probe", "--json", "--timeout", "0.5"},
      {{"LD_LIBRARY_PATH", nvml + "/current:" + nvml + "/cuda"}, {"TFGPU_MOCK_HOSTILE", "close_fds_block"}}, 30000);
  EXPECT_FALSE(r.timed_out) << "tfgpu probe itself hung";
  ASSERT_EQ(r.exit_code, kExitOk) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["driver"]["state"]["status"], "failed") << j["driver"].dump();
  EXPECT_NE(j["driver"].dump().find("timed out after 500 ms"), std::string::npos) << j["driver"].dump();
}

TEST(ProbeCliHostile, DriverExitingInItsConstructorIsAFailureNotNoDriver) {
  std::string nvml = std::string(TFGPU_TEST_BINARY_DIR) + "/mocks_nvml";
  auto r = run_tfgpu(
      {"probe", "--json", "--timeout", "2"},
      {{"LD_LIBRARY_PATH", nvml + "/current:" + nvml + "/cuda"}, {"TFGPU_MOCK_HOSTILE", "exit_in_constructor"}}, 30000);
  ASSERT_EQ(r.exit_code, kExitOk) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["driver"]["state"]["status"], "failed") << j["driver"].dump();
}

TEST(BenchCli, DriverClosingItsDescriptorsAndBlockingTimesOut) {
  auto r = run_tfgpu({"bench", "--quick", "--timeout", "1"}, {{"TFGPU_MOCK_HOSTILE", "close_fds_block"}}, 20000);
  EXPECT_FALSE(r.timed_out) << "tfgpu bench itself hung";
  EXPECT_EQ(r.exit_code, kExitProblems) << r.err;
  EXPECT_NE(r.out.find("timed out"), std::string::npos) << r.out;
}

TEST(VerifyCli, WrongKernelResultFailsLoudly) {
  auto r = run_tfgpu({"verify"}, {{"TFGPU_MOCK_CUDA", "wrong_result"}});
  EXPECT_EQ(r.exit_code, kExitProblems);
  EXPECT_NE(r.out.find("FAILED at \"Run a kernel"), std::string::npos) << r.out;
}

TEST(VerifyCli, MalformedPredictionFileIsAUsageError) {
  std::string path = std::string(TFGPU_TEST_BINARY_DIR) + "/bad_prediction.json";
  std::ofstream(path) << "{\"will_use_gpu\": \"maybe\"}";
  auto r = run_tfgpu({"verify", "--python", "/bin/false", "--prediction", path});
  EXPECT_EQ(r.exit_code, kExitUsage);
  EXPECT_NE(r.err.find("will_use_gpu"), std::string::npos) << r.err;
}

TEST(BenchCli, QuickJsonHasFiguresPeaksAndTheSpeedUp) {
  auto r = run_tfgpu({"bench", "--quick", "--sizes", "64,128", "--copy-mib", "4", "--json"});
  ASSERT_EQ(r.exit_code, kExitOk) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["schema"], "tfgpu.bench/1");
  EXPECT_EQ(j["mode"], "quick");
  EXPECT_EQ(j["gemm"].size(), 10u);                 // FP32, TF32, FP16, BF16 and FP8 (an RTX 4090 is CC 8.9)
  EXPECT_EQ(j["peak"]["gpu"], "GeForce RTX 4090");  // from the KB, matched by the driver's name
  EXPECT_EQ(j["peak"]["matched_by"], "name");
  EXPECT_TRUE(j["gemm"][0]["percent_of_peak"].is_number());
  EXPECT_EQ(j["mixed_precision_speedup"]["bf16"], "BF16 GEMM is 2.2x FP32 on this card (128: 155.0 vs 70.0 TFLOPS)");
  EXPECT_EQ(j["cublas_library"]["opened"], "libcublas.so.13");  // first KB name that loads
}

TEST(BenchCli, Fp8RowOnAHopperCardIsAPercentOfTheKbFp8Peak) {
  auto r = run_tfgpu({"bench", "--quick", "--sizes", "64,128", "--copy-mib", "4", "--json"},
                     {{"TFGPU_MOCK_CUDA_NAME", "NVIDIA H200 SXM 141GB"}, {"TFGPU_MOCK_CUDA_CC", "9.0"}});
  ASSERT_EQ(r.exit_code, kExitOk) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["peak"]["gpu"], "H200 SXM 141GB");
  EXPECT_EQ(j["cublaslt_library"]["opened"], "libcublasLt.so.13");  // first KB name that loads
  int fp8_rows = 0;
  for (const auto& g : j["gemm"]) {
    if (g["precision"] != "fp8") continue;
    ++fp8_rows;
    EXPECT_EQ(g["check"], "ok");
    EXPECT_NEAR(g["percent_of_peak"].get<double>(), 100.0 * 990.0 / j["peak"]["fp8_tflops"].get<double>(), 0.1);
  }
  EXPECT_EQ(fp8_rows, 2);
  EXPECT_FALSE(j.contains("fp8_note"));
}

TEST(BenchCli, Fp8IsAbsentWithANoteBelowTheKbFloor) {
  auto r = run_tfgpu({"bench", "--quick", "--sizes", "64", "--copy-mib", "1"},
                     {{"TFGPU_MOCK_CUDA_NAME", "NVIDIA GeForce RTX 3090"}, {"TFGPU_MOCK_CUDA_CC", "8.6"}});
  EXPECT_EQ(r.exit_code, kExitOk) << r.out << r.err;
  EXPECT_NE(r.out.find("FP8 GEMM: not supported on this card (CC 8.6 < 8.9)"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("FP8     "), std::string::npos) << r.out;
}

TEST(BenchCli, UnloadableCublasLtIsReportedOnTheFp8RowsAndTheRestRuns) {
  auto r =
      run_tfgpu({"bench", "--quick", "--sizes", "64", "--copy-mib", "1", "--cublaslt", "libcublasLt-not-here.so.13"},
                {{"TFGPU_MOCK_CUDA_CC", "9.0"}});
  EXPECT_EQ(r.exit_code, kExitOk) << r.out << r.err;  // FP8 is opportunistic: its absence is not a failure
  EXPECT_NE(r.out.find("FP8        64  cuBLASLt not loaded: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("BF16 GEMM is"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("device to device, cuMemcpyDtoD"), std::string::npos) << r.out;
}

TEST(BenchCli, BadSizesAreAUsageError) {
  auto r = run_tfgpu({"bench", "--sizes", "64,lots"});
  EXPECT_EQ(r.exit_code, kExitUsage);
  EXPECT_NE(r.err.find("--sizes: 'lots'"), std::string::npos) << r.err;
}

TEST(BenchCli, CrashingDriverIsReportedAndTfgpuSurvives) {
  auto r = run_tfgpu({"bench", "--quick"}, {{"TFGPU_MOCK_CUDA", "crash"}});
  EXPECT_EQ(r.exit_code, kExitProblems);
  EXPECT_NE(r.out.find("the benchmark process did not finish: crashed"), std::string::npos) << r.out;
}

// --python without --prediction: doctor's own verdict, computed in-process from a live
// probe. The venv holds tensorflow-cpu (a CPU-only build on every machine, so the
// verdict is "will not use the GPU" wherever this runs); its "python" is a script
// printing canned TensorFlow answers.
class VerifyDoctorPrediction : public ::testing::Test {
 protected:
  void SetUp() override {
    namespace fs = std::filesystem;
    root_ = fs::temp_directory_path() / ("tfgpu_verify_doctor_" + std::to_string(::getpid()) + "_" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_ / "home");
    fs::create_directories(root_ / "venv/bin");
    write(root_ / "venv/pyvenv.cfg", "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.11.9\n");
    fs::path site = root_ / "venv/lib/python3.11/site-packages";
    write(site / "tensorflow_cpu-2.16.1.dist-info/METADATA",
          "Metadata-Version: 2.1\nName: tensorflow-cpu\nVersion: 2.16.1\n\n");
    fs::create_directories(site / "tensorflow");
    python_ = (root_ / "venv/bin/python3").string();
  }
  void TearDown() override { std::filesystem::remove_all(root_); }

  static void write(const std::filesystem::path& p, const std::string& text) {
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << text;
  }
  // The interpreter prints TensorFlow's answer: `gpus` GPUs and a matmul placed on one.
  void tensorflow_answers(int gpus) {
    std::string list, dev = "/job:localhost/replica:0/task:0/device:CPU:0";
    for (int i = 0; i < gpus; ++i)
      list += std::string(i ? ", " : "") + "\"/physical_device:GPU:" + std::to_string(i) + "\"";
    std::string json = R"({"schema": "tfgpu.tfcheck/1", "python": "3.11.9", "tf_version": "2.16.1", "gpus": [)" + list +
                       R"(], "matmul_cpu": {"ran": true, "device": ")" + dev + R"(", "ms": 30})";
    if (gpus > 0)
      json +=
          R"(, "matmul_gpu": {"ran": true, "device": "/job:localhost/replica:0/task:0/device:GPU:0", "ms": 1}, "results_match": true)";
    json += "}";
    write(python_, "#!/bin/sh\ncat <<'TFGPU_EOF'\n" + json + "\nTFGPU_EOF\n");
    ::chmod(python_.c_str(), 0755);
  }
  ProcessResult verify(std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"verify", "--python", python_};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_tfgpu(args,
                     {{"HOME", (root_ / "home").string()},
                      {"PATH", "/usr/bin:/bin"},
                      {"VIRTUAL_ENV", ""},
                      {"CONDA_PREFIX", ""},
                      {"CONDA_EXE", ""},
                      {"PYENV_ROOT", ""}},
                     120000);
  }
  std::filesystem::path root_;
  std::string python_;
};

TEST_F(VerifyDoctorPrediction, MatchingAnswerReportsPredictionConfirmed) {
  tensorflow_answers(0);
  auto r = verify({"--json"});
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out << r.err;
  EXPECT_EQ(j["prediction"]["verdict"], "confirmed") << r.out;
  EXPECT_EQ(j["prediction"]["summary"], "prediction confirmed: TensorFlow does not use the GPU");
  std::string predicted = j["prediction"]["predicted"];
  EXPECT_TRUE(predicted.starts_with("tfgpu doctor (Python 3.11.9 (" + python_ +
                                    ")) predicted: TensorFlow will not use the GPU, because "))
      << predicted;
  EXPECT_NE(predicted.find("tensorflow-cpu"), std::string::npos) << predicted;
}

TEST_F(VerifyDoctorPrediction, DifferentAnswerReportsTheDifferenceLoudly) {
  tensorflow_answers(1);
  auto r = verify();
  EXPECT_EQ(r.exit_code, kExitProblems) << r.out << r.err;
  EXPECT_NE(r.out.find("!!! PREDICTION DIFFERS FROM TENSORFLOW'S REAL ANSWER"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("predicted TensorFlow would not use the GPU; it lists 1 GPU and ran a matmul on /GPU:0"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("tfgpu doctor (Python 3.11.9 (" + python_ + ")) predicted: TensorFlow will not use the GPU"),
            std::string::npos)
      << r.out;
}

// Reasons, not only yes/no: the fake TensorFlow reports the files its process mapped
// (as the real check script reads them from /proc/self/maps), and each library whose file
// differs from the predicted one is a difference of its own.
TEST_F(VerifyDoctorPrediction, EachLibraryTfMappedFromAnotherFileThanPredictedIsADifference) {
  std::string json =
      R"({"schema": "tfgpu.tfcheck/1", "python": "3.11.9", "tf_version": "2.18.0", "gpus": ["/physical_device:GPU:0"],)"
      R"( "matmul_cpu": {"ran": true, "device": "/job:localhost/replica:0/task:0/device:CPU:0", "ms": 30},)"
      R"( "matmul_gpu": {"ran": true, "device": "/job:localhost/replica:0/task:0/device:GPU:0", "ms": 1},)"
      R"( "results_match": true, "maps": ["/usr/lib/x86_64-linux-gnu/libc.so.6", "/v/sp/nvidia/cuda_runtime/lib/libcudart.so.12",)"
      R"( "/usr/local/cuda-13.0/lib/libcusparse.so.12.6.3.3"]})";
  write(python_, "#!/bin/sh\ncat <<'TFGPU_EOF'\n" + json + "\nTFGPU_EOF\n");
  ::chmod(python_.c_str(), 0755);
  std::string file = (root_ / "prediction.json").string();
  write(file, R"({"will_use_gpu": true, "gpus": 1, "source": "my notes", "libraries": [)"
              R"({"name": "libcudart.so.12", "component": "cudart", "path": "/v/sp/nvidia/cuda_runtime/lib/libcudart.so.12"},)"
              R"({"name": "libcusparse.so.12", "component": "cusparse", "path": "/v/sp/nvidia/cusparse/lib/libcusparse.so.12"}]})");
  auto r = verify({"--prediction", file, "--json"});
  EXPECT_EQ(r.exit_code, kExitProblems) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out << r.err;
  EXPECT_EQ(j["prediction"]["verdict"], "differs");
  ASSERT_EQ(j["prediction"]["differences"].size(), 1u) << j["prediction"].dump();
  EXPECT_EQ(j["prediction"]["differences"][0],
            "libcusparse.so.12: TensorFlow mapped /usr/local/cuda-13.0/lib/libcusparse.so.12.6.3.3, the loader model chose "
            "/v/sp/nvidia/cusparse/lib/libcusparse.so.12");
  ASSERT_EQ(j["prediction"]["libraries"].size(), 2u);
  EXPECT_EQ(j["prediction"]["libraries"][0]["agree"], true);
  auto text = verify({"--prediction", file});
  EXPECT_NE(text.out.find("  - libcusparse.so.12: TensorFlow mapped /usr/local/cuda-13.0/lib/libcusparse.so.12.6.3.3"),
            std::string::npos)
      << text.out;
}

TEST_F(VerifyDoctorPrediction, PredictionFileStillOverridesDoctor) {
  tensorflow_answers(1);
  std::string file = (root_ / "prediction.json").string();
  write(file, R"({"will_use_gpu": true, "gpus": 1, "source": "my notes"})");
  auto r = verify({"--prediction", file, "--json"});
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out << r.err;
  EXPECT_EQ(j["prediction"]["verdict"], "confirmed");
  EXPECT_EQ(j["prediction"]["predicted"], "my notes predicted: TensorFlow will use 1 GPU");
}

}  // namespace
}  // namespace tfgpu

namespace tfgpu {
namespace {

// The system host, except that "self" is the tfgpu binary (the test binary is not tfgpu).
class TfgpuExeHost final : public Host {
 public:
  TfgpuExeHost() : real_(make_system_host()) {}
  Platform platform() const override { return real_->platform(); }
  OsRelease os_release() const override { return real_->os_release(); }
  std::optional<std::string> env(const std::string& n) const override { return real_->env(n); }
  std::map<std::string, std::string> environment() const override { return real_->environment(); }
  Result<std::string> read_file(const std::string& p, uint64_t max) const override { return real_->read_file(p, max); }
  Result<std::string> read_file_range(const std::string& p, uint64_t offset, uint64_t length) const override {
    return real_->read_file_range(p, offset, length);
  }
  Result<std::unique_ptr<RangeReader>> open_ranges(const std::string& p) const override { return real_->open_ranges(p); }
  Result<std::vector<DirEntry>> list_dir(const std::string& p) const override { return real_->list_dir(p); }
  std::optional<FileInfo> stat(const std::string& p) const override { return real_->stat(p); }
  std::optional<FileInfo> lstat(const std::string& p) const override { return real_->lstat(p); }
  Result<std::string> canonical(const std::string& p) const override { return real_->canonical(p); }
  std::string current_dir() const override { return real_->current_dir(); }
  Result<ProcessResult> run(const ProcessSpec& s) const override { return real_->run(s); }
  std::string self_exe() const override { return TFGPU_EXE; }

 private:
  std::unique_ptr<Host> real_;
};

TEST(BenchCli, ProgressLineShowsOnATerminalAndIsClearedBeforeTheReport) {
  const char* old_path = std::getenv("LD_LIBRARY_PATH");
  std::string saved = old_path ? old_path : "";
  ::setenv("LD_LIBRARY_PATH", testing::kMockCudaLibDir.c_str(), 1);
  ::setenv("TFGPU_MOCK_CUDA", "ok", 1);
  ::setenv("TFGPU_MOCK_CUDA_SLEEP_MS", "20", 1);
  TfgpuExeHost host;
  std::ostringstream out, err;
  int code = run_cli({"bench", "--quick", "--sizes", "64", "--copy-mib", "1"}, host, out, err,
                     /*stdout_is_terminal=*/true);
  ::unsetenv("TFGPU_MOCK_CUDA_SLEEP_MS");
  ::unsetenv("TFGPU_MOCK_CUDA");
  if (old_path) {
    ::setenv("LD_LIBRARY_PATH", saved.c_str(), 1);
  } else {
    ::unsetenv("LD_LIBRARY_PATH");
  }
  EXPECT_EQ(code, kExitOk) << err.str();
  std::string text = out.str();
  EXPECT_NE(text.find("\r\x1b[K  measuring "), std::string::npos) << text;
  EXPECT_NE(text.find("/11 GEMM"), std::string::npos) << text;  // "k/11 GEMM fp32 64": 5 GEMMs + 6 copies
  size_t report = text.find("tfgpu bench (quick mode");
  ASSERT_NE(report, std::string::npos);
  EXPECT_EQ(text.rfind("\x1b[K", report), report - 3);  // the line is cleared right before the report
}

TEST(BenchCli, NoProgressLineWhenStdoutIsNotATerminal) {
  auto r = run_tfgpu({"bench", "--quick", "--sizes", "64", "--copy-mib", "1"}, {{"TFGPU_MOCK_CUDA_SLEEP_MS", "5"}});
  EXPECT_EQ(r.exit_code, kExitOk);
  EXPECT_EQ(r.out.find("measuring"), std::string::npos);
  EXPECT_EQ(r.out.find('\r'), std::string::npos);
}

}  // namespace
}  // namespace tfgpu
