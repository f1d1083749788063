#!/usr/bin/env python3
"""The peer for `tfgpu bench`: the same square GEMMs through PyTorch's torch.matmul (FP8:
torch._scaled_mm, E4M3 inputs, unit per-tensor scales, BF16 output, where the card has
compute capability >= --fp8-min-cc and this torch has it; else an "error" row, i.e. no
peer figure), and a device-to-device copy, timed the same way (CUDA events around each call, warm-up runs
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
    ap.add_argument("--fp8-min-cc", default="", help="FP8 floor, from tfgpu's KB (kb/gpus.toml); none: no FP8 row")
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

    # FP8 the way tfgpu runs it through cublasLtMatmul: A row-major (n x k) and B
    # column-major (the TN layout cuBLASLt requires), E4M3, scales 1.0, BF16 out.
    cc = torch.cuda.get_device_capability(0)
    floor = tuple(int(x) for x in args.fp8_min_cc.split(".")) if args.fp8_min_cc else None
    fp8 = getattr(torch, "float8_e4m3fn", None)
    scaled_mm = getattr(torch, "_scaled_mm", None)
    for n in sizes:
        row = {"precision": "fp8", "m": n, "n": n, "k": n}
        if floor is None:
            row["error"] = "peer n/a: no FP8 floor given (--fp8-min-cc)"
        elif cc < floor:
            row["error"] = "not supported on this card (CC %d.%d < %s)" % (cc[0], cc[1], args.fp8_min_cc)
        elif fp8 is None or scaled_mm is None:
            row["error"] = "peer n/a: this torch has no float8_e4m3fn / torch._scaled_mm"
        else:
            try:
                a = torch.rand((n, n), device=dev).mul_(2).sub_(1).to(fp8)
                b = torch.rand((n, n), device=dev).mul_(2).sub_(1).to(fp8).t()  # column-major
                one = torch.tensor(1.0, device=dev)

                def run():
                    r = scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.bfloat16)
                    return r[0] if isinstance(r, tuple) else r  # torch < 2.4 also returned amax

                ms = timed(run)
                row.update({"median_ms": ms, "tflops": 2.0 * n * n * n / (ms * 1e-3) / 1e12})
                del a, b
            except Exception as e:  # a torch whose _scaled_mm signature differs: no peer
                row["error"] = "peer n/a: torch._scaled_mm failed: %s" % e
        out["gemm"].append(row)

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
