"""One (check, oracle) pair of a campaign across the rounds of its budget: the hypothesis runs
sized to each slice, the batched path for oracles that answer a batch at once, the example
database replay, shrinking what it found (``minimise``), and the pair's result row
(``report.result_row``)."""

import hashlib
import shlex
import threading
import time

from layoutcheck.fuzz.campaign.batched import BATCH_CASES, draw_cases, draw_pool, first_stage, prefetch
from layoutcheck.fuzz.campaign.baseline import label
from layoutcheck.fuzz.campaign.budget import MIN_CASES, ShrinkPool
from layoutcheck.fuzz.campaign.minimise import bounds, shrink_failure, shrink_note
from layoutcheck.fuzz.campaign.recognise import known_failure
from layoutcheck.fuzz.campaign.report import result_row
from layoutcheck.fuzz.campaign.shrink import Shrunk, known_label, label_of, measure
from layoutcheck.fuzz.campaign.steer import SKIP
from layoutcheck.fuzz.checks.targets import decode, encode
from layoutcheck.oracles.reference import case_key

__all__ = ["Pair", "Halt", "finish", "CHUNK", "BATCH", "AVERAGE", "MAX_RUN", "FIRST_BATCH",
           "REUSE_POOL", "REUSE_SHARE"]

# An example is a list of cases (AVERAGE on average, BATCH at most; drawn, so it shrinks):
# hypothesis' own cost per example is shared by them.  A run stays within
# hypothesis' health-check window (its first 10 valid examples): past it the engine also
# runs "mutations" of each example, copies of its spans that, for a list of cases, mostly
# replay cases already judged (they took half of the drawing).
CHUNK = 10           # examples per seeded hypothesis run with --max-examples
BATCH = 128          # cases per hypothesis example, at most
AVERAGE = 30         # ... and on average
MAX_RUN = 10         # examples per hypothesis run in budget mode (sized to the slice)
FIRST_BATCH = 1 / 32  # of a drawn batch's cases, in a pair's first round (budget mode): 2 of 64
REUSE_POOL = 512     # cases drawn for a reuse batch (the oracle keeps the cheap ones)
MIN_DRAWN = 4        # cases of a drawn batch in the adaptive rounds, at least
REUSE_NEAR = 64      # reusable cases a pair keeps as the neighbours' bases of its next pool
REUSE_SHARE = 2.0    # reuse batches get at most this much time per second of drawn batches


class Halt(KeyboardInterrupt):
    """Ends a hypothesis run at once: hypothesis neither shrinks an interrupt nor records the
    interrupted example (so it never sees a draw sequence that "stopped early")."""


def _seed(*parts):
    return int.from_bytes(hashlib.sha256(":".join(map(str, parts)).encode()).digest()[:4], "big")


def _replay_line(oracle, check, inputs):
    return " ".join(["layoutcheck fuzz --against", shlex.quote(oracle), "--case", check.name,
                     *map(shlex.quote, inputs)])


def _since(t, t0):
    return None if t is None else round(t - t0, 3)


class Pair:
    """A (check, oracle) pair across the rounds of a budget (``budget.Scheduler``) or a fixed
    number of cases (``--max-examples``)."""

    def __init__(self, check, runner, proxy=None, seed=0, budget=None, deadline=None,
                 pool=None):
        """``runner``: the campaign's ``_Runner`` over the oracle (``proxy``: its
        ``batched.Prefetching`` wrapper for a batched oracle, else None); with a budget,
        ``pool`` is the campaign's ``budget.ShrinkPool`` (default: one for this pair alone)."""
        self.check, self.name, self.seed, self.proxy = check, runner.ctx.oracle.name, seed, proxy
        self.runner = r = runner
        self.granted = None  # (start, seconds) of the shrinking granted from the pool
        if budget:
            r.hard_stop = deadline
            self.pool = pool or ShrinkPool(budget, deadline, fraction=1.0)
            r.shrink_room = self._grant
        self.novelty, self.strategy, self.error = r.novelty, None, None
        self.chunk = self.idle = self.rounds = 0
        self.seconds, self.per_example, self.finished_at = 0.0, None, None
        self.per_case = None               # seconds per judged case (sizes the lists drawn)
        self.in_minimum = False            # in its guaranteed slice (step)
        self.quota = None                  # the round's quota of cases, during a round (step)
        self.pending = None                # a first batch drawn by first_calls
        self.warmed = False                # its answers are in the proxy's cache (warm start)
        self.drawn_s = self.reuse_s = 0.0  # seconds in drawn / reuse batches (_batches)
        self.overlap_s = 0.0               # ... and in reuse batches beside a compile
        self.reuse_dry = self.reused = 0   # reuse pools in a row that yielded little; cases judged
        self.reuse_near = []               # (case, choices) of the last pool's reusable cases
        self.done = self.not_reached = False

    def _grant(self, now, known):
        seconds = self.pool.room(now, known)
        self.granted = (now, seconds)
        return seconds

    def _refund(self):
        if self.granted is not None:
            start, seconds = self.granted
            self.pool.refund(seconds - max(0.0, min(time.monotonic() - start, seconds)))
            self.granted = None

    def run_once(self, n, most=BATCH):
        self.runner.hypothesis_run(self.strategy, n, _seed(self.seed, self.check.name,
                                                           self.name, self.chunk),
                                   fast=self.chunk > 0,  # the first keeps hypothesis' small-case search
                                   most=most)
        self.chunk += 1

    def replay(self, replays, shrink=True):
        """The example database first: True when a stored case still fails (shrunk unless
        ``shrink`` is False: ``--case`` and ``--replay`` rerun the case as given)."""
        for inputs in replays:
            try:
                self.runner.judge(decode(inputs))
            except Exception:  # noqa: BLE001 - recorded in runner.best
                pass
            if self.runner.best is not None:
                self.done = True
                if shrink:
                    self.shrink_found()
                    self._refund()
                return True
        return False

    def shrink_found(self):
        """Shrink what this pair found and has not shrunk yet (``minimise``): the first case
        of a known finding (unless a new failure speaks for the pair) and the new failure.
        A known case shrinks only into cases of the same finding, a new failure only into
        new failures of the same kind (``shrink.same``)."""
        r = self.runner
        if r.best is None and r.known is not None and r.known_shrunk is None:
            kid, args, failure = r.known
            until, most = bounds(r, known=True)
            label = label_of(failure, known_label(kid, r.known_checked), self.name)
            r.known_shrunk = self._shrink(args, failure, label, until, most)
            r.known = (kid, r.known_shrunk.minimal, r.known_shrunk.failure)
            self._refund()
        if r.best is not None and r.shrunk is None:
            _, _, exc, kind, args = r.best
            until, most = bounds(r, known=False)
            seen = r.seen  # cases judged without a new failure: never candidates
            r.shrunk = self._shrink(args, exc, label_of(exc, None, self.name), until, most,
                                    known_pass=lambda c: case_key(c) in seen)
            r.best = (measure(r.shrunk.minimal), encode(r.shrunk.minimal), r.shrunk.failure,
                      kind, r.shrunk.minimal)

    def _shrink(self, args, failure, label, until, most, known_pass=None, resume=None):
        try:
            return shrink_failure(self.runner, self.proxy, args, failure, label, until=until,
                                  max_candidates=most, known_pass=known_pass, resume=resume)
        except Exception as e:  # noqa: BLE001 - the failure stands as found; the row says why
            out = resume or Shrunk(tuple(args), tuple(args), failure, label=label)
            out.cut = f"error ({type(e).__name__}: {str(e)[:200]})"
            return out

    def unfinished(self):
        """The shrink of this pair's reported failure, when its time bound cut it (budget
        mode: ``resume_shrink`` goes on with it when the campaign has time left)."""
        r = self.runner
        s = r.shrunk if r.best is not None else r.known_shrunk
        return s if s is not None and s.cut == "time" else None

    def resume_shrink(self, until):
        """Go on shrinking the reported failure until ``until`` (monotonic)."""
        r, s = self.runner, self.unfinished()
        if s is None:
            return
        if r.best is not None:
            seen = r.seen
            r.shrunk = self._shrink(s.minimal, s.failure, s.label, until, None,
                                    known_pass=lambda c: case_key(c) in seen, resume=s)
            _, _, _, kind, _ = r.best
            r.best = (measure(s.minimal), encode(s.minimal), s.failure, kind, s.minimal)
        else:
            r.known_shrunk = self._shrink(s.minimal, s.failure, s.label, until, None, resume=s)
            r.known = (r.known[0], s.minimal, s.failure)

    def step(self, until, minimum=False, limit=None, quota=None):
        """Fuzz until ``until`` (monotonic; None with ``limit``: that many cases).  ``minimum``:
        a guaranteed slice (True: MIN_CASES; or ``(cases owed, stretch s)``).  ``quota``: a
        round of ``budget.Scheduler``: judge cases until the pair has judged ``quota`` in all
        (its shrinker's attempts aside), as with ``--max-examples`` (the same cases for the
        same seed, whatever the machine's speed), but never past ``until``; a pair that has
        them already does nothing."""
        if self.done:
            return
        r, t = self.runner, time.monotonic()
        if quota is not None and r.counted() >= quota:
            return
        owed, stretch = minimum if isinstance(minimum, tuple) else \
            (MIN_CASES, max(0.0, (until or t) - t)) if minimum else (0, 0.0)
        r.min_start = r.cases + r.steer.skipped
        r.stop_at, r.min_cases = until, r.min_start + owed
        r.min_until = None if until is None else until + stretch
        if limit is not None:
            r.limit, r.deterministic = limit, True
        elif quota is not None:  # the quota is what it owes; ``until`` still ends it
            r.limit, r.deterministic = quota, True
        self.quota = quota
        before = r.cases + r.steer.skipped
        self.in_minimum = (bool(minimum) or quota is not None and not self.rounds) and limit is None
        try:
            if self.strategy is None:
                self.strategy = self.check.strategy()
            (self._batches if self.proxy else self._runs)()
        except Exception as e:  # noqa: BLE001 - the harness itself failed on this pair
            self.error, self.done = e, True
        finally:
            if quota is not None:
                r.limit, r.deterministic, self.quota = None, False, None
        self.shrink_found()
        self._refund()
        self.rounds += 1
        self.finished_at = time.monotonic()
        self.seconds += self.finished_at - t
        self.novelty.seconds = self.seconds
        self.idle = 0 if r.cases + r.steer.skipped > before else self.idle + 1
        if r.best is not None or self.idle >= 2 or limit is not None \
                or (r.cases >= 32 and r.skipped == r.cases):  # nothing to check: unsupported
            self.done = True

    def _left(self):
        r = self.runner
        return not r.halted() and (r.limit is not None or time.monotonic() < r.stop_at
                                   or r.cases + r.steer.skipped < r.min_cases)

    def _runs(self):
        r = self.runner
        while r.best is None and self._left():
            room = r.room()
            if r.limit is not None:
                n = CHUNK  # the run ends at the limit (its first example is the simplest one)
                most = room
            elif self.per_example is None:
                n, most = 2, BATCH  # a probe: the next runs are sized to the slice from its cost
            else:  # sized to what is left of the slice (a run past it is cut short anyway)
                left = max(r.stop_at - time.monotonic(), 0.0)
                n = max(2, min(MAX_RUN, int(left / self.per_example) + 1))
                most = BATCH if not self.per_case else int(left / self.per_case) + 1
            before, ex, t = r.cases + r.steer.skipped, r.examples, time.monotonic()
            judged = r.cases
            self.run_once(n, most)
            if r.examples > ex:
                cost = (time.monotonic() - t) / (r.examples - ex)
                self.per_example = cost if self.per_example is None else \
                    0.5 * (self.per_example + cost)
            if r.cases > judged and r.best is None:
                cost = (time.monotonic() - t) / (r.cases - judged)
                self.per_case = cost if self.per_case is None else 0.5 * (self.per_case + cost)
            if r.cases + r.steer.skipped == before and (self.chunk > 3 or r.limit is None):
                return  # the strategy space is exhausted or every case was skipped

    def _batches(self):
        """Batched oracles: draw a batch, answer it stage by stage, judge smallest first.
        Where the oracle can tell which cases it answers without compiling (``reusing``),
        reuse batches take turns with the drawn ones (``_reuse_turn``)."""
        r, first, dry = self.runner, True, 0
        while r.best is None and (first and r.min_cases > r.min_start or self._left()):
            if r.hard_stop is not None and time.monotonic() > r.hard_stop:
                return
            if dry >= 3:  # three batches in a row with no new case: the strategy is exhausted
                return
            first, t, judged = False, time.monotonic(), r.cases + r.steer.skipped
            reuse = self._reuse_turn()
            cases = self._reused() if reuse else self._drawn()
            if cases is None:
                return
            beside = self.overlap_s
            if not reuse:
                self._reuse_while_compiling(cases)
                if r.hard_stop is not None and time.monotonic() > r.hard_stop:
                    return  # its compile ran past the deadline: not judged, not counted
            self._judge(cases, reused=reuse)
            dry = 0 if reuse or r.cases + r.steer.skipped > judged else dry + 1
            if reuse:
                self.reuse_s += time.monotonic() - t
            else:  # its new kernels are new ground for reuse pools: try them again
                self.drawn_s += time.monotonic() - t - (self.overlap_s - beside)
                self.reuse_dry = 0

    def _reuse_while_compiling(self, cases):
        """A drawn batch of a cute-cpp pair: its first-stage kernels compile on a background
        thread (the oracle's ``prepare``; g++ runs in subprocesses) while this thread judges
        reuse batches, which need no compile, instead of waiting (the main thread
        waited on g++ for about 220 of a cold run's 300 s, with one core mostly idle).  The
        reuse batches judged meanwhile are not charged to ``REUSE_SHARE``: they delay no new
        C++ type.  Only in budget mode, once the pair has judged a drawn batch (so its pools
        can hit compiled kernels); the batch itself is judged after, as before.  A compile
        that raises (CuTe's rejections do not: they are answers) is the pair's harness error,
        never dropped, even past the deadline."""
        oracle, r = self.proxy.oracle, self.runner
        if not (callable(getattr(oracle, "prepare", None)) and callable(getattr(oracle, "reusing", None))
                and r.limit is None and self.drawn_s > 0):
            return
        uncompiled = getattr(oracle, "uncompiled", None)
        calls = first_stage(self.proxy, self.check, r.ctx, cases)
        if not calls or (callable(uncompiled) and not uncompiled(calls)):
            return
        failed = []

        def compile_them():
            try:
                oracle.prepare(calls, until=r.hard_stop)
            except Exception as e:  # noqa: BLE001 - raised on the campaign's thread below
                failed.append(e)
        worker = threading.Thread(target=compile_them, name="lc-prepare", daemon=True)
        worker.start()
        try:
            while worker.is_alive() and r.best is None and self.reuse_dry < 2 \
                    and (r.hard_stop is None or time.monotonic() < r.hard_stop):
                t = time.monotonic()
                more = self._reused()
                if not more:
                    break
                self._judge(more, reused=True)
                self.overlap_s += time.monotonic() - t
        finally:
            worker.join()
        if failed:  # the harness failed (a compile that timed out, a g++ that broke): the
            raise failed[0]  # pair's error, as the same compile on this thread would be

    def first_calls(self):
        """For a batched oracle that can ``prepare`` calls (cute-cpp: compile their kernels
        in a few large units on every core): draw this pair's first batch now, keep it for
        the pair's first step, and return the oracle calls of its first stage; else []."""
        if not self.proxy or self.done or not callable(getattr(self.proxy.oracle, "prepare", None)):
            return []
        try:
            if self.strategy is None:
                self.strategy = self.check.strategy()
            self.in_minimum = True
            self.pending = self._drawn()
        except Exception:  # noqa: BLE001 - the pair's own step reports it
            self.pending = None
        finally:
            self.in_minimum = False
        if not self.pending:
            return []
        return first_stage(self.proxy, self.check, self.runner.ctx, self.pending)

    def warm(self, answers):
        """The warm start's answers (``{(op, case_key): Outcome}``) to this pair's first batch;
        returns the calls of its next stage that they do not answer (recorded, nothing
        asked), or [] when the batch needs no other answer.  The pair's first step judges
        the batch from them."""
        if not self.pending:
            return []
        self.proxy.cache.update(answers)
        self.warmed = True
        return first_stage(self.proxy, self.check, self.runner.ctx, self.pending)

    def compile_rank(self):
        """The order of the first round: a pair whose first batch is answered already
        (warmed, or an oracle that compiles nothing) first, then by the oracle's
        ``compile_cost(op)`` (cute-cpp: layout kernels, the composed programs, TiledCopy)."""
        if not self.proxy or self.warmed:
            return 0
        cost = getattr(self.proxy.oracle, "compile_cost", None)
        return 1 + (cost(self.check.op) if callable(cost) else 0)

    def _drawn(self):
        if self.pending is not None:  # drawn by first_calls
            cases, self.pending = self.pending, None
            return cases
        r = self.runner
        n = self._batch_size()
        if r.limit is not None and not self.quota:  # --max-examples: up to the limit
            n = min(n, r.room())  # (a round's quota is met by whole batches: each is one compile)
        cases = draw_cases(self.strategy, n, _seed(self.seed, self.check.name, self.name,
                                                   "batch", self.chunk))
        self.chunk += 1
        if not cases:
            return None
        mix = getattr(self.proxy.oracle, "case_mix", None)  # cute-cpp: oracles/cpp/cases.py
        return mix(self.check.op, cases, self.seed) if callable(mix) else cases

    def _reuse_turn(self):
        """A reuse batch next?  Only in budget mode (with --max-examples a run is a function
        of the seed, and what is compiled depends on the cache), after a drawn batch, unless
        the last two pools since a drawn batch yielded little, and while reuse batches have
        had no more time than the drawn ones times ``REUSE_SHARE``: cheap cases never crowd
        out new C++ types."""
        hook = getattr(self.proxy.oracle, "reusing", None)
        return (callable(hook) and self.runner.limit is None and self.drawn_s > 0
                and self.reuse_dry < 2 and self.reuse_s < REUSE_SHARE * self.drawn_s)

    def _reused(self):
        """A reuse batch: ``REUSE_POOL`` cases (``batched.draw_pool``: about three in four of them
        neighbours of earlier pools' reusable cases, the same choices with one or two
        redrawn), of which the oracle keeps those it answers without compiling (cute-cpp:
        runtime integers through compiled kernels)."""
        seed = _seed(self.seed, self.check.name, self.name, "reuse", self.chunk)
        self.chunk += 1
        pool = draw_pool(self.strategy, REUSE_POOL, seed, near=self.reuse_near)
        if pool is None:  # another hypothesis: drawn by its engine, no neighbours
            pool = [(a, None) for a in draw_cases(self.strategy, REUSE_POOL, seed)]
        if not pool:
            return None
        picked = self.proxy.oracle.reusing(self.check.op, [a for a, _ in pool])
        cases = [c for c in picked if c is not None]
        near = [p for p, c in zip(pool, picked) if c is not None and p[1] is not None]
        if near:
            self.reuse_near = near[-REUSE_NEAR:]
        self.reuse_dry = 0 if len(cases) >= REUSE_POOL // 16 else self.reuse_dry + 1
        return cases

    def _judge(self, cases, reused=False):
        """Judge a batch, smallest first; ``reused``: a reuse batch, whose cases judged (not
        those picked: some were judged before, steered away or left past the deadline) are
        the row's ``reused_cases``."""
        r = self.runner
        before = r.cases
        distinct = {}  # a reuse pool's (_4):(_1) and (4):(1), both retyped to (4):(1), are one case
        for a in cases:
            distinct.setdefault(case_key(a), a)
        marked = [(a, r.region(a)) for key, a in distinct.items() if r.fresh(key)]
        marked = [(a, m) for a, m in marked if m is not SKIP]
        if not self.warmed:  # the cases are distinct: answers of earlier batches are dead
            self.proxy.cache.clear()
        self.warmed = False
        late = prefetch(self.proxy, self.check, r.ctx, [a for a, _ in marked], until=r.hard_stop)
        marked = [am for i, am in enumerate(marked) if i not in late]  # unanswered by the deadline
        for args, region in sorted(marked, key=lambda am: sum(map(len, encode(am[0])))):
            if r.best is not None:
                break
            try:
                r.judge(args, region)
                r.passed(case_key(args))
            except Exception:  # noqa: BLE001 - recorded in r.best
                pass
        if reused:
            self.reused += r.cases - before

    def _batch_size(self):
        """BATCH_CASES, or fewer where the oracle says an op's cases are costly (cute-cpp's
        TiledCopy: about half a second of compile each), so that a batch in flight, which
        cannot be interrupted, stays within the pair's share of the budget; in the first
        round a ``FIRST_BATCH`` part of that (a cold cute-cpp batch of 64 took 1-41 s, so the
        first round of 118 pairs overran a 300 s budget and 44 pairs were never reached).  In
        the adaptive rounds a batch is also held to the cases whose kernels the oracle can
        compile in the pair's quantum (``kernel_seconds``: a loaded machine compiles several
        times slower than an idle one)."""
        size = getattr(self.proxy.oracle, "batch_cases", None)
        n = size(self.check.op) if callable(size) else None
        n = BATCH_CASES if n is None else max(1, min(BATCH_CASES, n))
        if self.in_minimum:
            return max(1, int(n * FIRST_BATCH))
        pace = getattr(self.proxy.oracle, "kernel_seconds", None)
        r = self.runner
        if callable(pace) and r.limit is None and r.stop_at is not None:
            left = max(0.0, r.stop_at - time.monotonic())
            n = max(MIN_DRAWN, min(n, int(left / max(pace(), 1e-3))))
        return n

    def result(self, t0):
        row = finish(self.runner, self.name, self.seconds, t0, rounds=self.rounds,
                      elapsed_s=_since(self.finished_at, t0), reused_cases=self.reused)
        if self.error is not None:
            row.update(status="error",
                       message=f"harness error: {type(self.error).__name__}: {self.error}")
        elif self.not_reached:
            row.update(status="skipped", not_reached=True,
                       message="not reached: the time budget was spent before this pair's turn")
        elif self.rounds and not self.runner.cases and not self.runner.steer.skipped \
                and self.runner.best is None:  # ran, judged nothing: never a pass
            row.update(status="skipped", not_reached=True,
                       message="no case judged: the budget ran out while the first batch was "
                               "answered, or the strategy drew no case")
        return row


def finish(runner, oracle_name, seconds, t0, **extra):
    check, known_region = runner.check, runner.known_cases + runner.region_cases
    r = result_row(check, oracle_name, "pass", cases=runner.cases, seconds=round(seconds, 3),
                   cases_per_s=round(runner.cases / seconds, 1) if seconds > 0 else 0.0,
                   known_cases=runner.known_cases, known_region_cases=known_region,
                   new_ground_cases=max(0, runner.cases - known_region),
                   **{f"{k}_cases": n for k, n in runner.integers.items()},
                   region_skipped=runner.steer.skipped, steered=list(runner.steer.hit),
                   behaviours=len(runner.novelty.counts), duplicates=runner.duplicates,
                   first_failure_s=_since(runner.first_failure_at, t0),
                   first_known_s=_since(runner.first_known_at, t0), **extra)
    if runner.cases and runner.skipped == runner.cases and runner.best is None:
        r["status"] = "skipped"
        r["message"] = "the oracle answered no case (unsupported or refused every input)" + (
            f"; the last: {runner.skip_reason}" if runner.skip_reason else "")
    if runner.known is not None:
        checked = runner.known_checked and runner.unchecked is None
        kid, args, f = runner.known if runner.unchecked is None else runner.unchecked
        shrunk = runner.known_shrunk if runner.unchecked is None else None
        r.update(known_finding=kid, answer_checked=checked, counterexample=encode(args),
                 answers=f.answers, message=f.message + shrink_note(shrunk), status="fail",
                 replay=_replay_line(oracle_name, check, encode(args)),
                 **_shrink_fields(shrunk))
    if runner.ctx.baseline is not None:
        _versus_fields(r, runner, oracle_name, check)
    if runner.best is not None:
        _, inputs, exc, kind, _ = runner.best
        message = getattr(exc, "message", None) or f"{type(exc).__name__}: {exc}"
        r.update(status=kind, counterexample=inputs, known_finding=None, answer_checked=None,
                 answers=getattr(exc, "answers", None),
                 message=message + shrink_note(runner.shrunk),
                 replay=_replay_line(oracle_name, check, inputs),
                 **_shrink_fields(runner.shrunk))
        verdict = getattr(exc, "baseline", None)
        if verdict is not None and runner.ctx.baseline is not None:
            r["baseline"].update(verdict.as_dict(), finding=_finding(runner.ctx, check, runner.best[4]))
    if runner.ctx.baseline is not None and r["replay"]:
        r["replay"] += " --baseline " + shlex.quote(runner.ctx.baseline.baseline.name)
    return r


def _shrink_fields(shrunk):
    """The row's ``first_counterexample`` (the failing case as found) and ``shrink`` (how
    the minimal one was reached: ``shrink.Shrunk.row``); None for a case not shrunk (a
    ``--case`` / ``--replay`` reruns it as given)."""
    if shrunk is None:
        return {"first_counterexample": None, "shrink": None}
    row = shrunk.row()
    return {"first_counterexample": row["first"], "shrink": row}


def _finding(ctx, check, args):
    """The register's finding that explains the failure of ``args``, or None."""
    try:
        return known_failure(check, ctx, args).finding
    except Exception:  # noqa: BLE001 - recognition that cannot judge this case: none
        return None


def _versus_fields(r, runner, oracle_name, check):
    """A row of a run with a baseline: ``baseline`` says how it compares (``agree`` when neither
    side failed), the smallest failure both share becomes the row's known failure (labelled
    with the register's finding, else ``baseline:NAME``), and a case only the baseline fails
    is kept as ``baseline.fixed``."""
    name = runner.ctx.baseline.baseline.name
    r["baseline"] = {"oracle": name, "verdict": "agree", "answers": {}, "detail": "",
                     "finding": None, "known_cases": runner.shared_cases,
                     "fixed_cases": runner.fixed_cases, "fixed": None}
    if runner.fixed is not None:
        _, args, v = runner.fixed
        r["baseline"].update(verdict="fixed", fixed={"counterexample": encode(args),
                                                     "answers": v.answers, "detail": v.detail})
    if runner.shared is not None and runner.best is None:
        _, args, f, v, kid = runner.shared
        r.update(known_finding=kid or label(name), counterexample=encode(args), answers=f.answers,
                 message=f.message, status="fail", replay=_replay_line(oracle_name, check, encode(args)))
        r["baseline"].update(v.as_dict(), finding=kid)
