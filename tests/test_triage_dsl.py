"""Triage of the cute-dsl fuzz failures: the findings F-081..F-085 re-checked on the DSL.

Each test runs the finding's cases on the DSL and evaluates its answers with the spec's
evaluator (independent of the DSL), and checks that the finding's predicate recognises the
failures and stays false on neighbouring inputs where the DSL agrees with the spec.
"""

import pytest
from layoutcheck.fuzz.checks.base import static_args
from layoutcheck.oracles import Outcome, compare, get_oracle, parse_args
from layoutcheck.oracles.known import PREDICATES, find_known

from layoutcheck import spec

ORACLE = get_oracle("cute-dsl")
REF = get_oracle("spec", sense="cute")
needs_dsl = pytest.mark.skipif(bool(ORACLE.unavailable_reason()),
                               reason=f"cute-dsl: {ORACLE.unavailable_reason()}")


def _run(cases):
    """[(op, args, dsl outcome, spec outcome)] for [(op, [texts])], one DSL batch.  These
    findings were found at trace time, where every integer is static: their cases run with
    every integer static (the runtime path's findings: tests/test_dsl_runtime.py)."""
    parsed = [(op, static_args(parse_args(op, texts))) for op, texts in cases]
    outs = ORACLE.run_many(parsed)
    return [(op, args, o, REF.run(op, *args)) for (op, args), o in zip(parsed, outs)]


def _fn(L):
    return spec.values(spec.Layout(L.shape, L.stride))


# --- predicates alone (no DSL needed) ---------------------------------------------------------

def test_dsl_predicates_are_narrow():
    P = PREDICATES
    a = lambda op, *t: parse_args(op, list(t))  # noqa: E731
    assert P["tiler_is_plain_int"](*a("zipped_divide", "14:4", "2"))
    assert not P["tiler_is_plain_int"](*a("zipped_divide", "14:4", "(2)"))
    assert not P["tiler_is_plain_int"](*a("zipped_divide", "14:4", "2:1"))
    assert P["not_injective"](*a("left_inverse", "3:0"))
    assert not P["not_injective"](*a("left_inverse", "(2,2):(1,3)"))  # injective, not complementable
    assert P["cute_weak_stride_branch"](*a("composition", "(5,2):(1,10)", "4:3"))
    assert not P["cute_weak_stride_branch"](*a("composition", "(4,2):(1,4)", "4:2"))
    assert not P["cute_weak_stride_branch"](*a("composition", "(2,2):(1,4)", "2:3"))  # rejected, F-025
    assert P["product_cute_rejects_composable"](*a("logical_product", "_2:_2", "_2:_3"))
    assert not P["product_cute_rejects_composable"](*a("logical_product", "4:1", "3:1"))
    assert P["blocked_zip_leaf_after_tuple"](*a("blocked_product", "((_8,_6)):((_1,_16))", "_1:_2"))
    assert not P["blocked_zip_leaf_after_tuple"](*a("blocked_product", "_12:_3", "_12:_1"))
    assert P["raked_zip_leaf_after_tuple"](*a("raked_product", "12:3", "12:1"))
    assert not P["raked_zip_leaf_after_tuple"](*a("raked_product", "12:3", "2"))
    assert not P["raked_zip_leaf_after_tuple"](*a("raked_product", "(4,2):(1,4)", "(2,2):(1,2)"))


# --- the DSL itself ---------------------------------------------------------------------------

@needs_dsl
def test_F081_int_tiler_rejected_tuple_accepted():
    pairs = [("zipped_divide", "14:4", "2", "(2)"), ("tiled_divide", "(_62,_4,_1):(_0,_8,_249)", "248", "248:1"),
             ("flat_divide", "4:1", "4", "(4)"), ("zipped_product", "4:1", "2", "2:1"),
             ("tiled_product", "(4,2):(1,4)", "3", "3:1")]
    cases = [(op, [a, t]) for op, a, i, w in pairs for t in (i, w)]
    res = _run(cases)
    for k in range(0, len(res), 2):
        (op, args, bare, ref), (_, args2, wrapped, ref2) = res[k], res[k + 1]
        assert bare.kind == "raised" and "must be a Value" in bare.message, (op, bare)
        # the divides' signature admits an int (a bug, F-081); the products' is 'tiler: Layout'
        # (a convention, F-051); another refusal text is neither
        assert find_known("cute-dsl", op, f"diff.{op}", args, bare) == ("F-051" if "product" in op else "F-081")
        assert find_known("cute-dsl", op, f"diff.{op}", args, Outcome.raised("MLIRError: other")) is None
        # the same tile written as a 1-tuple or n:1 is accepted and has the spec's function
        assert wrapped.kind == "ok" and _fn(wrapped.value) == _fn(ref2.value), (op, wrapped)
        assert _fn(ref.value) == _fn(ref2.value)  # n means n:1 (as the spec reads it)
        assert not PREDICATES["tiler_is_plain_int"](*args2)
    # logical_divide / logical_product convert the int themselves
    (_, a, ld, r), (_, b, lp, q) = _run([("logical_divide", ["14:4", "2"]), ("logical_product", ["4:1", "3"])])
    assert compare("logical_divide", a, r, ld).ok and compare("logical_product", b, q, lp).ok


@needs_dsl
def test_F082_weak_stride_branch_gives_wrong_results():
    cases = [("composition", ["(_3,_4):(_1,_10)", "_4:_2"]), ("composition", ["(5,2):(1,10)", "4:3"]),
             ("logical_product", ["_27:_3", "(_2,2):(_1,2)"]), ("logical_product", ["38:4", "(16,_1):(3,_0)"]),
             ("composition", ["(4,2):(1,4)", "4:2"])]  # strict divisibility holds: the DSL is right
    res = _run(cases)
    for op, args, got, ref in res[:4]:
        assert got.kind == "ok"
        A, B = args
        if op == "composition":
            want = [_fn(A)[b] for b in _fn(B)]  # A(B(i)), whether or not it is a layout
        else:  # mode 1 of the product is comp(A, size(A) cosize(B)) ∘ B
            C = spec.complement(A, spec.size(A) * spec.cosize(B), sense="cute")
            want = [_fn(C)[b] for b in _fn(B)]
            R = got.value
            got_mode = spec.Layout(R.shape[1], R.stride[1])
            assert _fn(got_mode) != want
            assert find_known("cute-dsl", op, "law.logical_product.modes", args, got) == "F-082"
            continue
        assert _fn(got.value) != want, (args, got.value)
        assert find_known("cute-dsl", op, "diff.composition", args, got) == "F-082"
        assert find_known("cute-dsl", op, "diff.composition", args, Outcome.ok(spec.parse("(_2,_2):(_3,_9)"))) is None
    op, args, got, ref = res[4]
    assert compare(op, args, ref, got).ok and not PREDICATES["cute_weak_stride_branch"](*args)
    # the injectivity failure of law.logical_product.modes: 27:3 and (2,2):(1,2) overlap
    P = res[2][2].value
    assert len(set(_fn(P))) < len(_fn(P))


@needs_dsl
def test_F083_left_inverse_of_non_injective():
    res = _run([("left_inverse", [t]) for t in ("3:0", "(2,3):(0,1)", "(5,16,_1):(2,0,_40)", "(2,2):(1,3)")])
    for op, (L,), got, ref in res[:3]:
        assert ref.kind == "raised" and got.kind == "ok"
        lv, rv = _fn(L), _fn(got.value)
        assert any(not (x < len(rv) and rv[x] == i) for i, x in enumerate(lv))  # no left inverse
        assert find_known("cute-dsl", op, "diff.left_inverse", (L,), got) == "F-083"
    op, args, got, ref = res[3]  # injective: the DSL's answer is a left inverse
    assert compare(op, args, ref, got).ok and not PREDICATES["not_injective"](*args)


@needs_dsl
def test_F084_blocked_raked_zip_of_rank_one_operands():
    refused = [("blocked_product", ["((_8,_6)):((_1,_16))", "_1:_2"]), ("blocked_product", ["(_2):(_2)", "_4:_1"]),
               ("raked_product", ["12:3", "(12):(1)"]), ("raked_product", ["12:3", "12:1"])]
    fine = [("blocked_product", ["12:3", "12:1"]), ("raked_product", ["12:3", "2"]),
            ("raked_product", ["(4,2):(1,4)", "(2,2):(1,2)"])]
    res = _run(refused + fine)
    for op, args, got, ref in res[:4]:
        assert ref.kind == "ok" and got.kind == "raised" and "unable to compute product" in got.message
        assert find_known("cute-dsl", op, f"diff.{op}", args, got) == "F-084"
    for op, args, got, ref in res[4:7]:
        assert compare(op, args, ref, got).ok, (op, args, got)
        assert not PREDICATES[f"{op.split('_')[0]}_zip_leaf_after_tuple"](*args)


@needs_dsl
def test_F086_raked_product_coalesces_modes():
    flat = [["(_63,1):(_2,7)", "6:1"], ["(_2):(_2)", "(_4):(_1)"], ["(12):(3)", "(12):(1)"]]
    same = [["(4,2):(1,4)", "(2,2):(1,2)"], ["12:3", "2"]]
    res = _run([("raked_product", a) for a in flat + same])
    for op, args, got, ref in res[:3]:
        c = compare(op, args, ref, got)
        assert c.level == "coalesced" and _fn(got.value) == _fn(ref.value), (args, got.value)
        R = ref.value
        per_mode = spec.coalesce(R, tuple(1 for _ in R.shape), sense="cute")
        assert got.value == per_mode, (got.value, per_mode)  # exactly the per-mode coalesce
        assert find_known("cute-dsl", op, f"diff.{op}", args, got) == "F-086"
        assert find_known("cute-dsl", op, f"diff.{op}", args, ref) is None  # the zip as is: not the DSL's
    for op, args, got, ref in res[3:]:
        assert compare(op, args, ref, got).ok and not PREDICATES["raked_coalesces_modes"](*args)


@needs_dsl
def test_F085_product_rejected_by_cute_stride_check():
    res = _run([("logical_product", ["_2:_2", "_2:_3"]), ("blocked_product", ["_2:_2", "_2:_3"]),
                ("composition", ["(_2,_2):(_1,_4)", "_2:_3"]), ("logical_product", ["_2:_2", "_2:_2"])])
    for op, args, got, ref in res[:2]:
        assert ref.kind == "ok" and got.kind == "raised", (op, got)
        assert find_known("cute-dsl", op, f"diff.{op}", args, got) == "F-085"
    # the inner composition itself: the DSL refuses it; it exists (2:5)
    op, args, got, ref = res[2]
    assert got.kind == "raised" and ref.kind == "ok" and _fn(ref.value) == [0, 5]
    op, args, got, ref = res[3]
    assert compare(op, args, ref, got).ok and not PREDICATES["product_cute_rejects_composable"](*args)


@needs_dsl
def test_F087_short_tuple_tiler_drops_modes():
    res = _run([("composition", ["(_4,_8):(_1,_4)", "(_2:_2)"]),
                ("composition", ["(42,(_5,1,1),1):(1,(_126,13,420),1)", "(42,5)"]),
                ("composition", ["(_4,_8):(_1,_4)", "(_2:_2,_8:_1)"]),
                ("logical_divide", ["(_4,_8):(_1,_4)", "(_2:_2)"])])
    (op, args, got, ref) = res[0]
    assert spec.size(got.value) == 2 and spec.size(ref.value) == 16  # mode 1 of A dropped
    assert _fn(got.value) == _fn(ref.value)[:2]
    assert find_known("cute-dsl", op, "diff.composition", args, got) == "F-087"
    (op, args, got, ref) = res[1]
    assert spec.rank(got.value) == 2 and spec.rank(ref.value) == 3 and _fn(got.value) == _fn(ref.value)
    assert find_known("cute-dsl", op, "diff.composition", args, got) == "F-087"
    for op, args, got, ref in res[2:]:  # a full-length tiler, and the divide, keep the modes
        assert compare(op, args, ref, got).ok
    assert not PREDICATES["tuple_tiler_shorter_than_layout"](*res[2][1])


@needs_dsl
def test_F088_mode_by_mode_composition_is_wrong():
    res = _run([("composition", ["(_2,_2):(_1,_4)", "(_2,_2):(_1,_1)"]),
                ("composition", ["((3,_36),_1,_1):((9,_2),_8,_108)", "((2,12)):((1,1))"]),
                ("composition", ["(_2,_2):(_1,_4)", "(_2,_2):(_1,_2)"]),  # disjoint modes: right
                ("logical_product", ["_2:_2", "(_2,_2):(_1,_1)"])])
    for op, (A, B), got, ref in res[:2]:
        assert ref.kind == "raised" and got.kind == "ok"
        assert _fn(got.value) != [_fn(A)[b] for b in _fn(B)]
        assert find_known("cute-dsl", op, "diff.composition", (A, B), got) == "F-088"
    # the first case: each mode alone is right (A∘(2:1) = 2:1), their sum is not A∘B
    (s0, s1), (d0, d1) = res[0][2].value.shape, res[0][2].value.stride
    assert _fn(spec.Layout(s0, d0)) == _fn(spec.Layout(s1, d1)) == [0, 1]
    op, args, got, ref = res[2]
    assert compare(op, args, ref, got).ok and not PREDICATES["cute_accepts_non_additive"](*args)
    op, args, got, ref = res[3]  # the same inner composition inside logical_product
    assert ref.kind == "raised" and got.kind == "ok"
    assert find_known("cute-dsl", op, "diff.logical_product", args, got) == "F-088"


def test_a_block_with_no_room_tiled_to_one_tile_is_answered_not_crashed():
    """tile_to_shape(((_2,_2)):((_1,_1)), _1): the complement inside has a zero-size mode, but
    the one tile's modes have size 1, so the DSL composes it without dividing by it and
    answers (((_2,_2),_1)):(((_1,_1),_0)) (the real DSL, 4.8.1): F-075's product, no SIGFPE.
    Another answer there is new."""
    from layoutcheck.composed import parse_value
    args = parse_args("tile_to_shape", ["((_2,_2)):((_1,_1))", "_1"])
    ref = get_oracle("spec", sense="cute").run("tile_to_shape", *args)
    assert ref.kind == "raised"
    dsl = Outcome.ok(parse_value("(((_2,_2),_1)):(((_1,_1),_0))"))
    assert find_known("cute-dsl", "tile_to_shape", "diff.tile_to_shape", args, dsl, ref) == "F-075"
    other = Outcome.ok(parse_value("(((_2,_2),_1)):(((_1,_2),_0))"))
    assert find_known("cute-dsl", "tile_to_shape", "diff.tile_to_shape", args, other, ref) is None
