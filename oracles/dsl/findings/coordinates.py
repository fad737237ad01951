"""Regions and symptoms of the CuTe DSL's findings on coordinates, IntTuples and profiles
(those it shares with CuTe C++ are in ``oracles/cpp/findings/coordinates.py``)."""

import layoutcheck.spec as spec
from layoutcheck.oracles.cpp.findings.coordinates import layout_left_symptom
from layoutcheck.oracles.predicates import answered, region, symptom

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
