"""The sound reductions of the enumerations (proofs.lemmas): each query left out is a query
that is asked, with the modes' unknowns renamed, so z3 proves the two formulas equivalent."""

import itertools

import pytest
import z3
from layoutcheck.proofs import get_lemma
from layoutcheck.proofs.algebra_lemmas import (
    coalesce_patterns,
    compact_if_patterns,
    q_coalesce_coalesced,
    q_coalesce_idempotent,
    q_compact_if,
)
from layoutcheck.proofs.solving import fresh_context, solve

_AC = (z3.Z3_OP_ADD, z3.Z3_OP_MUL, z3.Z3_OP_AND, z3.Z3_OP_OR)
_COMMUTATIVE = (z3.Z3_OP_EQ, z3.Z3_OP_DISTINCT)


def _canon(e):
    """A text of ``e`` that is the same for terms equal up to the order of the arguments of
    +, *, and, or (associative-commutative, nested ones flattened) and of =, distinct."""
    if not z3.is_app(e) or e.num_args() == 0:
        return e.sexpr()
    k = e.decl().kind()
    args = list(e.children())
    if k in _AC:
        flat, todo = [], args
        while todo:
            t = todo.pop()
            if z3.is_app(t) and t.decl().kind() == k:
                todo += t.children()
            else:
                flat.append(t)
        return f"({e.decl().name()} {' '.join(sorted(_canon(t) for t in flat))})"
    texts = [_canon(t) for t in args]
    if k in _COMMUTATIVE:
        texts.sort()
    return f"({e.decl().name()} {' '.join(texts)})"


def _equivalent(mine, theirs):
    """The two lists hold the same conditions up to the order of commutative arguments (so
    the conjunctions are one formula, not merely both unsat)."""
    return sorted(map(_canon, mine)) == sorted(map(_canon, theirs))


def _renaming(r, rep_ones, rep_perm, ones, perm):
    """τ taking the representative's modes onto the pattern's: kept in σ order, then ones."""
    src = list(rep_perm) + [i for i in range(r) if rep_ones[i]]
    dst = list(perm) + [i for i in range(r) if ones[i]]
    return dict(zip(src, dst))


@pytest.mark.parametrize("r", [1, 2, 3, pytest.param(4, marks=pytest.mark.slow)])
def test_compact_if_representatives_cover_every_pattern(r):
    with fresh_context():
        full = q_compact_if(r, every_pattern=True)
        pats = list(compact_if_patterns(r, every_pattern=True))
        reps = {sum(o): (o, p) for o, p in compact_if_patterns(r)}
        asked = {(o, p): k for k, (o, p) in enumerate(compact_if_patterns(r))}
        reduced = q_compact_if(r)
        assert len(reps) == r + 1 and len(reduced) == 2 * (r + 1)
        assert len(full) == 2 * len(pats) == 2 * sum(
            len(list(itertools.permutations(range(r - k)))) * len(
                list(itertools.combinations(range(r), k))) for k in range(r + 1))
        names = lambda i: [z3.Int(f"L_s{i}"), z3.Int(f"L_d{i}"),  # noqa: E731
                           z3.Int(f"x{i}"), z3.Int(f"y{i}")]
        for n, (ones, perm) in enumerate(pats):
            rep = reps[sum(ones)]
            tau = _renaming(r, *rep, ones, perm)
            sub = [(a, b) for i, j in tau.items() for a, b in zip(names(i), names(j))]
            k = asked[rep]
            for half in (0, 1):
                mine = full[2 * n + half].assertions
                theirs = [z3.substitute(a, *sub) for a in reduced[2 * k + half].assertions]
                assert _equivalent(mine, theirs), (ones, perm, half)


def test_compact_if_full_enumeration_still_unsat_at_rank_3():
    """The statement the reduced rows prove: every pattern's pair is unsat."""
    lemma = get_lemma("compact_if_colmajor")
    with fresh_context():
        for q in q_compact_if(3, every_pattern=True):
            assert solve(q, 30, fast=True)[0] == "unsat", q.label
    assert len(lemma.queries(6)) == 14


def _size_one_last(r, ones):
    """τ: the kept modes, in their order, to the front, the size-1 modes to the back."""
    order = [i for i in range(r) if not ones[i]] + [i for i in range(r) if ones[i]]
    return {j: i for j, i in enumerate(order)}  # the representative's mode j is mode i


@pytest.mark.parametrize("build", [q_coalesce_coalesced, q_coalesce_idempotent])
@pytest.mark.parametrize("r", [1, 2, 3, 4])
def test_coalesce_branches_with_size_one_modes_last_cover_every_branch(build, r):
    with fresh_context():
        full = build(r, every_pattern=True)
        reduced = build(r)
        pats = list(coalesce_patterns(r))
        asked = {(o, tuple(m)): k for k, (o, _, m) in enumerate(coalesce_patterns(r, True))}
        assert len(full) == len(pats) and len(reduced) == len(asked) == 2 ** r
        names = lambda i: [z3.Int(f"L_s{i}"), z3.Int(f"L_d{i}")]  # noqa: E731
        for n, (ones, _, merges) in enumerate(pats):
            rep = tuple(i >= r - sum(ones) for i in range(r))
            tau = _size_one_last(r, ones)
            sub = [(a, b) for j, i in tau.items() for a, b in zip(names(j), names(i))]
            theirs = [z3.substitute(a, *sub) for a in reduced[asked[rep, tuple(merges)]].assertions]
            assert _equivalent(full[n].assertions, theirs), (ones, merges)


def _perm_image_reference(r, sort):
    """The σ enumeration written with the generic image_queries (as it was first built)."""
    from layoutcheck.proofs.query import image_queries, with_layout
    from layoutcheck.proofs.symbolic import SymLayout, fresh_layout
    (L, c0), out = fresh_layout("L", r), []
    M = L.modes
    before = {(a, b): z3.Or(M[a].d < M[b].d, z3.And(M[a].d == M[b].d, M[a].s < M[b].s),
                            z3.And(M[a].d == M[b].d, M[a].s == M[b].s, a < b))
              for a in range(r) for b in range(r) if sort and a != b}
    for perm in itertools.permutations(range(r)):
        c = c0 + [before[a, b] for a, b in zip(perm, perm[1:]) if sort]
        P = SymLayout(M[q] for q in perm)
        inv = [perm.index(i) for i in range(r)]
        qs = image_queries("sort" if sort else "permute", L, P,
                            lambda xs: [xs[q] for q in perm], lambda ys: [ys[k] for k in inv])
        for q in qs:
            q.label = "σ=" + "".join(str(i + 1) for i in perm) + ": " + q.label
        out += with_layout(qs, L, c)
    return out


@pytest.mark.parametrize("name", ["permute_image", "sort_image"])
@pytest.mark.parametrize("r", [1, 2, 3, 4])
def test_perm_image_queries_are_the_generic_image_queries(name, r):
    with fresh_context():
        mine = get_lemma(name).queries(r)
        ref = _perm_image_reference(r, sort=name == "sort_image")
        assert [q.label for q in mine] == [q.label for q in ref]
        for a, b in zip(mine, ref):
            assert len(a.assertions) == len(b.assertions)
            assert all(x.eq(y) for x, y in zip(a.assertions, b.assertions)), a.label
            assert a.layout.modes[0].s.eq(b.layout.modes[0].s)
