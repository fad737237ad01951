"""`layoutcheck show` (layoutcheck/commands/show.py) and spec/properties.py."""

import json
import subprocess
import sys

import pytest

from layoutcheck import spec as S
from layoutcheck.cli import main


def run(capsys, *argv):
    rc = main(["show", *argv])
    out, err = capsys.readouterr()
    return rc, out, err


def test_text_output_seed000(capsys):
    rc, out, err = run(capsys, "(2,(2,2)):(4,(2,1))")
    assert rc == 0 and err == ""
    lines = out.splitlines()
    assert "layout      (2,(2,2)):(4,(2,1))" in lines
    for key, value in [("rank", 2), ("depth", 2), ("size", 8), ("cosize", 8)]:
        assert f"{key:<11} {value}" in lines
    assert "  0: 2:4" in lines and "  1: (2,2):(2,1)" in lines
    assert "values      0 4 2 6 1 5 3 7" in lines
    # grid: row m, column n holds L(m, n), mode 1 indexed by its colex index
    rows = [ln for ln in lines if ln.strip().startswith(("0  |", "1  |"))]
    cells = [[int(c) for c in r.split("|")[1:-1]] for r in rows]
    L = S.parse("(2,(2,2)):(4,(2,1))")
    assert cells == [[L((m, n)) for n in range(4)] for m in range(2)] == [[0, 2, 1, 3], [4, 6, 5, 7]]


def test_json_keys_and_values(capsys):
    rc, out, _ = run(capsys, "(3,4):(1,3)", "--json")
    info = json.loads(out)
    assert rc == 0
    assert {"layout", "shape", "stride", "rank", "depth", "size", "cosize", "values",
            "values_truncated", "properties"} <= set(info)
    assert info["layout"] == "(3,4):(1,3)" and info["shape"] == [3, 4] and info["stride"] == [1, 3]
    assert (info["rank"], info["depth"], info["size"], info["cosize"]) == (2, 1, 12, 12)
    assert info["values"] == list(range(12)) and info["values_truncated"] is False
    assert info["grid"] == [[0, 3, 6, 9], [1, 4, 7, 10], [2, 5, 8, 11]]     # Example 2.1.2.7
    props = info["properties"]
    assert props["column_major"] and props["compact"] and props["sorted"]
    assert not props["row_major"]


def test_json_truncation(capsys):
    rc, out, _ = run(capsys, "(8,8):(8,1)", "--json", "--limit", "5")
    info = json.loads(out)
    assert info["values"] == [0, 8, 16, 24, 32] and info["values_truncated"] is True
    assert info["size"] == 64 and "grid" not in info
    rc, out, _ = run(capsys, "(8,8):(8,1)", "--limit", "5")
    assert "59 more" in out and "grid        omitted" in out


def test_properties_match_spec_predicates():
    for text in ["(2,3):(1,4)", "(1,2):(5,1)", "(3,2):(12,0)", "():()", "(2,(2,2)):(4,(2,1))"]:
        props = S.layout_properties(text)
        assert list(props)[:7] == ["sorted", "column_major", "row_major", "non_degenerate",
                                   "injective", "compact", "surjective"]
        assert props["sorted"] == S.is_sorted(text)
        assert props["injective"] == S.is_injective(text)
        assert props["non_degenerate"] == S.is_non_degenerate(text)
        assert props["surjective"] == (S.image(text) == frozenset(range(S.cosize(text))))


def test_optional_properties_appear_when_spec_has_them(monkeypatch):
    monkeypatch.setattr(S, "is_tractable", lambda L: S.size(L) == 6, raising=False)
    monkeypatch.setattr(S, "coalesce", lambda L: S.parse("6:1"), raising=False)
    props = S.layout_properties("(2,3):(1,2)")
    assert props["tractable"] is True and props["coalesced_form"] == "6:1"
    monkeypatch.delattr(S, "is_tractable")
    assert "tractable" not in S.layout_properties("(2,3):(1,2)")


def test_empty_and_integral_layouts(capsys):
    rc, out, _ = run(capsys, "():()", "--json")
    info = json.loads(out)
    assert (info["rank"], info["size"], info["cosize"], info["values"]) == (0, 1, 1, [0])
    rc, out, _ = run(capsys, "_8:_2", "--json")
    info = json.loads(out)
    assert info["shape"] == 8 and info["values"] == [0, 2, 4, 6, 8, 10, 12, 14]
    assert info["layout"] == "_8:_2"


@pytest.mark.parametrize("bad", ["(2,(3,4):(1,2)", "(2,3):(1,(2,3))", "(0,2):(1,1)", "(2,3):(1,-1)"])
def test_bad_input_exit_2_one_line(capsys, bad):
    rc, out, err = run(capsys, bad)
    assert rc == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "position" in err


def test_bad_limit(capsys):
    rc, out, err = run(capsys, "8:1", "--limit", "-1")
    assert rc == 2 and "--limit" in err


def test_console_script_no_traceback():
    p = subprocess.run([sys.executable, "-m", "layoutcheck", "show", "(2,3"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and p.stdout == ""
    assert len(p.stderr.strip().splitlines()) == 1 and "Traceback" not in p.stderr
    assert "unbalanced parentheses" in p.stderr


# --- properties from the modes: exact, checked against the enumerating spec -----

def _small_layouts():
    """Every flat layout of rank <= 3 with shapes in {1,2,3} and strides in {0..4}, and some
    nested ones: the mode rules must agree with the spec's literal predicates on all."""
    import itertools
    out = []
    for rank in range(0, 4):
        for shape in itertools.product((1, 2, 3), repeat=rank):
            for stride in itertools.product(range(5), repeat=rank):
                out.append(S.Layout(shape, stride))
    out += [S.parse(t) for t in ["(2,(2,2)):(4,(2,1))", "((2,3),2):((3,1),6)", "(3,2):(2,3)",
                                  "(2,(3,2)):(6,(1,3))", "_8:_2", "():()"]]
    return out


def test_mode_rules_agree_with_the_spec_everywhere():
    from layoutcheck.commands.show import is_injective_by_modes, is_surjective_by_modes, mode_properties
    for k, L in enumerate(_small_layouts()):
        want = S.layout_properties(L)
        got = mode_properties(L, 1 << 20)
        for key in ("sorted", "column_major", "row_major", "non_degenerate", "injective",
                    "compact", "surjective", "coalesced", "complementable", "tractable"):
            if key in want:
                assert got[key] == want[key], (str(L), key)
        assert is_surjective_by_modes(L) == S.is_surjective(L), str(L)
        if k % 3 == 0:  # limit 0: the rules, then z3 (nothing enumerated)
            assert is_injective_by_modes(L, 0) == S.is_injective(L), str(L)


@pytest.mark.parametrize("text", ["(1073741824):(1)", "2:4294967296",
                                  "(1099511627776,1099511627776):(1,1099511627776)",
                                  "(3,2,1073741824):(2,3,8)", "(34359738368):(0)"])
def test_huge_layouts_show_fast_from_the_modes(capsys, text):
    import time
    t0 = time.monotonic()
    rc, out, _ = run(capsys, text, "--json", "--limit", "16")
    info = json.loads(out)
    assert rc == 0 and time.monotonic() - t0 < 20
    assert len(info["values"]) == min(16, info["size"]) and "grid" not in info
    props = info["properties"]
    L = S.parse(text)
    assert props["sorted"] == S.is_sorted(L) and props["non_degenerate"] == S.is_non_degenerate(L)
    assert props["injective"] in (True, False)  # decided, never enumerated


def test_show_decides_the_issue_examples():
    from layoutcheck.commands.show import mode_properties
    p = mode_properties(S.parse("2:4294967296"))
    assert p["injective"] is True and p["surjective"] is False and p["compact"] is False
    p = mode_properties(S.parse("(3,2,1073741824):(2,3,7)"), limit=16)  # 0+7 = 2*2+3: not injective
    assert p["injective"] is False
    p = mode_properties(S.parse("(3,2,1073741824):(2,3,8)"), limit=16)
    assert p["injective"] is True
