"""benchmarks/results.py: entries land in their section, newest first, and the rest of the file
is kept (``python -m pytest benchmarks/test_results.py``)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import results  # noqa: E402


def test_entries_go_first_in_their_section_and_keep_the_rest(tmp_path, monkeypatch):
    path = tmp_path / "RESULTS.md"
    path.write_text("# R\n\nintro\n\n## A\n\nwhat A measures\n\n### old A\n\nold\n\n## B\n\nB text\n")
    monkeypatch.setenv("LAYOUTCHECK_RESULTS", str(path))
    results.record("A", "new A", versions=["numpy"])
    results.record("B", [{"op": "x|y", "n": 1}])
    results.record("C", (["h1", "h2"], [[1, 2]]))
    text = path.read_text()
    assert text.index("what A measures") < text.index("new A") < text.index("### old A")
    assert text.index("B text") < text.index("| x\\|y | 1 |") and "## C" in text
    assert text.count("- machine: ") == 3 and "layoutcheck " in text


def test_recording_copies_the_output_and_notes_a_failing_exit(tmp_path, monkeypatch, capsys):
    path = tmp_path / "RESULTS.md"
    monkeypatch.setenv("LAYOUTCHECK_RESULTS", str(path))
    monkeypatch.setattr(sys, "argv", ["bench.py", "--n", "3"])
    try:
        with results.recording("S"):
            print("figure 42")
            sys.exit(1)
    except SystemExit:
        pass
    assert "figure 42" in capsys.readouterr().out
    text = path.read_text()
    assert "```text\nfigure 42\n```" in text and "Exit status 1." in text and "--n 3" in text


def test_off_records_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("LAYOUTCHECK_RESULTS", "off")
    assert results.record("A", "x") is None
