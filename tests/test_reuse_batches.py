"""The batched path's speed-ups keep judging every case.

- ``draw_cases`` draws a batch as a few lists of distinct cases (no repeats, seeded);
- reuse batches (fuzz/campaign/pairs.py): cases an oracle answers without compiling (cute-cpp: runtime
  integers through compiled kernels) take turns with drawn batches, in budget mode only, and
  are judged like any other case (a bug only they reach is reported);
- the warm start, where every pair's first batch is answered at once, is tested in
  tests/test_warm_start.py.
"""

import layoutcheck.fuzz.campaign.runner as campaign
import pytest
from layoutcheck.fuzz.campaign.batched import draw_cases
from layoutcheck.fuzz.checks.catalogue import BY_NAME
from layoutcheck.fuzz.checks.targets import decode
from layoutcheck.oracles.cpp.cases import retype, staticness
from layoutcheck.oracles.protocol import Outcome
from layoutcheck.oracles.reference import PackageOracle, case_key

from layoutcheck.layout import LayoutBase


class Batched(PackageOracle):
    """impl under a batched oracle's name (fuzz/campaign/batched.py), with a record of its calls."""

    def __init__(self, name="cute-dsl"):
        super().__init__("impl")
        self.name, self.batches, self.reuse_calls, self.reused = name, [], 0, set()

    def _run_many(self, cases):
        self.batches.append([(op, case_key(a)) for op, a in cases])
        return super()._run_many(cases)


def test_a_reuse_pool_is_seeded_and_its_neighbours_keep_the_nesting_mostly():
    from layoutcheck.fuzz.campaign.batched import draw_pool
    strategy = BY_NAME["diff.coalesce"].strategy()
    pool = draw_pool(strategy, 64, 3)
    if pool is None:
        pytest.skip("this hypothesis lacks ConjectureData / BuildContext: pools use draw_cases")
    keys = [case_key(a) for a, _ in pool]
    assert len(pool) == 64 and len(set(keys)) == 64
    assert [case_key(a) for a, _ in draw_pool(strategy, 64, 3)] == keys
    near = draw_pool(strategy, 64, 4, near=pool[:8])
    profile = lambda a: repr(retype(tuple(a), False)).translate(str.maketrans("", "", "0123456789"))  # noqa: E731
    bases = {profile(a) for a, _ in pool[:8]}
    assert sum(profile(a) in bases for a, _ in near) > sum(profile(a) in bases for a, _ in pool[8:])


@pytest.mark.parametrize("check", ["diff.logical_divide", "diff.composition", "diff.values",
                                   "diff.blocked_product", "law.coalesce.function"])
def test_a_reuse_pool_draws_what_conjecture_data_draws(check, monkeypatch):
    """batched._recorder's fast integer and boolean choices: the same cases and the same
    choices as hypothesis' ConjectureData, fresh and as neighbours of an earlier pool."""
    import layoutcheck.fuzz.campaign.batched as batched
    from hypothesis.internal.conjecture.data import ConjectureData
    fast = batched._recorder()
    assert fast is not ConjectureData and issubclass(fast, ConjectureData)
    strategy = BY_NAME[check].strategy()

    def pool(cls, seed, near=()):
        monkeypatch.setattr(batched, "_recorder", lambda: cls)
        out = batched.draw_pool(strategy, 128, seed, near=near)
        return [(case_key(a), [(n.type, n.value, n.constraints) for n in nodes]) for a, nodes in out], out
    keys, drawn = pool(fast, 1)
    assert len(keys) == 128 and keys == pool(ConjectureData, 1)[0]
    near = pool(fast, 2, drawn[:16])[0]
    assert near == pool(ConjectureData, 2, drawn[:16])[0] and near != keys


def test_a_recorder_that_draws_otherwise_is_not_used():
    from hypothesis.internal.conjecture.data import ConjectureData
    from layoutcheck.fuzz.campaign.batched import same_draws

    class Off(ConjectureData):
        def draw_integer(self, *a, **k):
            return super().draw_integer(*a, **k) if k.get("forced") is not None else \
                super().draw_integer(*a, **{**k, "forced": a[0] if a and a[0] is not None else 0})
    assert same_draws(ConjectureData, ConjectureData)
    assert not same_draws(Off, ConjectureData)


def test_a_drawn_batch_has_distinct_cases_and_follows_the_seed():
    strategy = BY_NAME["diff.composition"].strategy()
    a = draw_cases(strategy, 64, 5)
    keys = [case_key(x) for x in a]
    assert 48 <= len(a) <= 64 and len(set(keys)) == len(keys)
    assert [case_key(x) for x in draw_cases(strategy, 64, 5)] == keys
    assert [case_key(x) for x in draw_cases(strategy, 64, 6)] != keys


def test_reuse_batches_are_judged_and_a_bug_only_they_reach_is_reported(install):
    oracle = install(Batched())

    def reusing(op, cases):  # every case with an integer, all-runtime (as cute-cpp's hook)
        oracle.reuse_calls += 1
        out = [retype(tuple(a), False) for a in cases]
        out = [a if staticness(a) == "dynamic" else None for a in out]
        oracle.reused.update(case_key(a) for a in out if a is not None)
        return out

    real = oracle._run_many

    def wrong_on_reused(cases):
        outs = real(cases)
        return [Outcome.ok(LayoutBase(7, 3)) if op == "coalesce" and case_key(a) in oracle.reused
                else out for (op, a), out in zip(cases, outs)]

    oracle.reusing, oracle._run_many = reusing, wrong_on_reused
    rep = campaign.run_campaign(oracles=["cute-dsl"], checks=["diff.coalesce"], budget=4.0,
                                use_db=False)
    (row,) = rep["results"]
    assert oracle.reuse_calls >= 1 and row["reused_cases"] > 0
    assert row["status"] == "fail" and not row["known_finding"], row
    assert case_key(decode(row["counterexample"])) in oracle.reused
    assert rep["summary"]["reused_cases"] == row["reused_cases"]


def test_reused_cases_counts_the_reuse_cases_judged_not_those_picked(install, monkeypatch):
    """A reuse pick already judged (cute-cpp's hook makes every integer runtime, so (_4):(_1)
    and (4):(1) are one case) is not run again, not even twice in one batch, and
    ``reused_cases`` counts the reuse cases judged, never the picks (a cold 300 s run
    printed 88,743 reused cases of 51,531 in all; on that code this test counted 3,072 reused
    of 2,549 picked and judged, and 28 cases judged twice)."""
    oracle = install(Batched())
    picked, ran = set(), set()
    real = campaign._Runner.case

    def case(runner, args):  # every case judged, drawn or reused
        ran.add(case_key(args))
        return real(runner, args)

    def reusing(op, cases):
        oracle.reuse_calls += 1
        out = [retype(tuple(a), False) for a in cases]
        picked.update(case_key(a) for a in out)
        return out

    oracle.reusing = reusing
    monkeypatch.setattr(campaign._Runner, "case", case)
    rep = campaign.run_campaign(oracles=["cute-dsl"], checks=["diff.size"], budget=3.0,
                                use_db=False)
    (row,) = rep["results"]
    assert oracle.reuse_calls >= 2 and row["status"] == "pass", row
    assert len(ran) == row["cases"] and 0 < row["reused_cases"] <= len(picked & ran), row
    assert rep["summary"]["reused_cases"] == row["reused_cases"]


def test_a_drawn_batch_compiles_on_a_thread_while_reuse_batches_are_judged(install):
    """fuzz/campaign/pairs.py ``_reuse_while_compiling``: the oracle's ``prepare`` of a drawn batch runs
    beside the campaign's thread, which judges reuse batches (only reusable cases) meanwhile."""
    import threading
    oracle = install(Batched())
    events = []

    def reusing(op, cases):
        out = [retype(tuple(a), False) for a in cases]
        out = [a if staticness(a) == "dynamic" else None for a in out]
        oracle.reused.update(case_key(a) for a in out if a is not None)
        return out

    def prepare(calls, until=None):
        if threading.current_thread() is threading.main_thread():
            return  # the campaign's warm start
        events.append(("start", len(calls)))
        compiling.set()
        beside_compile.wait(3.0)  # a compile: it lasts until a reuse batch ran beside it (at most 3 s)
        compiling.clear()
        events.append(("end",))

    real = oracle._run_many
    compiling, beside_compile = threading.Event(), threading.Event()

    def run_many(cases):
        reused = all(case_key(a) in oracle.reused for _, a in cases)
        events.append(("run", threading.current_thread() is threading.main_thread(), reused))
        if compiling.is_set() and reused:
            beside_compile.set()
        return real(cases)

    oracle.reusing, oracle.prepare, oracle._run_many = reusing, prepare, run_many
    oracle.uncompiled = lambda calls: len(calls)
    rep = campaign.run_campaign(oracles=["cute-dsl"], checks=["diff.coalesce"], budget=4.0,
                                use_db=False)
    assert rep["results"][0]["status"] == "pass" and rep["results"][0]["reused_cases"] > 0
    starts = [i for i, e in enumerate(events) if e[0] == "start"]
    assert starts and all(e[1] > 0 for e in events if e[0] == "start")
    beside = []
    for i in starts:
        end = next(j for j in range(i, len(events)) if events[j][0] == "end")
        beside += [e for e in events[i:end] if e[0] == "run"]
    assert beside, events[:40]  # reuse batches ran while a compile was in flight
    assert all(main and reused for _, main, reused in beside)
    assert all(e[1] for e in events if e[0] == "run")  # every answer on the campaign's thread


def test_a_background_compile_that_fails_is_the_pairs_error_never_a_pass(install):
    """A harness failure in the background compile (here: a compile that timed out) is raised
    on the campaign's thread: the pair is an error, exit status 1, even when the failure comes
    after the deadline (the batch is then not judged, but the failure is not dropped)."""
    import threading
    import time

    from layoutcheck.errors import LayoutError
    oracle = install(Batched())

    def reusing(op, cases):
        out = [retype(tuple(a), False) for a in cases]
        return [a if staticness(a) == "dynamic" else None for a in out]

    def prepare(calls, until=None):
        if threading.current_thread() is threading.main_thread():
            return
        time.sleep(max(0.0, until - time.monotonic()) + 0.2)  # runs past the deadline
        raise LayoutError("cute-cpp: compiling a unit took more than 300 s")

    oracle.reusing, oracle.prepare = reusing, prepare
    oracle.uncompiled = lambda calls: len(calls)
    rep = campaign.run_campaign(oracles=["cute-dsl"], checks=["diff.coalesce"], budget=3.0,
                                use_db=False)
    (row,) = rep["results"]
    assert row["status"] == "error" and "took more than 300 s" in row["message"], row
    assert rep["exit_status"] != 0


def test_no_reuse_batch_with_max_examples(install):
    """--max-examples runs are a function of the seed; what is compiled depends on the cache."""
    oracle = install(Batched())
    oracle.reusing = lambda op, cases: pytest.fail("reusing called with --max-examples")
    rep = campaign.run_campaign(oracles=["cute-dsl"], checks=["diff.coalesce"], max_examples=30,
                                use_db=False)
    assert rep["results"][0]["cases"] > 0 and rep["results"][0]["reused_cases"] == 0


def _cpp(tmp_path):
    from layoutcheck.oracles.cpp.oracle import CuteCppOracle
    o = CuteCppOracle(cache_dir=tmp_path / "cache", jobs=1)
    reason = o.unavailable_reason()
    if reason:
        pytest.skip(f"cute-cpp unavailable: {reason}")
    return o


def test_cute_cpp_reuses_a_compiled_kernel_for_new_values_only(tmp_path):
    o = _cpp(tmp_path)
    L = LayoutBase.parse
    first = (L("(4,2):(2,8)"), L("(2,2):(1,2)"))
    (out,) = o.run_many([("composition", first)])
    assert out.kind == "ok"
    compiles = o.compiles
    same_types = (L("(6,3):(1,6)"), L("(3,2):(2,3)"))
    other_nesting = (L("((4,2),2):((2,1),8)"), L("(2,2):(1,2)"))
    static_twin = (L("(_6,_3):(_1,_6)"), L("(_3,_2):(_2,_3)"))
    got = o.reusing("composition", [same_types, other_nesting, static_twin])
    assert got[1] is None and [case_key(a) for a in (got[0], got[2])] == [case_key(same_types)] * 2
    assert o.compiles == compiles  # asking compiles nothing
    (again,) = o.run_many([("composition", got[0])])
    assert o.compiles == compiles and again.kind == "ok"  # ran by the compiled driver
    # prepare compiles a new type's kernel; its case then runs without a compile
    calls = [("composition", other_nesting), ("composition", same_types)]
    assert o.uncompiled(calls) == 1 and o.compiles == compiles  # counting compiles nothing
    assert o.prepare([("composition", other_nesting)]) == 1 and o.compiles > compiles
    assert o.uncompiled(calls) == 0
    n = o.compiles
    (later,) = o.run_many([("composition", other_nesting)])
    assert o.compiles == n and later.kind in ("ok", "raised")


def test_a_pair_that_judged_no_case_is_never_a_pass(install, monkeypatch):
    import layoutcheck.fuzz.campaign.pairs as pairs
    install(Batched())
    monkeypatch.setattr(pairs, "draw_cases", lambda *a, **k: [])
    rep = campaign.run_campaign(oracles=["cute-dsl"], checks=["diff.coalesce"], budget=2.0,
                                use_db=False)
    (row,) = rep["results"]
    assert row["status"] == "skipped" and row["not_reached"] and row["cases"] == 0
    assert campaign.exit_status(rep) == 2


def test_no_stage_starts_past_the_deadline():
    """A law's later calls need earlier answers (prefetch stages): past the deadline the
    waiting cases are returned, to be dropped, instead of another compile round."""
    from layoutcheck.fuzz.campaign.batched import Prefetching, prefetch
    from layoutcheck.oracles import get_oracle
    proxy = Prefetching(Batched())
    check = BY_NAME["law.composition.associative"]
    cases = draw_cases(check.strategy(), 8, 1)
    ctx = campaign._Ctx(proxy, get_oracle("spec"))
    late = prefetch(proxy, check, ctx, cases, until=0.0)  # monotonic 0: long past
    assert late and len(proxy.oracle.batches) == 1  # the first stage only
    assert prefetch(proxy, check, ctx, cases) == set() and len(proxy.oracle.batches) > 1


def test_only_a_real_rejection_of_a_unit_is_cached():
    """cpp_vocab keeps the diagnostics of a unit g++ refused (the same source fails again);
    g++ killed or crashing is no answer about the source and is never kept."""
    from layoutcheck.oracles.cpp.composed import is_rejection
    assert is_rejection(1, "case.cpp:12:3: error: static assertion failed: Static shape_div failure")
    assert not is_rejection(1, "g++: internal compiler error: Killed signal terminated program cc1plus")
    assert not is_rejection(-9, "error")
    assert not is_rejection(1, "collect2: ld returned 1 exit status")


def test_a_neighbour_redraws_wide_integer_choices_and_falls_back_to_any_bounded_one():
    """batched._neighbour: extents and strides (choices of NEIGHBOUR_WIDTH values or more)
    are redrawn, not the narrow choices and booleans that pick ranks and nestings; a case
    with no wide choice gets one of its bounded choices redrawn."""
    import random
    from types import SimpleNamespace as N

    from layoutcheck.fuzz.campaign.batched import NEIGHBOUR_WIDTH, neighbour
    narrow = [N(type="integer", value=1, constraints=dict(min_value=0, max_value=2)),
              N(type="boolean", value=False, constraints={})]
    wide = N(type="integer", value=3, constraints=dict(min_value=1, max_value=NEIGHBOUR_WIDTH + 1))
    rnd, changed = random.Random(1), set()
    for _ in range(200):
        got = neighbour(narrow + [wide], rnd)
        changed |= {i for i, (n, v) in enumerate(zip(narrow + [wide], got)) if v != n.value}
    assert changed == {2}
    changed = set()
    for _ in range(200):
        got = neighbour(narrow, rnd)
        changed |= {i for i, (n, v) in enumerate(zip(narrow, got)) if v != n.value}
    assert changed and changed <= {0, 1}
