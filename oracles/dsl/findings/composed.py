"""Regions and symptoms of the CuTe DSL's findings on swizzles and composed layouts (those it
shares with CuTe C++ are in ``oracles/cpp/findings/composed.py``)."""

import layoutcheck.spec as spec
from layoutcheck.oracles.cpp.findings.composed import (
    cute_decayed_thread_slice,
    cute_swizzle_slice,
    dice_coord,
    inner_known,
    signed_eval,
    thread_slice,
    zy_layouts,
)
from layoutcheck.oracles.predicates import answered, crashed_with, raised_with_any, region, symptom
from layoutcheck.oracles.regions import function_values, swizzle_value

from layoutcheck.composed import ComposedLayoutBase, Swizzle
from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, leaves, size


@region
def composed_with_layout_outer(Cl=None, *rest):
    return isinstance(Cl, ComposedLayoutBase) and isinstance(Cl.outer, LayoutBase)


@symptom
def dsl_no_cosize_for_affine_outer(inputs, answer, reference):
    return raised_with_any(answer, "can't derive meaningful cosize")


@region
def dynamic_integer_in_composed(Cl=None, *rest):
    """F-206: the composed layout's inner layout holds a runtime integer."""
    return isinstance(Cl, ComposedLayoutBase) and any(
        not isinstance(x, C) for x in leaves(Cl.inner.shape) + leaves(Cl.inner.stride))


@symptom
def dsl_process_segfaults(inputs, answer, reference):
    """The DSL's native code dies with SIGSEGV at trace time (F-204, F-206): the worker is
    killed by that signal on the case, no exception.  Another death (another signal, a hang)
    is not this bug's."""
    return crashed_with(answer, "SIGSEGV")


@symptom
def dsl_process_aborts(inputs, answer, reference):
    """The DSL aborts the process (SIGABRT) in its SliceOp at trace time (F-205, F-240)."""
    return crashed_with(answer, "SIGABRT")


@symptom
def dsl_prints_x(inputs, answer, reference):
    return raised_with_any(answer, "x:x")


@symptom
def dsl_offset_twice(inputs, answer, reference):
    """F-209: the DSL's pair offset is C at the slice's origin, while its composed part still
    carries the offset CuTe puts inside -- A o (O + off) o slice (the generic rule), or for a
    swizzle whose slice hits Y and Z, Sw o off_zy o sliced (swizzle_layout.hpp) -- so the
    origin's offset counts twice."""
    Cl, coord = inputs[0], inputs[1]
    if not (answered(answer) and isinstance(Cl, ComposedLayoutBase) and isinstance(answer.value, tuple)):
        return False
    S = spec
    sliced, off = S.slice_and_offset(Cl.inner, coord)
    got, got_off = answer.value
    pts = [int(S.crd2idx(i, sliced.shape, sliced.stride)) for i in range(size(sliced.shape))]
    outer = (lambda v: swizzle_value(Cl.outer, v)) if isinstance(Cl.outer, Swizzle) else \
        (lambda v: signed_eval(Cl.outer.shape, Cl.outer.stride, v))
    new = int(Cl.offset) + int(off)
    origin = outer(new)
    if int(got_off) != origin or origin == 0:
        return False
    fn = function_values(got)
    if fn == [outer(new + p) for p in pts]:
        return True
    if isinstance(Cl.outer, Swizzle):  # the collide branch's composed part
        shape, _anti, only = zy_layouts(Cl.outer)
        d_at = int(S.crd2idx(dice_coord(coord), S.dice(Cl.inner, coord).shape,
                             S.dice(Cl.inner, coord).stride))
        off_zy = int(Cl.offset) ^ signed_eval(shape, only, d_at)
        return fn == [swizzle_value(Cl.outer, off_zy + p) for p in pts]
    return False


def _origin(Cl, coord):
    """C at the slice's origin: the outer function at O + the inner layout's offset there."""
    _sliced, off = spec.slice_and_offset(Cl.inner, coord)
    at = int(Cl.offset) + int(off)
    if isinstance(Cl.outer, Swizzle):
        return swizzle_value(Cl.outer, at)
    return signed_eval(Cl.outer.shape, Cl.outer.stride, at)


def _dsl_decay_matches(Cl, coord, answer):
    """The DSL's answer is F-207's decay with F-209's offset: CuTe's decayed function
    (``cute_swizzle_slice``) less its value at the origin, plus C at the origin as the pair's
    offset (the DSL's rule).  Where CuTe's decay keeps the origin's value (the swizzle's
    fields of O + L(origin) unchanged) this is CuTe C++'s answer; where the swizzle moves the
    origin's bits it is not (the DSL's offset is the swizzled origin, C++'s the unswizzled)."""
    if not answered(answer) or not isinstance(answer.value, tuple) or len(answer.value) != 2:
        return False
    S, off = answer.value
    try:
        want = cute_swizzle_slice(Cl, coord)
        origin = _origin(Cl, coord)
    except LayoutError:
        return False
    if not want or int(off) != origin:
        return False
    return [v + int(off) for v in function_values(S)] == [v - want[0] + origin for v in want]


@symptom
def dsl_decayed_slice_function(inputs, answer, reference):
    """F-207 in the DSL (``_dsl_decay_matches``)."""
    return _dsl_decay_matches(inputs[0], inputs[1], answer)


@symptom
def dsl_decayed_thread_slice(inputs, answer, reference):
    """F-207 in the DSL through ThrCopy's partition (the thread's slice, ``thread_slice``):
    CuTe C++'s decayed partition, which the real DSL answers through its partition (the
    partition of Sw<2,1,3> o _49 o (_2,_2):(_2,_1) by (_2,_2):(_2,_1), thread 3: offset 54 on
    both, the spec 50), or the DSL's own rule for a slice (``_dsl_decay_matches``)."""
    sl = thread_slice(*inputs[:4]) if len(inputs) >= 4 else None
    return sl is not None and (cute_decayed_thread_slice(inputs, answer, reference)
                               or _dsl_decay_matches(*sl, answer))


@symptom
def dsl_inner_finding(inputs, answer, reference, op=None):
    """The same for the DSL (its op on the inner layout, explained by a DSL finding)."""
    return inner_known("cute-dsl", inputs, answer, op) is not None


@region
def swizzle_upcast_below_base(Cl=None, N=None, *rest):
    """F-230: upcast<N> of Sw o O o L with M < log2 N."""
    return isinstance(Cl, ComposedLayoutBase) and isinstance(Cl.outer, Swizzle) and \
        isinstance(N, int) and N > 1 and not N & (N - 1) and Cl.outer.base < N.bit_length() - 1


@symptom
def dsl_wrapped_swizzle_base(inputs, answer, reference):
    """The DSL prints S<B, 2^32 + M - log2 N, S> (M - log2 N wrapped as an unsigned 32-bit
    value, B kept), cut off in its text: 'S<1,4294...'."""
    return raised_with_any(answer, "unparseable output 'S<", "4294")

# --- planted cases (tests/test_planted.py): each finding's answer as the oracle prints it --------
# (finding, oracle, op, argument texts, answer[, static]); recorded from the real oracle; another
# wrong answer in the region (tests/planted_support.py planted) must be new.

PLANTED = [
    # The adapter does not send these two to the DSL (its composition of a layout with a Swizzle is
    # unsupported, its inputs are static): their SIGSEGV is reproduced by standalone scripts
    # (tests/test_composed_findings.py::test_dsl_crash_reports_reproduce); the rows are that death.
    ("F-204", "cute-dsl", "layout_swizzle_composition", ["(_8,_64):(_64,_1)", "SW_3_4_3"],
     "crashed: killed by SIGSEGV on this case"),
    ("F-206", "cute-dsl", "composed_slice_and_offset", ["SW_3_3_3 o _0 o (_8,_64):(64,_1)", "(2,_)"],
     "crashed: killed by SIGSEGV on this case"),
    ("F-207", "cute-dsl", "composed_slice_and_offset", ["Sw<2,2,4> o 63 o (_8,_4):(_1,_8)", "(_,2)"],
     "Sw<0,4,3> o _0 o (_8):(_1)|_75", True),
    ("F-205", "cute-dsl", "composed_slice_and_offset", ["SW_3_4_3 o _0 o (_10,_2):(_2,_1)", "(_,0)"], "crashed: killed by SIGABRT on this case", True),
    ("F-240", "cute-dsl", "tiled_copy_partition_D", ["SW_1_1_-4 o _0 o (_8,_6):(_1,_8)", "(_8,_2):(_1,_8)", "(_1,_1):(_1,_1)", "4"], "crashed: killed by SIGABRT on this case", True),
]
