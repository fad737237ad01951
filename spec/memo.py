"""Memoised spec operations: a pure function of immutable inputs, computed once.

The spec's operations are pure functions of their arguments (layouts, tilers, integers,
``sense``), and those are immutable.  The fuzzer meets the same sub-layouts again and again
(the modes of a by-mode tiler, the complement of the same tiler within the same size), so
``memoised`` keeps the last ``MEMO_SIZE`` answers of an operation: the result, or the
``LayoutError`` it raised (raised again as a new ``LayoutError`` with the same message and
condition).  The definitions themselves are unchanged; a cache miss runs them as before.

The key holds the enumeration limit in force (spec/limits.py), and a refusal to enumerate
is never kept.  The key tells static from dynamic integers (``C(4) == 4``, but ``_4:_1`` and ``4:1`` give
results of different types) and layouts from IntTuples; an argument without a key (a
list, a numpy integer, an unknown object) is not memoised.
"""

from collections import OrderedDict
from functools import wraps

from layoutcheck.spec.limits import ENUMERATION_CONDITION, enumeration_limit

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, Underscore

__all__ = ["memoised", "typed_key", "clear", "MEMO_SIZE"]

MEMO_SIZE = 4096  # answers kept per operation
_MEMOS = []       # every memo, for clear()


_MISS = object()


class _NoKey(Exception):
    pass


def typed_key(x):
    """A hashable key of an argument that keeps integer types and layout-ness."""
    t = type(x)
    if t is int:
        return x
    if t is C:
        return ("C", int(x))
    if t is tuple:
        return tuple([typed_key(v) for v in x])
    if isinstance(x, LayoutBase):
        return ("L", typed_key(x.shape), typed_key(x.stride))
    if x is None or t is str or t is bool or isinstance(x, Underscore):
        return (t.__name__, x)
    raise _NoKey


class _Raised:
    __slots__ = ("message", "condition")

    def __init__(self, e):
        self.message, self.condition = e.args[0] if e.args else str(e), e.condition


def memoised(fn):
    """``fn`` with its last MEMO_SIZE answers (results and LayoutErrors) kept by argument."""
    memo = OrderedDict()
    _MEMOS.append(memo)

    @wraps(fn)
    def call(*args, **kw):
        try:  # the enumeration limit is part of the key: an answer may depend on it
            key = (typed_key(args), typed_key(tuple(sorted(kw.items()))) if kw else (),
                   enumeration_limit())
        except _NoKey:
            return fn(*args, **kw)
        out = memo.get(key, _MISS)  # (no KeyError: it would be the context of fn's errors)
        if out is _MISS:
            try:
                out = fn(*args, **kw)
            except LayoutError as e:
                # a parse error of text input, or a refusal to enumerate, is not kept
                if e.position is None and e.condition != ENUMERATION_CONDITION:
                    _keep(memo, key, _Raised(e))
                raise
            _keep(memo, key, out)
            return out
        memo.move_to_end(key)
        if type(out) is _Raised:
            raise LayoutError(out.message, condition=out.condition)
        return out
    call.memo = memo
    return call


def _keep(memo, key, out):
    memo[key] = out
    if len(memo) > MEMO_SIZE:
        memo.popitem(last=False)


def clear():
    """Forget every memoised answer."""
    for m in _MEMOS:
        m.clear()
