/* A mock cuBLAS (libcublas.so.13) for tests without a GPU: cublasGemmEx computes small
 * products on the host (m*n*k <= 2^21; larger ones are only timed) in FP32, FP16 or BF16
 * storage, and moves the mock driver's simulated clock forward by 2*m*n*k / a fixed rate
 * per precision, so measured TFLOPS are exact.
 *
 * TFGPU_MOCK_CUBLAS selects the behaviour (default "ok"): ok, create_fail
 * (CUBLAS_STATUS_NOT_INITIALIZED), gemm_fail (CUBLAS_STATUS_EXECUTION_FAILED),
 * wrong_result (one element off by one), no_bf16 (CUBLAS_STATUS_NOT_SUPPORTED for BF16).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void tfgpu_mock_cuda_advance(double seconds); /* from the mock libcuda.so.1 */

enum { S_OK = 0, S_NOT_INITIALIZED = 1, S_INVALID_VALUE = 7, S_EXECUTION_FAILED = 13, S_NOT_SUPPORTED = 15 };
enum { R32F = 0, R16F = 2, R16BF = 14 };
enum { C32F = 68, C32F_TF32 = 77 };

static const char* mode(void) {
  const char* m = getenv("TFGPU_MOCK_CUBLAS");
  return m && *m ? m : "ok";
}
static int is(const char* m) { return strcmp(mode(), m) == 0; }

static int g_handle;

int cublasCreate_v2(void** h) {
  if (is("create_fail")) return S_NOT_INITIALIZED;
  *h = &g_handle;
  return S_OK;
}
int cublasDestroy_v2(void* h) { (void)h; return S_OK; }
int cublasGetVersion_v2(void* h, int* v) {
  (void)h;
  *v = 130100;
  return S_OK;
}
const char* cublasGetStatusName(int s) {
  switch (s) {
    case S_OK: return "CUBLAS_STATUS_SUCCESS";
    case S_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case S_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case S_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case S_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
  }
  return "CUBLAS_STATUS_UNKNOWN";
}

static float bits_to_float(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t float_to_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

static float half_to_float(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, mant = h & 0x3ffu;
  if (exp == 0) {
    float v = (float)mant / 16777216.0f;
    return sign ? -v : v;
  }
  return bits_to_float(sign | ((exp - 15 + 127) << 23) | (mant << 13));
}
/* Exact for the values the tests use (integers well inside FP16's range). */
static uint16_t float_to_half(float f) {
  uint32_t x = float_to_bits(f), sign = (x >> 16) & 0x8000u;
  if ((x & 0x7fffffffu) == 0) return (uint16_t)sign;
  int exp = (int)((x >> 23) & 0xff) - 127 + 15;
  if (exp <= 0) return (uint16_t)sign;
  if (exp >= 31) return (uint16_t)(sign | 0x7c00u);
  return (uint16_t)(sign | ((uint32_t)exp << 10) | ((x & 0x7fffffu) >> 13));
}

static float load(int type, const void* p, size_t i) {
  if (type == R16F) return half_to_float(((const uint16_t*)p)[i]);
  if (type == R16BF) return bits_to_float((uint32_t)((const uint16_t*)p)[i] << 16);
  return ((const float*)p)[i];
}
static void store(int type, void* p, size_t i, float v) {
  if (type == R16F) {
    ((uint16_t*)p)[i] = float_to_half(v);
  } else if (type == R16BF) {
    ((uint16_t*)p)[i] = (uint16_t)(float_to_bits(v) >> 16);
  } else {
    ((float*)p)[i] = v;
  }
}

int cublasGemmEx(void* h, int ta, int tb, int m, int n, int k, const void* alpha, const void* A, int at, int lda,
                 const void* B, int bt, int ldb, const void* beta, void* C, int ct, int ldc, int compute, int algo) {
  (void)h; (void)algo;
  if (ta != 0 || tb != 0 || m <= 0 || n <= 0 || k <= 0 || lda < m || ldb < k || ldc < m) return S_INVALID_VALUE;
  if (at != bt || at != ct || (compute != C32F && compute != C32F_TF32)) return S_NOT_SUPPORTED;
  if (is("gemm_fail")) return S_EXECUTION_FAILED;
  if (is("no_bf16") && at == R16BF) return S_NOT_SUPPORTED;
  float a = *(const float*)alpha, b = *(const float*)beta;
  if ((double)m * n * k <= (double)(1 << 21)) {
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < m; ++i) {
        float acc = 0;
        for (int l = 0; l < k; ++l) acc += load(at, A, (size_t)i + (size_t)l * lda) * load(bt, B, (size_t)l + (size_t)j * ldb);
        float old = b != 0 ? load(ct, C, (size_t)i + (size_t)j * ldc) : 0;
        store(ct, C, (size_t)i + (size_t)j * ldc, a * acc + b * old);
      }
    }
    if (is("wrong_result")) store(ct, C, 5, load(ct, C, 5) + 1.0f);
  }
  double rate = compute == C32F_TF32 ? 80e12 : at == R16F ? 150e12 : at == R16BF ? 155e12 : 70e12;
  tfgpu_mock_cuda_advance(2.0 * m * (double)n * k / rate);
  return S_OK;
}
