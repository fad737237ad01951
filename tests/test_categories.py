"""Section 3 of the paper: the categories Tuple and Nest (``layoutcheck.spec.categories``).

Three kinds of test: the validation of morphisms; the numbered examples of section 3 that
print values (each cites its number; values typed from the paper, or derived by hand from
the printed layout where the paper shows the morphism only as a picture, as said there);
and the theorems A-F and the other compatibility results as properties over every small
morphism of standard form (enumerated) and over hypothesis-generated morphisms, checked
against the layout algebra of sections 2.1-2.3 (``layoutcheck.spec``).
"""

import random

import layoutcheck.spec as spec
import pytest
from hypothesis import given
from hypothesis import strategies as st
from layoutcheck.spec import categories as K
from layoutcheck.spec import theorems as TH
from layoutcheck.spec.categories import morphism

from layoutcheck import LayoutError

P = spec.parse


def needs(*names):
    """Skip when a layout-algebra function of layoutcheck.spec is still missing."""
    missing = [n for n in names if not hasattr(spec, n)]
    return pytest.mark.skipif(bool(missing), reason=f"layoutcheck.spec lacks {missing}")


# --- strategies ----------------------------------------------------------------------------

@st.composite
def nestings(draw, xs):
    """A nested tuple whose flattening is the flat tuple xs."""
    xs = tuple(xs)
    if len(xs) <= 1 or draw(st.booleans()):
        return xs
    cuts = sorted(draw(st.sets(st.integers(1, len(xs) - 1), min_size=1)))
    parts, prev = [], 0
    for c in cuts + [len(xs)]:
        part = xs[prev:c]
        parts.append(part[0] if len(part) == 1 and draw(st.booleans()) else draw(nestings(part)))
        prev = c
    return tuple(parts)


@st.composite
def morphisms_into(draw, V, injective=False, non_degenerate=True, max_extra=2):
    """Any morphism with codomain V: a subset of V's entries in any order, entries sent to *."""
    t = spec.flatten(V)
    allowed = [j for j in range(1, len(t) + 1) if t[j - 1] != 1 or not non_degenerate]
    hit = draw(st.permutations(allowed))[:draw(st.integers(0, len(allowed)))]
    extra = [] if injective else draw(st.lists(st.sampled_from((1, 2, 3)), max_size=max_extra))
    S = [t[j - 1] for j in hit] + extra
    a = list(hit) + [None] * len(extra)
    order = draw(st.permutations(range(len(S))))
    S, a = [S[i] for i in order], [a[i] for i in order]
    return morphism(draw(nestings(S)), V, tuple(a))


@st.composite
def any_morphisms(draw, **kw):
    """Any nested tuple morphism, degenerate ones included (codomain entries 1..4)."""
    t = tuple(draw(st.lists(st.sampled_from((1, 2, 3, 4)), max_size=4)))
    return draw(morphisms_into(draw(nestings(t)), **kw))


@st.composite
def standard_morphisms(draw, **kw):
    """A non-degenerate nested morphism of standard form."""
    return TH.random_standard_morphism(random.Random(draw(st.integers(0, 2**32))), **kw)


def small(f):
    return spec.size(f.domain) <= 1024 and spec.size(f.codomain) <= 1024


# --- validation (Def 3.1.1.9, 3.1.1.13) --------------------------------------------------------

@pytest.mark.parametrize("dom, cod, alpha, condition", [
    ((2, 3), (2, 3), (1,), "alpha_length"),
    ((2,), (2, 3), (3,), "alpha_in_range"),
    ((2, 2), (2, 2), (1, 1), "is_tractable_map"),
    ((2, 3), (3, 2), (1, 2), "shape_condition"),
    ((2, 0), (2,), (1, None), None),
])
def test_morphism_validation_names_the_condition(dom, cod, alpha, condition):
    with pytest.raises(LayoutError) as e:
        morphism(dom, cod, alpha)
    assert e.value.condition == condition


def test_the_class_validates_too():
    with pytest.raises(LayoutError) as e:
        K.Morphism((2, 3), (3, 2), (1, 2))
    assert e.value.condition == "shape_condition"
    assert K.Morphism((2,), (2,), ("*",)).alpha == (None,)


def test_composition_needs_matching_objects():
    f = morphism((2,), (2, 3), (1,))
    with pytest.raises(LayoutError) as e:
        K.compose(f, f)
    assert e.value.condition == "is_composable_morphisms"


def test_standard_representation_refuses_non_tractable():
    # Example 2.3.10.8: ((8,8),(5,5)):((8,1),(10,2)) is not tractable
    with pytest.raises(LayoutError) as e:
        K.standard_representation(P("((8,8),(5,5)):((8,1),(10,2))"))
    assert e.value.condition == "is_tractable"


# --- the examples of section 3 ---------------------------------------------------------------

@pytest.mark.parametrize("number, dom, cod, alpha, layout", [
    ("3.1.2.2", (3, 128, 128), (3, 2, 128, 2, 128), (1, 3, 5), "(3,128,128):(1,6,1536)"),
    ("3.1.2.3", (3, 128, 128), (128, 128), (None, 2, 1), "(3,128,128):(0,128,1)"),
    ("3.1.2.4", (16, 16, 16, 1, 32), (16, 32, 1, 1), (None, None, 1, None, 2),
     "(16,16,16,1,32):(0,0,1,0,16)"),
    ("3.1.3.1", (2, 2, 2, 4, 4), (2, 2, 2, 4, 4), (1, 2, 3, 4, 5), "(2,2,2,4,4):(1,2,4,8,32)"),
    # 3.1.3.2: alpha read off the picture (codomain bottom-up (2,2,4,4,2))
    ("3.1.3.2", (2, 2, 2, 4, 4), (2, 2, 4, 4, 2), (2, 1, 5, 3, 4), "(2,2,2,4,4):(2,1,64,4,16)"),
    ("3.1.3.4", (64, 64, 3, 8), (64, 3), (1, None, 2, None), "(64,64,3,8):(1,0,64,0)"),
    ("3.1.3.5", (512, 512), (2, 512, 4, 512), (2, 4), "(512,512):(2,4096)"),
    ("3.1.3.6", (4, 4), (4, 4, 8, 8), (1, 2), "(4,4):(1,4)"),
    ("3.2.2.3", ((8, 8), (4, 4)), (8, 4, 4, 8), (1, 4, 3, 2), "((8,8),(4,4)):((1,128),(32,8))"),
    ("3.2.2.4", (128, (4, 4, 2)), ((4, 4), 128), (3, 1, 2, None), "(128,(4,4,2)):(16,(1,4,0))"),
])
def test_encoded_layout_examples(number, dom, cod, alpha, layout):
    assert K.encoded_layout(morphism(dom, cod, alpha)) == P(layout), number


def test_example_3_1_3_2_is_an_isomorphism_and_compact():
    f = morphism((2, 2, 2, 4, 4), (2, 2, 4, 4, 2), (2, 1, 5, 3, 4))
    assert K.is_isomorphism(f)
    assert sorted(spec.values(K.encoded_layout(f))) == list(range(128))


@pytest.mark.parametrize("number, layout, dom, cod, alpha", [
    ("3.2.2.7", "(32,(2,2)):(192,(24,3))", (32, (2, 2)), (3, 2, 4, 2, 4, 32), (6, 4, 2)),
    # Remark 3.1.2.11: f is the standard-form one; its picture shows codomain (14,4,4,25,4)
    ("3.1.2.11", "(4,4,4):(14,56,5600)", (4, 4, 4), (14, 4, 4, 25, 4), (2, 3, 5)),
])
def test_standard_representation_examples(number, layout, dom, cod, alpha):
    f = K.standard_representation(P(layout))
    assert f == morphism(dom, cod, alpha), number
    assert K.is_standard_form(f)


def test_example_3_1_3_7_restriction_and_3_1_3_8_entry():
    # f read off the printed L_f = (2,16,8,4):(0,8,1,128)
    f = morphism((2, 16, 8, 4), (8, 16, 4), (None, 2, 1, 3))
    assert K.encoded_layout(f) == P("(2,16,8,4):(0,8,1,128)")
    assert K.encoded_layout(K.restrict_morphism(f, {2, 4})) == P("(16,4):(8,128)")
    assert K.encoded_layout(K.entry_morphism(f, 4)) == P("4:128")   # printed (4):(128)


def test_examples_3_1_4_2_and_3_1_4_3_the_functor_F():
    f = morphism((4, 4), (4, 4, 4), (1, 3))
    assert all(K.F_map(f, (a, b)) == (a, 0, b) for a in range(4) for b in range(4))
    g = morphism((3, 256, 256, 512), (3, 256, 256), (None, 3, 2, None))
    assert K.F_map(g, (2, 7, 9, 100)) == (0, 9, 7)


def test_example_3_1_3_6_expansion_keeps_the_layout():
    f = morphism((2, 4), (4, 2), (2, 1))
    e = K.expansion((4, 2), (4, 2, 8))
    assert K.encoded_layout(K.compose(e, f)) == K.encoded_layout(f)


def test_remark_3_1_5_19_sort_is_not_functorial():
    f = morphism((25, 10), (10, 25), (2, 1))
    g = morphism((10, 25), (25, 10), (2, 1))
    assert K.compose(g, f) == K.identity((25, 10))
    assert K.sort_morphism(f) == morphism((10, 25), (10, 25), (1, 2))
    assert K.sort_morphism(g) == morphism((25, 10), (25, 10), (1, 2))
    assert not K.is_composable_morphisms(K.sort_morphism(f), K.sort_morphism(g))


def test_examples_3_2_1_3_nested_morphisms_are_valid():
    morphism((64, (8, 8)), (64, 8, 8), (1, 2, 3))
    morphism(((2, 2), 2), (10, 2, 2, (3, 2, 3)), (None, 5, 2))
    morphism(64, ((64, 64), 512), (2,))


def test_examples_3_2_1_5_and_3_2_1_6_inclusions():
    S = (64, (8, 8))
    assert K.entry_morphism(K.identity(S), 1) == morphism(64, S, (1,))
    assert K.mode_morphism(K.identity(S), 2) == morphism((8, 8), S, (2, 3))


def test_examples_3_2_2_11_and_3_2_2_12_standard_form():
    assert K.is_standard_form(morphism(((2, 2), (3, 3)), (10, 3, 3, 2, 10, 2), (4, 6, 2, 3)))
    nested_codomain = ((10, 3, 3), (2, 10, 2))
    assert not K.is_standard_form(morphism(((2, 2), (3, 3)), nested_codomain, (4, 6, 2, 3)))


def test_examples_3_2_5_2_and_3_2_5_4_relative_modes():
    S, Sp = (4, (9, 25)), ((2, 2), ((3, 3), 25))
    assert K.relative_inclusion(Sp, S, 2) == morphism((3, 3), Sp, (3, 4))
    fp = morphism(Sp, (2, 3, 2, 25), (1, 3, 2, None, 4))
    assert K.relative_mode_morphism(fp, S, 2) == morphism((3, 3), (2, 3, 2, 25), (2, None))


def test_example_3_2_5_6_pullback():
    f = morphism((64, 32), (4, 64, 4, 32), (2, 4))
    Tp = ((2, 2), (16, 4), (2, 2), (16, 2))
    assert K.pullback(f, Tp) == morphism(((16, 4), (16, 2)), Tp, (3, 4, 7, 8))


def test_example_3_2_5_13_pushforward():
    f = morphism((64, 32), (4, 64, 4, 32), (2, 4))
    assert K.pushforward(f, ((16, 4), (16, 2))) == morphism(
        ((16, 4), (16, 2)), (4, (16, 4), 4, (16, 2)), (2, 3, 5, 6))


def test_examples_3_2_6_2_to_3_2_6_7_concatenation():
    T = (2, 512, 2, 512)
    fg = K.nest_morphisms(morphism((3, (512, 512)), T, (None, 2, 4)), morphism((2, 2), T, (1, 3)))
    assert fg == morphism(((3, (512, 512)), (2, 2)), T, (None, 2, 4, 1, 3))          # 3.2.6.5
    T = (32, (2, 2, 2), 64)
    fg = K.nest_morphisms(morphism((2, (32, 64)), T, (3, 1, 5)), morphism(((2, 2),), T, (2, 4)))
    assert fg == morphism(((2, (32, 64)), ((2, 2),)), T, (3, 1, 5, 2, 4))            # 3.2.6.6
    T = (2, 3, 5, 2, 3, 5)
    fgh = K.nest_morphisms(morphism((2, 2), T, (1, 4)), morphism((3, 3), T, (2, 5)),
                           morphism((5, 5), T, (3, 6)))
    assert fgh.alpha == (1, 4, 2, 5, 3, 6) and fgh.domain == ((2, 2), (3, 3), (5, 5))  # 3.2.6.7
    with pytest.raises(LayoutError) as e:
        K.nest_morphisms(morphism((2,), T, (1,)), morphism((2,), T, (1,)))
    assert e.value.condition == "have_disjoint_images"


def test_example_3_2_6_12_coalesce():
    f = morphism(((2, 2), (3, 3), (5, 5)), (5, 5, 3, 3, 2, 2), (5, 6, 3, 4, 1, 2))
    assert K.coalesce_morphism(f) == morphism((4, 9, 25), (25, 9, 4), (3, 2, 1))


def test_example_3_2_6_18_complement():
    f = morphism(((2, 2), (5, 5)), ((2, 5, 7), (2, 5, 7)), (1, 4, 2, 5))
    assert K.complement_morphism(f) == morphism((7, 7), ((2, 5, 7), (2, 5, 7)), (3, 6))


def test_example_3_2_6_24_division():
    f = morphism(((2, 2), 2), ((4, 2), (4, 2)), (2, 4, None))
    g = morphism((2, 2), ((2, 2), 2), (1, 3))
    q = K.logical_divide_morphism(f, g)
    assert q.alpha == (2, None, 4) and q.codomain == ((4, 2), (4, 2))
    # the paper prints the domain ((2,2),2); g^c has the flat domain (2,) (finding F-104)
    assert q.domain == ((2, 2), (2,))


def test_example_3_2_6_25_division_disagrees_with_the_printed_value():
    """Finding F-102: the paper prints alpha (*,1,*,2,3) and codomain ((4,2),(4,2))."""
    f = morphism((8, 8, 512, 512, 512), (512, 512, 512), (None, None, 1, 2, 3))
    g = morphism((8, 512), (8, 8, 512, 512, 512), (1, 5))
    q = K.logical_divide_morphism(f, g)
    assert q.domain == ((8, 512), (8, 512, 512))
    assert q.alpha == (None, 3, None, 1, 2) and q.codomain == (512, 512, 512)
    # brute force: q is literally f ∘ (g, g^c), entry by entry
    gc = K.complement_morphism(g)
    assert gc.alpha == (2, 3, 4)
    assert q.alpha == tuple(f.alpha[b - 1] for b in g.alpha + gc.alpha)
    with pytest.raises(LayoutError):           # the printed morphism is not even valid
        morphism(((8, 512), (8, 512, 512)), ((4, 2), (4, 2)), (None, 1, None, 2, 3))


def test_examples_3_2_6_29_and_3_2_6_30_and_3_1_5_58_products():
    f, g = morphism((8, 8), (8, 8, 16, 16), (1, 2)), morphism((16, 16), (16, 16), (1, 2))
    assert K.logical_product_morphism(f, g) == morphism(((8, 8), (16, 16)), (8, 8, 16, 16),
                                                        (1, 2, 3, 4))
    assert K.flat_product_morphism(f, g) == K.identity((8, 8, 16, 16))
    f, g = morphism((128, 128), (32, 32, 128, 128), (3, 4)), morphism((32,), (32, 32), (2,))
    assert K.logical_product_morphism(f, g) == morphism(((128, 128), (32,)), (32, 32, 128, 128),
                                                        (3, 4, 2))


def test_finding_F100_printed_standard_form_breaks_uniqueness():
    """Def 3.1.2.12 as printed ("if n > 1"): two standard-form morphisms encode (2):(0)."""
    f, g = morphism((2,), (5,), (None,)), morphism((2,), (), (None,))
    assert K.is_standard_form(f, as_printed=True) and K.is_standard_form(g, as_printed=True)
    assert K.is_non_degenerate_morphism(f) and f != g
    assert K.encoded_layout(f) == K.encoded_layout(g) == P("(2):(0)")
    assert K.standard_representation(P("(2):(0)")) == g
    assert not K.is_standard_form(f)             # corrected: n >= 1 needs n in the image


# --- theorem A and the constructions of 3.1.2 ------------------------------------------------

ENUMERATED = TH.standard_morphisms()


def test_enumeration_is_all_standard_and_distinct():
    assert len(ENUMERATED) == len(set(ENUMERATED)) > 500
    assert all(K.is_standard_form(f) and K.is_non_degenerate_morphism(f) for f in ENUMERATED)


def test_theorem_A_on_every_small_standard_morphism():
    assert all(TH.check_theorem_A(f) for f in ENUMERATED)


def test_theorem_A_distinct_morphisms_encode_distinct_layouts():
    assert len({K.encoded_layout(f) for f in ENUMERATED}) == len(ENUMERATED)


@given(any_morphisms())
def test_theorem_A_layout_side_and_prop_3_1_2_10(f):
    """L_f is tractable (Prop 3.1.2.10) and L_{f_L} = L (Lemma 3.1.2.9) for L = L_f."""
    L = K.encoded_layout(f)
    assert TH.check_theorem_A(L)
    if hasattr(spec, "is_tractable"):
        assert spec.is_tractable(L)


@needs("is_tractable")
@given(st.lists(st.tuples(st.integers(1, 6), st.integers(0, 40)), max_size=4))
def test_prop_3_1_2_10_non_tractable_layouts_have_no_representation(modes):
    L = spec.Layout(tuple(s for s, _ in modes), tuple(d for _, d in modes))
    if spec.is_tractable(L):
        assert K.encoded_layout(K.standard_representation(L)) == L
    else:
        with pytest.raises(LayoutError):
            K.standard_representation(L)


# --- realization (3.1.4, 3.2.4) ---------------------------------------------------------------

@given(any_morphisms(non_degenerate=False))
def test_lemma_3_2_4_2_realization_is_the_layout_function(f):
    assert TH.check_realization(f)


@given(any_morphisms().flatmap(lambda f: st.tuples(st.just(f), morphisms_into(f.domain))))
def test_realization_is_a_functor(fg):
    g, f = fg                                     # f : S -> dom(g)
    assert TH.check_functoriality(f, g)
    assert K.realization(K.identity(f.domain)) == tuple(range(spec.size(f.domain)))


# --- theorems B-F ------------------------------------------------------------------------

@needs("composition")
@given(st.integers(0, 2**32))
def test_theorem_B_composition(seed):
    f, g = TH.composable_standard_pairs(random.Random(seed), 1)[0]
    assert TH.check_theorem_B(f, g)


@needs("composition")
@given(any_morphisms().flatmap(lambda g: st.tuples(st.just(g), morphisms_into(g.domain))))
def test_theorem_B_on_nested_non_standard_morphisms(gf):
    g, f = gf
    assert TH.check_theorem_B(f, g)


@needs("coalesce")
@given(any_morphisms(non_degenerate=False))
def test_theorem_C_coalesce_any_morphism(f):
    assert TH.check_theorem_C(f)


@needs("is_flat_coalesced")
@given(any_morphisms(non_degenerate=False))
def test_prop_3_1_5_24_coalesced_iff_layout_coalesced(f):
    """Flat coalesced in the sense of Def 2.1.4.1 (the empty layout is coalesced there)."""
    fb = K.flat_morphism(f)
    assert K.is_coalesced_morphism(fb) == spec.is_flat_coalesced(K.encoded_layout(fb))


@needs("coalesce", "complement")
@given(any_morphisms(injective=True))
def test_theorem_D_complement(f):
    assert TH.check_theorem_D(f)


@needs("coalesce", "complement")
def test_theorem_D_on_every_small_injective_standard_morphism():
    inj = [f for f in ENUMERATED if K.is_injective_morphism(f)]
    assert len(inj) > 50 and all(TH.check_theorem_D(f) for f in inj)


@given(any_morphisms(injective=True))
def test_complement_props_3_1_5_48_to_3_1_5_50(f):
    f = K.flat_morphism(f)                       # statements about Tuple
    fc = K.complement_morphism(f)
    assert K.is_complement_morphism(f, fc)
    assert K.sort_morphism(K.complement_morphism(fc)) == K.sort_morphism(f) == \
        K.complement_morphism(fc)                # Prop 3.1.5.50 (f^c^c is increasing)
    assert K.is_sorted_morphism(fc)


@needs("coalesce", "logical_divide")
@given(standard_morphisms().flatmap(
    lambda f: st.tuples(st.just(f), morphisms_into(f.domain, injective=True))))
def test_theorem_E_logical_division(fg):
    f, g = fg
    assert TH.check_theorem_E(f, g)


def test_division_needs_a_complementable_divisor():
    """Finding F-103: f ⊘ g uses g^c, which exists only for injective g."""
    f = morphism((2, 3), (2, 3), (1, 2))
    g = morphism((2, 5), (2, 3), (1, None))
    with pytest.raises(LayoutError) as e:
        K.logical_divide_morphism(f, g)
    assert e.value.condition == "is_complementable_morphism"


@st.composite
def product_admissible_pairs(draw):
    f = draw(any_morphisms(injective=True))
    g = draw(morphisms_into(K.complement_morphism(f).domain))
    return f, g


@needs("logical_product")
@given(product_admissible_pairs())
def test_theorem_F_logical_product(fg):
    assert TH.check_theorem_F(*fg)


@given(product_admissible_pairs().flatmap(
    lambda fg: st.tuples(st.just(fg), morphisms_into(K.complement_morphism(fg[1]).domain)
                         if K.is_injective_morphism(fg[1]) else st.none())))
def test_prop_3_1_5_61_flat_product_is_associative(fgh):
    (f, g), h = fgh
    if h is None:
        return
    f, g, h = (K.flat_morphism(x) for x in (f, g, h))
    fg = K.flat_product_morphism(f, g)
    gh = K.flat_product_morphism(g, h)
    left = K.flat_product_morphism(fg, h)
    right = K.flat_product_morphism(f, gh)
    assert left == right
    assert K.complement_morphism(fg) == K.compose(K.complement_morphism(f),
                                                  K.complement_morphism(g))  # Lemma 3.1.5.60


# --- the other operations -------------------------------------------------------------------

@given(any_morphisms(non_degenerate=False), any_morphisms(non_degenerate=False))
def test_sum_3_1_5_3_realizes_side_by_side(f, g):
    """|f ⊕ g|(x + size(S) y) = |f|(x) + size(T) |g|(y) (colex of a concatenation)."""
    h = K.direct_sum(f, g)
    rf, rg, rh = K.realization(f), K.realization(g), K.realization(h)
    nS, nT = spec.size(f.domain), spec.size(f.codomain)
    assert rh == tuple(rf[x] + nT * rg[y] for y in range(len(rg)) for x in range(nS))


@given(any_morphisms(non_degenerate=False), st.data())
def test_example_3_1_3_10_factorization_divides_the_strides(f, data):
    """d'_i = d_i / prod_{k < alpha(i), k not in J} t_k for J ⊇ Image(alpha)."""
    image = {a for a in f.alpha if a is not None}
    rest = sorted(set(range(1, len(f.T) + 1)) - image)
    J = image | set(data.draw(st.lists(st.sampled_from(rest), unique=True)) if rest else set())
    d = spec.flatten(K.encoded_layout(f).stride)
    dJ = spec.flatten(K.encoded_layout(K.factor_morphism(f, J)).stride)
    for di, dj, a in zip(d, dJ, f.alpha):
        drop = 1
        for k in range(1, a or 1):
            drop *= 1 if k in J else f.T[k - 1]
        assert dj == (0 if a is None else di // drop)


@needs("squeeze")
@given(any_morphisms(non_degenerate=False))
def test_prop_3_1_5_10_squeeze(f):
    assert TH.check_squeeze(f)
    s = K.squeeze_morphism(f)
    assert K.squeeze_morphism(s) == s             # Observation 3.1.5.11


@needs("sort")
@given(any_morphisms(non_degenerate=False))
def test_prop_3_1_5_18_sort(f):
    assert TH.check_sort(f)
    s = K.sort_morphism(f)
    assert K.sort_morphism(s) == s                # Lemma 3.1.5.17


@given(st.lists(st.integers(1, 4), max_size=4).flatmap(
    lambda t: st.tuples(st.just(tuple(t)), st.integers(0, 2**16))))
def test_prop_3_2_6_10_concatenation(tseed):
    t, seed = tseed
    rng = random.Random(seed)
    idx = [j for j in range(1, len(t) + 1) if t[j - 1] != 1]
    rng.shuffle(idx)
    cut = rng.randint(0, len(idx))
    f = morphism(tuple(t[j - 1] for j in idx[:cut]), t, tuple(idx[:cut]))
    g = morphism(tuple(t[j - 1] for j in idx[cut:]), t, tuple(idx[cut:]))
    assert TH.check_concat(f, g)
    if hasattr(spec, "concat"):                  # Prop 3.1.5.38, flat
        assert K.encoded_layout(K.concat_morphisms(f, g)) == spec.concat(
            K.encoded_layout(f), K.encoded_layout(g))


def _random_refinement(rng, S):
    """A random refinement of S: each entry replaced by a factorisation (maybe with 1s)."""
    def split(n):
        if n == 1 or rng.random() < 0.5:
            return n
        ds = [d for d in range(1, n + 1) if n % d == 0]
        a = rng.choice(ds)
        return (split(a), split(n // a))
    return spec.substitute([split(x) for x in spec.flatten(S)], S)


@given(any_morphisms(non_degenerate=False), st.integers(0, 2**16))
def test_props_3_2_5_11_and_3_2_5_15_pullback_and_pushforward(f, seed):
    rng = random.Random(seed)
    Tp, Sp = _random_refinement(rng, f.codomain), _random_refinement(rng, f.domain)
    assert TH.check_pullback(f, Tp)
    assert TH.check_pushforward(f, Sp)
    assert K.pullback(f, Tp).codomain == Tp and K.pushforward(f, Sp).domain == Sp


@pytest.mark.slow
def test_theorems_A_C_D_on_a_larger_enumeration():
    fs = TH.standard_morphisms(max_codomain=4, entries=(2, 3), max_unmapped=2)
    assert all(TH.check_theorem_A(f) and TH.check_theorem_C(f) for f in fs)
    assert all(TH.check_theorem_D(f) for f in fs if K.is_injective_morphism(f))


def _text(v):
    if isinstance(v, tuple):
        return "(" + ",".join(_text(x) for x in v) + ")"
    return str(v).replace(" ", "")


@pytest.mark.parametrize("number, op, printed, compute", TH.EXAMPLES_3 + spec.EXAMPLES_4_1_1,
                         ids=[x[0] for x in TH.EXAMPLES_3 + spec.EXAMPLES_4_1_1])
def test_example_table_agrees_or_is_a_registered_finding(number, op, printed, compute):
    """The example tables (for ``layoutcheck examples``): each value agrees with the paper,
    or its disagreement is a finding of the register (F-102, F-104)."""
    from layoutcheck.oracles.known import find_known
    if _text(compute()) != printed:
        assert find_known("paper", "examples", number) in ("F-102", "F-104"), number
