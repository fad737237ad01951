"""The cute-dsl oracle: the CuTe DSL's layout algebra with runtime and static integers, no GPU."""

import pytest
from layoutcheck.oracles import compare, get_oracle, parse_args

from layoutcheck import spec
from layoutcheck.integers import C
from layoutcheck.layout import leaves

ORACLE = get_oracle("cute-dsl")
pytestmark = pytest.mark.skipif(bool(ORACLE.unavailable_reason()),
                                reason=f"cute-dsl: {ORACLE.unavailable_reason()}")


def fn(L):
    return spec.Layout(L.shape, L.stride)


def test_dsl_adapter():
    """Plain ints run as runtime integers (the answer's runtime parts read back, its trace-time
    form with '?'), '_N' as static ones, and the trace-time path answers the rest all-static."""
    cases = [("composition", ["(6,2):(8,2)", "(4,3):(3,1)"]),
             ("composition", ["(_6,_2):(_8,_2)", "(_4,_3):(_3,_1)"]),
             ("composition", ["(_2,_3):(_3,_1)", "(_2,_3):(_1,_1)"]),  # the DSL refuses (MLIR error)
             ("complement", ["4:2"]),                            # F-050: no default cotarget
             ("complement", ["4:2", "16"]),
             ("values", ["(2,(3,2)):(3,(1,6))"]),
             ("size", ["(8,6)"]),
             ]
    args = [parse_args(op, a) for op, a in cases]
    comp, static, refused, no_default, comp16, vals, size = ORACLE.run_many(
        list(zip([c[0] for c in cases], args)))
    A, B = args[0]
    R = comp.value
    assert not all(isinstance(x, C) for x in leaves(R.shape) + leaves(R.stride))  # runtime values
    assert "?" in comp.message  # the trace-time form: runtime values unknown
    assert spec.values(fn(R)) == [fn(A)(b) for b in spec.values(fn(B))]
    assert all(isinstance(x, C) for x in leaves(static.value.shape) + leaves(static.value.stride))
    assert spec.values(fn(static.value)) == spec.values(fn(R)) and "?" not in static.message
    assert refused.kind == "raised" and "composition" in refused.message
    assert no_default.kind == "unsupported" and "cotarget" in no_default.message
    ref = get_oracle("spec").run("complement", *args[4])
    assert compare("complement", args[4], ref, comp16).ok
    assert vals.value == tuple(spec.values(args[5][0]))
    assert size.value == 48 and not isinstance(size.value, C)


def test_dsl_product_with_tile_tuple_is_known():
    from layoutcheck.oracles.known import verdict
    op, args = "zipped_product", parse_args("zipped_product", ["(_4,_6):(_1,_4)", "(_2:_1,_3:_1)"])
    tup, one = ORACLE.run_many([(op, args), (op, parse_args(op, ["(_4,_6):(_1,_4)", "(_2,_3):(_1,_2)"]))])
    assert tup.kind == "raised" and "must be a Value" in tup.message  # F-051
    want = get_oracle("spec").run(op, *args)
    c = compare(op, args, want, tup)
    assert c.ok is False and verdict("cute-dsl", op, args, c, tup, want) == ("known", "F-051")
    assert one.kind == "ok" and spec.size(one.value) == 24 * 6
