"""The HTML report, validated with parsers in the default run: the page is well
formed (every element closed, in order), each inline SVG is XML, the page is self-contained,
and it shows what the JSON report says: one table per oracle with each check's verdict,
cases and rate, each failure with its case, picture, replay line and finding; the plot."""

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from html import escape
from html.parser import HTMLParser

import layoutcheck.fuzz.campaign.runner as C
import pytest
from cluster_support import COALESCE_BUG as BROKEN

from layoutcheck.cli import main
from layoutcheck.reports.html import render, verdict

VOID = {"meta", "br", "img", "input", "link", "hr", "col", "area", "base", "wbr", "source"}
ORACLE = "module:lc_html_broken"


class Page(HTMLParser):
    """A strict reading: the open elements as a stack (a mismatch fails), every element with
    its attributes and the text inside each inline <svg>."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.stack, self.elements, self.svgs, self._svg, self.errors = [], [], [], None, []
        self.doctype = False
        self.feed(text)
        self.close()
        self.svg_texts = _svg_blocks(text)

    def handle_decl(self, decl):
        self.doctype = decl.lower() == "doctype html"

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs), list(self.stack)))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.elements.append((tag, dict(attrs), list(self.stack)))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
        else:
            self.stack.pop()

    def find(self, tag, **attrs):
        return [(a, inside) for t, a, inside in self.elements if t == tag and all(
            (v in (a.get(k) or "").split()) if k == "class" else a.get(k) == v
            for k, v in attrs.items())]


def _svg_blocks(text):
    out, k = [], 0
    while (k := text.find("<svg", k)) >= 0:
        end = text.index("</svg>", k) + len("</svg>")
        out.append(text[k:end])
        k = end
    return out


def check_page(text):
    page = Page(text)
    assert page.doctype and not page.errors and not page.stack, (page.errors, page.stack)
    for svg in page.svg_texts:
        ET.fromstring(svg)  # each picture and the plot: well-formed XML
    for tag in ("script", "link", "img", "iframe", "object"):
        assert not page.find(tag), f"<{tag}>: the page must be self-contained"
    assert all(not a.get("src") for _, a, _ in page.elements)
    assert not re.search(r"url\((?!#)", text) and "@import" not in text  # only url(#id) inside
    return page


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    from layoutcheck.oracles import get_oracle
    why = get_oracle("pycute").unavailable_reason()
    if why:
        pytest.skip(f"the report's oracles are pycute and a patched pycute: {why}")
    folder = tmp_path_factory.mktemp("html_oracle")
    (folder / "lc_html_broken.py").write_text(BROKEN)
    sys.path.insert(0, str(folder))
    try:
        return C.run_campaign(oracles=[ORACLE, "pycute"], checks=["law.coalesce.function",
                              "diff.composition", "diff.size"], max_examples=40, use_db=False,
                              cluster="processes:2")
    finally:
        sys.path.remove(str(folder))


def test_the_page_shows_the_report(report):
    text = render(report)
    page = check_page(text)
    for sid in ("summary", "checks", "failures", "throughput"):
        assert page.find("section", id=sid), sid
    tables = {a["data-oracle"] for a, _ in page.find("table", **{"class": "checks"})}
    assert tables == {ORACLE, "pycute"}
    rows = page.find("tr", **{"class": "row"})
    assert len(rows) == len(report["results"])
    want = {(r["check"], verdict(r)) for r in report["results"]}
    assert {(a["data-check"], a["data-verdict"]) for a, _ in rows} == want
    assert {"new", "known"} <= {v for _, v in want}  # a new bug and a known finding (F-088 or F-070)
    failing = [r for r in report["results"] if r["status"] in ("fail", "error") and r["counterexample"]]
    articles = page.find("article", **{"class": "failure"})
    assert len(articles) == len(failing)
    for r in failing:
        assert escape(r["replay"]) in text
        assert escape(r["op"] + "(" + ", ".join(r["counterexample"])) in text
    assert len(page.find("figure", **{"class": "picture"})) >= 1
    known = [r for r in failing if r["known_finding"]]
    for r in known:
        assert f"matched finding <b>{r['known_finding']}</b>" in text
    plot = page.find("figure", **{"class": "plot"})
    assert plot and len(page.svg_texts) >= 2
    assert "cluster" in text and "processes:2" in text  # the engine line of the summary


def test_a_picture_per_layout_failure_marks_cells(report):
    text = render(report)
    law = next(r for r in report["results"] if r["check"] == "law.coalesce.function")
    assert law["status"] == "fail"
    svgs = [s for s in _svg_blocks(text) if 'class="cell diff"' in s]
    assert svgs, "the law failure's picture marks the cells whose offsets differ"


def test_a_report_without_failures_or_timing_is_still_a_page():
    empty = {"command": "x", "seed": 0, "budget_s": None, "max_examples": 1, "oracles": {},
             "results": [], "summary": {"checks": 0}, "exit_status": 2}
    page = check_page(render(empty))
    assert "no failure" in render(empty) and page.find("section", id="throughput")


def test_cli_fuzz_and_demo_write_html(tmp_path, capsys):
    out = tmp_path / "r.html"
    assert main(["fuzz", "--against", "impl", "--checks", "diff.size", "--max-examples", "5",
                 "--no-db", "--html", str(out)]) == 0
    page = check_page(out.read_text())
    assert page.find("tr", **{"data-check": "diff.size", "data-verdict": "pass"})
    capsys.readouterr()
    demo = tmp_path / "demo.html"
    r = subprocess.run([sys.executable, "-m", "layoutcheck", "demo", "--cases", "1", "--against",
                        "impl", "--max-rank", "1", "--html", str(demo), "--report",
                        str(tmp_path / "demo.json")], capture_output=True, text=True, timeout=600,
                       cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    page = check_page(demo.read_text())
    sections = json.loads((tmp_path / "demo.json").read_text())["sections"]
    shown = [a["data-status"] for a, _ in page.find("div", **{"class": "section"})]
    assert shown == [s["status"] for s in sections] and page.find("section", id="checks")
    assert main(["demo", "--html", str(tmp_path / "missing" / "x.html")]) == 2
