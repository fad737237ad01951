"""The lemma catalogue: each lemma of the paper's sections 2.1.2-2.1.7, encoded for z3.

Every query asks z3 for a *violation* of the statement: ``unsat`` means the statement holds
for every layout of that rank (within the stated bounds), ``sat`` gives a counterexample.
Shapes and strides are unbounded z3 integers unless the lemma's ``bound`` says otherwise.
Image statements use explicit witness coordinates (no quantifier alternation), in
coordinate form: Image(Phi_L) = phi_L([0, S)) since colex^-1 is a bijection (colex_inverse).
Algorithms with branches (coalesce; the cases of composition; σ) get one query per branch.
Queries may carry *hints* (symbolic.euclid, symbolic.colex_bound): valid facts about
division that steer z3, never assumptions about the statement.  Where an
induction exists, ``induction`` gives the step queries over the head-recursive form
``Phi_{(s:d)::T}(x) = d (x mod s) + Phi_T(x div s)`` with ``Phi_T`` an uninterpreted
function; the induction hypothesis is used only at the one point the step needs, so each
step is quantifier-free.  The argument that turns the steps into a proof for every rank is
the lemma's ``induction_argument``.
"""

import math

from layoutcheck.proofs import checks
from layoutcheck.proofs.algebra_lemmas import (
    COALESCE_ARG,
    ind_coalesce_phi,
    q_coalesce_coalesced,
    q_coalesce_idempotent,
    q_coalesce_phi,
    q_compact_if,
    q_compact_only_if,
    q_complement_compact,
    q_complement_disjoint,
    q_complementable_increasing,
    q_composition,
)
from layoutcheck.proofs.flat_lemmas import (
    COLEX_ARG,
    CONCAT_ARG,
    IMAGE_ARG,
    PERM_ARG,
    SQUEEZE_ARG,
    ind_colex,
    ind_colmajor,
    ind_colmajor_max,
    ind_concat_phi,
    ind_filter_image,
    ind_mixed_radix,
    ind_restrict_image,
    ind_sorted_corrected,
    ind_squeeze_cosize,
    ind_squeeze_phi,
    ind_squeeze_size,
    ind_swap,
    perm_image,
    q_colex_inverse,
    q_colmajor,
    q_colmajor_max,
    q_concat_cosize,
    q_concat_phi,
    q_filter_image,
    q_mixed_radix,
    q_restrict_image,
    q_sorted_corrected,
    q_sorted_literal,
    q_sorted_squeezed,
    q_squeeze_cosize,
    q_squeeze_phi,
    q_squeeze_size,
)
from layoutcheck.proofs.query import Lemma, Query

from layoutcheck.errors import LayoutError

__all__ = ["Query", "Lemma", "CATALOGUE", "get_lemma"]


# queries per rank (``Lemma.count``, for estimates; tests/test_proofs.py checks each against
# the queries the lemma builds).  ``Lemma.cost``: CPU seconds per query over ranks 1-6 and the
# induction, measured on the project's 2-core VM (benchmarks/RESULTS.md, "Proofs")
def _two(rank):
    return 2


def _three(rank):
    return 3


def _plus_one(rank):
    return rank + 1


def _twice_factorial(rank):  # σ enumerated, both inclusions
    return 2 * math.factorial(rank)


def _branch_patterns(rank):  # coalesce's branch patterns
    return (3 ** rank + 1) // 2


def _powers_of_two(rank):
    return 2 ** rank


def _relabellings(rank):
    return 2 * rank + 2


def _branch_pairs(rank):  # composition's branches (k, j)
    return rank * (rank + 1) // 2


CATALOGUE = [
    Lemma("squeeze_size", "2.1.3.11(1)", "size(squeeze(L)) = size(L)",
          q_squeeze_size, checks.squeeze_size, induction=ind_squeeze_size,
          induction_argument=SQUEEZE_ARG),
    Lemma("squeeze_cosize", "2.1.3.11(2)", "cosize(squeeze(L)) = cosize(L)",
          q_squeeze_cosize, checks.squeeze_cosize, induction=ind_squeeze_cosize,
          induction_argument=SQUEEZE_ARG),
    Lemma("squeeze_phi", "2.1.3.11(3)", "Phi_squeeze(L) = Phi_L",
          q_squeeze_phi, checks.squeeze_phi, induction=ind_squeeze_phi,
          induction_argument=SQUEEZE_ARG),
    Lemma("filter_image", "2.1.3.12", "Image(Phi_filter(L)) = Image(Phi_L) (filter zeros)",
          q_filter_image, checks.filter_image, induction=ind_filter_image,
          induction_argument=IMAGE_ARG, bound="unbounded; witness coordinates", count=_two, cost=0.008),
    Lemma("permute_image", "2.1.3.18", "Image(Phi_{L^σ}) = Image(Phi_L) for every σ",
          lambda r: perm_image(r, sort=False), checks.permute_image, induction=ind_swap,
          induction_argument=PERM_ARG, bound="unbounded; σ enumerated; witness coordinates",
          max_rank=6, count=_twice_factorial, cost=0.001),
    Lemma("sort_image", "2.1.3.35", "Image(Phi_sort(L)) = Image(Phi_L), both inclusions "
          "(the printed proof names the wrong inclusion, F-002)",
          lambda r: perm_image(r, sort=True), checks.sort_image, induction=ind_swap,
          induction_argument=PERM_ARG, bound="unbounded; σ enumerated; witness coordinates",
          max_rank=6, count=_twice_factorial, cost=0.001),
    Lemma("restrict_image", "2.1.3.1", "Image(Phi_{L|I}) ⊆ Image(Phi_L) for every I ⊆ <m>",
          q_restrict_image, checks.restrict_image, bound="unbounded; I symbolic",
          induction=ind_restrict_image, induction_argument=IMAGE_ARG),
    Lemma("concat_phi", "2.1.3.39-40", "Phi_{L1⋆L2}(x) = Phi_L1(x mod N1) + Phi_L2(x div N1); "
          "with L1 = L|<k>, L2 = L|rest this is the restriction law L = L|<k> ⋆ L|rest",
          q_concat_phi, checks.concat_phi, induction=ind_concat_phi,
          induction_argument=CONCAT_ARG, count=_plus_one, cost=0.035),
    Lemma("concat_cosize", "2.1.3.41(3)", "cosize(L1⋆L2) = cosize(L1) + cosize(L2) - 1",
          q_concat_cosize, checks.concat_cosize, count=_plus_one, cost=0.002),
    Lemma("colmajor_identity", "2.1.2.25", "L column-major => Phi_L is the identity on [0, size, cost=0.05)",
          q_colmajor, checks.colmajor_identity, induction=ind_colmajor,
          induction_argument="The column-major layout of (s)::S is (s:1)::(s * colmajor(S)); "
          "the step query closes the induction on rank."),
    Lemma("colmajor_max", "2.1.5.6", "sum_{j<i} (s_j - 1) s_1..s_{j-1} = s_1..s_{i-1} - 1 "
          "(the largest value of the first i-1 column-major modes)", q_colmajor_max,
          checks.colmajor_max, induction=ind_colmajor_max, min_rank=2,
          induction_argument="Adding mode i-1 adds (s_{i-1} - 1) P_{i-2} to P_{i-2} - 1, "
          "giving P_{i-1} - 1 (the step query).", cost=0.004),
    Lemma("colmajor_max_as_printed", "2.1.6.21", "the same sum = s_1..s_i - 1, as printed in the "
          "proofs of Prop 2.1.6.21 and 2.1.6.32 (F-090)",
          lambda r: q_colmajor_max(r, printed=True), checks.colmajor_max_as_printed,
          expected="refuted", bound="shapes 2..3", min_rank=2, max_rank=3),
    Lemma("colex_inverse", "2.1.2.18", "colex_S and colex_S^-1 are inverse to each other",
          q_colex_inverse, checks.colex_inverse, induction=ind_colex,
          induction_argument=COLEX_ARG, count=_two, cost=0.03),
    Lemma("mixed_radix_unique", "2.1.2.18", "colex_S is injective on [0, S) "
          "(mixed-radix coordinates are unique)", q_mixed_radix, checks.colex_inverse,
          induction=ind_mixed_radix, induction_argument=COLEX_ARG),
    Lemma("coalesce_phi", "2.1.4.17", "Phi_coal(L) = Phi_L",
          q_coalesce_phi, checks.coalesce_phi, induction=ind_coalesce_phi,
          induction_argument=COALESCE_ARG, bound="one query per branch pattern",
          count=_branch_patterns, cost=0.04),
    Lemma("coalesce_coalesced", "2.1.4.15", "coal(L) is coalesced (Def 2.1.4.1)",
          q_coalesce_coalesced, checks.coalesce_coalesced,
          bound="one query per branch pattern, size-1 modes last", count=_powers_of_two, cost=0.003),
    Lemma("coalesce_idempotent", "2.1.4.16", "coal(coal(L)) = coal(L)",
          q_coalesce_idempotent, checks.coalesce_idempotent,
          bound="one query per branch pattern, size-1 modes last", count=_powers_of_two, cost=0.003),
    Lemma("compact_if_colmajor", "2.1.5.6", "squeeze(L)^σ column-major for some σ => L "
          "compact (Phi_L injective and cosize = size)", q_compact_if,
          checks.compact_iff_colmajor, bound="unbounded; size-1 modes, σ up to relabelling",
          max_rank=6, count=_relabellings, cost=0.007),
    Lemma("compact_only_if_colmajor", "2.1.5.6", "L compact => squeeze(L)^σ column-major for "
          "some σ", q_compact_only_if, checks.compact_iff_colmajor,
          bound="shapes <= 3 (every coordinate pair expanded); σ enumerated", max_rank=3, cost=0.14),
    Lemma("complement_disjoint", "2.1.6.29-31", "A N-complementable: "
          "Image(Phi_A) ∩ Image(Phi_comp(A,N)) = {0}", q_complement_disjoint,
          checks.complement_disjoint, bound="A = sort(squeeze(A)); comp before coal",
          strategy="complementable", cost=0.8),
    Lemma("complement_compact", "2.1.6.31", "A N-complementable: A ⋆ comp(A, N) is compact "
          "of size N", q_complement_compact, checks.complement_compact,
          bound="A = sort(squeeze(A)); comp before coal", strategy="complementable", count=_three),
    Lemma("complementable_increasing", "2.1.6.22", "A complementable and sorted => Phi_A "
          "increasing", q_complementable_increasing, checks.complementable_increasing,
          bound="A = sort(squeeze(A)); one query per top differing mode",
          strategy="complementable", count=_plus_one, cost=0.03),
    Lemma("composition_phi", "2.1.7.1", "Phi_{A∘B} = Phi_A ∘ Phi_B on [0, size B, cost=0.05) for B = n:e "
          "with e and n dividing through shape(A) (CuTe's composable rank-1 B)",
          q_composition, checks.composition_phi, bound="one query per branch (k, j)",
          strategy="composable", count=_branch_pairs),
    Lemma("sorted_literal", "2.1.3.29", "Phi_L non-decreasing => L sorted (as printed)",
          q_sorted_literal, checks.sorted_literal, expected="refuted",
          bound="shapes, strides <= 3", min_rank=2, max_rank=3, cost=0.04),
    Lemma("sorted_squeezed", "2.1.3.29", "squeezed L (shapes >= 2), Phi_L non-decreasing "
          "=> L sorted", q_sorted_squeezed, checks.sorted_squeezed, expected="refuted",
          bound="shapes 2..3, strides <= 3", min_rank=2, max_rank=2, cost=0.07),
    Lemma("sorted_corrected", "2.1.3.29", "shapes >= 2 and Phi_L non-decreasing => "
          "d_i <= d_{i+1}, and s_i <= s_{i+1} where d_i = d_{i+1} > 0 (sorted up to "
          "zero-stride modes)", q_sorted_corrected, checks.sorted_corrected, min_rank=2,
          induction=ind_sorted_corrected,
          induction_argument="The violation at modes i, i+1 is witnessed at points whose "
          "coordinates vanish outside i, i+1; the local query with the prefix size P free "
          "covers every rank and every i.", cost=0.5),
]


def get_lemma(name):
    for lemma in CATALOGUE:
        if lemma.name == name:
            return lemma
    raise LayoutError(f"no lemma named {name!r}; `layoutcheck prove --list` lists them")
