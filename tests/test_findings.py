"""Keeps the findings register (layoutcheck/findings.toml) honest: it parses, every entry
has the documented fields with allowed values, every ``match.when`` names a registered
predicate, every ``test`` names a test that exists, every ``see_also`` names an entry, and
each finding's own counterexamples (where ``case`` is written ``op(args)``) satisfy its
predicate and are recognised by ``find_known`` as this finding (or one it names in
``see_also``: an earlier, related entry may legitimately answer first).
"""

import fnmatch
import itertools
import re
import tomllib
from pathlib import Path

import pytest

from layoutcheck import LayoutError, spec
from layoutcheck.findings import (PREDICATES, REGISTER_PATH, _load_predicates, find_known, load,
                                  match_tables)
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase
from layoutcheck.oracles import get_oracle
from layoutcheck.oracles.compare import compare
from layoutcheck.oracles.protocol import OPS, parse_args

TESTS = Path(__file__).parent
MATCH_KEYS = {"oracle", "op", "check", "when"}
REQUIRED = ("id", "kind", "source", "title", "case", "expected", "observed", "evidence")
GLOB = re.compile(r"[*?\[]")

FINDINGS = load()
IDS = [f["id"] for f in FINDINGS]
# (finding, match table) for every table that names a predicate
WHEN_TABLES = [(f, m) for f in FINDINGS for m in match_tables(f) if m.get("when")]


def _header():
    """The comment block at the top of the register (the format's documentation)."""
    lines = []
    for line in REGISTER_PATH.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        lines.append(line[1:])
    return lines


def _documented_fields():
    """Field names documented in the header: lines ``   name   description``."""
    return {m.group(1) for line in _header() if (m := re.match(r"\s{3}(\w+)\s{2,}\S", line))}


def _allowed_kinds():
    """The kinds listed on the header's ``kind`` line."""
    [line] = [x for x in _header() if re.match(r"\s{3}kind\s", x)]
    return set(re.findall(r'"([a-z-]+)"', line))


def _tests_named(f):
    return [t.strip() for t in f.get("test", "").split(",") if t.strip()]


def _split_top(text, sep):
    """``text`` split at ``sep`` outside parentheses."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        depth += (ch == "(") - (ch == ")")
        if ch == sep and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    parts.append(cur.strip())
    return [p for p in parts if p]


def test_register_parses_and_load_returns_every_entry():
    with open(REGISTER_PATH, "rb") as fh:
        data = tomllib.load(fh)
    assert set(data) == {"finding"}, "only [[finding]] tables belong in the register"
    assert len(data["finding"]) == len(FINDINGS) > 0
    assert [f["id"] for f in data["finding"]] == IDS


def test_ids_are_unique_and_well_formed():
    bad = [i for i in IDS if not re.fullmatch(r"F-\d{3}", i)]
    assert not bad, f"ids not of the form F-NNN: {bad}"
    dups = sorted({i for i in IDS if IDS.count(i) > 1})
    assert not dups, f"duplicate ids: {dups}"


def test_header_documents_fields_and_kinds():
    fields = _documented_fields()
    assert set(REQUIRED) | {"match", "test"} <= fields, fields
    assert {"paper-erratum", "implementation-bug", "convention"} <= _allowed_kinds()


@pytest.mark.parametrize("f", FINDINGS, ids=IDS)
def test_entry_fields(f):
    missing = [k for k in REQUIRED if not (isinstance(f.get(k), str) and f[k].strip())]
    assert not missing, f"missing or empty fields: {missing}"
    unknown = set(f) - _documented_fields()
    assert not unknown, f"fields not documented at the top of findings.toml: {sorted(unknown)}"
    assert f["kind"] in _allowed_kinds(), f"kind {f['kind']!r} is not one of {sorted(_allowed_kinds())}"
    assert "\n" not in f["title"], "the title is one line"


@pytest.mark.parametrize("f", FINDINGS, ids=IDS)
def test_match_table(f):
    if "match" not in f:
        return  # a convention or erratum no check fails on (e.g. F-033: both answers are right)
    raw = f["match"]
    assert isinstance(raw, dict) or (isinstance(raw, list) and raw), \
        "match is a table or a non-empty array of tables"
    for m in match_tables(f):
        _check_match_table(m)


def _check_match_table(m):
    assert isinstance(m, dict) and m, "match is a non-empty table"
    assert set(m) <= MATCH_KEYS, f"unknown match keys {sorted(set(m) - MATCH_KEYS)}"
    assert all(isinstance(v, str) and v for v in m.values())
    if m.get("oracle") == "paper":
        assert "check" in m and not GLOB.search(m["check"]), \
            "a paper finding names the statement it is about (check = its number)"
    if "when" in m:
        _load_predicates()
        assert m["when"] in PREDICATES, \
            f"match.when {m['when']!r} is no registered predicate (findings.PREDICATE_MODULES)"
    else:
        # without a predicate the match must not hide whole classes of failures
        for key in ("oracle", "check"):
            assert key in m and not GLOB.search(m[key]), \
                f"a match without 'when' needs a literal {key} (is {m.get(key, '*')!r})"


@pytest.mark.parametrize("f", FINDINGS, ids=IDS)
def test_named_tests_exist(f):
    named = _tests_named(f)
    assert named, "every finding names the test that re-checks it"
    for t in named:
        path, sep, name = t.partition("::")
        assert sep and path.startswith("tests/") and path.endswith(".py"), t
        file = TESTS.parent / path
        assert file.is_file(), f"{t}: no such file"
        name = name.split("[")[0]
        assert re.search(rf"^\s*def {re.escape(name)}\(", file.read_text(encoding="utf-8"), re.M), \
            f"{t}: no 'def {name}(' in {path}"


@pytest.mark.parametrize("f", FINDINGS, ids=IDS)
def test_see_also_names_other_entries(f):
    see = f.get("see_also", [])
    assert isinstance(see, list) and all(isinstance(x, str) for x in see)
    assert f["id"] not in see
    assert set(see) <= set(IDS), f"see_also names unknown ids {sorted(set(see) - set(IDS))}"


def test_predicate_names_are_used_or_listed():
    """Predicates named by no finding are dead code (or a finding lost its match)."""
    _load_predicates()
    used = {m["when"] for _, m in WHEN_TABLES}
    unused = sorted(set(PREDICATES) - used)
    # Left registered by their modules after the de-duplication merged their findings
    # (F-076 uses tiler_has_int, F-073 pycute_right_inverse_stops_early).
    assert set(unused) <= {"int_tiler", "has_zero_stride_mode"}, unused


# --- each finding's own counterexamples ----------------------------------------------------

ORACLE_NAMES = ("pycute", "cute-cpp", "cute-dsl", "spec", "module:mine")


def _own_cases():
    """(finding, op, argument texts) for each ``op(args)`` of a case whose match has a
    predicate; other cases (paper statements, prose) are re-checked by their own tests."""
    out = []
    for f in FINDINGS:
        if not any(m.get("when") for m in match_tables(f)):
            continue
        for case in _split_top(f["case"], ";"):
            m = re.fullmatch(r"(\w+)\((.*)\)", case)
            if m and m.group(1) in OPS:
                out.append(pytest.param(f, m.group(1), _split_top(m.group(2), ","),
                                        id=f"{f['id']}:{case}"))
    return out


@pytest.mark.parametrize("f, op, texts", _own_cases())
def test_finding_recognises_its_own_case(f, op, texts):
    args = parse_args(op, texts)
    _load_predicates()
    tables = [m for m in match_tables(f)
              if m.get("when") and fnmatch.fnmatchcase(op, m.get("op", "*"))]
    assert tables, f"the case's op {op} is outside every match.op"
    true = [m for m in tables if PREDICATES[m["when"]](*args)]
    assert true, f"{[m['when'] for m in tables]} false on the finding's own case"
    m = true[0]
    oracle = next((o for o in ORACLE_NAMES if fnmatch.fnmatchcase(o, m.get("oracle", "*"))), None)
    assert oracle, f"no oracle name matches {m.get('oracle')!r}"
    check = m.get("check", "*")
    check = "agreement" if fnmatch.fnmatchcase("agreement", check) else check
    got = find_known(oracle, op, check, args)
    assert got == f["id"] or got in f.get("see_also", []), \
        f"find_known({oracle!r}, {op!r}, {check!r}, ...) = {got}, not {f['id']} (shadowed?)"


def test_own_cases_cover_the_predicate_findings():
    """Most findings with a predicate write their case as op(args), so the test above
    exercises them; the rest must stay few (their cases are prose)."""
    with_when = {f["id"] for f, _ in WHEN_TABLES}
    covered = {p.values[0]["id"] for p in _own_cases()}
    assert len(covered) >= 0.8 * len(with_when), sorted(with_when - covered)


def test_find_known_is_none_for_an_unregistered_failure():
    A = LayoutBase((4, 2), (1, 4))
    assert find_known("pycute", "coalesce", "agreement", (A,)) is None
    assert find_known("module:mine", "composition", "agreement", (A, LayoutBase(2, 1))) is None


# --- re-checks of findings whose entries the de-duplication rewrote -----------------------

def _pycute():
    o = get_oracle("pycute")
    if o.unavailable_reason():
        pytest.skip(o.unavailable_reason())
    return o


@pytest.mark.parametrize("op, texts, error", [
    ("composition", ["4:1", "():()"], "ValueError"),
    ("logical_divide", ["4:1", "():()"], "ValueError"),
    ("logical_product", ["4:1", "():()"], "IndexError"),
    ("cosize", ["():()"], "IndexError"),
])
def test_F034_pycute_fails_on_the_empty_layout(op, texts, error):
    args = parse_args(op, texts)
    out = _pycute().run(op, *args)
    assert out.kind == "raised" and error in out.message, out
    assert get_oracle("spec").run(op, *args).kind == "ok"  # the spec defines all of these
    assert find_known("pycute", op, "agreement", args) == "F-034"


def test_pycute_right_inverse_predicate_replays_pycute():
    """F-073 (merged with F-029): the predicate is true exactly where pycute's right inverse
    is smaller than the spec's (CuTe's), on every flat layout of rank <= 2, shapes 1..3,
    strides 0..3, and the finding recognises each such disagreement."""
    py = _pycute()
    _load_predicates()
    smaller = 0
    for r in (1, 2):
        for sh in itertools.product((1, 2, 3), repeat=r):
            for st in itertools.product((0, 1, 2, 3), repeat=r):
                L = LayoutBase(sh, st)
                R = py.run("right_inverse", L).value
                vL = spec.values(L)
                assert all(vL[j] == i for i, j in enumerate(spec.values(R)))  # L(R(i)) == i
                stops = spec.size(R) < spec.size(spec.right_inverse(L))
                assert PREDICATES["pycute_right_inverse_stops_early"](L) == stops, L
                smaller += stops
                if stops:
                    assert find_known("pycute", "right_inverse", "diff.right_inverse", (L,)) == "F-073"
    assert smaller > 0


def _argument_forms(kinds):
    """Argument tuples of the kinds an op takes (``OPS``): layouts (static, dynamic, nested,
    empty, stride 0), tilers (layouts, ints, Tile tuples), optional ints."""
    layouts = [LayoutBase((4, 2), (1, 4)), LayoutBase((), ()), LayoutBase(4, 0),
               LayoutBase((C(2), C(3)), (C(1), C(2))), LayoutBase(((2, 2), 3), ((1, 4), 8)),
               LayoutBase((3,), (2,)), LayoutBase(1, 0), LayoutBase(5, 3)]
    pools = {"layout": layouts,
             "tiler": layouts + [3, C(4), (2, LayoutBase(2, 2)), (LayoutBase(2, 1), (2, 3))],
             "int": [1, 8, 12, C(16)]}
    choices = [pools[k.rstrip("?")] + ([None] if k.endswith("?") else []) for k in kinds]
    for args in itertools.product(*choices):
        yield tuple(a for a in args if a is not None)


@pytest.mark.parametrize("f, m", WHEN_TABLES, ids=[f"{f['id']}:{m['when']}" for f, m in WHEN_TABLES])
def test_predicate_is_total_on_its_ops_arguments(f, m):
    """find_known runs inside every gate: a predicate that raises crashes the gate instead
    of answering. Each finding's predicate answers on every argument form of its ops."""
    _load_predicates()
    fn, pattern = PREDICATES[m["when"]], m.get("op", "*")
    ops = [op for op in OPS if fnmatch.fnmatchcase(op, pattern)]
    assert ops, f"match.op {pattern!r} names no operation of the oracle protocol"
    for op in ops:
        for args in _argument_forms(OPS[op]):
            try:
                fn(*args)
            except Exception as e:  # noqa: BLE001 -- any exception is the failure
                pytest.fail(f"{m['when']}{args} for {op} raised {e!r}")


@pytest.mark.parametrize("op, texts, fid", [
    ("complement", ["(1,3):(8,3)", "16"], "F-035"),
    ("complement", ["4:0", "8"], "F-035"),
    ("logical_divide", ["(4):(3)", "(3):(3)"], "F-036"),
    ("zipped_divide", ["2:4", "(2):(2)"], "F-036"),
    ("logical_product", ["(2):(0)", "(1):(0)"], "F-037"),
    ("tiled_product", ["4:0", "(2):(6)"], "F-037"),
])
def test_complement_conventions_F035_F037(op, texts, fid):
    """The paper's spec rejects (is_complementable), CuTe's sense answers, pycute answers
    with the same layout function as CuTe's sense, and the register calls it ``fid``."""
    args = parse_args(op, texts)
    paper, cute = get_oracle("spec").run(op, *args), get_oracle("spec", sense="cute").run(op, *args)
    assert paper.kind == "raised" and "complementable" in paper.message, paper
    assert cute.kind == "ok", cute
    out = _pycute().run(op, *args)
    assert compare(op, args, cute, out).ok, (cute, out)
    assert compare(op, args, paper, out).ok is False
    assert find_known("pycute", op, "agreement", args) == fid


@pytest.mark.parametrize("op, texts, fid", [
    ("logical_divide", ["(3,2):(2,0)", "(1):(4)"], "F-038"),
    ("zipped_divide", ["(3,6):(4,6)", "1:4"], "F-038"),
    ("logical_divide", ["(4):(3)", "(6,2):(3,1)"], "F-075"),
    ("tiled_divide", ["3:3", "(2,2):(3,1)"], "F-075"),
])
def test_cute_divide_findings_F038_F075(op, texts, fid):
    """F-038: pycute rejects a divide both senses of the spec define; F-075: pycute divides
    by a layout that has no complement in size(A). Recognised in the agreement check and in
    the fuzzer's differential check."""
    args = parse_args(op, texts)
    out = _pycute().run(op, *args)
    refs = [get_oracle("spec").run(op, *args), get_oracle("spec", sense="cute").run(op, *args)]
    if fid == "F-038":
        assert out.kind == "raised" and "AssertionError" in out.message, out
        assert [r.kind for r in refs] == ["ok", "ok"], refs
    else:
        assert out.kind == "ok", out
        with pytest.raises(LayoutError) as e:
            getattr(spec, op)(*args, sense="cute")
        assert e.value.condition == "is_complementable"
    for check in ("agreement", f"diff.{op}"):
        assert find_known("pycute", op, check, args) == fid
    assert find_known("module:mine", op, "agreement", args) == ("F-038" if fid == "F-038" else None)
