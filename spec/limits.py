"""The enumeration guard of the executable spec.

The spec stays literal: it decides injectivity, surjectivity, composition ... by listing
the domain or the codomain.  Before it lists more than ``enumeration_limit()`` points it
refuses with ``LayoutError(condition="enumeration_limit")`` naming the size and the limit,
instead of running for minutes and eating gigabytes.  A caller that needs an answer for a
large layout uses ``layoutcheck.impl`` (which works on the modes and never enumerates).

The limit is ``LAYOUTCHECK_SPEC_LIMIT`` (an integer) when set, else ``DEFAULT_LIMIT``;
``set_enumeration_limit(n)`` changes it for this process (``None`` restores the default).
"""

import os

from layoutcheck.errors import LayoutError

__all__ = ["enumeration_limit", "set_enumeration_limit", "check_enumeration", "DEFAULT_LIMIT",
           "LIMIT_ENV", "ENUMERATION_CONDITION"]

DEFAULT_LIMIT = 1 << 20  # 1,048,576 points: the spec takes 10-60 s and ~100 MB there
LIMIT_ENV = "LAYOUTCHECK_SPEC_LIMIT"
ENUMERATION_CONDITION = "enumeration_limit"
_MAX = 1 << 40
_limit = None  # set_enumeration_limit's value, else the environment / default


def _check(n, where):
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= _MAX:
        raise LayoutError(f"{where}: the enumeration limit must be an integer in [1, 2^40], got {n!r}")
    return int(n)


def enumeration_limit():
    """The most points the spec enumerates (domain or codomain)."""
    if _limit is not None:
        return _limit
    text = os.environ.get(LIMIT_ENV, "").strip()
    if not text:
        return DEFAULT_LIMIT
    try:
        return _check(int(text), LIMIT_ENV)
    except ValueError:
        raise LayoutError(f"{LIMIT_ENV}={text!r} is not an integer") from None


def set_enumeration_limit(n):
    """Set the limit for this process; ``None`` goes back to the environment / default.
    Returns the previous setting (for restoring)."""
    global _limit
    previous = _limit
    _limit = None if n is None else _check(n, "set_enumeration_limit")
    return previous


def check_enumeration(n, what):
    """Raise LayoutError(condition="enumeration_limit") when enumerating ``n`` points of
    ``what`` (text, or a function returning it, called only then: e.g. "the domain of
    (1073741824):(1)") would exceed the limit."""
    if int(n) <= DEFAULT_LIMIT and _limit is None and LIMIT_ENV not in os.environ:
        return  # the common case, without reading the settings
    limit = enumeration_limit()
    if int(n) > limit:
        what = what() if callable(what) else what
        raise LayoutError(f"the spec enumerates and refuses {what}: {int(n)} points exceed its "
                          f"limit of {limit} (layoutcheck.spec.set_enumeration_limit or "
                          f"{LIMIT_ENV}; layoutcheck.impl does not enumerate)",
                          condition=ENUMERATION_CONDITION)
