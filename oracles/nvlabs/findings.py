"""Predicates of the NVlabs PyCuTe findings (``oracles = ["nvlabs"]`` in findings.toml).

Each finding's match names a *region* predicate (``when``: ``fn(*inputs) -> bool``) and a
*symptom* predicate (``answer``: ``fn(inputs, answer, reference) -> bool``, ``answer`` being
PyCuTe's ``Outcome``), per DESIGN.md "Answer-precise findings".  A symptom predicate is True
only when the answer is exactly what that bug or convention produces: the layout it
recomputes (``oracles/nvlabs/model.py``: the spec's composition plus the steps PyCuTe
documents, the faulty step of a bug included), or the exception PyCuTe documents for it.
A region predicate says which step differs from CuTe's reading on these inputs, so a
symptom shared by several findings (``nvlabs_answer_is_model``) is attributed by region.
"""

from layoutcheck.oracles.nvlabs.model import (
    as_layout,
    chain,
    coalesce_model,
    cute_coalesce_pairs,
    divisor_pair,
    extended,
    is_underscore,
    leaf_sums,
    mk,
    modes_of,
    nv_complement,
    nv_complement_answer,
    nv_complement_zero_target,
    nv_left_inverse,
    nv_model,
    nv_walk,
    pairs_layout,
    rank_of,
    size_of,
    table,
    walk_of,
)
from layoutcheck.oracles.predicates import answered, raised_with_any, region, same_as_model, symptom

from layoutcheck.layout import LayoutBase, congruent, leaves

__all__ = []


def _raised(answer, *fragments):
    """The answer is PyCuTe's ValueError whose message holds every fragment."""
    if answer is None or getattr(answer, "kind", None) != "raised":
        return False
    msg = answer.message
    return msg.startswith("ValueError") and all(f.lower() in msg.lower() for f in fragments)


def _agrees(op, inputs, model, answer):
    """``answer`` is ``model``'s at the level the gate judges ``op`` at (same_as_model)."""
    return same_as_model(op, inputs, model, answer)


def _is_layout(answer, model):
    """``answer`` is the layout ``model``, shape and stride as PyCuTe builds them."""
    return model is not None and answered(answer) and isinstance(answer.value, LayoutBase) and \
        answer.value == model and _nesting(answer.value.shape) == _nesting(model.shape)


def _nesting(t):
    return tuple(_nesting(e) for e in t) if isinstance(t, tuple) else None


# --- conventions --------------------------------------------------------------------------

@region
def nvlabs_tiler_names_fewer_modes(A=None, T=None, *rest):
    """composition(A, T) with a Tile tuple naming fewer modes than A has."""
    return (isinstance(A, LayoutBase) and isinstance(T, tuple) and len(T) < rank_of(A))


@region
def nvlabs_ranks_differ(A=None, B=None, *rest):
    """blocked/raked_product(A, B) with rank(A) != rank(B)."""
    return isinstance(A, LayoutBase) and isinstance(B, LayoutBase) and rank_of(A) != rank_of(B)


@symptom
def nvlabs_answer_rank_mismatch(inputs, answer, reference=None):
    """PyCuTe raises its documented ValueError 'Rank mismatch'."""
    return _raised(answer, "rank mismatch")


@region
def nvlabs_not_injective(L=None, *rest):
    """L has a flat mode of size > 1 and stride 0, so it is not injective and has no left
    inverse (the spec refuses); PyCuTe's walk skips such modes."""
    return isinstance(L, LayoutBase) and any(
        int(s) > 1 and int(d) == 0 for s, d in zip(leaves(L.shape), leaves(L.stride)))


@symptom
def nvlabs_answer_generalized_left_inverse(inputs, answer, reference=None):
    """PyCuTe's documented generalized left inverse, recomputed (``nv_left_inverse``: its
    stride walk skips the stride-0 modes), layout for layout."""
    return _is_layout(answer, nv_left_inverse(inputs[0]))


@region
def nvlabs_complement_not_divisible(L=None, N=None, *rest):
    """PyCuTe's complement precondition holds (sorted by stride, each non-zero stride at
    least the previous mode's end), but the chain is not divisible (an end does not divide
    the next stride), so no complement tiles: the spec refuses, PyCuTe documents a weak one."""
    if not isinstance(L, LayoutBase):
        return False
    links = chain(L)
    if links is None:
        return False
    ends = [s * d for s, d in links]
    return any(d % e for e, (s, d) in zip(ends, links[1:]))


@symptom
def nvlabs_answer_weak_complement(inputs, answer, reference=None):
    """PyCuTe's documented weak complement, recomputed (``nv_complement_answer``: each gap of
    the non-divisible chain floored), layout for layout."""
    N = inputs[1] if len(inputs) > 1 else None
    return _is_layout(answer, nv_complement_answer(inputs[0], N))


@symptom
def nvlabs_answer_complement_zero_target(inputs, answer, reference=None):
    """F-261: PyCuTe answers ``complement(L, 0)`` with ``nv_complement_zero_target(L)``."""
    return _is_layout(answer, nv_complement_zero_target(inputs[0]))


@region
def nvlabs_coalesce_size_one(L=None, profile=None, *rest):
    """coalesce(L[, profile]) where a (sub)layout to coalesce has size 1 and its last flat
    mode a non-zero stride: PyCuTe keeps that stride, CuTe C++ gives 1:0."""
    if not isinstance(L, LayoutBase):
        return False
    if isinstance(profile, tuple):
        modes = modes_of(L)
        return any(nvlabs_coalesce_size_one(m, p) for m, p in zip(modes, profile) if p is not None)
    ds = leaves(L.stride)
    return size_of(L) == 1 and bool(ds) and int(ds[-1]) != 0


@symptom
def nvlabs_answer_size_one_keeps_stride(inputs, answer, reference=None):
    """PyCuTe's coalesce answer is the model above, structure for structure."""
    L = inputs[0]
    profile = inputs[1] if len(inputs) > 1 else None
    model = coalesce_model(L, profile)
    return answered(answer) and model is not None and answer.value == model


def _model_agrees(op, inputs, answer):
    return _agrees(op, inputs, nv_model(op, inputs[0], inputs[1]), answer)


@region
def nvlabs_composition_walk_fails(A=None, B=None, *rest):
    """composition(A, B) fails PyCuTe's divisibility walk for some leaf of B."""
    return walk_of(A, B) is not None


@region
def nvlabs_divide_walk_fails(A=None, T=None, *rest):
    """logical_divide(A, T): the inner composition A ∘ (T, T*) fails PyCuTe's walk (T* its
    complement of T extended over shape(A)); a Tile tuple mode by mode."""
    if isinstance(T, tuple):
        return any(nvlabs_divide_walk_fails(a, t) for a, t in zip(modes_of(A), T) if not is_underscore(t))
    B = as_layout(T)
    if not isinstance(A, LayoutBase) or not isinstance(B, LayoutBase):
        return False
    C = nv_complement(B, A.shape)
    return C is not None and walk_of(A, mk([B, pairs_layout(C)])) is not None


@region
def nvlabs_product_walk_fails(A=None, T=None, *rest):
    """logical_product(A, T): the inner composition complement(A) ∘ T fails PyCuTe's walk
    (complement(A) the minimal one, with its trailing 1:e mode); a Tile tuple mode by mode."""
    if isinstance(T, tuple):
        return any(nvlabs_product_walk_fails(a, t) for a, t in zip(modes_of(A), T) if not is_underscore(t))
    if not isinstance(A, LayoutBase):
        return False
    C = nv_complement(A)
    return C is not None and walk_of(pairs_layout(C), as_layout(T)) is not None


def _walk_condition(op, A, T):
    """The condition ("stride" / "shape") PyCuTe's divisibility walk reports on the
    composition inside ``op(A, T)``, leaf by leaf in PyCuTe's order (a Tile tuple mode by
    mode), or None where it composes."""
    if isinstance(T, tuple):
        for a, t in zip(modes_of(A), T):
            w = None if is_underscore(t) else _walk_condition(op, a, t)
            if w:
                return w
        return None
    if op == "composition":
        return walk_of(A, T)
    if op.endswith("_divide"):
        inner = divisor_pair(A, T)
        return None if inner is None else walk_of(A, inner)
    if op.endswith("_product") and isinstance(A, LayoutBase):
        C = nv_complement(A)
        return None if C is None else walk_of(pairs_layout(C), as_layout(T))
    return None


@symptom
def nvlabs_answer_divisibility_error(inputs, answer, reference=None, op=None):
    """PyCuTe raises its documented ValueError '<Stride|Shape> divisibility condition
    violated', the condition its walk reports on the first leaf that fails (``walk_of``)."""
    cond = _walk_condition(op or "composition", inputs[0], inputs[1] if len(inputs) > 1 else None)
    return cond is not None and _raised(answer, f"{cond} divisibility condition violated")


@region
def nvlabs_beyond_size(A=None, T=None, *rest):
    """composition(A, B): B's image reaches past size(A), where PyCuTe evaluates A by its
    own last flat mode and CuTe's reading by coalesce(A)'s, and the two differ there."""
    if not isinstance(A, LayoutBase):
        return False
    if isinstance(T, tuple):
        return any(nvlabs_beyond_size(a, t) for a, t in zip(modes_of(A), T) if not is_underscore(t))
    B = as_layout(T)
    if not isinstance(B, LayoutBase) or size_of(A) == 0:
        return False
    image = [v for v in table(B) if v >= size_of(A)]
    cA = pairs_layout(cute_coalesce_pairs(A))
    return any(extended(A, v) != extended(cA, v) for v in image)


@symptom
def nvlabs_answer_is_model(inputs, answer, reference=None, op=None):
    """PyCuTe's answer is ``nv_model(op, A, T)`` (at the level ``op`` requires) and not the
    reference's: what the finding's step (its region) makes PyCuTe do."""
    if reference is not None and getattr(reference, "kind", None) == "ok" and \
            _agrees(op, inputs, reference.value, answer):
        return False
    return _model_agrees(op, inputs, answer)


@region
def nvlabs_leaves_carry(A=None, B=None, *rest):
    """composition(A, B) of a layout B with several leaves, each composing with A alone
    (PyCuTe's walk passes), whose images do not add inside A: A(B(i)) differs from the sum
    of A at each leaf's part of B(i) for some i (A evaluated as PyCuTe does)."""
    if not isinstance(A, LayoutBase) or not isinstance(B, LayoutBase) or not isinstance(B.shape, tuple):
        return False
    if walk_of(A, B) is not None:
        return False
    return any(whole != parts for whole, parts in leaf_sums(A, B))


@region
def nvlabs_divide_leaves_carry(A=None, T=None, *rest):
    """logical_divide(A, T): the inner composition A ∘ (T, T*) carries (as above)."""
    if isinstance(T, tuple):
        return any(nvlabs_divide_leaves_carry(a, t) for a, t in zip(modes_of(A), T) if not is_underscore(t))
    inner = divisor_pair(A, T)
    return inner is not None and nvlabs_leaves_carry(A, inner)


@region
def nvlabs_product_leaves_carry(A=None, T=None, *rest):
    """logical_product(A, T): the inner composition complement(A) ∘ T carries (as above;
    complement(A) the minimal one with its trailing 1:e mode)."""
    if isinstance(T, tuple):
        return any(nvlabs_product_leaves_carry(a, t) for a, t in zip(modes_of(A), T) if not is_underscore(t))
    B = as_layout(T)
    if not isinstance(A, LayoutBase) or not isinstance(B, LayoutBase):
        return False
    C = nv_complement(A)
    return C is not None and nvlabs_leaves_carry(pairs_layout(C), B)


@region
def nvlabs_divide_beyond_size(A=None, T=None, *rest):
    """logical_divide(A, T): the inner composition A ∘ (T, T*) reaches past size(A), where
    PyCuTe's evaluation of A differs from coalesce(A)'s (F-146 inside a divide)."""
    if isinstance(T, tuple):
        return any(nvlabs_divide_beyond_size(a, t) for a, t in zip(modes_of(A), T) if not is_underscore(t))
    inner = divisor_pair(A, T)
    return inner is not None and nvlabs_beyond_size(A, inner)


@region
def nvlabs_grid_splits_mode(A=None, B=None, *rest):
    """blocked/raked_product(A, B) with rank(A) == rank(B), where a leaf mode of B composes
    with PyCuTe's complement(A) across several of its modes (so the grid complement(A) ∘ B
    has more top-level modes than B, and pairing tile and grid modes one to one leaves some
    out)."""
    if not isinstance(A, LayoutBase) or not isinstance(B, LayoutBase) or rank_of(A) != rank_of(B):
        return False
    C = nv_complement(A)
    if C is None:
        return False
    C = pairs_layout(C)
    walks = [nv_walk(C, int(b.shape), int(b.stride)) for b in modes_of(B) if not isinstance(b.shape, tuple)]
    return any(cond is None and spans > 1 for cond, spans in walks)


@region
def nvlabs_bare_underscore(L=None, c=None, *rest):
    """slice_ / slice_and_offset of L by the coordinate ``_`` itself (keep the whole layout)."""
    return is_underscore(c) and c is not None


@symptom
def nvlabs_answer_wrapped_layout(inputs, answer, reference=None, op=None):
    """PyCuTe's slice collects the kept modes in a tuple: ``_`` gives L as its one mode,
    ((shape)):((stride)); slice_and_offset pairs it with the offset 0."""
    if not answered(answer):
        return False
    L = inputs[0]
    wrapped = LayoutBase((L.shape,), (L.stride,))
    return answer.value == ((wrapped, 0) if op == "slice_and_offset" else wrapped)


def _holds_underscore(x):
    if isinstance(x, tuple):
        return any(_holds_underscore(e) for e in x)
    return x is not None and is_underscore(x)


@region
def nvlabs_tiler_holds_underscore(A=None, T=None, *rest):
    """The Tile tuple holds ``_`` (PyCuTe's None) at some depth."""
    return isinstance(T, tuple) and _holds_underscore(T)


@symptom
def nvlabs_answer_tiler_type_error(inputs, answer, reference=None):
    """PyCuTe's tiler_to_layout refuses a None leaf: TypeError 'tiler_to_layout(None, ...)'."""
    return answer is not None and answer.kind == "raised" and \
        answer.message.startswith("TypeError: tiler_to_layout(None,")


@region
def nvlabs_coordinate_holds_underscore(c=None, *rest):
    """crd2idx's coordinate holds ``_`` (PyCuTe's None slice-marker)."""
    return _holds_underscore(c)


@symptom
def nvlabs_answer_none_arithmetic(inputs, answer, reference=None):
    """PyCuTe's crd2idx multiplies the None: TypeError 'unsupported operand type(s) ...
    NoneType'."""
    return answer is not None and answer.kind == "raised" and \
        answer.message.startswith("TypeError: unsupported operand type(s)") and "NoneType" in answer.message


@region
def nvlabs_divide_extends_by_leaf(A=None, T=None, *rest):
    """logical_divide(A, T): PyCuTe's complement of T extended over shape(A) leaf by leaf
    has a different size than the complement CuTe extends to size(A) (shape(A) has several
    leaves); a Tile tuple mode by mode."""
    if isinstance(T, tuple):
        return any(nvlabs_divide_extends_by_leaf(a, t) for a, t in zip(modes_of(A), T) if not is_underscore(t))
    B = as_layout(T)
    if not isinstance(A, LayoutBase) or not isinstance(B, LayoutBase):
        return False
    leafwise, whole = nv_complement(B, A.shape), nv_complement(B, size_of(A))
    if leafwise is None:
        return False
    return size_of(pairs_layout(leafwise)) != size_of(pairs_layout(whole))


@region
def nvlabs_divisor_not_divisible(A=None, T=None, *rest):
    """logical_divide(A, T) with a divisor whose stride chain is not divisible (PyCuTe's
    complement is then its weak one, which does not tile); a Tile tuple mode by mode."""
    if isinstance(T, tuple):
        return any(nvlabs_divisor_not_divisible(a, t) for a, t in zip(modes_of(A), T) if not is_underscore(t))
    B = as_layout(T)
    return isinstance(B, LayoutBase) and nvlabs_complement_not_divisible(B)


@region
def nvlabs_size_one_leaf(A=None, T=None, *rest):
    """composition / divide / product whose tiler has a size-1 leaf with a non-zero stride
    (PyCuTe composes it as 1:A(M) where the spec gives 1:0)."""
    if isinstance(T, tuple):
        return any(nvlabs_size_one_leaf(None, t) for t in T)
    B = as_layout(T)
    return isinstance(B, LayoutBase) and any(
        int(s) == 1 and int(d) != 0 for s, d in zip(leaves(B.shape), leaves(B.stride)))


@symptom
def nvlabs_answer_keeps_size_one_stride(inputs, answer, reference=None, op=None):
    """PyCuTe's answer has the reference's function (the level ``op`` requires) and is,
    structure for structure, ``nv_model`` (size-1 leaves of B composed as 1:A(M))."""
    if not answered(answer) or reference is None or getattr(reference, "kind", None) != "ok":
        return False
    if not _agrees(op, inputs, reference.value, answer):
        return False
    return answer.value == nv_model(op, inputs[0], inputs[1])


@symptom
def product_each_not_iterable(inputs, answer, reference):
    return raised_with_any(answer, "not iterable")


@region
def tied_static_orders(shape=None, order=None, *rest):
    flat = leaves(order) if isinstance(order, tuple) else (order,)
    vals = [int(o) for o in flat]
    return len(set(vals)) != len(vals)


def _unflatten(flat, like):
    """``flat`` (leaf values) nested as the IntTuple ``like``."""
    it = iter(flat)

    def go(t):
        return tuple(go(e) for e in t) if isinstance(t, tuple) else next(it)
    return go(like)


def _compact_by(shape, keys, skip=()):
    """PyCuTe's make_ordered_layout / make_layout_like loop (layout.py): the flat modes in
    stable order of ``keys``; each gets the running product as its stride (size-1 modes
    included, the running product then unchanged), except the positions in ``skip`` (stride 0)."""
    flat_s = [int(x) for x in leaves(shape)]
    out, run = [0] * len(flat_s), 1
    for i in sorted(range(len(flat_s)), key=lambda i: keys[i]):
        if i in skip:
            continue
        out[i] = run
        run *= flat_s[i]
    return LayoutBase(shape, _unflatten(out, shape))


@symptom
def ties_broken_by_position(inputs, answer, reference):
    """NVlabs PyCuTe: equal orders are laid out left to right (its docstring's
    (0,2,3,0) -> (1,4,12,2)), where CuTe starts them at the same stride; recomputed as its
    make_ordered_layout loop does it (a size-1 mode takes the running stride too)."""
    shape, order = inputs[0], inputs[1]
    keys = [int(o) for o in leaves(order)] if isinstance(order, tuple) else [int(order)]
    if len(keys) != len(leaves(shape)):
        return False
    return _is_layout(answer, _compact_by(shape, keys))


@region
def tied_static_strides(L=None, *rest):
    """F-225: two non-zero static strides of L are equal (CuTe orders them as tied)."""
    if not isinstance(L, LayoutBase):
        return False
    d = [int(x) for x in leaves(L.stride) if int(x) != 0]
    return len(set(d)) != len(d)


@symptom
def like_ties_broken_by_position(inputs, answer, reference):
    """NVlabs: the flat modes in stable order of their strides get compact strides (a size-1
    mode the running stride, though its docstring says 0), stride-0 modes stay 0 (its
    make_layout_like loop)."""
    L = inputs[0]
    d = [int(x) for x in leaves(L.stride)]
    return _is_layout(answer, _compact_by(L.shape, d, skip={i for i, x in enumerate(d) if x == 0}))


@region
def order_coarser_than_shape(shape=None, order=None, *rest):
    """F-229: the order's profile is coarser than the shape's (CuTe's weak congruence)."""
    return order is not None and not congruent(shape, order)


@symptom
def nvlabs_wants_congruent_order(inputs, answer, reference):
    return raised_with_any(answer, "not congruent")
