"""Planted answers (DESIGN.md "Answer-precise findings"): the pieces that
tests/test_planted.py and tests/test_known_precise.py share.

* ``MODEL``: an oracle's answer without running the oracle: the models of pycute
  (oracles/pycute/model.py), CuTe C++ (oracles/cpp/model.py) and the DSL (oracles/dsl/findings/algebra.py),
  each checked against the real implementation in tests/test_known_precise.py.
* ``module_rows()``: the planted cases each *family module* of the register's predicates
  (``findings.PREDICATE_MODULES``) provides beside its predicates, as a module-level
  ``PLANTED`` list of rows ``(finding, oracle, op, [argument texts], "the oracle's answer as
  it prints it"[, static])`` -- a refusal written ``"raised: MESSAGE"``, a dead worker
  ``"crashed: MESSAGE"``; ``static`` (default False) makes every integer of the inputs
  static, as the gate does for oracles without runtime integers.  A family that adds a
  finding adds its row there; no test needs editing.
* ``planted(op, answer, reference)``: wrong answers that are *not* the bug's (another value
  of the op's answer kind, another exception, a value where the bug refuses, a refusal
  where it answers).  No crash is planted: a crash is an error at every gate
  (fuzz/checks/base.py, OracleCrashed), never a known finding.
"""

import importlib

import layoutcheck.oracles.cpp.model as models_cpp
import layoutcheck.oracles.dsl.findings.algebra as known_dsl
import layoutcheck.oracles.pycute.model as models
from layoutcheck.oracles.known import PREDICATE_MODULES
from layoutcheck.oracles.protocol import ANSWERS, Outcome, decode_arg, parse_args

from layoutcheck.composed import ComposedLayoutBase, parse_value
from layoutcheck.layout import LayoutBase

MODEL = {"pycute": (models.answer, models.matches),
         "cute-cpp": (models_cpp.answer, models_cpp.matches),
         "cute-dsl": (known_dsl.answer, lambda a, m, op=None: known_dsl.matches(a, m, op))}


def model_matches(oracle, out, model, op):
    same = MODEL[oracle][1]
    return same(out, model, op) if oracle == "cute-dsl" else same(out, model)


def split_top(text, sep):
    """``text`` split at ``sep`` outside parentheses."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        depth += (ch == "(") - (ch == ")")
        if ch == sep and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    parts.append(cur.strip())
    return [p for p in parts if p]


# --- the family modules' rows ----------------------------------------------------------------

def module_rows():
    """(module name, row) for every row of every family module's ``PLANTED``."""
    out = []
    for name in PREDICATE_MODULES:
        try:
            mod = importlib.import_module(name)
        except ImportError:
            continue
        out += [(name.rsplit(".", 1)[-1], tuple(row)) for row in getattr(mod, "PLANTED", ())]
    return out


def answer_from_text(op, text):
    """A recorded answer's text as the Outcome the oracle gave."""
    if text.startswith("raised: "):
        return Outcome.raised(text[len("raised: "):])
    if text.startswith("crashed: "):
        return Outcome("crashed", message=text[len("crashed: "):])
    kind = ANSWERS[op]
    if kind in ("composed_offset", "layout_offset"):
        layout, _, off = text.rpartition("|")
        return Outcome.ok((parse_value(layout), decode_arg(off)))
    if kind == "composed":
        return Outcome.ok(parse_value(text))
    if kind == "bool":
        return Outcome.ok(text == "true")
    return Outcome.ok(decode_arg(text))


def row_case(row):
    """(finding, oracle, op, args, answer) of a module row."""
    fid, oracle, op, texts, text = row[:5]
    static = bool(row[5]) if len(row) > 5 else False
    args = parse_args(op, list(texts))
    if static:
        from layoutcheck.fuzz.checks.base import static_args
        args = static_args(args)
    return fid, oracle, op, args, answer_from_text(op, text)


# --- wrong answers that are not the bug's ----------------------------------------------------

OTHER_LAYOUT = LayoutBase((3, 5), (1, 997))


def _other_values(op, value):
    """Values of ``op``'s answer kind that differ from ``value`` (None: any)."""
    kind = ANSWERS.get(op, "layout")
    if kind in ("layout", "composed"):
        out = [OTHER_LAYOUT]
        if isinstance(value, LayoutBase):
            out.append(LayoutBase((value.shape, 2), (value.stride, 997)))
        if isinstance(value, ComposedLayoutBase):
            out.append(ComposedLayoutBase(value.outer, int(value.offset) + 997, value.inner))
        return out
    if kind in ("layout_offset", "composed_offset"):
        if isinstance(value, tuple) and len(value) == 2:
            return [(value[0], int(value[1]) + 1), (OTHER_LAYOUT, value[1])]
        return [(OTHER_LAYOUT, 997)]
    if kind == "int":
        return [int(value) + 3 if value is not None else 997]
    if kind == "bool":
        return [not value if value is not None else True]
    if kind == "values":
        return [tuple(value) + (997,) if value is not None else (997,)]
    return [(value, 997) if value is not None else (997,)]  # an IntTuple


def planted(op, answer, reference=None):
    """Wrong answers in the same region that are not ``answer`` (nor the reference's)."""
    out = []
    if answer.kind == "ok":
        out += [Outcome.ok(v) for v in _other_values(op, answer.value)]
        out.append(Outcome.raised("ValueError: planted" if "ValueError" not in str(answer)
                                  else "ZeroDivisionError: planted"))
    else:
        out += [Outcome.ok(v) for v in _other_values(op, None)]
        msg = answer.message or ""
        if "compile-time rejection" in msg:  # another static_assert of CuTe is another bug
            out.append(Outcome.raised("compile-time rejection: static assertion failed: Planted Condition"))
        else:
            out.append(Outcome.raised("ZeroDivisionError: planted" if "ZeroDivisionError" not in msg
                                      else "KeyError: planted"))
    ref = reference
    return [p for p in out if p != answer and not (ref is not None and ref.kind == "ok" and p.kind == "ok"
                                                   and p.value == ref.value)]
