"""What every subcommand validates the same way: numeric flags, ``--against``
lists, and (re-exported from ``layoutcheck.files``) output paths and bounded input files;
and what every command that can run long shares: ``--time-limit SECONDS`` and ``--progress``
(``add_run_limits``, ``run_limits``) and the exit status of a run the limit cut
(``unfinished_status``: 1 when the work done already failed, else 2, never 0).
Bad values raise ``LayoutError``: one line, exit 2, before any work is done (numeric flags
are parsed as text and checked by the command, so a bad value is "bad input", while an
unknown option or a missing argument is a usage error that prints the usage).
"""

import argparse
import math
import sys
from collections.abc import Sequence
from typing import TextIO

from layoutcheck.deadline import Deadline, format_seconds
from layoutcheck.errors import LayoutError
from layoutcheck.files import check_output_path, read_json, write_output  # noqa: F401
from layoutcheck.progress import shown

__all__ = ["number", "seconds", "count", "validate", "check_output_path", "write_output",
           "oracle_names", "read_json", "MAX_BUDGET_S", "add_run_limits", "run_limits",
           "unfinished_status", "MAX_TIME_LIMIT_S"]

MAX_BUDGET_S = 86400.0       # a fuzz budget is at most a day
MAX_TIME_LIMIT_S = 7 * 86400.0  # --time-limit: at most a week


def number(lo, hi, *, integer=False, lo_open=False, unit=""):
    """A validator ``f(value, option) -> number`` for a numeric flag given as text (argparse
    ``type=str``) or as its numeric default: a finite number in [lo, hi] (``(lo, hi]`` with
    lo_open); anything else is one LayoutError line naming the option and the range."""
    kind = "an integer" if integer else "a number"
    left = "(" if lo_open else "["
    rng = f"{left}{_fmt(lo)}, {_fmt(hi)}]{unit}"

    def check(value, option):
        if isinstance(value, str):
            try:
                value = int(value.strip(), 10) if integer else float(value)
            except ValueError:
                raise LayoutError(f"{option} must be {kind} in {rng}, got {value!r}") from None
        if not math.isfinite(value):
            raise LayoutError(f"{option} must be finite, in {rng}, got {value}")
        if lo_open and lo == 0 and value <= 0:
            raise LayoutError(f"{option} must be positive (at most {_fmt(hi)}{unit}), got {_fmt(value)}")
        if value < lo:
            raise LayoutError(f"{option} must be at least {_fmt(lo)} (at most {_fmt(hi)}{unit}), "
                              f"got {_fmt(value)}")
        if value > hi:
            raise LayoutError(f"{option} must be at most {_fmt(hi)}{unit}, got {_fmt(value)}")
        return value
    return check


def _fmt(x):
    return str(int(x)) if float(x).is_integer() and abs(x) < 1e18 or isinstance(x, int) else f"{x:g}"


def seconds(hi=MAX_BUDGET_S):
    """Seconds: finite, > 0, at most ``hi``."""
    return number(0, hi, lo_open=True, unit=" s")


def count(lo, hi):
    return number(lo, hi, integer=True)


def validate(args, **checks):
    """Apply ``checks[name](value, "--name")`` to each given flag of ``args`` (None skipped)."""
    for name, check in checks.items():
        value = getattr(args, name)
        if value is not None:
            setattr(args, name, check(value, "--" + name.replace("_", "-")))


def oracle_names(against, default):
    """``--against`` as a list of names, the same in every command: None (the option not
    given) is ``default()``; an empty or blank list is an error."""
    if against is None:
        return list(default())
    names = [n.strip() for n in against.split(",") if n.strip()]
    if not names:
        raise LayoutError(f"--against {against!r} names no oracle")
    return list(dict.fromkeys(names))




def add_run_limits(parser: argparse.ArgumentParser, what: str = "the run") -> None:
    """``--time-limit SECONDS`` and ``--progress``, the same in every command that can run
    long (``prove``, ``fuzz``, ``gpu``, ``report --run``, and any new one)."""
    parser.add_argument("--time-limit", metavar="SECONDS", default=None,
                        help=f"stop {what} after this many seconds (at most "
                             f"{MAX_TIME_LIMIT_S:g}): what it did not finish is named and the "
                             "exit status is 2 (1 when the work done already failed), never 0")
    parser.add_argument("--progress", action="store_true",
                        help="show progress on stderr even when it is not a terminal (on a "
                             "terminal it is always shown)")


def run_limits(args: argparse.Namespace) -> tuple[Deadline | None, bool]:
    """(``Deadline`` of ``--time-limit`` or None, whether to show progress); a bad limit is one
    LayoutError line."""
    limit = getattr(args, "time_limit", None)
    deadline = None
    if limit is not None:
        limit = number(0, MAX_TIME_LIMIT_S, lo_open=True, unit=" s")(limit, "--time-limit")
        args.time_limit = limit
        deadline = Deadline(limit, what=f"--time-limit {limit:g}")
    return deadline, shown(sys.stderr, getattr(args, "progress", False))


def unfinished_status(command: str, failed: object, unfinished: Sequence[str],
                      deadline: Deadline | None = None, stream: TextIO | None = None) -> int:
    """The exit status of a run that may have been cut: 1 when the work done already failed;
    else 2 when something is ``unfinished`` (a list of what was not done, named on one line
    of stderr); else 0."""
    if unfinished:
        shown_items = ", ".join(unfinished[:8]) + (f" and {len(unfinished) - 8} more"
                                                   if len(unfinished) > 8 else "")
        why = (f"{deadline.what} reached after {format_seconds(deadline.elapsed())}"
               if deadline is not None and deadline.expired() else "stopped early")
        print(f"{command}: {why}; not finished: {shown_items}", file=stream or sys.stderr)
    if failed:
        return 1
    return 2 if unfinished else 0
