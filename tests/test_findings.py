"""Keeps the findings register (layoutcheck/findings.toml) honest: it parses, every entry
has the documented fields with allowed values (kind, status, seen_on, upstream links), every
match table names its exact oracles, a registered region predicate (``when``) and a
registered symptom (``answer``; paper tables excepted: they judge a printed statement, not an
oracle's answer), every ``test`` names a test that exists, every ``see_also`` names an entry,
and each finding's own counterexamples (where ``case`` is written ``op(args)``) are recognised
by ``find_known`` as this finding (or one it names in ``see_also``) *with the answer the oracle
gives*, while a different answer in the same region is not (tests/test_known_precise.py has
the families' planted-answer and gate tests).
"""

import fnmatch
import inspect
import itertools
import re
import tomllib
from pathlib import Path

import pytest
from layoutcheck.oracles import get_oracle
from layoutcheck.oracles.compare import compare
from layoutcheck.oracles.known import PREDICATES, SYMPTOMS, find_known, find_region
from layoutcheck.oracles.protocol import OPS, Outcome, parse_args
from planted_support import split_top

from layoutcheck import LayoutError, spec
from layoutcheck.findings import REGISTER_PATH, STATUSES, lineage, load, match_tables
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase

TESTS = Path(__file__).parent
MATCH_KEYS = {"oracles", "op", "check", "when", "answer"}
REQUIRED = ("id", "kind", "source", "title", "case", "expected", "observed", "evidence", "status",
            "seen_on")
GLOB = re.compile(r"[*?\[]")
PAPER_KINDS = {"paper-erratum", "translation-erratum", "example-disagreement"}
STATUS_FOR_KIND = {"implementation-bug": {"confirmed-bug", "upstream-reported", "fixed"},
                   "convention": {"convention", "fixed"}}

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


def test_header_documents_fields_kinds_and_statuses():
    fields = _documented_fields()
    assert set(REQUIRED) | {"match", "test", "upstream", "fixed_in"} <= fields, fields
    assert {"paper-erratum", "implementation-bug", "convention"} <= _allowed_kinds()
    [line] = [x for x in _header() if re.match(r"\s{3}status\s", x)]
    assert set(re.findall(r'"([a-z-]+)"', line)) == set(STATUSES)


@pytest.mark.parametrize("f", FINDINGS, ids=IDS)
def test_entry_fields(f):
    missing = [k for k in REQUIRED if k != "seen_on" and not (isinstance(f.get(k), str) and f[k].strip())]
    assert not missing, f"missing or empty fields: {missing}"
    unknown = set(f) - _documented_fields()
    assert not unknown, f"fields not documented at the top of findings.toml: {sorted(unknown)}"
    assert f["kind"] in _allowed_kinds(), f"kind {f['kind']!r} is not one of {sorted(_allowed_kinds())}"
    assert "\n" not in f["title"], "the title is one line"


@pytest.mark.parametrize("f", FINDINGS, ids=IDS)
def test_status_versions_and_links(f):
    """status fits the kind (a bug is confirmed, reported upstream or fixed; a convention is a
    convention; paper findings are errata), seen_on names versions, upstream holds links."""
    status = f["status"]
    assert status in STATUSES
    if f["kind"] in PAPER_KINDS:
        assert status == "erratum"
    else:
        assert status in STATUS_FOR_KIND[f["kind"]], (f["kind"], status)
    seen = f.get("seen_on")
    assert isinstance(seen, list) and seen and all(isinstance(v, str) and v.strip() for v in seen)
    if f["kind"] not in PAPER_KINDS:  # a version number, not just a product name
        assert all(re.search(r"\d+\.\d+|snapshot|commit", v) for v in seen), seen
    links = f.get("upstream", [])
    assert isinstance(links, list) and all(re.fullmatch(r"https://github\.com/\S+/(issues|pull)/\d+", u)
                                           for u in links), links
    if status == "upstream-reported":
        assert links, "upstream-reported needs the link"
    if status == "fixed":
        assert f.get("fixed_in"), "fixed needs fixed_in"


@pytest.mark.parametrize("f", FINDINGS, ids=IDS)
def test_match_table(f):
    if "match" not in f:
        assert f["kind"] != "implementation-bug" or f["status"] == "fixed", \
            "a bug that a check can hit needs a match"
        return  # informational (e.g. F-033: both answers satisfy the defining property)
    raw = f["match"]
    assert isinstance(raw, dict) or (isinstance(raw, list) and raw), \
        "match is a table or a non-empty array of tables"
    for m in match_tables(f):
        _check_match_table(f, m)


def _check_match_table(f, m):
    assert isinstance(m, dict) and m, "match is a non-empty table"
    assert set(m) <= MATCH_KEYS, f"unknown match keys {sorted(set(m) - MATCH_KEYS)}"
    oracles = m.get("oracles")
    assert isinstance(oracles, list) and oracles, "every table names its oracles (a list)"
    assert all(isinstance(o, str) and o and not GLOB.search(o) for o in oracles), \
        f"oracles are exact names, no patterns: {oracles}"
    assert all(isinstance(m[k], str) and m[k] for k in m if k != "oracles")
    if oracles == ["paper"]:
        # A paper table judges a printed statement of the documents, not an oracle's answer:
        # it names the statement and needs no answer (re-checked by the finding's tests).
        assert f["kind"] in PAPER_KINDS and "check" in m and not GLOB.search(m["check"])
        assert "answer" not in m and "when" not in m
        return
    assert "paper" not in oracles
    assert m.get("when") in PREDICATES, \
        f"when {m.get('when')!r} is no registered predicate (findings.PREDICATE_MODULES)"
    assert m.get("answer") in SYMPTOMS, \
        f"answer {m.get('answer')!r} is no registered symptom: every oracle table is answer-precise"


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


def test_predicates_and_symptoms_are_used():
    """A registered predicate or symptom that no table names and no other predicate uses is
    dead code (or a finding lost its match)."""
    used = {m[k] for f in FINDINGS for m in match_tables(f) for k in ("when", "answer") if k in m}
    modules = {inspect.getmodule(fn) for fn in {**PREDICATES, **SYMPTOMS}.values()}
    source = "\n".join(inspect.getsource(mod) for mod in modules)
    dead = [n for n in {**PREDICATES, **SYMPTOMS} if n not in used
            and not re.search(rf'PREDICATES\["{n}"\]|(?<![\w.]){n}\(', source.replace(f"def {n}(", ""))]
    assert not dead, dead


def test_lineage_is_exact():
    assert lineage("pycute") == "pycute" and lineage("cute-cpp") == "cute-cpp"
    assert lineage("module:pycute_m05@pycute") == "pycute"
    assert lineage("module:pycute") is None and lineage("module:mine") is None


# --- each finding's own counterexamples, with the answer the oracle gives -------------------

def _answer_source(oracle):
    """How the own-case tests get an oracle's answer: the real pycute / nvlabs (pure Python,
    cheap), the models of CuTe C++ and the DSL (checked against the real ones on the
    register's cases in tests/test_known_precise.py)."""
    if oracle in ("pycute", "nvlabs"):
        o = get_oracle(oracle)
        return None if o.unavailable_reason() else o.run
    if oracle == "cute-cpp":
        from layoutcheck.oracles.cpp.model import answer
        return answer
    if oracle == "cute-dsl":
        from layoutcheck.oracles.dsl.model import answer
        return answer
    return None


def _own_cases():
    """(finding, op, argument texts) for each ``op(args)`` of a case of a finding with oracle
    tables; other cases (paper statements, prose) are re-checked by their own tests."""
    out = []
    for f in FINDINGS:
        if not any(m.get("answer") for m in match_tables(f)):
            continue
        for case in split_top(f["case"], ";"):
            m = re.fullmatch(r"(\w+)\((.*)\)", case)
            if m and m.group(1) in OPS:
                out.append(pytest.param(f, m.group(1), split_top(m.group(2), ","),
                                        id=f"{f['id']}:{case}"))
    return out


def _ref(op, args):
    return get_oracle("spec", sense="cute").run(op, *args)


@pytest.mark.parametrize("f, op, texts", _own_cases())
def test_finding_recognises_its_own_case(f, op, texts):
    """Some table's region holds on the case; with that oracle's answer find_known names
    this finding (or a see_also one)."""
    args = parse_args(op, texts)
    tables = [m for m in match_tables(f) if m.get("when") and fnmatch.fnmatchcase(op, m.get("op", "*"))]
    assert tables, f"the case's op {op} is outside every table's op"
    tried = []
    for m in tables:
        for oracle in m["oracles"]:
            if find_region(oracle, op, "agreement", args) is None:
                continue
            run = _answer_source(oracle)
            if run is None:
                continue
            answer = run(op, *args)
            if answer is None or answer.kind == "unsupported":
                continue
            got = find_known(oracle, op, "agreement", args, answer, _ref(op, args))
            tried.append((oracle, str(answer)[:80], got))
            if got == f["id"] or got in f.get("see_also", []):
                return
    if not tried:  # no oracle here, or an op the C++ / DSL models do not cover
        pytest.skip("no answer for this case here; the finding's own tests re-check it")
    pytest.fail(f"not recognised with the oracle's own answer: {tried}")


def test_own_cases_cover_the_oracle_findings():
    """Most findings with oracle tables write their case as op(args), so the test above
    exercises them; the rest must stay few (their cases are prose)."""
    with_answer = {f["id"] for f, m in WHEN_TABLES if m.get("answer")}
    covered = {p.values[0]["id"] for p in _own_cases()}
    assert len(covered) >= 0.8 * len(with_answer), sorted(with_answer - covered)


def test_find_known_needs_the_answer():
    """A region alone never makes a failure known; an unregistered failure is new."""
    A, B = LayoutBase((4, 2), (1, 8)), LayoutBase(5, 1)  # F-071's first case
    assert find_region("pycute", "composition", "agreement", (A, B)) == "F-071"
    assert find_known("pycute", "composition", "agreement", (A, B)) is None
    assert find_known("pycute", "composition", "agreement", (A, B), Outcome.ok(LayoutBase(4, 1))) == "F-071"
    assert find_known("pycute", "composition", "agreement", (A, B), Outcome.ok(LayoutBase(5, 1))) is None
    # a plain module:NAME has no lineage; module:NAME@pycute inherits pycute's findings
    assert find_known("module:mine", "composition", "agreement", (A, B), Outcome.ok(LayoutBase(4, 1))) is None
    assert find_known("module:mine@pycute", "composition", "agreement", (A, B),
                      Outcome.ok(LayoutBase(4, 1))) == "F-071"
    L = LayoutBase((4, 2), (1, 4))
    assert find_known("pycute", "coalesce", "agreement", (L,), Outcome.ok(L)) is None


def test_F018_sizes_as_written():
    L1, L2 = spec.parse("(2,(2,2)):(8,(1,4))"), spec.parse("((8,1),(8,32)):((2,0),(16,128))")
    assert (spec.size(L1), spec.cosize(L1)) == (8, 14) and not spec.is_compact(L1)
    assert (spec.size(L2), spec.cosize(L2)) == (2048, 4095) and not spec.is_compact(L2)
    assert len(set(spec.values(L2))) == 2048 and all(v % 2 == 0 for v in spec.values(L2))


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
    ref = get_oracle("spec").run(op, *args)
    assert ref.kind == "ok"  # the spec defines all of these
    assert find_known("pycute", op, "agreement", args, out, ref) == "F-034"
    other = "IndexError" if error == "ValueError" else "ValueError"  # another exception: new
    assert find_known("pycute", op, "agreement", args, Outcome.raised(f"{other}: x"), ref) is None


def test_pycute_right_inverse_predicate_replays_pycute():
    """F-073 (merged with F-029): the predicate is true exactly where pycute's right inverse
    is smaller than the spec's (CuTe's), on every flat layout of rank <= 2, shapes 1..3,
    strides 0..3, and the finding recognises each such disagreement with pycute's answer."""
    py = _pycute()
    smaller = 0
    for r in (1, 2):
        for sh in itertools.product((1, 2, 3), repeat=r):
            for st in itertools.product((0, 1, 2, 3), repeat=r):
                L = LayoutBase(sh, st)
                out = py.run("right_inverse", L)
                R = out.value
                vL = spec.values(L)
                assert all(vL[j] == i for i, j in enumerate(spec.values(R)))  # L(R(i)) == i
                stops = spec.size(R) < spec.size(spec.right_inverse(L))
                assert PREDICATES["pycute_right_inverse_stops_early"](L) == stops, L
                smaller += stops
                if stops:
                    assert find_known("pycute", "right_inverse", "diff.right_inverse", (L,), out) == "F-073"
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
    choices = [pools.get(k.rstrip("?"), [1, (2, 3)]) + ([None] if k.endswith("?") else [])
               for k in kinds]
    for args in itertools.product(*choices):
        yield tuple(a for a in args if a is not None)


ALGEBRA_OPS = ("coalesce", "filter", "composition", "complement", "left_inverse", "right_inverse",
               "cosize", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
               "logical_product", "zipped_product", "tiled_product", "blocked_product", "raked_product")
ALGEBRA_TABLES = [(f, m) for f, m in WHEN_TABLES
                  if any(fnmatch.fnmatchcase(op, m.get("op", "*")) for op in ALGEBRA_OPS)]


@pytest.mark.parametrize("f, m", ALGEBRA_TABLES, ids=[f"{f['id']}:{m['when']}" for f, m in ALGEBRA_TABLES])
def test_predicate_and_symptom_are_total(f, m):
    """find_known runs inside every gate: a predicate or symptom that raises would crash the
    gate instead of answering.  Each finding's region and symptom answer on every argument
    form of its algebra ops (and the symptom on an ok, a raised and an unsupported answer)."""
    fn, sym = PREDICATES[m["when"]], SYMPTOMS.get(m.get("answer"))
    answers = [Outcome.ok(LayoutBase(4, 1)), Outcome.raised("AssertionError (no message)"),
               Outcome.unsupported("no")]
    for op in [op for op in ALGEBRA_OPS if fnmatch.fnmatchcase(op, m.get("op", "*"))]:
        for args in _argument_forms(OPS[op]):
            try:
                fn(*args, **({"op": op} if fn.wants_op else {}))
                for a in answers if sym else ():
                    sym(args, a, None, **({"op": op} if sym.wants_op else {}))
            except Exception as e:  # noqa: BLE001 -- any exception is the failure
                pytest.fail(f"{m['when']}/{m.get('answer')}{args} for {op} raised {e!r}")


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
    with the same layout function as CuTe's sense, and the register calls it ``fid`` (a
    different answer in the same region is not ``fid``)."""
    args = parse_args(op, texts)
    paper, cute = get_oracle("spec").run(op, *args), get_oracle("spec", sense="cute").run(op, *args)
    assert paper.kind == "raised" and "complementable" in paper.message, paper
    assert cute.kind == "ok", cute
    out = _pycute().run(op, *args)
    assert compare(op, args, cute, out).ok, (cute, out)
    assert compare(op, args, paper, out).ok is False
    assert find_known("pycute", op, "agreement", args, out, paper) == fid
    wrong = Outcome.ok(LayoutBase((99,), (1,)))
    assert find_known("pycute", op, "agreement", args, wrong, paper) is None


@pytest.mark.parametrize("op, texts, fid", [
    ("logical_divide", ["(3,2):(2,0)", "(1):(4)"], "F-038"),
    ("zipped_divide", ["(3,6):(4,6)", "1:4"], "F-038"),
    ("logical_divide", ["(4):(3)", "(6,2):(3,1)"], "F-075"),
    ("tiled_divide", ["3:3", "(2,2):(3,1)"], "F-075"),
])
def test_cute_divide_findings_F038_F075(op, texts, fid):
    """F-038: pycute rejects a divide both senses of the spec define; F-075: pycute divides
    by a layout that has no complement in size(A). Recognised in the agreement check and in
    the fuzzer's differential check, with pycute's answer only."""
    args = parse_args(op, texts)
    out = _pycute().run(op, *args)
    refs = [get_oracle("spec").run(op, *args), get_oracle("spec", sense="cute").run(op, *args)]
    if fid == "F-038":
        assert out.kind == "raised" and "AssertionError" in out.message, out
        assert [r.kind for r in refs] == ["ok", "ok"], refs
        other = Outcome.raised("ValueError: something else")
    else:
        assert out.kind == "ok", out
        with pytest.raises(LayoutError) as e:
            getattr(spec, op)(*args, sense="cute")
        assert e.value.condition == "is_complementable"
        other = Outcome.ok(LayoutBase((7, 1), (1, 0)))
    for check in ("agreement", f"diff.{op}"):
        assert find_known("pycute", op, check, args, out, refs[1]) == fid
        assert find_known("pycute", op, check, args, other, refs[1]) is None
    assert find_known("module:mine", op, "agreement", args, out) is None


def test_docs_findings_table_is_the_register():
    """docs/FINDINGS.md (linked from the README) is the register's current table."""
    from pathlib import Path

    from layoutcheck.reports.findings_table import markdown
    path = Path(__file__).resolve().parents[1] / "docs" / "FINDINGS.md"
    assert path.read_text() == markdown(), "regenerate: python -m layoutcheck.reports.findings_table > docs/FINDINGS.md"
