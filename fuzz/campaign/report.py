"""The campaign's report: result rows, the summary, exit status, JUnit XML and printing.

A result row (one per (check, oracle) pair)::

    {"check", "op", "kind", "oracle", "status": "pass|fail|error|skipped", "cases",
     "seconds", "cases_per_s", "counterexample", "answers", "message", "known_finding",
     "replay", "elapsed_s",
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
     "rounds"               slices of the budget this pair got,
     "first_failure_s"      seconds from the campaign's start to this pair's first new failure
                            (before shrinking), or None; "first_known_s" likewise for a known one,
     "baseline"             (--baseline only) {"oracle", "verdict": agree | known | regression |
                            changed | fixed, "answers" (the baseline's), "detail", "finding" (the
                            register's, where one matches), "known_cases", "fixed_cases",
                            "fixed": {"counterexample", "answers", "detail"} | None}}
"""

import sys
from xml.sax.saxutils import escape, quoteattr

__all__ = ["result_row", "summary", "oracle_stats", "exit_status", "format_failure", "format_fixed",
           "junit_xml", "progress_printer", "summary_lines", "baseline_summary"]


def result_row(check, oracle_name, status, **kw):
    r = {"check": check.name, "op": check.op, "kind": check.kind, "oracle": oracle_name,
         "status": status, "cases": 0, "seconds": 0.0, "cases_per_s": 0.0,
         "counterexample": None, "answers": None, "message": "", "known_finding": None,
         "known_cases": 0, "known_region_cases": 0, "new_ground_cases": 0,
         "region_skipped": 0, "steered": [], "behaviours": 0, "duplicates": 0, "rounds": 0,
         "first_failure_s": None, "first_known_s": None, "replay": None}
    r.update(kw)
    return r


def exit_status(report):
    s = report["summary"]
    if s["new_failures"]:
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
         "known": sum(1 for r in results if r["known_finding"]),
         "new_failures": sum(1 for r in new if r["status"] == "fail"),
         "cases": total("cases"), "known_cases": total("known_cases"),
         "known_region_cases": total("known_region_cases"),
         "new_ground_cases": total("new_ground_cases"), "region_skipped": total("region_skipped"),
         "duplicates": total("duplicates"), "reused_cases": total("reused_cases"),
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
    tag = f"KNOWN {r['known_finding']}" if r["known_finding"] else r["status"].upper()
    if r["status"] == "fail" and b.get("verdict") in ("regression", "changed"):
        known = f" (the register knows it as {b['finding']})" if b.get("finding") else ""
        tag = b["verdict"].upper() + known
    lines = [f"{tag} {r['check']} [{r['oracle']}]: {r['message']}",
             f"  counterexample: {' '.join(r['counterexample'] or [])}"]
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
             f"{s['known']} known findings, {s['error']} errors, {s['skipped']} skipped; "
             f"{s['cases']} cases in {s['seconds']} s"]
    if s.get("cases"):
        ttf = s.get("first_failure_s")
        lines.append(
            f"cases: {s['new_ground_cases']} on new ground, {s['known_region_cases']} on known "
            f"regions ({_pct(s['known_region_cases'], s['cases'])}; {s['known_cases']} re-hit a "
            f"known finding), {s['region_skipped']} drawn in known regions and steered away; "
            + (f"first new failure after {ttf} s" if ttf is not None else "no new failure"))
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


def junit_xml(report):
    """JUnit XML: one testsuite per oracle, one testcase per check."""
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
