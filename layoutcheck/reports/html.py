"""The fuzz report as one self-contained HTML page: ``layoutcheck fuzz --html``
and ``layoutcheck demo --html``.

``render(report)`` takes the report dict of ``campaign.run_campaign`` (or a replay) and
returns the page: the summary; per oracle, the table of checks (pass / known / known region
(a finding recognised by a property of the answer, its answer not checked) / new / error /
skipped, cases, cases/s, the finding); for each failure its minimal case, the answers, the
side-by-side picture of the expected and the actual layout with the differing cells marked
(``layoutcheck.reports.pictures.failure_svg``), the replay line and the finding it matched (with the
register's title, status and upstream links); and a small throughput-over-time plot
(matplotlib, inline SVG: cumulative cases of the finished pairs or cluster units against
the seconds since the start).  No script, no stylesheet or picture from elsewhere: the file
can be mailed or attached to an issue as it is.

Element ids and classes that tests and users may rely on: ``#summary``, ``#checks``
(``table.checks`` with ``data-oracle``, rows ``tr.row`` with ``data-check`` and
``data-verdict``; with a baseline ``td.baseline`` with ``data-baseline``), ``#failures``
(``article.failure`` with ``code.case``, the minimal case, ``code.first``, the case as found
when shrinking changed it, ``figure.picture`` holding the ``svg``, ``pre.replay``,
``p.finding``, with a baseline ``p.baseline``; ``article.fixed`` for a case only the baseline
fails), ``#throughput`` (``figure.plot``).
"""

import html
import io

from layoutcheck.findings import load
from layoutcheck.reports.pictures import failure_svg

__all__ = ["render", "verdict", "throughput_svg"]

STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:1180px;
color:#1b1b1b;padding:0 16px}
h1{font-size:24px;margin-bottom:4px} h2{font-size:19px;margin-top:28px;border-bottom:1px solid #ccc}
code,pre{font-family:"DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:13px}
pre{background:#f4f4f4;padding:6px 8px;overflow-x:auto;white-space:pre-wrap}
table{border-collapse:collapse;margin:8px 0 16px;font-size:14px}
th,td{border:1px solid #bbb;padding:3px 8px;text-align:left} td.num{text-align:right}
.v-pass{background:#dff3df}.v-new{background:#f9d2d2;font-weight:bold}.v-known{background:#fff0c8}
.v-region{background:#fbdcae;font-weight:bold}
.v-error{background:#f3c0e6;font-weight:bold}.v-skipped{background:#eee;color:#666}
.badge{display:inline-block;padding:2px 8px;border-radius:10px;margin-right:6px;font-size:14px}
.status-0{background:#dff3df}.status-1{background:#f9d2d2}.status-2{background:#f3c0e6}
article.failure{border:1px solid #ccc;border-radius:6px;padding:8px 14px;margin:14px 0}
figure{margin:8px 0;overflow-x:auto} .note{color:#555;font-size:13px}
dl.summary{display:grid;grid-template-columns:max-content auto;gap:2px 14px}
dl.summary dt{font-weight:bold}
"""


def _e(x):
    return html.escape(str(x), quote=True)


def verdict(row):
    """pass | known | region | new | error | skipped for one result row (``region``: a known
    region whose answer was not checked)."""
    if row["status"] == "skipped":
        return "skipped"
    if row.get("known_finding"):
        return "region" if row.get("answer_checked") is False else "known"
    if row["status"] == "fail" or (row["status"] == "error" and row.get("counterexample")):
        return "new"
    return "error" if row["status"] == "error" else "pass"


def _findings():
    try:
        return {f["id"]: f for f in load()}
    except Exception:  # noqa: BLE001 - the page is still useful without the register
        return {}


def _summary(report):
    s, out = report.get("summary") or {}, []
    status = report.get("exit_status")
    words = {0: "exit 0: nothing new failed",
             1: ("exit 1: a new failure" if s.get("new_failures") or not s.get("known_unchecked")
                 else "exit 1: a known region whose answer was not checked"),
             2: "exit 2: an error or nothing ran"}
    out.append(f'<p><span class="badge status-{_e(status)}" id="exit-status">'
               f'{_e(words.get(status, status))}</span></p>')
    items = [("command", report.get("command")), ("seed", report.get("seed")),
             ("budget", f"{report['budget_s']} s" if report.get("budget_s") else None),
             ("max examples", report.get("max_examples")),
             ("checks", f"{s.get('checks', 0)}: {s.get('pass', 0)} pass, "
                        f"{s.get('new_failures', 0)} new failures, {s.get('known', 0)} known "
                        f"findings, {s.get('known_unchecked', 0)} known regions (answer not "
                        f"checked), {s.get('error', 0)} errors, {s.get('skipped', 0)} skipped"),
             ("cases", f"{s.get('cases', 0):,} in {s.get('seconds', 0)} s"),
             ("oracles", ", ".join(f"{n} ({st})" for n, st in (report.get("oracles") or {}).items()))]
    b = report.get("baseline")
    if b:
        items.append(("baseline", f"{b['oracle']}: {b['regression']} regressions, {b['changed']} "
                                  f"changed, {b['known']} known (both fail the same way), "
                                  f"{b['fixed']} fixed" + (f"; {b['loaded']}" if b.get("loaded") else "")))
    c = report.get("cluster")
    if c:
        items.append(("cluster", f"{c['engine']} {c['cluster']}: {c['workers']} worker threads, "
                                 f"{c['units']} units ({c['shards']} per oracle); started in "
                                 f"{c['start_s']} s, merged in {c['merge_s']} s; "
                                 f"{len(c['retried'])} retried, {len(c['lost'])} lost"))
    out.append('<dl class="summary">' + "".join(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>"
                                               for k, v in items if v not in (None, "")) + "</dl>")
    for lost in (c or {}).get("lost", []):
        out.append(f'<p class="v-error">incomplete: unit {_e(lost["unit"])} '
                   f'({_e(lost["oracle"])}, seed {_e(lost["seed"])}) {_e(lost["why"])}</p>')
    return "\n".join(out)


def _tables(report):
    by = {}
    for r in report.get("results") or []:
        by.setdefault(r["oracle"], []).append(r)
    out = []
    for oracle, rows in by.items():
        out.append(f"<h3>{_e(oracle)}</h3>")
        against = report.get("baseline")
        out.append(f'<table class="checks" data-oracle="{_e(oracle)}"><thead><tr><th>check</th>'
                   "<th>kind</th><th>verdict</th><th>cases</th><th>cases/s</th><th>finding</th>"
                   + (f"<th>vs {_e(against['oracle'])}</th>" if against else "")
                   + "<th>note</th></tr></thead><tbody>")
        for r in rows:
            v = verdict(r)
            note = r["message"] if v in ("skipped", "error") else ""
            b = (r.get("baseline") or {}).get("verdict", "")
            cell = f'<td class="baseline" data-baseline="{_e(b)}">{_e(b)}</td>' if against else ""
            out.append(f'<tr class="row v-{v}" data-check="{_e(r["check"])}" data-verdict="{v}">'
                       f"<td><code>{_e(r['check'])}</code></td><td>{_e(r['kind'])}</td>"
                       f"<td>{v}</td><td class=\"num\">{r['cases']:,}</td>"
                       f"<td class=\"num\">{_e(r['cases_per_s'])}</td>"
                       f"<td>{_e(r.get('known_finding') or '')}</td>{cell}<td>{_e(note[:200])}</td></tr>")
        out.append("</tbody></table>")
    return "\n".join(out) or '<p class="note">no checks ran</p>'


def _finding_line(fid, findings, region=False):
    f = findings.get(fid)
    what = "matched the region of finding" if region else "matched finding"
    caveat = (" <i>(known region, answer not checked: the finding is recognised by a property of "
              "the answer, so a different wrong answer here would look the same)</i>") if region else ""
    if not f:
        return f'<p class="finding">{what} <b>{_e(fid)}</b>{caveat}</p>'
    links = " ".join(f'<a href="{_e(u)}">{_e(u)}</a>' for u in f.get("upstream") or []
                     if str(u).startswith("https://"))
    return (f'<p class="finding">{what} <b>{_e(fid)}</b> ({_e(f.get("status", ""))}): '
            f'{_e(f.get("title", ""))}' + (f"<br>upstream: {links}" if links else "") + caveat + "</p>")


def _failures(report):
    findings, out = _findings(), []
    rows = [r for r in report.get("results") or [] if r["status"] in ("fail", "error")
            and r.get("counterexample")]
    for r in rows:
        v = verdict(r)
        tag = {"known": f"KNOWN {r['known_finding']}",
               "region": f"KNOWN REGION {r['known_finding']} (answer not checked)"}.get(v, r["status"].upper())
        out.append(f'<article class="failure" data-check="{_e(r["check"])}" '
                   f'data-oracle="{_e(r["oracle"])}" data-verdict="{v}">')
        out.append(f"<h3><span class=\"badge v-{v}\">{_e(tag)}</span><code>{_e(r['check'])}"
                   f"</code> on <code>{_e(r['oracle'])}</code></h3>")
        out.append(f"<p>{_e(r['message'])}</p>")
        out.append(f"<p>minimal case: <code class=\"case\">{_e(r['op'])}("
                   f"{_e(', '.join(r['counterexample']))})</code></p>")
        first, how = r.get("first_counterexample"), r.get("shrink") or {}
        if first and first != r["counterexample"]:
            out.append(f"<p class=\"note found\">found as <code class=\"first\">{_e(r['op'])}("
                       f"{_e(', '.join(first))})</code>, shrunk in {_e(how.get('steps'))} steps "
                       f"({_e(how.get('candidates'))} candidates, {_e(how.get('seconds'))} s"
                       + (f", {_e(how.get('compiles'))} compiles" if how.get("compiles") else "")
                       + ")</p>")
        answers = r.get("answers") or {}
        if answers:
            out.append("<ul class=\"answers\">" + "".join(
                f"<li><b>{_e(k)}</b>: <code>{_e(str(a)[:400])}</code></li>"
                for k, a in answers.items()) + "</ul>")
        try:
            svg = failure_svg(r)
        except Exception as e:  # noqa: BLE001 - a picture that cannot be drawn is a note
            svg, why = None, f"{type(e).__name__}: {e}"
        else:
            why = "no layout among the answers to draw"
        if svg:
            out.append(f'<figure class="picture">{svg}<figcaption class="note">left: the '
                       "reference's answer (for a law: its input), right: the oracle's "
                       "answer, in one grouping when their sizes agree; cells whose offsets "
                       "differ at the same index are marked in red</figcaption></figure>")
        else:
            out.append(f'<p class="note">no picture: {_e(why)}</p>')
        b = r.get("baseline")
        if b:
            out.append(f'<p class="baseline" data-baseline="{_e(b["verdict"])}">baseline '
                       f'<code>{_e(b["oracle"])}</code>: <b>{_e(b["verdict"])}</b>'
                       + (f" ({_e(b['detail'])})" if b.get("detail") else "")
                       + (f"; the register knows it as {_e(b['finding'])}" if b.get("finding") else "")
                       + "</p>")
        if r.get("replay"):
            out.append(f'<pre class="replay">{_e(r["replay"])}</pre>')
        if r.get("known_finding") and not str(r["known_finding"]).startswith("baseline:"):
            out.append(_finding_line(r["known_finding"], findings, v == "region"))
        elif r.get("known_finding"):
            out.append(f'<p class="finding">known: the baseline fails the same way '
                       f'({_e(r["known_finding"])})</p>')
        else:
            out.append('<p class="finding">matched finding: none (a new failure)</p>')
        out.append("</article>")
    for r in report.get("results") or []:
        fixed = (r.get("baseline") or {}).get("fixed")
        if fixed:
            out.append(f'<article class="fixed" data-check="{_e(r["check"])}" data-oracle="{_e(r["oracle"])}">'
                       f'<h3><span class="badge v-pass">FIXED</span><code>{_e(r["check"])}</code> on '
                       f'<code>{_e(r["oracle"])}</code></h3><p>{_e(r["baseline"]["oracle"])} fails where '
                       f'{_e(r["oracle"])} agrees with the spec ({r["baseline"]["fixed_cases"]} cases); '
                       f'smallest: <code class="case">{_e(r["op"])}({_e(", ".join(fixed["counterexample"]))})'
                       "</code></p></article>")
    return "\n".join(out) or '<p class="note">no failure: nothing to draw</p>'


def _series(report):
    """[(seconds, cumulative cases)] of the finished units (cluster) or pairs."""
    c = report.get("cluster")
    if c and c.get("timeline"):
        return [(float(t), int(n)) for t, n in c["timeline"]]
    rows = [r for r in report.get("results") or [] if r.get("elapsed_s") is not None]
    total, out = 0, []
    for r in sorted(rows, key=lambda r: r["elapsed_s"]):
        total += r["cases"]
        out.append((float(r["elapsed_s"]), total))
    return out


def throughput_svg(report):
    """The plot as an SVG element (text), or None without timing data or matplotlib."""
    points = _series(report)
    if not points:
        return None
    try:
        from matplotlib.backends.backend_svg import FigureCanvasSVG
        from matplotlib.figure import Figure
    except ImportError:
        return None
    import matplotlib
    fig = Figure(figsize=(6.4, 2.6), dpi=100)
    FigureCanvasSVG(fig)
    ax = fig.add_subplot(1, 1, 1)
    xs, ys = [0.0] + [p[0] for p in points], [0] + [p[1] for p in points]
    ax.step(xs, ys, where="post", color="#1f5fa8", linewidth=1.6)
    ax.plot(xs[1:], ys[1:], "o", color="#1f5fa8", markersize=3)
    ax.set_xlabel("seconds since the start")
    ax.set_ylabel("cases (cumulative)")
    rate = ys[-1] / xs[-1] if xs[-1] > 0 else 0.0
    ax.set_title(f"throughput: {ys[-1]:,} cases, {rate:,.1f} cases/s overall", fontsize=10)
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    buf = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": "layoutcheck", "svg.fonttype": "path"}):
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    text = buf.getvalue()
    return text[text.index("<svg"):]


def render(report, title="layoutcheck fuzz report", preface=None):
    """The page (see the module docstring); ``preface``: (status, title, lines) sections shown
    before the campaign (``layoutcheck demo``)."""
    parts = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
             f"<title>{_e(title)}</title>", f"<style>{STYLE}</style>", "</head>", "<body>",
             f"<h1>{_e(title)}</h1>"]
    if preface:
        parts.append('<section id="sections"><h2>Sections</h2>')
        for status, name, lines in preface:
            cls = {"passed": "v-pass", "FAILED": "v-new", "ERROR": "v-error"}.get(status, "v-skipped")
            parts.append(f'<div class="section" data-status="{_e(status)}"><h3><span class="badge '
                         f'{cls}">{_e(status)}</span>{_e(name)}</h3><pre>'
                         + _e("\n".join(lines)) + "</pre></div>")
        parts.append("</section>")
    if report is not None:
        parts += ['<section id="summary"><h2>Summary</h2>', _summary(report), "</section>",
                  '<section id="checks"><h2>Checks per oracle</h2>', _tables(report), "</section>",
                  '<section id="failures"><h2>Failures</h2>', _failures(report), "</section>",
                  '<section id="throughput"><h2>Throughput</h2>']
        plot = throughput_svg(report)
        parts.append(f'<figure class="plot">{plot}</figure>' if plot else
                     '<p class="note">no timing data to plot (or matplotlib is not installed)</p>')
        parts.append("</section>")
    parts += ["</body>", "</html>"]
    return "\n".join(parts) + "\n"
