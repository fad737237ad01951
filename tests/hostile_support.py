"""Helpers of the hostile-input suites (tests/test_hostile_*.py).

``cli(*argv)`` runs ``python -m layoutcheck ARGV`` as a child process with a wall-clock
timeout and an address-space limit (``resource.RLIMIT_AS``), and returns what came back;
``capped()`` bounds an in-process API call the same way (a timer and a temporary
``RLIMIT_AS`` above the current size).  ``HOSTILE_MODULES`` are implementations under test
that exit, crash, hang, eat memory or answer garbage; ``module_dir(tmp)`` writes them.
"""

import os
import resource
import signal
import subprocess
import sys
import textwrap
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLI_TIMEOUT_S = 60          # wall clock per CLI case
CLI_MEMORY = 3 << 30        # address space per CLI process (workers set their own lower cap)
# the isolation's limits, short for the suite: a hanging case costs 2 s, not 5
FAST_ENV = {"LAYOUTCHECK_ORACLE_TIMEOUT": "2", "LAYOUTCHECK_ORACLE_START_TIMEOUT": "20",
            "LAYOUTCHECK_ORACLE_MEMORY_MB": "768"}
SHORT_START = {"LAYOUTCHECK_ORACLE_START_TIMEOUT": "3"}  # for the modules that hang at import
DEFAULT_START = {"LAYOUTCHECK_ORACLE_START_TIMEOUT": ""}  # the default start limit (30 s)


@dataclass
class Result:
    rc: int
    out: str
    err: str
    seconds: float

    @property
    def err_lines(self):
        return [ln for ln in self.err.splitlines() if ln.strip()]

    def message_lines(self):
        """stderr without argparse's usage block (``usage: ...`` and its indented lines)."""
        lines, in_usage = [], False
        for ln in self.err_lines:
            if ln.startswith("usage:"):
                in_usage = True
                continue
            if in_usage and ln.startswith(" "):
                continue
            in_usage = False
            lines.append(ln)
        return lines


def _limits(memory):
    def apply():
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        os.setsid()  # its own process group: a timeout kills the whole group
    return apply


def cli(*argv, env=None, cwd=None, timeout=CLI_TIMEOUT_S, memory=CLI_MEMORY, stdin=None):
    """``python -m layoutcheck ARGV`` in a child with a time and memory cap."""
    full = {**os.environ, **FAST_ENV, **(env or {})}
    t0 = time.monotonic()
    p = subprocess.Popen([sys.executable, "-m", "layoutcheck", *argv], cwd=cwd or ROOT,
                         env=full, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         stdin=subprocess.DEVNULL if stdin is None else stdin, text=True,
                         preexec_fn=_limits(memory))
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        raise AssertionError(f"layoutcheck {' '.join(argv)} hung: no exit within {timeout} s\n"
                             f"{out[-2000:]}\n{err[-2000:]}") from None
    return Result(p.returncode, out, err, time.monotonic() - t0)


def assert_bad_input(r, *words):
    """Exit 2, one message line on stderr (after any usage block), nothing on stdout, no
    traceback, and the message names the problem."""
    assert r.rc == 2, f"exit {r.rc}, expected 2\n{r.out[-1500:]}\n{r.err[-1500:]}"
    assert "Traceback" not in r.err + r.out, r.err[-3000:]
    msg = r.message_lines()
    assert len(msg) == 1, f"expected one line on stderr, got {len(msg)}:\n{r.err[-2000:]}"
    assert r.out == "", r.out[-1000:]
    for w in words:
        assert w.lower() in msg[0].lower(), f"{w!r} not in {msg[0]!r}"


def assert_not_green(r):
    """The implementation under test misbehaved: the gate must not exit 0, and must say so
    without a traceback."""
    assert r.rc in (1, 2), f"exit {r.rc} (a false green?)\n{r.out[-2000:]}\n{r.err[-2000:]}"
    assert "Traceback (most recent call last)" not in r.out + r.err, (r.out + r.err)[-3000:]


class CaseTimeout(BaseException):
    """Raised in the main thread when a capped call runs past its time."""


def _vm_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


@contextmanager
def capped(seconds=5.0, extra_memory=1 << 30):
    """Run the body with a wall-clock timer (``CaseTimeout``) and an address-space limit of
    the current size plus ``extra_memory`` (``MemoryError`` beyond it); both restored."""
    armed = [True]

    def fire(*_):
        if armed[0]:
            armed[0] = False
            raise CaseTimeout(f"no result within {seconds} s")
    old_handler = signal.signal(signal.SIGALRM, fire)
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = _vm_bytes() + extra_memory
    resource.setrlimit(resource.RLIMIT_AS, (min(cap, hard) if hard != resource.RLIM_INFINITY else cap, hard))
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        armed[0] = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
        signal.signal(signal.SIGALRM, old_handler)


# --- implementations under test that misbehave ----------------------------------------------

_API = '''
class Layout:
    def __init__(self, shape, stride=None):
        self.shape, self.stride = shape, stride
    def __call__(self, i):
        return 0
def size(L):
    n = 1
    for s in (L.shape if isinstance(L.shape, tuple) else (L.shape,)):
        n *= s if isinstance(s, int) else size(Layout(s))
    return n
'''

# name -> (body of coalesce, code at import); "what" is what the run must report
HOSTILE_MODULES = {
    "hx_exit0": ("import sys; sys.exit(0)", ""),
    "hx_exit3": ("import sys; sys.exit(3)", ""),
    "hx_exit_none": ("raise SystemExit", ""),
    "hx_osexit0": ("import os; os._exit(0)", ""),
    "hx_osexit1": ("import os; os._exit(1)", ""),
    "hx_segv": ("import ctypes; ctypes.string_at(0)", ""),
    "hx_abort": ("import os; os.abort()", ""),
    "hx_sigkill": ("import os, signal; os.kill(os.getpid(), signal.SIGKILL)", ""),
    "hx_sigterm": ("import os, signal; os.kill(os.getpid(), signal.SIGTERM)", ""),
    "hx_kbint": ("raise KeyboardInterrupt", ""),
    "hx_generatorexit": ("raise GeneratorExit", ""),
    "hx_baseexception": ("raise BaseException('odd')", ""),
    "hx_sleep": ("import time; time.sleep(3600)", ""),
    "hx_busy": ("while True: pass", ""),
    "hx_memory": ("x = []\n    while True: x.append(' ' * (1 << 28))", ""),
    "hx_recursion": ("return coalesce(L)", ""),
    "hx_huge": ("return Layout(2 ** 40, 1)", ""),
    "hx_huge_nested": ("return Layout((2 ** 30, 2 ** 30), (1, 2 ** 30))", ""),
    "hx_none": ("return None", ""),
    "hx_str": ("return '4:1'", ""),
    "hx_float": ("return 4.0", ""),
    "hx_negative": ("return Layout(-4, 1)", ""),
    "hx_bool": ("return True", ""),
    "hx_object": ("return object()", ""),
    "hx_deep": ("t = 1\n    for _ in range(100000): t = (t,)\n    return Layout(t, t)", ""),
    "hx_many_modes": ("return Layout((1,) * 20000, (0,) * 20000)", ""),
    "hx_bad_str": ("class E(Exception):\n        def __str__(self): raise SystemExit(0)\n    raise E()", ""),
    "hx_print": ("print('31 checks: 31 pass, 0 new failures'); return Layout(1, 0)", ""),
    "hx_close_fds": ("import os\n    for fd in range(3, 64):\n        try: os.close(fd)\n        except OSError: pass\n    return Layout(1, 0)", ""),
    "hx_import_exit0": ("return L", "import sys; sys.exit(0)"),
    "hx_import_osexit": ("return L", "import os; os._exit(0)"),
    "hx_import_segv": ("return L", "import ctypes; ctypes.string_at(0)"),
    "hx_import_raise": ("return L", "raise RuntimeError('broken at import')"),
    "hx_import_sleep": ("return L", "import time; time.sleep(3600)"),
    "hx_import_lock": ("return L", "import threading\n_l = threading.Lock(); _l.acquire(); _l.acquire()"),
    "hx_import_kbint": ("return L", "raise KeyboardInterrupt"),
}

# the modules whose import fails: the oracle is unavailable (exit 2, never 0)
AT_IMPORT = {n for n, (_, imp) in HOSTILE_MODULES.items() if imp}
# ... and those whose import never ends (a sleep, a lock it waits on for ever)
BLOCKS_AT_IMPORT = {"hx_import_sleep", "hx_import_lock"}


def module_source(name):
    body, at_import = HOSTILE_MODULES[name]
    return (textwrap.dedent(_API) + (at_import + "\n" if at_import else "")
            + f"def coalesce(L, profile=None):\n    {body}\n")


def module_dir(tmp):
    """Write every hostile module into ``tmp``; return the PYTHONPATH env for it."""
    tmp = Path(tmp)
    for name in HOSTILE_MODULES:
        (tmp / f"{name}.py").write_text(module_source(name))
    return {"PYTHONPATH": str(tmp)}
