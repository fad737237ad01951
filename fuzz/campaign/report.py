"""The campaign's report: result rows, the summary, exit status, JUnit XML and printing.

A result row (one per (check, oracle) pair)::

    {"check", "op", "kind", "oracle", "status": "pass|fail|error|skipped", "cases",
     "seconds", "cases_per_s", "counterexample", "answers", "message", "known_finding",
     "replay", "elapsed_s",
     "first_counterexample" the failing case as found (``counterexample`` is it shrunk), or None,
     "shrink"               how it was shrunk (``shrink.Shrunk.row``: first, steps, rounds,
                            candidates, seconds, compiles, cut, first_size, size), or None,
     "known_cases"          cases that re-hit a known finding,
     "known_region_cases"   cases spent on known ground: those, plus the cases run inside the
                            region of a finding this pair had already hit (the low-rate sample),
     "new_ground_cases"     cases - known_region_cases,
     "region_skipped"       drawn cases not run because they lie in such a region (steered away),
     "steered"              the finding ids whose regions this pair steered away from,
     "behaviours"           distinct behaviours seen (outcome kinds, comparison levels,
                            conditions, answer shapes: what the budget allocation rewards),
     "duplicates"           drawn cases identical to one this pair had judged: not run again
                            and not counted in "cases" (every case counted is distinct),
     "runtime_cases", "static_cases", "mixed_cases"
                            cases by how the oracle ran their integers: every one a runtime
                            integer, every one static (an oracle that reads them as known
                            values runs everything static), or both (fuzz/checks/base.py),
     "rounds"               slices of the budget this pair got,
     "first_failure_s"      seconds from the campaign's start to this pair's first new failure
                            (before shrinking), or None; "first_known_s" likewise for a known one,
     "baseline"             (--baseline only) {"oracle", "verdict": agree | known | regression |
                            changed | fixed, "answers" (the baseline's), "detail", "finding" (the
                            register's, where one matches), "known_cases", "fixed_cases",
                            "fixed": {"counterexample", "answers", "detail"} | None}}

A failure the register explains is *known* (``known_finding`` set, ``answer_checked`` True);
one explained only by a region whose symptom checks a property of the answer is *known
region, answer not checked* (``answer_checked`` False): counted apart (``known_unchecked``),
and the exit status is 1 for it unless the report says ``accept_regions`` (the gate's
``--accept-regions``), since a different wrong answer there would look the same.  A crash is
an error unless a crash finding's symptom (its signal, in its region) explains it: then it is
known like any other answer.
"""

import sys
from xml.sax.saxutils import escape, quoteattr

__all__ = ["result_row", "summary", "oracle_stats", "exit_status", "format_failure", "format_fixed",
           "junit_xml", "progress_printer", "summary_lines", "baseline_summary", "is_known",
           "is_unchecked", "known_tag"]


def is_unchecked(r) -> bool:
    """A known region whose symptom did not check the answer ("known region, answer not checked")."""
    return bool(r.get("known_finding")) and r.get("answer_checked") is False


def is_known(r) -> bool:
    """A failure that a finding explains with its answer checked."""
    return bool(r.get("known_finding")) and r.get("answer_checked") is not False


def known_tag(r) -> str:
    """How a row's finding is named: ``KNOWN F-NNN`` or ``KNOWN REGION F-NNN (answer not checked)``."""
    if is_unchecked(r):
        return f"KNOWN REGION {r['known_finding']} (answer not checked)"
    return f"KNOWN {r['known_finding']}"


def result_row(check, oracle_name, status, **kw):
    r = {"check": check.name, "op": check.op, "kind": check.kind, "oracle": oracle_name,
         "status": status, "cases": 0, "seconds": 0.0, "cases_per_s": 0.0,
         "counterexample": None, "answers": None, "message": "", "known_finding": None,
         "answer_checked": None, "known_cases": 0, "known_region_cases": 0, "new_ground_cases": 0,
         "region_skipped": 0, "steered": [], "behaviours": 0, "duplicates": 0, "rounds": 0,
         "runtime_cases": 0, "static_cases": 0, "mixed_cases": 0,
         "first_failure_s": None, "first_known_s": None, "replay": None,
         "first_counterexample": None, "shrink": None}
    r.update(kw)
    return r


def exit_status(report):
    """0 ok; 1 a new failure, or a known region whose answer was not checked unless the report
    accepts regions (``accept_regions``); 2 an error (a crash no finding explains, a lost
    unit), or nothing judged at all."""
    s = report["summary"]
    if s["new_failures"]:
        return 1
    if s.get("known_unchecked") and not report.get("accept_regions"):
        return 1
    if s["error"] or (s["checks"] and s["skipped"] == s["checks"]):
        return 2
    return 0


def _first(values):
    values = [v for v in values if v is not None]
    return min(values) if values else None


def summary(results, seconds, budget=None):
    count = lambda st: sum(1 for r in results if r["status"] == st)  # noqa: E731
    new = [r for r in results if r["status"] in ("fail", "error") and not r["known_finding"]]
    total = lambda key: sum(r.get(key) or 0 for r in results)  # noqa: E731
    s = {"checks": len(results), "pass": count("pass"),
         "fail": count("fail"), "error": count("error"), "skipped": count("skipped"),
         "known": sum(1 for r in results if is_known(r)),
         "known_unchecked": sum(1 for r in results if is_unchecked(r)),
         "new_failures": sum(1 for r in new if r["status"] == "fail"),
         "cases": total("cases"), "known_cases": total("known_cases"),
         "known_region_cases": total("known_region_cases"),
         "new_ground_cases": total("new_ground_cases"), "region_skipped": total("region_skipped"),
         "duplicates": total("duplicates"), "reused_cases": total("reused_cases"),
         "runtime_cases": total("runtime_cases"), "static_cases": total("static_cases"),
         "mixed_cases": total("mixed_cases"),
         "not_reached": sum(1 for r in results if r.get("not_reached")),
         "seconds": round(seconds, 2),
         "first_failure_s": _first(r["first_failure_s"] if r.get("first_failure_s") is not None
                                   else r.get("elapsed_s") for r in new),
         "first_known_s": _first(r.get("first_known_s") for r in results)}
    if budget:
        s["overrun_s"] = round(max(0.0, seconds - budget), 2)
    return s


def _summed(parts):
    """The shards' counters of one oracle added up (numbers summed, nested dicts too; other
    values from the first shard that has them)."""
    out = {}
    for part in parts:
        for k, v in part.items():
            if k in _PER_PROCESS or isinstance(v, bool) or not isinstance(v, (int, float, dict)):
                out.setdefault(k, v)
            elif isinstance(v, dict):
                out[k] = _summed([out.get(k) or {}, v])
            else:
                out[k] = round(out.get(k, 0) + v, 3)
    return out


_HARNESS = ("cases", "seconds", "cases_per_s")
_PER_PROCESS = ("jobs",)  # a setting of each shard's oracle, not a count


def oracle_stats(objs, names, results, shards=None):
    """Per oracle: what the harness measured, plus the oracle's own ``stats()`` if any.
    ``shards`` (a sharded run): each shard's ``oracle_stats``, whose oracle counters are summed
    (the parent's own oracle objects ran nothing); rates are not summed: the harness' are
    recomputed from the merged rows."""
    out = {}
    for name in names:
        rows = [r for r in results if r["oracle"] == name and r["status"] != "skipped"]
        cases, secs = sum(r["cases"] for r in rows), sum(r["seconds"] for r in rows)
        row = {"cases": cases, "seconds": round(secs, 2),
               "cases_per_s": round(cases / secs, 1) if secs else 0.0}
        fn = getattr(objs.get(name), "stats", None)
        if shards is not None:
            parts = [{k: v for k, v in s[name].items() if k not in _HARNESS}
                     for s in shards if name in s]
            row.update(_summed(parts))
            row["shards"] = len(parts)
            out[name] = row
            continue
        if callable(fn):
            try:  # the oracle's own counters, never over the harness' cases / seconds
                own = dict(fn() or {})
                row.update({k if k not in row else f"oracle_{k}": v for k, v in own.items()})
            except Exception as e:  # noqa: BLE001 - an oracle's statistics are optional
                row["stats_error"] = f"{type(e).__name__}: {e}"[:200]
        describe = getattr(objs.get(name), "describe", None)  # what it loaded (nvlabs: files)
        if callable(describe):
            try:
                text = describe()
                if text:
                    row["loaded"] = str(text)
            except Exception:  # noqa: BLE001 - a description is optional
                pass
        out[name] = row
    return out


def format_failure(r):
    """A failure as printed: check, oracle, minimal counterexample, answers, replay line; with a
    baseline, how the baseline answered (REGRESSION, CHANGED, or KNOWN as on the baseline)."""
    b = r.get("baseline") or {}
    tag = known_tag(r) if r["known_finding"] else r["status"].upper()
    if r["status"] == "fail" and b.get("verdict") in ("regression", "changed"):
        known = f" (the register knows it as {b['finding']})" if b.get("finding") else ""
        tag = b["verdict"].upper() + known
    lines = [f"{tag} {r['check']} [{r['oracle']}]: {r['message']}",
             f"  counterexample: {' '.join(r['counterexample'] or [])}"]
    first, how = r.get("first_counterexample"), r.get("shrink") or {}
    if first and first != r["counterexample"]:
        lines.append(f"  found as: {' '.join(first)} (shrunk in {how.get('steps')} steps, "
                     f"{how.get('candidates')} candidates, {how.get('seconds')} s)")
    for side, ans in (r["answers"] or {}).items():
        lines.append(f"  {side}: {ans}")
    if b and r["status"] == "fail":
        lines.append(f"  baseline {b['oracle']}: {b.get('detail') or b['verdict']}")
    if r["replay"]:
        lines.append(f"  replay: {r['replay']}")
    return "\n".join(lines)


def format_fixed(r):
    """A case only the baseline fails (the implementation agrees with the spec there)."""
    b = r["baseline"]
    fixed = b["fixed"]
    lines = [f"FIXED {r['check']} [{r['oracle']}]: {b['oracle']} fails where {r['oracle']} agrees "
             f"with the spec ({b['fixed_cases']} cases)",
             f"  counterexample: {' '.join(fixed['counterexample'])}"]
    for side, ans in (fixed.get("answers") or {}).items():
        lines.append(f"  {side}: {ans}")
    return "\n".join(lines)


def baseline_summary(name, oracle, results):
    """The report's ``baseline``: the oracle, what it loaded, and how many check/oracle pairs
    came out regression, changed, known (a failure both share), fixed (a case only the baseline
    fails) or agree, with the cases behind known and fixed."""
    out = {"oracle": name, "loaded": None}
    describe = getattr(oracle, "describe", None)
    try:
        out["loaded"] = describe() if callable(describe) else None
    except Exception:  # noqa: BLE001 - a description is optional
        pass
    rows = [r.get("baseline") or {} for r in results]
    for verdict in ("regression", "changed", "known", "fixed", "agree"):
        out[verdict] = sum(1 for b in rows if b.get("verdict") == verdict)
    out["fixed"] = sum(1 for b in rows if b.get("fixed"))
    out["known_cases"] = sum(b.get("known_cases") or 0 for b in rows)
    out["fixed_cases"] = sum(b.get("fixed_cases") or 0 for b in rows)
    return out


def _pct(part, whole):
    return f"{100.0 * part / whole:.0f}%" if whole else "0%"


def _stats_text(stats):
    def fmt(v):
        return f"{v:,.1f}" if isinstance(v, float) else f"{v:,}" if isinstance(v, int) else str(v)
    return ", ".join(f"{k} {fmt(v)}" for k, v in stats.items())


def summary_lines(report):
    """What ``layoutcheck fuzz`` prints after the failures: the totals, the budget spent on
    known ground per check (only the checks that spent any), time to the first failure, and
    one line per oracle (cases, rate, and the oracle's own ``stats()``)."""
    s, results = report["summary"], report["results"]
    lines = [f"{s['checks']} checks: {s['pass']} pass, {s['new_failures']} new failures, "
             f"{s['known']} known findings, {s.get('known_unchecked', 0)} known regions (answer not "
             f"checked), {s['error']} errors, {s['skipped']} skipped; "
             f"{s['cases']} cases in {s['seconds']} s"]
    if s.get("cases"):
        ttf = s.get("first_failure_s")
        lines.append(
            f"cases: {s['new_ground_cases']} on new ground, {s['known_region_cases']} on known "
            f"regions ({_pct(s['known_region_cases'], s['cases'])}; {s['known_cases']} re-hit a "
            f"known finding), {s['region_skipped']} drawn in known regions and steered away; "
            + (f"first new failure after {ttf} s" if ttf is not None else "no new failure"))
    if s.get("runtime_cases") or s.get("mixed_cases"):
        lines.append(f"integers: {s['runtime_cases']} cases ran with runtime integers, "
                     f"{s['static_cases']} all static, {s['mixed_cases']} mixed")
    if s.get("reused_cases"):
        lines.append(f"reuse batches: {s['reused_cases']} of the cases ran through kernels "
                     "compiled before (runtime integers, new values; fuzz/campaign/pairs.py)")
    for r in results:
        if r.get("known_region_cases") or r.get("region_skipped"):
            lines.append(f"  {r['check']} [{r['oracle']}]: {r['new_ground_cases']} new ground, "
                         f"{r['known_region_cases']} known region, {r['region_skipped']} "
                         f"steered away from {', '.join(r['steered']) or '-'}"
                         + (f"; first known hit {r['first_known_s']} s"
                            if r.get("first_known_s") is not None else ""))
    lines += _skipped_lines(results)
    if s.get("not_reached"):
        lines.append(f"WARNING: {s['not_reached']} check/oracle pairs were not reached within "
                     "the budget (raise --budget)")
    b = report.get("baseline")
    if b:
        for r in results:
            if (r.get("baseline") or {}).get("fixed"):
                lines.append(format_fixed(r))
        lines.append(f"baseline {b['oracle']}: {b['regression']} regressions, {b['changed']} changed, "
                     f"{b['known']} known (failing the same way on both; {b['known_cases']} cases), "
                     f"{b['fixed']} fixed ({b['fixed_cases']} cases)"
                     + (f"; {b['loaded']}" if b.get("loaded") else ""))
    for name, row in (report.get("oracle_stats") or {}).items():
        row = dict(row)
        head = (f"oracle {name}: {row.pop('cases', 0)} cases in {row.pop('seconds', 0.0)} s "
                f"({row.pop('cases_per_s', 0.0)}/s)")
        lines.append(head + (f"; {_stats_text(row)}" if row else ""))
    for name, m in (report.get("reference_cache") or {}).items():
        calls = m["hits"] + m["misses"]
        lines.append(f"reference {name}: {calls} calls, {m['hits']} answered from its memo "
                     f"({_pct(m['hits'], calls)})")
    return lines


def _skipped_lines(results):
    """One line per oracle and reason for the checks that judged nothing (the reason an
    oracle gave, e.g. a release that cannot run runtime integers)."""
    why = {}
    for r in results:
        if r["status"] == "skipped" and not r.get("not_reached") and r.get("message"):
            why.setdefault((r["oracle"], r["message"]), []).append(r["check"])
    return [f"skipped [{oracle}] {', '.join(checks)}: {message}"
            for (oracle, message), checks in why.items()]


def junit_xml(report):
    """JUnit XML: one testsuite per oracle, one testcase per check."""
    by = {}
    for r in report["results"]:
        by.setdefault(r["oracle"], []).append(r)
    out = ['<?xml version="1.0" encoding="UTF-8"?>', "<testsuites>"]
    for oracle, rs in by.items():
        accept = bool(report.get("accept_regions"))
        failing = [r for r in rs if r["status"] == "fail" and (not r["known_finding"]
                                                               or (is_unchecked(r) and not accept))]
        fails = len(failing)
        errors = sum(1 for r in rs if r["status"] == "error")
        skipped = sum(1 for r in rs if r["status"] == "skipped")
        out.append(f'  <testsuite name={quoteattr("layoutcheck.fuzz." + oracle)} tests="{len(rs)}" '
                   f'failures="{fails}" errors="{errors}" skipped="{skipped}" '
                   f'time="{sum(r["seconds"] for r in rs):.3f}">')
        if report.get("baseline"):
            b = report["baseline"]
            out.append(f'    <properties><property name="baseline" value={quoteattr(b["oracle"])}/>'
                       f'<property name="baseline.regression" value="{b["regression"]}"/>'
                       f'<property name="baseline.changed" value="{b["changed"]}"/>'
                       f'<property name="baseline.known" value="{b["known"]}"/>'
                       f'<property name="baseline.fixed" value="{b["fixed"]}"/></properties>')
        for r in rs:
            out.append(f'    <testcase classname={quoteattr(oracle)} name={quoteattr(r["check"])} '
                       f'time="{r["seconds"]:.3f}">')
            body = escape(format_failure(r)) if r["counterexample"] else ""
            if r["status"] == "fail" and not r["known_finding"]:
                out.append(f'      <failure message={quoteattr(r["message"])}>{body}</failure>')
            elif any(r is x for x in failing):  # a known region, answer not checked
                msg = f"{known_tag(r)}: {r['message']}"
                out.append(f'      <failure type="known-region" message={quoteattr(msg)}>{body}</failure>')
            elif r["status"] == "error":
                out.append(f'      <error message={quoteattr(r["message"])}>{body}</error>')
            elif r["status"] == "skipped":
                out.append(f'      <skipped message={quoteattr(r["message"])}/>')
            elif r["known_finding"]:
                out.append(f'      <system-out>{body}</system-out>')
            elif (r.get("baseline") or {}).get("fixed"):
                out.append(f'      <system-out>{escape(format_fixed(r))}</system-out>')
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
                + ((f" (known region {r['known_finding']}, answer not checked)" if is_unchecked(r)
                    else f" (known {r['known_finding']})") if r["known_finding"] else "")
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
