"""Regions of the CuTe DSL's findings with runtime integers (its runtime path, F-243..F-255,
F-081's runtime tiler), recomputed by its model (``oracles/dsl/model.py``: the C++ algorithm
on CuTe's integer types in the DSL's dialect).  Their symptom is ``dsl_answer`` (the model's
exact answer) or, for a crash, the signal and the phase the finding records
(``dsl_dies_at_run_time_sigfpe``, ``dsl_dies_tracing_sigabrt``): a crash is known only by its
own death in its own region.  Most are the CuTe C++ findings with runtime integers (F-040..F-047,
F-052, F-054, F-055, F-122), seen through the DSL."""

import layoutcheck.spec as spec
from layoutcheck.oracles.cpp.findings.algebra import (
    has_dynamic_integer,
    has_dynamic_stride,
    has_dynamic_zero_stride,
    same_up_to_dynamic_modes,
)
from layoutcheck.oracles.dsl.model import (
    DIVIDE_REFUSED,
    ERROR_TYPE,
    LEFT_INVERSE,
    RUN_SIGFPE,
    STATIC_INPUT,
    STATIC_SHAPE,
    TRACE_ABORT,
    answer,
)
from layoutcheck.oracles.predicates import crashed_with, raised_with_any, region, symptom
from layoutcheck.oracles.reference import cute_reference

from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, leaves

__all__ = ["PLANTED"]


def _model(op, inputs):
    return answer(op, *inputs)


def _model_value(op, inputs):
    out = _model(op, inputs)
    return out.value if out is not None and out.kind == "ok" else None


def _same_function(got, want):
    return spec.size(got) == spec.size(want) and spec.values(got) == spec.values(want)


@region
def dsl_coalesce_keeps_runtime_modes(*inputs, op=None):
    """F-243: runtime integers; the DSL's coalesce (its model) has the spec's layout function
    but keeps the modes it cannot merge or drop at trace time."""
    if not has_dynamic_integer(*inputs):
        return False
    got, want = _model_value(op, inputs), cute_reference(op, *inputs)
    return got is not None and want.kind == "ok" and _same_function(got, want.value)


@region
def dsl_runtime_modes_only(*inputs, op=None):
    """F-244: runtime integers, and the DSL's answer (its model) differs from the spec's
    (CuTe's sense) only by unmerged or size-1 modes."""
    if not has_dynamic_integer(*inputs):
        return False
    got, want = _model_value(op, inputs), cute_reference(op, *inputs)
    return got is not None and want.kind == "ok" and same_up_to_dynamic_modes(got, want.value)


@region
def dsl_filter_keeps_runtime_zero_stride(L=None, *rest):
    """F-245: a runtime stride 0: the DSL's filter keeps that mode (only a static _0 is
    dropped), so the result has the wrong size."""
    return (isinstance(L, LayoutBase) and bool(has_dynamic_zero_stride(L))
            and _model_value("filter", (L,)) is not None)


@region
def dsl_runtime_wrong_function(*inputs, op=None):
    """F-246: runtime integers, and the DSL (its model) returns a layout whose function is
    not the op's: the spec (CuTe's sense) has no result, or another function (with runtime
    integers the divisibility checks are skipped)."""
    if not has_dynamic_integer(*inputs):
        return False
    got = _model_value(op, inputs)
    if got is None:
        return False
    want = cute_reference(op, *inputs)
    if want.kind == "raised":
        return True
    return want.kind == "ok" and isinstance(want.value, LayoutBase) and not _same_function(got, want.value)


def _dies(op, inputs, how):
    out = _model(op, inputs)
    return out is not None and out.kind == "crashed" and out.message == how


@region
def dsl_runtime_zero_divisor(*inputs, op=None):
    """F-247: the DSL's compiled code divides by a runtime zero (a runtime stride 0 in a
    complement, or in B of a composition with A of rank > 1; its model): SIGFPE at run time."""
    return _dies(op, inputs, RUN_SIGFPE)


@region
def dsl_trace_abort(*inputs, op=None):
    """F-248: the complement of a rank-1 layout whose mode is a tuple with several modes and
    a runtime stride (alone, or a divide's tile): the DSL dies while tracing (SIGABRT)."""
    return _dies(op, inputs, TRACE_ABORT)


def _died(answer, how):
    """The worker died the way ``how`` says (``"at run time: killed by SIGFPE"``): that signal,
    in that phase of the case (tracing, or running the compiled code)."""
    when, _, signal = how.partition(": killed by ")
    return crashed_with(answer, signal) and when in answer.message


@symptom
def dsl_dies_at_run_time_sigfpe(inputs, answer, reference):
    """F-247: killed by SIGFPE while the compiled code runs (not while tracing)."""
    return _died(answer, RUN_SIGFPE)


@symptom
def dsl_dies_tracing_sigabrt(inputs, answer, reference):
    """F-248: killed by SIGABRT while the case is traced (not while it runs)."""
    return _died(answer, TRACE_ABORT)


@region
def dsl_runtime_stride_complement(*inputs, op=None):
    """F-249: a complement (or a divide's tile) of several modes with a runtime stride: the
    DSL's complement has its error type, which it then refuses."""
    out = _model(op, inputs)
    return out is not None and out.kind == "raised" and out.message in (ERROR_TYPE, DIVIDE_REFUSED)


@region
def dsl_right_inverse_runtime_shape(L=None, *rest):
    """F-250: a runtime integer in the shape: the DSL's right_inverse refuses."""
    out = _model("right_inverse", (L,))
    return isinstance(L, LayoutBase) and out is not None and out.message == STATIC_SHAPE


@region
def dsl_right_inverse_runtime_stride(L=None, *rest):
    """F-251: a static shape with a runtime stride: the DSL's right_inverse (CuTe's
    ``@pre is_static``) matches only the static strides."""
    return (isinstance(L, LayoutBase) and has_dynamic_stride(L)
            and _model_value("right_inverse", (L,)) is not None)


@region
def dsl_left_inverse_runtime(L=None, *rest):
    """F-252: a runtime integer anywhere in L: the DSL's left_inverse refuses."""
    out = _model("left_inverse", (L,))
    return isinstance(L, LayoutBase) and out is not None and out.message == LEFT_INVERSE


@region
def dsl_product_runtime_input(*inputs, op=None):
    """F-253: a product multiplies a mode of A that holds a runtime integer: the DSL wants it
    static."""
    out = _model(op, inputs)
    return out is not None and out.kind == "raised" and out.message == STATIC_INPUT


@region
def runtime_int_tiler(A=None, T=None, *rest):
    """F-081 with runtime integers: the tiler is a runtime integer ``n`` (not ``_n``), which
    composition and logical_divide pass to the MLIR op unconverted."""
    return isinstance(T, int) and not isinstance(T, (bool, C))


@region
def runtime_integer_in_dicer(L=None, c=None, *rest):
    """F-254: dice's coordinate holds a runtime integer."""
    def ints(x):
        return [v for e in x for v in ints(e)] if isinstance(x, tuple) else \
            [x] if isinstance(x, int) and not isinstance(x, bool) else []
    return any(not isinstance(v, C) for v in ints(c))


@symptom
def dsl_wants_static_dicer(inputs, answer, reference):
    """F-254: the DSL's refusal of a runtime dicer, by its own words."""
    return raised_with_any(answer, "expects dicer to be static")


def dsl_shape_div(a, b):
    """The DSL's shape_div with runtime integers: tuple/tuple by mode, tuple/int folds b
    across a, int/tuple divides by product(b), int/int truncates and makes a zero quotient
    1 (``a / b != 0 ? a / b : 1`` on positive integers)."""
    if isinstance(a, tuple):
        if isinstance(b, tuple):
            return tuple(dsl_shape_div(x, y) for x, y in zip(a, b))
        out = []
        for ai in a:
            out.append(dsl_shape_div(ai, b))
            b = dsl_shape_div(b, ai)
        return tuple(out)
    if isinstance(b, tuple):
        p = 1
        for x in leaves(b):
            p *= int(x)
        return dsl_shape_div(a, p)
    return int(a) // int(b) or 1


@symptom
def dsl_truncating_shape_div(inputs, answer, reference):
    """F-255: the answer is the DSL's truncating fold (``dsl_shape_div``), value for value."""
    if not (answer is not None and answer.kind == "ok") or len(inputs) < 2:
        return False
    want, got = dsl_shape_div(*inputs[:2]), answer.value

    def plain(t):
        return tuple(plain(x) for x in t) if isinstance(t, tuple) else int(t)
    return plain(got) == plain(want)


def all_static(*inputs):
    """Every integer of the inputs is static (the DSL's findings from its trace-time days:
    compile-time checks that runtime integers skip)."""
    def ints(x):
        if isinstance(x, LayoutBase):
            return list(leaves(x.shape)) + list(leaves(x.stride))
        if isinstance(x, tuple):
            return [v for e in x for v in ints(e)]
        return [x] if isinstance(x, int) and not isinstance(x, bool) else []
    return all(isinstance(v, C) for x in inputs for v in ints(x))


PLANTED = [
    # finding, oracle, op, arguments, the DSL's answer (as it printed it)
    ("F-243", "cute-dsl", "coalesce", ["(4,8):(1,4)"], "(4,8):(1,4)"),
    ("F-243", "cute-dsl", "coalesce", ["(_16,4):(_1,_16)"], "(_16,4):(_1,_16)"),
    ("F-245", "cute-dsl", "filter", ["(_4,2):(_1,0)"], "(_4,2):(_1,0)"),
    ("F-246", "cute-dsl", "composition", ["(6,_8):(_1,6)", "(8):(_2)"], "((3,2)):((_2,6))"),
    ("F-246", "cute-dsl", "composition", ["(2,2):(1,0)", "3:1"], "(2,1):(1,0)"),
    ("F-249", "cute-dsl", "complement", ["(2,2):(1,6)", "24"],
     "raised: MLIRError: error: unknown: source must not have error, but got '!cute.shape<\"x\">'"),
    ("F-250", "cute-dsl", "right_inverse", ["(_16,8):(_1,16)"],
     "raised: MLIRError: error: unknown: expects an input with static shape, but got "
     "'!cute.layout<\"(16,?):(1,?)\">'"),
    ("F-251", "cute-dsl", "right_inverse", ["(_4,_2):(_2,1)"], "_1:_0"),
    ("F-252", "cute-dsl", "left_inverse", ["4:1"],
     "raised: MLIRError: error: unknown: unable to compute the left inverse of '!cute.layout<\"?:?\">'"),
    ("F-253", "cute-dsl", "logical_product", ["(2,2):(1,2)", "_3:_1"],
     "raised: MLIRError: error: unknown: expects `input` to be static, but got "
     "'!cute.layout<\"(?,?):(?,?)\">'"),
    ("F-243", "cute-dsl", "filter", ["(46,(5,1)):(1,(46,16))"], "(46,5,1):(1,46,16)"),
    ("F-254", "cute-dsl", "dice", ["(3,4):(0,1)", "(_,3)"],
     "raised: ValueError: expects dicer to be static, but got (None, Int32(?))"),
    ("F-255", "cute-dsl", "shape_div", ["(3,8)", "8"], "(1,4)"),
    ("F-081", "cute-dsl", "composition", ["(_8,_3):(_1,_8)", "2"],
     "raised: ValueError: Operand 1 of operation \"cute.composition\" must be a Value (is not a Value)"),
]
