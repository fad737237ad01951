"""A baseline: the implementation under test judged against the spec, each case compared with
another implementation's answer (``layoutcheck fuzz --baseline ORACLE``).

Every case the campaign draws is answered by both: ``Paired`` is the oracle under test with
the baseline beside it; each batch it answers (``run_many``) goes to both, so that a batched
oracle (cute-cpp compiles, the DSL traces) answers the baseline's calls in the same batches.
The check is then judged on each side against the same reference (``versus``):

- both pass: nothing to report;
- both fail with the same answers (every call: the same outcome kind, the same printed value,
  the same refusal): **known**, labelled with the register's finding where one matches the
  implementation's answer, else ``baseline:NAME``; exact by construction;
- the baseline passes and the implementation fails: **regression**;
- the baseline fails and the implementation passes: **fixed** (reported; no failure);
- both fail differently (or the baseline has no answer: unsupported, crashed): **changed**.

A crash of the implementation is compared too: where the baseline passes it is a regression,
where it answers otherwise a change; where the baseline crashes the same way (``same_crash``) it
is known only when a crash finding of the register explains it, else it stays an error.

A regression or a change is a new failure (exit 1) whatever the register says; the register's
finding is named beside it.  Two refusals are the same when their messages are, with
positions, paths and numbers of lines left out, or when one finding of the register explains
both.
"""

from __future__ import annotations

import copy
import re
from collections import OrderedDict
from dataclasses import dataclass, field

from layoutcheck.fuzz.checks.base import CheckFailed, OracleCrashed, Skip
from layoutcheck.oracles.known import explain
from layoutcheck.oracles.protocol import format_value
from layoutcheck.oracles.reference import case_key

__all__ = ["Paired", "Verdict", "versus", "recording", "same_outcome", "same_crash", "refusal_key",
           "VERDICTS", "label"]

VERDICTS = ("known", "regression", "fixed", "changed")
SIDE_CACHE = 1 << 14   # baseline answers kept per Paired oracle


def label(baseline: str) -> str:
    """The ``known_finding`` of a failure the baseline shares and the register does not name."""
    return f"baseline:{baseline}"


class Paired:
    """The oracle under test (its name, its answers) that also asks ``baseline`` every call of
    each batch and keeps those answers for ``view()``."""

    def __init__(self, oracle, baseline):
        self.oracle, self.baseline, self.name = oracle, baseline, oracle.name
        self.answers = OrderedDict()

    def unavailable_reason(self):
        return self.oracle.unavailable_reason()

    def run(self, op, *args):
        return self.run_many([(op, args)])[0]

    def run_many(self, cases):
        cases = [(op, tuple(args)) for op, args in cases]
        out = self.oracle.run_many(cases)
        try:
            theirs = self.baseline.run_many(cases)
        except Exception:  # noqa: BLE001 - the baseline is asked again, case by case, when judged
            theirs = []
        for (op, args), answer in zip(cases, theirs):
            self._keep((op, case_key(args)), answer)
        return out

    def _keep(self, key, answer):
        self.answers[key] = answer
        self.answers.move_to_end(key)
        while len(self.answers) > SIDE_CACHE:
            self.answers.popitem(last=False)

    def view(self):
        """The baseline as an oracle answering from those answers (asking it where it has none)."""
        return _View(self)

    # the hooks of a batched oracle (fuzz/campaign/batched.py), offered when the oracle under
    # test has them: cases are drawn for it, and both sides prepare (compile) them
    def _prepare(self, calls, until=None):
        for side in (self.oracle, self.baseline):
            fn = getattr(side, "prepare", None)
            if callable(fn):
                fn(calls, until=until)

    def _reusing(self, op, cases):
        picked = self.oracle.reusing(op, cases)
        other = getattr(self.baseline, "reusing", None)
        if not callable(other):
            return picked
        theirs = other(op, [c if c is not None else a for c, a in zip(picked, cases)])
        return [c if c is not None and t is not None else None for c, t in zip(picked, theirs)]

    def _uncompiled(self, calls):
        hooks = (getattr(s, "uncompiled", None) for s in (self.oracle, self.baseline))
        return sum(fn(calls) for fn in hooks if callable(fn))

    def __getattr__(self, name):  # case_mix, batch_cases, stats, describe: the oracle under test's
        if name in ("prepare", "reusing", "uncompiled"):
            if not callable(getattr(self.oracle, name, None)):
                raise AttributeError(name)
            return getattr(self, "_" + name)
        if name.startswith("_") or name in ("oracle", "baseline", "answers"):
            raise AttributeError(name)
        return getattr(self.oracle, name)


class _View:
    def __init__(self, paired):
        self.paired, self.name = paired, paired.baseline.name

    def unavailable_reason(self):
        return self.paired.baseline.unavailable_reason()

    def run(self, op, *args):
        key = (op, case_key(args))
        got = self.paired.answers.get(key)
        if got is None:
            got = self.paired.baseline.run(op, *args)
            self.paired._keep(key, got)
        return got

    def run_many(self, cases):
        return [self.run(op, *args) for op, args in cases]


class _Recorder:
    """An oracle that answers as ``oracle`` and records each call with its answer."""

    def __init__(self, oracle):
        self.oracle, self.name, self.calls = oracle, oracle.name, []

    def unavailable_reason(self):
        return self.oracle.unavailable_reason()

    def run(self, op, *args):
        out = self.oracle.run(op, *args)
        self.calls.append((op, args, out))
        return out

    def run_many(self, cases):
        return [self.run(op, *args) for op, args in cases]

    def __getattr__(self, name):
        return getattr(self.oracle, name)


@dataclass
class Verdict:
    """How a case compares: ``verdict`` is one of VERDICTS, or ``pass`` (both agree with the
    spec) or ``skip`` (no comparison); ``answers``: the baseline's (side -> text) where it
    failed; ``detail``: one line."""
    verdict: str
    baseline: str
    answers: dict = field(default_factory=dict)
    detail: str = ""

    def as_dict(self) -> dict:
        return {"oracle": self.baseline, "verdict": self.verdict, "answers": self.answers,
                "detail": self.detail}


def _run(check, ctx, oracle, args):
    """(result, calls): the check on ``oracle``; result is "pass", "skip", a CheckFailed or an
    OracleCrashed."""
    rec = _Recorder(oracle)
    alt = copy.copy(ctx)
    alt.oracle = rec
    try:
        check.run(alt, args)
        return "pass", rec.calls
    except Skip:
        return "skip", rec.calls
    except (CheckFailed, OracleCrashed) as e:
        return e, rec.calls


_NOISE = [(re.compile(r"(/[^\s:'\"()]+)+"), "PATH"), (re.compile(r":\d+(:\d+)?"), ""),
          (re.compile(r"0x[0-9a-fA-F]+"), "ADDR"), (re.compile(r"\s+"), " ")]


def refusal_key(message: str) -> str:
    """A refusal's message without what changes between builds of the same code: file paths,
    line and column numbers, addresses, runs of blanks."""
    text = message or ""
    for pattern, repl in _NOISE:
        text = pattern.sub(repl, text)
    return text.strip()


def same_outcome(a, b, *, op=None, args=(), check="", names=("", ""), reference=None) -> bool:
    """The same answer: the same kind; for answers the same printed value; for refusals the
    same message (``refusal_key``) or one finding explaining both.  A crash is never the same."""
    if a.kind != b.kind or a.kind == "crashed":
        return False
    if a.kind == "ok":
        try:
            return type(a.value) is type(b.value) and format_value(op, a.value) == format_value(op, b.value)
        except Exception:  # noqa: BLE001 - values the codec cannot print: compare them as values
            return type(a.value) is type(b.value) and a.value == b.value
    if a.kind == "unsupported" or refusal_key(a.message) == refusal_key(b.message):
        return True
    if reference is None or op is None:
        return False
    mine = explain(names[0], op, check, args, a, reference)
    theirs = explain(names[1], op, check, args, b, reference)
    return mine is not None and theirs is not None and mine[0]["id"] == theirs[0]["id"]


def same_crash(mine: str, theirs: str, names: tuple) -> bool:
    """Two crashes of one case, of the implementation (named ``names[0]``) and of the baseline
    (``names[1]``): the same message with the oracles' names, positions and paths left out."""
    def key(text):
        for name in sorted(names, key=len, reverse=True):
            text = (text or "").replace(name, "ORACLE")
        return refusal_key(text)
    return key(mine) == key(theirs)


def _same_calls(mine, theirs, check, ctx, names):
    if len(mine) != len(theirs):
        return False
    for (op, args, a), (op2, args2, b) in zip(mine, theirs):
        if op != op2 or case_key(args) != case_key(args2):
            return False
        ref = ctx.spec.run(op, *args) if getattr(ctx, "spec", None) is not None else None
        if not same_outcome(a, b, op=op, args=args, check=check.name, names=names, reference=ref):
            return False
    return True


def recording(oracle):
    """``oracle`` wrapped to record the calls of one case (``.calls``: (op, args, answer))."""
    return _Recorder(oracle)


def _identical(calls, paired):
    """Every call of the implementation's run has the baseline's answer beside it, printed the
    same: the baseline's run of the check would ask and be told the same."""
    for op, args, out in calls:
        theirs = paired.answers.get((op, case_key(args)))
        if theirs is None or theirs.kind != out.kind or theirs.kind == "crashed":
            return False
        if out.kind == "ok":
            if not same_outcome(out, theirs, op=op):
                return False
        elif (out.message or "") != (theirs.message or ""):
            return False
    return True


def versus(check, ctx, args, failure=None, calls=None) -> Verdict:
    """Compare the implementation's result on ``args`` (``failure``: its CheckFailed, None when
    it passed) with the baseline's, both judged against ``ctx.spec``.  ``ctx.oracle`` answers
    as ``Paired`` (possibly behind the campaign's wrappers); ``ctx.baseline`` is the Paired.
    ``calls``: the implementation's calls of that run (``recording``); where the baseline
    answered each of them the same, the verdict needs no second run of the check."""
    paired = ctx.baseline
    view = paired.view()
    if calls is not None and _identical(calls, paired):
        if failure is None:
            return Verdict("pass", view.name)
        return Verdict("known", view.name, dict(failure.answers), f"{view.name} fails the same way")
    names = (ctx.oracle.name, view.name)
    theirs, their_calls = _run(check, ctx, view, args)
    if failure is None:
        if isinstance(theirs, (CheckFailed, OracleCrashed)):
            return Verdict("fixed", view.name, dict(theirs.answers), theirs.message)
        return Verdict("pass" if theirs == "pass" else "skip", view.name)
    unsupported = [out.message for _, _, out in their_calls if out.kind == "unsupported"]
    if theirs == "pass" and not unsupported:
        return Verdict("regression", view.name, {},
                       f"{view.name} agrees with the spec on this case")
    if theirs in ("pass", "skip"):  # a pass with calls it could not answer judged less
        return Verdict("changed", view.name, {}, f"{view.name} has no answer to compare ("
                       + (f"unsupported: {unsupported[-1]}" if unsupported else
                          "it refuses where the check cannot judge a refusal") + ")")
    if isinstance(theirs, OracleCrashed):
        if isinstance(failure, OracleCrashed) and same_crash(failure.message, theirs.message, names):
            return Verdict("known", view.name, dict(theirs.answers), f"{view.name} crashes the same way")
        return Verdict("changed", view.name, dict(theirs.answers), f"{view.name} crashed: {theirs.message}")
    mine, my_calls = _run(check, ctx, ctx.oracle, args)
    if isinstance(mine, CheckFailed) and _same_calls(my_calls, their_calls, check, ctx, names):
        return Verdict("known", view.name, dict(theirs.answers), f"{view.name} fails the same way")
    return Verdict("changed", view.name, dict(theirs.answers),
                   f"{view.name} fails differently: {theirs.message}")
