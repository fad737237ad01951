"""The cute-dsl oracle: the CuTe DSL's layout algebra at trace time, no GPU."""

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
    cases = [("composition", ["(6,2):(8,2)", "(4,3):(3,1)"]),
             ("composition", ["(2,3):(3,1)", "(2,3):(1,1)"]),   # the DSL refuses (MLIR error)
             ("complement", ["4:2"]),                            # F-050: no default cotarget
             ("complement", ["4:2", "16"]),
             ("values", ["(2,(3,2)):(3,(1,6))"]),
             ("size", ["(8,6)"]),
             ]
    args = [parse_args(op, a) for op, a in cases]
    comp, refused, no_default, comp16, vals, size = ORACLE.run_many(list(zip([c[0] for c in cases], args)))
    A, B = args[0]
    R = comp.value
    assert all(isinstance(x, C) for x in leaves(R.shape) + leaves(R.stride))  # trace-time = static
    assert spec.values(fn(R)) == [fn(A)(b) for b in spec.values(fn(B))]
    assert refused.kind == "raised" and "composition" in refused.message
    assert no_default.kind == "unsupported" and "cotarget" in no_default.message
    ref = get_oracle("spec").run("complement", *args[3])
    assert compare("complement", args[3], ref, comp16).ok
    assert vals.value == tuple(spec.values(args[4][0]))
    assert size.value == 48


def test_dsl_product_with_tile_tuple_is_known():
    from layoutcheck.oracles.known import verdict
    op, args = "zipped_product", parse_args("zipped_product", ["(_4,_6):(_1,_4)", "(_2:_1,_3:_1)"])
    tup, one = ORACLE.run_many([(op, args), (op, parse_args(op, ["(_4,_6):(_1,_4)", "(_2,_3):(_1,_2)"]))])
    assert tup.kind == "raised" and "must be a Value" in tup.message  # F-051
    want = get_oracle("spec").run(op, *args)
    c = compare(op, args, want, tup)
    assert c.ok is False and verdict("cute-dsl", op, args, c, tup, want) == ("known", "F-051")
    assert one.kind == "ok" and spec.size(one.value) == 24 * 6
