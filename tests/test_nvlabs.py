"""The nvlabs oracle (NVIDIA's new PyCuTe): where it is loaded from, its isolation
from the old pycute, its API mapping, its declared conventions and the register's nvlabs
findings.

The snapshot is found as the oracle finds it: $LAYOUTCHECK_NVLABS_PATH (tests/conftest.py sets
it where the test machine provides one); the tests that need it are skipped with that reason
when none is there.  The loader tests build a tiny fake
checkout of their own and always run.
"""

import os
import sys

import layoutcheck.oracles.nvlabs.oracle as NV
import pytest
from layoutcheck.fuzz.checks.targets import table
from layoutcheck.oracles import OPS, compare, get_oracle, parse_args
from layoutcheck.oracles.implementations import CONVENTIONS
from layoutcheck.oracles.known import PREDICATES, SYMPTOMS, explain
from layoutcheck.oracles.reference import reference_for

from layoutcheck import LayoutError, spec
from layoutcheck.findings import load, match_tables
from layoutcheck.layout import LayoutBase

P = LayoutBase.parse
PKG, HOW = NV.locate()
needs_snapshot = pytest.mark.skipif(PKG is None, reason=f"NVlabs PyCuTe not here: {HOW}")
NV_FINDINGS = [f for f in load() if any("nvlabs" in m.get("oracles", ()) for m in match_tables(f))]


@pytest.fixture(scope="module")
def adapter():
    """The in-process adapter (what the worker runs), on the located snapshot."""
    if PKG is None:
        pytest.skip(f"NVlabs PyCuTe not here: {HOW}")
    a = NV.NvlabsAdapter()
    assert a.unavailable_reason() is None, a.unavailable_reason()
    return a


@pytest.fixture(scope="module")
def reference():
    return reference_for("nvlabs", get_oracle("spec"))


def _fake_checkout(root, sources=True, git=None):
    """A checkout-shaped folder: root/pycute/{__init__,core}.py (relative imports only)."""
    pkg = root / "pycute"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("from .core import *\n")
    (pkg / "core.py").write_text(
        "__all__ = ['Layout', 'size']\n"
        "class Layout:\n"
        "    def __init__(self, shape, stride=1):\n"
        "        self.shape, self.stride = shape, stride\n"
        "def size(L):\n"
        "    return L.shape\n")
    if sources:
        (root / "SOURCES.txt").write_text("path commit chars\npycute/__init__.py abc1234 10\n"
                                          "pycute/core.py unknown 20\n")
    if git:
        (root / ".git").mkdir()
        (root / ".git" / "HEAD").write_text(git + "\n")
    return root


# --- where it comes from --------------------------------------------------------------------

def test_locate_prefers_the_environment_and_says_why(tmp_path, monkeypatch):
    root = _fake_checkout(tmp_path / "co")
    monkeypatch.setenv(NV.ENV_VAR, str(root))
    pkg, how = NV.locate()
    assert pkg == (root / "pycute").resolve() and how == f"${NV.ENV_VAR}"
    assert NV.locate(str(root / "pycute"))[0] == pkg  # the package folder itself also works
    monkeypatch.setenv(NV.ENV_VAR, str(tmp_path / "missing"))
    pkg, why = NV.locate()
    assert pkg is None and NV.ENV_VAR in why and "missing" in why
    pkg, why = NV.locate(str(tmp_path / "nowhere"))
    assert pkg is None and "nowhere" in why


def test_oracle_names():
    with pytest.raises(LayoutError, match="nvlabs:PATH"):
        get_oracle("nvlabs:")
    o = get_oracle("nvlabs:/no/such/checkout")
    assert o.name == "nvlabs:/no/such/checkout"
    assert "/no/such/checkout" in o.unavailable_reason()
    assert o.describe().startswith("unavailable:")


def test_a_checkout_loads_under_a_private_alias_with_its_versions(tmp_path):
    root = _fake_checkout(tmp_path / "co")
    mod = NV.load(root / "pycute")
    assert mod.__name__.startswith(NV.ALIAS_PREFIX)
    assert sys.modules.get("pycute") is not mod  # never under the public name
    assert NV.load(root / "pycute") is mod  # once per path
    info = NV.provenance(mod, root / "pycute", "test")
    assert {f["file"]: f["commit"] for f in info["files"]} == {"pycute/__init__.py": "abc1234",
                                                               "pycute/core.py": "unknown"}
    assert info["snapshot"] and info["unknown_commit"] == ["pycute/core.py"]
    line = NV.describe_provenance(info)
    assert str(root / "pycute") in line and "__init__.py@abc1234" in line and "core.py@sha256:" in line
    other = _fake_checkout(tmp_path / "git", sources=False, git="0123456789abcdef0123")
    info = NV.provenance(NV.load(other / "pycute"), other / "pycute", "test")
    assert "git checkout at 0123456789ab" in NV.describe_provenance(info)
    packed = _fake_checkout(tmp_path / "packed", sources=False, git="ref: refs/heads/main")
    (packed / ".git" / "packed-refs").write_text("# pack-refs\nfedcba9876543210 refs/heads/main\n")
    assert NV._git_head(packed) == "fedcba9876543210"
    bare = _fake_checkout(tmp_path / "bare", sources=False)
    info = NV.provenance(NV.load(bare / "pycute"), bare / "pycute", "test")
    assert "no version information" in NV.describe_provenance(info)


def test_a_broken_checkout_is_unavailable_with_the_reason(tmp_path):
    pkg = tmp_path / "co" / "pycute"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("raise ImportError('half a checkout')\n")
    a = NV.NvlabsAdapter(str(tmp_path / "co"))
    assert "half a checkout" in a.unavailable_reason()
    alias = NV.alias_for(pkg)
    assert not [k for k in sys.modules if k == alias or k.startswith(alias + ".")]


# --- the snapshot ----------------------------------------------------------------------------

@needs_snapshot
def test_the_snapshot_and_the_old_pycute_run_side_by_side(adapter):
    old = get_oracle("pycute")
    if old.unavailable_reason():
        pytest.skip(f"old pycute unavailable: {old.unavailable_reason()}")
    import pycute
    assert not os.path.realpath(pycute.__file__).startswith(str(PKG))
    assert os.path.realpath(adapter._mod.__file__).startswith(str(PKG))
    A, B = P("(3,2):(1,4)"), P("(2,2):(1,2)")
    assert old.run("composition", A, B).kind == "raised"  # the wheel's asserts
    assert adapter.run("composition", A, B).value == P("(2,2):(1,2)")  # PyCuTe's (F-150)
    iso = get_oracle("nvlabs")  # the harness's: a worker process
    assert iso.unavailable_reason() is None and old.unavailable_reason() is None
    assert iso.run("composition", A, B).value == P("(2,2):(1,2)")
    assert iso.describe() == adapter.describe()


@needs_snapshot
def test_describe_names_every_loaded_file_with_its_snapshot_commit(adapter):
    info = adapter.info
    files = {f["file"] for f in info["files"]}
    assert {"pycute/__init__.py", "pycute/layout.py", "pycute/algebra.py"} <= files
    assert not [f for f in files if f.startswith(("pycute/alg/", "pycute/util/"))]  # never imported
    listed = NV._sources(PKG)
    for f in info["files"]:
        assert (PKG.parent / f["file"]).is_file()
        assert f["commit"] == listed.get(f["file"]), f
    text = adapter.describe()
    assert text.startswith(f"NVlabs PyCuTe from {PKG}") and f"{len(files)} files loaded" in text


UNSUPPORTED = ("filter", "cosize", "tiled_divide", "flat_divide", "zipped_product", "tiled_product")


@needs_snapshot
@pytest.mark.parametrize("op", UNSUPPORTED)
def test_what_pycute_lacks_is_unsupported(adapter, op):
    args = parse_args(op, ["(4,2):(1,4)"] + (["2:1"] if len(OPS[op]) > 1 and not OPS[op][1].endswith("?") else []))
    out = adapter.run(op, *args)
    assert out.kind == "unsupported" and op in out.message


MAPPED = [  # op, args: answers that must agree with the spec (CuTe's reading)
    ("composition", ["(6,2):(8,2)", "(4,3):(3,1)"]),
    ("coalesce", ["(2,(1,6)):(1,(6,2))"]),
    ("complement", ["4:2", "24"]),
    ("logical_divide", ["24:1", "4:2"]),
    ("zipped_divide", ["(9,32):(1,9)", "(3:3,(2,4):(1,8))"]),
    ("logical_product", ["(2,2):(4,1)", "6:1"]),
    ("blocked_product", ["(2,5):(5,1)", "(3,4):(1,3)"]),
    ("right_inverse", ["(4,8):(8,1)"]),
    ("left_inverse", ["(4,8):(1,5)"]),
    ("size", ["(3,(2,4)):(1,(3,6))"]),
    ("values", ["(2,3):(3,1)"]),
    ("eval_coord", ["(3,(2,4)):(2,(1,6))", "(2,(1,2))"]),
    ("get_mode", ["(3,(2,4)):(2,(1,6))", "1"]),
    ("rank", ["(3,(2,4)):(2,(1,6))"]),
    ("idx2crd", ["7", "(3,(2,4))"]),
    ("crd2idx", ["(1,(0,1))", "(3,(2,4))"]),
    ("slice_", ["(3,4):(1,3)", "(_,2)"]),
    ("slice_and_offset", ["(3,4):(1,3)", "(1,_)"]),
    ("layout_left", ["(4,8)"]),
    ("prefix_product", ["(3,(2,4))"]),
    ("product", ["(3,(2,4))"]),
    ("inner_product", ["(1,(2,3))", "(1,(10,100))"]),
    ("congruent", ["(4,8)", "(5,7)"]),
    ("compatible", ["(4,6)", "((2,3),8)"]),
    ("flatten", ["(3,(2,4))"]),
]


@needs_snapshot
@pytest.mark.parametrize("op,texts", MAPPED, ids=[m[0] for m in MAPPED])
def test_mapped_ops_agree_with_the_spec_on_ordinary_inputs(adapter, reference, op, texts):
    args = parse_args(op, texts)
    ref, out = reference.run(op, *args), adapter.run(op, *args)
    assert ref.kind == "ok" and out.kind == "ok", (ref, out)
    c = compare(op, args, ref, out)
    assert c.ok, (op, texts, str(ref), str(out), c.detail)


@needs_snapshot
def test_a_stride_argument_pycute_does_not_take_is_unsupported(adapter):
    for op in ("crd2idx", "idx2crd"):
        out = adapter.run(op, *parse_args(op, ["1", "(2,3)", "(1,2)"]))
        assert out.kind == "unsupported" and "no stride" in out.message


# --- conventions and findings ----------------------------------------------------------------

def test_conventions_name_nvlabs_convention_findings_and_cite_sources():
    by_id = {f["id"]: f for f in load()}
    assert CONVENTIONS["nvlabs"], "the nvlabs table is empty"
    for c in CONVENTIONS["nvlabs"]:
        f = by_id[c.finding]
        assert f["kind"] == "convention" and f["status"] == "convention", c.id
        assert any(m.get("oracles") == ["nvlabs"] and (set(c.ops) & {m.get("op", "*")} or True)
                   for m in match_tables(f))
        assert any(src in c.cite for src in ("pycute/", "test/", "docs/")), c.id
        assert all(op in OPS for op in c.ops), c.id
    conv_ids = {f["id"] for f in NV_FINDINGS if f["kind"] == "convention"}
    assert conv_ids == {c.finding for c in CONVENTIONS["nvlabs"]}


@pytest.mark.parametrize("f", NV_FINDINGS, ids=[f["id"] for f in NV_FINDINGS])
def test_finding_fields(f):
    assert f["status"] == ("confirmed-bug" if f["kind"] == "implementation-bug" else "convention")
    assert f["seen_on"] and all("snapshot" in s and "re-checked" in s for s in f["seen_on"])
    r = f["repro"]
    assert r["oracle"] == "nvlabs" and r["op"] in OPS
    parse_args(r["op"], r["args"])
    for m in match_tables(f):
        assert m["oracles"] == ["nvlabs"]
        assert m["when"] in PREDICATES and m["answer"] in SYMPTOMS, m


@needs_snapshot
@pytest.mark.parametrize("f", NV_FINDINGS, ids=[f["id"] for f in NV_FINDINGS])
def test_finding_reproduces(f, adapter, reference):
    """The repro case shows the finding on the snapshot, the register explains exactly that
    answer, and not the reference's answer in its place (the symptom is precise)."""
    r = f["repro"]
    args = parse_args(r["op"], r["args"])
    out, ref = adapter.run(r["op"], *args), reference.run(r["op"], *args)
    hit = explain("nvlabs", r["op"], "agreement", args, out, ref)
    assert hit is not None and hit[0]["id"] == f["id"], (f["id"], str(out), str(ref))
    if ref.kind == "ok":
        assert explain("nvlabs", r["op"], "agreement", args, ref, ref) is None
    if f["kind"] == "implementation-bug" and ref.kind == "ok":
        assert not compare(r["op"], args, ref, out).ok
    if f["kind"] == "implementation-bug" and out.kind == "ok" and isinstance(out.value, LayoutBase):
        other = _perturbed(out.value)  # another wrong answer is not this bug's
        assert explain("nvlabs", r["op"], "agreement", args, type(out).ok(other), ref) is None


def _perturbed(L):
    """L with the stride of its last flat mode of size > 1 increased by one."""
    from layoutcheck.layout import leaves
    shapes, strides = list(leaves(L.shape)), list(leaves(L.stride))
    k = max(i for i, s in enumerate(shapes) if int(s) > 1)
    strides[k] = int(strides[k]) + 1
    it = iter(strides)

    def rebuild(t):
        return tuple(rebuild(e) for e in t) if isinstance(t, tuple) else next(it)
    return LayoutBase(L.shape, rebuild(L.shape))


# Each bug, by brute force on PyCuTe's own answer (no predicate involved).

@needs_snapshot
def test_F150_composition_value_is_not_A_of_B(adapter):
    A, B = P("(3,2):(1,4)"), P("(2,2):(1,2)")
    R = adapter.run("composition", A, B).value
    assert table(R)[3] == 3 and table(A)[table(B)[3]] == 4


@needs_snapshot
def test_F151_divide_has_the_wrong_size(adapter):
    A = P("(3,2):(1,3)")
    for op in ("logical_divide", "zipped_divide"):
        R = adapter.run(op, A, P("2:1")).value
        assert len(table(R)) == 8 != spec.size(A)


@needs_snapshot
def test_F152_divide_misses_offsets_of_A(adapter):
    A = P("6:1")
    R = adapter.run("logical_divide", A, P("(2,2):(1,3)")).value
    assert set(range(6)) - set(table(R)) == {2, 5}


@needs_snapshot
def test_F153_crd2idx_crashes_where_evaluation_reads_none_as_zero(adapter):
    out = adapter.run("crd2idx", *parse_args("crd2idx", ["(_,1)", "(2,3)"]))
    assert out.kind == "raised" and out.message.startswith("TypeError")
    assert adapter._mod.Layout((2, 3))((None, 1)) == 2


@needs_snapshot
def test_F154_blocked_and_raked_products_are_too_small(adapter):
    A, B = P("2:2"), P("4:1")
    for op in ("blocked_product", "raked_product"):
        R = adapter.run(op, A, B).value
        assert len(table(R)) == 4 < spec.size(A) * spec.size(B)


@needs_snapshot
def test_the_gate_has_no_new_failure_on_the_snapshot(monkeypatch):
    """A short, fixed run of the checks where the findings show (the 300 s gate is the
    README's command).  The per-case limit is raised: on a loaded machine a slow case is a
    crash of the worker, which is no statement about PyCuTe's answers."""
    from layoutcheck.fuzz.campaign.runner import run_campaign
    from layoutcheck.oracles.isolation import TIMEOUT_ENV
    monkeypatch.setenv(TIMEOUT_ENV, "120")
    checks = ["diff.coalesce", "diff.composition", "diff.logical_divide", "diff.blocked_product",
              "law.coalesce.minimal"]
    report = run_campaign(oracles=["nvlabs"], checks=checks, max_examples=10, seed=3, use_db=False)
    assert report["oracles"]["nvlabs"] == "available"
    new = [(r["check"], r["counterexample"], r["message"]) for r in report["results"]
           if r["status"] in ("fail", "error") and not r["known_finding"]]
    assert not new, new
    rows = [(r["check"], r["status"], r["known_finding"], r["message"][:200]) for r in report["results"]]
    assert report["summary"]["cases"] > 0 and report["exit_status"] == 0, (report["summary"], rows)
    assert "NVlabs PyCuTe from" in report["oracle_stats"]["nvlabs"]["loaded"]


@needs_snapshot
def test_complement_of_a_zero_cotarget_is_F261(adapter, reference):
    """complement(L, 0) is invalid input: PyCuTe answers as if N were 1 with the trailing 1:end
    kept, recomputed for each case; another answer there is new, and so is the reference's."""
    from layoutcheck.layout import LayoutBase as Layout
    for text, want in (("1:0", "1:1"), ("4:1", "1:4"), ("3:2", "(2,1):(1,6)"), ("(2,4):(1,8)", "(4,1):(2,32)")):
        args = parse_args("complement", [text, "0"])
        out, ref = adapter.run("complement", *args), reference.run("complement", *args)
        assert ref.kind == "raised" and out.kind == "ok" and out.value == Layout.parse(want), (text, str(out))
        hit = explain("nvlabs", "complement", "agreement", args, out, ref)
        assert hit is not None and hit[0]["id"] == "F-261"
        if isinstance(out.value.shape, tuple):  # another wrong answer there is new
            other = type(out).ok(_perturbed(out.value))
            assert explain("nvlabs", "complement", "agreement", args, other, ref) is None


def test_pycute_complement_of_a_zero_cotarget_is_F260():
    """pycute's complement(L, 0) returns a layout with a zero extent (no valid layout): known only
    with pycute's own text of that layout."""
    pycute = get_oracle("pycute")
    if pycute.unavailable_reason():
        pytest.skip(str(pycute.unavailable_reason()))
    args = parse_args("complement", ["3:2", "0"])
    ref = get_oracle("spec", sense="cute").run("complement", *args)
    out = pycute.run("complement", *args)
    assert out.kind == "raised" and out.message.startswith("returned an invalid layout (2, 0):(1, 6): ")
    hit = explain("pycute", "complement", "agreement", args, out, ref)
    assert hit is not None and hit[0]["id"] == "F-260"
    other = type(out).raised("returned an invalid layout (2, 0):(1, 3): shape entry")
    assert explain("pycute", "complement", "agreement", args, other, ref) is None
