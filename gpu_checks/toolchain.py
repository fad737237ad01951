"""Compilers for the GPU checks: NVRTC and nvcc (device code, sm_90), g++ (the host shim).

The CuTe kernels use the header tree of ``--cute-include`` / $LAYOUTCHECK_CUTE_INCLUDE, else
the nvidia-cutlass wheel's (``cute_include``; ``cute_description`` names its CUTLASS version).
Every artifact is cached by a hash of everything that determines it (source text, the
headers of this folder, compiler and version, options, the CuTe tree's version and path) under ``$LAYOUTCHECK_CACHE/gpu`` or
``~/.cache/layoutcheck/gpu``.  A compile failure raises ``CompileError`` carrying the
compiler's log: it is a failed check, not bad input.  Every compiler call is bounded like
cute-cpp's (``oracles.cpp.toolchain.run_compiler``: ``LAYOUTCHECK_CPP_COMPILE_TIMEOUT``, the run's
deadline): a compiler that hangs is a compile error naming the limit, never a hang.

NVRTC is the ``nvidia-cuda-nvrtc==13.0.*`` library reached through ``cupy_backends`` (pinned:
newer NVRTC emits PTX that CUDA 13.0's ptxas and drivers reject; REFERENCE.md section 3).
"""

import functools
import hashlib
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from layoutcheck.oracles.cpp.toolchain import (
    compile_timeout,
    cutlass_version,
    resolve_include,
    run_compiler,
)

from layoutcheck.errors import LayoutError

__all__ = ["CompileError", "Artifact", "SOURCE_DIR", "ARCH", "cache_dir", "cuda_home",
           "cute_include", "cute_description", "nvrtc_unavailable_reason", "nvcc_unavailable_reason",
           "compile_device", "build_host_library", "backends"]

SOURCE_DIR = Path(__file__).resolve().parent
ARCH = "sm_90"
NVRTC_VERSION = (13, 0)
_LOCAL_HEADERS = ("lc_layout.cuh", "host_shim.cuh")  # device builds include only the first


class CompileError(RuntimeError):
    """A kernel source did not compile; ``log`` holds the compiler's output."""

    def __init__(self, what, log):
        self.log = log
        super().__init__(f"{what} failed to compile:\n{log.strip()[-4000:]}")


@dataclass(frozen=True)
class Artifact:
    """A compiled kernel source: PTX text and an sm_90 cubin."""
    backend: str
    ptx: bytes
    cubin: bytes
    cubin_path: Path
    seconds: float
    cached: bool


def cache_dir():
    root = os.environ.get("LAYOUTCHECK_CACHE") or os.path.join(Path.home(), ".cache", "layoutcheck")
    path = Path(root) / "gpu"
    path.mkdir(parents=True, exist_ok=True)
    return path


def cuda_home():
    """The CUDA toolkit: $CUDA_HOME, else the folder above nvcc, else /usr/local/cuda-13.0."""
    for candidate in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH")):
        if candidate and _is_toolkit(Path(candidate)):
            return Path(candidate)
    nvcc = shutil.which("nvcc")
    if nvcc and _is_toolkit(Path(nvcc).resolve().parent.parent):
        return Path(nvcc).resolve().parent.parent
    for candidate in ("/usr/local/cuda-13.0", "/usr/local/cuda"):
        if _is_toolkit(Path(candidate)):
            return Path(candidate)
    return None


def _is_toolkit(home):
    return (home / "include" / "cuda_runtime_api.h").exists()


def _nvcc():
    home = cuda_home()
    if home and (home / "bin" / "nvcc").exists():
        return str(home / "bin" / "nvcc")
    return shutil.which("nvcc")


def cute_include():
    """The CuTe/CUTLASS headers: ``--cute-include`` / $LAYOUTCHECK_CUTE_INCLUDE, else the
    nvidia-cutlass wheel's; None when that tree has no ``cute/layout.hpp``."""
    path = resolve_include()
    return path if (path / "cute" / "layout.hpp").exists() else None


def cute_description():
    """``CUTLASS 4.2.0 headers at PATH`` for the tree the CuTe kernels use (reports name it)."""
    inc = cute_include()
    if inc is None:
        return "missing (pip install --no-deps nvidia-cutlass, or --cute-include DIR)"
    return f"CUTLASS {cutlass_version(inc) or 'unknown version'} headers at {inc.resolve()}"


def _cute_version():
    """What keys a CuTe kernel's cache entry: the tree's CUTLASS version and a digest of its
    CuTe headers' contents (not its path: prepared artifacts travel to the device machine)."""
    inc = cute_include()
    if inc is None:
        return "missing"
    return f"{cutlass_version(inc)}|{_tree_digest(str(inc.resolve()))}"


@functools.lru_cache(maxsize=8)
def _tree_digest(inc):
    h = hashlib.sha256()
    root = Path(inc) / "cute"
    for path in sorted(root.rglob("*.hpp")):
        h.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:24]


def _nvrtc():
    from cupy_backends.cuda.libs import nvrtc
    return nvrtc


def nvrtc_unavailable_reason():
    try:
        version = tuple(_nvrtc().getVersion())
    except Exception as e:  # noqa: BLE001 - any failure to load NVRTC is a reason
        return f"NVRTC cannot be loaded through cupy ({type(e).__name__}: {e})"
    if version[:2] != NVRTC_VERSION:
        return (f"NVRTC is {version[0]}.{version[1]}, the checks pin 13.0 "
                "(pip install 'nvidia-cuda-nvrtc==13.0.*')")
    return None


def nvcc_unavailable_reason():
    return None if _nvcc() else "nvcc not found (set CUDA_HOME or put nvcc on PATH)"


def backends():
    """The device compilers usable here, in order of preference."""
    return [b for b, why in (("nvrtc", nvrtc_unavailable_reason()),
                             ("nvcc", nvcc_unavailable_reason())) if why is None]


def _include_dirs(cute):
    dirs = [str(SOURCE_DIR)]
    if cute:
        inc = cute_include()
        if inc is None:
            raise CompileError("CuTe kernel", "the CuTe headers are missing: "
                               "pip install --no-deps nvidia-cutlass, or --cute-include DIR")
        home = cuda_home()
        dirs.append(str(inc))
        if home:
            dirs += [str(home / "include"), str(home / "include" / "cccl")]
    return dirs


def _key(headers, *parts):
    h = hashlib.sha256()
    for name in headers:
        h.update((SOURCE_DIR / name).read_bytes())
    for p in parts:
        h.update(repr(p).encode() if not isinstance(p, bytes) else p)
        h.update(b"\0")
    return h.hexdigest()[:32]


def _compiler_id(backend):
    if backend == "nvrtc":
        return "nvrtc-" + ".".join(map(str, _nvrtc().getVersion()[:2]))
    out = _bounded([_nvcc(), "--version"], "nvcc --version", "nvcc").stdout
    return "nvcc-" + (out.strip().splitlines() or ["?"])[-1]


def _bounded(cmd, what, name):
    """A compiler call within ``compile_timeout()`` and the run's deadline; past it a
    ``CompileError`` naming the limit."""
    try:
        return run_compiler(cmd, compile_timeout(), what)
    except LayoutError as e:
        raise CompileError(name, str(e)) from None


def compile_device(source, name="kernel", *, backend=None, cute=False, defines=(), arch=ARCH,
                   cached_only=False):
    """Compile CUDA source text to PTX and an ``arch`` cubin; cached by source hash.
    ``cached_only``: answer the cached artifact, or None where none is cached (no compile)."""
    backend = backend or os.environ.get("LAYOUTCHECK_GPU_BACKEND") or (backends() or ["nvrtc"])[0]
    why = nvrtc_unavailable_reason() if backend == "nvrtc" else nvcc_unavailable_reason()
    if why:
        raise CompileError(name, f"the {backend} backend is unavailable: {why}")
    opts = ["-std=c++17", f"-arch={arch}"] + [f"-D{d}" for d in defines]
    # the key leaves out include paths (they differ between machines, the files do not)
    key = _key(_LOCAL_HEADERS[:1], "device", backend, _compiler_id(backend), opts,
               _cute_version() if cute else "", source)
    opts += ["-I" + d for d in _include_dirs(cute)]
    folder = cache_dir()
    ptx_path, cubin_path = folder / f"{key}.ptx", folder / f"{key}.cubin"
    if ptx_path.exists() and cubin_path.exists():
        return Artifact(backend, ptx_path.read_bytes(), cubin_path.read_bytes(), cubin_path,
                        0.0, True)
    if cached_only:
        return None
    start = time.perf_counter()
    if backend == "nvrtc":
        ptx, cubin = _compile_nvrtc(source, name, opts)
    else:
        ptx, cubin = _compile_nvcc(source, name, opts)
    seconds = time.perf_counter() - start
    _atomic_write(ptx_path, ptx)
    _atomic_write(cubin_path, cubin)
    return Artifact(backend, ptx, cubin, cubin_path, seconds, False)


def _compile_nvrtc(source, name, opts):
    nvrtc = _nvrtc()
    prog = nvrtc.createProgram(source, f"{name}.cu", [], [])
    try:
        try:
            nvrtc.compileProgram(prog, opts + ["-default-device"])
        except Exception as e:  # noqa: BLE001 - NVRTCError; the log says why
            raise CompileError(f"{name} (NVRTC)", f"{e}\n{nvrtc.getProgramLog(prog)}") from None
        ptx = nvrtc.getPTX(prog)
        cubin = nvrtc.getCUBIN(prog)
    finally:
        nvrtc.destroyProgram(prog)
    return _bytes(ptx), _bytes(cubin)


def _bytes(x):
    if isinstance(x, str):
        return x.encode()
    return bytes(x)


def _compile_nvcc(source, name, opts):
    with tempfile.TemporaryDirectory(prefix="lc-nvcc-") as tmp:
        src = Path(tmp) / f"{name}.cu"
        src.write_text(source)
        out = {}
        for kind in ("ptx", "cubin"):
            target = Path(tmp) / f"{name}.{kind}"
            cmd = [_nvcc(), f"-{kind}", *opts, "-Wno-deprecated-gpu-targets", "-o", str(target),
                   str(src)]
            res = _bounded(cmd, f"nvcc -{kind} of {name}", f"{name} (nvcc -{kind})")
            if res.returncode != 0:
                raise CompileError(f"{name} (nvcc -{kind})", res.stdout + res.stderr)
            out[kind] = target.read_bytes()
    return out["ptx"], out["cubin"]


def build_host_library(source, wrappers, name="kernel", *, cute=False, defines=(),
                       cached_only=False):
    """Build ``source`` with the host shim into a shared library (g++); cached by hash
    (``cached_only``: the cached library's path, or None where none is cached).

    ``wrappers`` is C++ text defining the ``extern "C"`` entry points (see kernels.py).
    Returns the library's path.
    """
    cxx = os.environ.get("CXX") or shutil.which("g++")
    if not cxx:
        raise CompileError(name, "no host C++ compiler (g++) found")
    unit = '#include "host_shim.cuh"\n' + source + "\n" + wrappers
    flags = ["-std=c++17", "-O2", "-shared", "-fPIC", "-w"] + [f"-D{d}" for d in defines]
    version = _bounded([cxx, "--version"], f"{cxx} --version", name).stdout
    key = _key(_LOCAL_HEADERS, "host", cxx, version.split("\n")[0], flags,
               _cute_version() if cute else "", unit)
    flags += ["-I" + d for d in _include_dirs(cute)]
    lib = cache_dir() / f"{key}.so"
    if lib.exists() or cached_only:
        return lib if lib.exists() else None
    with tempfile.TemporaryDirectory(prefix="lc-host-") as tmp:
        src = Path(tmp) / f"{name}.cpp"
        src.write_text(unit)
        out = Path(tmp) / "lib.so"
        res = _bounded([cxx, *flags, "-o", str(out), str(src)], f"g++ of {name}",
                       f"{name} (host shim, g++)")
        if res.returncode != 0:
            raise CompileError(f"{name} (host shim, g++)", res.stdout + res.stderr)
        _atomic_write(lib, out.read_bytes())
    return lib


def _atomic_write(path, data):
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)
