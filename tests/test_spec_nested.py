"""Nested tuples, paper 2.2: substitution, congruence, refinement, relative modes."""

import pytest
from hypothesis import given
from hypothesis import strategies as st
from layoutcheck.spec import nested as N
from layoutcheck.spec import tuples as T

from layoutcheck.errors import LayoutError


@st.composite
def nested(draw, depth=3):
    """Nested tuples of small positive integers, with empty and rank-1 tuples."""
    if depth == 0 or draw(st.integers(0, 2)) == 0:
        return draw(st.sampled_from([1, 2, 3, 4, 6, 8]))
    r = draw(st.integers(0, 3))
    return tuple(draw(nested(depth - 1)) for _ in range(r))


@st.composite
def refinement_of(draw, X):
    """A nested tuple X' that refines X: every leaf x is replaced by a nested tuple of
    size x (built from a random factorisation of x)."""
    def leaf(x):
        parts = []
        while x > 1 and draw(st.booleans()):
            ds = [d for d in range(2, x + 1) if x % d == 0]
            d = draw(st.sampled_from(ds))
            parts.append(d)
            x //= d
        parts.append(x)
        if len(parts) == 1 and draw(st.booleans()):
            return parts[0]
        if len(parts) >= 2 and draw(st.booleans()):
            return (parts[0], tuple(parts[1:]))
        return tuple(parts)

    def go(x):
        return tuple(go(e) for e in x) if isinstance(x, tuple) else leaf(x)

    return go(X)


@given(st.data())
def test_relative_modes_substitute_back(data):
    X = data.draw(nested())
    Xp = data.draw(refinement_of(X))
    assert N.refines(Xp, X)
    modes = N.relative_modes(Xp, X)
    assert len(modes) == T.length(X)                       # one per entry of X
    assert [T.size(m) for m in modes] == list(T.flatten(X))  # Construction 2.2.4.5
    assert N.substitute(modes, X) == Xp                    # Observation 2.3.4.3
    assert N.refines(N.relative_flatten(Xp, X), T.flatten(X))  # Observation 2.2.4.16


@given(nested())
def test_refinement_is_reflexive_and_relative_modes_of_self_are_entries(X):
    assert N.refines(X, X)
    assert N.relative_modes(X, X) == T.flatten(X)          # Example 2.2.4.7
    assert N.refines(X, T.size(X))                          # Example 2.2.4.9
    assert N.relative_modes(X, T.size(X)) == (X,)


@given(nested(), nested())
def test_refinement_antisymmetric_and_needs_sizes(X, Y):
    if N.refines(X, Y) and N.refines(Y, X):
        assert X == Y                                       # Observation 2.2.4.4
    if N.refines(X, Y):
        assert T.size(X) == T.size(Y)
    else:
        with pytest.raises(LayoutError) as e:
            N.relative_modes(X, Y)
        assert e.value.condition == "refines"


@given(nested(), nested())
def test_congruence_is_equal_profile(X, Y):
    assert N.is_congruent(X, Y) == (N.as_profile(X) == N.as_profile(Y))
    other_values = N.substitute([v + 1 for v in T.flatten(X)], X)
    assert N.is_congruent(X, other_values)
    assert not N.is_congruent(X, (X,))


@given(nested())
def test_substitute_of_entries_is_identity_and_flattening(X):
    assert N.substitute(T.flatten(X), X) == X                # Def 2.2.3.1
    flat = N.substitute(T.flatten(X), ("*",) * T.length(X))  # Example 2.2.1.9: concatenation
    assert flat == T.flatten(X)


def test_substitution_length_mismatch_raises():
    with pytest.raises(LayoutError) as e:
        N.substitute([1, 2], ("*", ("*", "*")))
    assert e.value.condition == "profile_length"


def test_relative_modes_not_a_refinement():
    assert N.refines((64,), (64,))               # (64) refines (64)
    assert not N.refines(64, (64,))              # depth 0 does not refine depth 1
    assert N.refines((64,), 64)                  # Example 2.2.4.3
