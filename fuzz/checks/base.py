"""What every check is built from: ``Check``, its outcomes (``CheckFailed``, ``Skip``,
``OracleCrashed``), the oracle call ``answer_of``, ``fail``, ``no_crash`` and the differential
check (an oracle against its reference, at the level the op requires)."""

from dataclasses import dataclass
from typing import Callable

from layoutcheck.oracles.compare import compare
from layoutcheck.oracles.protocol import format_arg, format_value, is_invalid_answer

from layoutcheck.composed import ComposedLayoutBase, F2Layout
from layoutcheck.findings import base_oracle
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase

__all__ = ["Check", "CheckFailed", "Skip", "OracleCrashed", "differential", "answer_of", "fail", "no_crash",
           "static_value", "static_args", "has_runtime_ints", "static_differential", "static_law"]


class CheckFailed(AssertionError):
    """A case that violates the check; ``answers`` maps a side's name to its answer (text)."""

    def __init__(self, message, answers=None):
        super().__init__(message)
        self.message = message
        self.answers = dict(answers or {})


class Skip(Exception):
    """The oracle cannot answer this case (unsupported / refused): nothing to check."""


@dataclass(frozen=True)
class Check:
    name: str
    op: str
    kind: str  # "differential" or "law"
    strategy: Callable[[], object]  # () -> hypothesis strategy of argument tuples
    run: Callable
    doc: str = ""


def answer_of(ctx, op, *args):
    """The oracle's answer, or Skip when it refuses or does not support the op; an answer the
    adapter found invalid (not a value of the op's kind) fails the check."""
    out = ctx.oracle.run(op, *args)
    no_crash(ctx.oracle, op, out)
    if out.kind == "unsupported":
        raise Skip(out.message)
    if is_invalid_answer(out):  # garbage is no refusal (oracles.protocol.INVALID_ANSWER)
        raise CheckFailed(f"{ctx.oracle.name} answers no valid value for {op}",
                          {ctx.oracle.name: out.message})
    if out.kind == "raised":
        raise Skip(out.message)
    return out.value


class OracleCrashed(Exception):
    """An oracle did not answer a case (Outcome kind "crashed": its worker exited, was
    killed, ran out of time or memory).  Not a CheckFailed: no finding can explain it, and
    the campaign reports it as an error on that case, never as a refusal or a pass."""

    def __init__(self, message, answers=None):
        super().__init__(message)
        self.message = message
        self.answers = dict(answers or {})


def no_crash(oracle, op, out):
    if out.kind == "crashed":
        raise OracleCrashed(f"{oracle.name} crashed on {op}: {out.message}",
                            {oracle.name: f"crashed: {out.message}"})


def fail(message, **answers):
    raise CheckFailed(message, {k.replace("_", " "): (format_arg(v) if isinstance(v, (LayoutBase, tuple, int))
                                                      else str(v)) for k, v in answers.items()})


# --- differential ------------------------------------------------------------------------------

def differential(op):
    """Oracle vs spec at the level ``op`` requires (``compare``); outside the precondition the
    spec raises and the oracle must refuse too (an oracle that returns a layout there fails)."""

    def shown(out):  # an answer as text of its kind (values as [..], IntTuples as (..))
        return format_value(op, out.value) if out.kind == "ok" else str(out)

    def run(ctx, args):
        exp = ctx.spec.run(op, *args)
        no_crash(ctx.spec, op, exp)
        if exp.kind == "unsupported":
            raise Skip(exp.message)
        act = ctx.oracle.run(op, *args)
        no_crash(ctx.oracle, op, act)
        if act.kind == "unsupported":
            raise Skip(act.message)
        if exp.kind == "raised":
            if is_invalid_answer(act):  # garbage is no refusal (oracles.protocol.INVALID_ANSWER)
                fail(f"{ctx.oracle.name} answers no valid value where the spec refuses",
                      **{ctx.spec.name: exp.message, ctx.oracle.name: act.message})
            if act.kind == "ok":
                fail(f"{ctx.oracle.name} accepts an input the spec rejects",
                      **{ctx.spec.name: exp.message, ctx.oracle.name: shown(act)})
            return
        if act.kind == "raised":
            fail(f"{ctx.oracle.name} rejects an input the spec accepts",
                  **{ctx.spec.name: shown(exp), ctx.oracle.name: act.message})
        c = compare(op, args, exp, act)
        if c.ok is None:
            raise Skip(f"no verdict ({c.level})")
        if not c.ok:
            why = f": {c.detail}" if c.detail else ""
            fail(f"results disagree (strictest agreement: {c.level}{why})",
                  **{ctx.spec.name: shown(exp), ctx.oracle.name: shown(act)})
    return run


# --- oracles without runtime integers ---------------------------------------------------------
# pycute, module:, NVlabs PyCuTe and the CuTe DSL at trace time read every integer as a known
# value, i.e. static; several ops beyond the algebra depend on staticness in CuTe (upcast's
# dynamic-stride rule, nullspace's static zeros, the order of dynamic entries), so their checks
# give such oracles, and their reference, the same all-static inputs.

def static_value(x):
    if isinstance(x, tuple):
        return tuple(static_value(e) for e in x)
    if isinstance(x, LayoutBase):
        return LayoutBase(static_value(x.shape), static_value(x.stride))
    if isinstance(x, ComposedLayoutBase):
        return ComposedLayoutBase(static_value(x.outer), static_value(x.offset), static_value(x.inner))
    if isinstance(x, F2Layout):
        return F2Layout(static_value(x.shape), static_value(x.stride))
    if isinstance(x, int) and not isinstance(x, bool):
        return C(x)
    return x


def static_args(args):
    return tuple(static_value(a) for a in args)


def has_runtime_ints(oracle):
    """spec, impl and CuTe C++ tell runtime from static integers; the Python oracles and the
    DSL (trace time) do not."""
    name = getattr(oracle, "name", "")
    return base_oracle(name.split("[")[0]) in ("spec", "impl", "cute-cpp")


def static_differential(op):
    base = differential(op)

    def run(ctx, args):
        return base(ctx, args if has_runtime_ints(ctx.oracle) else static_args(args))
    return run


def static_law(fn):
    """A law on the oracle's own integers: all-static for oracles without runtime ones."""
    def run(ctx, args):
        return fn(ctx, args if has_runtime_ints(ctx.oracle) else static_args(args))
    run.__doc__ = fn.__doc__
    return run
