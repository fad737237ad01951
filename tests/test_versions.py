"""Versions of an implementation under test: specs (``cute-cpp@3.8``, ranges, folders), the
release lists, one-line errors offline, the lineage of a versioned oracle, lifespans read from a
matrix row, and the version matrix's register file and docs page kept in step.

Nothing here needs the package index: ``test_versions_online.py`` fetches real wheels.
"""

import subprocess
import sys

import pytest
from layoutcheck.fuzz.versions.matrix import LETTER, finding_status, lifespan
from layoutcheck.oracles import get_oracle
from layoutcheck.oracles.finding_cases import finding_cases, lineages_of
from layoutcheck.oracles.implementations import implementation_for
from layoutcheck.oracles.versions import (
    KNOWN_RELEASES,
    ReleaseList,
    VersionError,
    base_name,
    expand,
    parse_spec,
    short_version,
    version_label,
)
from layoutcheck.reports.versions import DOC_BEGIN, DOC_END, docs_section

from layoutcheck.findings import VERSIONS_PATH, lineage, load, versions_data

CUTLASS = ReleaseList("nvidia-cutlass", KNOWN_RELEASES["nvidia-cutlass"], "index")
DSL = ReleaseList("nvidia-cutlass-dsl", KNOWN_RELEASES["nvidia-cutlass-dsl"], "index")


@pytest.mark.parametrize("text, want", [
    ("cute-cpp@3.8", ["3.8.0.0"]),
    ("cute-cpp@3.8.0.0", ["3.8.0.0"]),
    ("pycute@3.5.1", ["3.5.1.0"]),
    ("pycute@3.5", ["3.5.1.0"]),
    ("cute-cpp@4", ["4.2.0.0"]),
    ("cute-cpp@latest", ["4.2.0.0"]),
    ("cute-cpp@3.3..4.2", list(KNOWN_RELEASES["nvidia-cutlass"])),
    ("cute-cpp@3.4..3.5", ["3.4.0.0", "3.4.1.0", "3.5.0.0", "3.5.1.0"]),
    ("cute-cpp@..3.4.0", ["3.3.0.0", "3.4.0.0"]),
    ("cute-dsl@4.4.0", ["4.4.0"]),
    ("cute-dsl@4.4", ["4.4.2"]),
    ("cute-dsl@4.8..", ["4.8.0", "4.8.1"]),
])
def test_a_version_names_the_newest_release_it_prefixes(text, want):
    spec = parse_spec(text, known=DSL if "dsl" in text else CUTLASS)
    assert list(spec.versions) == want


@pytest.mark.parametrize("text, words", [
    ("cute-cpp@3.9", ["no release 3.9", "3.8.0.0, 4.2.0.0", "cute-cpp@DIR"]),
    ("cute-cpp@4.2..3.3", ["range is empty"]),
    ("cute-cpp@3.x", ["is no version"]),
    ("cute-cpp@", ["no version after"]),
    ("nvlabs@1.0", ["only cute-cpp, pycute, cute-dsl take a version"]),
    ("cute-dsl@/tmp", ["takes a release"]),
    ("cute-cpp@=/tmp", ["LABEL=DIR"]),
])
def test_a_bad_version_is_one_line(text, words):
    with pytest.raises(VersionError) as e:
        parse_spec(text, known=CUTLASS)
    assert "\n" not in str(e.value)
    for w in words:
        assert w in str(e.value)


def test_a_version_the_built_in_list_lacks_names_the_fetch_command():
    """Offline, a list that did not come from the index cannot say a release does not exist."""
    with pytest.raises(VersionError) as e:
        parse_spec("cute-cpp@4.3", known=ReleaseList("nvidia-cutlass", CUTLASS.versions, "built-in"))
    assert "`layoutcheck fetch cute-cpp@4.3`" in str(e.value) and "could not be read" in str(e.value)


def test_names_ranges_folders_and_labels(tmp_path, monkeypatch):
    monkeypatch.setenv("LAYOUTCHECK_CACHE", str(tmp_path))
    monkeypatch.setenv("LAYOUTCHECK_OFFLINE", "1")  # the built-in release list
    assert expand(["pycute@3.7..3.8", "pycute", "cute-cpp@main=/x"]) == [
        "pycute@3.7.0.0", "pycute@3.8.0.0", "pycute", "cute-cpp@main=/x"]
    assert parse_spec("cute-cpp@main=/x/include").folder.as_posix() == "/x/include"
    assert version_label("cute-cpp@main=/x/include") == "main"
    assert parse_spec("cute-cpp") is None and parse_spec("module:mylib@pycute") is None
    assert [short_version(v) for v in ("3.8.0.0", "3.5.1.0", "4.4.0")] == ["3.8", "3.5.1", "4.4.0"]


@pytest.mark.parametrize("name, base, line", [
    ("cute-cpp@3.8", "cute-cpp", "cute-cpp"), ("pycute@3.5.1", "pycute", "pycute"),
    ("cute-dsl@4.4.0", "cute-dsl", "cute-dsl"), ("cute-cpp@main=/x", "cute-cpp", "cute-cpp"),
    ("module:mylib@pycute", "module:mylib@pycute", "pycute"), ("nvlabs:/a@b", "nvlabs:/a@b", "nvlabs"),
])
def test_a_versioned_oracle_is_its_implementations_lineage(name, base, line):
    assert base_name(name) == base and lineage(name) == line
    assert implementation_for(name).lineage == (line if not name.startswith("module:") else "module")


def test_offline_a_missing_version_is_one_line_naming_the_prefetch_command(tmp_path):
    env = {"LAYOUTCHECK_CACHE": str(tmp_path), "LAYOUTCHECK_OFFLINE": "1", "PATH": "/usr/bin:/bin"}
    p = subprocess.run([sys.executable, "-m", "layoutcheck", "op", "size", "4:1", "--against",
                        "cute-cpp@3.7"], capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 2, p.stderr
    assert p.stderr.count("\n") == 1 and "`layoutcheck fetch cute-cpp@3.7`" in p.stderr
    with pytest.raises(VersionError, match="no release 9.9"):
        get_oracle("pycute@9.9")


@pytest.mark.parametrize("row, introduced, fixed", [
    ("AAPP", "v3", None), ("PPPP", "<= v1", None), ("?PPP", "<= v2", None), ("DDPP", "v3", None),
    ("APPA", "v2", "v4"), ("AAAA", None, None), ("PAPP", "v3", None), ("PPA?", "<= v1", "v3"),
])
def test_lifespan_of_a_matrix_row(row, introduced, fixed):
    status = {v: k for k, v in LETTER.items()}
    got = lifespan([(f"v{i + 1}", status[c]) for i, c in enumerate(row)])
    assert (got["introduced_in"], got["fixed_in"]) == (introduced, fixed)
    assert finding_status(["absent", "present"]) == "present"
    assert finding_status(["absent", "different"]) == "different"


def test_the_register_reads_its_versions():
    """Every finding of versions.toml is in the register, with its lifespan; F-030 came with
    CUTLASS 3.9.0 (the git tag: no wheel between 3.8.0.0 and 4.2.0.0)."""
    data = versions_data()
    assert data, f"{VERSIONS_PATH} is missing: layoutcheck matrix --write"
    ids = {f["id"] for f in load()}
    tested = {i["name"]: i["versions"] for i in data["implementation"]}
    for f in data["finding"]:
        assert f["id"] in ids and len(f["statuses"]) == len(tested[f["implementation"]])
    f030 = next(f for f in load() if f["id"] == "F-030")
    assert f030["versions"]["cute-cpp"]["introduced_in"] == "3.9.0"
    assert "cute-cpp 3.9.0" in f030["introduced_in"]
    assert any(s.startswith("cute-cpp 3.9.0 to main (5 of the 13 versions") for s in f030["seen_on"])


def test_docs_versions_page_is_the_matrix_of_the_register():
    page = (VERSIONS_PATH.parents[1] / "docs" / "versions.md").read_text()
    start, end = page.index(DOC_BEGIN), page.index(DOC_END) + len(DOC_END)
    assert page[start:end] + "\n" == docs_section(), \
        "docs/versions.md is out of step with layoutcheck/versions.toml: layoutcheck matrix --write"


def test_the_matrix_runs_nearly_every_finding_from_its_register_cases():
    """The cases the matrix runs come from the register: repro entries, else the calls of
    ``case``; only prose cases give none."""
    for lineage in ("cute-cpp", "pycute", "cute-dsl"):
        findings = [f for f in load() if lineage in lineages_of(f)]
        with_cases = [f for f in findings if finding_cases(f, lineage)]
        assert len(with_cases) >= 0.9 * len(findings), (lineage, len(with_cases), len(findings))
    f030 = next(f for f in load() if f["id"] == "F-030")
    assert [c.text() for c in finding_cases(f030, "cute-cpp")] == [
        "composition((_3,_4):(_1,_10), _4:_2)", "composition((_4,_6,_8):(_2,_3,_5), _6:_3)"]
