"""Runs inside a TensorFlow venv: what real TensorFlow loads, from where.

Imports TensorFlow, lists the GPUs and forces device creation (which is where TF dlopens its
CUDA libraries: GPUDeviceFactory -> GetValidDeviceIds -> DsoLoader::MaybeTryDlopenGPULibraries),
then asks the dynamic loader inside this very process which of the names given on the command
line are loaded and under which name (dlopen(name, RTLD_NOLOAD) matches loaded objects by name
or SONAME, as TF's dlopen would have; dlinfo(RTLD_DI_LINKMAP) gives ld.so's l_name), and
records every file in /proc/self/maps. TF's log goes to stderr unchanged; one JSON line
prefixed with @@ORACLE@@ goes to stdout.

With TFGPU_ORACLE_PROFILE=1 it then runs one op under TF's profiler (which opens CUPTI).

Usage: python oracle.py NAME...   (library file names, e.g. libcudart.so.12)
"""
import ctypes
import json
import os
import sys

out = {"names": {}}


def loaded_name(name):
    libc = ctypes.CDLL(None)
    libc.dlopen.restype = ctypes.c_void_p
    libc.dlopen.argtypes = [ctypes.c_char_p, ctypes.c_int]
    libc.dlinfo.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p]
    RTLD_LAZY, RTLD_NOLOAD, RTLD_DI_LINKMAP = 1, 4, 2
    h = libc.dlopen(name.encode(), RTLD_LAZY | RTLD_NOLOAD)
    if not h:
        return None
    lm = ctypes.c_void_p()
    if libc.dlinfo(h, RTLD_DI_LINKMAP, ctypes.byref(lm)) != 0 or not lm.value:
        return "?"
    # struct link_map { ElfW(Addr) l_addr; char *l_name; ... }
    l_name = ctypes.cast(lm.value + ctypes.sizeof(ctypes.c_void_p), ctypes.POINTER(ctypes.c_char_p))[0]
    return (l_name or b"").decode(errors="replace")


def link_map():
    """Every object in the process as ld.so names it (l_name), via dl_iterate_phdr."""
    class Info(ctypes.Structure):
        _fields_ = [("addr", ctypes.c_void_p), ("name", ctypes.c_char_p)]

    names = []
    CB = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(Info), ctypes.c_size_t, ctypes.c_void_p)

    def cb(info, size, data):
        n = info.contents.name
        if n:
            names.append(n.decode(errors="replace"))
        return 0

    ctypes.CDLL(None).dl_iterate_phdr(CB(cb), None)
    return names


def maps():
    files = []
    with open("/proc/self/maps") as f:
        for line in f:
            parts = line.split(None, 5)
            if len(parts) == 6 and parts[5].startswith("/"):
                p = parts[5].strip()
                if p not in files:
                    files.append(p)
    return files


try:
    import tensorflow as tf

    out["tf_version"] = tf.__version__
    # TF 1.14 / 1.15 have these under tf.config.experimental only.
    config = tf.config if hasattr(tf.config, "list_physical_devices") else tf.config.experimental
    out["physical_gpus"] = [d.name for d in config.list_physical_devices("GPU")]
    try:
        # Creating the logical devices runs GPUDeviceFactory::CreateDevices.
        out["logical_gpus"] = [d.name for d in config.list_logical_devices("GPU")]
    except Exception as e:  # the mock driver has no device memory: TF may fail after loading
        out["logical_error"] = "%s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e) else "")
    if os.environ.get("TFGPU_ORACLE_PROFILE") == "1":
        # What the profiler opens (CUPTI), after the GPU libraries: as TensorBoard's
        # profile_batch or tf.profiler do. The op under it may fail on the mock driver (it
        # computes nothing); TF's log of the profiler is what counts.
        import tempfile

        with tempfile.TemporaryDirectory() as logdir:
            tf.profiler.experimental.start(logdir)
            try:
                tf.matmul(tf.ones((2, 2)), tf.ones((2, 2)))
            except Exception as e:
                out["profiled_op_error"] = "%s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e) else "")
            tf.profiler.experimental.stop()
except Exception as e:
    out["import_error"] = "%s: %s" % (type(e).__name__, e)

for n in sys.argv[1:]:
    out["names"][n] = loaded_name(n)
out["link_map"] = link_map()
out["maps"] = maps()
sys.stderr.flush()
print("@@ORACLE@@" + json.dumps(out), flush=True)
