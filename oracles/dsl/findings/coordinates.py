"""Regions and symptoms of the CuTe DSL's findings on coordinates, IntTuples and profiles
(those it shares with CuTe C++ are in ``oracles/cpp/findings/coordinates.py``)."""

import layoutcheck.spec as spec
from layoutcheck.oracles.cpp.findings.coordinates import layout_left_symptom
from layoutcheck.oracles.predicates import answered, raised_with_any, region, symptom

from layoutcheck.errors import LayoutError
from layoutcheck.layout import LayoutBase


@symptom
def size_one_gets_stride_zero(inputs, answer, reference, op=None):
    """The CuTe DSL (every integer static at trace time): every size-1 leaf gets stride 0."""
    return layout_left_symptom(inputs, answer, op, lambda s: int(s) == 1)


@region
def empty_profile(L=None, profile=None, *rest):
    """F-175: coalesce with the empty target profile ()."""
    return isinstance(L, LayoutBase) and profile == ()


@symptom
def coalesces_the_whole_layout(inputs, answer, reference):
    """The DSL reads the profile () as no profile: its answer is coalesce(L)."""
    return (answered(answer) and len(inputs) == 2 and empty_profile(*inputs)
            and answer.value == spec.coalesce(inputs[0]))


def _tuple_over_int(a, b):
    """A tuple/tuple shape_div (at any level) pairs a tuple with an integer."""
    if not (isinstance(a, tuple) and isinstance(b, tuple)):
        return False
    return any((isinstance(x, tuple) and not isinstance(y, tuple)) or _tuple_over_int(x, y)
               for x, y in zip(a, b))


@region
def shape_div_tuple_mode_by_int(a=None, b=None, *rest):
    """F-256: shape_div(a, b) of two tuples where a mode of a is a tuple and b's matching mode
    an integer (CuTe divides that mode by folding the integer across it), and the spec answers."""
    if not _tuple_over_int(a, b):
        return False
    try:
        spec.shape_div(a, b)
    except LayoutError:
        return False
    return True


@symptom
def dsl_cannot_shape_div(inputs, answer, reference):
    """The DSL's refusal of such a division, by its own words."""
    return raised_with_any(answer, "unable to compute shape_div")


PLANTED = [
    ("F-256", "cute-dsl", "shape_div", ["(_4,(_2,_2))", "(_2,_2)"],
     "raised: MLIRError: error: unknown: unable to compute shape_div for inputs '!cute.shape<\"(4,(2,2))\">' "
     "and '!cute.shape<\"(2,2)\">'"),
    ("F-256", "cute-dsl", "shape_div", ["(32,(1,2))", "(2,4)"],
     "raised: MLIRError: error: unknown: unable to compute shape_div for inputs '!cute.shape<\"(?,(?,?))\">' "
     "and '!cute.shape<\"(?,?)\">'"),
]
