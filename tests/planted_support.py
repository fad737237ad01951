"""Planted answers (DESIGN.md "Answer-precise findings"): the pieces that
tests/test_planted.py and tests/test_known_precise.py share.

* ``MODEL``: an oracle's answer without running the oracle: the models of pycute
  (oracles/pycute_wheel/model.py), CuTe C++ (oracles/cpp/model.py) and the DSL (oracles/dsl/findings/algebra.py),
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
  where it answers), and near misses that keep the properties a weak symptom would check:
  the bug's layout with one stride or one extent moved, its modes swapped; for a crash
  another signal, a hang, a worker that died before the case.  A crash is planted where the
  bug answers too: a crash is known only by a crash finding whose signal it is.
"""

import importlib

import layoutcheck.oracles.cpp.model as models_cpp
import layoutcheck.oracles.dsl.findings.algebra as known_dsl
import layoutcheck.oracles.pycute_wheel.model as models
from layoutcheck.oracles.known import PREDICATE_MODULES
from layoutcheck.oracles.protocol import ANSWERS, Outcome, decode_arg, parse_args

from layoutcheck.composed import ComposedLayoutBase, F2Layout, SignedLayout, parse_value
from layoutcheck.layout import LayoutBase, leaves

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


def _rebuilt(L, shapes, strides):
    its, itd = iter(shapes), iter(strides)

    def go(t, it):
        return tuple(go(e, it) for e in t) if isinstance(t, tuple) else next(it)
    return LayoutBase(go(L.shape, its), go(L.shape, itd))


def near_misses(L):
    """Layouts next to ``L`` that a property-only symptom could take for it: one stride moved
    by one (where the extent is > 1), the last extent > 1 grown by one (the NVlabs
    complement mutant's kind of slip), two top modes swapped."""
    if not isinstance(L, LayoutBase) or isinstance(L, (SignedLayout, F2Layout)):
        return []
    shapes = [int(x) for x in leaves(L.shape)]
    strides = [int(x) for x in leaves(L.stride)]
    out = []
    for k in [i for i, s in enumerate(shapes) if s > 1][-2:]:
        for step in (1, -1):
            d = list(strides)
            d[k] += step
            if d[k] >= 0:
                out.append(_rebuilt(L, shapes, d))
    big = [i for i, s in enumerate(shapes) if s > 1]
    if big:
        s = list(shapes)
        s[big[-1]] += 1
        out.append(_rebuilt(L, s, strides))
    if isinstance(L.shape, tuple) and len(L.shape) >= 2 and L.shape[0] != L.shape[1]:
        sh, st = list(L.shape), list(L.stride)
        sh[0], sh[1], st[0], st[1] = sh[1], sh[0], st[1], st[0]
        out.append(LayoutBase(tuple(sh), tuple(st)))
    return out


CRASHES = ("killed by SIGFPE on this case", "killed by SIGSEGV on this case",
           "killed by SIGABRT on this case", "no answer within 30 s (the worker was stopped)",
           "killed by SIGFPE before this case")


def planted(op, answer, reference=None):
    """Wrong answers in the same region that are not ``answer`` (nor the reference's)."""
    out = []
    if answer.kind == "ok":
        out += [Outcome.ok(v) for v in _other_values(op, answer.value)]
        value = answer.value
        layout = value if isinstance(value, LayoutBase) else \
            value[0] if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], LayoutBase) else None
        for near in near_misses(layout):
            out.append(Outcome.ok(near if layout is value else (near, value[1])))
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
    out += [Outcome.crashed(m) for m in CRASHES if not (answer.kind == "crashed" and m in answer.message)]
    ref = reference
    return [p for p in out if p != answer and not (ref is not None and ref.kind == "ok" and p.kind == "ok"
                                                   and p.value == ref.value)
            and not (answer.kind == "ok" and p.kind == "ok" and p.value == answer.value)]


# --- every finding's own cases, with the answer its oracle gives --------------------------------

def answer_source(oracle):
    """How an oracle's answer is obtained here: the real pycute / NVlabs PyCuTe (pure Python,
    cheap; NVlabs where $LAYOUTCHECK_NVLABS_PATH names a snapshot), the models of CuTe C++ and
    the DSL (checked against the real ones in tests/test_known_precise.py)."""
    from layoutcheck.oracles import get_oracle
    if oracle in ("pycute", "nvlabs"):
        o = get_oracle(oracle)
        return None if o.unavailable_reason() else o.run
    if oracle == "cute-cpp":
        return models_cpp.answer
    if oracle == "cute-dsl":
        import layoutcheck.oracles.dsl.model as models_dsl
        return models_dsl.answer
    return None


def own_cases(register):
    """(finding, op, argument texts) for each ``op(args)`` of the case of a finding that has
    oracle tables."""
    import re

    from layoutcheck.findings import match_tables
    from layoutcheck.oracles.protocol import OPS
    out = []
    for f in register:
        if not any(m.get("answer") for m in match_tables(f)):
            continue
        for case in split_top(f["case"], ";"):
            m = re.fullmatch(r"(\w+)\((.*)\)", case)
            if m and m.group(1) in OPS:
                out.append((f, m.group(1), split_top(m.group(2), ",")))
    return out
