"""Pictures of layouts: every SVG parses as XML, its cells hold exactly the values
the spec computes, in CuTe's grid order; ``show --svg / --tv / --banks``; the side-by-side
picture of a failure marks exactly the differing cells; docs/F-030.svg is what the code draws
for the register's F-030 case."""

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import layoutcheck.reports.pictures as P
from layoutcheck import spec as S
from layoutcheck.cli import main
from layoutcheck.errors import LayoutError

NS = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parent.parent


def cells(svg, grid=0):
    """{(row, col): value or None, ...} of the grid-th grid, and the marked cells."""
    root = ET.fromstring(svg)
    assert root.tag == NS + "svg" and root.find(NS + "title") is not None
    grids = root.findall(f"{NS}g[@class='grid']")
    out, marked = {}, set()
    for r in grids[grid].findall(NS + "rect"):
        key = (int(r.get("data-row")), int(r.get("data-col")))
        out[key] = int(r.get("data-value")) if r.get("data-value") else None
        if "diff" in r.get("class").split():
            marked.add(key)
    return out, marked


@pytest.mark.parametrize("text", ["(2,(2,2)):(4,(2,1))", "(4,3):(3,1)", "8:2", "(3):(5)",
                                  "(2,3,(2,2)):(1,2,(6,12))", "(40):(1)"])
def test_a_grid_holds_the_spec_values_in_cute_order(text):
    L = S.parse(text)
    got, marked = cells(P.layout_svg(L))
    M = S.size(L, 0) if isinstance(L.shape, tuple) and len(L.shape) >= 2 else min(S.size(L), P.COLUMN)
    for i in range(S.size(L)):
        assert got[(i % M, i // M)] == L(i)
    assert len([v for v in got.values() if v is not None]) == S.size(L) and not marked
    if isinstance(L.shape, tuple) and len(L.shape) == 2:  # rank 2: cell (m, n) is L(m, n)
        for m in range(S.size(L, 0)):
            for n in range(S.size(L, 1)):
                assert got[(m, n)] == L((m, n))


def test_equal_offsets_get_equal_colours_and_text_is_escaped():
    svg = P.layout_svg(S.parse("(2,2):(0,1)"), title="a <b> & c")
    root = ET.fromstring(svg)
    fills = {}
    for r in root.iter(NS + "rect"):
        if r.get("class") == "cell":
            fills.setdefault(r.get("data-value"), set()).add(r.get("fill"))
    assert all(len(f) == 1 for f in fills.values()) and len(fills) == 2
    assert root.find(NS + "title").text == "a <b> & c"


def test_tv_picture_puts_each_thread_value_where_the_layout_sends_it():
    TV = S.parse("((4,2),(2,2)):((2,16),(1,8))")
    svg = P.tv_svg(TV, (8, 4))
    got, _ = cells(svg)
    root = ET.fromstring(svg)
    labels = {t.text for t in root.iter(NS + "text") if t.get("class") == "label"}
    for i in range(S.size(TV)):
        t, v = i % 8, i // 8
        idx = TV(i)
        assert got[(idx % 8, idx // 8)] == t  # coloured by thread: the cell's value is its thread
        assert f"T{t}V{v}" in labels
    assert P.default_tile(32) == (8, 4) and P.default_tile(7) == (7, 1)
    with pytest.raises(LayoutError, match="outside"):
        P.tv_svg(TV, (4, 4))


def test_banks_follow_the_spec_bank_model():
    from layoutcheck.spec.banks import bank_grid

    from layoutcheck.composed import parse_smem
    for text, width in (("Sw<3,4,3> o _0 o (8,64):(64,1)", 2), ("(8,32):(32,1)", 4),
                        ("(8,32):(1,8)", 8)):
        smem = parse_smem(text)
        got, _ = cells(P.banks_svg(smem, width))
        want = bank_grid(smem, width)
        assert {k: v for k, v in got.items()} == {(m, n): want[m][n] for m in range(len(want))
                                                  for n in range(len(want[0]))}
    with pytest.raises(LayoutError, match="element width"):
        P.banks_svg(parse_smem("(8,8):(8,1)"), 3)


def test_compare_marks_exactly_the_differing_cells():
    svg = P.compare_svg([0, 2, 11, 20], [0, 2, 10, 12], (2, 2))
    for side in (0, 1):
        _, marked = cells(svg, side)
        assert marked == {(0, 1), (1, 1)}
    _, none = cells(P.compare_svg([0, 1], [0, 1], (2, 2)))
    assert not none


def test_failure_pictures_of_a_differential_and_a_law_row():
    row = {"op": "composition", "oracle": "cute-cpp", "counterexample": ["(_3,_4):(_1,_10)", "_4:_2"],
           "answers": {"spec[cute]": "raised: not composable", "cute-cpp": "(_2,_2):(_2,_10)"}}
    svg = P.failure_svg(row)
    exp, marked = cells(svg, 0)
    act, _ = cells(svg, 1)
    assert [exp[(i % 2, i // 2)] for i in range(4)] == [0, 2, 11, 20]  # A(B(i)), the truth
    assert [act[(i % 2, i // 2)] for i in range(4)] == [0, 2, 10, 12]
    assert marked == {(0, 1), (1, 1)}
    law = {"op": "coalesce", "oracle": "module:x", "counterexample": ["(2,2):(1,1)"],
           "answers": {"input": "(2,2):(1,1)", "coalesce": "4:1"}}
    _, marked = cells(P.failure_svg(law), 1)
    assert marked == {(0, 1), (1, 1)}  # L(2), L(3) = 1, 2 against 2, 3
    assert P.failure_svg({"op": "size", "oracle": "o", "answers": {"x": "3"}}) is None


def test_show_writes_pictures_and_refuses_bad_flags(tmp_path, capsys):
    out = tmp_path / "l.svg"
    assert main(["show", "(4,3):(3,1)", "--svg", str(out)]) == 0
    got, _ = cells(out.read_text())
    assert got[(1, 2)] == 5 and "rank" in capsys.readouterr().out
    assert main(["show", "((4,2),(2,2)):((2,16),(1,8))", "--svg", str(out), "--tv", "--tile", "8,4"]) == 0
    assert main(["show", "Sw<3,4,3> o _0 o (8,64):(64,1)", "--svg", str(out), "--banks", "2"]) == 0
    assert "picture" in capsys.readouterr().out
    ET.fromstring(out.read_text())
    for argv, what in ((["--tv"], "--svg"), (["--svg", str(out), "--banks", "3"], "--banks"),
                       (["--svg", str(out), "--tile", "2,2"], "--tile"),
                       (["--svg", str(out), "--tv", "--tile", "0,2"], "--tile"),
                       (["--svg", str(tmp_path / "no" / "x.svg")], "--svg"),
                       (["--svg", str(tmp_path)], "directory")):
        assert main(["show", "(4,4):(4,1)", *argv]) == 2, argv
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and what in err[0], (argv, err)
    assert main(["show", "(128,64):(1,128)", "--svg", str(out)]) == 2
    assert "at most" in capsys.readouterr().err


def test_the_readme_picture_of_F030_is_what_the_code_draws():
    """docs/F-030.svg: CuTe C++'s answer to the register's F-030 case (recomputed by the
    model of CuTe C++, oracles/cpp/model.py, which tests/test_known_precise.py checks
    against the real headers) against the spec's A(B(i))."""
    import layoutcheck.oracles.cpp.model as models_cpp
    from layoutcheck.oracles.protocol import format_value

    from layoutcheck.layout import LayoutBase
    A, B = LayoutBase.parse("(_3,_4):(_1,_10)"), LayoutBase.parse("_4:_2")
    answer = format_value("composition", models_cpp.answer("composition", A, B).value)
    assert answer == "(_2,_2):(_2,_10)"
    svg = P.finding_svg("F-030", answer=answer)
    assert (ROOT / "docs" / "F-030.svg").read_text() == svg, \
        "regenerate: python -m layoutcheck.reports.pictures F-030 docs/F-030.svg"
    _, marked = cells(svg, 1)
    assert marked == {(0, 1), (1, 1)}
