"""`layoutcheck op NAME ARG... [--against ORACLES] [--json] [--sense]`."""

import json
import textwrap

import pytest
from layoutcheck.oracles import get_oracle

from layoutcheck import spec
from layoutcheck.cli import main


def run(capsys, *argv):
    rc = main(["op", *argv])
    out, err = capsys.readouterr()
    return rc, out, err


def rows(out):
    return {r["oracle"]: r for r in map(json.loads, out.splitlines())}


def test_composition_json_against_spec_and_pycute(capsys):
    if get_oracle("pycute").unavailable_reason():
        pytest.skip("pycute missing")
    rc, out, err = run(capsys, "composition", "(6,2):(8,2)", "(4,3):(3,1)",
                       "--against", "spec,pycute", "--json")
    assert rc == 0 and err == ""
    r = rows(out)
    assert set(r) == {"spec", "pycute"}
    A, B = spec.parse("(6,2):(8,2)"), spec.parse("(4,3):(3,1)")
    R = spec.parse(r["spec"]["result"])
    assert spec.values(R) == [A(b) for b in spec.values(B)]
    assert r["pycute"]["verdict"] == "agree" and r["pycute"]["required"] == "function"
    assert r["pycute"]["args"] == ["(6,2):(8,2)", "(4,3):(3,1)"]


def test_table_output_with_cute_cpp(capsys):
    if get_oracle("cute-cpp").unavailable_reason():
        pytest.skip("cute-cpp unavailable")
    rc, out, err = run(capsys, "composition", "(6,2):(8,2)", "(4,3):(3,1)",
                       "--against", "spec,pycute,cute-cpp")
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("composition (6,2):(8,2) (4,3):(3,1)")
    cpp = next(ln for ln in lines if ln.startswith("cute-cpp"))
    # runtime ints: CuTe's structure differs from the spec's, the function is the same
    assert "function" in cpp and "agree" in cpp and "structure differs" in cpp


def test_known_finding_does_not_fail(capsys):
    if get_oracle("pycute").unavailable_reason():
        pytest.skip("pycute missing")
    rc, out, _ = run(capsys, "logical_product", "(2,2):(1,2)", "3", "--against", "pycute", "--json")
    r = rows(out)["pycute"]
    assert rc == 0 and r["agrees"] is False and r["verdict"] == "known" and r["finding"]


def test_disagreement_exits_1(capsys, tmp_path, monkeypatch):
    (tmp_path / "wrong_coalesce.py").write_text(textwrap.dedent("""
        class Layout:
            def __init__(self, shape, stride):
                self.shape, self.stride = shape, stride
        def coalesce(L):
            return Layout(L.shape, L.stride)   # returns its input unchanged
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    rc, out, _ = run(capsys, "coalesce", "(2,4):(1,2)", "--against", "module:wrong_coalesce")
    assert rc == 1
    line = next(ln for ln in out.splitlines() if ln.startswith("module:wrong_coalesce"))
    assert "disagree" in line and "none" in line.split()  # not the coalesced form


def test_sense_cute_changes_the_reference(capsys):
    rc, out, _ = run(capsys, "composition", "(4):(1)", "(4):(5)", "--against", "spec", "--json")
    assert rows(out)["spec"]["kind"] == "raised"
    rc, out, _ = run(capsys, "composition", "(4):(1)", "(4):(5)", "--against", "spec",
                     "--sense", "cute", "--json")
    assert rows(out)["spec"]["kind"] == "ok"


@pytest.mark.parametrize("argv, message", [
    (["frobnicate", "4:1"], "unknown operation 'frobnicate'"),
    (["coalesce", "(2,"], "malformed notation"),
    (["coalesce", "(2,3):(1,2,3)"], "congruent"),
    (["coalesce", "4:1", "(2,2)", "5:1"], "coalesce takes 1 or 2 argument"),
    (["complement", "4:1", "(2,3)"], "expected an integer"),
    (["coalesce", "4:1", "--against", "nope"], "unknown oracle 'nope'"),
    (["coalesce", "4:1", "--against", "module:no_such_module"], "unavailable"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    rc, out, err = run(capsys, *argv)
    assert rc == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err


def test_cute_cpp_compile_time_rejection_is_a_known_finding(capsys):
    if get_oracle("cute-cpp").unavailable_reason():
        pytest.skip("cute-cpp unavailable")
    rc, out, _ = run(capsys, "logical_divide", "(8,6):(1,8)", "(2:1,(3,1):(2,1))",
                     "--against", "cute-cpp", "--json")
    r = rows(out)["cute-cpp"]
    assert rc == 0 and r["kind"] == "raised" and "static assertion failed" in r["message"]
    assert (r["verdict"], r["finding"]) == ("known", "F-052")


# ---

def test_sense_cute_runs_impl_in_the_cute_sense_too(capsys):
    # Image(B) leaves [0, size A): only CuTe's sense composes; impl must follow the flag
    rc, out, _ = run(capsys, "composition", "(4):(1)", "(4):(5)", "--sense", "cute",
                     "--against", "impl", "--json")
    r = rows(out)
    assert rc == 0 and r["impl"]["kind"] == "ok" and r["impl"]["verdict"] == "agree"
    rc, out, _ = run(capsys, "composition", "(4):(1)", "(4):(5)", "--against", "impl", "--json")
    assert rc == 0 and rows(out)["impl"]["kind"] == "raised"


def test_spec_refusing_by_size_falls_back_to_impl_and_says_so(capsys):
    rc, out, err = run(capsys, "left_inverse", "(1099511627776,1099511627776):(1,1099511627776)",
                       "--against", "spec,impl", "--json")
    r = rows(out)
    assert rc == 0 and err == "" and set(r) == {"impl"}
    assert r["impl"]["level"] == "reference" and "the spec refuses" in r["impl"]["verdict"]


def test_crashed_oracle_is_never_a_known_finding(capsys, monkeypatch):
    from layoutcheck.oracles import Outcome
    from layoutcheck.oracles.reference import PackageOracle
    monkeypatch.setattr(PackageOracle, "_run_many",
                        lambda self, cases: [Outcome.crashed("killed by SIGSEGV")] * len(cases))
    monkeypatch.setattr("layoutcheck.oracles.verdict", lambda *a: ("known", "F-999"))
    rc, out, _ = run(capsys, "size", "4:1", "--against", "impl", "--json")
    assert rc == 1 and rows(out)["impl"]["verdict"] == "crashed" and rows(out)["impl"]["finding"] is None


def test_values_of_a_huge_layout_is_refused_at_once(capsys):
    rc, out, err = run(capsys, "values", "(1073741824):(1)", "--against", "impl")
    assert rc == 2 and out == "" and "at most" in err
