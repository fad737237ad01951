"""The fuzzing campaign: every selected check against every selected oracle, in a budget.

``run_campaign(...)`` returns the report dict that ``layoutcheck fuzz --report`` writes::

    {"command", "seed", "budget_s", "max_examples", "oracles": {name: "available" | reason},
     "results": [{"check", "op", "kind", "oracle", "status": "pass|fail|error|skipped",
                  "cases", "seconds", "cases_per_s", "counterexample", "answers", "message",
                  "known_finding", "known_cases", "replay"}],
     "summary": {...}, "exit_status"}

Each check runs as a series of seeded hypothesis runs (so ``--seed`` plus ``--max-examples``
repeat exactly, independent of timing); a failure is shrunk by hypothesis and the minimal
counterexample is kept.  A failure that ``layoutcheck.findings.find_known`` recognises is
counted as known and fuzzing goes on, so a new bug behind a known one is still found.
Failures are stored in ``.layoutcheck/failures.json`` (the working directory's example
database) and replayed first on the next run.
"""

import hashlib
import json
import os
import shlex
import sys
import time
from pathlib import Path

from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hseed
from hypothesis import strategies as st

from layoutcheck.errors import LayoutError
from layoutcheck.findings import find_known

from . import known  # noqa: F401  (registers the findings' predicates)
from .properties import BY_NAME, CheckFailed, Skip, checks_for
from .targets import decode, encode, get_oracle, reference_for

__all__ = ["run_campaign", "replay_report", "DB_PATH", "exit_status", "format_failure"]

DB_PATH = Path(".layoutcheck") / "failures.json"
CHUNK = 20           # examples per seeded hypothesis run in budget mode
BATCH = 8            # cases per hypothesis example (at most)
MIN_SHRINK_S = 10.0  # time a found failure may spend shrinking, at least


class _Ctx:
    def __init__(self, oracle, spec):
        self.oracle, self.spec = oracle, reference_for(oracle.name, spec) if spec else None


def _seed(*parts):
    return int.from_bytes(hashlib.sha256(":".join(map(str, parts)).encode()).digest()[:4], "big")


def _replay_line(oracle, check, inputs):
    return " ".join(["layoutcheck fuzz --against", shlex.quote(oracle), "--case", check.name,
                     *map(shlex.quote, inputs)])


class _Runner:
    """One (check, oracle) pair: counts cases, keeps the smallest new failure, notes known ones."""

    def __init__(self, check, ctx):
        self.check, self.ctx = check, ctx
        self.cases = self.skipped = self.known_cases = 0
        self.known = None          # (finding id, inputs, failure) of the first known hit
        self.best = None           # (key, inputs, failure-or-exception, kind)
        self.stop_at = None        # deadline (monotonic) or None
        self.shrink_until = None
        self.limit = None          # at most this many cases (--max-examples)
        self.deterministic = False  # --max-examples: no time-dependent decision at all
        self.target_known = None   # a finding id whose case is being shrunk
        self.current_run = self.known_run = None  # (n, seed) of a hypothesis run

    def batch(self, cases):
        """Run a drawn batch of cases (amortises hypothesis' per-example cost; on a failure
        hypothesis shrinks the batch down to the one failing case)."""
        now = time.monotonic()
        if self.best is None and self.stop_at is not None and now > self.stop_at:
            return
        if self.best is not None and self.shrink_until is not None and now > self.shrink_until:
            return  # shrinking budget spent: keep the smallest failure seen so far
        for args in cases:
            if self.best is None and (
                    (self.limit is not None and self.cases >= self.limit)
                    or (self.stop_at is not None and time.monotonic() > self.stop_at)):
                return
            self.case(args)

    def case(self, args):
        """Run one case; raise for a new failure so that hypothesis shrinks it."""
        self.cases += 1
        try:
            self.check.run(self.ctx, args)
        except Skip:
            self.skipped += 1
        except CheckFailed as f:
            kid = _known(self.ctx.oracle.name, self.check, args)
            if kid and kid == self.target_known:  # shrinking a known finding's case
                self._record(args, f, "fail")
                raise
            if kid:
                self.known_cases += 1
                if self.known is None:
                    self.known = (kid, args, f)
                    self.known_run = self.current_run
                return
            self._record(args, f, "fail")
            raise
        except Exception as e:  # noqa: BLE001 - a crash in an oracle adapter or a check
            self._record(args, e, "error")
            raise

    def _record(self, args, exc, kind):
        inputs = encode(args)
        key = (kind != "fail", sum(map(len, inputs)), inputs)
        if self.best is None and not self.deterministic:  # budget mode: shrinking a new
            # failure may overrun the share (it is worth it); a known finding's case only
            # gets the share itself (at least 1 s), so known findings cannot eat the budget.
            room = (min(MIN_SHRINK_S, max(1.0, self._share)) if self.target_known
                    else max(MIN_SHRINK_S, self._share))
            self.shrink_until = time.monotonic() + room
        if self.best is None or key < self.best[0]:
            self.best = (key, inputs, exc, kind, args)

    _share = 0.0

    def shrink_known(self, strategy):
        """Re-run the hypothesis run that first hit a known finding, now failing on exactly
        that finding, so that its reported case is shrunk too (same seed: same cases)."""
        kid, args, f = self.known
        self.target_known, self.stop_at, self.limit = kid, None, None
        self.hypothesis_run(strategy, *self.known_run)
        if self.best is not None:
            _, _, exc, _, small = self.best
            self.known = (kid, small, exc)
        self.best, self.target_known = None, None

    def hypothesis_run(self, strategy, n, seed_value):
        self.current_run = (n, seed_value)
        @settings(max_examples=n, database=None, deadline=None, verbosity=Verbosity.quiet,
                  suppress_health_check=list(HealthCheck), report_multiple_bugs=False,
                  phases=[Phase.explicit, Phase.generate, Phase.shrink], print_blob=False)
        @hseed(seed_value)
        @given(st.lists(strategy, min_size=1, max_size=BATCH))
        def prop(cases):
            self.batch(cases)
        try:
            prop()
        except Exception:  # noqa: BLE001 - the failure is in self.best; flaky replays too
            if self.best is None:
                raise


def _known(oracle_name, check, args):
    """The finding id that explains this failure, if any (differential checks also match the
    oracles' register entries, filed under the check name "agreement")."""
    names = [check.name] + (["agreement"] if check.kind == "differential" else [])
    for name in names:
        try:
            kid = find_known(oracle_name, check.op, name, args)
        except Exception:  # noqa: BLE001 - a predicate that cannot judge these inputs
            kid = None
        if kid:
            return kid
    return None


def _result(check, oracle_name, status, **kw):
    r = {"check": check.name, "op": check.op, "kind": check.kind, "oracle": oracle_name,
         "status": status, "cases": 0, "seconds": 0.0, "cases_per_s": 0.0,
         "counterexample": None, "answers": None, "message": "", "known_finding": None,
         "known_cases": 0, "replay": None}
    r.update(kw)
    return r


def _finish(runner, oracle_name, seconds):
    check = runner.check
    r = _result(check, oracle_name, "pass", cases=runner.cases, seconds=round(seconds, 3),
                cases_per_s=round(runner.cases / seconds, 1) if seconds > 0 else 0.0,
                known_cases=runner.known_cases)
    if runner.cases and runner.skipped == runner.cases and runner.best is None:
        r["status"] = "skipped"
        r["message"] = "the oracle answered no case (unsupported or refused every input)"
    if runner.known is not None:
        kid, args, f = runner.known
        r.update(known_finding=kid, counterexample=encode(args), answers=f.answers,
                 message=f.message, status="fail",
                 replay=_replay_line(oracle_name, check, encode(args)))
    if runner.best is not None:
        _, inputs, exc, kind, _ = runner.best
        r.update(status=kind, counterexample=inputs, known_finding=None,
                 answers=getattr(exc, "answers", None),
                 message=getattr(exc, "message", None) or f"{type(exc).__name__}: {exc}",
                 replay=_replay_line(oracle_name, check, inputs))
    return r


BATCHED = ("cute-cpp", "cute-dsl")  # oracles that answer a batch much faster than one case
BATCH_CASES = 64                    # cases drawn per batch for them


class _Miss(Skip):
    """A batched oracle has no cached answer yet: the call is recorded for the next batch."""


class _Prefetching:
    """Wraps a batched oracle: answers from a cache; while recording, a cache miss is noted
    (and the check stops with _Miss) so that one run_many call answers a whole stage."""

    def __init__(self, oracle):
        self.oracle, self.name = oracle, oracle.name
        self.cache, self.misses, self.recording = {}, [], False

    def unavailable_reason(self):
        return self.oracle.unavailable_reason()

    def run(self, op, *args):
        key = (op, tuple(encode(args)))
        if key not in self.cache:
            if self.recording:
                self.misses.append((op, args))
                raise _Miss(op)
            self.cache[key] = self.oracle.run(op, *args)
        return self.cache[key]

    def fill(self):
        todo = list({(op, tuple(encode(a))): (op, a) for op, a in self.misses}.values())
        self.misses = []
        for k in range(0, len(todo), 256):
            part = todo[k:k + 256]
            for (op, a), out in zip(part, self.oracle.run_many(part)):
                self.cache[(op, tuple(encode(a)))] = out
        return len(todo)


def _draw_cases(strategy, n, seed_value):
    """n argument tuples drawn by hypothesis with a fixed seed (no test, no shrinking)."""
    out = []

    @settings(max_examples=n, database=None, deadline=None, verbosity=Verbosity.quiet,
              suppress_health_check=list(HealthCheck), phases=[Phase.generate])
    @hseed(seed_value)
    @given(strategy)
    def collect(args):
        out.append(args)
    collect()
    return out


def _run_batched(runner, check, oracle, budget, max_examples, seed, t0):
    """Batched oracles (cute-cpp compiles one program per batch): draw a batch of cases,
    answer every oracle call a stage at a time through run_many, then judge each case.  The
    smallest failing case of the batch is reported (not shrunk further: each shrink step
    would cost a compile)."""
    proxy = _Prefetching(oracle)
    runner.ctx.oracle = proxy
    strategy = check.strategy()
    k = 0
    while runner.best is None:
        if max_examples is not None and runner.cases >= max_examples:
            break
        if max_examples is None and time.monotonic() - t0 > budget:
            break
        n = BATCH_CASES if max_examples is None else min(BATCH_CASES, max_examples - runner.cases)
        cases = _draw_cases(strategy, n, _seed(seed, check.name, oracle.name, "batch", k))
        k += 1
        if not cases:
            break
        proxy.recording = True
        for _ in range(6):  # stages: a law's later calls depend on earlier answers
            for args in cases:
                try:
                    check.run(runner.ctx, args)
                except Exception:  # noqa: BLE001 - misses are recorded; judged below
                    pass
            if not proxy.fill():
                break
        proxy.recording = False
        for args in sorted(cases, key=lambda a: sum(map(len, encode(a)))):
            if runner.best is not None:
                break
            try:
                runner.case(args)
            except Exception:  # noqa: BLE001 - recorded in runner.best
                pass
    r = _finish(runner, oracle.name, time.monotonic() - t0)
    if r["counterexample"] and not r["known_finding"]:
        r["message"] += " (smallest failing case of a batch; not shrunk)"
    return r


def run_check(check, oracle, spec, *, budget=None, max_examples=None, seed=0, replays=()):
    """Fuzz one check against one oracle; return its result dict."""
    t0 = time.monotonic()
    runner = _Runner(check, _Ctx(oracle, spec))
    runner._share = budget or 0.0
    for inputs in replays:  # the example database first
        try:
            runner.case(decode(inputs))
        except Exception:  # noqa: BLE001 - recorded in runner.best
            pass
        if runner.best is not None:
            return _finish(runner, oracle.name, time.monotonic() - t0)
    try:
        if oracle.name in BATCHED and max_examples != 0:
            return _run_batched(runner, check, oracle, budget, max_examples, seed, t0)
        strategy = check.strategy()
        if max_examples is not None:  # a case count: the run depends on the seed only
            runner.limit, runner.deterministic = max_examples, True
        else:
            runner.stop_at = t0 + budget
        chunk = 0
        while runner.best is None and (runner.limit is None or runner.cases < runner.limit) \
                and (runner.stop_at is None or time.monotonic() < runner.stop_at):
            n = CHUNK if runner.limit is None else \
                max(1, min(CHUNK, -(-(runner.limit - runner.cases) * 2 // BATCH)))
            before = runner.cases
            runner.hypothesis_run(strategy, n, _seed(seed, check.name, oracle.name, chunk))
            chunk += 1
            if runner.cases == before and chunk > 3:
                break  # the strategy space is exhausted or every case was skipped
        if runner.best is None and runner.known is not None and runner.known_run:
            runner.shrink_known(strategy)
    except Exception as e:  # noqa: BLE001 - the harness itself failed on this pair
        r = _finish(runner, oracle.name, time.monotonic() - t0)
        r.update(status="error", message=f"harness error: {type(e).__name__}: {e}")
        return r
    return _finish(runner, oracle.name, time.monotonic() - t0)


def _skip_reason(check, oracle, spec, reasons):
    if reasons.get(oracle.name) != "available":
        return f"oracle unavailable: {reasons[oracle.name]}"
    if check.kind == "differential":
        if oracle.name == "spec":
            return "the spec against itself"
        if reasons.get("spec") != "available":
            return f"spec unavailable: {reasons['spec']}"
    return None


def load_db(path=DB_PATH):
    try:
        with open(path) as f:
            return json.load(f).get("entries", [])
    except (OSError, ValueError):
        return []


def save_db(entries, path=DB_PATH):
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    seen, out = set(), []
    for e in entries:
        key = (e["check"], e["oracle"], tuple(e["inputs"]))
        if key not in seen:
            seen.add(key)
            out.append(e)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"version": 1, "entries": out}, indent=1))
    os.replace(tmp, path)


def _oracles(names):
    """{name: Oracle}, {name: "available" | reason}; unknown names raise LayoutError."""
    objs, reasons = {}, {}
    for name in names:
        o = get_oracle(name)
        objs[name] = o
        reason = o.unavailable_reason()
        reasons[name] = "available" if reason is None else reason
    return objs, reasons


def exit_status(report):
    s = report["summary"]
    if s["new_failures"]:
        return 1
    if s["error"] or (s["checks"] and s["skipped"] == s["checks"]):
        return 2
    return 0


def _summary(results, seconds):
    count = lambda st: sum(1 for r in results if r["status"] == st)  # noqa: E731
    return {"checks": len(results), "pass": count("pass"),
            "fail": count("fail"), "error": count("error"), "skipped": count("skipped"),
            "known": sum(1 for r in results if r["known_finding"]),
            "new_failures": sum(1 for r in results if r["status"] == "fail" and not r["known_finding"]),
            "cases": sum(r["cases"] for r in results), "seconds": round(seconds, 2),
            "first_failure_s": next((r.get("elapsed_s") for r in results if r["status"] in
                                     ("fail", "error") and not r["known_finding"]), None)}


def run_campaign(oracles=("pycute",), ops=None, budget=60.0, seed=0, max_examples=None,
                 checks=None, kinds=None, use_db=True, db_path=None, jobs=1, progress=None,
                 command=None, fail_fast=False, against=None):
    """Run the gate; return the report dict (see the module docstring).

    oracles (or against=): names for ``layoutcheck.oracles.get_oracle``; ops / checks / kinds select
    checks; budget (seconds, shared across all pairs) is ignored when max_examples is set
    (then the run is a pure function of seed); jobs > 1 shards by seed across processes;
    progress(done, total, result) is called after each pair; fail_fast stops at the first
    new failure (the remaining pairs are reported as skipped).
    """
    if against is not None:  # alias: the CLI's --against
        oracles = against.split(",") if isinstance(against, str) else against
    db_path = Path(db_path) if db_path else DB_PATH
    selected = checks_for(ops, kinds, checks)
    if not selected:
        raise LayoutError(f"no check matches ops={ops} checks={checks} kinds={kinds}")
    names = list(dict.fromkeys(list(oracles)))
    objs, reasons = _oracles(names + (["spec"] if "spec" not in names else []))
    t0 = time.monotonic()
    db = load_db(db_path) if use_db else []
    if jobs and jobs > 1:
        results = _sharded(names, ops, budget, seed, max_examples, checks, kinds, jobs, db)
    else:
        results = _run_pairs(selected, names, objs, reasons, budget, seed, max_examples, db,
                             progress, fail_fast)
    report = {"command": command or "run_campaign", "seed": seed, "budget_s": budget,
              "max_examples": max_examples, "jobs": jobs,
              "oracles": {n: reasons[n] for n in names}, "results": results,
              "summary": _summary(results, time.monotonic() - t0)}
    report["exit_status"] = exit_status(report)
    if use_db:
        replayed = {(r["check"], r["oracle"]) for r in results if r["status"] != "skipped"}
        keep = [e for e in db if (e["check"], e["oracle"]) not in replayed]
        keep += [{"check": r["check"], "oracle": r["oracle"], "inputs": r["counterexample"]}
                 for r in results if r["status"] in ("fail", "error") and r["counterexample"]
                 and not r["known_finding"]]
        if keep or db_path.exists():
            save_db(keep, db_path)
    return report


def _run_pairs(selected, names, objs, reasons, budget, seed, max_examples, db, progress,
               fail_fast=False):
    pairs = [(c, n) for n in names for c in selected]
    results, t0 = [], time.monotonic()
    live = [p for p in pairs if _skip_reason(p[0], objs[p[1]], objs.get("spec"), reasons) is None]
    live_left = len(live)
    stop = False
    for i, (check, name) in enumerate(pairs):
        reason = _skip_reason(check, objs[name], objs.get("spec"), reasons)
        if stop:
            r = _result(check, name, "skipped", message="not run: --fail-fast after a failure")
        elif reason:
            r = _result(check, name, "skipped", message=reason)
        else:
            share = None
            if max_examples is None:
                share = max(0.2, (budget - (time.monotonic() - t0)) / max(1, live_left))
            replays = [e["inputs"] for e in db if e["check"] == check.name and e["oracle"] == name]
            r = run_check(check, objs[name], objs.get("spec"), budget=share,
                          max_examples=max_examples, seed=seed, replays=replays)
            live_left -= 1
            r["elapsed_s"] = round(time.monotonic() - t0, 3)  # since the campaign started
            stop = fail_fast and r["status"] in ("fail", "error") and not r["known_finding"]
        results.append(r)
        if progress:
            progress(i + 1, len(pairs), r)
    return results


def _shard(kw):
    kw = dict(kw)
    return run_campaign(**kw)["results"]


def _sharded(names, ops, budget, seed, max_examples, checks, kinds, jobs, db):
    """--jobs N: N processes, shard k fuzzing with seed + k; results merged per pair."""
    import multiprocessing as mp
    per = None if max_examples is None else max(1, -(-max_examples // jobs))
    kws = [dict(oracles=names, ops=ops, budget=budget, seed=seed + k, max_examples=per,
                checks=checks, kinds=kinds, use_db=False, jobs=1) for k in range(jobs)]
    with mp.get_context("fork").Pool(jobs) as pool:
        shards = pool.map(_shard, kws)
    order = {"error": 3, "fail": 2, "pass": 1, "skipped": 0}
    merged = []
    for rs in zip(*shards):
        base = dict(rs[0])
        base["cases"] = sum(r["cases"] for r in rs)
        base["known_cases"] = sum(r["known_cases"] for r in rs)
        base["seconds"] = max(r["seconds"] for r in rs)
        base["cases_per_s"] = round(base["cases"] / base["seconds"], 1) if base["seconds"] else 0.0
        worst = max(rs, key=lambda r: (order[r["status"]], r["known_finding"] is None))
        for k in ("status", "counterexample", "answers", "message", "known_finding", "replay"):
            base[k] = worst[k]
        merged.append(base)
    del db
    return merged


def replay_cases(cases, oracles, command=None):
    """Re-run explicit cases [(check name, oracle name, inputs)]; a report like run_campaign's."""
    t0 = time.monotonic()
    names = list(dict.fromkeys(o for _, o, _ in cases))
    objs, reasons = _oracles(names + (["spec"] if "spec" not in names else []))
    results = []
    for check_name, oname, inputs in cases:
        check = BY_NAME.get(check_name)
        if check is None:
            raise LayoutError(f"unknown check {check_name!r}; known: {', '.join(BY_NAME)}")
        reason = _skip_reason(check, objs[oname], objs["spec"], reasons)
        if reason:
            results.append(_result(check, oname, "skipped", message=reason))
            continue
        args = decode(inputs)
        results.append(run_check(check, objs[oname], objs["spec"], max_examples=0,
                                 replays=[encode(args)]))
    report = {"command": command or "replay", "seed": None, "budget_s": None,
              "max_examples": None, "jobs": 1, "oracles": {n: reasons[n] for n in names},
              "results": results, "summary": _summary(results, time.monotonic() - t0)}
    report["exit_status"] = exit_status(report)
    return report


def replay_report(path, oracles=None, command=None):
    """``--replay FILE``: rerun the counterexamples of a saved report (optionally against
    other oracles)."""
    try:
        with open(path) as f:
            old = json.load(f)
        rows = [r for r in old["results"] if r.get("counterexample")]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise LayoutError(f"cannot read report {path}: {e}") from None
    cases = [(r["check"], o, r["counterexample"]) for r in rows
             for o in (oracles or [r["oracle"]])]
    if not cases:
        raise LayoutError(f"report {path} holds no counterexample to replay")
    return replay_cases(cases, oracles, command)


def format_failure(r):
    """A failure as printed: check, oracle, minimal counterexample, answers, replay line."""
    tag = f"KNOWN {r['known_finding']}" if r["known_finding"] else r["status"].upper()
    lines = [f"{tag} {r['check']} [{r['oracle']}]: {r['message']}",
             f"  counterexample: {' '.join(r['counterexample'] or [])}"]
    for side, ans in (r["answers"] or {}).items():
        lines.append(f"  {side}: {ans}")
    if r["replay"]:
        lines.append(f"  replay: {r['replay']}")
    return "\n".join(lines)


def junit_xml(report):
    """JUnit XML: one testsuite per oracle, one testcase per check."""
    from xml.sax.saxutils import escape, quoteattr
    by = {}
    for r in report["results"]:
        by.setdefault(r["oracle"], []).append(r)
    out = ['<?xml version="1.0" encoding="UTF-8"?>', "<testsuites>"]
    for oracle, rs in by.items():
        fails = sum(1 for r in rs if r["status"] == "fail" and not r["known_finding"])
        errors = sum(1 for r in rs if r["status"] == "error")
        skipped = sum(1 for r in rs if r["status"] == "skipped")
        out.append(f'  <testsuite name={quoteattr("layoutcheck.fuzz." + oracle)} tests="{len(rs)}" '
                   f'failures="{fails}" errors="{errors}" skipped="{skipped}" '
                   f'time="{sum(r["seconds"] for r in rs):.3f}">')
        for r in rs:
            out.append(f'    <testcase classname={quoteattr(oracle)} name={quoteattr(r["check"])} '
                       f'time="{r["seconds"]:.3f}">')
            body = escape(format_failure(r)) if r["counterexample"] else ""
            if r["status"] == "fail" and not r["known_finding"]:
                out.append(f'      <failure message={quoteattr(r["message"])}>{body}</failure>')
            elif r["status"] == "error":
                out.append(f'      <error message={quoteattr(r["message"])}>{body}</error>')
            elif r["status"] == "skipped":
                out.append(f'      <skipped message={quoteattr(r["message"])}/>')
            elif r["known_finding"]:
                out.append(f'      <system-out>{body}</system-out>')
            out.append("    </testcase>")
        out.append("  </testsuite>")
    out.append("</testsuites>")
    return "\n".join(out) + "\n"


def progress_printer(stream=None):
    """A progress callback: a bar on a terminal, one plain line per pair otherwise."""
    stream = stream or sys.stderr
    tty = stream.isatty()

    def show(done, total, r):
        line = (f"{r['check']} [{r['oracle']}]: {r['status']}"
                + (f" (known {r['known_finding']})" if r["known_finding"] else "")
                + f", {r['cases']} cases, {r['cases_per_s']}/s")
        if tty:
            width = 30
            fill = int(width * done / total)
            stream.write(f"\r[{'#' * fill}{'.' * (width - fill)}] {done}/{total} {line[:60]:<60}")
            if done == total:
                stream.write("\n")
        else:
            stream.write(f"[{done}/{total}] {line}\n")
        stream.flush()
    return show
