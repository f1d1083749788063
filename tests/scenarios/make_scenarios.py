#!/usr/bin/env python3
"""Recipe for the doctor scenario snapshots in this folder.

Each scenario is a Snapshot (schema: docs/snapshot.md) of a machine someone really
has, built from small helpers so the files stay consistent, plus `<name>.expect.json`:
the finding ids doctor must report (exactly that set) and the verdict per Python
environment. The expectations are written by hand from the KB and the rules' purpose,
never generated from doctor's own output. Run: python3 tests/scenarios/make_scenarios.py
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
GIB = 1024 ** 3

# ---------------------------------------------------------------------------- helpers

def ok(source=""):
    return {"status": "ok", "reason": "", "source": source}


def absent(reason, source=""):
    return {"status": "absent", "reason": reason, "source": source}


def not_probed():
    return {"status": "not_probed", "reason": "", "source": ""}


def linux_host(distro="Ubuntu 22.04.4 LTS", wsl=False, container="", avx="yes", kernel="6.5.0-35-generic"):
    return {"os": "linux", "distro": distro, "kernel": "5.15.153.1-microsoft-standard-WSL2" if wsl else kernel,
            "arch": "x86_64", "wsl2": "yes" if wsl else "no", "container": container,
            "cpu": {"vendor": "GenuineIntel", "model": "Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz" if avx == "yes"
                    else "Intel(R) Pentium(R) CPU G6950 @ 2.80GHz",
                    "avx": avx, "avx2": avx, "avx512f": "no", "fma": avx, "source": "/proc/cpuinfo"},
            "state": ok("uname, /etc/os-release")}


def windows_host():
    return {"os": "windows", "distro": "Windows 10 Pro 22H2 (build 19045)", "kernel": "10.0.19045", "arch": "AMD64",
            "wsl2": "no", "container": "",
            "cpu": {"vendor": "AuthenticAMD", "model": "AMD Ryzen 5 5600X 6-Core Processor", "avx": "yes", "avx2": "yes",
                    "avx512f": "no", "fma": "yes", "source": "cpuid"},
            "state": ok("RtlGetVersion")}


def macos_host():
    return {"os": "macos", "distro": "macOS 14.4", "kernel": "23.4.0", "arch": "arm64", "wsl2": "no", "container": "",
            "cpu": {"vendor": "Apple", "model": "Apple M2", "avx": "no", "avx2": "no", "avx512f": "no", "fma": "no",
                    "source": "sysctl"},
            "state": ok("uname")}


def gpu(name, pci_id, cc, mem_gib, index=0, uuid="GPU-5f1c8a3e-2b7d-4c9a-8e61-0d3f4b2a9c7e", source="nvml", free_gib=None):
    total = int(mem_gib * GIB)
    return {"index": index, "name": name, "pci_id": pci_id, "pci_bus_id": "0000:01:00.0", "compute_capability": cc,
            "memory_total_bytes": total, "memory_free_bytes": int((free_gib if free_gib is not None else mem_gib * 0.97) * GIB),
            "uuid": uuid, "source": source}


RTX3060 = ("NVIDIA GeForce RTX 3060", "10de:2504", "8.6", 12)
RTX4090 = ("NVIDIA GeForce RTX 4090", "10de:2684", "8.9", 24)
GTX960 = ("NVIDIA GeForce GTX 960", "10de:1401", "5.2", 4)
H100 = ("NVIDIA H100 80GB HBM3", "10de:2330", "9.0", 80)


def driver_ok(version, cuda, count=1, opened="libcuda.so.1"):
    return {"state": ok("nvml"), "version": version, "cuda_version": cuda, "kernel_module_version": "", "device_count": count,
            "attempts": [{"library": "nvml", "tried": ["libnvidia-ml.so.1"], "errors": [], "opened": opened,
                          "init_result": "NVML_SUCCESS"}]}


def driver_absent(reason="libnvidia-ml.so.1: cannot open shared object file: No such file or directory"):
    return {"state": absent(reason, "dlopen"), "version": "", "cuda_version": "", "kernel_module_version": "", "device_count": -1,
            "attempts": [{"library": "nvml", "tried": ["libnvidia-ml.so.1"], "errors": [reason], "opened": "",
                          "init_result": ""}]}


def lib(path, component, version="", origin="", runpath=None, rpath=None, fmt=None):
    sep = "\\" if "\\" in path else "/"
    name = path.rsplit(sep, 1)[1]
    f = fmt or ("pe" if name.lower().endswith(".dll") else "elf")
    entry = {"path": path, "name": name, "component": component, "version": version,
             "version_source": "file name" if version else "", "format": f, "origin": origin}
    if f == "elf":
        entry["elf"] = {"bits": 64, "machine": "x86-64", "soname": name, "needed": [], "rpath": rpath or [], "runpath": runpath or []}
    else:
        entry["pe"] = {"bits": 64, "machine": "x64", "imports": [], "file_version": version, "product_version": version}
    return entry


def pkg(name, version, site):
    return {"name": name, "version": version, "location": site, "source": f"{site}/{name.replace('-', '_')}-{version}.dist-info/METADATA"}


def python_env(executable, prefix, version, kind, name, site, packages, tf=None, active=True, bits=64, source="PATH"):
    tensorflow = []
    if tf:
        package, tf_version = tf
        tensorflow.append({"package": package, "version": tf_version,
                           "location": site + ("\\tensorflow" if "\\" in site else "/tensorflow"),
                           "build_info": {}, "build_info_state": not_probed()})
    return {"executable": executable, "prefix": prefix, "version": version, "bits": bits, "kind": kind, "name": name,
            "active": active, "site_packages": [site], "packages": packages, "tensorflow": tensorflow, "source": source}


def snapshot(host, gpus, driver, env, cuda=(), cudnn=(), libraries=(), loader=None, pythons=(), gpu_state=None,
             runtime_state=None, python_state=None, origin="test", search_dirs=()):
    return {"schema_version": 1, "tool_version": "0.1.0", "created_at": "2026-11-30T00:00:00Z", "origin": origin,
            "host": host, "gpu_state": gpu_state or (ok("sysfs") if gpus else absent("no NVIDIA PCI device", "sysfs")),
            "gpus": list(gpus), "driver": driver, "env": env,
            # As the probe reports it: absent when no CUDA install and no cuDNN was found at all.
            "runtime_state": runtime_state or (ok("runtime probe") if (cuda or cudnn)
                                               else absent("no CUDA runtime or cuDNN found in 14 dirs searched")),
            "cuda": list(cuda), "cudnn": list(cudnn), "libraries": list(libraries), "loader": loader or {},
            "python_state": python_state or ok("python probe"), "pythons": list(pythons), "notes": [],
            "search_dirs": list(search_dirs)}


# ---------------------------------------------------------------------------- Linux

LINUX_DEFAULT_DIRS = ["/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib", "/usr/lib"]
LIBCUDA = "/usr/lib/x86_64-linux-gnu/libcuda.so.1"


def linux_loader(cache=()):
    return {"ld_so_conf_dirs": ["/usr/local/lib", "/usr/lib/x86_64-linux-gnu"],
            "ld_cache": [{"name": n, "path": p, "arch": "x86-64"} for n, p in cache],
            "ld_cache_state": ok("/etc/ld.so.cache"), "default_dirs": LINUX_DEFAULT_DIRS}


def linux_driver_libs():
    return [lib(LIBCUDA, "cuda_driver", "535.171.04", "system"),
            lib("/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1", "nvml", "535.171.04", "system")]


CU12_WHEELS = [  # (component, wheel dir, file, version, package)
    ("cudart", "cuda_runtime", "libcudart.so.12", "12.2.140", "nvidia-cuda-runtime-cu12"),
    ("cublas", "cublas", "libcublas.so.12", "12.2.5.6", "nvidia-cublas-cu12"),
    ("cublasLt", "cublas", "libcublasLt.so.12", "12.2.5.6", None),
    ("cufft", "cufft", "libcufft.so.11", "11.0.8.103", "nvidia-cufft-cu12"),
    ("curand", "curand", "libcurand.so.10", "10.3.3.141", "nvidia-curand-cu12"),
    ("cusolver", "cusolver", "libcusolver.so.11", "11.5.2.141", "nvidia-cusolver-cu12"),
    ("cusparse", "cusparse", "libcusparse.so.12", "12.1.2.141", "nvidia-cusparse-cu12"),
    ("nvjitlink", "nvjitlink", "libnvJitLink.so.12", "12.2.140", "nvidia-nvjitlink-cu12"),
]
CUDNN8_SUBLIBS = ["libcudnn_ops_infer.so.8", "libcudnn_ops_train.so.8", "libcudnn_cnn_infer.so.8",
                  "libcudnn_cnn_train.so.8", "libcudnn_adv_infer.so.8", "libcudnn_adv_train.so.8"]
CUDNN9_SUBLIBS = ["libcudnn_graph.so.9", "libcudnn_engines_precompiled.so.9", "libcudnn_engines_runtime_compiled.so.9",
                  "libcudnn_heuristic.so.9", "libcudnn_ops.so.9", "libcudnn_cnn.so.9", "libcudnn_adv.so.9"]


def pip_cuda_env(site, cudnn_major=8, cudnn_version="8.9.4.25", with_runpath=True, cuda_version="12.2.140"):
    """Libraries, installs and packages of `pip install tensorflow[and-cuda]` (cu12 wheels)."""
    libs, packages = [], []
    for comp, d, f, v, p in CU12_WHEELS:
        if comp == "cudart":
            v = cuda_version
        libs.append(lib(f"{site}/nvidia/{d}/lib/{f}", comp, v, f"pip:{p or 'nvidia-cublas-cu12'}"))
        if p:
            packages.append(pkg(p, v, site))
    cudnn_dir = f"{site}/nvidia/cudnn/lib"
    libs.append(lib(f"{cudnn_dir}/libcudnn.so.{cudnn_major}", "cudnn", cudnn_version, "pip:nvidia-cudnn-cu12"))
    for sub in (CUDNN8_SUBLIBS if cudnn_major == 8 else CUDNN9_SUBLIBS):
        libs.append(lib(f"{cudnn_dir}/{sub}", "cudnn", cudnn_version, "pip:nvidia-cudnn-cu12"))
    packages.append(pkg("nvidia-cudnn-cu12", cudnn_version, site))
    packages.append(pkg("nvidia-cuda-nvcc-cu12", cuda_version, site))
    # TF's own files and their RUNPATH into the wheels (cuda_build_defs.bzl: $ORIGIN/../nvidia/<lib>/lib).
    dirs = ["cublas", "cuda_cupti", "cuda_runtime", "cudnn", "cufft", "curand", "cusolver", "cusparse", "nccl", "nvjitlink"]
    rp1 = [f"$ORIGIN/../nvidia/{d}/lib" for d in dirs] if with_runpath else []
    rp2 = [f"$ORIGIN/../../nvidia/{d}/lib" for d in dirs] if with_runpath else []
    libs.append(lib(f"{site}/tensorflow/libtensorflow_framework.so.2", "tensorflow", "", "tensorflow", runpath=rp1))
    libs.append(lib(f"{site}/tensorflow/python/_pywrap_tensorflow_internal.so", "tensorflow", "", "tensorflow", runpath=rp2))
    cuda = [{"root": f"{site}/nvidia/cuda_runtime", "version": cuda_version, "version_source": "dist-info", "kind": "pip",
             "package": "nvidia-cuda-runtime-cu12", "lib_dirs": [f"{site}/nvidia/cuda_runtime/lib"]}]
    cudnn = [{"root": f"{site}/nvidia/cudnn", "version": cudnn_version, "version_source": "dist-info", "kind": "pip",
              "package": "nvidia-cudnn-cu12", "cuda_major": "12", "lib_dirs": [cudnn_dir]}]
    return libs, cuda, cudnn, packages


def venv(home="/home/bob", name="tf", py="3.11.9", tf=("tensorflow", "2.15.1"), extra_packages=(), site=None, active=True):
    prefix = f"{home}/{name}"
    site = site or f"{prefix}/lib/python{py.rsplit('.', 1)[0]}/site-packages"
    return prefix, site


def linux_pip_machine(gpu_spec=RTX4090, driver=("550.54.14", "12.4"), tf_version="2.15.1", cudnn_major=8,
                      cudnn_version="8.9.4.25", with_runpath=True, env_extra=None, host=None, cuda_version="12.2.140",
                      extra_packages=(), free_gib=None):
    prefix, site = venv()
    libs, cuda, cudnn, packages = pip_cuda_env(site, cudnn_major, cudnn_version, with_runpath, cuda_version)
    packages = [pkg("tensorflow", tf_version, site)] + packages + list(extra_packages)
    env = {"PATH": f"{prefix}/bin:/usr/local/bin:/usr/bin:/bin", "VIRTUAL_ENV": prefix}
    env.update(env_extra or {})
    py = python_env(f"{prefix}/bin/python3", prefix, "3.11.9", "venv", "tf", site, packages, ("tensorflow", tf_version))
    return snapshot(host or linux_host(), [gpu(*gpu_spec, free_gib=free_gib)], driver_ok(*driver), env, cuda, cudnn,
                    linux_driver_libs() + libs, linux_loader([("libcuda.so.1", LIBCUDA)]), [py])


def system_cuda(version="11.8.89", root="/usr/local/cuda-11.8", cudnn_version="8.7.0", names=None, cudnn_subs=True,
                cudnn_dir=None):
    """A system CUDA 11 toolkit with cuDNN copied into it (lib64)."""
    lib64 = f"{root}/lib64"
    names = names or [("cudart", "libcudart.so.11.0"), ("cublas", "libcublas.so.11"), ("cublasLt", "libcublasLt.so.11"),
                      ("cufft", "libcufft.so.10"), ("curand", "libcurand.so.10"), ("cusolver", "libcusolver.so.11"),
                      ("cusparse", "libcusparse.so.11")]
    libs = [lib(f"{lib64}/{n}", c, version if c == "cudart" else "", f"cuda:{root}") for c, n in names]
    cudnn_dir = cudnn_dir or lib64
    cudnn = []
    if cudnn_version:
        libs.append(lib(f"{cudnn_dir}/libcudnn.so.8", "cudnn", cudnn_version, f"cuda:{root}"))
        if cudnn_subs:
            libs += [lib(f"{cudnn_dir}/{s}", "cudnn", cudnn_version, f"cuda:{root}") for s in CUDNN8_SUBLIBS]
        cudnn = [{"root": root, "version": cudnn_version, "version_source": f"{root}/include/cudnn_version.h", "kind": "toolkit",
                  "package": "", "cuda_major": "11", "lib_dirs": [cudnn_dir]}]
    cuda = [{"root": root, "version": version, "version_source": f"{root}/version.json", "kind": "toolkit", "package": "",
             "lib_dirs": [lib64]}]
    return libs, cuda, cudnn


def linux_system_machine(tf_version="2.14.0", ld_path="/usr/local/cuda-11.8/lib64", extra_libs=(), extra_cuda=(),
                         extra_cudnn=(), search_dirs=(), cuda_args=None, gpu_spec=RTX3060):
    libs, cuda, cudnn = system_cuda(**(cuda_args or {}))
    site = "/home/bob/.local/lib/python3.10/site-packages"
    packages = [pkg("tensorflow", tf_version, site)]
    py = python_env("/usr/bin/python3", "/usr", "3.10.12", "system", "", site, packages, ("tensorflow", tf_version))
    env = {"PATH": "/usr/local/cuda-11.8/bin:/usr/local/bin:/usr/bin:/bin", "LD_LIBRARY_PATH": ld_path}
    return snapshot(linux_host(), [gpu(*gpu_spec)], driver_ok("535.171.04", "12.2"), env, cuda + list(extra_cuda),
                    cudnn + list(extra_cudnn), linux_driver_libs() + libs + list(extra_libs),
                    linux_loader([("libcuda.so.1", LIBCUDA)]), [py], search_dirs=search_dirs)


# ---------------------------------------------------------------------------- Windows

CUDA_WIN = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA"
SYS32 = "C:\\Windows\\System32"
WIN_CUDA11_NAMES = [("cudart", "cudart64_110.dll"), ("cublas", "cublas64_11.dll"), ("cublasLt", "cublasLt64_11.dll"),
                    ("cufft", "cufft64_10.dll"), ("curand", "curand64_10.dll"), ("cusolver", "cusolver64_11.dll"),
                    ("cusparse", "cusparse64_11.dll")]
WIN_CUDNN8 = ["cudnn64_8.dll", "cudnn_ops_infer64_8.dll", "cudnn_ops_train64_8.dll", "cudnn_cnn_infer64_8.dll",
              "cudnn_cnn_train64_8.dll", "cudnn_adv_infer64_8.dll", "cudnn_adv_train64_8.dll"]


def win_system_libs(msvc=True):
    libs = [lib(f"{SYS32}\\nvcuda.dll", "cuda_driver", "31.0.15.2206", "system"),
            lib(f"{SYS32}\\nvml.dll", "nvml", "31.0.15.2206", "system")]
    if msvc:
        libs += [lib(f"{SYS32}\\msvcp140.dll", "msvcp140", "14.36.32532.0", "system"),
                 lib(f"{SYS32}\\msvcp140_1.dll", "msvcp140_1", "14.36.32532.0", "system")]
    return libs


def win_cuda(version="11.2.152", mm="11.2", cudnn_version="8.1.1", cudnn_files=WIN_CUDNN8, names=WIN_CUDA11_NAMES,
             zlib=False):
    root = f"{CUDA_WIN}\\v{mm}"
    bin_dir = f"{root}\\bin"
    libs = [lib(f"{bin_dir}\\{n}", c, version if c == "cudart" else "", f"cuda:{root}") for c, n in names]
    cudnn = []
    if cudnn_version:
        for i, n in enumerate(cudnn_files):
            libs.append(lib(f"{bin_dir}\\{n}", "cudnn" if i == 0 else "cudnn", cudnn_version, f"cuda:{root}"))
        cudnn = [{"root": root, "version": cudnn_version, "version_source": f"{root}\\include\\cudnn_version.h",
                  "kind": "toolkit", "package": "", "cuda_major": "11", "lib_dirs": [bin_dir]}]
    if zlib:
        libs.append(lib(f"{bin_dir}\\zlibwapi.dll", "zlibwapi", "1.2.3", "other"))
    cuda = [{"root": root, "version": version, "version_source": f"{root}\\version.json", "kind": "toolkit", "package": "",
             "lib_dirs": [bin_dir]}]
    return libs, cuda, cudnn, bin_dir


def win_conda_env(py="3.10.11", tf=("tensorflow", "2.10.1"), extra_packages=(), bits=64, name="tf", active=True):
    prefix = f"C:\\Users\\alice\\miniconda3\\envs\\{name}"
    site = f"{prefix}\\Lib\\site-packages"
    packages = list(extra_packages)
    if tf:
        packages = [pkg(tf[0], tf[1], site)] + packages
    return python_env(f"{prefix}\\python.exe", prefix, py, "conda", name, site, packages, tf, active=active, bits=bits,
                      source="conda environments.txt")


def win_loader():
    return {"system_dir": SYS32, "windows_dir": "C:\\Windows", "known_dlls": ["kernel32.dll"], "safe_dll_search_mode": True}


def win_path(*dirs):
    return ";".join(list(dirs) + [SYS32, "C:\\Windows", "C:\\Users\\alice\\miniconda3\\condabin"])


def windows_machine(cuda_parts=None, py=None, msvc=True, path_dirs=None, driver=("522.06", "11.8"), extra_libs=(),
                    extra_cuda=(), gpus=None):
    libs, cuda, cudnn = [], [], []
    dirs = []
    for part in (cuda_parts if cuda_parts is not None else [win_cuda()]):
        l, c, d, b = part
        libs += l
        cuda += c
        cudnn += d
        dirs.append(b)
    env = {"PATH": win_path(*(path_dirs if path_dirs is not None else dirs))}
    if cuda:
        env["CUDA_PATH"] = cuda[-1]["root"]
    return snapshot(windows_host(), gpus if gpus is not None else [gpu(*RTX3060, source="nvml")],
                    driver_ok(*driver, opened="nvml.dll"), env, cuda + list(extra_cuda), cudnn,
                    win_system_libs(msvc) + libs + list(extra_libs), win_loader(),
                    [py or win_conda_env()])


# ---------------------------------------------------------------------------- WSL2

WSL_LIB = "/usr/lib/wsl/lib"


def wsl_machine(driver=("537.42", "12.2"), wsl_libcuda=True, in_cache=True, linux_driver=False, driver_state=None):
    m = linux_pip_machine(host=linux_host(distro="Ubuntu 22.04.3 LTS", wsl=True))
    m["gpu_state"] = absent("WSL2: GPUs are not on the PCI bus (/dev/dxg)", "sysfs")
    m["gpus"][0]["source"] = "nvml"
    m["driver"] = driver_state or driver_ok(*driver)
    libs = [l for l in m["libraries"] if l["component"] not in ("cuda_driver", "nvml")]
    cache = []
    if linux_driver:
        libs.append(lib(LIBCUDA, "cuda_driver", "535.171.04", "system"))
        cache.append(("libcuda.so.1", LIBCUDA))
    if wsl_libcuda:
        libs.append(lib(f"{WSL_LIB}/libcuda.so.1", "cuda_driver", "", "wsl"))
        libs.append(lib(f"{WSL_LIB}/libnvidia-ml.so.1", "nvml", "", "wsl"))
        if in_cache:
            cache.append(("libcuda.so.1", f"{WSL_LIB}/libcuda.so.1"))
    m["libraries"] = libs
    m["loader"] = linux_loader(cache)
    return m


# ---------------------------------------------------------------------------- the scenarios

S = {}
E = {}


def expect(name, description, findings, verdicts, exit_code):
    E[name] = {"description": description, "findings": sorted(findings), "verdicts": verdicts, "exit_code": exit_code}


def will_use(n, **kw):
    return dict({"kind": "will_use_gpu", "gpu_count": n}, **kw)


def will_not(*first_blockers):
    return {"kind": "will_not_use_gpu", "blocker_ids_start": list(first_blockers)}


GOOD_INFO = ["gpu_memory_preallocation", "mixed_precision_available", "device_placement_check"]

# --- native Windows
S["win_tf210_good"] = windows_machine()
expect("win_tf210_good", "Windows, RTX 3060, TF 2.10.1 + CUDA 11.2 + cuDNN 8.1 on PATH: works; TF 2.10 has no sm_86 SASS (PTX JIT)",
       GOOD_INFO + ["ptx_jit_slow"], [will_use(1)], 0)

# The classic guide's machine: CUDA 11.8 + cuDNN 8.7 copied into the CUDA folder, TF 2.12 via pip in conda Python 3.10.
classic_cuda = win_cuda("11.8.89", "11.8", "8.7.0", zlib=True)
S["win_classic_guide_tf212"] = windows_machine(
    [classic_cuda], py=win_conda_env("3.10.11", ("tensorflow", "2.12.0"), [pkg("tensorflow-intel", "2.12.0",
                                                                               "C:\\Users\\alice\\miniconda3\\envs\\tf\\Lib\\site-packages")]))
expect("win_classic_guide_tf212", "The classic guide: Windows, RTX 3060, driver 522.06, CUDA 11.8 + cuDNN 8.7, conda Python 3.10, pip tensorflow==2.12.0",
       ["windows_native_gpu_unsupported_tf_ge_2_11"], [will_not("windows_native_gpu_unsupported_tf_ge_2_11")], 1)

S["win_cudart_missing"] = windows_machine(cuda_parts=[])
expect("win_cudart_missing", "Windows, TF 2.10, no CUDA toolkit at all: cudart64_110.dll not found",
       GOOD_INFO + ["ptx_jit_slow", "cudart_missing", "cudnn_missing"], [will_not("cudart_missing")], 1)

S["win_cudnn81_missing"] = windows_machine(cuda_parts=[win_cuda(cudnn_version="")])
expect("win_cudnn81_missing", "Windows, TF 2.10, CUDA 11.2 installed, cuDNN 8.1 not", GOOD_INFO + ["ptx_jit_slow", "cudnn_missing"],
       [will_not("cudnn_missing")], 1)

S["win_zlibwapi_missing"] = windows_machine(cuda_parts=[win_cuda(cudnn_version="8.4.1")])
expect("win_zlibwapi_missing", "Windows, TF 2.10, cuDNN 8.4 (needs zlibwapi.dll) without zlibwapi.dll",
       GOOD_INFO + ["ptx_jit_slow", "zlibwapi_missing"], [will_not("zlibwapi_missing")], 1)

old = win_cuda("11.0.221", "11.0", "", names=[("cudart", "cudart64_110.dll"), ("cublas", "cublas64_11.dll"),
                                                ("cublasLt", "cublasLt64_11.dll"), ("cusolver", "cusolver64_10.dll")])
new = win_cuda()
S["win_old_cudart_first_on_path"] = windows_machine(cuda_parts=[old, new])
expect("win_old_cudart_first_on_path", "Windows, TF 2.10: CUDA 11.0's cudart64_110.dll is on PATH before CUDA 11.2's",
       GOOD_INFO + ["ptx_jit_slow", "cuda_version_mismatch", "multiple_cuda_on_path"], [will_not("cuda_version_mismatch")], 1)

S["win_msvcp140_1_missing"] = windows_machine(msvc=False)
expect("win_msvcp140_1_missing", "Windows, TF 2.10 set up right, but no Visual C++ runtime",
       GOOD_INFO + ["ptx_jit_slow", "msvc_runtime_missing"], [will_not("msvc_runtime_missing")], 1)

S["win_python_32bit"] = windows_machine(py=win_conda_env("3.9.13", None, bits=32, name="py32"))
expect("win_python_32bit", "Windows, active 32-bit Python 3.9, TensorFlow could not be installed",
       ["python_32bit", "tensorflow_not_installed"], [{"kind": "no_tensorflow"}], 1)

S["win_python311_wants_tf210"] = windows_machine(py=win_conda_env("3.11.9", None, name="py311"))
expect("win_python311_wants_tf210", "Windows, Python 3.11: no TF with Windows GPU support has a wheel for it (TF 2.10 stops at 3.10)",
       ["python_version_unsupported", "tensorflow_not_installed"], [{"kind": "no_tensorflow"}], 1)

S["win_cuda_not_on_path"] = windows_machine(path_dirs=[])
expect("win_cuda_not_on_path", "Windows, TF 2.10, CUDA 11.2 + cuDNN 8.1 installed but their bin folder is not on PATH",
       GOOD_INFO + ["ptx_jit_slow", "env_path_not_set"], [will_not("env_path_not_set")], 1)

S["win_tensorflow_cpu"] = windows_machine(py=win_conda_env(tf=("tensorflow-cpu", "2.10.1")))
expect("win_tensorflow_cpu", "Windows, tensorflow-cpu 2.10.1 installed instead of tensorflow", ["wrong_package"],
       [will_not("wrong_package")], 1)

# --- Linux
S["linux_driver_too_old"] = linux_pip_machine(driver=("470.57.02", "11.4"))
expect("linux_driver_too_old", "Linux, RTX 4090, driver 470 (CUDA 11.4) with TF 2.15 (CUDA 12.2) from pip [and-cuda]",
       GOOD_INFO + ["driver_too_old"], [will_not("driver_too_old")], 1)

m = linux_pip_machine()
m["driver"] = driver_absent()
m["libraries"] = [l for l in m["libraries"] if l["component"] not in ("cuda_driver", "nvml")]
m["loader"] = linux_loader([])
m["gpus"][0].update({"index": -1, "source": "sysfs", "memory_total_bytes": 0, "memory_free_bytes": 0, "uuid": ""})
S["linux_no_driver"] = m
expect("linux_no_driver", "Linux, RTX 4090 on the PCI bus, no NVIDIA driver installed",
       ["driver_missing", "mixed_precision_available", "device_placement_check"], [will_not("driver_missing")], 1)

m = linux_pip_machine()
m["driver"] = {"state": {"status": "failed", "reason": "Failed to initialize NVML: Driver/library version mismatch", "source": "nvml"},
               "version": "535.171.04", "cuda_version": "", "kernel_module_version": "535.161.07", "device_count": -1,
               "attempts": [{"library": "nvml", "tried": ["libnvidia-ml.so.1"], "errors": [], "opened": "libnvidia-ml.so.1",
                             "init_result": "NVML_ERROR_LIB_RM_VERSION_MISMATCH (18)"}]}
S["linux_driver_library_mismatch"] = m
expect("linux_driver_library_mismatch", "Linux after a driver upgrade without reboot: kernel module 535.161.07, libraries 535.171.04",
       GOOD_INFO + ["driver_library_mismatch"], [will_not("driver_library_mismatch")], 1)

S["linux_pip_and_cuda_good"] = linux_pip_machine()
expect("linux_pip_and_cuda_good", "Linux, RTX 4090, driver 550, pip install tensorflow[and-cuda]==2.15.1 in a venv", GOOD_INFO,
       [will_use(1)], 0)

S["linux_tf2161_pip_libs_not_found"] = linux_pip_machine(tf_version="2.16.1", cuda_version="12.3.101", cudnn_version="8.9.7.29",
                                                         with_runpath=False)
expect("linux_tf2161_pip_libs_not_found", "Linux, TF 2.16.1 [and-cuda]: the nvidia-* wheels are there but TF's files carry no RUNPATH to them",
       GOOD_INFO + ["pip_nvidia_libs_not_found"], [will_not("pip_nvidia_libs_not_found")], 1)

S["linux_gtx960_tf218"] = linux_pip_machine(gpu_spec=GTX960, tf_version="2.18.0", cudnn_major=9, cudnn_version="9.3.0.75",
                                            cuda_version="12.5.82")
expect("linux_gtx960_tf218", "Linux, GTX 960 (compute capability 5.2) with TF 2.18 (lowest compiled sm_60)",
       ["gpu_memory_preallocation", "device_placement_check", "compute_capability_unsupported"],
       [will_not("compute_capability_unsupported")], 1)

S["linux_h100_ptx_jit"] = linux_pip_machine(gpu_spec=H100, tf_version="2.18.0", cudnn_major=9, cudnn_version="9.3.0.75",
                                            cuda_version="12.5.82")
expect("linux_h100_ptx_jit", "Linux, H100 (9.0) with TF 2.18: no sm_90 SASS, kernels JIT-compiled from compute_90 PTX",
       GOOD_INFO + ["ptx_jit_slow"], [will_use(1)], 0)

S["linux_cuda_visible_devices_minus1"] = linux_pip_machine(env_extra={"CUDA_VISIBLE_DEVICES": "-1"})
expect("linux_cuda_visible_devices_minus1", "Linux, everything right but CUDA_VISIBLE_DEVICES=-1",
       GOOD_INFO + ["no_device_visible"], [will_not("no_device_visible")], 1)

m = linux_pip_machine(host=linux_host(container="docker"))
m["driver"] = driver_absent()
m["libraries"] = [l for l in m["libraries"] if l["component"] not in ("cuda_driver", "nvml")]
m["loader"] = linux_loader([])
m["gpus"][0].update({"index": -1, "source": "sysfs", "memory_total_bytes": 0, "memory_free_bytes": 0, "uuid": ""})
S["linux_container_without_gpus"] = m
expect("linux_container_without_gpus", "Docker container started without --gpus on a GPU host",
       ["container_gpu_runtime_missing", "mixed_precision_available", "device_placement_check"],
       [will_not("container_gpu_runtime_missing")], 1)

S["linux_cpu_without_avx"] = linux_pip_machine(host=linux_host(avx="no"))
expect("linux_cpu_without_avx", "Linux on a Pentium without AVX: the wheel dies with Illegal instruction",
       GOOD_INFO + ["cpu_no_avx"], [will_not("cpu_no_avx")], 1)

m = linux_pip_machine()
py = m["pythons"][0]
py["tensorflow"][0]["package"] = "tensorflow-cpu"
py["packages"][0]["name"] = "tensorflow-cpu"
S["linux_tensorflow_cpu"] = m
expect("linux_tensorflow_cpu", "Linux, tensorflow-cpu 2.15.1 installed with the CUDA wheels", ["wrong_package"],
       [will_not("wrong_package")], 1)

m = linux_pip_machine()
site = m["pythons"][0]["site_packages"][0]
m["pythons"][0]["packages"].append(pkg("tensorflow-cpu", "2.14.0", site))
S["linux_two_tf_packages"] = m
expect("linux_two_tf_packages", "Linux, tensorflow 2.15.1 and tensorflow-cpu 2.14.0 in one venv", GOOD_INFO + ["wrong_package"],
       [will_not("wrong_package")], 1)

m = linux_pip_machine()
prefix = "/home/bob/miniconda3/envs/tf"
site = f"{prefix}/lib/python3.11/site-packages"
libs, cuda, cudnn, packages = pip_cuda_env(site)
m["libraries"] = linux_driver_libs() + libs + [lib(f"{prefix}/lib/libcudart.so.11.0", "cudart", "11.8.89", f"conda:{prefix}"),
                                               lib(f"{prefix}/lib/libcudnn.so.8", "cudnn", "8.8.0", f"conda:{prefix}")]
m["cuda"] = cuda + [{"root": prefix, "version": "11.8.89", "version_source": f"{prefix}/conda-meta/cudatoolkit-11.8.0.json",
                     "kind": "conda", "package": "cudatoolkit", "lib_dirs": [f"{prefix}/lib"]}]
m["cudnn"] = cudnn
m["env"] = {"PATH": f"{prefix}/bin:/usr/bin:/bin", "CONDA_PREFIX": prefix, "LD_LIBRARY_PATH": f"{prefix}/lib"}
m["pythons"] = [python_env(f"{prefix}/bin/python", prefix, "3.11.9", "conda", "tf", site,
                           [pkg("tensorflow", "2.15.1", site)] + packages, ("tensorflow", "2.15.1"))]
S["linux_conda_cudatoolkit_conflict"] = m
expect("linux_conda_cudatoolkit_conflict", "Linux conda env: conda cudatoolkit 11.8 (and its cuDNN 8.8 on LD_LIBRARY_PATH) next to TF 2.15's pip CUDA 12 wheels",
       GOOD_INFO + ["conda_cuda_conflict", "cudnn_version_mismatch", "cuda_library_other_major"],
       [will_not("conda_cuda_conflict", "cudnn_version_mismatch")], 1)

S["linux_ld_library_path_world_writable"] = linux_system_machine(
    ld_path="/tmp/libs:/usr/local/cuda-11.8/lib64",
    search_dirs=[{"path": "/tmp/libs", "world_writable": "yes", "source": "stat"},
                 {"path": "/usr/local/cuda-11.8/lib64", "world_writable": "no", "source": "stat"}])
expect("linux_ld_library_path_world_writable", "Linux, TF 2.14 with system CUDA 11.8; /tmp/libs (world-writable) before it on LD_LIBRARY_PATH",
       GOOD_INFO + ["library_path_world_writable"], [will_use(1)], 0)

S["linux_ld_library_path_current_dir"] = linux_system_machine(
    ld_path=":/usr/local/cuda-11.8/lib64:.",
    search_dirs=[{"path": "/usr/local/cuda-11.8/lib64", "world_writable": "no", "source": "stat"}])
expect("linux_ld_library_path_current_dir", "Linux, TF 2.14 with system CUDA 11.8; LD_LIBRARY_PATH with an empty element and '.': the current directory is searched",
       GOOD_INFO + ["library_path_current_dir", "ptx_jit_slow"], [will_use(1)], 0)

m = linux_system_machine(tf_version="2.13.0", ld_path="")
m["env"].pop("LD_LIBRARY_PATH")
# Distribution packages (libcudart11.0, libcudnn8) in /usr/lib/x86_64-linux-gnu, no toolkit, no ptxas.
sysdir = "/usr/lib/x86_64-linux-gnu"
names = [("cudart", "libcudart.so.11.0", "11.8.89"), ("cublas", "libcublas.so.11", ""), ("cublasLt", "libcublasLt.so.11", ""),
         ("cufft", "libcufft.so.10", ""), ("curand", "libcurand.so.10", ""), ("cusolver", "libcusolver.so.11", ""),
         ("cusparse", "libcusparse.so.11", ""), ("cudnn", "libcudnn.so.8", "8.6.0")]
m["libraries"] = linux_driver_libs() + [lib(f"{sysdir}/{n}", c, v, "system") for c, n, v in names] + \
    [lib(f"{sysdir}/{s}", "cudnn", "8.6.0", "system") for s in CUDNN8_SUBLIBS]
m["cuda"] = [{"root": "/usr", "version": "11.8.89", "version_source": "dpkg", "kind": "system", "package": "libcudart11.0",
              "lib_dirs": [sysdir]}]
m["cudnn"] = [{"root": "/usr", "version": "8.6.0", "version_source": "/usr/include/cudnn_version.h", "kind": "system",
               "package": "libcudnn8", "cuda_major": "11", "lib_dirs": [sysdir]}]
m["loader"] = linux_loader([("libcuda.so.1", LIBCUDA)] + [(n, f"{sysdir}/{n}") for c, n, v in names])
S["linux_xla_ptxas_missing"] = m
expect("linux_xla_ptxas_missing", "Linux, TF 2.13 on distribution CUDA runtime packages: loads, but no ptxas for XLA",
       GOOD_INFO + ["xla_ptxas_or_libdevice_missing"], [will_use(1)], 0)

m = linux_system_machine(tf_version="2.10.0", ld_path="/usr/local/cuda-12.2/lib64", cuda_args={
    "version": "12.2.140", "root": "/usr/local/cuda-12.2", "cudnn_version": "8.9.4",
    "names": [("cudart", "libcudart.so.12"), ("cublas", "libcublas.so.12"), ("cublasLt", "libcublasLt.so.12"),
              ("cufft", "libcufft.so.11"), ("curand", "libcurand.so.10"), ("cusolver", "libcusolver.so.11"),
              ("cusparse", "libcusparse.so.12")]})
m["env"]["PATH"] = "/usr/local/cuda-12.2/bin:/usr/bin:/bin"
S["linux_cuda12_for_tf210"] = m
expect("linux_cuda12_for_tf210", "Linux, TF 2.10 (CUDA 11.2 names) with only a CUDA 12.2 toolkit installed",
       GOOD_INFO + ["ptx_jit_slow", "cuda_version_mismatch", "cuda_library_other_major"], [will_not("cuda_version_mismatch")], 1)

libs12, cuda12, _ = system_cuda("12.2.140", "/usr/local/cuda-12.2", "", names=[("cudart", "libcudart.so.12")])
S["linux_two_cuda_on_ld_library_path"] = linux_system_machine(
    ld_path="/usr/local/cuda-12.2/lib64:/usr/local/cuda-11.8/lib64", extra_libs=libs12, extra_cuda=cuda12)
expect("linux_two_cuda_on_ld_library_path", "Linux, TF 2.14: CUDA 12.2 and 11.8 both on LD_LIBRARY_PATH (12.2 first)",
       GOOD_INFO + ["multiple_cuda_on_path"], [will_use(1)], 0)

old_dir = "/opt/cudnn-8.2/lib"
S["linux_old_cudnn_shadows"] = linux_system_machine(
    ld_path=f"{old_dir}:/usr/local/cuda-11.8/lib64",
    extra_libs=[lib(f"{old_dir}/libcudnn.so.8", "cudnn", "8.2.4", "standalone")] +
               [lib(f"{old_dir}/{s}", "cudnn", "8.2.4", "standalone") for s in CUDNN8_SUBLIBS],
    extra_cudnn=[{"root": "/opt/cudnn-8.2", "version": "8.2.4", "version_source": "/opt/cudnn-8.2/include/cudnn_version.h",
                  "kind": "standalone", "package": "", "cuda_major": "11", "lib_dirs": [old_dir]}])
expect("linux_old_cudnn_shadows", "Linux, TF 2.14 (cuDNN 8.7): an old cuDNN 8.2 earlier on LD_LIBRARY_PATH shadows the 8.7 copy",
       GOOD_INFO + ["cudnn_version_mismatch"], [will_not("cudnn_version_mismatch")], 1)

S["linux_cudnn_incomplete_copy"] = linux_system_machine(cuda_args={"cudnn_subs": False})
expect("linux_cudnn_incomplete_copy", "Linux, TF 2.14: only libcudnn.so.8 was copied into CUDA 11.8, not its sub-libraries",
       GOOD_INFO + ["cudnn_incomplete"], [will_not("cudnn_incomplete")], 1)

m = snapshot(linux_host(distro="Debian GNU/Linux 12 (bookworm)", kernel="6.1.0-18-amd64"), [], driver_absent(),
             {"PATH": "/usr/local/bin:/usr/bin:/bin"}, loader=linux_loader([]),
             pythons=[python_env("/usr/bin/python3", "/usr", "3.11.2", "system", "", "/usr/lib/python3/dist-packages", [])])
S["linux_no_gpu_no_tf"] = m
expect("linux_no_gpu_no_tf", "Linux server without NVIDIA GPU, driver or TensorFlow (like a CI box)",
       ["no_nvidia_gpu", "tensorflow_not_installed"], [{"kind": "no_tensorflow"}], 1)

# --- WSL2
S["wsl2_good"] = wsl_machine()
expect("wsl2_good", "WSL2 Ubuntu, Windows driver 537.42, TF 2.15.1 [and-cuda]", GOOD_INFO, [will_use(1)], 0)

S["wsl2_linux_driver_inside"] = wsl_machine(linux_driver=True, driver_state={
    "state": {"status": "failed", "reason": "cuInit: CUDA_ERROR_NO_DEVICE (100)", "source": "cuda"},
    "version": "", "cuda_version": "", "kernel_module_version": "", "device_count": -1,
    "attempts": [{"library": "cuda", "tried": ["libcuda.so.1"], "errors": [], "opened": LIBCUDA,
                  "init_result": "CUDA_ERROR_NO_DEVICE (100)"}]})
expect("wsl2_linux_driver_inside", "WSL2 with a Linux NVIDIA driver installed inside: its libcuda shadows /usr/lib/wsl/lib",
       GOOD_INFO + ["wsl_libcuda", "no_device_visible"], [will_not("wsl_libcuda")], 1)

S["wsl2_libcuda_not_found"] = wsl_machine(in_cache=False, driver_state=driver_absent(
    "libcuda.so.1: cannot open shared object file: No such file or directory"))
expect("wsl2_libcuda_not_found", "WSL2: /usr/lib/wsl/lib/libcuda.so.1 exists but is not in ld.so.cache (ld.wsl.conf missing)",
       GOOD_INFO + ["wsl_libcuda"], [will_not("wsl_libcuda")], 1)

S["wsl2_windows_driver_too_old"] = wsl_machine(driver=("511.79", "11.6"))
expect("wsl2_windows_driver_too_old", "WSL2 with Windows driver 511.79 and TF 2.15 (CUDA 12.2 needs 527.41+ on Windows)",
       GOOD_INFO + ["driver_too_old"], [will_not("driver_too_old")], 1)

# --- macOS
site = "/Users/carol/venv/lib/python3.11/site-packages"
S["macos_tf216"] = snapshot(macos_host(), [], {"state": {"status": "unsupported", "reason": "no NVIDIA driver for macOS", "source": ""},
                                               "version": "", "cuda_version": "", "kernel_module_version": "", "device_count": -1,
                                               "attempts": []},
                            {"PATH": "/Users/carol/venv/bin:/usr/bin:/bin"},
                            gpu_state={"status": "unsupported", "reason": "macOS", "source": ""},
                            runtime_state={"status": "unsupported", "reason": "macOS", "source": ""},
                            pythons=[python_env("/Users/carol/venv/bin/python3", "/Users/carol/venv", "3.11.9", "venv", "venv", site,
                                                [pkg("tensorflow", "2.16.1", site)], ("tensorflow", "2.16.1"))])
expect("macos_tf216", "macOS on Apple silicon, TF 2.16.1: no CUDA build for macOS at all", ["macos_gpu_unsupported"],
       [will_not("macos_gpu_unsupported")], 1)

# --- A partial snapshot (from a log): nothing probed, so no conclusion either way.
site = "/home/dave/.local/lib/python3.10/site-packages"
S["partial_from_log"] = snapshot({"os": "linux", "state": not_probed()}, [], {"state": not_probed(), "device_count": -1}, {},
                                 gpu_state=not_probed(), runtime_state=not_probed(), python_state=not_probed(), origin="log",
                                 pythons=[python_env("", "", "3.10", "given", "", site, [pkg("tensorflow", "2.15.0", site)],
                                                     ("tensorflow", "2.15.0"))])
expect("partial_from_log", "Only a log's facts (Linux, TF 2.15): every layer not probed, so the verdict is 'cannot tell'", [],
       [{"kind": "cannot_tell"}], 0)


# --- Hand-written: states no machine here can be put in for a real probe. Each says so in
# a top-level "provenance" key (readers ignore it; docs/snapshot.md).

def hand_written(snap, why):
    snap["provenance"] = "hand-written: " + why
    return snap


# CUDA 13 toolkit (with cuDNN 9 for CUDA 13 copied in, as /usr/local/cuda-13.0 here) first on
# LD_LIBRARY_PATH in front of a TF 2.18 [and-cuda] venv (CUDA 12.5): libcusparse.so.12 and
# libcudnn.so.9 carry the same names in CUDA 13, so TF's dlopen takes them from there.
CUDA13 = "/usr/local/cuda-13.0/lib"
m = linux_pip_machine(tf_version="2.18.0", cudnn_major=9, cudnn_version="9.3.0.75", cuda_version="12.5.82",
                      env_extra={"LD_LIBRARY_PATH": CUDA13})
m["libraries"] += [lib(f"{CUDA13}/{f}", c, v, "cuda:/usr/local/cuda-13.0") for c, f, v in [
    ("cudart", "libcudart.so.13", "13.0.96"), ("cublas", "libcublas.so.13", "13.1.0.3"),
    ("cublasLt", "libcublasLt.so.13", "13.1.0.3"), ("cufft", "libcufft.so.12", "12.0.0.61"),
    ("curand", "libcurand.so.10", "10.4.0.35"), ("cusolver", "libcusolver.so.12", "12.0.4.66"),
    ("cusparse", "libcusparse.so.12", "12.6.3.3"),
    ("nvjitlink", "libnvJitLink.so.13", "13.0.88"), ("cudnn", "libcudnn.so.9", "9.19.0")]]
m["libraries"] += [lib(f"{CUDA13}/{sub}", "cudnn", "9.19.0", "cuda:/usr/local/cuda-13.0") for sub in CUDNN9_SUBLIBS]
m["cuda"].append({"root": "/usr/local/cuda-13.0", "version": "13.0.96", "version_source": "/usr/local/cuda-13.0/version.json",
                  "kind": "toolkit", "package": "", "lib_dirs": [CUDA13]})
m["cudnn"].append({"root": "/usr/local/cuda-13.0", "version": "9.19.0",
                   "version_source": "/usr/local/cuda-13.0/include/cudnn_version.h", "kind": "toolkit", "package": "",
                   "cuda_major": "13", "lib_dirs": [CUDA13]})
S["linux_cuda13_libs_for_tf218"] = hand_written(m, "no TF 2.18 venv or second CUDA on the machine that wrote it; "
                                                   "file names and versions as in CUDA 13.0 and the TF 2.18 wheels")
expect("linux_cuda13_libs_for_tf218", "Linux, TF 2.18 [and-cuda] (CUDA 12.5), CUDA 13.0 first on LD_LIBRARY_PATH: "
       "its libcurand.so.10, libcusparse.so.12 and cuDNN 9 load instead of the wheels'",
       ["gpu_memory_preallocation", "mixed_precision_available", "device_placement_check", "cuda_library_other_major"],
       [will_use(1)], 0)

# The Python probe failed: that is not "no TensorFlow".
m = linux_pip_machine()
m["pythons"] = []
m["python_state"] = {"status": "failed", "reason": "timed out after 10000 ms listing /home/bob/tf", "source": "python probe"}
S["linux_python_probe_failed"] = hand_written(m, "the probe's Python layer does not fail on any tree it was run on")
expect("linux_python_probe_failed", "Linux, RTX 4090 with a driver: the Python probe failed, so whether TF is there is unknown",
       [], [{"kind": "cannot_tell"}], 0)

# A venv whose site-packages cannot be listed (another user's, mode 0700).
m = linux_pip_machine()
prefix, site = venv()
m["pythons"][0].update({"packages": [], "tensorflow": [],
                        "packages_state": {"status": "failed", "reason": f"cannot list {site}: Permission denied",
                                           "source": "site-packages"}})
m["libraries"] = [l for l in m["libraries"] if l["origin"] != "tensorflow"]
S["linux_site_packages_unreadable"] = hand_written(m, "the tests run as root, which reads every directory")
expect("linux_site_packages_unreadable", "Linux, a venv whose site-packages cannot be listed (Permission denied): TensorFlow unknown",
       [], [{"kind": "cannot_tell"}], 0)

# The user-space driver is installed but the kernel module is not loaded (Secure Boot refused
# it, or it was not built for this kernel): nvmlInit says DRIVER_NOT_LOADED, there is no
# /proc/driver/nvidia/version, and cuDriverGetVersion still answers from the library alone,
# so the driver probe calls the driver "ok" (NVML unusable). Attempts as the real probe
# records them (tests/probe_driver_mock_posix_test.cc, TFGPU_MOCK_NVML=init_fail).
m = linux_pip_machine()
m["driver"] = {"state": ok("cuda:libcuda.so.1"), "version": "", "cuda_version": "12.4", "kernel_module_version": "",
               "device_count": -1,
               "attempts": [{"library": "nvml", "tried": ["libnvidia-ml.so.1"], "errors": [], "opened": "libnvidia-ml.so.1",
                             "init_result": "NVML_ERROR_DRIVER_NOT_LOADED (9): Driver Not Loaded"},
                            {"library": "cuda", "tried": ["libcuda.so.1"], "errors": [], "opened": "libcuda.so.1",
                             "init_result": "CUDA_ERROR_NO_DEVICE (100)"}]}
m["driver"]["state"]["reason"] = "NVML unusable (NVML_ERROR_DRIVER_NOT_LOADED (9): Driver Not Loaded); CUDA version from cuDriverGetVersion"
m["gpus"][0].update({"index": -1, "source": "sysfs", "memory_total_bytes": 0, "memory_free_bytes": 0, "uuid": ""})
S["linux_kernel_driver_not_loaded"] = hand_written(m, "no NVIDIA driver can be installed without its kernel module here; "
                                                      "the attempts are those the real probe records against the mock NVML")
expect("linux_kernel_driver_not_loaded", "Linux, RTX 4090, driver libraries installed but the nvidia kernel module not loaded",
       ["driver_missing", "no_device_visible", "mixed_precision_available", "device_placement_check"],
       [will_not("driver_missing")], 1)


# Where each scenario comes from (issue 12: a fixture the real probe cannot produce is a
# guess, so every hand-written one says why it could not be recorded from a real probe).
# Real-probe scenarios (real_*.json) are written by record_real.sh, not by this file.
WHY = {
    "windows": "native Windows machine: this Debian machine has no Windows install to probe; the layout follows "
               "TF's and NVIDIA's Windows install docs (the Windows probe itself is exercised under Wine in "
               "windows_probe_e2e_win32_test over built trees)",
    "wsl2": "WSL2: needs a Windows host's /usr/lib/wsl and a Windows NVIDIA driver; neither exists here",
    "gpu": "needs GPU or driver state this machine cannot have (no NVIDIA GPU, no driver; the mock driver only answers "
           "what the tests program into it)",
    "macos": "macOS host: not this machine",
    "log": "a partial snapshot as explain builds it from a log: not a probe's output by design",
    "layout": "Linux library layout written by hand from a user report; its driver/GPU part needs hardware this machine "
              "lacks, and its library layout has not yet been re-recorded from real packages (real_*.json are)",
}
KIND = {
    "linux_conda_cudatoolkit_conflict": "layout", "linux_container_without_gpus": "gpu", "linux_cpu_without_avx": "gpu",
    "linux_cuda12_for_tf210": "layout", "linux_cuda_visible_devices_minus1": "gpu", "linux_cudnn_incomplete_copy": "layout",
    "linux_driver_library_mismatch": "gpu", "linux_driver_too_old": "gpu", "linux_gtx960_tf218": "gpu",
    "linux_h100_ptx_jit": "gpu", "linux_ld_library_path_world_writable": "layout", "linux_ld_library_path_current_dir": "layout", "linux_no_driver": "gpu",
    "linux_no_gpu_no_tf": "layout", "linux_old_cudnn_shadows": "layout", "linux_pip_and_cuda_good": "layout",
    "linux_tensorflow_cpu": "layout", "linux_tf2161_pip_libs_not_found": "layout",
    "linux_two_cuda_on_ld_library_path": "layout", "linux_two_tf_packages": "layout", "linux_xla_ptxas_missing": "layout",
    "macos_tf216": "macos", "partial_from_log": "log",
}


def provenance(name):
    said = S[name].get("provenance", "")  # hand_written(...) below says why in the snapshot itself
    if said.startswith("hand-written: "):
        return {"kind": "hand-written", "reason": said[len("hand-written: "):]}
    kind = KIND.get(name) or ("windows" if name.startswith("win_") else "wsl2" if name.startswith("wsl2_") else None)
    if kind is None:
        raise SystemExit(f"make_scenarios.py: say where scenario {name} comes from (KIND)")
    return {"kind": "hand-written", "reason": WHY[kind]}


def main():
    for name, snap in sorted(S.items()):
        with open(os.path.join(HERE, name + ".json"), "w") as f:
            json.dump(snap, f, indent=1, sort_keys=True)
            f.write("\n")
        with open(os.path.join(HERE, name + ".expect.json"), "w") as f:
            json.dump(dict(E[name], provenance=provenance(name)), f, indent=1, sort_keys=True)
            f.write("\n")
    print(f"{len(S)} scenarios")


if __name__ == "__main__":
    main()
