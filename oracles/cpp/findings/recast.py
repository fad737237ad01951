"""Regions and symptoms of the CuTe C++ findings on recast, vectorization and tiling helpers
(shared with the CuTe DSL, which runs the same algebra): each symptom recomputes CuTe's own
answer with the C++ model (``oracles/cpp/model.py``).
"""

from math import gcd

import layoutcheck.oracles.cpp.model as models_cpp
import layoutcheck.spec as spec
from layoutcheck.oracles.cpp.findings.algebra import (
    cpp_not_complementable,
    has_dynamic_integer,
    product_cute_accepts_not_composable,
)
from layoutcheck.oracles.cpp.model import answer
from layoutcheck.oracles.predicates import answered, raised_with_any, region, same_as_model, symptom
from layoutcheck.oracles.regions import (
    cute_composition_check,
    recast_model,
    same_layout,
    unchecked_downcast,
    unchecked_upcast,
)
from layoutcheck.spec.division import append_to

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, leaves


@symptom
def dynamic_stride_truncated(inputs, answer, reference, op=None):
    """F-222: CuTe C++ divides a dynamic stride by N with no check (safe_div's assert is
    commented out): stride d // N, shape kept."""
    def up(L, N):
        return unchecked_upcast(L, N, dynamic_floor=True)
    want = recast_model(op, inputs, up, unchecked_downcast)
    return want is not None and same_layout(answer, want)


@region
def dynamic_stride_not_divisible(L=None, N=None, *rest):
    """F-222: a dynamic (runtime) stride that N does not divide."""
    if not isinstance(L, LayoutBase) or not isinstance(N, int):
        return False
    n = int(N) if len(rest) == 0 else None
    if n is None:  # recast_layout(L, old, new): the upcast factor
        old, new = int(N), int(rest[0])
        n = new // gcd(new, old)
    return any(not isinstance(d, C) and int(d) % n for d in leaves(L.stride))


def tile_to_shape_product(block, trg, order=None):
    """(padded block, tiler): the blocked_product inside CuTe's tile_to_shape (layout.hpp:
    blocked_product(append<R>(block), make_ordered_layout(ceil_div(target, block), order)))."""
    S = spec
    R = len(trg) if isinstance(trg, tuple) else 1
    padded = append_to(S.as_layout(block), R)
    bs = S.product_each(padded.shape if isinstance(padded.shape, tuple) else (padded.shape,))
    ts = S.product_each(trg if isinstance(trg, tuple) else (trg,))
    q = tuple(C(-(-int(t) // int(b))) for t, b in zip(ts, bs))
    return padded, S.make_ordered_layout(q, order if order is not None else tuple(C(i) for i in range(R)))


def static_inner_product(block, trg, order):
    if not isinstance(block, LayoutBase) or has_dynamic_integer(block, trg):
        return None
    try:
        return tile_to_shape_product(block, trg, order)
    except (LayoutError, TypeError, ValueError, ZeroDivisionError):
        return None


@region
def tile_to_shape_product_not_composable(block=None, trg=None, order=None, *rest):
    """F-059 (C++) / F-082 (DSL) inside tile_to_shape: every integer static, and the
    blocked_product inside is one whose composition CuTe accepts though it does not exist
    (oracles/pycute_wheel/findings/algebra.py: product_cute_accepts_not_composable)."""
    pair = static_inner_product(block, trg, order)
    return pair is not None and bool(product_cute_accepts_not_composable(*pair))


@region
def cpp_tile_to_shape_product_not_complementable(block=None, trg=None, order=None, *rest):
    """F-075 inside tile_to_shape (CuTe C++): every integer static, and the blocked_product
    inside needs a complement that does not exist in CuTe's sense, which CuTe computes
    anyway (oracles/cpp/findings/algebra.py: cpp_not_complementable)."""
    pair = static_inner_product(block, trg, order)
    return pair is not None and bool(cpp_not_complementable(*pair, op="blocked_product"))


def same_as_model_product(inputs, answer, model):
    """The answer is ``model``'s blocked_product of the pair inside tile_to_shape (CuTe's own,
    wrong, product), at the level the gate judges tile_to_shape (``same_as_model``)."""
    pair = static_inner_product(*(tuple(inputs) + (None,) * 3)[:3])
    want = None if pair is None else model("blocked_product", *pair)
    return want is not None and same_as_model("tile_to_shape", inputs, want, answer)


@symptom
def cpp_tile_to_shape_wrong_product(inputs, answer, reference):
    """CuTe C++'s product inside tile_to_shape (oracles/cpp/model.py)."""
    return same_as_model_product(inputs, answer, models_cpp.answer)


@region
def dynamic_integer_in_pair(A=None, B=None, *rest):
    """F-223: A or B holds a runtime integer."""
    return any(isinstance(L, LayoutBase) and any(not isinstance(x, C)
                                                  for x in leaves(L.shape) + leaves(L.stride))
               for L in (A, B))


@symptom
def static_identity_only(inputs, answer, reference, op=None):
    """CuTe keeps only a *static* stride-1 first mode of coalesce(A o right_inverse(B)):
    with runtime integers max_common_vector is _1 and max_common_layout _1:_0."""
    if not answered(answer):
        return False
    if op == "max_common_layout":  # _1:_0, the layout CuTe builds for the trivial vector
        return isinstance(answer.value, LayoutBase) and answer.value == LayoutBase(C(1), C(0))
    return not isinstance(answer.value, tuple) and int(answer.value) == 1


@region
def common_composition_rejected(A=None, B=None, *rest):
    """F-224: composition(A, right_inverse(B)) fails CuTe's static checks (the spec's model of
    them, or the CuTe C++ model of oracles/cpp/model.py, which also knows coalesce_x, F-058)."""
    if not (isinstance(A, LayoutBase) and isinstance(B, LayoutBase)):
        return False
    S = spec
    R = S.right_inverse(B)
    if cute_composition_check(A, R) is not None:
        return True
    out = answer("composition", A, LayoutBase(R.shape, R.stride), static=True)
    return out is not None and out.kind == "raised"


@symptom
def composition_refused(inputs, answer, reference):
    return raised_with_any(answer, "Divisibility Condition", "unable to compute the following composition")

# --- planted cases (tests/test_planted.py): each finding's answer as the oracle prints it --------
# (finding, oracle, op, argument texts, answer[, static]); recorded from the real oracle; another
# wrong answer in the region (tests/planted_support.py planted) must be new.

PLANTED = [
    ("F-224", "cute-dsl", "max_common_vector", ["((_35,_1),_1):((_0,_35),_36)", "((_50,_1)):((_1,_4))"], "raised: MLIRError: error: unknown: unable to compute the following composition: '!cute.layout<\"((35,1),1):((0,35),36)\">' o '!cute.layout<\"50:1\">'", True),
    ("F-059", "cute-cpp", "tile_to_shape", ["(_1,_3):(_2,_4)", "(_3,_6)"], "((_1,_3),(_3,_2)):((_2,_1),(_4,_3))"),
]
