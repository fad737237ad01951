"""`layoutcheck report` and its standalone reproducers.

Every C++ reproducer of the register is compiled (cached by source hash in the toolchain's
library folder) and run against the CuTe headers under test: it must exit non-zero exactly
for the bug findings the version matrix (``layoutcheck/versions.toml``) or a written ``seen_on``
entry shows on that CUTLASS version, and the way it fails must
be the bug's (a failed check, a CuTe static_assert, a signal), never a broken reproducer.
"""

import json
import re

import pytest
from layoutcheck.oracles import get_oracle

import layoutcheck.reports.reproducers as R
from layoutcheck.cli import main
from layoutcheck.findings import load

CPP = get_oracle("cute-cpp")
needs_cpp = pytest.mark.skipif(bool(CPP.unavailable_reason()), reason=str(CPP.unavailable_reason()))
PYCUTE = get_oracle("pycute")
needs_pycute = pytest.mark.skipif(bool(PYCUTE.unavailable_reason()),
                                  reason=str(PYCUTE.unavailable_reason()))


def _bugs():
    return [f for f in load() if f.get("status") in R.BUG_STATUSES and f.get("kind") == "implementation-bug"]


def _cpp_seen(f, version):
    """The version matrix (versions.toml) says the finding is present on this CUTLASS version,
    or a written seen_on entry names it."""
    seen = (f.get("versions") or {}).get("cute-cpp", {}).get("seen_on") or []
    return any(v == version or v.startswith(version + ".") for v in seen) or \
        any(re.search(rf"cutlass {re.escape(version)}\b.*headers", v) for v in f.get("seen_on") or [])


def _cases(oracle):
    out = []
    for f in load():
        if not f.get("repro"):
            continue
        for case in R.cases_of_finding(f):
            if case.oracle == oracle:
                out.append((f, case))
    return out


def _run(f, case):
    s = R.study(case)
    name, text = R.reproducer(case, s["claims"], f"{f['id']}: {f['title']}", f.get("seen_on") or [],
                              s["expected"].kind == "ok")
    rc, out = R.run_reproducer(case, name, text)
    return rc, out, s, text


def test_every_cpp_bug_finding_has_a_cpp_repro_case():
    """No compile: the register side of "a reproducer for every C++ bug finding"."""
    cpp_bugs = [f for f in _bugs() if "cute-cpp" in (f.get("versions") or {})
                or any("cutlass" in v and "headers" in v for v in f.get("seen_on") or [])]
    assert cpp_bugs, "the register lists no C++ bug"
    missing = [f["id"] for f in cpp_bugs
               if not any(c.oracle == "cute-cpp" for c in (R.cases_of_finding(f) if f.get("repro") else []))]
    assert not missing, f"C++ bug findings without a cute-cpp repro case: {missing}"


@needs_cpp
def test_cpp_reproducers_fail_exactly_where_the_bug_is_registered():
    version = CPP.toolchain.version
    seen = 0
    for f, case in _cases("cute-cpp"):
        if f.get("status") not in R.BUG_STATUSES:
            continue
        rc, out, s, text = _run(f, case)
        present = _cpp_seen(f, version)
        assert (rc != 0) == present, (f["id"], case.text(), rc, out)
        if present:
            seen += 1
            failed_check = "BUG PRESENT" in out
            rejected = out.startswith("does not compile: ") and "/cute/" in out.split("error:")[0]
            crashed = "killed by signal" in out
            assert failed_check or rejected or crashed, (f["id"], out)  # never a broken reproducer
            assert "repro.cpp" in text and "g++ -std=c++17" in text
    assert seen >= 10


@needs_cpp
def test_a_correct_case_reproduces_nothing():
    """Zero when fixed: the same generator on cases CuTe gets right exits 0."""
    for texts in (("composition", "(_4,_2):(_1,_4)", "_2:_1"), ("composition", "(4,2):(1,4)", "2:1"),
                  ("logical_product", "(_2,_2):(_1,_2)", "_3:_1"), ("filter", "(_4,_2):(_0,_1)")):
        case = R.Case("cute-cpp", texts[0], texts[1:])
        rc, out, _, _ = _run({"id": "control", "title": "a correct case"}, case)
        assert rc == 0 and "OK: every check holds" in out, (texts, out)


@needs_pycute
def test_python_reproducers_of_pycute_findings():
    cases = [(f, c) for f, c in _cases("pycute") if f.get("status") in R.BUG_STATUSES]
    assert cases
    for f, case in cases:
        rc, out, _, _ = _run(f, case)
        assert rc == 1 and "BUG PRESENT" in out, (f["id"], case.text(), out)
    rc, out, _, _ = _run({"id": "control", "title": "correct"},
                         R.Case("pycute", "composition", ("(4,2):(1,4)", "2:1")))
    assert rc == 0 and "OK" in out, out


@needs_cpp
def test_report_command_markdown(capsys):
    assert main(["report", "F-030", "--format", "markdown"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# F-030: ")
    assert f"CUTLASS {CPP.toolchain.version} headers at" in out
    assert "Actual: (_2,_2):(_2,_10)" in out and "Expected (layoutcheck's executable spec" in out
    assert "| i | expected | actual | claim |" in out and "| 2 | 11 | 10 | A(B(i)) |" in out
    assert "```cpp" in out and "g++ -std=c++17 -Wno-deprecated-declarations" in out


@needs_cpp
def test_report_from_a_fuzz_report(tmp_path, capsys):
    rep = {"results": [{"check": "diff.composition", "op": "composition", "oracle": "cute-cpp",
                        "status": "fail", "counterexample": ["(_3,_4):(_1,_10)", "_4:_2"],
                        "message": "oracle vs spec", "known_finding": None}]}
    path = tmp_path / "r.json"
    path.write_text(json.dumps(rep))
    assert main(["report", "--from-report", str(path), "--check", "diff.composition",
                 "--write", str(tmp_path / "out"), "--run"]) == 1  # the bug is present here
    out = capsys.readouterr().out
    assert "diff.composition on cute-cpp" in out
    assert "on cute-cpp: bug present (exit 1: a check of the reproducer fails)" in out
    assert (tmp_path / "out" / "repro.cpp").is_file()


def test_report_refuses_what_it_cannot_build(tmp_path, capsys):
    assert main(["report", "F-999"]) == 2
    assert main(["report", "F-001"]) == 2  # a paper erratum: no repro case
    assert "no repro field" in capsys.readouterr().err
    assert main(["report", "--from-report", str(tmp_path / "none.json"), "--check", "x"]) == 2


def _dsl_reason():
    o = get_oracle("cute-dsl")
    return o.unavailable_reason()


@pytest.mark.skipif(bool(_dsl_reason()), reason=str(_dsl_reason()))
def test_python_reproducer_of_a_dsl_finding():
    """One DSL script in the default run (a DSL start costs seconds); all of them: slow."""
    f = next(f for f in load() if f["id"] == "F-082")
    (case,) = [c for c in R.cases_of_finding(f) if c.oracle == "cute-dsl"]
    rc, out, _, text = _run(f, case)
    assert rc == 1 and "BUG PRESENT" in out and "@cute.jit" in text, out


@pytest.mark.slow
@pytest.mark.skipif(bool(_dsl_reason()), reason=str(_dsl_reason()))
def test_python_reproducers_of_every_dsl_finding():
    cases = [(f, c) for f, c in _cases("cute-dsl") if f.get("status") in R.BUG_STATUSES]
    assert len(cases) >= 3
    for f, case in cases:
        rc, out, _, _ = _run(f, case)
        assert rc == 1 and "BUG PRESENT" in out, (f["id"], out)
