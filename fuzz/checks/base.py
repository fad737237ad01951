"""What every check is built from: ``Check``, its outcomes (``CheckFailed``, ``Skip``,
``OracleCrashed``), the oracle call ``answer_of``, ``fail``, ``no_crash`` and the differential
check (an oracle against its reference, at the level the op requires)."""

from dataclasses import dataclass
from typing import Callable

from layoutcheck.oracles.compare import compare
from layoutcheck.oracles.implementations import takes_runtime_integers
from layoutcheck.oracles.protocol import format_arg, format_value, is_invalid_answer

from layoutcheck.composed import ComposedLayoutBase, F2Layout
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase

__all__ = ["Check", "CheckFailed", "Skip", "OracleCrashed", "differential", "answer_of", "fail", "no_crash",
           "static_value", "static_args", "has_runtime_ints", "oracle_args", "static_law",
           "integer_kind", "INTEGER_KINDS"]


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
    no_crash(ctx.oracle, op, out, args)
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
    killed, ran out of time or memory).  Not a CheckFailed and never a refusal or a pass: the
    campaign reports it as an error on that case, unless a crash finding of the register
    explains that very death (its signal, in its region; fuzz/campaign/recognise.py).
    ``call`` is ``(oracle name, op, args, outcome)`` of the call that crashed, when known."""

    def __init__(self, message, answers=None, call=None):
        super().__init__(message)
        self.message = message
        self.answers = dict(answers or {})
        self.call = call


def no_crash(oracle, op, out, args=None):
    """Raise ``OracleCrashed`` when ``out`` (the answer to ``op(*args)``) is a crash."""
    if out.kind == "crashed":
        raise OracleCrashed(f"{oracle.name} crashed on {op}: {out.message}",
                            {oracle.name: f"crashed: {out.message}"},
                            call=None if args is None else (oracle.name, op, tuple(args), out))


def fail(message, **answers):
    raise CheckFailed(message, {k.replace("_", " "): (format_arg(v) if isinstance(v, (LayoutBase, tuple, int))
                                                      else str(v)) for k, v in answers.items()})


# --- differential ------------------------------------------------------------------------------

def differential(op):
    """Oracle vs spec at the level ``op`` requires (``compare``), both on the inputs as the
    oracle runs them (``oracle_args``); outside the precondition the spec raises and the
    oracle must refuse too (an oracle that returns a layout there fails)."""

    def shown(out):  # an answer as text of its kind (values as [..], IntTuples as (..))
        return format_value(op, out.value) if out.kind == "ok" else str(out)

    def run(ctx, args):
        args = oracle_args(ctx.oracle, op, args)
        exp = ctx.spec.run(op, *args)
        no_crash(ctx.spec, op, exp, args)
        if exp.kind == "unsupported":
            raise Skip(exp.message)
        act = ctx.oracle.run(op, *args)
        no_crash(ctx.oracle, op, act, args)
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


# --- the integers an oracle runs -----------------------------------------------------------
# An oracle that reads every integer as a known value (pycute, module:, NVlabs' PyCuTe, the CuTe
# DSL outside its runtime path) runs a case as all-static; several ops depend on staticness in
# CuTe (upcast's dynamic-stride rule, nullspace's static zeros, coalesce's merges), and the
# answers' staticness is compared at the ``printed`` level, so such an oracle and its
# reference get the same all-static inputs.  Which (oracle, op) tells runtime from static
# integers is said in one place: oracles/implementations.py ``takes_runtime_integers``.

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


def has_runtime_ints(oracle, op):
    """Whether ``oracle`` tells runtime from static integers in ``op``."""
    return takes_runtime_integers(getattr(oracle, "name", ""), op)


def oracle_args(oracle, op, args):
    """The inputs as ``oracle`` runs ``op`` on them: as drawn, or all-static."""
    return args if has_runtime_ints(oracle, op) else static_args(args)


INTEGER_KINDS = ("runtime", "static", "mixed")


def integer_kind(oracle, op, args):
    """How ``oracle`` runs the integers of ``op(*args)``: ``"runtime"`` (every one a runtime
    integer), ``"static"`` (every one static, or none, or an oracle that reads them all as
    known values) or ``"mixed"``."""
    if not has_runtime_ints(oracle, op):
        return "static"
    kinds = set()

    def walk(x):
        if isinstance(x, LayoutBase):
            walk(x.shape)
            walk(x.stride)
        elif isinstance(x, ComposedLayoutBase):
            walk((x.outer, x.offset, x.inner))
        elif isinstance(x, tuple):
            for e in x:
                walk(e)
        elif isinstance(x, int) and not isinstance(x, bool):
            kinds.add(isinstance(x, C))
    walk(args)
    return "runtime" if kinds == {False} else "mixed" if len(kinds) == 2 else "static"


def static_law(fn, op):
    """A law of ``op`` on the oracle's own integers: all-static for an oracle that does not
    tell them apart in ``op``."""
    def run(ctx, args):
        return fn(ctx, oracle_args(ctx.oracle, op, args))
    run.__doc__ = fn.__doc__
    return run
