"""Worker processes for oracles that run someone else's code in Python.

An implementation under test can call ``sys.exit(0)`` (at import or in a function), die on
a signal (a segfault in native code, ``os._exit``), loop forever or eat memory.  None of that
may reach the harness: ``IsolatedOracle`` runs an *in-process adapter* (``ModuleOracle`` for
``module:NAME`` and ``pycute``, the CuTe DSL's adapter for ``cute-dsl``) inside a child
process and talks to it through two pipes.

- ``run_many(cases)`` sends the whole batch in one message; the worker answers case by case,
  so a case that kills the worker is known exactly.
- Each case has a time limit (``LAYOUTCHECK_ORACLE_TIMEOUT`` seconds, default 5; the DSL's
  default is 120), the worker a memory limit (``LAYOUTCHECK_ORACLE_MEMORY_MB``, default 4096
  for modules; 0 for none) and answers are at most ``MAX_ANSWER_BYTES``.
- A case whose worker exits, is killed, times out, runs out of memory or raises
  ``SystemExit`` / ``KeyboardInterrupt`` answers ``Outcome.crashed(what happened)``; the next
  cases run on a fresh worker.  The checks treat ``crashed`` as a failure, never as a refusal.
- A worker that cannot start makes the oracle unavailable, with what happened as the reason.
  Its start (the import of the implementation, a warm-up, the DSL's first JIT) has its own
  limit, ``LAYOUTCHECK_ORACLE_START_TIMEOUT`` seconds (default 30, or the case timeout where
  that is longer; the DSL's default is 120), never past the run's deadline
  (``layoutcheck.deadline``: a fuzz budget, ``--time-limit``): an import that blocks makes
  the oracle unavailable with that reason, never a hang.
- An adapter with ``stream(cases)`` answers a whole batch as a stream of Outcomes, in order
  (the CuTe DSL compiles a batch at once); ``worker_stats()`` asks the adapter's ``stats()``.

The worker runs ``python -c _BOOT`` with the parent's ``sys.path`` (or the ``path`` it is given:
another release of an implementation is loaded from its own folder that way, ahead of the
environment's, with ``env`` set for the worker alone and the modules named in ``forget``
dropped after start-up); its stdout goes to the parent's stderr (an implementation's prints cannot corrupt ``--json`` output), its stdin is
``/dev/null``, and on Linux it is killed when the parent dies.
"""

import atexit
import ctypes
import importlib
import json
import math
import os
import pickle
import resource
import signal
import subprocess
import sys
import weakref
from multiprocessing.connection import Connection

from layoutcheck.oracles.protocol import Oracle, Outcome

from layoutcheck import deadline as run_deadline
from layoutcheck.errors import LayoutError

__all__ = ["IsolatedOracle", "case_timeout", "worker_start_timeout", "TIMEOUT_ENV", "MEMORY_ENV",
           "START_TIMEOUT_ENV", "MAX_ANSWER_BYTES", "DEFAULT_START_TIMEOUT_S"]

TIMEOUT_ENV = "LAYOUTCHECK_ORACLE_TIMEOUT"
START_TIMEOUT_ENV = "LAYOUTCHECK_ORACLE_START_TIMEOUT"
MEMORY_ENV = "LAYOUTCHECK_ORACLE_MEMORY_MB"
DEFAULT_TIMEOUT_S = 5.0
DEFAULT_START_TIMEOUT_S = 30.0
DEFAULT_MEMORY_MB = 4096
MAX_ANSWER_BYTES = 64 << 20
_FATAL_EXIT = 70  # the worker's own exit after reporting a SystemExit-like exception

_BOOT = ("import json, os, sys; sys.path[:] = json.loads(os.environ.pop('LAYOUTCHECK_WORKER_PATH')); "
         "[sys.modules.pop(k) for m in json.loads(os.environ.pop('LAYOUTCHECK_WORKER_FORGET', '[]')) "
         "for k in list(sys.modules) if k == m or k.startswith(m + '.')]; "
         "from layoutcheck.oracles.isolation import _child_main; _child_main()")

_LIVE = weakref.WeakSet()


def _env_number(name, default, *, lo, hi, integer=False):
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    try:
        value = int(text) if integer else float(text)
    except ValueError:
        raise LayoutError(f"{name}={text!r} is not a number") from None
    if not (math.isfinite(value) and lo <= value <= hi):
        raise LayoutError(f"{name}={text!r} must lie in [{lo}, {hi}]")
    return value


def case_timeout(default=DEFAULT_TIMEOUT_S):
    """Seconds a worker may take per case (``LAYOUTCHECK_ORACLE_TIMEOUT``, else ``default``)."""
    return _env_number(TIMEOUT_ENV, default, lo=0.01, hi=86400)


def worker_start_timeout(default: float = DEFAULT_START_TIMEOUT_S) -> float:
    """Seconds a worker may take to start (``LAYOUTCHECK_ORACLE_START_TIMEOUT``, else
    ``default``)."""
    return _env_number(START_TIMEOUT_ENV, default, lo=0.1, hi=86400)


def _describe(e):
    """``SystemExit(0)``, ``KeyboardInterrupt()``, ``RuntimeError('...')``: never raises."""
    try:
        return repr(e)[:300]
    except BaseException:  # noqa: BLE001 - a hostile __repr__
        return type(e).__name__


class IsolatedOracle(Oracle):
    """An oracle whose adapter runs in a worker process (see the module docstring).

    ``factory`` is ``(module, attribute, args)``: the worker builds the adapter with
    ``importlib.import_module(module).<attribute>(*args)``; the adapter is an ``Oracle``
    (``unavailable_reason()``, ``_run_many(cases)``) meant to run in-process.
    """

    def __init__(self, name, factory, *, timeout=None, start_timeout=None, memory_mb=None,
                 default_timeout=DEFAULT_TIMEOUT_S, default_start_timeout=DEFAULT_START_TIMEOUT_S,
                 path=None, env=None, forget=()):
        self.name = name
        self._factory = factory
        self._path = list(path) if path is not None else None  # the worker's sys.path
        self._env = dict(env or {})        # variables set for the worker only
        self._forget = list(forget)        # modules imported at start-up (site) to drop
        self.timeout = timeout if timeout is not None else case_timeout(default_timeout)
        # the setting, else the default but at least a case's time
        self.start_timeout = start_timeout if start_timeout is not None else \
            worker_start_timeout(max(self.timeout, default_start_timeout))
        self.memory_mb = memory_mb if memory_mb is not None else _env_number(
            MEMORY_ENV, DEFAULT_MEMORY_MB, lo=0, hi=1 << 30, integer=True)
        self._proc = self._send = self._recv = None
        self._owner = os.getpid()
        self.restarts = 0

    # --- the worker's life ------------------------------------------------------------

    def _reason(self):
        return self._start()

    def _start(self):
        """Start a worker; None when it is ready, else why it is not."""
        self._stop()
        child_in, parent_out = os.pipe()
        parent_in, child_out = os.pipe()
        path = self._path if self._path is not None else sys.path
        env = dict(os.environ, **self._env,
                   LAYOUTCHECK_WORKER_PATH=json.dumps([str(p) for p in path]),
                   LAYOUTCHECK_WORKER_FORGET=json.dumps(self._forget))
        try:
            self._proc = subprocess.Popen(
                [sys.executable, "-c", _BOOT, str(child_in), str(child_out)],
                pass_fds=(child_in, child_out), stdin=subprocess.DEVNULL, stdout=_stderr_fd(),
                env=env)
        except OSError as e:
            for fd in (child_in, parent_out, parent_in, child_out):
                os.close(fd)
            return f"the worker process cannot start: {e}"
        os.close(child_in)
        os.close(child_out)
        self._owner = os.getpid()
        self._send = Connection(parent_out, readable=False)
        self._recv = Connection(parent_in, writable=False)
        _LIVE.add(self)
        init = ("init", self._factory, self.memory_mb)
        if not self._write(init):
            return f"the worker died while starting ({self._death()})"
        limit, by_deadline = run_deadline.clip(self.start_timeout)
        got = self._read(limit)
        if got is None:
            self._stop()
            return self._late(limit, by_deadline)
        if isinstance(got, str):
            return f"the worker died while starting ({got})"
        if not (isinstance(got, tuple) and len(got) in (2, 3) and got[0] == "ready"
                and (got[1] is None or isinstance(got[1], str))):
            self._stop()
            return "the worker sent something else than its status"
        kind, reason, *extra = got
        self.description = extra[0] if extra else None  # the adapter's describe()
        if reason:
            self._stop()
        return reason

    def _late(self, limit, by_deadline):
        """Why a start that did not answer within ``limit`` seconds failed."""
        if by_deadline:
            return (f"the worker did not start within {limit:.1f} s, what was left of "
                    f"{run_deadline.current().what} (its import or warm-up blocks, or is slow)")
        return (f"the worker did not start within {limit:g} s (its import or warm-up blocks, or "
                f"is slow; {START_TIMEOUT_ENV} sets the limit)")

    def _write(self, message):
        try:
            self._send.send_bytes(pickle.dumps(message))
            return True
        except (OSError, ValueError):
            return False

    def _read(self, timeout):
        """The worker's next message; None on timeout (the worker is stopped), or a string
        saying how the worker died (it is reaped)."""
        try:
            if not self._recv.poll(timeout):
                return None
            data = self._recv.recv_bytes(MAX_ANSWER_BYTES)
        except EOFError:
            return self._death()
        except OSError as e:
            if "bad message length" in str(e):
                self._stop()
                return f"its answer is larger than {MAX_ANSWER_BYTES >> 20} MiB (the worker was stopped)"
            return self._death()
        try:
            return pickle.loads(data)
        except Exception as e:  # noqa: BLE001 - garbage on the pipe
            self._stop()
            return f"it sent an unreadable answer ({type(e).__name__}; the worker was stopped)"

    def _death(self):
        """Reap a dead (or dying) worker and say how it ended."""
        proc, self._proc = self._proc, None
        self._close()
        if proc is None:
            return "no worker"
        try:
            code = proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            return "it closed its pipe and was stopped"
        if code < 0:
            try:
                return f"killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        if code == _FATAL_EXIT:
            return "it stopped after a fatal exception"
        return f"it exited with status {code}"

    def _close(self):
        for c in (self._send, self._recv):
            if c is not None:
                try:
                    c.close()
                except OSError:
                    pass
        self._send = self._recv = None

    def _stop(self):
        proc, self._proc = self._proc, None
        self._close()
        if proc is not None and self._owner == os.getpid():  # never a forked copy's worker
            if proc.poll() is None:
                proc.kill()
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                pass

    def worker_stats(self):
        """The worker's adapter's ``stats()`` (counters it keeps), {} when no worker runs or
        it does not answer within the start timeout."""
        if self._proc is None or self._proc.poll() is not None:
            return {}
        if not self._write(("stats", None)):
            return {}
        got = self._read(self.start_timeout)
        return got if isinstance(got, dict) else {}

    def describe(self):
        """What the worker's adapter runs (its ``describe()``: e.g. which files it loaded),
        None when it does not say, or why the oracle is unavailable."""
        reason = self.unavailable_reason()
        return f"unavailable: {reason}" if reason else getattr(self, "description", None)

    def close(self):
        """Stop the worker (a later call starts a fresh one)."""
        self._stop()

    def __del__(self):
        try:
            self._stop()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass

    # --- cases ------------------------------------------------------------------------

    def _run_many(self, cases):
        out = []
        while len(out) < len(cases):
            if self._proc is not None and self._proc.poll() is not None:
                self._death()  # it ended while idle: no case is to blame, start a fresh one
            if self._proc is None:
                reason = self._start()
                self.restarts += 1
                if reason:
                    out += [Outcome.crashed(f"the worker cannot restart: {reason}")] * (len(cases) - len(out))
                    break
            out += self._batch(cases[len(out):])
        return out

    def _batch(self, cases):
        """Answers for a prefix of ``cases`` (at least one); the worker is stopped after a
        crash, so the caller restarts it for the rest."""
        if not self._write(("run", list(cases))):
            return [Outcome.crashed(f"{self._death()} before this case")]
        out = []
        for _ in cases:
            got = self._read(self.timeout)
            if got is None:
                self._stop()
                return out + [Outcome.crashed(
                    f"no answer within {self.timeout:g} s (the worker was stopped; "
                    f"{TIMEOUT_ENV} sets the limit)")]
            if isinstance(got, str):
                return out + [Outcome.crashed(f"{got} on this case")]
            answer, fatal = got if isinstance(got, tuple) and len(got) == 2 else (got, True)
            if not isinstance(answer, Outcome):
                self._stop()
                return out + [Outcome.crashed(f"the worker sent {type(answer).__name__}, not an answer")]
            out.append(answer)
            if fatal:
                self._stop()
                return out
        return out


def _stderr_fd():
    try:
        return sys.__stderr__.fileno()
    except (AttributeError, OSError, ValueError):
        return subprocess.DEVNULL


@atexit.register
def _stop_all():
    for o in list(_LIVE):
        try:
            o._stop()
        except Exception:  # noqa: BLE001
            pass


# --- the worker side -----------------------------------------------------------------------

def _child_main():
    """The worker: never a traceback of its own on the harness's stderr (a broken pipe or a
    closed descriptor ends it quietly; the parent reports how it ended)."""
    try:
        _serve()
    except BaseException:  # noqa: BLE001
        os._exit(_FATAL_EXIT)
    os._exit(0)


def _serve():
    fd_in, fd_out = int(sys.argv[1]), int(sys.argv[2])
    recv, send = Connection(fd_in, writable=False), Connection(fd_out, readable=False)
    _die_with_parent()
    try:
        kind, factory, memory_mb = pickle.loads(recv.recv_bytes())
    except (EOFError, OSError):
        return
    _limit_memory(memory_mb)
    try:
        module, attribute, args = factory
        adapter = getattr(importlib.import_module(module), attribute)(*args)
        reason = adapter.unavailable_reason()
    except BaseException as e:  # noqa: BLE001 - SystemExit at import included
        reason = f"loading the implementation raised {_describe(e)}"
        adapter = None
    send.send_bytes(pickle.dumps(("ready", reason, _description(adapter) if not reason else None)))
    if adapter is None or reason:
        return
    while True:
        try:
            kind, cases = pickle.loads(recv.recv_bytes())
        except (EOFError, OSError):
            return
        if kind == "stats":
            send.send_bytes(pickle.dumps(_adapter_stats(adapter)))
            continue
        stream = getattr(adapter, "stream", None)
        answers = _streamed(stream, cases, memory_mb) if callable(stream) else (
            _answer(adapter, op, args, memory_mb) for op, args in cases)
        for answer, fatal in answers:
            try:
                data = pickle.dumps((answer, fatal))
            except Exception as e:  # noqa: BLE001 - an answer that cannot be sent is reported
                data = pickle.dumps((Outcome.crashed(f"its answer cannot be sent ({_describe(e)})"), False))
            send.send_bytes(data)
            if fatal:
                os._exit(_FATAL_EXIT)


def _adapter_stats(adapter):
    """The adapter's ``stats()`` (a dict of counters), {} when it has none or it fails."""
    try:
        fn = getattr(adapter, "stats", None)
        return dict(fn()) if callable(fn) else {}
    except Exception:  # noqa: BLE001 - statistics are optional
        return {}


def _streamed(stream, cases, memory_mb):
    """(Outcome, fatal) per case from an adapter that answers a whole batch as a stream
    (``stream(cases)`` yields one Outcome per case, in order: the CuTe DSL compiles a batch
    at once).  What it raises answers the cases left, as ``_answer`` would."""
    it = stream([(op, tuple(args)) for op, args in cases])
    for n in range(len(cases)):
        try:
            answer = next(it)
        except StopIteration:
            yield Outcome.crashed("the adapter gave no answer for this case"), False
            continue
        except MemoryError:
            yield Outcome.crashed(f"it ran out of memory (worker limit {memory_mb} MiB)"), True
            return
        except Exception as e:  # noqa: BLE001 - the adapter itself failed
            for _ in range(n, len(cases)):
                yield Outcome.crashed(f"the adapter raised {_describe(e)}"), False
            return
        except BaseException as e:  # noqa: BLE001 - SystemExit, KeyboardInterrupt, GeneratorExit
            yield Outcome.crashed(f"it raised {_describe(e)}"), True
            return
        if not isinstance(answer, Outcome):
            yield Outcome.crashed(f"the adapter returned {type(answer).__name__}"), False
            continue
        yield answer, False


def _description(adapter):
    """The adapter's ``describe()`` as text, or None (no such method, or it failed)."""
    try:
        d = getattr(adapter, "describe", None)
        text = d() if callable(d) else None
        return None if text is None else str(text)
    except Exception:  # noqa: BLE001 - a description is optional
        return None


def _answer(adapter, op, args, memory_mb):
    """(Outcome, fatal): the adapter's answer; a BaseException the adapter let through
    (SystemExit, KeyboardInterrupt, ...) is a crash and ends this worker."""
    try:
        answer = adapter._run_many([(op, tuple(args))])[0]
    except MemoryError:
        return Outcome.crashed(f"it ran out of memory (worker limit {memory_mb} MiB)"), True
    except Exception as e:  # noqa: BLE001 - the adapter itself failed
        return Outcome.crashed(f"the adapter raised {_describe(e)}"), False
    except BaseException as e:  # noqa: BLE001 - SystemExit, KeyboardInterrupt, GeneratorExit
        return Outcome.crashed(f"it raised {_describe(e)}"), True
    if not isinstance(answer, Outcome):
        return Outcome.crashed(f"the adapter returned {type(answer).__name__}"), False
    if answer.kind == "raised" and answer.message.startswith("MemoryError"):
        return Outcome.crashed(f"it ran out of memory (worker limit {memory_mb} MiB): "
                               f"{answer.message[:200]}"), True
    return answer, False


def _limit_memory(memory_mb):
    if not memory_mb:
        return
    try:
        limit = int(memory_mb) << 20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ImportError, ValueError, OSError):
        pass


def _die_with_parent():
    """Linux: SIGKILL this worker when the harness dies (a hung case must not outlive it)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
        if os.getppid() == 1:
            os._exit(0)
    except (OSError, AttributeError):
        pass
