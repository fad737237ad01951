"""``cute-cpp``: the real CuTe C++ headers (from the ``nvidia-cutlass`` wheel), compiled with g++.

Every ``run_many`` call becomes one translation unit: one function per case, each printing
its result with ``cute::print`` between markers; the printed text is parsed back with
layoutcheck's parser.  Integers follow how the input was written: a static ``C`` (``_4``)
becomes ``Int<4>{}``, a plain int (``4``) a runtime ``int``.

A case that CuTe rejects at compile time (a ``static_assert`` or a failed instantiation)
is reported as ``raised`` with the compiler's message.  It is found by splitting the
batch: the cases the diagnostics point at (``required from here`` at their line) are
set apart with their own error lines and the rest is compiled again; when the
diagnostics point nowhere, the batch is bisected.  Binaries (and compile failures)
are cached by the hash of their source and command line in ``$LAYOUTCHECK_CACHE`` or
``~/.cache/layoutcheck``.  A case that aborts at run time (CuTe's runtime asserts) is
reported as ``raised`` and the program is restarted after it.
"""

import hashlib
import importlib.util
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase
from layoutcheck.notation import parse_tuple

from .protocol import Oracle, Outcome

__all__ = ["CuteCppOracle", "case_source", "type_key", "default_include_dir", "find_cuda", "remembered"]

HEADER = "#include <cute/layout.hpp>\n#include <cstdio>\n#include <cstdlib>\nusing namespace cute;\n"
INT_LIMIT = 2 ** 31  # CuTe's Int<N> and our runtime ints are 32-bit ints


def default_include_dir():
    """``site-packages/cutlass_library/source/include`` of the nvidia-cutlass wheel, or None."""
    spec = importlib.util.find_spec("cutlass_library")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0]) / "source" / "include"


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


def _cache_dir():
    base = os.environ.get("LAYOUTCHECK_CACHE") or Path.home() / ".cache" / "layoutcheck"
    return Path(base) / "cute-cpp"


# --- neutral values -> C++ expressions ---------------------------------------------------

def _int(v):
    if not 0 <= int(v) < INT_LIMIT:
        raise _Unsupported(f"integer {int(v)} does not fit CuTe's 32-bit int")
    return f"Int<{int(v)}>{{}}" if isinstance(v, C) else f"int({int(v)})"


def _tuple(t, maker):
    if isinstance(t, tuple):
        return f"{maker}(" + ", ".join(_tuple(e, maker) for e in t) + ")"
    return _int(t)


def _layout(L):
    return f"make_layout({_tuple(L.shape, 'make_shape')}, {_tuple(L.stride, 'make_stride')})"


def _arg(x):
    if isinstance(x, LayoutBase):
        return _layout(x)
    if isinstance(x, tuple):  # a tiler: CuTe's Tile is a tuple of layouts / shapes
        return "make_tile(" + ", ".join(_arg(e) for e in x) + ")"
    return _int(x)


def case_source(op, args):
    """The C++ statements of one case (printing its result)."""
    a = [_arg(x) for x in args]
    if op == "values":
        return (f"auto L = {a[0]};\n"
                "  for (long long i = 0; i < (long long)size(L); ++i) printf(\" %lld\", (long long)L(i));")
    return f"print({op}({', '.join(a)}));"


def type_key(op, args):
    """What the C++ types of a case depend on: the op, the nesting and the static values
    (a runtime int is just ``int``).  Compile-time acceptance depends on nothing else."""
    def skel(x):
        if isinstance(x, LayoutBase):
            return ("L", skel(x.shape), skel(x.stride))
        if isinstance(x, tuple):
            return tuple(skel(e) for e in x)
        return repr(x) if isinstance(x, C) else "int"
    return (op, tuple(skel(a) for a in args))


class _Unsupported(Exception):
    pass


# The latest answers of this process, by case source (so staticness counts): a finding's
# predicate that judges CuTe's own output (oracles/known.py) reads the answer the campaign
# just obtained instead of compiling the case again.
ANSWERS = {}
ANSWERS_LIMIT = 20000


def remembered(op, args):
    """The answer this process last got for ``op(*args)``, or None."""
    try:
        return ANSWERS.get(case_source(op, args))
    except _Unsupported:
        return None


class CuteCppOracle(Oracle):
    """CuTe C++ on the host (g++ and the wheel's headers)."""

    name = "cute-cpp"

    def __init__(self, include_dir=None, cxx=None, cuda=None, cache_dir=None, timeout=300):
        env_inc = os.environ.get("LAYOUTCHECK_CUTE_INCLUDE")
        self.include_dir = Path(include_dir or env_inc or default_include_dir() or "")
        self.cxx = cxx or os.environ.get("CXX") or "g++"
        self.cuda = Path(cuda) if cuda else find_cuda()
        self.cache_dir = Path(cache_dir) if cache_dir else _cache_dir()
        self.timeout = timeout
        self.compiles = 0  # compiler invocations by this instance (cache misses)

    def _reason(self):
        if not shutil.which(self.cxx):
            return f"C++ compiler {self.cxx!r} not found on PATH"
        if not (self.include_dir / "cute" / "layout.hpp").is_file():
            where = self.include_dir if str(self.include_dir) not in ("", ".") else "(not found)"
            return (f"CuTe headers missing: no cute/layout.hpp under {where} "
                    "(pip install --no-deps nvidia-cutlass, or set LAYOUTCHECK_CUTE_INCLUDE)")
        if self.cuda is None:
            return "CUDA toolkit headers missing (cuda_runtime_api.h): nvcc not found and CUDA_HOME unset"
        if not (self.cuda / "include" / "cccl" / "cuda" / "std").is_dir():
            return f"CUDA toolkit at {self.cuda} lacks CCCL headers (include/cccl/cuda/std)"
        return None

    def command(self, src, out):
        inc = self.cuda / "include"
        return [self.cxx, "-std=c++17", "-O0", "-Wno-deprecated-declarations",
                f"-I{self.include_dir}", f"-I{inc}", f"-I{inc / 'cccl'}", str(src), "-o", str(out)]

    # --- the batch ----------------------------------------------------------------------

    def _run_many(self, cases):
        results = [None] * len(cases)
        bodies = {}
        self._types = {i: type_key(op, args) for i, (op, args) in enumerate(cases)}
        for i, (op, args) in enumerate(cases):
            try:
                bodies[i] = case_source(op, args)
            except _Unsupported as e:
                results[i] = Outcome.unsupported(str(e))
        for binary, idx in self._settle(sorted(bodies), bodies, results):
            self._execute(binary, idx, cases, results)
        if len(ANSWERS) > ANSWERS_LIMIT:
            ANSWERS.clear()
        ANSWERS.update((bodies[i], results[i]) for i in bodies)
        return results

    def _program(self, idx, bodies):
        """Source text and, per case, the range of lines its function occupies."""
        lines = HEADER.splitlines()
        spans = {}
        for k, i in enumerate(idx):
            first = len(lines) + 1
            lines += [f"static void case_{k}() {{  // case {i}", "  " + bodies[i], "}"]
            spans[i] = (first, len(lines))
        table = ", ".join(f"case_{k}" for k in range(len(idx)))
        lines += ["int main(int argc, char** argv) {",
                  f"  void (*cases[])() = {{{table}}};",
                  "  int start = argc > 1 ? std::atoi(argv[1]) : 0;",
                  f"  for (int k = start; k < {len(idx)}; ++k) {{",
                  '    printf("@@begin %d\\n", k); fflush(stdout);',
                  "    cases[k]();",
                  '    printf("\\n@@end %d\\n", k); fflush(stdout);',
                  "  }", "  return 0;", "}"]
        return "\n".join(lines) + "\n", spans

    def _settle(self, idx, bodies, results):
        """Compile ``idx`` together, splitting off the cases CuTe rejects; [(binary, idx)]."""
        if not idx:
            return []
        source, spans = self._program(idx, bodies)
        binary, err, srcname = self._compile(source)
        if binary:
            return [(binary, idx)]
        if len(idx) == 1:
            results[idx[0]] = Outcome.raised(_rejection(err))
            return []
        blamed = _blame(err, srcname, {i: spans[i] for i in idx})
        if blamed:  # the diagnostics name these cases: record them, compile the rest
            # g++ reports a failed instantiation once: cases with the same C++ types fail alike.
            types = {self._types[i]: _rejection("\n".join(lines) or err) for i, lines in blamed.items()}
            rest = []
            for i in idx:
                if self._types[i] in types:
                    results[i] = Outcome.raised(types[self._types[i]])
                else:
                    rest.append(i)
            return self._settle(rest, bodies, results)
        half = len(idx) // 2  # the diagnostics point nowhere: bisect
        return self._settle(idx[:half], bodies, results) + self._settle(idx[half:], bodies, results)

    def _compile(self, source):
        """(binary path or None, compiler stderr, source file name); cached by hash."""
        self.cache_dir.mkdir(parents=True, exist_ok=True)
        probe = self.command("SRC", "BIN")
        key = hashlib.sha256((source + "\0" + " ".join(probe)).encode()).hexdigest()[:24]
        srcname = f"case-{key}.cpp"
        binary = self.cache_dir / f"case-{key}.bin"
        failed = self.cache_dir / f"case-{key}.err"
        if binary.is_file():
            return binary, "", srcname
        if failed.is_file():
            return None, failed.read_text(), srcname
        src = self.cache_dir / srcname
        src.write_text(source)
        with tempfile.TemporaryDirectory(dir=self.cache_dir) as tmp:
            tmp_bin = Path(tmp) / "a.out"
            self.compiles += 1
            try:
                proc = subprocess.run(self.command(srcname, tmp_bin), cwd=self.cache_dir,
                                      capture_output=True, text=True, timeout=self.timeout)
            except subprocess.TimeoutExpired:
                raise LayoutError(f"cute-cpp: compiling took more than {self.timeout} s") from None
            if proc.returncode == 0:
                os.replace(tmp_bin, binary)
                return binary, "", srcname
            err = proc.stderr
            if "error" not in err:  # not a rejection: the compiler itself failed
                raise LayoutError(f"cute-cpp: {self.cxx} failed: {err.strip()[:300]}")
            tmp_err = Path(tmp) / "err"
            tmp_err.write_text(err)
            os.replace(tmp_err, failed)
            return None, err, srcname

    def _execute(self, binary, idx, cases, results):
        start = 0
        while start < len(idx):
            try:
                proc = subprocess.run([str(binary), str(start)], capture_output=True, text=True,
                                      timeout=self.timeout)
            except subprocess.TimeoutExpired:
                raise LayoutError(f"cute-cpp: {binary.name} ran more than {self.timeout} s") from None
            done = {}
            for m in re.finditer(r"@@begin (\d+)\n(.*?)\n@@end \1\n", proc.stdout, re.S):
                done[int(m.group(1))] = m.group(2)
            for k, text in done.items():
                results[idx[k]] = _parse_result(cases[idx[k]][0], text)
            last = max(done, default=start - 1)
            if proc.returncode == 0 and last == len(idx) - 1:
                return
            crashed = last + 1  # began but never ended: a runtime abort (CuTe assert, SIGFPE)
            why = f"signal {-proc.returncode}" if proc.returncode < 0 else f"exit {proc.returncode}"
            tail = proc.stderr.strip().splitlines()[-1:] or [""]
            results[idx[crashed]] = Outcome.raised(f"runtime abort ({why}) {tail[0]}".strip())
            start = crashed + 1


def _blame(err, srcname, spans):
    """{case: its error lines} for the cases the compiler's diagnostics point at.

    g++ ends each instantiation chain with ``SRC:LINE:COL:   required from here`` (or
    reports ``SRC:LINE:COL: error:`` directly); the error lines that follow belong to
    the case whose function holds LINE.
    """
    where = re.compile(re.escape(srcname) + r":(\d+):(?:\d+:)?\s*(required from here|error:)")
    blamed, current = {}, None
    for line in err.splitlines():
        m = where.search(line)
        if m:
            n = int(m.group(1))
            current = next((i for i, (a, b) in spans.items() if a <= n <= b), None)
            if current is not None:
                blamed.setdefault(current, [])
        elif "In instantiation of" in line or line.startswith("In file included from"):
            current = None
        if current is not None and "error:" in line:
            blamed[current].append(line)
    return blamed


def _rejection(err):
    """The most telling line of a compile failure: the static_assert text if there is one."""
    errors = [ln for ln in err.splitlines() if "error:" in ln]
    pick = next((ln for ln in errors if "static assert" in ln or "static_assert" in ln),
                errors[0] if errors else err.strip()[:200])
    where, _, text = pick.partition("error:")
    loc = re.search(r"([\w.]+\.hpp):(\d+)", where)
    text = text.strip()
    if len(text) > 300:
        text = text[:297] + "..."
    return f"compile-time rejection: {text}" + (f" ({loc.group(1)}:{loc.group(2)})" if loc else "")


def _parse_result(op, text):
    text = text.strip()
    try:
        if op == "values":
            return Outcome.ok(tuple(int(x) for x in text.split()))
        if op in ("size", "cosize"):
            v = parse_tuple(text)
            if isinstance(v, tuple):
                raise LayoutError(f"expected an integer, got {text!r}")
            return Outcome.ok(v)
        return Outcome.ok(LayoutBase.parse(text))
    except LayoutError as e:
        return Outcome.raised(f"unparseable output {text!r}: {e}")
