#pragma once
// Where `tfgpu bench` gets what it compares against: the card's peak figures from the KB
// (matched by PCI product id read from sysfs for the driver's bus id, else by name) and
// the cuBLAS / cuBLASLt file names to try, newest CUDA first, from the KB's CUDA rows.

#include <string>
#include <vector>

#include "gpu/verify.h"
#include "host/host.h"
#include "kb/kb.h"
#include "report/bench_render.h"

namespace tfgpu::report {

PeakFigures find_peaks(const kb::KnowledgeBase& kb, const Host& host, const gpu::DeviceCheck& device);

// {"libcublas.so.13", "libcublas.so.12", "libcublas.so.11", ...} without duplicates.
std::vector<std::string> cublas_candidates(const kb::KnowledgeBase& kb, Platform platform);
// {"libcublasLt.so.13", "libcublasLt.so.12", ...} (cuda.toml `cublasLt`), for FP8 GEMM.
std::vector<std::string> cublaslt_candidates(const kb::KnowledgeBase& kb, Platform platform);

}  // namespace tfgpu::report
