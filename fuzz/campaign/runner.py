"""The fuzzing campaign: every selected check against every selected oracle, in a budget.

``run_campaign(...)`` returns the report dict that ``layoutcheck fuzz --report`` writes::

    {"command", "seed", "budget_s", "max_examples", "oracles": {name: "available" | reason},
     "results": [row, ...] (fields: ``layoutcheck.fuzz.campaign.report``), "summary": {...},
     "oracle_stats": {name: {...}}, "reference_cache": {...}, "exit_status"}

Each check runs as a series of seeded hypothesis runs (so ``--seed`` plus ``--max-examples``
repeat exactly, independent of timing); a failure ends the pair's run and is shrunk by
``shrink`` (CuTe's order and moves, the same for every oracle), and the minimal
counterexample is kept beside the first.  A failure that ``layoutcheck.findings.find_known``
recognises is counted as known (its first case shrunk too) and fuzzing goes on, so a new bug
behind a known one is still found; from then on the pair steers away from that finding's
region (``steer``).  With a time budget
the pairs share it by ``budget.Scheduler``: a guaranteed minimum each, then adaptive rounds
to the pairs still finding new behaviour.  Every case is judged with the evaluation bound
of its inputs (``bounds``).  Failures are stored in ``.layoutcheck/failures.json`` (the
working directory's example database) and replayed first on the next run.
"""

from __future__ import annotations

import copy
import os
import time
from typing import Any, Callable, Collection, Iterable, Sequence, cast

import layoutcheck.fuzz.checks.targets as _targets
import layoutcheck.oracles.pycute_wheel.findings.algebra as known  # noqa: F401  (registers the findings' predicates)
from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hseed
from hypothesis import strategies as st
from layoutcheck.fuzz.campaign.baseline import Paired, recording, versus
from layoutcheck.fuzz.campaign.batched import BATCHED, Prefetching
from layoutcheck.fuzz.campaign.batched import tolerant as _tolerant
from layoutcheck.fuzz.campaign.budget import (
    Novelty,
    Observed,
    Scheduler,
    ShrinkPool,
    first_start_limit,
    grace,
    run_limit,
)
from layoutcheck.fuzz.campaign.minimise import finish_shrinks, shrink_reserve
from layoutcheck.fuzz.campaign.cluster import run_sharded
from layoutcheck.fuzz.campaign.exampledb import DB_PATH, open_store
from layoutcheck.fuzz.campaign.warmstart import WARM_FRACTION, warm_start
from layoutcheck.fuzz.campaign.pairs import AVERAGE, BATCH, Pair
from layoutcheck.fuzz.campaign.pairs import Halt as _Halt
from layoutcheck.fuzz.campaign.provider import backend_settings
from layoutcheck.fuzz.campaign.recognise import known_failure
from layoutcheck.fuzz.campaign.shrink import known_label, label_of, measure
from layoutcheck.fuzz.campaign.report import (
    baseline_summary,
    exit_status,
    format_failure,
    junit_xml,
    oracle_stats,
    progress_printer,
    result_row,
    summary,
    summary_lines,
)
from layoutcheck.fuzz.campaign.startup import oracles_for, skip_reason, warm_up
from layoutcheck.fuzz.campaign.steer import SKIP, Steering
from layoutcheck.fuzz.checks.base import INTEGER_KINDS, Check, CheckFailed, OracleCrashed, Skip, integer_kind
from layoutcheck.fuzz.checks.bounds import bounded
from layoutcheck.fuzz.checks.catalogue import checks_for
from layoutcheck.fuzz.checks.targets import encode
from layoutcheck.oracles import Oracle
from layoutcheck.oracles.reference import case_key, memo_stats, reference_for

from layoutcheck import deadline as run_deadline
from layoutcheck.errors import LayoutError
from layoutcheck.findings import base_oracle

__all__ = ["run_campaign", "run_check", "oracles_for", "skip_reason", "DB_PATH",
           "exit_status", "format_failure", "junit_xml", "progress_printer", "summary_lines"]

SEEN_SIZE = 1 << 14  # case keys a pair remembers to skip duplicates


def _leaves(e):
    if isinstance(e, BaseExceptionGroup):
        for x in e.exceptions:
            yield from _leaves(x)
    else:
        yield e


class _Ctx:
    def __init__(self, oracle, spec, baseline=None):
        self.oracle, self.spec = oracle, reference_for(oracle.name, spec) if spec else None
        self.baseline = baseline  # the Paired oracle when each case is compared with a baseline


class _Runner:
    """One (check, oracle) pair: counts cases, keeps the smallest new failure, notes known
    ones (and steers away from their regions), records each case's behaviours."""

    def __init__(self, check, ctx):
        self.check, self.ctx = check, ctx
        self.cases = self.skipped = self.known_cases = 0
        self.skip_reason = ""  # why the last skipped case was skipped
        self.known = None          # (finding id, inputs, failure) of the first known hit
        self.known_checked = True  # False: that hit is a known region, its answer not checked
        self.unchecked = None      # (finding id, inputs, failure) of a later such hit
        self.best = None           # (key, inputs, failure-or-exception, kind, args)
        self.shrunk = self.known_shrunk = None  # shrink.Shrunk of best / of known
        self.stop_at = None        # no new case after this (monotonic), once min_cases ran
        self.hard_stop = None      # no new case after this at all: the campaign's deadline
        self.min_cases = self.min_start = 0  # drawn cases (run or steered away) a guaranteed
                                             # slice owes, counted from min_start
        self.min_until = None      # ... but never past this
        self.shrink_until = None   # budget mode: shrink the new failure until then
        self.shrink_room = None    # (now, known) -> seconds to shrink; None: unbounded
        self.limit = None          # at most this many cases (--max-examples, or a round's
                                   # quota in budget mode: Pair.step)
        self.deterministic = False  # --max-examples or a quota: no time-dependent decision at all
        self.current_run = self.known_run = None  # (n, seed) of a hypothesis run
        self.examples = 0          # hypothesis examples run
        self.steer = Steering(ctx.oracle.name, check)
        self.novelty = Novelty()
        self.region_cases = 0      # cases run inside a hit finding's region, not known hits
        self.first_failure_at = self.first_known_at = None
        self.in_run = False        # inside a hypothesis run (not a replay of stored cases)
        self.seen, self.duplicates = {}, 0  # keys of the cases judged (bounded), drawn again
        self.findings = True       # False (--no-findings): no failure is recognised as known
        self.integers = dict.fromkeys(INTEGER_KINDS, 0)  # cases by how the oracle ran their integers
        self.shared = self.fixed = None  # with a baseline: the smallest case failing the same
        self.shared_cases = self.fixed_cases = 0  # way on both, and one only it fails

    def halted(self):
        now = time.monotonic()
        if self.best is not None:  # a new failure ends the run; the pair shrinks it after
            return True
        if self.limit is not None and self.counted() >= self.limit:
            return True
        if self.hard_stop is not None and now > self.hard_stop:
            return True
        if self.stop_at is None or now <= self.stop_at:
            return False
        drawn = self.cases + self.steer.skipped
        if drawn >= self.min_cases:
            return True
        # a guaranteed slice owes cases: the first always runs, the others within min_until
        return drawn > self.min_start and self.min_until is not None and now > self.min_until

    def counted(self):
        """Cases judged as drawn (a limit or a quota counts these; the shrinker's candidates
        are judged apart, by ``label``)."""
        return self.cases

    def room(self):
        """Cases left before the limit (None: no limit)."""
        return None if self.limit is None else max(0, self.limit - self.counted())

    def batch(self, cases):
        """One hypothesis example: a drawn batch of cases, judged in order (the engine's
        per-example cost is shared; the first failing case ends the run).  Once the pair's
        slice is over, the whole hypothesis run ends at once (_Halt) instead of drawing
        examples it would not run."""
        self.examples += 1
        for args in cases:
            if self.halted():
                raise _Halt
            key = case_key(args)
            if self.fresh(key):
                self.judge(args, self.region(args))
                self.passed(key)

    def fresh(self, key):
        """False for a case this pair has already judged without failing (hypothesis draws
        the small ones again and again, its shrinker even more): it is not run again, and
        not counted.  A failing case is never remembered."""
        if key in self.seen:
            if self.best is None:
                self.duplicates += 1
            return False
        return True

    def passed(self, key):
        seen = self.seen
        seen[key] = None
        if len(seen) > SEEN_SIZE:
            del seen[next(iter(seen))]

    def region(self, args):
        """None (new ground), a hit finding's id (a sampled case of its region) or SKIP."""
        if not self.steer.active:
            return None
        rid = self.steer.region(args)
        if rid is not None and not self.steer.keep(args):
            self.steer.skipped += 1
            return SKIP
        return rid

    def judge(self, args, region=None):
        """Run one case within its inputs' evaluation bound, recording its behaviours
        (``region``: what ``self.region(args)`` said, or None for new ground)."""
        if region is SKIP:
            return
        feats, verdict = [], "fail"
        skipped, known_cases = self.skipped, self.known_cases
        _targets.observer = feats.append
        try:
            with bounded(args):
                self.case(args)
            verdict = ("skip" if self.skipped > skipped else
                       "known" if self.known_cases > known_cases else "pass")
        finally:
            _targets.observer = None
            feats.append(("verdict", verdict))
            self.novelty.add(feats)
            if region is not None and verdict != "known":
                self.region_cases += 1

    def _note_known(self, kid):
        self.steer.note(kid)
        if self.first_known_at is None:
            self.first_known_at = time.monotonic()

    def case(self, args):
        """Run one case; raise for a new failure so that hypothesis shrinks it."""
        self.cases += 1
        try:
            self.integers[integer_kind(self.ctx.oracle, self.check.op, args)] += 1
        except Exception:  # noqa: BLE001 - inputs it cannot walk: counted as static
            self.integers["static"] += 1
        ctx = self.ctx
        if ctx.baseline is not None:  # the calls of this case, for the baseline's comparison
            ctx = copy.copy(ctx)
            ctx.oracle = recording(ctx.oracle)
        try:
            self.check.run(ctx, args)
        except Skip as e:
            self.skipped += 1
            self.skip_reason = str(e)
        except (CheckFailed, OracleCrashed) as f:  # a crash is known only by a crash finding
            if self.ctx.baseline is not None:  # a crash the baseline lacks is a regression too
                v = versus(self.check, self.ctx, args, f, ctx.oracle.calls)
                if isinstance(f, CheckFailed) or v.verdict != "known" or \
                        (self.findings and _known(self.ctx, self.check, args, f)[0]):
                    return self._versus(args, f, v)
            kid, checked = _known(self.ctx, self.check, args, f) if self.findings else (None, True)
            if kid:
                self.known_cases += 1
                self._note_known(kid)
                if self.known is None:
                    self.known, self.known_checked = (kid, args, f), checked
                    self.known_run = self.current_run
                elif not checked and self.known_checked and self.unchecked is None:
                    self.unchecked = (kid, args, f)  # reported: its answer was not checked
                return
            self.record(args, f, "error" if isinstance(f, OracleCrashed) else "fail")
            raise
        except Exception as e:  # noqa: BLE001 - a crash in an oracle adapter or a check
            self.record(args, e, "error")
            raise
        else:
            if self.ctx.baseline is not None:
                self._versus(args, None, versus(self.check, self.ctx, args, None, ctx.oracle.calls))

    def _versus(self, args, failure, v):
        """With a baseline (``fuzz/campaign/baseline.py``), ``v`` its verdict: a case the
        baseline answers the same way is known (the smallest kept, and the pair goes on; a
        crash only where a crash finding explains it); one only the baseline fails is fixed
        (reported); a regression or a change is a new failure, raised to be shrunk."""
        size = (sum(map(len, encode(args))), encode(args))
        if v.verdict == "known":
            kid = _known(self.ctx, self.check, args, failure)[0] if self.findings else None
            self.known_cases += 1
            self.shared_cases += 1
            if kid:
                self._note_known(kid)
            if self.shared is None or size < self.shared[0]:
                self.shared = (size, args, failure, v, kid)
        elif v.verdict == "fixed":
            self.fixed_cases += 1
            if self.fixed is None or size < self.fixed[0]:
                self.fixed = (size, args, v)
        elif v.verdict in ("regression", "changed"):
            failure.baseline = v
            self.record(args, failure, "fail")
            raise failure

    def record(self, args, exc, kind):
        """A new failure (``kind`` "fail" or "error"): the first one found is the pair's,
        shrunk afterwards (``Pair``) within ``shrink_room`` seconds in budget mode."""
        if self.best is not None:
            return
        now = time.monotonic()
        if self.first_failure_at is None:
            self.first_failure_at = now
        if self.shrink_room is not None and not self.deterministic:  # charged to the budget
            self.shrink_until = now + self.shrink_room(now, False)
        self.best = (measure(args), encode(args), exc, kind, args)

    def label(self, ctx, args):
        """How ``args`` fails under ``ctx`` (the shrinker's judge): None when it passes or is
        skipped, else ``((kind, signature, finding id or None), failure)`` (``shrink.same``)."""
        if self.ctx.baseline is not None:  # the calls of this case, for the baseline's comparison
            ctx = copy.copy(ctx)
            ctx.oracle = recording(ctx.oracle)
        try:
            with bounded(args):
                self.check.run(ctx, args)
        except Skip:
            return None
        except (CheckFailed, OracleCrashed) as f:
            if self.ctx.baseline is not None:
                # with a baseline a regression or a change shrinks into one (labelled as the
                # new failure it is reported as: no finding); a case that fails the same way on
                # the baseline is no candidate (a shared crash: the register's, as without one)
                v = versus(self.check, self.ctx, args, f, ctx.oracle.calls)
                if v.verdict in ("regression", "changed"):
                    f.baseline = v
                    return label_of(f, None, self.ctx.oracle.name), f
                if isinstance(f, CheckFailed):
                    return None
            kid, checked = _known(ctx, self.check, args, f) if self.findings else (None, True)
            return label_of(f, known_label(kid, checked), self.ctx.oracle.name), f
        except Exception as e:  # noqa: BLE001 - a crash in an oracle adapter or a check
            return label_of(e), e
        return None

    def hypothesis_run(self, strategy, n, seed_value, fast=False, most=BATCH):
        """A seeded hypothesis run of ``n`` examples, each a list of cases (``batch``) of at
        most ``most`` (``AVERAGE`` on average, fewer when ``most`` is smaller: a list drawn
        past what the pair may still judge is drawn for nothing); ``fast``: new choices from
        ``provider.FastProvider`` (a failure is replayed and shrunk on hypothesis' own
        provider)."""
        self.current_run = (n, seed_value)
        strategy = _tolerant(strategy)
        most = max(1, min(BATCH, most))
        cases = st.lists(strategy, min_size=1, max_size=most, unique_by=case_key)  # no case twice
        if most > 1:  # (an average of max_size itself is no distribution hypothesis draws)
            _widen(cases, min(AVERAGE, 0.75 * most))
        @settings(max_examples=n, database=None, deadline=None, verbosity=Verbosity.quiet,
                  suppress_health_check=list(HealthCheck), report_multiple_bugs=False,
                  phases=[Phase.explicit, Phase.generate], print_blob=False,
                  **backend_settings(fast))
        @hseed(seed_value)
        @given(cases)  # many cases per example
        def prop(cases):
            self.batch([args for args in cases if args is not None])
        # no example database: hypothesis need not hash the test's source for its key (a few
        # ms a run, and a pair runs many); where this hypothesis reads no such attribute, nothing changes
        prop._hypothesis_internal_database_key = None
        self.in_run = True
        try:
            prop()
        except _Halt:
            pass
        except BaseExceptionGroup as g:  # hypothesis' report of a replay that was halted
            if self.best is None or not all(isinstance(e, (_Halt, Exception)) for e in _leaves(g)):
                raise
        except Exception:  # noqa: BLE001 - the failure is in self.best; flaky replays too
            if self.best is None:
                raise
        finally:
            self.in_run = False


def _widen(lists, average):
    """Make a ``st.lists`` strategy draw ``average`` elements on average (hypothesis' own
    choice is min_size + 5, so a list of cases would be about six): the engine's cost per
    example is then shared by that many cases.  The list still shrinks element by element
    down to the failing case.  Another hypothesis without the attribute keeps its own."""
    inner = getattr(lists, "wrapped_strategy", lists)
    if isinstance(getattr(inner, "average_size", None), (int, float)) \
            and inner.min_size <= average <= inner.max_size:
        inner.average_size = average


def _known(ctx, check, args, failure=None):
    """(finding id or None, answers checked): the finding that explains this failure (a check
    that failed, or an oracle that crashed), if any: every oracle answer of the case that
    differs from the reference's must be exactly what a finding produces, and with those
    answers replaced by the reference's the check must pass (layoutcheck.fuzz.campaign.recognise).
    ``answers checked`` is False for a known region whose symptom checks a property only."""
    try:
        rec = known_failure(check, ctx, args, failure)
        return rec.finding, rec.checked
    except Exception:  # noqa: BLE001 - recognition that cannot judge this case: not known
        return None, True


def _pair(check, oracle, spec, seed=0, budget=None, deadline=None, pool=None, findings=True,
          baseline=None):
    batched = any(base_oracle(o.name) in BATCHED for o in (oracle, baseline) if o is not None)
    paired = Paired(oracle, baseline) if baseline is not None else None
    oracle = paired or oracle
    proxy = Prefetching(oracle) if batched else None
    runner = _Runner(check, _Ctx(Observed(proxy or oracle), spec, paired))
    runner.findings = findings
    return Pair(check, runner, proxy, seed, budget=budget, deadline=deadline, pool=pool)


def run_check(check: Check, oracle: Oracle, spec: Oracle | None, *, budget: float | None = None,
              max_examples: int | None = None, seed: int = 0,
              replays: Iterable[Sequence[str]] = (), findings: bool = True,
              baseline: Oracle | None = None) -> dict[str, Any]:
    """Fuzz one check against one oracle (``budget`` seconds, or ``max_examples`` cases);
    return its result row.  ``replays`` run first, as given (a failing one is not shrunk);
    ``baseline``: an oracle each case is compared with."""
    if budget is None and max_examples is None:
        raise LayoutError("run_check needs a budget (seconds) or max_examples (cases)")
    t0 = time.monotonic()
    pair = _pair(check, oracle, spec, seed, budget=None if max_examples is not None else budget,
                 deadline=t0 + budget if budget else None, findings=findings, baseline=baseline)
    if not pair.replay(replays, shrink=False) and max_examples != 0:
        if max_examples is not None:
            pair.step(None, limit=max_examples)
        else:
            pair.step(t0 + cast(float, budget), minimum=True)  # no max_examples: a budget
    return pair.result(t0)


def run_campaign(oracles: Iterable[str] = ("pycute",), ops: Collection[str] | None = None,
                 budget: float = 60.0, seed: int = 0, max_examples: int | None = None,
                 checks: Collection[str] | None = None, kinds: Collection[str] | None = None,
                 use_db: bool = True, db_path: str | os.PathLike[str] | None = None, jobs: int = 1,
                 progress: Callable[[int, int, dict[str, Any]], object] | None = None,
                 command: str | None = None, fail_fast: bool = False,
                 against: str | Iterable[str] | None = None, cluster: str | None = None,
                 time_cap: float | None = None, findings: bool = True,
                 baseline: str | None = None) -> dict[str, Any]:
    """Run the gate; return the report dict (see the module docstring).

    oracles (or against=): names for ``layoutcheck.oracles.get_oracle``; ops / checks / kinds select
    checks; budget (seconds, shared across all pairs by ``budget.Scheduler``; the run ends
    within budget + ``budget.grace(budget)``) is ignored when max_examples is set: then every
    pair judges the same cases on any machine (a function of seed and the options), and
    ``time_cap`` (seconds, optional) only stops it from starting pairs past the cap, which are
    reported as not reached (never as passed); jobs > 1 shards by seed across processes;
    progress(done, total, result) is called after each pair (with a budget: after each
    pair's guaranteed slice, with its result so far); fail_fast stops at the first new
    failure (the remaining pairs are reported as skipped).  cluster ("local[:N]",
    "tcp://HOST:PORT", "processes:N"; jobs > 1 alone means "local:jobs") runs the units of
    ``fuzz.cluster`` there; db_path may also be "redis://HOST:PORT/N" (``fuzz.exampledb``).
    ``findings=False`` switches the register off: every failure is new (``--no-findings``).
    baseline (an oracle name): each case is also answered by it, and each failure classified
    known, regression, fixed or changed (``fuzz/campaign/baseline.py``; the report's
    ``baseline`` and each row's).
    """
    if against is not None:  # alias: the CLI's --against
        oracles = against.split(",") if isinstance(against, str) else against
    store = open_store(db_path) if use_db else None
    selected = checks_for(ops, kinds, checks)
    if not selected:
        raise LayoutError(f"no check matches ops={ops} checks={checks} kinds={kinds}")
    names = list(dict.fromkeys(list(oracles)))
    t0 = time.monotonic()  # the oracles' start counts against the budget
    limit = run_limit(budget, max_examples, time_cap)
    with run_deadline.applied(limit):
        with run_deadline.applied(first_start_limit(budget, max_examples, time_cap)):
            objs, reasons = oracles_for(names, baseline)
        db = store.load([(c.name, n) for n in names for c in selected]) if store else []
        sharded = None
        if cluster or (jobs and jobs > 1):
            results, sharded = _sharded(names, selected, budget, seed, max_examples, jobs, db,
                                        cluster, store, progress, time_cap, findings, baseline)
        else:
            results = _run_pairs(selected, names, objs, reasons, budget, seed, max_examples, db,
                                 progress, fail_fast, time_cap, findings,
                                 objs[baseline] if baseline else None, t0=t0)
    seconds = time.monotonic() - t0
    report = {"command": command or "run_campaign", "seed": seed,
              "budget_s": None if max_examples is not None else budget,
              "max_examples": max_examples, "time_cap_s": time_cap, "jobs": jobs,
              "findings": findings,
              "oracles": {n: reasons[n] for n in names}, "results": results,
              "summary": summary(results, seconds, None if max_examples else budget),
              "oracle_stats": oracle_stats(objs, names, results,
                                           shards=None if sharded is None else sharded.pop("oracle_stats", [])),
              "reference_cache": memo_stats(objs.get("spec"))}
    if sharded is not None:
        report["cluster"] = sharded
    if baseline is not None:
        report["baseline"] = baseline_summary(baseline, objs[baseline], results)
    report["exit_status"] = exit_status(report)
    if store and findings:  # a pair that ran forgets what it no longer fails on; new failures
        store.commit(db, results)  # are kept (with the register off, nothing is written)
    return report


def _new_failure(row):
    return row["status"] in ("fail", "error") and not row["known_finding"]


def _run_pairs(selected, names, objs, reasons, budget, seed, max_examples, db, progress,
               fail_fast=False, time_cap=None, findings=True, baseline=None, t0=None):
    """The pairs in this process; ``t0`` (monotonic): when the budget started (default now)."""
    pairs = [(c, n) for n in names for c in selected]
    t0 = time.monotonic() if t0 is None else t0
    deadline = None if max_examples is not None else t0 + budget
    warm_up(objs, names, reasons)
    rows, live = {}, []
    pool = None if max_examples is not None else ShrinkPool(budget, deadline)
    for i, (check, name) in enumerate(pairs):
        reason = skip_reason(check, objs[name], objs.get("spec"), reasons)
        if reason:
            rows[i] = result_row(check, name, "skipped", message=reason)
            continue
        p = _pair(check, objs[name], objs.get("spec"), seed,
                  budget=None if max_examples is not None else budget, deadline=deadline,
                  pool=pool, findings=findings, baseline=baseline)
        p.replay([e["inputs"] for e in db if e["check"] == check.name and e["oracle"] == name])
        live.append((i, p))
    shown = [0]

    def show(i, p):
        if progress:
            shown[0] += 1
            progress(shown[0], len(pairs), rows[i] if p is None else p.result(t0))

    for i in rows:
        show(i, None)
    failed = lambda: fail_fast and any(p.runner.best for _, p in live)  # noqa: E731
    if max_examples is not None:
        cap = None if time_cap is None else t0 + time_cap
        for i, p in live:
            if cap is not None and time.monotonic() > cap:
                p.not_reached = True  # cut by the cap: reported, never a pass
            elif not failed():
                p.step(None, limit=max_examples)
                show(i, p)
            else:
                p.not_run = True
    else:
        warm_start([p for _, p in live], t0 + WARM_FRACTION * budget)
        order = {id(p): i for i, p in live}
        # the first round takes the pairs answered by the warm start first (stable sort)
        pairs_live = sorted((p for _, p in live), key=lambda p: p.compile_rank())
        Scheduler(pairs_live, budget, t0=t0, pool=pool).run(
            after_minimum=lambda k, n, p: show(order[id(p)], p), stop=failed,
            reserve=lambda: shrink_reserve(pairs_live, pool, budget),
            settle=lambda: finish_shrinks(pairs_live, deadline + grace(budget)))
        finish_shrinks(pairs_live, deadline + grace(budget))
    for i, p in live:
        rows[i] = p.result(t0)
        if getattr(p, "not_run", False) or (fail_fast and not p.rounds and p.runner.best is None
                                            and failed()):
            rows[i] = result_row(p.check, p.name, "skipped",
                                 message="not run: --fail-fast after a failure")
    return [rows[i] for i in range(len(pairs))]


def _shard(kw):
    rep = run_campaign(**dict(kw))
    return {"rows": rep["results"], "oracle_stats": rep["oracle_stats"]}


def _sharded(names, selected, budget, seed, max_examples, jobs, db, cluster=None, store=None,
             progress=None, time_cap=None, findings=True, baseline=None):
    """--jobs N / --cluster: the run cut into (oracle, checks, seed) units on Dask distributed
    (``fuzz.cluster``), each unit ``_shard(kw)`` on a worker, the rows merged per pair.  A unit
    whose worker dies is retried; one still lost is reported as ``error`` rows
    ("incomplete: ..."), never as passed.  Returns (rows, the report's "cluster" entry)."""
    return run_sharded(names, selected, budget=budget, seed=seed, max_examples=max_examples,
                       jobs=jobs, cluster=cluster, fn=_shard, store=store, db=db,
                       progress=progress, time_cap=time_cap, findings=findings,
                       extra={"baseline": baseline} if baseline else None)
