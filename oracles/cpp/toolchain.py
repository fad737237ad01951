"""Where the CuTe C++ oracle's compiler, headers and cache are.

The headers come from ``--cute-include DIR`` (``apply_cute_include`` sets the environment
variable ``LAYOUTCHECK_CUTE_INCLUDE`` so worker processes inherit it), else that variable,
else the ``nvidia-cutlass`` wheel (``site-packages/cutlass_library/source/include``).  The
CUTLASS version is read from ``cutlass/version.h`` of that tree.  ``Toolchain.key`` hashes
everything that determines a compiled answer (compiler and its version, flags, the header
tree's path, version and file stamps, this package's C++ prelude), and names the cache
folder ``$LAYOUTCHECK_CACHE/cute-cpp/<key>`` (default ``~/.cache/layoutcheck``), shared by
every command and process.

Every call of the compiler is bounded (``layoutcheck.deadline.run_bounded``: its own process
group, killed whole past its limit, never past the run's deadline): the probe
``CXX --version`` by the workers' start limit (``LAYOUTCHECK_ORACLE_START_TIMEOUT``; a
compiler that does not answer makes cute-cpp unavailable, with that reason), a compile by
``compile_timeout()`` (``LAYOUTCHECK_CPP_COMPILE_TIMEOUT``, default 300 s).
"""

import hashlib
import importlib.util
import math
import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import Any

from layoutcheck.oracles.isolation import worker_start_timeout

from layoutcheck.deadline import TimedOut, run_bounded
from layoutcheck.errors import LayoutError

__all__ = ["Toolchain", "default_include_dir", "find_cuda", "cutlass_version", "cache_root",
           "resolve_include", "add_cute_include_argument", "apply_cute_include", "ENV_INCLUDE",
           "PRELUDE", "compile_timeout", "COMPILE_TIMEOUT_ENV", "run_compiler"]

COMPILE_TIMEOUT_ENV = "LAYOUTCHECK_CPP_COMPILE_TIMEOUT"
DEFAULT_COMPILE_TIMEOUT_S = 300.0

ENV_INCLUDE = "LAYOUTCHECK_CUTE_INCLUDE"
PRELUDE = Path(__file__).resolve().parent / "prelude.hpp"
FLAGS = ("-std=c++17", "-O0", "-Wno-deprecated-declarations")  # -O0: CuTe's code runs as written
# How the library records answers, in the cache key: a library of another format is not read
# (2: a kernel's rejection is what g++ says of it alone, oracles/cpp/driver.py own_diagnostic)
LIBRARY_FORMAT = "2"
# (at -O1 g++ deletes an unused division, and with it a SIGFPE that -O0 shows)


def default_include_dir():
    """``site-packages/cutlass_library/source/include`` of the nvidia-cutlass wheel, or None."""
    spec = importlib.util.find_spec("cutlass_library")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0]) / "source" / "include"


def resolve_include(include_dir=None):
    """The header tree to use: the argument, else $LAYOUTCHECK_CUTE_INCLUDE, else the wheel."""
    chosen = include_dir or os.environ.get(ENV_INCLUDE) or default_include_dir() or ""
    return Path(chosen).expanduser()


def find_cuda():
    """The CUDA toolkit root, found from nvcc's location (following wrapper scripts)."""
    candidates = [os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH")]
    nvcc = shutil.which("nvcc")
    if nvcc:
        real = Path(nvcc).resolve()
        candidates.append(str(real.parent.parent))
        try:  # a wrapper script such as `exec /usr/local/cuda-13.0/bin/nvcc "$@"`
            text = real.read_text(errors="replace")[:4096] if real.stat().st_size < 65536 else ""
            candidates += [m.group(1) for m in re.finditer(r"(/[\w./+-]+)/bin/nvcc\b", text)]
        except OSError:
            pass
    candidates.append("/usr/local/cuda")
    for c in candidates:
        if c and (Path(c) / "include" / "cuda_runtime_api.h").is_file():
            return Path(c)
    return None


def cutlass_version(include_dir):
    """``"4.2.0"`` from ``cutlass/version.h`` under include_dir, or None."""
    try:
        text = (Path(include_dir) / "cutlass" / "version.h").read_text(errors="replace")
    except OSError:
        return None
    parts = [re.search(rf"#define\s+CUTLASS_{p}\s+(\d+)", text) for p in ("MAJOR", "MINOR", "PATCH")]
    if not all(parts):
        return None
    return ".".join(m.group(1) for m in parts)


def compile_timeout(default: float = DEFAULT_COMPILE_TIMEOUT_S) -> float:
    """Seconds one compiler call may take (``LAYOUTCHECK_CPP_COMPILE_TIMEOUT``, else
    ``default``); a bad value is a LayoutError."""
    text = os.environ.get(COMPILE_TIMEOUT_ENV, "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        raise LayoutError(f"{COMPILE_TIMEOUT_ENV}={text!r} is not a number") from None
    if not (math.isfinite(value) and 0.1 <= value <= 86400):
        raise LayoutError(f"{COMPILE_TIMEOUT_ENV}={text!r} must lie in [0.1, 86400]")
    return value


def run_compiler(cmd: Sequence[str], timeout: float | None, what: str,
                 **kw: Any) -> "subprocess.CompletedProcess[str]":
    """The compiler's ``CompletedProcess`` (``run_bounded``); a call past its limit is one
    LayoutError line naming ``what`` and the limit (the compiler's processes killed)."""
    try:
        return run_bounded(cmd, timeout, what, **kw)
    except TimedOut as e:
        hint = "" if e.by_deadline else f"; {COMPILE_TIMEOUT_ENV} sets it"
        raise LayoutError(f"cute-cpp: {what} did not finish within {e.seconds:.3g} s "
                          f"({e.limit}{hint})") from None
    except OSError as e:
        raise LayoutError(f"cute-cpp: {cmd[0]} cannot run: {e.strerror or e}") from None


def cache_root():
    base = os.environ.get("LAYOUTCHECK_CACHE") or Path.home() / ".cache" / "layoutcheck"
    return Path(base) / "cute-cpp"


def _tree_stamp(include_dir):
    """(path, size, mtime) of every CuTe header: a changed tree gets a new cache key."""
    h = hashlib.sha256()
    root = Path(include_dir) / "cute"
    for path in sorted(root.rglob("*.hpp")):
        st = path.stat()
        h.update(f"{path.relative_to(root)}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()


class Toolchain:
    """g++ + the CuTe headers + CUDA's headers, and the cache folder they key."""

    def __init__(self, include_dir=None, cxx=None, cuda=None, cache_dir=None):
        self.include_dir = resolve_include(include_dir)
        self.cxx = cxx or os.environ.get("CXX") or "g++"
        self.cuda = Path(cuda) if cuda else find_cuda()
        self._cache_root = Path(cache_dir) if cache_dir else None

    def unavailable_reason(self):
        if not shutil.which(self.cxx):
            return f"C++ compiler {self.cxx!r} not found on PATH"
        try:
            self.compiler_id  # noqa: B018 - the probe: a compiler that hangs is unavailable
        except LayoutError as e:
            return str(e).removeprefix("cute-cpp: ")
        if not (self.include_dir / "cute" / "layout.hpp").is_file():
            where = self.include_dir if str(self.include_dir) not in ("", ".") else "(not found)"
            return (f"CuTe headers missing: no cute/layout.hpp under {where} "
                    f"(pip install --no-deps nvidia-cutlass, --cute-include DIR or {ENV_INCLUDE})")
        if self.cuda is None:
            return "CUDA toolkit headers missing (cuda_runtime_api.h): nvcc not found and CUDA_HOME unset"
        if not (self.cuda / "include" / "cccl" / "cuda" / "std").is_dir():
            return f"CUDA toolkit at {self.cuda} lacks CCCL headers (include/cccl/cuda/std)"
        return None

    @cached_property
    def version(self):
        return cutlass_version(self.include_dir)

    def describe(self):
        """``CUTLASS 4.2.0 headers at PATH`` (what every report names)."""
        v = self.version or "unknown version (no cutlass/version.h)"
        return f"CUTLASS {v} headers at {self.include_dir.resolve()}"

    @cached_property
    def compiler_id(self):
        """The first line of ``CXX --version``, within the workers' start limit."""
        limit = worker_start_timeout()
        try:
            out = run_bounded([self.cxx, "--version"], limit, f"{self.cxx} --version").stdout
        except TimedOut as e:
            hint = "" if e.by_deadline else "; LAYOUTCHECK_ORACLE_START_TIMEOUT sets the limit"
            raise LayoutError(f"cute-cpp: {self.cxx} --version did not answer within "
                              f"{e.seconds:.3g} s ({e.limit}: the compiler hangs{hint})") from None
        except OSError as e:
            raise LayoutError(f"cute-cpp: {self.cxx} --version failed: {e}") from None
        return (out.strip().splitlines() or ["?"])[0]

    @cached_property
    def key(self):
        h = hashlib.sha256()
        for part in (LIBRARY_FORMAT, self.compiler_id, " ".join(FLAGS), str(self.include_dir.resolve()),
                     self.version or "", _tree_stamp(self.include_dir), str(self.cuda),
                     PRELUDE.read_text()):
            h.update(part.encode() + b"\0")
        return h.hexdigest()[:20]

    @cached_property
    def folder(self):
        root = self._cache_root or cache_root()
        path = root / self.key
        path.mkdir(parents=True, exist_ok=True)
        info = path / "toolchain.txt"
        if not info.is_file():
            _atomic_write(info, f"{self.describe()}\n{self.compiler_id}\n{' '.join(FLAGS)}\n")
        return path

    def flags(self):
        inc = self.cuda / "include"
        return [*FLAGS, f"-I{self.folder}", f"-I{self.include_dir}", f"-I{inc}", f"-I{inc / 'cccl'}"]

    def pch(self, timeout):
        """Build (once per key, shared by every process) the precompiled prelude header.
        Returns the seconds spent (0.0 when it was there)."""
        gch = self.folder / "lc_prelude.hpp.gch"
        header = self.folder / "lc_prelude.hpp"
        if gch.is_file() and header.is_file():
            return 0.0
        if not header.is_file():
            _atomic_write(header, PRELUDE.read_text())
        t0 = time.perf_counter()
        with tempfile.TemporaryDirectory(dir=self.folder) as tmp:
            out = Path(tmp) / "lc_prelude.hpp.gch"
            cmd = [self.cxx, *self.flags(), "-x", "c++-header", str(header), "-o", str(out)]
            proc = run_compiler(cmd, timeout, "the precompiled header", env=compiler_env())
            if proc.returncode != 0:
                raise LayoutError(f"cute-cpp: the prelude does not compile with {self.describe()}: "
                                  f"{proc.stderr.strip()[-600:]}")
            os.replace(out, gch)
        return time.perf_counter() - t0


def compiler_env():
    """The compiler's environment: plain ASCII diagnostics (parsed by the driver)."""
    env = dict(os.environ)
    env["LC_ALL"] = "C"
    env.pop("GCC_COLORS", None)
    return env


def _atomic_write(path, text):
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


# --- the --cute-include flag ------------------------------------------------------------

def add_cute_include_argument(parser):
    parser.add_argument("--cute-include", metavar="DIR", default=None,
                        help="CuTe/CUTLASS include folder (holding cute/ and cutlass/) for "
                             f"cute-cpp and the GPU CuTe kernels (default: ${ENV_INCLUDE}, "
                             "else the nvidia-cutlass wheel's headers)")


def apply_cute_include(args):
    """Validate ``args.cute_include`` and export it for this process and its workers."""
    chosen = getattr(args, "cute_include", None)
    if not chosen:
        return None
    path = Path(chosen).expanduser()
    if not (path / "cute" / "layout.hpp").is_file():
        raise LayoutError(f"--cute-include {chosen}: no cute/layout.hpp there "
                          "(give the folder that holds cute/ and cutlass/)")
    os.environ[ENV_INCLUDE] = str(path.resolve())
    return path
