"""The categories Tuple and Nest (paper section 3), transcribed literally.

A morphism ``f : S -> T`` is a :class:`Morphism`: a domain ``S`` and a codomain ``T``
(nested tuples of positive integers; a bare ``int`` is a depth-0 nested tuple) and the
pointed map ``alpha`` as a tuple of length ``len(S)``, entries 1-based indices into
``flatten(T)`` or ``None`` for ``*`` (Notation 3.1.1.3).  A *tuple morphism* (3.1.1.13) is
a morphism whose domain and codomain are flat tuples; a *nested tuple morphism* (3.2.1.1) is
any morphism; ``Hom_Nest(S, T) = Hom_Tuple(S^b, T^b)``, so one class serves both.

Composition is written in the paper's order: ``compose(g, f) = g ∘ f`` (first ``f``).
Layouts are CuTe's: the paper's ``L_g ∘ L_f`` is ``layoutcheck.spec.composition(L_g, L_f)``.

The theorem checks at the end (``check_theorem_A`` .. ``check_theorem_F`` and the other
compatibility results) call the layout algebra of sections 2.1.4-2.3 through
``layoutcheck.spec`` at call time, so that they check it rather than copy it.
"""

from dataclasses import dataclass
from fractions import Fraction

from layoutcheck.spec import tuples as T_
from layoutcheck.spec.layout import Layout, as_layout, colex, colex_inv
from layoutcheck.spec.nested import relative_modes, substitute

from layoutcheck.errors import LayoutError
from layoutcheck.layout import check_inttuple

__all__ = [
    "Morphism", "morphism", "STAR", "identity", "compose", "is_composable_morphisms", "encoded_layout", "standard_representation", "is_standard_form", "is_non_degenerate_morphism", "F_map", "realization", "is_isomorphism", "is_injective_morphism", "flat_morphism", "reparenthesize", "restrict_morphism", "factor_morphism", "entry_morphism", "mode_morphism", "direct_sum", "squeeze_morphism", "is_sorted_morphism", "sort_morphism", "is_coalesced_morphism", "coalesce_morphism", "have_disjoint_images", "concat_morphisms", "nest_morphisms", "is_complement_morphism", "is_complementable_morphism", "complement_morphism", "flat_divide_morphism", "logical_divide_morphism", "is_product_admissible", "flat_product_morphism", "logical_product_morphism", "relative_inclusion", "relative_mode_morphism", "pullback", "pushforward", "expansion",
]

STAR = None  # the base point * of <n>_* (Def 3.1.1.1)


# --------------------------------------------------------------------------- objects

def _obj(x, what):
    """A nested tuple of positive integers, with every integer a plain ``int``."""
    x = check_inttuple(x, what, 1)

    def plain(v):
        return tuple(plain(e) for e in v) if isinstance(v, tuple) else int(v)

    return plain(x)


def _star(a):
    return "*" if a is None else str(a)


# --------------------------------------------------------------------------- morphisms

@dataclass(frozen=True)
class Morphism:
    """A nested tuple morphism ``domain -> codomain`` lying over ``alpha`` (Def 3.1.1.13, 3.2.1.1).

    Every instance is validated; a violation raises ``LayoutError`` with ``condition``:
    ``alpha`` has one entry per entry of the domain (``alpha_length``), each entry is
    ``None`` (or "*") or in ``1..len(codomain)`` (``alpha_in_range``), no index is hit twice
    (``is_tractable_map``, Def 3.1.1.9), and ``entry_i(S) = entry_alpha(i)(T)`` whenever
    ``alpha(i) != *`` (``shape_condition``).
    """

    domain: object
    codomain: object
    alpha: tuple

    def __post_init__(self):
        S = _obj(self.domain, "domain")
        Tt = _obj(self.codomain, "codomain")
        s, t = T_.flatten(S), T_.flatten(Tt)
        a = tuple(None if x is None or x == "*" else x for x in self.alpha)
        if len(a) != len(s):
            raise LayoutError(f"alpha has {len(a)} entries but the domain {_fmt(S)} has "
                              f"{len(s)}", condition="alpha_length")
        for i, x in enumerate(a):
            if x is not None and (isinstance(x, bool) or not isinstance(x, int)
                                  or not 1 <= x <= len(t)):
                raise LayoutError(f"alpha({i + 1}) = {x!r} is not * or an index in 1..{len(t)}",
                                  condition="alpha_in_range")
        hit = [x for x in a if x is not None]
        if len(hit) != len(set(hit)):
            raise LayoutError(f"alpha {tuple(map(_star, a))} hits an index twice: not "
                              "tractable (Def 3.1.1.9)", condition="is_tractable_map")
        for i, x in enumerate(a):
            if x is not None and s[i] != t[x - 1]:
                raise LayoutError(f"entry {i + 1} of the domain is {s[i]} but entry {x} of the "
                                  f"codomain is {t[x - 1]} (Def 3.1.1.13: s_i = t_alpha(i))",
                                  condition="shape_condition")
        object.__setattr__(self, "domain", S)
        object.__setattr__(self, "codomain", Tt)
        object.__setattr__(self, "alpha", tuple(None if x is None else int(x) for x in a))

    @property
    def S(self):
        return T_.flatten(self.domain)

    @property
    def T(self):
        return T_.flatten(self.codomain)

    @property
    def is_flat(self):
        """A morphism of Tuple: domain and codomain are flat tuples (Def 3.1.1.13)."""
        return (isinstance(self.domain, tuple) and isinstance(self.codomain, tuple)
                and T_.depth(self.domain) <= 1 and T_.depth(self.codomain) <= 1)

    def __str__(self):
        a = "(" + ",".join(_star(x) for x in self.alpha) + ")"
        return f"{_fmt(self.domain)} -{a}-> {_fmt(self.codomain)}"

    def __repr__(self):
        return f"Morphism({self})"


def _fmt(x):
    if isinstance(x, tuple):
        return "(" + ",".join(_fmt(e) for e in x) + ")"
    return str(x)


def morphism(domain, codomain, alpha):
    """``domain -alpha-> codomain`` (Notation 3.1.1.14); alpha entries 1-based, or None/"*"."""
    return Morphism(domain, codomain, tuple(alpha))


def identity(S):
    """id_S (Example 3.1.3.1); L_{id_S} is column-major with shape S."""
    S = _obj(S, "object")
    return morphism(S, S, tuple(range(1, T_.length(S) + 1)))


def reparenthesize(S1, S2):
    """The reparenthesization isomorphism id_{S1}^{S2} lying over the identity (Example 3.2.3.1)."""
    S1, S2 = _obj(S1, "domain"), _obj(S2, "codomain")
    if T_.flatten(S1) != T_.flatten(S2):
        raise LayoutError(f"{_fmt(S1)} and {_fmt(S2)} have different flattenings",
                          condition="same_flattening")
    return morphism(S1, S2, tuple(range(1, T_.length(S1) + 1)))


def flat_morphism(f):
    """f^b : S^b -> T^b, the underlying tuple morphism (Observation 3.2.1.7)."""
    return Morphism(T_.flatten(f.domain), T_.flatten(f.codomain), f.alpha)


def is_composable_morphisms(f, g):
    """``g ∘ f`` is defined: codomain(f) = domain(g) as nested tuples."""
    return f.codomain == g.domain


def compose(g, f):
    """g ∘ f (paper order: first f), lying over beta ∘ alpha (Def 3.1.1.13, 3.2.1.1)."""
    if not is_composable_morphisms(f, g):
        raise LayoutError(f"codomain {_fmt(f.codomain)} of f is not the domain "
                          f"{_fmt(g.domain)} of g", condition="is_composable_morphisms")
    a = tuple(None if x is None else g.alpha[x - 1] for x in f.alpha)
    return Morphism(f.domain, g.codomain, a)


# --------------------------------------------------------------------------- layouts

def _strides(f):
    t = f.T
    out = []
    for x in f.alpha:
        if x is None:
            out.append(0)
        else:
            p = 1
            for v in t[:x - 1]:
                p *= v
            out.append(p)
    return out


def encoded_layout(f):
    """L_f: shape S, stride d_i = 0 if alpha(i) = *, else prod_{j < alpha(i)} t_j.

    Construction 3.1.2.1 (flat), 3.2.2.2 (nested: the strides carry the profile of S).
    """
    return Layout(f.domain, substitute(_strides(f), f.domain))


def _sort_key_modes(s, d):
    """Indices of the modes in the order of Def 2.1.3.23 (d first, then s), stable."""
    return sorted(range(len(s)), key=lambda i: (d[i], s[i], i))


def representation(L, exact=True):
    """Construction 3.1.2.5 on L^b: (codomain, alpha) of the standard representation.

    ``exact=False`` allows non-tractable L: the gap entries d'_{i+1} / (s'_i d'_i) become
    fractions (the diagrams of section 4.1.5); ``exact=True`` raises
    ``LayoutError(condition="is_tractable")`` where a divisibility of Def 2.1.8.1 fails.
    """
    L = as_layout(L)
    s, d = [int(x) for x in T_.flatten(L.shape)], [int(x) for x in T_.flatten(L.stride)]
    m = len(s)
    order = _sort_key_modes(s, d)               # sort(L) = L^sigma: position p holds mode order[p]
    sp, dp = [s[i] for i in order], [d[i] for i in order]
    k = max((p + 1 for p in range(m) if dp[p] == 0), default=0)
    tprime = []
    for p in range(k, m):
        if p == k:
            tprime.append(dp[p])
        else:
            gap = Fraction(dp[p], sp[p - 1] * dp[p - 1])
            if exact and gap.denominator != 1:
                raise LayoutError(f"layout {L} is not tractable: in sort(L), s_i d_i = "
                                  f"{sp[p - 1] * dp[p - 1]} does not divide d_(i+1) = {dp[p]} "
                                  "(Def 2.1.8.1)", condition="is_tractable")
            tprime.append(int(gap) if gap.denominator == 1 else gap)
        tprime.append(sp[p])
    alpha_p = [None] * m
    for p in range(k, m):
        alpha_p[order[p]] = 2 * (p - k + 1)     # 1-based: 2(sigma^-1(i) - k)
    keep = [j for j in range(1, len(tprime) + 1) if j % 2 == 0 or tprime[j - 1] != 1]
    new_index = {j: n + 1 for n, j in enumerate(keep)}
    codomain = tuple(tprime[j - 1] for j in keep)
    return codomain, tuple(None if x is None else new_index[x] for x in alpha_p)


def standard_representation(L):
    """f_L, the standard representation of a tractable layout (Constr. 3.1.2.5, 3.2.2.6).

    Raises ``LayoutError(condition="is_tractable")`` when a divisibility of Def 2.1.8.1 fails.
    """
    codomain, alpha = representation(L)
    return morphism(as_layout(L).shape, codomain, alpha)


def is_standard_form(f, *, as_printed=False):
    """Def 3.1.2.12 (flat) and 3.2.2.10 (nested: also the codomain is flat).

    1. if n >= 1 then n in Image(alpha); 2. if j < n is not in the image, t_j != 1 and
    j+1 is in the image.  The paper prints condition 1 as "if n > 1": then ``(2) -(*)-> (5)``
    and ``(2) -(*)-> ()`` both have standard form and encode ``(2):(0)``, contradicting
    Lemma 3.1.2.20 (finding F-100).  ``as_printed=True`` gives the printed condition.
    """
    t = f.T
    n = len(t)
    if not isinstance(f.codomain, tuple) or T_.depth(f.codomain) > 1:
        return False                              # Def 3.2.2.10 (2): T is flat
    image = {x for x in f.alpha if x is not None}
    if (n > 1 if as_printed else n >= 1) and n not in image:
        return False
    for j in range(1, n):
        if j not in image and (t[j - 1] == 1 or j + 1 not in image):
            return False
    return True


def is_non_degenerate_morphism(f):
    """s_i = 1 implies alpha(i) = * (Def 3.1.2.17, 3.2.2.13)."""
    return all(x is None for x, si in zip(f.alpha, f.S) if si == 1)


def is_isomorphism(f):
    """alpha is a bijection <m> -> <n> (Observation 3.1.3.3)."""
    return len(f.S) == len(f.T) and all(x is not None for x in f.alpha)


def is_injective_morphism(f):
    """alpha injective as a pointed map: no entry sent to * (it is tractable already)."""
    return all(x is not None for x in f.alpha)


def F_map(f, x):
    """(Ff)(x_1..x_m) = (y_1..y_n), y_j = x_i if alpha(i) = j, else 0 (Construction 3.1.4.1)."""
    y = [0] * len(f.T)
    for xi, a in zip(x, f.alpha):
        if a is not None:
            y[a - 1] = xi
    return tuple(y)


def realization(f):
    """|f| = colex_T ∘ Ff ∘ colex_S^{-1} on [0, size S), as a tuple (Construction 3.1.4.4)."""
    S, Tt = f.S, f.T
    return tuple(colex(Tt, F_map(f, colex_inv(S, n))) for n in range(T_.size(S)))


# ------------------------------------------------------------------ examples of 3.1.3, 3.2.3

def restrict_morphism(f, I):
    """f|_I on the entries I (1-based, increasing) of the domain (Example 3.1.3.7); flat result."""
    I = sorted(I)
    return morphism(tuple(f.S[i - 1] for i in I), f.T, tuple(f.alpha[i - 1] for i in I))


def factor_morphism(f, J):
    """f|^J, the factorization through J ⊇ Image(alpha) (Example 3.1.3.10); flat result."""
    J = sorted(J)
    pos = {j: k + 1 for k, j in enumerate(J)}
    if any(a is not None and a not in pos for a in f.alpha):
        raise LayoutError(f"Image(alpha) is not inside J = {tuple(J)}", condition="image_in_J")
    return morphism(f.S, tuple(f.T[j - 1] for j in J),
                    tuple(None if a is None else pos[a] for a in f.alpha))


def entry_morphism(f, i):
    """entry_i(f): entry_i(S) -> T lying over (alpha(i)) (Example 3.2.3.4)."""
    return morphism(f.S[i - 1], f.codomain, (f.alpha[i - 1],))


def mode_morphism(f, i):
    """mode_i(f): mode_i(S) -> T (Example 3.2.3.6), i 1-based."""
    S = f.domain if isinstance(f.domain, tuple) else (f.domain,)
    N = sum(T_.length(x) for x in S[:i - 1])
    ell = T_.length(S[i - 1])
    return morphism(S[i - 1], f.codomain, f.alpha[N:N + ell])


def expansion(Sp, S):
    """The expansion of S' to S, S' dividing S (Example 3.1.3.6); nested: S'^b a prefix of S^b."""
    Sp, S = _obj(Sp, "domain"), _obj(S, "codomain")
    a, b = T_.flatten(Sp), T_.flatten(S)
    if b[:len(a)] != a:
        raise LayoutError(f"{_fmt(Sp)} does not divide {_fmt(S)}", condition="divides")
    return morphism(Sp, S, tuple(range(1, len(a) + 1)))


# --------------------------------------------------------------------------- operations 3.1.5

def direct_sum(f, g):
    """f ⊕ g : S ⋆ U -> T ⋆ V over alpha ⊕ beta (Def 3.1.5.1, 3.1.5.3); flat result."""
    n = len(f.T)
    return morphism(f.S + g.S, f.T + g.T,
                    f.alpha + tuple(None if b is None else n + b for b in g.alpha))


def squeeze_morphism(f):
    """squeeze(f) = (f|_I)|^J, I = {s_i != 1}, J = {t_j != 1} (Def 3.1.5.7); on f^b."""
    I = [i for i, s in enumerate(f.S, 1) if s != 1]
    J = [j for j, t in enumerate(f.T, 1) if t != 1]
    return factor_morphism(restrict_morphism(f, I), J)


def is_sorted_morphism(f):
    """Def 3.1.5.12: *-entries first, sorted by size; then mapped entries by increasing alpha."""
    a, s = f.alpha, f.S
    for i in range(len(a)):
        for j in range(len(a)):
            if a[i] is None and a[j] is not None and not i < j:
                return False
            if a[i] is None and a[j] is None and i <= j and not s[i] <= s[j]:
                return False
            if a[i] is not None and a[j] is not None and i <= j and not a[i] <= a[j]:
                return False
    return True


def sort_morphism(f):
    """sort(f) = f ∘ g, g the permutation of Construction 3.1.5.15 (on f^b)."""
    fb = flat_morphism(f)
    P = sorted((i for i in range(len(fb.S)) if fb.alpha[i] is None), key=lambda i: (fb.S[i], i))
    Q = sorted((i for i in range(len(fb.S)) if fb.alpha[i] is not None), key=lambda i: fb.alpha[i])
    order = P + Q                                   # sigma^{-1}(k) = order[k]
    g = morphism(tuple(fb.S[i] for i in order), fb.S, tuple(i + 1 for i in order))
    return compose(fb, g)


def is_coalesced_morphism(f):
    """Def 3.1.5.20 on f^b: no 1 in S, and each adjacent pair satisfies exactly one of (a)-(d)."""
    s, t, a = f.S, f.T, f.alpha
    if any(x == 1 for x in s):
        return False
    for i in range(len(s) - 1):
        x, y = a[i], a[i + 1]
        conds = [x is None and y is not None,
                 x is not None and y is None,
                 x is not None and y is not None and x > y,
                 x is not None and y is not None and x < y
                 and any(t[j - 1] > 1 for j in range(x + 1, y))]
        if sum(conds) != 1:
            return False
    return True


def coalesce_flat(f):
    """coal^b(f), Construction 3.1.5.25."""
    g = squeeze_morphism(f)
    b, s, t = g.alpha, g.S, g.T
    dom_classes = []                                 # <m>/~ as lists of 0-based indices
    for i in range(len(s)):
        if dom_classes and ((b[i - 1] is None and b[i] is None) or
                            (b[i - 1] is not None and b[i] is not None and b[i] == b[i - 1] + 1)):
            dom_classes[-1].append(i)
        else:
            dom_classes.append([i])
    # j ~ j+1 when some i has beta(i) = j and beta(i+1) = j+1
    linked = {b[i] for i in range(1, len(s))
              if b[i] is not None and b[i - 1] is not None and b[i] == b[i - 1] + 1}
    cod_classes = []
    for j in range(1, len(t) + 1):
        if cod_classes and j in linked:
            cod_classes[-1].append(j)
        else:
            cod_classes.append([j])
    cls_of = {j: c + 1 for c, J in enumerate(cod_classes) for j in J}

    def prod(xs):
        p = 1
        for v in xs:
            p *= v
        return p

    S_bar = tuple(prod(s[i] for i in I) for I in dom_classes)
    T_bar = tuple(prod(t[j - 1] for j in J) for J in cod_classes)
    a_bar = tuple(None if b[I[0]] is None else cls_of[b[I[0]]] for I in dom_classes)
    return morphism(S_bar, T_bar, a_bar)


def coalesce_morphism(f):
    """coal(f) (Def 3.2.6.11): coal^b(f^b) (Construction 3.1.5.25), with a depth-0 domain
    ``s_1`` when it has one entry and ``1 -(*)-> T`` when it has none."""
    c = coalesce_flat(flat_morphism(f))
    if len(c.S) > 1:
        return c
    if len(c.S) == 1:
        return morphism(c.S[0], c.T, c.alpha)
    return morphism(1, c.T, (None,))


def have_disjoint_images(*fs):
    """Same codomain, Image(alpha) ∩ Image(beta) = {*} pairwise (Def 3.1.5.29, 3.1.5.32, 3.2.6.1)."""
    seen = set()
    for f in fs:
        if f.codomain != fs[0].codomain:
            return False
        im = {x for x in f.alpha if x is not None}
        if seen & im:
            return False
        seen |= im
    return True


def _require_disjoint(fs):
    if not have_disjoint_images(*fs):
        raise LayoutError("the morphisms do not have one codomain and pairwise disjoint images",
                          condition="have_disjoint_images")


def concat_morphisms(*fs):
    """f_1 ⋆ ... ⋆ f_k : S_1 ⋆ ... ⋆ S_k -> T (Construction 3.1.5.34); flat domain."""
    _require_disjoint(fs)
    return morphism(sum((f.S for f in fs), ()), fs[0].codomain, sum((f.alpha for f in fs), ()))


def nest_morphisms(*fs):
    """(f_1, ..., f_k) : (S_1, ..., S_k) -> T (Construction 3.2.6.4)."""
    _require_disjoint(fs)
    return morphism(tuple(f.domain for f in fs), fs[0].codomain, sum((f.alpha for f in fs), ()))


def is_complementable_morphism(f):
    """alpha injective (Def 3.1.5.45)."""
    return is_injective_morphism(f)


def complement_morphism(f):
    """f^c : (t_j1, ..., t_jk) -> T over k -> j_k, the j's not in Image(alpha), increasing.

    Construction 3.1.5.46; nested: composed with the unflattening T^b ≅ T (3.2.6.17), so the
    domain is the flat tuple and the codomain is T.
    """
    if not is_complementable_morphism(f):
        raise LayoutError(f"{f} is not complementable: alpha sends an entry to * "
                          "(Def 3.1.5.45)", condition="is_complementable_morphism")
    im = set(f.alpha)
    js = [j for j in range(1, len(f.T) + 1) if j not in im]
    return morphism(tuple(f.T[j - 1] for j in js), f.codomain, tuple(js))


def is_complement_morphism(f, g):
    """g is a complement of f: disjoint images and (f, g) an isomorphism (3.1.5.39, 3.2.6.14)."""
    return have_disjoint_images(f, g) and is_isomorphism(nest_morphisms(f, g))


def flat_divide_morphism(f, g):
    """f ⊘^b g = f ∘ (g ⋆ g^c) for g : S -> T, f : T -> U (Def 3.1.5.51, 3.1.5.52)."""
    return compose(f, concat_morphisms(g, complement_morphism(g)))


def logical_divide_morphism(f, g):
    """f ⊘ g = f ∘ (g, g^c) (Def 3.2.6.22, 3.2.6.23); g must be complementable (finding F-103)."""
    return compose(f, nest_morphisms(g, complement_morphism(g)))


def is_product_admissible(f, g):
    """codomain(g) = domain(f^c) (Def 3.1.5.57, 3.2.6.28); f must be complementable."""
    return is_complementable_morphism(f) and g.codomain == complement_morphism(f).domain


def _require_admissible(f, g):
    if not is_product_admissible(f, g):
        raise LayoutError(f"{f} and {g} are not product admissible: codomain(g) must be "
                          "domain(f^c)", condition="is_product_admissible")


def flat_product_morphism(f, g):
    """f ⊗^b g = f ⋆ (f^c ∘ g) (Def 3.1.5.57)."""
    _require_admissible(f, g)
    return concat_morphisms(f, compose(complement_morphism(f), g))


def logical_product_morphism(f, g):
    """f ⊗ g = (f, f^c ∘ g) (Def 3.2.6.28)."""
    _require_admissible(f, g)
    return nest_morphisms(f, compose(complement_morphism(f), g))


# --------------------------------------------------------------------------- refinements 3.2.5

def relative_inclusion(Sp, S, i):
    """incl_i(S', S) : S'_i -> S' (Construction 3.2.5.1), i 1-based."""
    modes = relative_modes(Sp, S)
    off = sum(T_.length(x) for x in modes[:i - 1])
    return morphism(modes[i - 1], Sp, tuple(range(off + 1, off + T_.length(modes[i - 1]) + 1)))


def relative_mode_morphism(fp, S, i):
    """mode_i(f', S) = f' ∘ incl_i(S', S) (Construction 3.2.5.3)."""
    return compose(fp, relative_inclusion(fp.domain, S, i))


def _lift_along(f, src_modes, tgt_modes):
    """The map (f'_1, ..., f'_m) of 3.2.5.5 / 3.2.5.12 as alpha on the refined domain."""
    offs, acc = [], 0
    for x in tgt_modes:
        offs.append(acc)
        acc += T_.length(x)
    alpha = []
    for i, a in enumerate(f.alpha):
        n_i = T_.length(src_modes[i])
        if a is None:
            alpha.extend([None] * n_i)
        else:
            alpha.extend(range(offs[a - 1] + 1, offs[a - 1] + n_i + 1))
    return tuple(alpha)


def pullback(f, Tp):
    """f' = T'^* f : f^* T' -> T' for a refinement T' ->> T (Construction 3.2.5.5)."""
    Tm = relative_modes(Tp, f.codomain)
    Sm = [f.S[i] if a is None else Tm[a - 1] for i, a in enumerate(f.alpha)]
    Sp = substitute(Sm, f.domain)
    return morphism(Sp, Tp, _lift_along(f, Sm, Tm))


def pushforward(f, Sp):
    """f' = S'_* f : S' -> f_* S' for a refinement S' ->> S (Construction 3.2.5.12)."""
    Sm = relative_modes(Sp, f.domain)
    pre = {a: i for i, a in enumerate(f.alpha) if a is not None}
    Tm = [Sm[pre[j]] if j in pre else f.T[j - 1] for j in range(1, len(f.T) + 1)]
    Tp = substitute(Tm, f.codomain)
    return morphism(Sp, Tp, _lift_along(f, Sm, Tm))
