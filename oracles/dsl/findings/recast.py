"""Predicates of the findings on recast, vectorization and tiling (F-210..F-225,
F-229 in the block "swizzles, recast, tiling" of findings.toml; swizzles and composed layouts:
oracles/cpp/findings/composed.py).  Symptoms recompute what the implementation does -- CuTe's upcast /
downcast / tile_to_shape arithmetic without its checks, NVlabs PyCuTe's tie-breaking -- and
are True only when the answer is exactly that.
"""


import layoutcheck.oracles.cpp.model as M
import layoutcheck.oracles.dsl.model as dsl_model
import layoutcheck.spec as spec
from layoutcheck.oracles.cpp.findings.recast import same_as_model_product
from layoutcheck.oracles.predicates import answered, raised_with_any, region, symptom
from layoutcheck.oracles.regions import function_values
from layoutcheck.spec.division import append_to

from layoutcheck.composed import ComposedLayoutBase, Swizzle
from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, size

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


@symptom
def tile_to_shape_unchecked(inputs, answer, reference):
    """blocked_product(block, make_ordered_layout(ceil_div(target, block), order)) built
    without the divisibility check."""
    S = spec
    block, trg = inputs[0], inputs[1]
    order = inputs[2] if len(inputs) > 2 else None
    R = len(trg) if isinstance(trg, tuple) else 1
    padded = append_to(S.as_layout(block), R)
    bs = S.product_each(padded.shape if isinstance(padded.shape, tuple) else (padded.shape,))
    ts = S.product_each(trg)
    q = tuple(C(-(-int(t) // int(b))) for t, b in zip(ts, bs))
    tiler = S.make_ordered_layout(q, order if order is not None else tuple(C(i) for i in range(R)))
    want = S.blocked_product(padded, tiler, sense="cute")
    return answered(answer) and isinstance(answer.value, LayoutBase) and function_values(answer.value) == function_values(want) \
        and size(answer.value.shape) == size(want.shape)


# --- small API conventions and bugs ------------------------------------------------------------


@symptom
def dsl_tile_to_shape_wrong_product(inputs, answer, reference):
    """The DSL's product inside tile_to_shape (oracles/dsl/findings/algebra.py's model)."""
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


@region
def non_injective_block(block=None, *rest):
    """F-231: the tile_to_shape block is not injective (its offsets overlap)."""
    if not isinstance(block, LayoutBase):
        return False
    v = spec.values(block)
    return len(set(v)) != len(v)


@region
def tile_block_complement_zero(block=None, target=None, *rest):
    """F-231: the complement of the block inside tile_to_shape's blocked_product (in
    size(target)) has a zero-size mode: the block's offsets overlap, or it is injective but
    leaves no room between its modes (as F-125 inside the products)."""
    if non_injective_block(block):
        return True
    if not isinstance(block, LayoutBase) or target is None:
        return False
    try:
        n = C(int(spec.size(LayoutBase(target))))
        r = M.checked(M.complement, M.to_model(dsl_model.all_static(block)), n, injective_check=False, dsl=True)
    except Exception:  # noqa: BLE001 - a block the model cannot complement: not this region
        return False
    return any(int(x) == 0 for x in M.flat_leaves(r.shape))


@symptom
def dsl_process_died_tile(inputs, answer, reference):
    """The DSL dies (SIGFPE): a crash, always an error at a gate; named so that the campaign
    steers away from the region."""
    return answer is not None and answer.kind == "crashed"
