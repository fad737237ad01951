"""The register as a markdown table (docs/FINDINGS.md): ``python -m layoutcheck.reports.findings_table
> docs/FINDINGS.md``.  tests/test_findings.py checks the checked-in file is this output."""

from collections import Counter

from layoutcheck.findings import load, match_tables

KINDS = ("implementation-bug", "paper-erratum", "example-disagreement", "convention")


def _cell(text):
    return " ".join(str(text).split()).replace("|", "\\|")


def _oracles(f):
    names = sorted({o for t in match_tables(f) for o in t.get("oracles", ())})
    return ", ".join(names) if names else "-"


def _upstream(f):
    links = f.get("upstream") or []
    links = [links] if isinstance(links, str) else links
    return " ".join(f"[{u.rstrip('/').rsplit('/', 2)[-2]}#{u.rstrip('/').rsplit('/', 1)[-1]}]({u})"
                    if u.startswith("https://github.com/") else _cell(u) for u in links) or "-"


def markdown():
    """The whole table, ordered by kind then id, with a count line first."""
    fs = load()
    kinds = Counter(f["kind"] for f in fs)
    status = Counter(f.get("status", "-") for f in fs)
    lines = ["# Findings register", "",
             "Generated from `layoutcheck/findings.toml` by `python -m layoutcheck.reports.findings_table`; "
             "`layoutcheck report F-NNN` writes the upstream-ready report of one finding.", "",
             f"{len(fs)} findings: " + ", ".join(f"{kinds[k]} {k}" for k in KINDS if kinds[k]) + ". Status: "
             + ", ".join(f"{n} {s}" for s, n in sorted(status.items())) + ".", "",
             "| id | kind | status | oracles | seen on | upstream | title |",
             "|---|---|---|---|---|---|---|"]
    order = {k: i for i, k in enumerate(KINDS)}
    for f in sorted(fs, key=lambda f: (order.get(f["kind"], 9), f["id"])):
        seen = f.get("seen_on") or []
        seen = [seen] if isinstance(seen, str) else seen
        lines.append("| " + " | ".join([f["id"], f["kind"], f.get("status", "-"), _oracles(f),
                                         _cell("; ".join(seen)) or "-", _upstream(f),
                                         _cell(f["title"])]) + " |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(markdown(), end="")
