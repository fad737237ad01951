"""Predicates of the findings on recast, vectorization and tiling (F-210..F-225,
F-229 in the block "swizzles, recast, tiling" of findings.toml; swizzles and composed layouts:
oracles/cpp/findings/composed.py).  Symptoms recompute what the implementation does -- CuTe's upcast /
downcast / tile_to_shape arithmetic without its checks, NVlabs PyCuTe's tie-breaking -- and
are True only when the answer is exactly that.
"""


import layoutcheck.oracles.dsl.model as dsl_model
import layoutcheck.spec as spec
from layoutcheck.oracles.cpp.findings.recast import same_as_model_product, static_inner_product
from layoutcheck.oracles.dsl.findings.algebra import dsl_not_complementable
from layoutcheck.oracles.dsl.model import zero_size_complement
from layoutcheck.oracles.predicates import answered, crashed_with, raised_with_any, region, same_as_model, symptom

from layoutcheck.composed import ComposedLayoutBase, Swizzle
from layoutcheck.errors import LayoutError
from layoutcheck.layout import LayoutBase

__all__ = ["unchecked_upcast", "unchecked_downcast"]


# --- F-210, F-211, F-220, F-222: recast without CuTe's checks --------------------------------






@region
def tile_to_shape_not_divisible(block=None, trg=None, *rest):
    """F-211: a static target whose per-mode sizes the block's do not divide."""
    if not isinstance(block, LayoutBase):
        return False
    S = spec
    try:
        S.tile_to_shape(block, trg, *rest)
    except LayoutError as e:
        return e.condition == "divisibility"
    return False


def dsl_tile_to_shape(block, trg, order=None):
    """The DSL's tile_to_shape by its model (an Outcome, or None): CuTe's
    blocked_product(append<R>(block), make_ordered_layout(ceil_div(target, block), order))
    built without the divisibility check, the product by the DSL's model
    (``oracles/dsl/model.py``: its complement computed where CuTe's does not exist)."""
    pair = static_inner_product(block, trg, order)
    return None if pair is None else dsl_model.answer("blocked_product", *pair)


@symptom
def tile_to_shape_unchecked(inputs, answer, reference):
    """The DSL's tile_to_shape recomputed (``dsl_tile_to_shape``), at the level the gate
    judges tile_to_shape."""
    return same_as_model("tile_to_shape", inputs, dsl_tile_to_shape(*inputs[:3]), answer)


@region
def tile_to_shape_zero_size_complement(block=None, trg=None, order=None, *rest):
    """F-231 (F-125 inside tile_to_shape): the complement inside its blocked_product has a
    zero-size mode (a block whose offsets overlap, or whose sorted strides interleave, e.g.
    (_2,_3):(_5,_2)), which the DSL computes on."""
    pair = static_inner_product(block, trg, order)
    try:
        return pair is not None and zero_size_complement("blocked_product", *pair)
    except (LayoutError, TypeError, ValueError, ZeroDivisionError):
        return False


@region
def dsl_tile_to_shape_product_not_complementable(block=None, trg=None, order=None, *rest):
    """F-075 inside the DSL's tile_to_shape: the blocked_product inside needs a complement
    that does not exist in CuTe's sense, which the DSL computes anyway."""
    pair = static_inner_product(block, trg, order)
    return pair is not None and bool(dsl_not_complementable(*pair, op="blocked_product"))


# --- small API conventions and bugs ------------------------------------------------------------


@symptom
def dsl_tile_to_shape_wrong_product(inputs, answer, reference):
    """The DSL's product inside tile_to_shape (its model, ``dsl_tile_to_shape``)."""
    return same_as_model_product(inputs, answer, dsl_model.answer)


@region
def leaf_layout(L=None, *rest):
    return isinstance(L, LayoutBase) and not isinstance(L.shape, tuple)


@symptom
def dsl_len_of_int(inputs, answer, reference):
    return raised_with_any(answer, "has no len()")


@symptom
def product_each_keeps_the_integer(inputs, answer, reference):
    return answered(answer) and not isinstance(answer.value, tuple) and int(answer.value) == int(inputs[0])


@region
def empty_group(L=None, b=None, e=None, *rest):
    return isinstance(b, int) and b == e


@symptom
def dsl_begin_before_end(inputs, answer, reference):
    return raised_with_any(answer, "Expected begin < end")


@region
def integer_tile_coordinate(L=None, T=None, coord=None, *rest):
    return isinstance(coord, int) and not isinstance(coord, bool)


@symptom
def dsl_wants_rest_rank_coordinate(inputs, answer, reference):
    return raised_with_any(answer, "coordinate of rank", "valid coordinate")


@region
def short_tile_tuple(Cl=None, T=None, *rest):
    """F-216: a Tile tuple with fewer entries than the inner layout's rank."""
    if not (isinstance(Cl, ComposedLayoutBase) and isinstance(T, tuple)):
        return False
    r = len(Cl.inner.shape) if isinstance(Cl.inner.shape, tuple) else 1
    return len(T) < r


@symptom
def composed_drops_untiled_modes(inputs, answer, reference):
    """The DSL composes the inner layout's first len(T) modes by mode and drops the rest
    (F-087 inside a composed layout)."""
    Cl, T = inputs[0], inputs[1]
    S = spec
    k = len(T)
    inner = Cl.inner
    head = LayoutBase(inner.shape[:k], inner.stride[:k])
    try:
        want = S.composition(head, T, sense="cute")
    except LayoutError:
        return False
    got = answer.value if answered(answer) else None
    return (isinstance(got, ComposedLayoutBase) and got.inner == want
            and got.offset == Cl.offset and _same_outer(got.outer, Cl.outer))


def _same_outer(a, b):
    """The same outer function: equal, or two identity swizzles (B = 0; the DSL prints any
    Sw<0,M,S> as its own canonical Sw<0,4,3>)."""
    if a == b:
        return True
    return all(isinstance(x, Swizzle) and x.bits == 0 for x in (a, b))


@region
def integer_tiler(Cl=None, T=None, *rest):
    return isinstance(T, int) and not isinstance(T, bool)


@symptom
def dsl_tiler_not_a_value(inputs, answer, reference):
    return raised_with_any(answer, "must be a Value")




# --- F-225 (make_layout_like), F-229: NVlabs PyCuTe's orders ---------------------------------------


@symptom
def dsl_process_sigfpe(inputs, answer, reference):
    """The DSL's worker is killed by SIGFPE on the case (F-231); another death is not this bug's."""
    return crashed_with(answer, "SIGFPE")

# --- planted cases (tests/test_planted.py): each finding's answer as the oracle prints it --------
# (finding, oracle, op, argument texts, answer[, static]); recorded from the real oracle; another
# wrong answer in the region (tests/planted_support.py planted) must be new.

PLANTED = [
    ("F-082", "cute-dsl", "tile_to_shape", ["(_11,_1):(_8,_4)", "(_33,_2,_2)"], "((_11,_3),(_1,_2),(_1,_2)):((_8,_1),(_4,_3),(_0,_6))", True),
    ("F-231", "cute-dsl", "tile_to_shape", ["(_8,_2):(_1,_2)", "(_16,_6)", "(_1,_0)"], "crashed: killed by SIGFPE on this case", True),
    ("F-231", "cute-dsl", "tile_to_shape", ["(_2,_3):(_5,_2)", "(_4,_3,_1)"], "crashed: killed by SIGFPE on this case", True),
]
