"""Compiling and running cute-cpp kernels (``oracles/cpp/codegen.py``), cached for good.

The *library* of a toolchain (``Toolchain.folder``) is an SQLite index, one row per kernel
key, shared by every process and command:

- ``static``: the answer is the type g++ named for the result (``-fsyntax-only``: the
  compiler instantiates CuTe's templates, static_asserts included, and generates no code);
- ``driver``: the kernel is function ``slot`` of the driver program ``binary``, which reads
  ``slot v0 v1 ...`` lines on stdin and prints one framed answer per line;
- ``rejected``: CuTe rejects the kernel's types at compile time (the message);
- ``unsupported``: this CuTe tree has no such function.

New kernels are compiled in translation units of up to ``TU_SIZE`` kernels, ``jobs`` at a
time (default: every core, ``$LAYOUTCHECK_CPP_JOBS``), on the precompiled prelude; the
static units and the driver units of one batch share that pool, and g++ runs with
``SPEED_FLAGS`` (how it runs, not what it computes).  A unit that does not compile is
split: the kernels the diagnostics point at (``required from here`` or an error at their
line) are recorded with their error lines, and the rest is compiled again (g++ reports a
failed instantiation once, so a kernel that shares it shows only then; a kernel blamed with
no ``static_assert`` among its errors is compiled again alone, so that its answer does not
depend on the unit it came in: ``own_diagnostic``); when the
diagnostics point nowhere, the unit is bisected.  A unit is trusted only when it compiles
without an error.  A static ``values`` kernel (the layout's values from its type) that fails
is never a rejection: it is compiled again as a driver kernel, which tells.  A case that dies
by SIGABRT (CuTe's runtime assert) or SIGFPE is caught inside the driver and answered as a
runtime abort, and the driver goes on with the next case; a run that dies otherwise answers
the case it was on as a runtime abort and restarts at the next case; a case it hangs on is killed and answered
``HANG`` (a crash, not a refusal), and the run restarts after it.
"""

import hashlib
import os
import re
import sqlite3
import subprocess
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from layoutcheck.oracles.cpp.codegen import driver_body, parse_static_type
from layoutcheck.oracles.cpp.toolchain import compiler_env, run_compiler

from layoutcheck.errors import LayoutError

__all__ = ["Library", "TU_SIZE", "rejection_text", "HANG"]

HANG = "hang: the driver did not finish this case in time"  # cute_cpp answers it "crashed"

TU_SIZE = {True: 48, False: 24}  # kernels per translation unit: static, driver
# How g++ runs, not what it computes (so not in the toolchain key): -pipe (no temporary
# assembler files) and a garbage collector that waits for 512 MiB of heap (GCC's "ggc"
# params; a unit of 48 static kernels uses about 350 MB, and collecting took 14% of its
# time in -ftime-report; measured 12-20% less CPU per unit).  The precompiled
# header stays valid with these (checked with -Winvalid-pch -H).
SPEED_FLAGS = ("-pipe", "--param", "ggc-min-expand=400", "--param", "ggc-min-heapsize=524288")
_SCHEMA = ("CREATE TABLE IF NOT EXISTS kernels (key TEXT PRIMARY KEY, state TEXT NOT NULL, "
           "data TEXT, binary TEXT, slot INTEGER)")


class Library:
    def __init__(self, toolchain, jobs=None, timeout=300):
        self.tc = toolchain
        self.jobs = max(1, int(jobs or os.environ.get("LAYOUTCHECK_CPP_JOBS") or os.cpu_count() or 1))
        self.timeout = timeout
        self.memo = {}  # key -> (state, data, binary, slot)
        self._lock = threading.Lock()
        self._db = None
        self.stats = dict(compiles=0, compile_seconds=0.0, pch_seconds=0.0, runs=0, restarts=0,
                          aborts_caught=0,
                          kernels_compiled=0, kernels_cached=0)

    # --- the index ---------------------------------------------------------------------

    def _conn(self):
        if self._db is None:
            self._db = sqlite3.connect(self.tc.folder / "index.sqlite", timeout=60,
                                       check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(_SCHEMA)
        return self._db

    def lookup(self, keys, count=True):
        """Fill ``memo`` for the keys the index knows; return the keys it does not.
        ``count``: add the keys found in the index to the ``kernels_cached`` statistic."""
        todo = [k for k in dict.fromkeys(keys) if k not in self.memo]
        with self._lock:
            db = self._conn()
            for i in range(0, len(todo), 500):
                part = todo[i:i + 500]
                q = f"SELECT key, state, data, binary, slot FROM kernels WHERE key IN ({','.join('?' * len(part))})"
                for key, state, data, binary, slot in db.execute(q, part):
                    if state == "driver" and not (self.tc.folder / binary).is_file():
                        continue  # a pruned binary: compile again
                    self.memo[key] = (state, data, binary, slot)
        missing = [k for k in todo if k not in self.memo]
        if count:
            self.stats["kernels_cached"] += len(todo) - len(missing)
        return missing

    def _record(self, rows):
        """rows: {key: (state, data, binary, slot)}."""
        with self._lock:
            self.memo.update(rows)
            db = self._conn()
            db.execute("BEGIN")
            db.executemany("INSERT OR REPLACE INTO kernels VALUES (?,?,?,?,?)",
                           [(k, *v) for k, v in rows.items()])
            db.execute("COMMIT")

    # --- compiling ---------------------------------------------------------------------

    def build(self, kernels):
        """Compile the kernels (``{key: Kernel}``) that the index does not know.

        The static units and the units of kernels that are driver kernels from the start
        (runtime integers, ``values``) go to one pool of ``jobs`` compiles at once (driver
        units first: they take longest); static kernels whose result is not static follow
        as driver kernels when their pass is over."""
        missing = self.lookup(kernels)
        if not missing:
            return
        self.stats["pch_seconds"] += self.tc.pch(self.timeout)
        todo = [kernels[k] for k in missing]
        static = self._units([k for k in todo if k.static], static=True)
        # with static units to run beside them, the driver kernels need not fill every job
        drivers = self._units([k for k in todo if not k.static], static=False,
                              least=1 if static else self.jobs)
        with ThreadPoolExecutor(max_workers=self.jobs) as pool:
            futures = [pool.submit(self._settle, unit, False) for unit in drivers]
            parts = [pool.submit(self._settle, unit, True) for unit in static]
            needs_driver = [key for f in parts for key in f.result()]
            late = self._units([(key, driver_body(kernels[key])) for key in needs_driver], static=False)
            futures += [pool.submit(self._settle, unit, False) for unit in late]
        for f in futures:
            f.result()  # (the pool's exit waited for them; this raises what a compile raised)

    def _units(self, kernels, static, least=None):
        """The translation units of ``kernels`` (Kernel or (key, Kernel)): at most
        ``TU_SIZE[static]`` kernels each, and at least ``least`` units (default: one per
        job) when there are enough kernels."""
        items = [k if isinstance(k, tuple) else (k.key, k) for k in kernels]
        if not items:
            return []
        # kernels of one op side by side share CuTe's inner instantiations (about 30% less
        # compile time than mixed units, measured on composition/divide/product/coalesce)
        items.sort(key=lambda it: (it[1].op, it[1].body))
        size = TU_SIZE[static]
        groups = max(min(least or self.jobs, len(items)), -(-len(items) // size))
        cut = [len(items) * g // groups for g in range(groups + 1)]
        return [items[cut[g]:cut[g + 1]] for g in range(groups)]

    def _settle(self, items, static):
        if not items:
            return []
        source, spans = _unit(items, static)
        ok, err, name = self._compile(source, static)
        if ok:
            return self._accept(items, err, name, spans, static)
        # a static layout's values that are not a constant expression are no answer: such a
        # kernel runs as a driver kernel (which answers CuTe's rejection, or a run-time abort)
        rerun = {key for key, k in items if static and k.op == "values"}
        if len(items) == 1:
            if items[0][0] in rerun:
                return [items[0][0]]
            self._reject({items[0][0]: _error_lines(err) or [err.strip()]}, err)
            return []
        blamed = blame(err, name, {key: spans[key] for key, _ in items})
        if blamed:
            # a kernel whose errors hold no static_assert may share a failed instantiation
            # that g++ reported once, for another kernel of the unit: it is compiled alone,
            # so that its answer is what g++ says of it, whatever unit it came in
            alone = [it for it in items if it[0] in blamed and it[0] not in rerun
                     and not own_diagnostic(blamed[it[0]])]
            self._reject({k: v for k, v in blamed.items()
                          if k not in rerun and own_diagnostic(v)}, err)
            again = [k for k in blamed if k in rerun]
            rest = [it for it in items if it[0] not in blamed]
            early = _before_first_error(items, blamed, err, name, spans) if static else []
            if early:  # the kernels before the first one in error: their types were named
                again += self._accept(early, err, name, spans, static)  # before any error
                rest = rest[len(early):]
            for it in alone:
                again += self._settle([it], static)
            return again + self._settle(rest, static)
        half = len(items) // 2
        return self._settle(items[:half], static) + self._settle(items[half:], static)

    def _accept(self, items, err, name, spans, static):
        if not static:
            rows = {key: ("driver", None, name, slot) for slot, (key, _) in enumerate(items)}
            self._record(rows)
            return []
        shown = _shown_types(err, name, spans)
        rows, again = {}, []
        for key, _ in items:
            kind, text = shown.get(key, (None, None))
            if kind == "static" and parse_static_type(text) is not None:
                rows[key] = ("static", text, None, None)
            elif kind in ("static", "dynamic"):  # not static, or a type the parser does not know
                again.append(key)
            else:
                raise LayoutError(f"cute-cpp: g++ named no result type for kernel {key} "
                                  f"(compiler output: {err.strip()[:300]!r})")
        self._record(rows)
        return again

    def _reject(self, blamed, err):
        rows = {}
        for key, lines in blamed.items():
            state, text = _classify(lines or _error_lines(err))
            if state == "harness":
                raise LayoutError(f"cute-cpp: the generated C++ does not compile (a layoutcheck "
                                  f"bug, not CuTe's rejection): {text}")
            rows[key] = (state, text, None, None)
        self._record(rows)

    def _compile(self, source, static):
        """(compiled, compiler stderr, name): name is the binary's file name (driver) or the
        unit's source name (static)."""
        h = hashlib.sha256(source.encode()).hexdigest()[:24]
        folder = self.tc.folder
        srcname = f"unit-{h}.cpp"
        with tempfile.TemporaryDirectory(dir=folder) as tmp:
            src = Path(tmp) / srcname
            src.write_text(source)
            out = Path(tmp) / "a.out"
            cmd = [self.tc.cxx, *self.tc.flags(), *SPEED_FLAGS, "-Winvalid-pch"]
            cmd += ["-fsyntax-only", srcname] if static else [srcname, "-o", str(out)]
            t0 = time.perf_counter()
            proc = run_compiler(cmd, self.timeout, "compiling a unit", cwd=tmp, env=compiler_env())
            with self._lock:
                self.stats["compiles"] += 1
                self.stats["compile_seconds"] += time.perf_counter() - t0
                self.stats["kernels_compiled"] += source.count("\nstatic void k")
            err = proc.stderr
            if proc.returncode != 0 and "error" not in err:
                raise LayoutError(f"cute-cpp: {self.tc.cxx} failed: {err.strip()[:300]}")
            if proc.returncode != 0:
                return False, err, srcname
            if static:
                return True, err, srcname
            binary = f"driver-{h}.bin"
            os.replace(out, folder / binary)
            return True, err, binary

    # --- running -----------------------------------------------------------------------

    def run(self, binary, lines):
        """Feed ``lines`` (``"slot v0 v1 ..."``) to a driver; one (text or None, abort
        message or None) per line.  A run that dies answers that line as an abort and
        restarts at the next one."""
        path = str(self.tc.folder / binary)
        out = [None] * len(lines)
        start = 0
        while start < len(lines):
            data = "\n".join(lines[start:]) + "\n"
            self.stats["runs"] += 1
            limit = min(self.timeout, 30 + 0.05 * (len(lines) - start))
            try:
                proc = subprocess.run([path], input=data, capture_output=True, text=True,
                                      timeout=limit)
            except subprocess.TimeoutExpired as e:  # the case it was on hangs: never a refusal
                partial = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
                answers = partial.split("\n@@e\n")[:-1]
                for k, text in enumerate(answers):
                    out[start + k] = (text, None)
                done = start + len(answers)
                if done >= len(lines):  # every case answered; the program did not exit
                    return out
                out[done] = (None, HANG)
                self.stats["restarts"] += 1
                start = done + 1
                continue
            answers = proc.stdout.split("\n@@e\n")
            tail = answers.pop()  # text after the last end marker: a case that never ended
            errs = proc.stderr.split("@@e\n")  # each case's own stderr, in order
            for k, text in enumerate(answers):
                out[start + k] = _answer_or_abort(text, errs[k] if k < len(errs) else "")
                self.stats["aborts_caught"] += out[start + k][0] is None
            done = start + len(answers)
            if proc.returncode == 0 and done == len(lines) and not tail:
                return out
            if done >= len(lines) or "@@lc-input-ended" in tail:
                raise LayoutError(f"cute-cpp: {binary} broke the answer protocol "
                                  f"(exit {proc.returncode}, {tail[:120]!r})")
            why = f"signal {-proc.returncode}" if proc.returncode < 0 else f"exit {proc.returncode}"
            last = proc.stderr.split("@@e\n")[-1].strip().splitlines()[-1:] or [""]
            out[done] = (None, f"runtime abort ({why}) {last[0]}".strip())
            self.stats["restarts"] += 1
            start = done + 1
        return out


def _answer_or_abort(text, err):
    """(text, None), or (None, abort message) for a case the driver caught dying
    ("@@abort <signal>", prelude.hpp catch_case_signals): worded as a run that died."""
    head, mark, sig = text.rpartition("@@abort ")
    if not mark or not sig.strip().isdigit():
        return text, None
    last = err.strip().splitlines()[-1:] or [""]
    return None, f"runtime abort (signal {int(sig)}) {last[0]}".strip()


def _unit(items, static):
    """A translation unit of kernels: (source, {key: (first line, last line)})."""
    lines = ['#include "lc_prelude.hpp"',
             '#pragma GCC diagnostic warning "-Wdeprecated-declarations"',
             "using namespace cute;"]
    spans = {}
    for slot, (key, k) in enumerate(items):
        lines.append(f"static void k{slot}() {{  // {key}")
        lines.append("  " + k.body)
        lines.append("}")
        spans[key] = (len(lines) - 2, len(lines))
    if static:
        lines.append("int main() { return 0; }")
    else:
        table = ", ".join(f"k{s}" for s in range(len(items)))
        lines += ["int main() {",
                  f"  static void (*const kernels[])() = {{{table}}};",
                  "  lc::catch_case_signals();",
                  "  for (;;) {",
                  "    bool ok; long long slot = lc::read_int(&ok);",
                  "    if (!ok) return 0;",
                  f"    if (slot < 0 || slot >= {len(items)}) {{ std::fputs(\"@@lc-bad-slot\\n\", stdout); return 4; }}",
                  "    if (int sig = sigsetjmp(lc::case_env, 1)) {",
                  '      lc::skip_line(); std::printf("\\n@@abort %d", sig);',
                  "    } else {",
                  "      lc::in_case = 1; kernels[slot](); lc::in_case = 0;",
                  "    }",
                  '    std::fputs("\\n@@e\\n", stdout); std::fflush(stdout); std::fputs("@@e\\n", stderr);',
                  "  }", "}"]
    return "\n".join(lines) + "\n", spans


_SHOWN = re.compile(r"^(?P<src>[\w.-]+):(?P<line>\d+):\d+: warning: 'constexpr int lc::show\(\) "
                    r"\[with R = (?P<type>.*?);.*' is deprecated: lc-(?P<kind>static|dynamic)-answer")


def _shown_types(err, srcname, spans):
    """{key: ("static" | "dynamic", type text)} from the show<R>() warnings of a unit."""
    by_line = {}
    for key, (a, b) in spans.items():
        for n in range(a, b + 1):
            by_line[n] = key
    out = {}
    for line in err.splitlines():
        m = _SHOWN.match(line)
        if m and m.group("src") == srcname and int(m.group("line")) in by_line:
            out[by_line[int(m.group("line"))]] = (m.group("kind"), m.group("type"))
    return out


def own_diagnostic(lines):
    """Whether a kernel's error lines hold a ``static_assert``: CuTe's own check, printed
    where g++ first instantiates it.  Any other error of a kernel in a unit of several may
    follow from an instantiation that failed, and was reported, for another kernel: g++
    reports a failed instantiation once (``tiled_product`` then reads "no matching function
    for call to 'repeat<R1>(const cute::Underscore&)'" where, compiled alone, it reads the
    static_assert of its complement)."""
    return any("static assert" in ln or "static_assert" in ln for ln in lines)


def _error_lines(err):
    return [ln for ln in err.splitlines() if "error:" in ln]


def blame(err, srcname, spans):
    """{key: its error lines} for the kernels the compiler's diagnostics point at.

    g++ ends each instantiation chain with ``SRC:LINE:COL:   required from here`` (or
    reports ``SRC:LINE:COL: error:`` directly); the error lines that follow belong to
    the kernel whose lines hold LINE.
    """
    where = re.compile(re.escape(srcname) + r":(\d+):(?:\d+:)?\s*(required from here|error:)")
    blamed, current = {}, None
    for line in err.splitlines():
        m = where.search(line)
        if m:
            n = int(m.group(1))
            current = next((k for k, (a, b) in spans.items() if a <= n <= b), None)
            if current is not None:
                blamed.setdefault(current, [])
        elif "In instantiation of" in line or line.startswith("In file included from"):
            current = None
        if current is not None and "error:" in line:
            blamed[current].append(line)
    return blamed


def _before_first_error(items, blamed, err, srcname, spans):
    """The kernels of a static unit that precede, in the unit, the first kernel an error is
    blamed on, when every error of the unit is blamed on a kernel and each of them named
    its type; else [].  g++ instantiates in the order of first use and reports a failed
    instantiation where it is first required, so a kernel before the first error shares no
    failed instantiation (the ones after it may: they are compiled again)."""
    first = min(i for i, (key, _) in enumerate(items) if key in blamed)
    if first == 0 or _stray_errors(err, srcname, spans):
        return []
    early = items[:first]
    shown = _shown_types(err, srcname, {key: spans[key] for key, _ in early})
    return early if all(key in shown for key, _ in early) else []


def _stray_errors(err, srcname, spans):
    """Whether an error line of ``err`` is blamed on no kernel (read as ``blame`` does: g++
    prints an instantiation chain ending ``SRC:LINE:COL: required from here``, then its
    errors; an error at a line of the unit is ``SRC:LINE:COL: error:``)."""
    where = re.compile(re.escape(srcname) + r":(\d+):(?:\d+:)?\s*(required from here|error:)")
    current = None
    for line in err.splitlines():
        m = where.search(line)
        if m:
            n = int(m.group(1))
            current = next((k for k, (a, b) in spans.items() if a <= n <= b), None)
            if current is None:
                return True
        elif "In instantiation of" in line or line.startswith("In file included from") \
                or re.match(r"\S+: In ", line):  # a new context: "X: In function ..."
            current = None
        elif "error:" in line and current is None:
            return True
    return False


def _classify(lines):
    """(state, message) for a kernel's error lines: a CuTe rejection, a function this CuTe
    tree lacks (unsupported), or layoutcheck's own broken C++ ("harness")."""
    text = "\n".join(lines)
    if "lc_prelude.hpp:" in text:
        return "harness", text[:400]
    missing = re.search(r"'(\w+)' is not a member of 'cute'|'(?:cute::)?(\w+)' was not declared in this scope", text)
    if missing and all(("is not a member of 'cute'" in ln or "was not declared" in ln) for ln in lines):
        name = missing.group(1) or missing.group(2)
        return "unsupported", f"this CuTe tree has no cute::{name}"
    in_cute = any(re.match(r"\S*/(cute|cutlass|cuda|cccl)/\S*:\d+", ln) for ln in lines)
    if "static assert" in text or in_cute or "no matching function for call to 'cute::" in text \
            or "no matching function for call to 'make_" in text:
        return "rejected", rejection_text(text)
    return "harness", text[:400]


def rejection_text(err):
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
