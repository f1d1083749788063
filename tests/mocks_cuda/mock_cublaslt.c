/* A mock cuBLASLt (libcublasLt.so.13) for tests without a GPU: the entry points tfgpu's
 * FP8 GEMM uses (cublasLtMatmul with E4M3 A/B in the TN layout, BF16 or FP32 C/D,
 * FP32 compute and scale, optional per-tensor A/B scale pointers). Small products
 * (m*n*k <= 2^21) are computed on the host; every matmul moves the mock driver's
 * simulated clock forward by 2*m*n*k / 990e12, so the measured rate is exactly 990 TFLOPS.
 * Anything else (other types, other transposes) is CUBLAS_STATUS_NOT_SUPPORTED, as the
 * real library answers for unsupported FP8 layouts.
 *
 * TFGPU_MOCK_CUBLASLT selects the behaviour (default "ok"): ok, create_fail
 * (CUBLAS_STATUS_NOT_INITIALIZED), no_algo (the heuristic returns no algorithm),
 * matmul_fail (CUBLAS_STATUS_EXECUTION_FAILED), wrong_result (one element off by one).
 * Values: cublasLt.h, cublas_api.h, library_types.h (CUDA 13.0).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void tfgpu_mock_cuda_advance(double seconds); /* from the mock libcuda.so.1 */

enum { S_OK = 0, S_NOT_INITIALIZED = 1, S_INVALID_VALUE = 7, S_EXECUTION_FAILED = 13, S_NOT_SUPPORTED = 15 };
enum { R32F = 0, R16BF = 14, R8F_E4M3 = 28 };
enum { C32F = 68 };
enum { OP_N = 0, OP_T = 1 };
enum { DESC_TRANSA = 3, DESC_TRANSB = 4, DESC_A_SCALE = 17, DESC_B_SCALE = 18 };
enum { PREF_MAX_WORKSPACE = 1 };

static const char* mode(void) {
  const char* m = getenv("TFGPU_MOCK_CUBLASLT");
  return m && *m ? m : "ok";
}
static int is(const char* m) { return strcmp(mode(), m) == 0; }

typedef struct { int compute, scale, transa, transb; const float* a_scale; const float* b_scale; } Desc;
typedef struct { int type; uint64_t rows, cols; int64_t ld; } Layout;
typedef struct { uint64_t workspace; } Pref;
typedef struct { uint64_t data[8]; } Algo;
typedef struct { Algo algo; size_t workspace_size; int state; float waves; int reserved[4]; } Heuristic;

static int g_handle;

int cublasLtCreate(void** h) {
  if (is("create_fail")) return S_NOT_INITIALIZED;
  *h = &g_handle;
  return S_OK;
}
int cublasLtDestroy(void* h) { (void)h; return S_OK; }
size_t cublasLtGetVersion(void) { return 130100; }
const char* cublasLtGetStatusName(int s) {
  switch (s) {
    case S_OK: return "CUBLAS_STATUS_SUCCESS";
    case S_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case S_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case S_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case S_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
  }
  return "CUBLAS_STATUS_UNKNOWN";
}

int cublasLtMatmulDescCreate(Desc** d, int compute, int scale) {
  *d = calloc(1, sizeof(Desc));
  if (!*d) return S_INVALID_VALUE;
  (*d)->compute = compute;
  (*d)->scale = scale;
  return S_OK;
}
int cublasLtMatmulDescDestroy(Desc* d) { free(d); return S_OK; }
int cublasLtMatmulDescSetAttribute(Desc* d, int attr, const void* buf, size_t size) {
  if (!d || !buf) return S_INVALID_VALUE;
  switch (attr) {
    case DESC_TRANSA: if (size != 4) return S_INVALID_VALUE; memcpy(&d->transa, buf, 4); return S_OK;
    case DESC_TRANSB: if (size != 4) return S_INVALID_VALUE; memcpy(&d->transb, buf, 4); return S_OK;
    case DESC_A_SCALE: if (size != sizeof(void*)) return S_INVALID_VALUE; memcpy(&d->a_scale, buf, size); return S_OK;
    case DESC_B_SCALE: if (size != sizeof(void*)) return S_INVALID_VALUE; memcpy(&d->b_scale, buf, size); return S_OK;
  }
  return S_INVALID_VALUE;
}

int cublasLtMatrixLayoutCreate(Layout** l, int type, uint64_t rows, uint64_t cols, int64_t ld) {
  if (ld < (int64_t)rows) return S_INVALID_VALUE;
  *l = calloc(1, sizeof(Layout));
  if (!*l) return S_INVALID_VALUE;
  (*l)->type = type;
  (*l)->rows = rows;
  (*l)->cols = cols;
  (*l)->ld = ld;
  return S_OK;
}
int cublasLtMatrixLayoutDestroy(Layout* l) { free(l); return S_OK; }

int cublasLtMatmulPreferenceCreate(Pref** p) {
  *p = calloc(1, sizeof(Pref));
  return *p ? S_OK : S_INVALID_VALUE;
}
int cublasLtMatmulPreferenceDestroy(Pref* p) { free(p); return S_OK; }
int cublasLtMatmulPreferenceSetAttribute(Pref* p, int attr, const void* buf, size_t size) {
  if (attr != PREF_MAX_WORKSPACE || size != 8) return S_INVALID_VALUE;
  memcpy(&p->workspace, buf, 8);
  return S_OK;
}

/* The FP8 GEMM this mock (like cuBLASLt on CC 8.9/9.0) runs: E4M3 A and B, A transposed,
 * B not (TN), FP32 compute and scale, C and D of one type, BF16 or FP32. */
static int supported(const Desc* d, const Layout* a, const Layout* b, const Layout* c, const Layout* dd) {
  return d->compute == C32F && d->scale == R32F && d->transa == OP_T && d->transb == OP_N && a->type == R8F_E4M3 &&
         b->type == R8F_E4M3 && c->type == dd->type && (dd->type == R16BF || dd->type == R32F) &&
         a->rows == b->rows && c->rows == a->cols && c->cols == b->cols && dd->rows == c->rows && dd->cols == c->cols;
}

int cublasLtMatmulAlgoGetHeuristic(void* h, Desc* d, Layout* a, Layout* b, Layout* c, Layout* dd, Pref* p,
                                   int requested, Heuristic* results, int* returned) {
  (void)h; (void)p;
  if (requested <= 0 || !results || !returned) return S_INVALID_VALUE;
  *returned = 0;
  if (is("no_algo") || !supported(d, a, b, c, dd)) return S_NOT_SUPPORTED;
  memset(&results[0], 0, sizeof(Heuristic));
  results[0].algo.data[0] = 42;
  results[0].state = S_OK;
  *returned = 1;
  return S_OK;
}

/* OCP FP8 E4M3: 1 sign, 4 exponent (bias 7), 3 mantissa bits; 0x7f / 0xff are NaN. */
static float e4m3(uint8_t v) {
  int sign = v & 0x80, exp = (v >> 3) & 0xf, mant = v & 7;
  float f;
  if ((v & 0x7f) == 0x7f) return NAN;
  f = exp == 0 ? ldexpf((float)mant / 8.0f, -6) : ldexpf(1.0f + (float)mant / 8.0f, exp - 7);
  return sign ? -f : f;
}
static float bits_to_float(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t float_to_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float load_out(int type, const void* p, size_t i) {
  return type == R16BF ? bits_to_float((uint32_t)((const uint16_t*)p)[i] << 16) : ((const float*)p)[i];
}
static void store_out(int type, void* p, size_t i, float v) {
  if (type == R16BF) {
    uint32_t x = float_to_bits(v);
    x += 0x7fffu + ((x >> 16) & 1u);
    ((uint16_t*)p)[i] = (uint16_t)(x >> 16);
  } else {
    ((float*)p)[i] = v;
  }
}

int cublasLtMatmul(void* h, Desc* d, const float* alpha, const void* A, Layout* a, const void* B, Layout* b,
                   const float* beta, const void* C, Layout* c, void* D, Layout* dd, const Algo* algo,
                   void* workspace, size_t workspace_bytes, void* stream) {
  (void)h; (void)algo; (void)workspace; (void)workspace_bytes; (void)stream;
  if (!d || !a || !b || !c || !dd || !alpha || !beta) return S_INVALID_VALUE;
  if (!supported(d, a, b, c, dd)) return S_NOT_SUPPORTED;
  if (is("matmul_fail")) return S_EXECUTION_FAILED;
  uint64_t k = a->rows, m = a->cols, n = b->cols;
  if ((double)m * n * k <= (double)(1 << 21)) {
    float sa = d->a_scale ? *d->a_scale : 1.0f, sb = d->b_scale ? *d->b_scale : 1.0f;
    for (uint64_t j = 0; j < n; ++j) {
      for (uint64_t i = 0; i < m; ++i) {
        float acc = 0;
        /* op(A) = A^T: element (i, l) is stored at A[l + i*lda]. */
        for (uint64_t l = 0; l < k; ++l)
          acc += e4m3(((const uint8_t*)A)[l + i * a->ld]) * e4m3(((const uint8_t*)B)[l + j * b->ld]);
        float old = *beta != 0 ? load_out(c->type, C, i + j * c->ld) : 0;
        store_out(dd->type, D, i + j * dd->ld, *alpha * sa * sb * acc + *beta * old);
      }
    }
    if (is("wrong_result")) store_out(dd->type, D, 3, load_out(dd->type, D, 3) + 1.0f);
  }
  tfgpu_mock_cuda_advance(2.0 * (double)m * (double)n * (double)k / 990e12);
  return S_OK;
}
