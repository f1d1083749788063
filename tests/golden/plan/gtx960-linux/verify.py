#!/usr/bin/env python3
"""verify.py: written by tfgpu plan (tfgpu 0.1.0) from tfgpu.lock.toml.

TensorFlow 2.16.1 + CUDA 12.3 + cuDNN 8.9 + Python 3.12 on Linux (install method: pip-and-cuda)
The classic TensorFlow GPU checks (version, built with CUDA, devices, memory growth,
a timed matmul on /GPU:0 vs /CPU:0, the mixed-precision policy), compared with the
plan: tfgpu.lock.toml next to this file when it is there (Python 3.11+ reads it), else
the values the plan wrote below. Prints one line for people, then one JSON object;
exit status 0 when TensorFlow uses the GPU as planned.
"""
import json
import os
import sys
import time

EXPECTED = json.loads("{\"tensorflow\":\"2.16.1\",\"python\":\"3.12\",\"cuda\":\"12.3\",\"cudnn\":\"8.9\",\"compute_capability\":\"5.2\",\"target\":\"native\"}")


def planned():
    """The lock next to this script wins over the copy above (it may have been edited)."""
    want = dict(EXPECTED)
    lock = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tfgpu.lock.toml")
    try:
        import tomllib
        with open(lock, "rb") as f:
            doc = tomllib.load(f)
    except Exception:  # no lock, no tomllib (Python < 3.11), or an unreadable lock
        return want, "the plan's copy in verify.py"
    if doc.get("host", {}).get("target") == "docker":
        doc.get("versions", {}).pop("python", None)  # the image brings its own Python
    for key in ("tensorflow", "python", "cuda", "cudnn", "compute_capability"):
        for table in ("versions", "host", "gpu"):
            value = doc.get(table, {}).get(key)
            if isinstance(value, str) and value:
                want[key] = value
                break
    return want, lock


def same_prefix(found, want):
    """'12.5.1' matches a planned '12.5'; '9' matches '9.3' only by major."""
    f, w = str(found).split("."), str(want).split(".")
    n = min(len(f), len(w))
    return n > 0 and f[:n] == w[:n]


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


def summary_line(out):
    if out.get("ok"):
        g = out.get("gpu0", {})
        line = "verify: OK - TensorFlow %s uses %d GPU(s)" % (out.get("tensorflow"), len(out.get("gpus", [])))
        if g.get("name"):
            line += " (%s, compute %s)" % (g["name"], g.get("compute_capability", "?"))
        b = out.get("build_info", {})
        if b:
            line += ", built for CUDA %s / cuDNN %s" % (b.get("cuda_version", "?"), b.get("cudnn_version", "?"))
        speedup = out.get("matmul", {}).get("speedup")
        if speedup:
            line += ", matmul %.0fx the CPU" % speedup
        return line + "; as planned"
    return "verify: FAILED - " + "; ".join(out["errors"])


def check(out, tf, want):
    """Fills `out` from the running TensorFlow and compares it with `want`."""
    want_py = want.get("python") or ""
    if want_py and out["python"].rsplit(".", 1)[0] != want_py:
        out["warnings"].append("Python %s, the plan pins %s" % (out["python"], want_py))
    out["tensorflow"] = tf.__version__
    want_tf = want["tensorflow"]
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
    b = out.get("build_info", {})
    if want.get("cuda") and b.get("cuda_version") and not same_prefix(b["cuda_version"], want["cuda"]):
        out["errors"].append("built for CUDA %s, the plan says %s" % (b["cuda_version"], want["cuda"]))
    if want.get("cudnn") and b.get("cudnn_version") and not same_prefix(b["cudnn_version"], want["cudnn"]):
        out["errors"].append("built for cuDNN %s, the plan says %s" % (b["cudnn_version"], want["cudnn"]))
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
        cc = out.get("gpu0", {}).get("compute_capability")
        if want.get("compute_capability") and cc and cc != want["compute_capability"]:
            out["warnings"].append("GPU 0 has compute capability %s, the plan was made for %s" % (cc, want["compute_capability"]))
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


def main():
    want, source = planned()
    out = {"ok": False, "expected": want, "expected_from": source, "errors": [], "warnings": [],
           "python": "%d.%d.%d" % sys.version_info[:3]}
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")
    try:
        import tensorflow as tf
    except Exception as e:  # the report is the point: never a traceback
        out["errors"].append("import tensorflow failed: %s: %s" % (type(e).__name__, e))
    else:
        try:
            check(out, tf, want)
        except Exception as e:
            out["errors"].append("%s: %s" % (type(e).__name__, e))
    out["ok"] = not out["errors"]
    print(summary_line(out))
    print(json.dumps(out, sort_keys=True))
    return 0 if out["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
