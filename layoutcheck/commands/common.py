"""What every subcommand validates the same way (issue 12): numeric flags, ``--against``
lists, and (re-exported from ``layoutcheck.files``) output paths and bounded input files.
Bad values raise ``LayoutError`` (or, as argparse ``type=`` functions,
``argparse.ArgumentTypeError``): one line, exit 2, before any work is done.
"""

import argparse
import math

from layoutcheck.errors import LayoutError
from layoutcheck.files import check_output_path, read_json, write_output  # noqa: F401

__all__ = ["number", "seconds", "count", "check_output_path", "write_output", "oracle_names",
           "read_json", "MAX_BUDGET_S"]

MAX_BUDGET_S = 86400.0       # a fuzz budget is at most a day


def number(lo, hi, *, integer=False, lo_open=False, unit=""):
    """An argparse ``type=``: a finite number in [lo, hi] (``(lo, hi]`` with lo_open)."""
    kind = "an integer" if integer else "a number"
    left = "(" if lo_open else "["

    def parse(text):
        try:
            value = int(text, 10) if integer else float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {kind}") from None
        ok = math.isfinite(value) and (lo < value if lo_open else lo <= value) and value <= hi
        if not ok:
            raise argparse.ArgumentTypeError(f"{text!r} is outside {left}{lo:g}, {hi:g}]{unit}")
        return value
    return parse


def seconds(hi=MAX_BUDGET_S):
    """Seconds: finite, > 0, at most ``hi``."""
    return number(0, hi, lo_open=True, unit=" seconds")


def count(lo, hi):
    return number(lo, hi, integer=True)


def oracle_names(against, default):
    """``--against`` as a list of names, the same in every command: None (the option not
    given) is ``default()``; an empty or blank list is an error."""
    if against is None:
        return list(default())
    names = [n.strip() for n in against.split(",") if n.strip()]
    if not names:
        raise LayoutError(f"--against {against!r} names no oracle")
    return list(dict.fromkeys(names))


