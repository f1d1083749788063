// util/secrets.h: credential-looking values are recognised; paths, versions, flags are not.
#include <gtest/gtest.h>

#include "util/secrets.h"

namespace tfgpu {
namespace {

TEST(Secrets, NamesThatSayTheyHoldACredential) {
  for (const char* n : {"GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "DB_PASSWORD", "MYSQL_PWD_PASSWD", "CUDA_API_KEY",
                        "NVIDIA_CREDENTIALS", "HF_AUTH", "TF_VAR_db_password"})
    EXPECT_TRUE(looks_like_secret_name(n)) << n;
  for (const char* n : {"PATH", "LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES", "TF_CPP_MIN_LOG_LEVEL", "XLA_FLAGS",
                        "NVIDIA_DRIVER_CAPABILITIES", "CONDA_PREFIX"})
    EXPECT_FALSE(looks_like_secret_name(n)) << n;
}

TEST(Secrets, KnownTokenShapesAndRandomStringsAreSecrets) {
  for (const char* t : {"AKIAIOSFODNN7EXAMPLE", "ghp_1A2b3C4d5E6f7G8h9I0jKlMnOpQrStUvWxYz",
                        "xoxb-123456789012-abcdefABCDEF", "glpat-AbCdEfGhIjKlMnOpQrSt", "sk-proj-Ab12Cd34Ef56Gh78Ij90",
                        "hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl",
                        "Zq8Lr2Vx9Kp4Wm7Nt3Hs6Jd1Fg5Bc0Ya", "3f786850e387550fdab836ed7e6dc881de23001b"})
    EXPECT_TRUE(looks_like_secret_token(t)) << t;
  for (const char* t : {"lib64", "cuda-12.2", "nvidia_cudnn_cu12-9.1.0.70.dist-info", "x86_64-linux-gnu",
                        "--xla_gpu_cuda_data_dir", "site-packages", "PCI_BUS_ID", "tensorflow-2.16.1", "0123456789",
                        "GPU-5a1e0f3c", "libcudnn_cnn_infer.so.8", "python3.11"})
    EXPECT_FALSE(looks_like_secret_token(t)) << t;
}

TEST(Secrets, RedactionKeepsTheShapeOfPathLists) {
  EXPECT_EQ(redact_secret_tokens("/usr/local/cuda/bin:/usr/bin"), "/usr/local/cuda/bin:/usr/bin");
  EXPECT_EQ(
      redact_secret_tokens("--xla_gpu_cuda_data_dir=/usr/local/cuda --token=ghp_1A2b3C4d5E6f7G8h9I0jKlMnOpQrStUvWxYz"),
      "--xla_gpu_cuda_data_dir=/usr/local/cuda --token=<redacted>");
  EXPECT_EQ(redact_secret_tokens("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaA==\n"), "<redacted>");
  EXPECT_EQ(redact_secret_tokens("https://alice:hunter2@pypi.example.com/simple"), "<redacted>");
  EXPECT_EQ(redact_secret_tokens("https://pypi.org/simple"), "https://pypi.org/simple");
}

}  // namespace
}  // namespace tfgpu
