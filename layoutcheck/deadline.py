"""Bounded time: a run's deadline, and child processes that cannot outlive it.

``Deadline(seconds)`` is a point in time after which a run starts nothing new.  It is
monotonic in this process; ``at`` (wall-clock seconds) carries it to a worker process or
another machine (``Deadline.at_wall(at)``).  ``Deadline(None)`` never expires.

The run's deadline is process-wide (``current()``, set with ``applied(deadline)``), so that
whatever starts deep inside a run is bounded by it without being told: an oracle's worker
start (``oracles/isolation.py``), a compiler probe or a compile (``run_bounded``).  Nested
``applied`` keeps the earlier of the two.

``run_bounded(cmd, timeout, what)`` runs a command in its own process group, with
``timeout`` clipped to the run's deadline; past it the whole group is killed (a hung
``g++`` and the ``cc1plus`` it started) and ``TimedOut`` says how long it was given.
"""

import math
import os
import signal
import subprocess
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from layoutcheck.errors import LayoutError

__all__ = ["Deadline", "TimedOut", "current", "applied", "clip", "run_bounded",
           "format_seconds"]


class Deadline:
    """A point in time (``seconds`` from now; None: never).  ``what`` names the limit in
    messages ("the budget", "--time-limit 30")."""

    def __init__(self, seconds: float | None = None, *, what: str = "the time limit") -> None:
        if seconds is not None and not (isinstance(seconds, (int, float)) and
                                        not math.isnan(seconds)):
            raise LayoutError(f"a deadline needs a number of seconds, got {seconds!r}")
        self.what = what
        self.seconds = None if seconds is None else float(seconds)
        now = time.monotonic()
        self.start = now
        self.end = math.inf if seconds is None else now + float(seconds)
        self.at = math.inf if seconds is None else time.time() + float(seconds)

    @classmethod
    def at_wall(cls, at: float | None, *, what: str = "the time limit") -> "Deadline":
        """The deadline sent from another process as wall-clock seconds (``Deadline.at``)."""
        if at is None or at == math.inf:
            return cls(None, what=what)
        return cls(at - time.time(), what=what)

    @property
    def bounded(self) -> bool:
        return self.end != math.inf

    def remaining(self) -> float:
        """Seconds left (``inf`` for none, never negative)."""
        return max(0.0, self.end - time.monotonic()) if self.bounded else math.inf

    def expired(self) -> bool:
        return self.bounded and time.monotonic() >= self.end

    def elapsed(self) -> float:
        return time.monotonic() - self.start

    def clip(self, seconds: float | None) -> float | None:
        """``seconds`` (None: unbounded), or what is left of this deadline if that is less."""
        left = self.remaining()
        if seconds is None:
            return None if left == math.inf else left
        return min(float(seconds), left)

    def earlier(self, other: "Deadline | None") -> "Deadline":
        """The earlier of this deadline and ``other`` (None: this one)."""
        if other is None or other.end >= self.end:
            return self
        return other

    def __repr__(self) -> str:
        return "Deadline(None)" if not self.bounded else \
            f"Deadline({self.remaining():.3f} s left, {self.what})"


_CURRENT: list[Deadline | None] = [None]


def current() -> Deadline | None:
    """The run's deadline (a ``Deadline``), or None when the run has none."""
    return _CURRENT[0]


@contextmanager
def applied(deadline: Deadline | None) -> Iterator[Deadline | None]:
    """Make ``deadline`` the run's deadline for the body (the earlier one where a deadline
    is already set; None leaves the current one)."""
    old = _CURRENT[0]
    if deadline is not None and deadline.bounded:
        _CURRENT[0] = deadline.earlier(old)
    try:
        yield _CURRENT[0]
    finally:
        _CURRENT[0] = old


def clip(seconds: float | None) -> tuple[float | None, bool]:
    """(seconds clipped to the run's deadline, whether the deadline is what limits it)."""
    d = current()
    if d is None:
        return seconds, False
    left = d.remaining()
    if seconds is None or left < seconds:
        return left, True
    return seconds, False


def format_seconds(seconds: float | None) -> str:
    """``0.5 s``, ``42 s``, ``12 min``, ``3.5 h``, ``2.0e+06 years``: a duration in words."""
    if seconds is None or seconds == math.inf:
        return "unbounded"
    if seconds < 10:
        return f"{seconds:.1f} s"
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    if seconds < 86400 * 3:
        return f"{seconds / 3600:.1f} h"
    if seconds < 86400 * 365 * 3:
        return f"{seconds / 86400:.0f} days"
    years = seconds / (86400 * 365)
    return f"{years:.0f} years" if years < 1e6 else f"{years:.1e} years"


class TimedOut(Exception):
    """A bounded command ran past its time (``seconds``; ``by_deadline``: the run's deadline
    was the limit, not the command's own timeout)."""

    def __init__(self, what: str, seconds: float | None, by_deadline: bool, output: str = "") -> None:
        self.what, self.seconds, self.by_deadline, self.output = what, seconds, by_deadline, output
        run = current()
        self.limit = (f"what was left of {run.what}" if by_deadline and run is not None
                      else "its own limit")
        super().__init__(f"{what} did not finish within {format_seconds(seconds)} ({self.limit})")


def run_bounded(cmd: Sequence[str], timeout: float | None, what: str,
                **kw: Any) -> "subprocess.CompletedProcess[str]":
    """``subprocess.run(cmd, capture_output=True, text=True, **kw)`` in a new process group,
    given at most ``timeout`` seconds and never past the run's deadline; raises ``TimedOut``
    (the whole group killed) or ``OSError`` (the command cannot start)."""
    limit, by_deadline = clip(timeout)
    kw.setdefault("text", True)
    stdin = kw.pop("input", None)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                            start_new_session=True, **kw)
    try:
        out, err = proc.communicate(stdin, timeout=limit)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        try:
            out, err = proc.communicate(timeout=5)
        except subprocess.TimeoutExpired:  # a grandchild that left the group holds the pipes
            out, err = "", ""
        raise TimedOut(what, limit, by_deadline, (out or "") + (err or "")) from None
    except BaseException:
        _kill_group(proc)
        proc.wait()
        raise
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


def _kill_group(proc: "subprocess.Popen[str]") -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError, OSError):
        try:
            proc.kill()
        except OSError:
            pass
