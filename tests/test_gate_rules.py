"""Gate rules added at integration: an unreached check is no pass, a spec refusal by size is no
precondition, an oracle's own counters never replace the harness' counts, a reproducer that
cannot be built is not "the bug is present"."""

import json

from layoutcheck.fuzz.campaign.report import oracle_stats
from layoutcheck.oracles import get_oracle
from layoutcheck.oracles.protocol import parse_args
from layoutcheck.oracles.reference import reference_for

from layoutcheck.cli import main


def test_unreached_pairs_exit_2_unless_allowed(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    # one-time costs first (imports, hypothesis' scan of local constants): in a fresh process
    # they took the whole 0.05 s, so no pair judged a case ("every check was skipped", exit 2)
    main(["fuzz", "--against", "impl", "--budget", "0.5", "--no-db", "--allow-unreached"])
    capsys.readouterr()
    argv = ["fuzz", "--against", "impl", "--budget", "0.05", "--no-db", "--report", "r.json"]
    assert main(argv) == 2
    assert "were not reached within the budget" in capsys.readouterr().err
    rows = json.loads((tmp_path / "r.json").read_text())["results"]
    assert any(r.get("not_reached") and r["status"] == "skipped" for r in rows)
    assert main(argv + ["--allow-unreached"]) == 0


def test_a_spec_refusal_by_size_falls_back_to_impl():
    args = parse_args("left_inverse", ["(2048,1024):(1,2048)"])
    spec = get_oracle("spec")
    assert "enumeration_limit" in spec.run("left_inverse", *args).message
    ref = reference_for("pycute", spec, memo=False)
    out = ref.run("left_inverse", *args)
    assert out.kind == "ok" and str(out.value).replace("_", "") == "2097152:1"
    own = reference_for("impl", spec, memo=False).run("left_inverse", *args)
    assert own.kind == "unsupported"  # impl is never judged against itself


def test_a_correct_answer_on_a_large_input_passes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["fuzz", "--against", "pycute", "--case", "diff.left_inverse",
                 "(2048,1024):(1,2048)", "--no-db"]) == 0


class _Counting:
    def stats(self):
        return {"cases": {"driver": 3}, "seconds": 99.0, "compiles": 2}


def test_oracle_counters_do_not_replace_the_harness_counts():
    rows = [{"oracle": "x", "status": "pass", "cases": 7, "seconds": 1.5}]
    row = oracle_stats({"x": _Counting()}, ["x"], rows)["x"]
    assert row["cases"] == 7 and row["seconds"] == 1.5
    assert row["oracle_cases"] == {"driver": 3} and row["compiles"] == 2


def test_a_reproducer_that_cannot_be_built_is_not_the_bug(tmp_path):
    from layoutcheck.oracles.cpp.toolchain import Toolchain

    from layoutcheck.reports.reproducers import build_and_run
    if Toolchain(None).unavailable_reason():
        import pytest
        pytest.skip(Toolchain(None).unavailable_reason())
    rc, out = build_and_run("repro.cpp", '#include "no_such_header_here.hpp"\nint main() { return 0; }\n')
    assert rc == 2 and "could not build" in out, (rc, out)
    rc, out = build_and_run("repro.cpp", "static_assert(1 == 2, \"Planted Condition\");\nint main() {}\n")
    assert rc == 1 and out.startswith("does not compile"), (rc, out)


def test_every_command_help_prints(capsys):
    """`--help` of every command prints its usage and exits 0 (a '%' in a help text once made
    argparse raise a traceback)."""
    import pytest

    from layoutcheck.cli import COMMANDS
    for name in COMMANDS:
        with pytest.raises(SystemExit) as e:
            main([name, "--help"])
        assert e.value.code == 0, name
        assert f"usage: layoutcheck {name}" in capsys.readouterr().out


def test_cute_cpp_underscore_answer_is_a_wrong_kind_not_a_crash():
    """CuTe C++'s crd2idx(_, 1) returns its Underscore: an answer of the wrong kind (a failure of
    the diff check), not an unreadable one (a crash)."""
    from layoutcheck.oracles.cpp.oracle import outcome
    from layoutcheck.oracles.protocol import is_invalid_answer

    from layoutcheck.layout import _
    out = outcome(("crd2idx", (_, 1)), "T ?_")
    assert out.kind == "raised" and is_invalid_answer(out)
    assert outcome(("crd2idx", (_, 1)), "T ?garbage").kind == "crashed"
