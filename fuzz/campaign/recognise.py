"""Is a failing case a known finding?  Answer by answer (DESIGN.md, "Answer-precise findings").

A check calls the oracle once (``diff.*``) or several times (``law.*``).  ``known_failure``
re-runs the failing check with a *substitute* oracle that records every call and answers as
the oracle does, except that an answer which differs from the reference's and which a
finding of the register explains exactly (``findings.explain``: the inputs in one of its
tables' region, the answer its symptom) is replaced by the reference's answer.  The failure
is known only when that counterfactual run passes: every answer that made the check fail is
one a finding produces.  A differential check has one answer, so that answer must be
explained; a law failure that needs an unexplained answer (a new bug next to a known one) is
new.  The reference of a call is ``ctx.spec`` (the spec, in CuTe's sense for CuTe oracles).

A crash is an answer too: where the oracle's worker died on a call (``OracleCrashed``) and a
crash finding's symptom is that death (its signal, in its region), the call is explained like
any other, so the case is known; a crash no finding explains stays an error.  The crashed call
is not run again: its answer is taken from the failure.  A recognition whose explained answers
include one that a symptom did not check (``@unchecked_symptom``) is ``checked = False``:
"known region, answer not checked".
"""

import copy

from layoutcheck.fuzz.checks.base import CheckFailed, OracleCrashed, Skip
from layoutcheck.oracles.reference import case_key
from layoutcheck.oracles.known import explain
from layoutcheck.oracles.protocol import is_invalid_answer

__all__ = ["known_failure", "Recognition", "Substitute"]


class Recognition:
    """The outcome of ``known_failure``: ``finding`` (an id or None), the ``calls`` of the
    counterfactual run, each ``(op, args, answer, explained_by)``, and ``checked``: False when
    some explained answer was judged by a symptom that checks a property only."""

    def __init__(self, finding, calls, why="", checked=True):
        self.finding, self.calls, self.why, self.checked = finding, calls, why, checked

    def __bool__(self):
        return self.finding is not None

    def __repr__(self):
        tag = self.finding or "new"
        return f"<Recognition {tag}{'' if self.checked else ' (answer not checked)'}: {self.why}>"


class Substitute:
    """An oracle that answers like ``oracle`` except where a finding explains the answer:
    there it answers like ``reference`` (and notes which finding explained it)."""

    def __init__(self, oracle, reference, check_name, answers=None):
        self.oracle, self.reference, self.check_name = oracle, reference, check_name
        self.name = getattr(oracle, "name", "?")
        self.calls = []
        self.unchecked = []  # finding ids whose symptom checked a property only
        self.answers = dict(answers or {})  # (op, case_key(args)) -> an answer already given

    def __getattr__(self, attr):  # unavailable_reason, run_many, ... of the wrapped oracle
        return getattr(self.oracle, attr)

    def run_many(self, cases):  # a batch is judged call by call, each substituted on its own
        return [self.run(op, *args) for op, args in cases]

    def run(self, op, *args):
        out = self.answers.get((op, case_key(args)))
        if out is None:
            out = self.oracle.run(op, *args)
        ref = self.reference.run(op, *args)
        explained = None
        if not _same(out, ref):
            hit = explain(self.name, op, self.check_name, args, out, ref)
            if hit is not None:
                explained = hit[0]["id"]
                if not hit.checked:
                    self.unchecked.append(explained)
        self.calls.append((op, args, out, explained))
        return ref if explained else out


def _same(a, b):
    if a.kind != b.kind:
        return False
    if a.kind != "ok":  # two refusals: nothing to substitute; an invalid answer is no refusal
        return is_invalid_answer(a) == is_invalid_answer(b)
    return type(a.value) is type(b.value) and a.value == b.value


def known_failure(check, ctx, args, failure=None):
    """A ``Recognition`` of the failing case ``args`` of ``check`` under ``ctx`` (its oracle
    and reference): known only when the counterfactual run passes and some answer was
    replaced.  ``failure``: the ``CheckFailed`` or ``OracleCrashed`` the case raised (a crash
    carries its call, whose answer is not asked for again)."""
    if getattr(ctx, "spec", None) is None:
        return Recognition(None, [], "no reference to substitute")
    given = {}
    call = getattr(failure, "call", None) if isinstance(failure, OracleCrashed) else None
    if call is not None and call[0] == getattr(ctx.oracle, "name", None):  # the oracle's, not the reference's
        _, op, cargs, out = call
        given[(op, case_key(cargs))] = out
    sub = Substitute(ctx.oracle, ctx.spec, check.name, given)
    alt = copy.copy(ctx)
    alt.oracle = sub
    try:
        check.run(alt, args)
    except Skip:
        pass  # the law does not apply once the explained answers are the reference's
    except (CheckFailed, OracleCrashed) as f:
        return Recognition(None, sub.calls, f"still fails with the explained answers replaced: {f.message}")
    except Exception as e:  # noqa: BLE001 - the counterfactual run itself broke: not known
        return Recognition(None, sub.calls, f"counterfactual run raised {type(e).__name__}: {e}")
    used = [c[3] for c in sub.calls if c[3]]
    if not used:
        return Recognition(None, sub.calls, "no answer explained by a finding")
    # the finding a report names: one whose answer was not checked first (it needs a look)
    named = sub.unchecked[0] if sub.unchecked else used[0]
    return Recognition(named, sub.calls, f"explained: {', '.join(dict.fromkeys(used))}",
                       checked=not sub.unchecked)
