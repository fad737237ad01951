"""fuzz/checks/coordinates.py, oracles/pyapi.py and the pycute findings beyond the algebra (F-170..F-172, F-262).

Every new check must be able to fail: each is run against the spec with one planted bug in
the op it checks and has to report it, and against impl (no bug) and has to stay quiet.
"""

import types

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hseed
from layoutcheck.fuzz.checks.base import CheckFailed, Skip
from layoutcheck.fuzz.checks.coordinates import COORDINATE_CHECKS
from layoutcheck.oracles import get_oracle, parse_args
from layoutcheck.oracles.known import find_known
from layoutcheck.oracles.protocol import ANSWERS, Outcome
from layoutcheck.oracles.pyapi import Call, PyApi

from layoutcheck.layout import LayoutBase, Underscore, _, leaves


def _draw(strategy, n, seed=3):
    out = []

    @settings(max_examples=n, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @hseed(seed)
    @given(strategy)
    def collect(args):
        out.append(args)
    collect()
    return out


class _Ctx:
    def __init__(self, oracle, spec):
        self.oracle, self.spec = oracle, spec


def _bump_leaf(t):
    """An IntTuple with its first leaf changed (() becomes (1,))."""
    if isinstance(t, tuple):
        return (_bump_leaf(t[0]),) + t[1:] if t else (1,)
    return t + 1


def _wrong(op, args, value):
    """A generic wrong answer of op's answer kind."""
    kind = ANSWERS[op]
    if kind == "bool":
        return not value
    if kind in ("int",):
        return int(value) + 1
    if kind == "inttuple":
        return _bump_leaf(value)
    if kind == "layout_offset":
        return (value[0], int(value[1]) + 1)
    if isinstance(value, LayoutBase):
        return LayoutBase(value.shape, _bump_leaf(value.stride)) if leaves(value.shape) != (1,) * len(
            leaves(value.shape)) else LayoutBase((value.shape, 2), (value.stride, 1))
    return int(value) + 1


class Planted:
    """The spec with one planted bug: ``bug(op, args, answer) -> answer`` on op ``target``."""

    def __init__(self, target, bug=None):
        self.spec, self.target, self.bug = get_oracle("spec"), target, bug or _wrong
        self.name = f"planted:{target}"

    def run(self, op, *args):
        out = self.spec.run(op, *args)
        if op != self.target or out.kind != "ok":
            return out
        changed = self.bug(op, args, out.value)
        return out if changed is None else Outcome.ok(changed)


def _prefix_reversed(op, args, value):
    if not isinstance(value, tuple) or len(value) < 2:
        return None
    return tuple(reversed(value))


def _swap_underscore_mode(op, args, value):
    A, T = args
    if not isinstance(T, tuple) or not any(isinstance(t, Underscore) for t in T):
        return None
    i = next(k for k, t in enumerate(T) if isinstance(t, Underscore))
    ms = [LayoutBase(s, d) for s, d in zip(value.shape, value.stride)]
    ms[i] = LayoutBase((ms[i].shape,), (ms[i].stride,))
    return LayoutBase(tuple(m.shape for m in ms), tuple(m.stride for m in ms))


def _filter_keeps_zeros(op, args, value):
    if len(args) < 2 or not isinstance(args[1], tuple):
        return None
    import layoutcheck.spec as S
    return S.coalesce(args[0], args[1], sense="cute")


LAW_BUGS = {  # law -> (op whose answers are planted wrong, the bug)
    "law.idx2crd.round_trip": ("idx2crd", None),
    "law.eval_coord.natural": ("eval_coord", None),
    "law.slice_and_offset.offset": ("slice_and_offset", None),
    "law.dice.partition": ("dice", lambda op, a, v: a[0]),
    "law.layout_left.prefix_product": ("prefix_product", _prefix_reversed),
    "law.product.leaves": ("product", None),
    "law.compatible.structure": ("compatible", None),
    "law.crd2crd.index": ("crd2crd", None),
    "law.coalesce.profile": ("filter", _filter_keeps_zeros),
    "law.composition.underscore": ("composition", _swap_underscore_mode),
}


def _run(check, oracle, cases):
    ctx, failed = _Ctx(oracle, get_oracle("spec")), []
    for args in cases:
        try:
            check.run(ctx, args)
        except Skip:
            pass
        except CheckFailed as f:
            failed.append((args, f.message))
    return failed


@pytest.mark.parametrize("check", COORDINATE_CHECKS, ids=[c.name for c in COORDINATE_CHECKS])
def test_each_check_catches_a_planted_bug_and_passes_impl(check):
    cases = _draw(check.strategy(), 60)
    target, bug = LAW_BUGS.get(check.name, (check.op, None))
    assert _run(check, Planted(target, bug), cases), f"{check.name} never failed on a planted bug"
    assert not _run(check, get_oracle("impl"), cases)


def test_every_new_op_has_a_differential_check_and_a_strategy():
    names = {c.name for c in COORDINATE_CHECKS}
    for op in ("eval_coord", "get_mode", "rank", "crd2idx", "idx2crd", "crd2crd", "slice_", "dice",
               "slice_and_offset", "layout_left", "shape_div", "prefix_product", "product",
               "inner_product", "elem_scale", "congruent", "compatible", "flatten"):
        assert f"diff.{op}" in names, op


# --- the pycute findings beyond the algebra: recognised by their answer only -------------------------

FINDINGS = [
    ("F-170", "slice_", ["(4,8):(1,4)", "_"], lambda L, c: Outcome.ok(LayoutBase(((L.shape,),), ((L.stride,),)))),
    ("F-171", "zipped_divide", ["(8,(4,2)):(1,(8,32))", "(2:1,_)"],
     lambda A, T: Outcome.ok(LayoutBase.parse("((2,(4,2)),(4,1)):((1,(8,32)),(2,0))"))),
    ("F-172", "crd2crd", ["((1,1),2)", "(4,3)", "((2,2),3)"],
     lambda *a: Outcome.raised("AssertionError: crd=(1, 1), shape=4")),
    ("F-262", "crd2crd", ["(1,1)", "3", "(2,2)"], lambda *a: Outcome.ok(2)),
]


@pytest.mark.parametrize("fid,op,texts,other", FINDINGS, ids=[f[0] for f in FINDINGS])
def test_pycute_api_findings_reproduce(fid, op, texts, other):
    args = parse_args(op, texts)
    pycute, spec = get_oracle("pycute"), get_oracle("spec")
    if pycute.unavailable_reason():
        pytest.skip(pycute.unavailable_reason())
    answer, reference = pycute.run(op, *args), spec.run(op, *args)
    for oracle in ("pycute", "module:pycute_m05@pycute"):
        assert find_known(oracle, op, f"diff.{op}", args, answer, reference) == fid
    assert find_known("module:pycute_m05", op, f"diff.{op}", args, answer, reference) is None
    # a different wrong answer inside the same region is new, not the known bug
    assert find_known("pycute", op, f"diff.{op}", args, other(*args), reference) is None


# --- pyapi: conversions, unsupported ops, overrides ---------------------------------------------

def _fake_module(**extra):
    class Layout:
        def __init__(self, shape, stride=None):
            self.shape, self.stride = shape, stride if stride is not None else 1

        def __call__(self, c):
            return ("called", c)
    mod = types.SimpleNamespace(Layout=Layout, __name__="fake", **extra)
    return mod


def test_pyapi_placeholder_unsupported_and_answer_kinds():
    mod = _fake_module(congruent=lambda a, b: 1, idx2crd=lambda i, s, d=None: mod.Layout(2, 1),
                       crd2idx=lambda c, s, d=None: c)
    api = PyApi(mod)
    assert api.call("rank", (LayoutBase(4, 1),)).kind == "unsupported"      # no Layout.__len__
    assert api.call("dice", (LayoutBase(4, 1), 0)).kind == "unsupported"    # the module has no dice
    assert api.call("congruent", ((1,), (2,))).message.endswith("not a bool")
    assert "not an IntTuple" in api.call("idx2crd", (1, (2,))).message
    assert api.to_module("coord", (1, (_, 2))) == (1, (None, 2))          # pycute's placeholder
    assert PyApi(mod, underscore="X").to_module("coord", (_,)) == ("X",)
    assert "not an integer" in api.call("crd2idx", ((1, _), (2, 2))).message  # echoes the tuple


def test_pyapi_overrides_map_ops_onto_another_api():
    mod = _fake_module(rank_of=lambda L: 7)
    api = PyApi(mod, overrides={"rank": Call(("rank_of",), lambda m, L: m.rank_of(L)),
                                "coalesce": None})
    assert api.call("rank", (LayoutBase(4, 1),)) == Outcome.ok(7)
    assert api.call("coalesce", (LayoutBase(4, 1),)).kind == "unsupported"


def test_pycute_through_pyapi():
    import pycute
    api = PyApi(pycute)
    L = LayoutBase.parse("(4,(8,3)):(1,(4,32))")
    assert api.call("slice_", (L, (_, (3, _)))) == Outcome.ok(LayoutBase((4, 3), (1, 32)))
    assert api.call("slice_and_offset", (L, (1, (_, 2)))) == Outcome.ok((LayoutBase((8,), (4,)), 65))
    assert api.call("get_mode", (L, 1)) == Outcome.ok(LayoutBase((8, 3), (4, 32)))
    assert api.call("rank", (L,)) == Outcome.ok(2)
    assert api.call("idx2crd", (13, (4, (8, 3)))) == Outcome.ok((1, (3, 0)))
    assert api.call("flatten", ((1, (2, 3)),)) == Outcome.ok((1, 2, 3))
    assert api.call("logical_divide", (LayoutBase.parse("(8,8):(1,8)"), (LayoutBase(2, 1), _))) == \
        Outcome.ok(LayoutBase.parse("((2,4),8):((1,2),8)"))


# --- CuTe's own conventions beyond the algebra (F-173..F-175): known by their exact answer ---

def test_cute_api_conventions_are_recognised_by_their_answer():
    from layoutcheck.integers import C
    P = LayoutBase.parse
    shape = (2, (1, 4))
    dsl = Outcome.ok(P("(_2,(_1,_4)):(_1,(_0,_2))"))
    assert find_known("cute-dsl", "layout_left", "diff.layout_left", (shape,), dsl) == "F-173"
    assert find_known("cute-dsl", "layout_left", "diff.layout_left", (shape,),
                      Outcome.ok(P("(2,(1,4)):(1,(0,3))"))) is None          # another wrong stride
    static = (2, (C(1), 4))
    assert find_known("cute-cpp", "layout_left", "diff.layout_left", (static,), dsl) == "F-173"
    assert find_known("cute-cpp", "layout_left", "diff.layout_left", (shape,), dsl) is None  # dynamic 1
    assert find_known("cute-dsl", "flatten", "diff.flatten", (4,), Outcome.ok(C(4))) == "F-174"
    assert find_known("cute-dsl", "flatten", "diff.flatten", (4,), Outcome.ok(5)) is None
    L = P("(2,(2,2)):(1,(2,4))")
    assert find_known("cute-dsl", "coalesce", "diff.coalesce", (L, ()), Outcome.ok(P("8:1"))) == "F-175"
    assert find_known("cute-dsl", "coalesce", "diff.coalesce", (L, ()), Outcome.ok(P("(2,4):(1,2)"))) is None


def test_cute_dsl_answers_the_new_ops():
    dsl = get_oracle("cute-dsl")
    if dsl.unavailable_reason():
        pytest.skip(dsl.unavailable_reason())
    from layoutcheck.oracles import compare
    spec = get_oracle("spec")
    cases = [("eval_coord", ["(4,(8,3)):(1,(4,32))", "(1,5)"]), ("crd2idx", ["(1,(2,_))", "(2,(3,4))"]),
             ("idx2crd", ["13", "(4,(8,3))"]), ("slice_", ["(4,(8,3)):(1,(4,32))", "(_,(3,_))"]),
             ("dice", ["(4,8):(1,4)", "(_1,_)"]),  # static dicer and coalesce: F-254, F-243 at runtime
             ("slice_and_offset", ["(4,(8,3)):(1,(4,32))", "(1,(_,2))"]),
             ("get_mode", ["(4,(8,3)):(1,(4,32))", "1"]), ("rank", ["(4,8):(1,4)"]),
             ("shape_div", ["(4,5,6)", "40"]), ("product", ["(2,(3,4))"]), ("congruent", ["(1,(2))", "(3,(4))"]),
             ("coalesce", ["(_2,(_2,_2)):(_1,(_2,_4))", "(1,1)"]), ("zipped_divide", ["(8,(4,2)):(1,(8,32))", "(2:1,_)"])]
    parsed = [(op, parse_args(op, a)) for op, a in cases]
    for (op, args), out in zip(parsed, dsl.run_many(parsed)):
        assert compare(op, args, spec.run(op, *args), out).ok, (op, args, out)
    unsupported = dsl.run_many([("crd2crd", parse_args("crd2crd", ["5", "(2,3)"])),
                                ("filter", parse_args("filter", ["(2,2):(1,0)", "(1,1)"]))])
    assert [o.kind for o in unsupported] == ["unsupported", "unsupported"]
