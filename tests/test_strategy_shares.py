"""Cases the gate must draw in a steady share, or it misses the bugs that only they show:
Tiles with more modes than the layout (a refusal every by-mode operation owes), strided
accesses N:M into padded rows (the last element in a row's partial stride: CuTe composes it,
past the row it may refuse), and tiles sliced out of a padded matrix (size-1 modes that keep
a stride upcast must check).  Each strategy is checked for what it draws, and the checks that
use it on real mutants of the NVlabs snapshot (NV07, NV09, NV27) where the snapshot is here.
"""

from collections import Counter

import layoutcheck.fuzz.strategies.kernels as K
import layoutcheck.oracles.nvlabs.oracle as NV
import pytest
from hypothesis import given, settings
from layoutcheck.fuzz.checks.base import CheckFailed, differential, static_args
from layoutcheck.fuzz.checks.coordinates import law_underscore_tiler
from layoutcheck.fuzz.mutation.nvlabs import MUTANTS, make_mutant
from layoutcheck.fuzz.strategies.coordinates import underscore_tiler_args
from layoutcheck.fuzz.strategies.recast import sliced_tiles
from layoutcheck.oracles import get_oracle
from layoutcheck.oracles.reference import reference_for

from layoutcheck import LayoutError, spec
from layoutcheck.layout import LayoutBase, _, leaves

P = LayoutBase.parse
PKG, HOW = NV.locate()
needs_snapshot = pytest.mark.skipif(PKG is None, reason=f"NVlabs PyCuTe not here: {HOW}")


def _rank(A):
    return len(A.shape) if isinstance(A.shape, tuple) else 1


def _refusal(fn, *args):
    try:
        fn(*args)
        return None
    except LayoutError as e:
        return e.condition


@settings(max_examples=60)
@given(K.too_many_modes_args())
def test_too_many_modes_is_refused_by_every_by_mode_operation_of_the_spec(args):
    A, T = args
    assert len(T) > _rank(A)
    for op in (spec.composition, spec.logical_divide, spec.logical_product, spec.zipped_divide):
        assert _refusal(lambda a, t: op(a, t, sense="cute"), A, T) == "rank"


def test_underscore_tilers_have_too_many_modes_in_a_steady_share():
    seen = Counter()

    @settings(max_examples=300)
    @given(underscore_tiler_args())
    def draw(args):
        seen[len(args[1]) > _rank(args[0])] += 1
    draw()
    assert 25 < seen[True] < 120, seen


class _Ctx:
    def __init__(self, oracle):
        self.oracle = oracle
        self.spec = reference_for(oracle.name, get_oracle("spec"))


def test_the_underscore_law_wants_a_refusal_of_too_many_modes():
    law_underscore_tiler(_Ctx(get_oracle("spec")), (P("(4,6):(1,4)"), (2, _, 1)))


def test_strided_accesses_compose_and_sometimes_do_not():
    seen = Counter()

    @settings(max_examples=200)
    @given(K.strided_access_args())
    def draw(args):
        seen[_refusal(lambda A, B: spec.composition(A, B, sense="cute"), *args)] += 1
    draw()
    assert seen[None] > 100 and sum(v for k, v in seen.items() if k) > 0, seen
    # the last element of the row in its partial stride: 6 elements at stride 4 -> 0, 4
    assert str(spec.composition("(6,2):(1,7)", "2:4", sense="cute")) == "2:4"


def test_sliced_tiles_keep_a_stride_upcast_must_check():
    seen = Counter()

    @settings(max_examples=100)
    @given(sliced_tiles())
    def draw(L):
        odd = [d for s, d in zip(leaves(L.shape), leaves(L.stride)) if s == 1 and d % 2]
        seen[bool(odd)] += 1
        if odd:
            assert _refusal(spec.upcast, L, 2) == "divisibility"
    draw()
    assert seen[True] > 20, seen


# --- the real mutants ------------------------------------------------------------------------

@needs_snapshot
@pytest.mark.parametrize("mid, check, case", [
    ("NV09", "law", (P("(4,6):(1,4)"), (2, _, 1))),
    ("NV07", "composition", (P("(6,2):(1,7)"), P("2:4"))),
    ("NV27", "upcast", (P("(1,8):(9,1)"), 8)),
])
def test_the_checks_tell_the_mutant_from_the_snapshot(tmp_path, mid, check, case):
    snapshot = PKG.parent
    good = _Ctx(NV.NvlabsAdapter(str(snapshot)))
    bad = _Ctx(NV.NvlabsAdapter(str(make_mutant(tmp_path, dict((m[0], m) for m in MUTANTS)[mid], snapshot))))
    run = law_underscore_tiler if check == "law" else differential(check)
    case = static_args(case)
    run(good, case)
    with pytest.raises(CheckFailed):
        run(bad, case)
