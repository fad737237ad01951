"""Progress of a long command on stderr, for the person waiting on it.

``Progress(label, total)`` is shown only where someone watches: when its stream is a
terminal, or when asked (the commands' ``--progress``).  On a terminal it rewrites one line
in place (``label: 12/40 steps, 31 s, about 70 s left; NOTE``); otherwise it writes a plain
line at most every ``every`` seconds and at the end.  Hidden, it costs nothing and writes
nothing.  ``say(text)`` writes a permanent line (an estimate, a warning) when shown.

Every command that can run long uses it (``prove``, ``fuzz``, ``gpu``, ``report --run``);
a new one does the same::

    with Progress("matrix", total=len(cells), enabled=args.progress or None) as bar:
        for cell in cells:
            ...
            bar.update(1, note=cell.name)
"""

import math
import shutil
import sys
import time
from collections.abc import Callable
from typing import TextIO

from layoutcheck.deadline import Deadline, format_seconds

__all__ = ["Progress", "shown"]


def shown(stream: TextIO | None = None, asked: bool = False) -> bool:
    """Whether progress goes to ``stream`` (stderr): asked for, or a terminal."""
    stream = stream or sys.stderr
    if asked:
        return True
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


class Progress:
    """A progress line (see the module docstring).  ``total``: the amount of work (None:
    unknown); ``unit``: what is counted; ``deadline``: a ``Deadline`` whose remaining time
    is shown; ``enabled``: True / False, or None for "when the stream is a terminal"."""

    def __init__(self, label: str, total: int | None = None, *, unit: str = "steps",
                 stream: TextIO | None = None, enabled: bool | None = None, every: float = 5.0,
                 deadline: Deadline | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.label, self.total, self.unit = label, total, unit
        self.stream = stream or sys.stderr
        self.tty = shown(self.stream)
        self.enabled = self.tty if enabled is None else bool(enabled)
        self.every, self.deadline, self.clock = every, deadline, clock
        self.done, self.note = 0, ""
        self.t0 = clock()
        self._last = -math.inf
        self._width = 0

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def update(self, advance: int = 0, *, done: int | None = None, note: str | None = None,
               total: int | None = None) -> None:
        """Count ``advance`` more done (or set ``done``), with an optional note."""
        self.done = self.done + advance if done is None else done
        if note is not None:
            self.note = note
        if total is not None:
            self.total = total
        if not self.enabled:
            return
        now = self.clock()
        if self.tty or now - self._last >= self.every or self._finished():
            self._last = now
            self._write(self.line(now))

    def say(self, text: str) -> None:
        """A permanent line (shown only when progress is)."""
        if not self.enabled:
            return
        self._clear()
        self._print(text + "\n")

    def line(self, now: float | None = None) -> str:
        elapsed = (self.clock() if now is None else now) - self.t0
        parts = [f"{self.done}/{self.total} {self.unit}" if self.total is not None
                 else f"{self.done} {self.unit}", format_seconds(elapsed)]
        if self.total and 0 < self.done < self.total:
            parts.append(f"about {format_seconds(elapsed * (self.total - self.done) / self.done)} left")
        if self.deadline is not None and self.deadline.bounded:
            parts.append(f"{format_seconds(self.deadline.remaining())} to {self.deadline.what}")
        text = f"{self.label}: " + ", ".join(parts)
        return text + (f"; {self.note}" if self.note else "")

    def close(self) -> None:
        if self.enabled and self.tty and self._width:
            self._clear()
        self._width = 0

    def _finished(self) -> bool:
        return self.total is not None and self.done >= self.total

    def _write(self, text: str) -> None:
        if self.tty:
            text = text[:max(20, _columns() - 1)]
            pad = max(0, self._width - len(text))
            self._print("\r" + text + " " * pad)
            self._width = len(text)
        else:
            self._print(text + "\n")

    def _clear(self) -> None:
        if self.tty and self._width:
            self._print("\r" + " " * self._width + "\r")
            self._width = 0

    def _print(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # a closed stderr: progress is not worth failing for
            self.enabled = False


def _columns() -> int:
    try:
        return shutil.get_terminal_size((100, 20)).columns
    except (OSError, ValueError):
        return 100
