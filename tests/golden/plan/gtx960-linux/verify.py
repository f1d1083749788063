#!/usr/bin/env python3
"""verify.py: written by tfgpu plan (tfgpu 0.1.0) from tfgpu.lock.toml.

TensorFlow 2.17.0 + CUDA 12.3 + cuDNN 8.9 + Python 3.12 on Linux (install method: pip-and-cuda)
The classic TensorFlow GPU checks (version, built with CUDA, devices, memory growth,
a timed matmul on /GPU:0 vs /CPU:0, the mixed-precision policy), compared with the
plan. Prints one JSON object; exit status 0 when TensorFlow uses the GPU as planned.
"""
import json
import os
import sys
import time

EXPECTED = json.loads("{\"tensorflow\":\"2.17.0\",\"python\":\"3.12\",\"cuda\":\"12.3\",\"cudnn\":\"8.9\",\"compute_capability\":\"5.2\",\"target\":\"native\"}")


def timed_matmul(tf, device, n, repeats):
    with tf.device(device):
        a = tf.random.normal((n, n))
        b = tf.random.normal((n, n))
        tf.matmul(a, b).numpy()  # warm-up: kernels, autotuning, JIT
        start = time.perf_counter()
        for _ in range(repeats):
            c = tf.matmul(a, b)
        c.numpy()  # waits for the device
        return (time.perf_counter() - start) / repeats


def main():
    out = {"ok": False, "expected": EXPECTED, "errors": [], "warnings": [],
           "python": "%d.%d.%d" % sys.version_info[:3]}
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")
    want_py = EXPECTED.get("python") or ""
    if want_py and out["python"].rsplit(".", 1)[0] != want_py:
        out["warnings"].append("Python %s, the plan pins %s" % (out["python"], want_py))
    try:
        import tensorflow as tf
    except Exception as e:  # the report is the point: never a traceback
        out["errors"].append("import tensorflow failed: %s: %s" % (type(e).__name__, e))
        print(json.dumps(out, sort_keys=True))
        return 1
    out["tensorflow"] = tf.__version__
    want_tf = EXPECTED["tensorflow"]
    if tf.__version__.split(".")[:2] != want_tf.split(".")[:2]:
        out["errors"].append("TensorFlow %s, the plan pins %s" % (tf.__version__, want_tf))
    elif tf.__version__ != want_tf:
        out["warnings"].append("TensorFlow %s, the plan pins %s" % (tf.__version__, want_tf))
    out["built_with_cuda"] = bool(tf.test.is_built_with_cuda())
    if not out["built_with_cuda"]:
        out["errors"].append("this TensorFlow build has no CUDA support")
    try:
        info = tf.sysconfig.get_build_info()
        out["build_info"] = {k: str(info[k]) for k in ("cuda_version", "cudnn_version", "cuda_compute_capabilities") if k in info}
    except Exception as e:
        out["warnings"].append("get_build_info failed: %s" % e)
    gpus = tf.config.list_physical_devices("GPU")
    out["gpus"] = [g.name for g in gpus]
    if not gpus:
        out["errors"].append("TensorFlow lists no GPU: run tfgpu doctor --lock tfgpu.lock.toml")
    try:
        for g in gpus:  # must happen before the GPU is initialised
            tf.config.experimental.set_memory_growth(g, True)
        out["memory_growth"] = bool(gpus)
    except Exception as e:
        out["memory_growth"] = False
        out["warnings"].append("set_memory_growth failed: %s" % e)
    if gpus:
        try:
            details = tf.config.experimental.get_device_details(gpus[0])
            out["gpu0"] = {"name": details.get("device_name", ""),
                           "compute_capability": ".".join(str(x) for x in details.get("compute_capability", ()))}
        except Exception as e:
            out["warnings"].append("get_device_details failed: %s" % e)
    n, repeats = 2048, 10
    matmul = {"n": n, "repeats": repeats}
    try:
        matmul["cpu_s"] = timed_matmul(tf, "/CPU:0", n, repeats)
        if gpus:
            matmul["gpu_s"] = timed_matmul(tf, "/GPU:0", n, repeats)
            matmul["speedup"] = matmul["cpu_s"] / matmul["gpu_s"] if matmul["gpu_s"] > 0 else None
    except Exception as e:
        out["errors"].append("matmul failed: %s: %s" % (type(e).__name__, e))
    out["matmul"] = matmul
    try:
        from tensorflow.keras import mixed_precision
        mixed_precision.set_global_policy("mixed_float16")
        out["mixed_precision"] = mixed_precision.global_policy().name
        mixed_precision.set_global_policy("float32")
    except Exception as e:
        out["warnings"].append("mixed precision: %s" % e)
    out["ok"] = not out["errors"]
    print(json.dumps(out, sort_keys=True))
    return 0 if out["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
