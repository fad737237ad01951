"""Triage of the cute-cpp fuzz gate: the findings F-053..F-057 (and the law-check tables of
F-040, F-041) re-checked against the real CuTe C++ headers, and the harness fixes of the
triage (oracles/compare.py).  Every CuTe case runs in one batch (one compile, cached)."""

import pytest

from layoutcheck import spec
from layoutcheck.findings import find_known
from layoutcheck.fuzz.properties import BY_NAME, CheckFailed
from layoutcheck.fuzz.targets import decode, table
from layoutcheck.layout import LayoutBase
from layoutcheck.oracles import get_oracle
from layoutcheck.oracles.compare import compare
from layoutcheck.oracles.protocol import Outcome

CASES = {
    # F-053: non-injective layouts, static strides
    "li_a": ("left_inverse", ["(_2,_8):(_13,_0)"]),
    "li_b": ("left_inverse", ["(_2,_2):(_1,_1)"]),
    # F-054: outside the precondition, runtime integers vs the same integers static
    "div_dyn": ("logical_divide", ["(5,_51,1):(2,_6,0)", "(_255):(2)"]),
    "div_static": ("logical_divide", ["(_5,_51,_1):(_2,_6,_0)", "(_255):(_2)"]),
    "prod_dyn": ("logical_product", ["_2:_2", "3"]),
    "prod_static": ("logical_product", ["_2:_2", "_3"]),
    "prod_law": ("logical_product", ["(14):(3)", "_3:_2"]),
    # F-055: same function, other modes, runtime integers; the static twins agree
    "zd": ("zipped_divide", ["(32,3,2):(8,32,96)", "192:1"]),
    "zd_static": ("zipped_divide", ["(_32,_3,_2):(_8,_32,_96)", "_192:_1"]),
    "td": ("tiled_divide", ["3:1", "3:1"]),
    "td_static": ("tiled_divide", ["_3:_1", "_3:_1"]),
    "fd": ("flat_divide", ["(6,6):(2,7)", "2"]),
    "fd2": ("flat_divide", ["(8,6):(2,9)", "(_3,_2):(_16,_1)"]),
    "fd2_static": ("flat_divide", ["(_8,_6):(_2,_9)", "(_3,_2):(_16,_1)"]),
    "zd2": ("zipped_divide", ["((_16,_2,4),1,_2):((_2,_32,64),512,_0)", "_16:_1"]),
    "fd3": ("flat_divide", ["((2,2,2,_2)):((2,3,16,_32))", "16"]),
    "tp": ("tiled_product", ["(_6,_6,_1):(_54,_3,_324)", "1"]),
    "tp_static": ("tiled_product", ["(_6,_6,_1):(_54,_3,_324)", "_1"]),
    # F-056
    "zp": ("zipped_product", ["((_19,_2)):((_3,_228))", "(_3,_1):(_4,_4)"]),
    # F-057
    "rk": ("raked_product", ["_4:_4", "_8:_1"]),
    "rk_wrapped": ("raked_product", ["(_4):(_4)", "(_8):(_1)"]),
    "rk_leaf_rest": ("raked_product", ["_4:_1", "_8:_1"]),
    "bk": ("blocked_product", ["_4:_4", "_8:_1"]),
    # F-040 / F-041 law checks
    "coal": ("coalesce", ["(46,4,_1):(1,46,_16)"]),
    "filt": ("filter", ["(_6,4,4):(_2,24,0)"]),
    # the composition that compare.py misjudged (a rank-1 wrapper around size-1 entries)
    "comp": ("composition", ["(37,(_4,_1)):(16,(_38,_16))", "(148):(1)"]),
}


@pytest.fixture(scope="module")
def cpp():
    o = get_oracle("cute-cpp")
    why = o.unavailable_reason()
    if why:
        pytest.skip(why)
    keys = list(CASES)
    outs = o.run_many([(CASES[k][0], tuple(decode(CASES[k][1]))) for k in keys])
    _ANSWERS.update(zip(keys, outs))
    return dict(zip(keys, outs))


def _args(key):
    return tuple(decode(CASES[key][1]))


def _ref(key):
    op, _ = CASES[key]
    return getattr(spec, op)(*_args(key), sense="cute")


_ANSWERS = {}  # CuTe's answers, filled by the cpp fixture (recognition judges the answer)


def _known(key, check="agreement"):
    return find_known("cute-cpp", CASES[key][0], check, _args(key), _ANSWERS.get(key))


def test_F053_left_inverse_of_non_injective_layout(cpp):
    for key in ("li_a", "li_b"):
        (L,) = _args(key)
        assert not spec.is_injective(L)
        with pytest.raises(spec.LayoutError):
            spec.left_inverse(L)
        R = cpp[key].value  # CuTe answers anyway ...
        lv, rv = table(L), table(R)
        # ... with no left inverse (none exists: two indices share a value)
        assert any(x >= len(rv) or rv[x] != i for i, x in enumerate(lv))
        assert _known(key) == "F-053"
    # an injective layout is not covered
    L = LayoutBase.parse("(_2,_4):(_4,_1)")
    assert find_known("cute-cpp", "left_inverse", "agreement", (L,), Outcome.ok(LayoutBase.parse("(_2,_2):(_4,_1)"))) is None


def test_F054_dynamic_divide_and_product_outside_the_precondition(cpp):
    for dyn, static in (("div_dyn", "div_static"), ("prod_dyn", "prod_static")):
        with pytest.raises(spec.LayoutError) as e:
            _ref(dyn)
        assert e.value.condition == "is_composable"
        assert cpp[static].kind == "raised" and "Divisibility" in cpp[static].message
        A = _args(dyn)[0]
        got = cpp[dyn].value
        want = spec.size(A) if CASES[dyn][0] == "logical_divide" else None
        if want is not None:
            assert spec.size(got) != want  # the divide is no permutation of A
        else:
            assert spec.size(got) != spec.size(A) * 3  # size(A) cosize(3:1)
        assert _known(dyn) == "F-054"
    # the law check of the fuzzer fails on the same phenomenon and is recognised
    with pytest.raises(CheckFailed):
        BY_NAME["law.logical_product.modes"].run(_Ctx(cpp), _args("prod_law"))
    assert _known("prod_law", "law.logical_product.modes") == "F-054"
    # static integers are not covered (CuTe rejects those itself)
    assert _known("prod_static") is None


class _Ctx:
    """A check context whose oracle answers from the batch."""

    def __init__(self, answers):
        by_case = {(CASES[k][0], tuple(map(str, _args(k)))): v for k, v in answers.items()}

        class _O:
            name = "cute-cpp"

            def run(self, op, *args):
                return by_case[(op, tuple(map(str, args)))]
        self.oracle, self.spec = _O(), None


def test_F055_dynamic_results_differ_only_in_modes(cpp):
    for key in ("zd", "zd2", "td", "fd", "fd2", "fd3", "tp"):
        want, got = _ref(key), cpp[key].value
        c = compare(CASES[key][0], _args(key), want, got)
        assert c.level == "coalesced" and not c.ok  # same function, other mode structure
        assert _known(key) == "F-055"
        static = cpp.get(key + "_static")
        if static is not None:  # CuTe with the integers static prints the spec's layout
            assert str(static.value) == str(_ref(key + "_static"))
    # a dynamic answer with a different function is not covered: the region judges CuTe's
    # answer (its model), not only the inputs (F-054's divide has dynamic integers too)
    from layoutcheck.findings import PREDICATES
    assert not PREDICATES["cpp_dynamic_modes_only"](*_args("div_dyn"), op="logical_divide")
    assert not PREDICATES["cpp_dynamic_modes_only"](*_args("zd_static"), op="zipped_divide")
    # and a different answer with the same function is not F-055: it is not CuTe's
    other = compare("zipped_divide", _args("zd"), _ref("zd"), _ref("zd"))
    assert other.ok and find_known("cute-cpp", "zipped_divide", "agreement", _args("zd"),
                                   Outcome.ok(_ref("zd"))) is None


def test_F056_product_fails_stride_divisibility(cpp):
    assert cpp["zp"].kind == "raised" and "Stride Divisibility Condition" in cpp["zp"].message
    A, B = _args("zp")
    P = _ref("zp")
    assert table(P)[:spec.size(A)] == table(A)  # the spec's product exists
    assert _known("zp") == "F-056"


def test_F057_raked_product_of_leaves(cpp):
    assert cpp["rk"].kind == "raised" and "Index out of range" in cpp["rk"].message
    assert str(cpp["rk_wrapped"].value) == str(_ref("rk"))  # rank-1 tuples compile and agree
    assert cpp["bk"].kind == "ok" and str(cpp["bk"].value) == str(_ref("bk"))
    assert str(cpp["rk_leaf_rest"].value) == str(_ref("rk_leaf_rest"))
    assert _known("rk") == "F-057"
    assert _known("rk_leaf_rest") is None


def test_F040_F041_laws_with_dynamic_integers(cpp):
    coal = cpp["coal"].value
    assert table(coal) == table(_args("coal")[0]) and str(coal) == "(46,4):(1,46)"
    with pytest.raises(CheckFailed):
        BY_NAME["law.coalesce.minimal"].run(_Ctx(cpp), _args("coal"))
    assert _known("coal", "law.coalesce.minimal") == "F-040"
    static = LayoutBase.parse("(_46,_4,_1):(_1,_46,_16)")  # CuTe merges these: not covered
    assert find_known("cute-cpp", "coalesce", "law.coalesce.minimal", (static,), cpp["coal"]) is None
    filt = cpp["filt"].value
    assert spec.size(filt) == 96  # the dynamic stride-0 mode of size 4 is kept
    with pytest.raises(CheckFailed):
        BY_NAME["law.filter.image"].run(_Ctx(cpp), _args("filt"))
    assert _known("filt", "law.filter.image") == "F-041"


def test_compare_ignores_size1_entries_inside_a_rank1_wrapper(cpp):
    want, got = _ref("comp"), cpp["comp"].value
    assert str(want) == "((37,4)):((16,38))" and str(got) == "((37,4,1)):((16,38,16))"
    assert compare("composition", _args("comp"), want, got).level == "function"


def test_compare_rank1_wrapper_keeps_real_differences():
    """No cute-cpp needed: the fix does not make unequal mode trees equal."""
    e, a = LayoutBase.parse("((4,6)):((1,4))"), LayoutBase.parse("((4,2,3)):((1,4,8))")
    assert compare("composition", (), e, a).level == "coalesced"
    e, a = LayoutBase.parse("((4,6)):((1,4))"), LayoutBase.parse("((4,6,1)):((1,4,0))")
    assert compare("composition", (), e, a).level == "function"
    e, a = LayoutBase.parse("(4,6):(1,4)"), LayoutBase.parse("(4,6,1):(1,4,0)")
    assert compare("composition", (), e, a).level == "coalesced"  # top level keeps rank


MORE = {
    "tr": ("composition", ["(_21,_1,_1):(_2,_42,_4)", "_1:_22"]),
    "tr_seed": ("composition", ["((_21,_1,1)):((_2,_42,4))", "((_2,_11),_1):((_0,_2),_22)"]),
    "tr_merged": ("composition", ["(_21,_1):(_2,_42)", "_1:_22"]),
    "tr_leaf": ("composition", ["_21:_2", "_1:_22"]),
    "pn": ("zipped_product", ["(_50):(_3)", "(_4):(_2)"]),
}


@pytest.fixture(scope="module")
def cpp_more(cpp):
    keys = list(MORE)
    outs = get_oracle("cute-cpp").run_many([(MORE[k][0], tuple(decode(MORE[k][1]))) for k in keys])
    return dict(zip(keys, outs))


def _m(key):
    return MORE[key][0], tuple(decode(MORE[key][1]))


def test_F058_trailing_size1_mode_rejected(cpp_more):
    for key in ("tr", "tr_seed"):
        op, args = _m(key)
        assert spec.cute_composition_check(*args) is None  # the spec's model: accepted
        spec.composition(*args, sense="cute")  # and the composition exists
        out = cpp_more[key]
        assert out.kind == "raised" and "Stride Divisibility Condition" in out.message
        assert find_known("cute-cpp", op, "agreement", args, out) == "F-058"
    for key in ("tr_merged", "tr_leaf"):  # the size-1 mode merges / is absent: CuTe agrees
        op, args = _m(key)
        assert compare(op, args, spec.composition(*args, sense="cute"), cpp_more[key]).ok
        assert find_known("cute-cpp", op, "agreement", args, cpp_more[key]) is None


def test_F059_product_accepts_not_composable(cpp_more):
    op, (A, B) = _m("pn")
    with pytest.raises(spec.LayoutError) as e:
        spec.zipped_product(A, B, sense="cute")
    assert e.value.condition == "is_composable"
    comp = spec.complement(A, 350, sense="cute")
    truth = [spec.Layout(comp.shape, comp.stride)(2 * i) for i in range(4)]
    got = cpp_more["pn"].value
    second = LayoutBase(got.shape[1], got.stride[1])
    assert table(second) != truth  # CuTe's second mode is not comp ∘ B
    assert find_known("cute-cpp", op, "agreement", (A, B), cpp_more["pn"]) == "F-059"


def test_F055_normalisation_excuses_only_runtime_splits():
    """No cute-cpp needed: the F-055 comparison merges neighbours of CuTe's answer only where
    a runtime integer blocks the merge, and never merges the spec's modes."""
    from layoutcheck.oracles.known import _same_up_to_dynamic_modes as same
    P = LayoutBase.parse
    assert same(P("((4,2),1):((1,4),1)"), P("(8,_1):(1,_0)"))      # runtime split, size-1 mode
    assert same(P("((_4,_2)):((_1,_4))"), P("(_8):(_1)"))            # coalesced inside a mode
    assert not same(P("(_4,_2):(_1,_4)"), P("_8:_1"))               # static split: not excused
    assert not same(P("(4,2):(1,4)"), P("(4,2):(1,8)"))             # other function
    assert not same(P("(_16,8):(_2,_32)"), P("(128):(2)"))          # _16 _2 == _32: CuTe merges
    assert same(P("(16,8):(2,32)"), P("(128):(2)"))                 # a runtime 16: it does not
