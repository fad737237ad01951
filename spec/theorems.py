"""The main theorems A-F of the paper's section 3 (the categories Tuple and Nest and their
correspondence with layouts) as executable checks, the section's worked examples, and
generators of morphisms to run the checks on."""

from dataclasses import dataclass
from itertools import combinations, permutations
from itertools import product as _cartesian

from layoutcheck.spec import tuples as T_
from layoutcheck.spec.algebra import coalesce, complement, composition
from layoutcheck.spec.basic import sort, squeeze
from layoutcheck.spec.categories import (
    Morphism,
    coalesce_flat,
    coalesce_morphism,
    complement_morphism,
    compose,
    encoded_layout,
    flat_morphism,
    is_coalesced_morphism,
    is_injective_morphism,
    is_non_degenerate_morphism,
    is_sorted_morphism,
    is_standard_form,
    logical_divide_morphism,
    logical_product_morphism,
    morphism,
    nest_morphisms,
    pullback,
    pushforward,
    realization,
    sort_morphism,
    squeeze_morphism,
    standard_representation,
)
from layoutcheck.spec.division import logical_divide, logical_product
from layoutcheck.spec.layout import Layout, as_layout

from layoutcheck.errors import LayoutError

__all__ = ["standard_morphisms", "composable_standard_pairs", "random_standard_morphism", "random_morphism_from", "random_morphism_into", "Check", "check_theorem_A", "check_theorem_B", "check_theorem_C", "check_theorem_D", "check_theorem_E", "check_theorem_F", "check_realization", "check_functoriality", "check_squeeze", "check_sort", "check_concat", "check_pullback", "check_pushforward", "EXAMPLES_3"]


# --------------------------------------------------------------------------- generators

def _profiles(xs, rng):
    """A random nesting of the flat tuple xs (a nested tuple with flattening xs)."""
    xs = list(xs)
    if len(xs) <= 1 or rng.random() < 0.5:
        return tuple(xs)
    cut = sorted(rng.sample(range(1, len(xs)), rng.randint(1, len(xs) - 1)))
    parts, prev = [], 0
    for c in cut + [len(xs)]:
        part = xs[prev:c]
        parts.append(part[0] if len(part) == 1 and rng.random() < 0.5 else _profiles(part, rng))
        prev = c
    return tuple(parts)


def standard_morphisms(max_codomain=3, entries=(2, 3), max_unmapped=1, unmapped_entries=(1, 2)):
    """Every non-degenerate flat tuple morphism of standard form (Def 3.1.2.12 as corrected,
    3.1.2.17) whose codomain has at most ``max_codomain`` entries from ``entries`` and whose
    domain has at most ``max_unmapped`` entries sent to *, each from ``unmapped_entries``.

    Enumerated in a fixed order (small: use as a test table).
    """
    seen = []
    for n in range(0, max_codomain + 1):
        for t in _cartesian(entries, repeat=n):
            for mask in _cartesian((True, False), repeat=n):   # mask[j]: j+1 in the image
                image = [j + 1 for j in range(n) if mask[j]]
                if n >= 1 and not mask[n - 1]:
                    continue
                if any(not mask[j] and not mask[j + 1] for j in range(n - 1)):
                    continue
                for perm in permutations(image):
                    for u in range(max_unmapped + 1):
                        for un in _cartesian(unmapped_entries, repeat=u):
                            for pos in _positions(len(perm) + u, u):
                                it_m, it_u, S, a = iter(perm), iter(un), [], []
                                for p in range(len(perm) + u):
                                    if p in pos:
                                        S.append(next(it_u))
                                        a.append(None)
                                    else:
                                        j = next(it_m)
                                        S.append(t[j - 1])
                                        a.append(j)
                                seen.append(morphism(tuple(S), tuple(t), tuple(a)))
    return seen


def _positions(total, k):
    return [set(c) for c in combinations(range(total), k)]


def _small(make, max_size):
    """Draw from ``make()`` until domain and codomain have size <= max_size."""
    while True:
        f = make()
        if T_.size(f.domain) <= max_size and T_.size(f.codomain) <= max_size:
            return f


def random_standard_morphism(rng, max_codomain=4, entries=(2, 3, 4), p_unmapped=0.25,
                             nested=True, max_size=512):
    """A random non-degenerate nested tuple morphism of standard form (Def 3.1.2.12 as
    corrected, 3.2.2.10, 3.2.2.13); ``rng`` is a ``random.Random``."""

    def make():
        n = rng.randint(0, max_codomain)
        t = [rng.choice(entries) for _ in range(n)]
        mask = [rng.random() < 0.7 for _ in range(n)]
        if n:
            mask[-1] = True
        for j in range(n - 2, -1, -1):
            if not mask[j] and not mask[j + 1]:
                mask[j + 1] = True
        image = [j + 1 for j in range(n) if mask[j]]
        rng.shuffle(image)
        S, a = [], []
        for j in image + [None]:
            while rng.random() < p_unmapped:
                S.append(rng.choice((1,) + tuple(entries)))
                a.append(None)
            if j is not None:
                S.append(t[j - 1])
                a.append(j)
        dom = _profiles(S, rng) if nested else tuple(S)
        return morphism(dom, tuple(t), tuple(a))

    return _small(make, max_size)


def random_morphism_from(rng, T, entries=(2, 3), p_gap=0.3, max_size=512):
    """A random non-degenerate standard-form morphism with the given flat domain T."""
    T = tuple(T)

    def make():
        pos = [i for i in range(len(T)) if T[i] != 1 and rng.random() < 0.8]
        rng.shuffle(pos)
        U, image_of = [], {}
        for i in pos:
            if rng.random() < p_gap:
                U.append(rng.choice(entries))
            U.append(T[i])
            image_of[i] = len(U)
        return morphism(T, tuple(U), tuple(image_of.get(i) for i in range(len(T))))

    return _small(make, max(max_size, T_.size(T)))


def random_morphism_into(rng, V, injective=False, p_unmapped=0.25, entries=(1, 2, 3),
                         nested=True, max_size=512):
    """A random non-degenerate morphism with codomain V (any nested tuple): a random subset of
    the entries of V other than 1, in random order, plus (unless ``injective``) entries sent
    to *; the domain gets a random nesting."""
    t = T_.flatten(V)

    def make():
        pos = [j + 1 for j in range(len(t)) if t[j] != 1 and rng.random() < 0.7]
        rng.shuffle(pos)
        S, a = [], []
        for j in pos:
            while not injective and rng.random() < p_unmapped:
                S.append(rng.choice(entries))
                a.append(None)
            S.append(t[j - 1])
            a.append(j)
        dom = _profiles(S, rng) if nested else tuple(S)
        return morphism(dom, V, tuple(a))

    return _small(make, max(max_size, T_.size(V)))


def composable_standard_pairs(rng, count, **kw):
    """``count`` pairs (f, g), f : S -> T and g : T -> U both non-degenerate, standard form."""
    out = []
    for _ in range(count):
        f = random_standard_morphism(rng, **kw)
        out.append((f, random_morphism_from(rng, f.codomain)))
    return out


# --------------------------------------------------------------------------- the theorems

@dataclass(frozen=True)
class Check:
    """One executable statement: ``holds`` compares ``lhs`` and ``rhs`` as the paper states."""

    name: str
    holds: bool
    lhs: object
    rhs: object
    note: str = ""

    def __bool__(self):
        return self.holds

    def __str__(self):
        verdict = "holds" if self.holds else "FAILS"
        note = f" ({self.note})" if self.note else ""
        return f"{self.name}: {verdict}: {self.lhs}  vs  {self.rhs}{note}"




def _require(pred, f, condition, what):
    if not pred(f):
        raise LayoutError(f"{f} is not {what}", condition=condition)


def check_theorem_A(x):
    """Theorem A (3.2.2.15, flat 3.1.2.21): f <-> L_f between non-degenerate standard-form
    nested tuple morphisms and non-degenerate tractable layouts.  Given a morphism: checks
    ``f_{L_f} == f``; given a layout: checks ``L_{f_L} == L``."""
    if isinstance(x, Morphism):
        _require(is_standard_form, x, "is_standard_form", "of standard form")
        _require(is_non_degenerate_morphism, x, "is_non_degenerate_morphism", "non-degenerate")
        back = standard_representation(encoded_layout(x))
        return Check("Theorem A (f_{L_f} = f)", back == x, back, x)
    L = as_layout(x)
    L2 = encoded_layout(standard_representation(L))
    return Check("Theorem A (L_{f_L} = L)", L2 == L, L2, L)


def check_theorem_B(f, g):
    """Theorem B (3.2.6.21, flat Cor. 3.1.4.6): L_{g∘f} = L_g ∘ L_f, i.e.
    ``encoded_layout(compose(g, f)) == spec.composition(L_g, L_f)`` (CuTe's argument order)."""
    for h in (f, g):
        _require(is_non_degenerate_morphism, h, "is_non_degenerate_morphism", "non-degenerate")
    lhs = encoded_layout(compose(g, f))
    rhs = composition(encoded_layout(g), encoded_layout(f))
    return Check("Theorem B (L_{g∘f} = L_g ∘ L_f)", lhs == rhs, lhs, rhs)


def check_theorem_C(f):
    """Theorem C (3.2.6.13, flat 3.1.5.28): L_{coal(f)} = coal(L_f); also coal(f) coalesced."""
    c = coalesce_morphism(f)
    lhs = encoded_layout(c)
    rhs = coalesce(encoded_layout(f))
    coalesced = is_coalesced_morphism(coalesce_flat(flat_morphism(f)))
    return Check("Theorem C (L_{coal f} = coal L_f)", lhs == rhs and coalesced, lhs, rhs,
                 "" if coalesced else "coal^b(f^b) is not coalesced (Prop 3.1.5.28)")


def check_theorem_D(f):
    """Theorem D (3.2.6.20): for injective f : S -> T, coal(L_{f^c}) = comp(L_f, size(T))."""
    _require(is_injective_morphism, f, "is_injective_morphism", "injective")
    lhs = coalesce(encoded_layout(complement_morphism(f)))
    rhs = complement(encoded_layout(f), T_.size(f.codomain))
    return Check("Theorem D (coal L_{f^c} = comp(L_f, size T))", lhs == rhs, lhs, rhs)


def check_theorem_E(f, g):
    """Theorem E (3.2.6.26): g : S -> T, f : T -> U non-degenerate, g dividing f:
    coal(L_{f⊘g}) = coal(L_f ⊘ L_g) = coal(spec.logical_divide(L_f, L_g))."""
    for h in (f, g):
        _require(is_non_degenerate_morphism, h, "is_non_degenerate_morphism", "non-degenerate")
    coal = coalesce
    lhs = coal(encoded_layout(logical_divide_morphism(f, g)))
    rhs = coal(logical_divide(encoded_layout(f), encoded_layout(g)))
    return Check("Theorem E (coal L_{f⊘g} = coal(L_f ⊘ L_g))", lhs == rhs, lhs, rhs)


def check_theorem_F(f, g):
    """Theorem F (3.2.6.31): f, g non-degenerate and product admissible:
    L_{f⊗g} = L_f ⊗ L_g = spec.logical_product(L_f, L_g)."""
    for h in (f, g):
        _require(is_non_degenerate_morphism, h, "is_non_degenerate_morphism", "non-degenerate")
    lhs = encoded_layout(logical_product_morphism(f, g))
    rhs = logical_product(encoded_layout(f), encoded_layout(g))
    return Check("Theorem F (L_{f⊗g} = L_f ⊗ L_g)", lhs == rhs, lhs, rhs)


def check_realization(f):
    """Lemma 3.1.4.5 / 3.2.4.2: |f| = Phi_{L_f} on [0, size S)."""
    L = encoded_layout(f)
    lhs = realization(f)
    rhs = tuple(L(n) for n in range(T_.size(f.S)))
    return Check("Lemma 3.2.4.2 (|f| = Phi_{L_f})", lhs == rhs, lhs, rhs)


def check_functoriality(f, g):
    """Construction 3.1.4.4: |g ∘ f| = |g| ∘ |f|."""
    lhs = realization(compose(g, f))
    rg = realization(g)
    rhs = tuple(rg[v] for v in realization(f))
    return Check("Construction 3.1.4.4 (|g∘f| = |g|∘|f|)", lhs == rhs, lhs, rhs)


def check_squeeze(f):
    """Prop 3.1.5.10: L_{squeeze f} = squeeze(L_f) (on f^b)."""
    lhs = encoded_layout(squeeze_morphism(f))
    rhs = squeeze(encoded_layout(flat_morphism(f)))
    return Check("Prop 3.1.5.10 (L_{squeeze f} = squeeze L_f)", lhs == rhs, lhs, rhs)


def check_sort(f):
    """Prop 3.1.5.18 and Lemma 3.1.5.17: L_{sort f} = sort(L_f), and sort(f) is sorted."""
    sf = sort_morphism(f)
    lhs = encoded_layout(sf)
    rhs = sort(encoded_layout(flat_morphism(f)))
    return Check("Prop 3.1.5.18 (L_{sort f} = sort L_f)", lhs == rhs and is_sorted_morphism(sf),
                 lhs, rhs)


def check_concat(*fs):
    """Prop 3.2.6.10: L_{(f_1..f_k)} = (L_{f_1}, ..., L_{f_k})."""
    lhs = encoded_layout(nest_morphisms(*fs))
    Ls = [encoded_layout(f) for f in fs]
    rhs = Layout(tuple(L.shape for L in Ls), tuple(L.stride for L in Ls))
    return Check("Prop 3.2.6.10 (L_{(f,g)} = (L_f, L_g))", lhs == rhs, lhs, rhs)


def check_pullback(f, Tp):
    """Prop 3.2.5.11: the pullback f' of f along T' ->> T has Phi_{L_f'} = Phi_{L_f}."""
    fp = pullback(f, Tp)
    lhs, rhs = realization(fp), realization(f)
    return Check("Prop 3.2.5.11 (Phi_{L_f'} = Phi_{L_f}, pullback)", lhs == rhs, fp, f)


def check_pushforward(f, Sp):
    """Prop 3.2.5.15: the pushforward f' of f along S' ->> S has Phi_{L_f'} = Phi_{L_f}."""
    fp = pushforward(f, Sp)
    lhs = tuple(encoded_layout(fp)(n) for n in range(T_.size(Sp)))
    rhs = tuple(encoded_layout(f)(n) for n in range(T_.size(f.S)))
    return Check("Prop 3.2.5.15 (Phi_{L_f'} = Phi_{L_f}, pushforward)", lhs == rhs, fp, f)


# --------------------------------------------------------------------------- the paper's examples

def _ld(f, g):
    return logical_divide_morphism(morphism(*f), morphism(*g))


def _lp(f, g):
    return logical_product_morphism(morphism(*f), morphism(*g))


# (number, operation, value as the paper prints it, computation); morphisms print as
# "S -(alpha)-> T", compared without spaces.  3.2.6.24 and 3.2.6.25 disagree (F-104, F-102).
EXAMPLES_3 = [
    (n, f"L_f for f = {d} -{a}-> {c}", v, (lambda d=d, c=c, a=a: encoded_layout(morphism(d, c, a))))
    for n, d, c, a, v in [
        ("3.1.2.2", (3, 128, 128), (3, 2, 128, 2, 128), (1, 3, 5), "(3,128,128):(1,6,1536)"),
        ("3.1.2.3", (3, 128, 128), (128, 128), ("*", 2, 1), "(3,128,128):(0,128,1)"),
        ("3.1.2.4", (16, 16, 16, 1, 32), (16, 32, 1, 1), ("*", "*", 1, "*", 2),
         "(16,16,16,1,32):(0,0,1,0,16)"),
        ("3.2.2.3", ((8, 8), (4, 4)), (8, 4, 4, 8), (1, 4, 3, 2), "((8,8),(4,4)):((1,128),(32,8))"),
        ("3.2.2.4", (128, (4, 4, 2)), ((4, 4), 128), (3, 1, 2, "*"), "(128,(4,4,2)):(16,(1,4,0))")]
] + [
    ("3.2.2.7", "standard representation of (32,(2,2)):(192,(24,3))",
     "(32,(2,2))-(6,4,2)->(3,2,4,2,4,32)",
     lambda: standard_representation(Layout((32, (2, 2)), (192, (24, 3))))),
    ("3.2.6.12", "coal(((2,2),(3,3),(5,5)) -(5,6,3,4,1,2)-> (5,5,3,3,2,2))",
     "(4,9,25)-(3,2,1)->(25,9,4)",
     lambda: coalesce_morphism(morphism(((2, 2), (3, 3), (5, 5)), (5, 5, 3, 3, 2, 2),
                                        (5, 6, 3, 4, 1, 2)))),
    ("3.2.6.18", "complement of ((2,2),(5,5)) -(1,4,2,5)-> ((2,5,7),(2,5,7))",
     "(7,7)-(3,6)->((2,5,7),(2,5,7))",
     lambda: complement_morphism(morphism(((2, 2), (5, 5)), ((2, 5, 7), (2, 5, 7)),
                                          (1, 4, 2, 5)))),
    ("3.2.6.24", "f ⊘ g, f = ((2,2),2) -(2,4,*)-> ((4,2),(4,2)), g = (2,2) -(1,3)-> ((2,2),2)",
     "((2,2),2)-(2,*,4)->((4,2),(4,2))",
     lambda: _ld((((2, 2), 2), ((4, 2), (4, 2)), (2, 4, "*")), ((2, 2), ((2, 2), 2), (1, 3)))),
    ("3.2.6.25", "f ⊘ g, f = (8,8,512,512,512) -(*,*,1,2,3)-> (512,512,512), "
     "g = (8,512) -(1,5)-> (8,8,512,512,512)",
     "((8,512),(8,512,512))-(*,1,*,2,3)->((4,2),(4,2))",
     lambda: _ld(((8, 8, 512, 512, 512), (512, 512, 512), ("*", "*", 1, 2, 3)),
                 ((8, 512), (8, 8, 512, 512, 512), (1, 5)))),
    ("3.2.6.29", "f ⊗ g, f = (8,8) -(1,2)-> (8,8,16,16), g = (16,16) -(1,2)-> (16,16)",
     "((8,8),(16,16))-(1,2,3,4)->(8,8,16,16)",
     lambda: _lp(((8, 8), (8, 8, 16, 16), (1, 2)), ((16, 16), (16, 16), (1, 2)))),
    ("3.2.6.30", "f ⊗ g, f = (128,128) -(3,4)-> (32,32,128,128), g = (32) -(2)-> (32,32)",
     "((128,128),(32))-(3,4,2)->(32,32,128,128)",
     lambda: _lp(((128, 128), (32, 32, 128, 128), (3, 4)), ((32,), (32, 32), (2,)))),
]
