"""GPU checks, executed on the CPU: the same kernel sources built with the host shim
(g++), run over their thread indices, compared with layoutcheck.spec."""

import random

import numpy as np
import pytest
from hypothesis import given
from layoutcheck.gpu_checks import checks as K
from layoutcheck.gpu_checks import generate as G
from layoutcheck.gpu_checks.execute import HostModule
from layoutcheck.gpu_checks.kernels import MAX_RANK, CuteCase, address_source, flat_modes
from layoutcheck.gpu_checks.throughput import large_layouts, reference_offsets
from layoutcheck.spec import parse, values

from layoutcheck import LayoutError, spec
from layoutcheck.layout import LayoutBase

WORKLOAD = K.workload(seed=0, count=20, cute_count=12)  # same sources as test_gpu_compile


@pytest.fixture(scope="module")
def address():
    return HostModule(address_source())


try:
    import layoutcheck.fuzz.strategies.algebra as lst
except ImportError:  # the fuzz package is another part of the project
    lst = None


@pytest.mark.skipif(lst is None, reason="layoutcheck.fuzz.strategies.algebra not available")
def test_address_kernel_on_the_fuzz_strategies_layouts(address):
    @given(lst.layouts(max_size=256) if lst else None)
    def check(L):
        assert K._run_address(address, L).tolist() == values(L)

    check()


def _layouts(seed, n):
    rng = random.Random(seed)
    return [G.random_layout(rng) for _ in range(n)]


def test_address_kernel_matches_spec_on_generated_layouts():
    layouts = _layouts(1, 60) + [parse("(2,(2,2)):(4,(2,1))"), parse("(3,5,7):(1,1,1)"),
                                 parse("_1:_0"), parse("(8):(0)")]
    res = K.check_address(HostModule, layouts)
    assert res.ok, res.mismatches
    assert res.checked == len(layouts)


@pytest.mark.parametrize("grid,block", [(1, 1), (3, 7), (64, 32)])
def test_any_grid_computes_every_index(address, grid, block):
    L = parse("((4,3),5):((15,1),3)")
    s, d = flat_modes(L)
    out = np.full(60, -1, dtype=np.int64)
    address.launch("lc_address", 60, np.array(s), np.array(d), len(s), 60, out,
                   grid=grid, block=block)
    assert out.tolist() == values(L)


def test_sweep_one_launch_for_a_batch():
    layouts = _layouts(2, 300)
    res = K.check_sweep(HostModule, layouts)
    assert res.ok, res.mismatches
    assert res.checked == 300 and res.metrics["launches"] == 1
    assert res.metrics["addresses"] == sum(len(values(L)) for L in layouts)


def test_sweep_reports_a_planted_bug_as_a_minimal_layout():
    # LC_FAULT_DEMO reads the last coordinate of an extent-5 mode as 0: the smallest layout
    # that shows it has one mode of extent 5 and the smallest stride that is not 0.
    layouts = _layouts(3, 120) + [parse("(2,(5,3)):(1,(2,10))")]
    res = K.check_sweep(HostModule, layouts, defines=("LC_FAULT_DEMO",))
    assert res.failed >= 1
    assert res.mismatches and all(m.startswith("5:1 (minimal") for m in res.mismatches)
    res = K.check_address(HostModule, [parse("(2,5):(5,1)")], defines=("LC_FAULT_DEMO",))
    assert res.failed == 1 and "5:1" in res.mismatches[0]


def test_shrink_finds_the_smallest_failing_layout():
    def fails(L):  # "wrong" whenever a mode of extent 3 has a stride that moves
        return any(s == 3 and d != 0 for s, d in zip(*flat_modes(L)))

    assert str(G.shrink(parse("(4,(3,2)):(1,(4,12))"), fails)) == "3:1"
    assert G.shrink(parse("(4,2):(1,4)"), fails) == parse("(4,2):(1,4)")  # never fails


def test_specialised_kernels_match_spec():
    res = K.check_specialised(HostModule, WORKLOAD["special"] + _layouts(4, 10))
    assert res.ok, res.mismatches


def test_gather_scatter_copy_element_by_element():
    rng = random.Random(5)
    pairs = [G.copy_pair(rng) for _ in range(30)]
    res = K.check_movement(HostModule, pairs)
    assert res.ok, res.mismatches
    assert res.checked == 30


def test_cute_device_code_on_the_host_matches_spec():
    res = K.check_cute(HostModule, WORKLOAD["cases"])
    assert res.ok, res.mismatches
    assert res.checked == 12


def test_decode_layout_inverts_the_device_encoding():
    # (tag, value) pairs: 2 open, 3 close, 0 dynamic, 1 static
    shape = [2, 0, 1, 2, 2, 0, 0, 3, 3, 0, 3, 0]
    stride = [2, 0, 1, 1, 2, 0, 0, 2, 3, 0, 3, 0]
    desc = np.array([len(shape), len(stride), *shape, *stride])
    assert str(K.decode_layout(desc)) == "(_2,(3)):(_1,(2))"


def test_rank_bound_is_enforced():
    L = LayoutBase(tuple([1] * (MAX_RANK + 1)))
    with pytest.raises(LayoutError, match="at most 16 modes"):
        flat_modes(L)
    assert len(flat_modes(LayoutBase(tuple([1] * MAX_RANK)))[0]) == MAX_RANK


def test_reference_offsets_match_spec():
    for L in _layouts(6, 40):
        assert reference_offsets(L).tolist() == values(L)


def test_large_layouts_are_a_transpose_of_size_2k():
    for k in (12, 13, 14):
        S, D = large_layouts(k)
        vs, vd = reference_offsets(S), reference_offsets(D)
        assert len(vs) == len(vd) == 2 ** k
        assert np.array_equal(vs, np.arange(2 ** k))  # S column-major
        assert np.array_equal(np.sort(vd), np.arange(2 ** k))  # D a bijection
        assert not np.array_equal(vd, vs)


# One CuTe translation unit for the hand-picked cases below (each build costs seconds).
MAKE_LAYOUT = [CuteCase("layout", parse(t)) for t in ("(_2,(3,_4)):(12,(_1,3))", "_8:_1", "(8):(2)")]
F030 = CuteCase("composition", parse("(_3,_4):(_1,_10)"), parse("_4:_2"))
F110 = [CuteCase("composition", parse("_2:_1"), parse("_2:_1")),
        CuteCase("logical_divide", parse("_6:_52"), parse("_2:_1"))]


@pytest.fixture(scope="module")
def picked():
    return K.check_cute(HostModule, MAKE_LAYOUT + [F030] + F110)


def _about(res, case):
    return [m for m in res.mismatches + res.notes if m.startswith(str(case)) or str(case) in m]


def test_cute_make_layout_keeps_static_and_dynamic(picked):
    # check_cute compares str(R) with the input for "layout": statics must stay _N
    for case in MAKE_LAYOUT:
        assert not _about(picked, case)
    assert picked.checked == len(MAKE_LAYOUT) + 1 + len(F110)


def test_cute_kernel_reproduces_F030_wrong_static_composition(picked):
    # F-030: CuTe C++ accepts composition((_3,_4):(_1,_10), _4:_2), which the paper does not
    # define, and returns (_2,_2):(_2,_10).  The CuTe kernel source (host shim) shows it too.
    [text] = _about(picked, F030)
    assert "R = (_2,_2):(_2,_10)" in text
    want = [values(F030.a)[b] for b in values(F030.b)]  # A(B(i)) by the spec: [0, 2, 11, 20]
    assert f"got 10, spec {want[2]}" in text
    assert picked.failed == 1 or "known finding F-030" in text
    with pytest.raises(LayoutError):
        spec.composition(F030.a, F030.b)  # the paper's composition does not exist


def test_F110_cute_and_spec_both_keep_static_results(picked):
    # F-110 (resolved): with every input static, CuTe's device code and the spec both return
    # static integers, so the CuTe kernel check has nothing to note about these cases.
    for case, cute_text in zip(F110, ("_2:_1", "(_2,_3):(_52,_104)")):
        assert _about(picked, case) == []
        assert str(getattr(spec, case.op)(case.a, case.b)) == cute_text


