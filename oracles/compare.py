"""Comparison levels: what "agrees" means, per operation.

Levels, strictest first (each implies the ones below it, except ``property``):

``printed``    the same CuTe text, staticness included (``_8:_1`` vs ``8:1`` differ).
``structure``  the same shape and stride values (``LayoutBase ==``), staticness ignored.
``function``   the same layout function on the domain (Def 2.1.2.19, ``L(i)`` for every
               ``i < size``) *and* the same mode tree up to refinement: rank-1 tuples
               are unwrapped (``(8):(1)`` ~ ``8:1``), and where both sides are tuples
               they have equal lengths and recursively equal mode sizes; a leaf matches
               any sub-tree of the same size; below the top level, size-1 entries are
               ignored (they carry nothing, Obs. 2.1.2.29).  So ``L(coord)`` agrees on
               every coordinate of the coarser of the two shapes.
``coalesced``  the same function after coalesce: same size and the same ``L(i)`` (Prop.
               2.1.4: Phi_A = Phi_B iff coalesce(A) = coalesce(B)); mode structure differs.
``property``   only the operation's defining property holds (non-unique results):
               right_inverse R of L: ``L(R(i)) == i`` for ``i < size(R)`` and
               ``size(R)`` equal to the reference's; left_inverse R of L:
               ``R(L(i)) == i`` for ``i < size(L)``.
``none``       nothing above holds.

Post-conditions (``oracles/postconditions.py``, CuTe's documented promises: composition's
result compatible with B, the (tile, rest) modes of divides and products, coalesced and
ordered complements, ...) are required on top of ``function``, ``coalesced`` and
``property``: an answer with the right function but a broken structure grades ``none``.

Answers that are not layouts (``ANSWERS`` in ``protocol.py``) compare as value trees: ints,
bools, IntTuples (nesting included: ``3`` is not ``(3)``), the flat tuple of ``values``
(``printed`` when staticness agrees too, else ``structure``); a ``slice_and_offset`` pair
grades as the weaker of its layout's and its offset's levels.

Required level per operation (``REQUIRED``): ``structure`` for size, cosize, values (the
numbers), coalesce and filter (the coalesced form is unique, 2.1.4); ``coalesced`` for
complement (a complement is determined by its function, 2.1.6; CuTe returns it
coalesced); ``function`` for composition and the divides/products (2.3: the result's mode
structure, e.g. tile mode vs rest mode, is part of the definition); ``property`` for the
inverses (not unique: two valid left inverses can differ off the image).

Outcomes: both raising agrees (``both-raised``); one raising and the other returning a
value disagrees (``none``); an oracle that answered ``unsupported`` gives no verdict
(``ok`` is None), nor does a reference that is unsupported (``no-reference``).  An answer that
is no value of the op's kind (``protocol.INVALID_ANSWER``: an invalid layout, a tuple where an
int is due) is garbage, never a refusal: it grades ``none`` even where the reference refuses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence, cast

import numpy as np
from layoutcheck.oracles.operations import OPERATIONS
from layoutcheck.oracles.postconditions import violation
from layoutcheck.oracles.protocol import (
    ANSWERS,
    Argument,
    Outcome,
    format_arg,
    format_value,
    is_invalid_answer,
)
from layoutcheck.spec import Layout

from layoutcheck import impl
from layoutcheck.composed import ComposedLayoutBase, F2Layout, SignedLayout
from layoutcheck.layout import IntTuple, LayoutBase, leaves, size

__all__ = ["compare", "Comparison", "LEVELS", "REQUIRED", "level_holds", "FULL_EVAL_LIMIT", "answer_values"]

LEVELS = ("printed", "structure", "function", "coalesced", "property", "none")
# op name -> the level its answers must reach (the operations table)
REQUIRED = {op.name: op.level for op in OPERATIONS}
# Layouts up to this size are compared on their whole domain; larger ones on a fixed
# sample of 4096 evenly spaced indices plus both ends (the detail says so).
FULL_EVAL_LIMIT = 1 << 16


@dataclass(frozen=True)
class Comparison:
    level: str  # a LEVELS entry, or "both-raised", "unsupported", "no-reference"
    ok: bool | None  # None: no verdict
    required: str
    detail: str = ""


def level_holds(level: str, required: str) -> bool:
    """Whether reaching ``level`` satisfies ``required``."""
    if level == "both-raised":
        return True
    if level not in LEVELS:
        return False
    if required == "property":  # any level that implies the function implies the property
        return level != "none"
    return LEVELS.index(level) <= LEVELS.index(required)


def compare(op: str, inputs: Sequence[Argument], expected: Any, actual: Any) -> Comparison:
    """Compare an oracle's answer with the reference's (both Outcomes, or bare values)."""
    expected = expected if isinstance(expected, Outcome) else Outcome.ok(expected)
    actual = actual if isinstance(actual, Outcome) else Outcome.ok(actual)
    required = REQUIRED.get(op, "structure")
    if "crashed" in (actual.kind, expected.kind):  # never a refusal, never "no verdict"
        side = "the oracle" if actual.kind == "crashed" else "the reference"
        return Comparison("none", False, required,
                          f"{side} crashed: {(actual if actual.kind == 'crashed' else expected).message}")
    if actual.kind == "unsupported":
        return Comparison("unsupported", None, required, actual.message)
    if expected.kind == "unsupported":
        return Comparison("no-reference", None, required, f"reference: {expected.message}")
    if is_invalid_answer(actual) and not is_invalid_answer(expected):  # garbage is no refusal
        return Comparison("none", False, required, f"the oracle answered no valid value: {actual.message}")
    if expected.kind == "raised" and actual.kind == "raised":
        return Comparison("both-raised", True, required, "")
    if expected.kind == "raised":
        return Comparison("none", False, required,
                          f"reference raised ({expected.message}) but the oracle returned "
                          f"{format_value(op, actual.value)}")
    if actual.kind == "raised":
        return Comparison("none", False, required,
                          f"the oracle raised ({actual.message}) but the reference returned "
                          f"{format_value(op, expected.value)}")
    level, detail = _level(op, tuple(inputs), expected.value, actual.value)
    return Comparison(level, level_holds(level, required), required, detail)


def _level(op: str, inputs: tuple[Argument, ...], e: Any, a: Any) -> tuple[str, str]:
    kind = ANSWERS.get(op, "layout")
    if _composed_kind(op, kind):
        return _composed_level(op, kind, inputs, e, a)
    if kind == "layout_offset":
        return _pair_level(op, inputs, e, a)
    if isinstance(e, LayoutBase) != isinstance(a, LayoutBase):
        return "none", f"different kinds of result: {format_arg(e)} vs {format_arg(a)}"
    if not isinstance(e, LayoutBase):
        return _value_level(kind, e, a)
    if str(e) == str(a):
        return "printed", ""
    if e == a:
        return "structure", "same values, staticness differs"
    level, detail = _layout_level(op, inputs, e, a)
    if level in ("function", "coalesced", "property"):
        broken = violation(op, inputs, a)
        if broken:  # CuTe's promise about the result's structure (oracles/postconditions.py)
            return "none", f"post-condition of {op} broken: {broken} ({detail})"
    return level, detail


def _value_level(kind: str, e: Any, a: Any) -> tuple[str, str]:
    """Integers, bools, IntTuples and values: the same value tree (nesting included);
    ``printed`` when staticness agrees too."""
    if str(e) == str(a) and _shape_of(e) == _shape_of(a):
        return "printed", ""
    if kind == "bool" or isinstance(e, bool) or isinstance(a, bool):
        same = isinstance(e, bool) and isinstance(a, bool) and e == a
        return ("printed", "") if same else ("none", f"{format_arg(e)} vs {format_arg(a)}")
    if _shape_of(e) != _shape_of(a):
        return "none", f"different nesting: {format_arg(e)} vs {format_arg(a)}"
    if _ints(e) == _ints(a):
        return "structure", "staticness differs"
    return "none", f"different values: {format_arg(e)} vs {format_arg(a)}"


def _shape_of(x: object) -> Any:
    return tuple(_shape_of(y) for y in x) if isinstance(x, tuple) else None


def _ints(x: Any) -> Any:
    return tuple(_ints(y) for y in x) if isinstance(x, tuple) else int(x)


def _pair_level(op: str, inputs: tuple[Argument, ...], e: Any, a: Any) -> tuple[str, str]:
    """slice_and_offset: (layout, offset); the weaker of the two parts' levels."""
    if not (isinstance(a, tuple) and len(a) == 2 and isinstance(a[0], LayoutBase)):
        return "none", f"not a (layout, offset) pair: {format_arg(a)}"
    off, off_detail = _value_level("int", e[1], a[1])
    if off == "none":
        return "none", f"offsets differ: {off_detail}"
    lay, lay_detail = _level("slice_", inputs, e[0], a[0])
    worst = max(LEVELS.index(off), LEVELS.index(lay))
    return LEVELS[worst], "; ".join(dict.fromkeys(x for x in (lay_detail, off_detail) if x))


def _layout_level(op: str, inputs: tuple[Argument, ...], e: LayoutBase, a: LayoutBase) -> tuple[str, str]:
    ve, va, sampled = _eval_pair(e, a)
    note = " (sampled)" if sampled else ""
    same_fn = size(e.shape) == size(a.shape) and ve == va
    if same_fn and _same_modes(e.shape, a.shape):
        return "function", "structure differs, layout function equal" + note
    if same_fn:
        return "coalesced", "mode structure differs, layout function equal" + note
    if op in ("right_inverse", "left_inverse") and inputs and isinstance(inputs[0], LayoutBase):
        ok, why = _inverse_property(op, inputs[0], e, a)
        if ok:
            return "property", f"a different {op} that satisfies the defining property"
        return "none", why
    if size(e.shape) != size(a.shape):
        return "none", f"sizes differ: {size(e.shape)} vs {size(a.shape)}"
    first = next(i for i, (x, y) in enumerate(zip(ve, va)) if x != y)
    return "none", f"layout functions differ (first at sampled position {first}: {ve[first]} vs {va[first]})"


def _unwrap(s: IntTuple) -> IntTuple:
    while isinstance(s, tuple) and len(s) == 1:
        s = s[0]
    return s


def _same_modes(a: IntTuple, b: IntTuple, top: bool = True) -> bool:
    if top and _rank1(a) and _rank1(b):  # a rank-1 wrapper is the top level: its content is
        top = False                      # one mode, whose size-1 entries carry nothing
    a, b = _unwrap(_drop_ones(_unwrap(a), top)), _unwrap(_drop_ones(_unwrap(b), top))
    if not isinstance(a, tuple) or not isinstance(b, tuple):
        return size(a) == size(b)
    return len(a) == len(b) and all(_same_modes(x, y, False) for x, y in zip(a, b))


def _rank1(s: IntTuple) -> bool:
    """A leaf or a rank-1 tuple: a single top-level mode (``8`` ~ ``(8)`` ~ ``((4,2))``)."""
    return not isinstance(s, tuple) or len(s) == 1


def _drop_ones(s: IntTuple, top: bool) -> IntTuple:
    """Inside a mode, size-1 entries carry nothing (Obs. 2.1.2.29): CuTe with dynamic
    integers keeps them (``(2,2,1)`` for ``(2,2)``).  The top level keeps its rank."""
    if top or not isinstance(s, tuple):
        return s
    return tuple(x for x in s if size(x) != 1) or s


def _evaluator(L: LayoutBase) -> Layout:
    return Layout(L.shape, L.stride)


def _indices(n: int) -> tuple[Sequence[int], bool]:
    if n <= FULL_EVAL_LIMIT:
        return range(n), False
    step = n / 4096
    return sorted({0, n - 1, *(int(k * step) for k in range(4096))}), True


def _eval_pair(e: LayoutBase, a: LayoutBase) -> tuple[list[int], list[int], bool]:
    """Both layout functions on the same indices.  Vectorised through impl.values (itself
    checked against the spec's Phi by the diff.values check and the agreement tests)."""

    n = min(size(e.shape), size(a.shape))
    points, sampled = _indices(n)
    idx = np.asarray(points, dtype=np.int64)
    return impl.values(e, idx).tolist(), impl.values(a, idx).tolist(), sampled


def _inverse_property(op: str, L: LayoutBase, expected: LayoutBase, R: LayoutBase) -> tuple[bool, str]:
    fL, fR = _evaluator(L), _evaluator(R)
    nL, nR = size(L.shape), size(R.shape)
    if op == "right_inverse":
        if nR != size(expected.shape):
            return False, f"size {nR} differs from the reference's {size(expected.shape)}"
        idx, _ = _indices(nR)
        for i in idx:
            j = fR(i)
            if not 0 <= j < nL or fL(j) != i:
                return False, f"L(R({i})) = {fL(j) if 0 <= j < nL else 'out of domain'}, not {i}"
        return True, ""
    idx, _ = _indices(nL)
    for i in idx:
        j = fL(i)
        if not 0 <= j < nR or fR(j) != i:
            return False, f"R(L({i})) = {fR(j) if 0 <= j < nR else 'out of domain'}, not {i}"
    return True, ""


# --- swizzles, composed layouts, F2 layouts, recast and tiling helpers -------------------------
# Comparison of the answers of the operations on swizzles, composed layouts, recast and tiling (hooked into ``oracles/compare.py``).
#
# Answer kinds (``ANSWERS`` in protocol.py):
# ``composed``         a ``ComposedLayoutBase``, or a layout where CuTe decays one (a
#                      ``SignedLayout`` when a stride is negative).  Levels: ``printed`` (same
#                      text), ``structure`` (same parts, staticness ignored; a composed layout
#                      never equals a layout here), ``function`` (the same function on the
#                      domain and the same modes up to refinement, as for layouts),
#                      ``coalesced`` (same function, other modes), ``property`` (inverses).
# ``composed_offset``  a pair (composed answer, offset), CuTe's ``slice_and_offset``: its
#                      function is S(i) + offset, so two answers that split the same function
#                      differently between the layout and the offset agree at ``function``.
# ``f2layout``          an F2 layout (swizzle_as_f2): ``function`` when it is the same function.
# ``max_common_layout`` (a layout) is graded by its post-condition: ``property`` when
#                      size(R) is the reference's and A(R(i)) == i == B(R(i)) for i < size(R).
# ``composed_right_inverse``: ``property`` when size(R) is the reference's and C(R(i)) == i.


EVAL_LIMIT = 1 << 22


def _composed_kind(op: str, kind: str) -> bool:
    return kind in ("composed", "composed_offset", "f2layout") or op == "max_common_layout"


def answer_values(x: object) -> np.ndarray:
    """The function of a composed answer on its whole domain, as an int64 array."""
    if isinstance(x, ComposedLayoutBase) and isinstance(x.inner, SignedLayout):
        inner = answer_values(x.inner) + int(x.offset)
        if isinstance(x.outer, LayoutBase):
            return np.asarray([int(impl.crd2idx(int(v), x.outer.shape, x.outer.stride)) for v in inner],
                              dtype=np.int64)
        B, M, S = x.outer.params  # CuTe's int arithmetic: x ^ shiftr(x & Y, S), any sign
        y = ((1 << B) - 1) << (M + max(0, S))
        t = inner & y
        return inner ^ ((t >> S) if S >= 0 else (t << -S))
    if isinstance(x, ComposedLayoutBase):
        return np.asarray(impl.composed_values(x), dtype=np.int64)
    if isinstance(x, SignedLayout):
        table = np.zeros(1, dtype=np.int64)
        for s, d in zip(leaves(x.shape), leaves(x.stride)):
            table = (np.arange(int(s), dtype=np.int64)[:, None] * int(d) + table[None, :]).reshape(-1)
        return table
    if isinstance(x, LayoutBase):
        return np.asarray(impl.values(x), dtype=np.int64)
    raise TypeError(f"not a composed answer: {x!r}")


def _shape(x: Any) -> IntTuple:
    return x.shape


def _kind_ok(x: object) -> bool:
    return isinstance(x, (ComposedLayoutBase, SignedLayout, LayoutBase))


def _fn_level(e: Any, a: Any, e_off: int = 0, a_off: int = 0) -> tuple[str | None, str]:
    if size(_shape(e)) > EVAL_LIMIT or size(_shape(a)) > EVAL_LIMIT:
        return None, f"too large to compare ({size(_shape(e))} points)"
    ve, va = answer_values(e) + int(e_off), answer_values(a) + int(a_off)
    if ve.shape != va.shape:
        return "none", f"sizes differ: {ve.size} vs {va.size}"
    if not np.array_equal(ve, va):
        k = int(np.nonzero(ve != va)[0][0])
        return "none", f"functions differ (first at index {k}: {int(ve[k])} vs {int(va[k])})"
    if _same_modes(_shape(e), _shape(a)):
        return "function", "structure differs, function equal"
    return "coalesced", "mode structure differs, function equal"


def _structure(e: Any, a: Any) -> str | None:
    if str(e) == str(a):
        return "printed"
    if isinstance(e, ComposedLayoutBase):
        return "structure" if e.same_values(a) else None
    if isinstance(e, (LayoutBase, SignedLayout)) and isinstance(a, (LayoutBase, SignedLayout)):
        if e.shape == a.shape and e.stride == a.stride:
            return "structure"
    return None


def _composed_layout_level(op: str, inputs: tuple[Argument, ...], e: Any, a: Any) -> tuple[str, str]:
    if not _kind_ok(a):
        return "none", f"not a layout or composed layout: {a!r}"
    s = _structure(e, a)
    if s:
        return s, "" if s == "printed" else "same values, staticness differs"
    level, detail = _fn_level(e, a)
    if level in ("function", "coalesced") or level is None:
        return level or "none", detail
    if op == "composed_right_inverse":
        return _rinv_property(inputs, e, a, detail)
    return level, detail


def _rinv_property(inputs: tuple[Argument, ...], e: Any, a: Any, detail: str) -> tuple[str, str]:
    if not inputs or not isinstance(inputs[0], ComposedLayoutBase):
        return "none", detail
    if size(_shape(a)) != size(_shape(e)):
        return "none", f"size {size(_shape(a))} differs from the reference's {size(_shape(e))}"
    Cl = inputs[0]
    n = size(Cl.inner.shape)
    r = answer_values(a)
    if r.size and (r.min() < 0 or r.max() >= n):
        return "none", "R maps outside the domain of C"
    c = np.asarray(impl.composed_values(Cl), dtype=np.int64)[r]
    bad = np.nonzero(c != np.arange(r.size))[0]
    if bad.size:
        return "none", f"C(R({int(bad[0])})) = {int(c[bad[0]])}"
    return "property", "a different right inverse that satisfies C(R(i)) == i"


def _composed_pair_level(e: Any, a: Any) -> tuple[str, str]:
    if not (isinstance(a, tuple) and len(a) == 2 and _kind_ok(a[0])):
        return "none", f"not a (layout, offset) pair: {a!r}"
    if str(e[0]) == str(a[0]) and str(e[1]) == str(a[1]):
        return "printed", ""
    if _structure(e[0], a[0]) and int(e[1]) == int(a[1]):
        return "structure", "same values, staticness differs"
    level, detail = _fn_level(e[0], a[0], e[1], a[1])
    return (level or "none"), detail


def _mcl_level(inputs: tuple[Argument, ...], e: Any, a: Any) -> tuple[str, str]:
    if not isinstance(a, LayoutBase):
        return "none", f"not a layout: {a!r}"
    if str(e) == str(a):
        return "printed", ""
    if e == a:
        return "structure", "same values, staticness differs"
    if size(a.shape) != size(e.shape):
        return "none", f"size {size(a.shape)} differs from the reference's {size(e.shape)}"
    A, B = cast(LayoutBase, inputs[0]), cast(LayoutBase, inputs[1])  # its arguments are layouts (OPS)
    r = np.asarray(impl.values(a), dtype=np.int64)
    for L, name in ((A, "A"), (B, "B")):
        if r.size and r.max() >= size(L.shape):
            return "none", f"R maps outside the domain of {name}"
        got = np.asarray(impl.values(L, r), dtype=np.int64)
        bad = np.nonzero(got != np.arange(r.size))[0]
        if bad.size:
            return "none", f"{name}(R({int(bad[0])})) = {int(got[bad[0]])}"
    ve, va = np.asarray(impl.values(e), dtype=np.int64), r
    if np.array_equal(ve, va):
        return "function", "structure differs, function equal"
    return "property", "a different common layout that satisfies A(R(i)) == i == B(R(i))"


def _f2_level(e: Any, a: Any) -> tuple[str, str]:
    """F2 layouts (swizzle_as_f2): ``printed`` as the same text, ``function`` when both map
    every index of one domain size to the same value (the F2 form of a swizzle is not unique:
    one mode per bit and one mode per bit field are the same function)."""
    if not isinstance(a, F2Layout):
        return "none", f"not an F2 layout: {a!r}"
    if str(e) == str(a):
        return "printed", ""
    if size(e.shape) > EVAL_LIMIT or size(a.shape) > EVAL_LIMIT:
        return "none", f"too large to compare ({size(e.shape)} points)"
    ve, va = impl.f2_values(e), impl.f2_values(a)
    if len(ve) != len(va):
        return "none", f"sizes differ: {len(ve)} vs {len(va)}"
    if ve != va:
        k = next(i for i in range(len(ve)) if ve[i] != va[i])
        return "none", f"functions differ (first at index {k}: {ve[k]} vs {va[k]})"
    return "function", "mode structure differs, function equal"


def _composed_level(op: str, kind: str, inputs: tuple[Argument, ...], e: Any, a: Any) -> tuple[str, str]:
    """(level, detail) of an oracle's answer ``a`` against the reference's ``e``."""
    if op == "max_common_layout":
        return _mcl_level(inputs, e, a)
    if kind == "composed_offset":
        return _composed_pair_level(e, a)
    if kind == "f2layout":
        return _f2_level(e, a)
    return _composed_layout_level(op, inputs, e, a)
