#!/usr/bin/env python3
"""The peer for `tfgpu bench`: the same square GEMMs through PyTorch's torch.matmul (and a
device-to-device copy), timed the same way (CUDA events around each call, warm-up runs
discarded, median of the timed runs), printed as one JSON object.

Usage: torch_gemm_peer.py --sizes 4096,8192 [--warmup 3] [--reps 10] [--copy-mib 1024]
"""
import argparse
import json
import statistics
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="4096,8192")
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--copy-mib", type=int, default=1024)
    args = ap.parse_args()

    import torch

    if not torch.cuda.is_available():
        print(json.dumps({"schema": "tfgpu.torchpeer/1", "error": "torch.cuda.is_available() is False"}))
        return 1
    dev = torch.device("cuda:0")
    out = {
        "schema": "tfgpu.torchpeer/1",
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "device": torch.cuda.get_device_name(0),
        "warmup": args.warmup,
        "reps": args.reps,
        "gemm": [],
        "bandwidth": [],
    }

    def timed(fn):
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        times = []
        for i in range(args.warmup + args.reps):
            start.record()
            fn()
            stop.record()
            stop.synchronize()
            if i >= args.warmup:
                times.append(start.elapsed_time(stop))
        return statistics.median(times)

    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    # Same settings as tfgpu's cublasGemmEx calls: FP32 is pure FP32 (no TF32), TF32 is
    # FP32 storage with TF32 math, FP16/BF16 store 16-bit and accumulate in FP32.
    for name, dtype, tf32 in (("fp32", torch.float32, False), ("tf32", torch.float32, True),
                              ("fp16", torch.float16, False), ("bf16", torch.bfloat16, False)):
        torch.backends.cuda.matmul.allow_tf32 = tf32
        for n in sizes:
            try:
                a = torch.rand((n, n), device=dev, dtype=torch.float32).mul_(2).sub_(1).to(dtype)
                b = torch.rand((n, n), device=dev, dtype=torch.float32).mul_(2).sub_(1).to(dtype)
                ms = timed(lambda: torch.matmul(a, b))
                out["gemm"].append({"precision": name, "m": n, "n": n, "k": n, "median_ms": ms,
                                    "tflops": 2.0 * n * n * n / (ms * 1e-3) / 1e12})
                del a, b
            except Exception as e:  # an unsupported dtype or out of memory is a value
                out["gemm"].append({"precision": name, "m": n, "n": n, "k": n, "error": str(e)})
    torch.backends.cuda.matmul.allow_tf32 = False

    nbytes = args.copy_mib << 20
    src = torch.empty(nbytes, dtype=torch.uint8, device=dev).fill_(0x5A)
    dst = torch.empty_like(src)
    ms = timed(lambda: dst.copy_(src))
    out["bandwidth"].append({"id": "d2d_copy", "bytes": nbytes, "bytes_counted": 2 * nbytes, "median_ms": ms,
                             "gb_per_s": 2.0 * nbytes / (ms * 1e-3) / 1e9})
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
