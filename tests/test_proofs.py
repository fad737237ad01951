"""layoutcheck.proofs: z3 proofs at low ranks, the refutation and unknown paths, the
re-validation of every lemma on concrete layouts (hypothesis, layoutcheck.spec), the CLI."""

import json
import subprocess
import sys

import pytest
import z3
from hypothesis import given
from hypothesis import strategies as st
from layoutcheck.proofs import CATALOGUE, Lemma, Query, expected_outcome_met, get_lemma, run, solve
from layoutcheck.proofs.symbolic import fresh_layout

from layoutcheck import LayoutError, spec
from layoutcheck.cli import main

QUICK_RANK = 3


# ---------------------------------------------------------------- proofs at low rank

@pytest.fixture(scope="module")
def quick_rows():
    return run(max_rank=QUICK_RANK, timeout=30)


@pytest.mark.parametrize("lemma", [lm.name for lm in CATALOGUE])
def test_catalogue_ends_as_expected_at_low_rank(quick_rows, lemma):
    rows = [r for r in quick_rows if r["lemma"] == lemma]
    assert rows, lemma
    assert expected_outcome_met(lemma, rows), rows
    for r in rows:
        assert r["result"] in ("proved", "refuted") and r["as_expected"] is True
        assert set(r) >= {"lemma", "rank", "result", "seconds", "counterexample", "for_all_ranks"}


def test_quick_caps_the_rank():
    rows = run(["squeeze_phi"], max_rank=6, quick=True)
    assert [r["rank"] for r in rows] == [1, 2, 3, "all"]


def test_inductions_give_all_ranks(quick_rows):
    with_induction = {lm.name for lm in CATALOGUE if lm.induction is not None}
    assert len(with_induction) >= 10
    for r in quick_rows:
        assert r["for_all_ranks"] == (r["lemma"] in with_induction), r


def test_third_rank_of_the_core_lemmas():
    rows = run(["squeeze_phi", "sort_image", "coalesce_phi", "complement_compact"],
               max_rank=3, timeout=30, induction=False)
    assert [r["rank"] for r in rows if r["lemma"] == "coalesce_phi"] == [1, 2, 3]
    assert all(r["result"] == "proved" for r in rows), rows


# ---------------------------------------------------------------- refutation path

def _nondecreasing(L):
    v = spec.values(L)
    return all(a <= b for a, b in zip(v, v[1:]))


@pytest.mark.parametrize("name", ["sorted_literal", "sorted_squeezed"])
def test_refuted_lemma_has_a_counterexample_that_rechecks(name):
    rows = run([name], max_rank=2, timeout=30)
    (row,) = rows
    assert row["result"] == "refuted"
    L = spec.parse(row["counterexample"])
    assert spec.rank(L) == 2
    # re-check by plain evaluation, independently of the lemma's own check
    assert _nondecreasing(L) and not spec.is_sorted(L)
    if name == "sorted_squeezed":
        assert all(s >= 2 for s in spec.flatten(L.shape))


def test_the_corrected_statement_has_no_counterexample_that_the_refuted_one_has():
    for text in ["(2,1):(1,0)", "(3,2):(0,0)", "(1,2):(5,1)"]:
        L = spec.parse(text)
        assert get_lemma("sorted_literal").check(L) is False
        assert get_lemma("sorted_corrected").check(L) is not False


def test_sat_model_that_does_not_recheck_is_unknown_not_refuted():
    def queries(r):
        L, c = fresh_layout("L", r)
        return [Query("anything", c, L)]  # satisfiable by every layout
    fake = Lemma("fake", "-", "always holds on the spec", queries, check=lambda L: True)
    from layoutcheck.proofs import run_lemma
    (row,) = run_lemma(fake, max_rank=1, timeout=5)
    assert row["result"] == "unknown"
    assert "does not re-check" in row["note"]


# ---------------------------------------------------------------- unknown path

def _hard_query(rank=6):
    # colex^-1(colex(x)) = x without the Euclidean hints: z3 does not settle it quickly
    L, c = fresh_layout("S", rank)
    xs = [z3.Int(f"x{i}") for i in range(rank)]
    back = L.coords(L.colex(xs))
    return Query("hard", c + [L.in_box(xs), z3.Or([a != b for a, b in zip(back, xs)])], L)


def test_timeout_is_unknown_never_proved():
    res, model = solve(_hard_query(), timeout=0.05)
    assert res == "unknown" and model is None


def test_unknown_row_fails_the_expected_outcome():
    fake = Lemma("hard_fake", "-", "hard", lambda r: [_hard_query()], check=lambda L: True)
    from layoutcheck.proofs import run_lemma
    rows = run_lemma(fake, max_rank=1, timeout=0.05)
    assert [r["result"] for r in rows] == ["unknown"]
    assert "timeout" in rows[0]["note"]


def test_tiny_timeout_through_run_gives_no_false_proof():
    rows = run(["coalesce_phi"], max_rank=4, timeout=0.001, induction=False)
    assert any(r["result"] == "unknown" for r in rows)
    assert not expected_outcome_met("coalesce_phi", rows)
    assert not any(r["as_expected"] for r in rows)


def test_bad_arguments():
    with pytest.raises(LayoutError, match="no lemma named"):
        run(["no_such_lemma"])
    with pytest.raises(LayoutError, match="max rank"):
        run(max_rank=0)
    with pytest.raises(LayoutError, match="timeout"):
        run(timeout=0)


# ---------------------------------------------------------------- re-validation on the spec

def _layouts(max_rank=4, max_shape=4, max_stride=12):
    def build(pairs):
        return spec.Layout(tuple(s for s, _ in pairs), tuple(d for _, d in pairs))
    mode = st.tuples(st.integers(1, max_shape), st.integers(0, max_stride))
    return st.lists(mode, min_size=0, max_size=max_rank).map(build)


@st.composite
def _complementable(draw):
    """A N-complementable A (built as sort(squeeze(A)) then shuffled, with size-1 modes)."""
    m = draw(st.integers(1, 3))
    d = draw(st.integers(1, 3))
    modes = []
    for _ in range(m):
        s = draw(st.integers(2, 3))
        modes.append((s, d))
        d = s * d * draw(st.integers(1, 2))
    N = d
    modes += [(1, draw(st.integers(0, 5))) for _ in range(draw(st.integers(0, 1)))]
    modes = draw(st.permutations(modes))
    return spec.Layout(tuple(s for s, _ in modes), tuple(x for _, x in modes)), N


@st.composite
def _composable(draw):
    """(A, B): B = n:e with e = s_1..s_{k-1} c, c | s_k, and n dividing through shape(A)."""
    r = draw(st.integers(1, 3))
    shape = [draw(st.sampled_from([1, 2, 3, 4, 6])) for _ in range(r)]
    stride = [draw(st.integers(0, 9)) for _ in range(r)]
    k = draw(st.integers(0, r - 1))
    c = draw(st.sampled_from([x for x in range(1, shape[k] + 1) if shape[k] % x == 0]))
    e = c
    for s in shape[:k]:
        e *= s
    rest = [shape[k] // c] + shape[k + 1:]
    j = draw(st.integers(0, len(rest) - 1))
    v = draw(st.sampled_from([x for x in range(1, rest[j] + 1) if rest[j] % x == 0]))
    n = v
    for s in rest[:j]:
        n *= s
    return spec.Layout(tuple(shape), tuple(stride)), spec.Layout(n, e)


def _inputs(lemma):
    if lemma.strategy == "complementable":
        return _complementable()
    if lemma.strategy == "composable":
        return _composable()
    return _layouts(max_rank=3 if lemma.name in ("permute_image", "compact_if_colmajor") else 4)


@pytest.mark.parametrize("lemma", [lm for lm in CATALOGUE if lm.expected == "proved"],
                         ids=lambda lm: lm.name)
def test_proved_lemma_holds_on_concrete_layouts(lemma):
    applied = []

    @given(_inputs(lemma))
    def check(x):
        held = lemma.check(x)
        assert held is not False, (lemma.name, x)
        applied.append(held)

    check()
    assert applied.count(True) >= 5, f"{lemma.name}: hypothesis rarely applied"


def test_compact_lemma_sees_both_answers():
    # the iff must be exercised on compact and non-compact inputs alike
    check = get_lemma("compact_if_colmajor").check
    for text in ["(2,3):(3,1)", "(2,1,4):(4,7,1)", "(2,2):(1,3)", "(3,2):(1,3)"]:
        assert check(spec.parse(text)) is True
    assert spec.is_compact(spec.parse("(2,1,4):(4,7,1)"))
    assert not spec.is_compact(spec.parse("(2,2):(1,3)"))


# ---------------------------------------------------------------- command line

def test_cli_list(capsys):
    assert main(["prove", "--list"]) == 0
    out = capsys.readouterr().out
    for lm in CATALOGUE:
        assert lm.name in out


def test_cli_json_and_report(tmp_path, capsys):
    report = tmp_path / "rows.json"
    assert main(["prove", "sorted_literal", "squeeze_phi", "--max-rank", "2", "--json",
                 "--report", str(report)]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows == json.loads(report.read_text())
    by = {(r["lemma"], r["rank"]): r for r in rows}
    assert by[("sorted_literal", 2)]["result"] == "refuted"
    assert by[("squeeze_phi", "all")]["for_all_ranks"] is True


def test_cli_table_and_exit_1_on_unknown(capsys):
    assert main(["prove", "coalesce_phi", "--max-rank", "4", "--timeout", "0.001",
                 "--no-induction"]) == 1
    out = capsys.readouterr().out
    assert "unknown" in out and "not as expected: coalesce_phi" in out


def test_cli_bad_lemma_is_exit_2_one_line():
    p = subprocess.run([sys.executable, "-m", "layoutcheck", "prove", "nope"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2
    assert p.stderr.strip().count("\n") == 0 and "no lemma named 'nope'" in p.stderr


def test_F090_printed_telescoping_sum_is_refuted():
    rows = run(["colmajor_max_as_printed", "colmajor_max"], max_rank=3, timeout=30)
    printed = [r for r in rows if r["lemma"] == "colmajor_max_as_printed"]
    assert all(r["result"] == "refuted" for r in printed)
    for r in printed:
        s = spec.flatten(spec.parse(r["counterexample"]).shape)
        total, prefix = 0, 1
        for sj in s[:-1]:
            total += (sj - 1) * prefix
            prefix *= sj
        assert total == prefix - 1 != prefix * s[-1] - 1
    assert all(r["result"] == "proved" for r in rows if r["lemma"] == "colmajor_max")


def test_induction_proves_a_lemma_whose_high_rank_query_is_unknown():
    rows = [{"lemma": "sorted_corrected", "rank": 2, "result": "proved"},
            {"lemma": "sorted_corrected", "rank": 6, "result": "unknown"},
            {"lemma": "sorted_corrected", "rank": "all", "result": "proved"}]
    assert expected_outcome_met("sorted_corrected", rows)
    assert not expected_outcome_met("sorted_corrected", rows[:2])
    refuted = rows + [{"lemma": "sorted_corrected", "rank": 3, "result": "refuted"}]
    assert not expected_outcome_met("sorted_corrected", refuted)


def test_a_broken_encoding_is_not_proved(monkeypatch):
    # non-vacuity: coalesce with every stride off by one must not prove; z3's models do not
    # re-check on the spec (whose coalesce is right), so the rows are unknown, not refuted
    from layoutcheck.proofs import algebra_lemmas as LM
    from layoutcheck.proofs import run_lemma
    from layoutcheck.proofs.symbolic import Mode, SymLayout
    orig = LM._coalesce_branch

    def broken(*args):
        L, c, R, label = orig(*args)
        return L, c, SymLayout(Mode(m.s, m.d + 1) for m in R.modes), label
    monkeypatch.setattr(LM, "_coalesce_branch", broken)
    rows = run_lemma(get_lemma("coalesce_phi"), max_rank=2, timeout=10, induction=False)
    assert [r["result"] for r in rows] == ["unknown", "unknown"]
    assert all("does not re-check" in r["note"] for r in rows)
