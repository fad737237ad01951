"""The mutation tables' attribution (``fuzz/mutation/nvlabs.py``, ``tables.py``): a mutant's failure
counts as caught only when it is the patch's own, judged by replaying the case on the patched
copy and on the unpatched snapshot; a shrunk case that slipped onto a bug the snapshot has too
falls back to the case as first found; a gate run that exits 1 with no new failure is no catch.
Real patched copies of the snapshot, no mocks.
"""

import pytest

from layoutcheck.fuzz.mutation import nvlabs
from layoutcheck.fuzz.mutation.tables import GateRun, row
from layoutcheck.oracles.nvlabs.oracle import locate

PKG, HOW = locate(None)
pytestmark = pytest.mark.skipif(PKG is None, reason=f"NVlabs PyCuTe not here: {HOW}")


def copy_of(tmp_path, mid):
    """The snapshot patched by mutant ``mid``, and the oracle names of it and of the snapshot."""
    source = nvlabs.snapshot()
    mutant = next(m for m in nvlabs.MUTANTS if m[0] == mid)
    copy = nvlabs.make_mutant(tmp_path, mutant, source)
    return f"nvlabs:{copy}", f"nvlabs:{source}"


def test_a_case_the_snapshot_passes_is_the_mutants_own(tmp_path):
    mine, base = copy_of(tmp_path, "NV17")  # an integer tiler n becomes n:0 in logical_divide
    assert nvlabs.own_failure("diff.logical_divide", ["8:1", "4"], mine, base)


def test_a_case_both_fail_as_new_failures_is_not_the_mutants_own(tmp_path):
    mine, base = copy_of(tmp_path, "NV11")
    # complement(1:0, 0): the snapshot answers 1:1 where the spec refuses N = 0, patched or not
    assert not nvlabs.own_failure("diff.complement", ["1:0", "0"], mine, base)
    assert not nvlabs.attributable({"check": "diff.complement", "counterexample": ["1:0", "0"]},
                                   mine, base)


def test_a_shrunk_case_that_slipped_falls_back_to_the_case_as_found(tmp_path):
    mine, base = copy_of(tmp_path, "NV17")
    # the shrunk case fails on the snapshot too (a bug of its own); the case as first found
    # fails on the mutant only
    first = {"check": "law.logical_divide.modes", "counterexample": ["1:0", "(2:0)"],
             "first_counterexample": ["8:1", "(4)"]}
    assert not nvlabs.own_failure(first["check"], first["counterexample"], mine, base)
    assert nvlabs.attributable(first, mine, base)
    assert not nvlabs.attributable(dict(first, first_counterexample=None), mine, base)


def test_a_new_failure_where_the_snapshot_fails_as_a_known_finding_is_the_mutants_own(tmp_path):
    mine, base = copy_of(tmp_path, "NV20")  # by-mode logical_product drops A's unnamed modes
    # composition(1:0, ()) drops A's mode on both: F-140 (a convention) on the snapshot, a new
    # failure on the mutant, while the law's recorded answers (A, tiler, result) are the same
    assert nvlabs.own_failure("law.composition.underscore", ["1:0", "()"], mine, base)


def test_the_unpatched_copy_owns_no_failure(tmp_path):
    source = nvlabs.snapshot()
    copy = nvlabs.make_mutant(tmp_path, ("NV00", None, "", ""), source)
    assert not nvlabs.own_failure("diff.logical_divide", ["8:1", "4"], f"nvlabs:{copy}",
                                  f"nvlabs:{source}")


def test_an_exit_1_without_a_new_failure_is_no_catch():
    # the gate exits 1 on a known region whose answer was not checked (no new failure): the
    # unpatched copy of a table does so as well, so it cannot count as catching the mutant
    report = {"results": [{"check": "diff.composition", "status": "fail", "known_finding": "F-001",
                           "counterexample": ["(2,2):(1,2)", "2:1"]}],
              "summary": {"new_failures": 0, "known_unchecked": 1, "cases": 10,
                          "first_failure_s": None, "not_reached": 0}}
    run = GateRun(["layoutcheck", "fuzz"], 1, report, 1.0, "")
    r = row(("CPP01", "cute/layout.hpp", "", "", "composition", "a bug"), run, True)
    assert not r["caught"] and r["check"] is None
    new = dict(report, results=[dict(report["results"][0], known_finding=None)])
    assert row(("CPP01", "", "", "", "composition", "a bug"), GateRun([], 1, new, 1.0, ""), True)["caught"]
