/* A stand-in for a CUDA runtime DLL: exports cudaRuntimeGetVersion answering
   FIXTURE_CUDART_VERSION (default 11020 = CUDA 11.2). */
#ifndef FIXTURE_CUDART_VERSION
#define FIXTURE_CUDART_VERSION 11020
#endif
__declspec(dllexport) int cudaRuntimeGetVersion(int* version) {
  *version = FIXTURE_CUDART_VERSION;
  return 0;
}
