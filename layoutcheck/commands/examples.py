"""`layoutcheck examples`: run the paper's numbered examples (sections 2.1.4-2.3) through the
executable spec and compare with the values the paper prints.

Exit status 0 when every disagreement is a registered finding (``findings.toml``, oracle
"paper", op "examples", check = the example number), 1 otherwise.
"""

import json

from layoutcheck.errors import LayoutError
from layoutcheck.spec.examples import run_examples

HELP = "check the paper's numbered examples against the spec (table or --json)"


def add_arguments(parser):
    parser.add_argument("--json", action="store_true",
                        help="print a JSON list, one object per example")
    parser.add_argument("--only", metavar="PREFIX", default=None,
                        help="only the examples whose number starts with PREFIX, e.g. 2.3.7")
    parser.add_argument("--disagreements", action="store_true",
                        help="list only the examples that disagree")


def run(args):

    rows = run_examples()
    if args.only:
        rows = [r for r in rows if r["example"].startswith(args.only)]
        if not rows:
            raise LayoutError(f"no example number starts with {args.only!r}")
    shown = [r for r in rows if r["status"] == "disagrees"] if args.disagreements else rows
    unexplained = [r for r in rows if r["status"] == "disagrees" and not r["finding"]]
    if args.json:
        print(json.dumps(shown, indent=1))
    else:
        for r in shown:
            mark = "agrees   " if r["status"] == "agrees" else "DISAGREES"
            print(f"{r['example']:<10} {mark} {r['op']}")
            if r["status"] != "agrees":
                print(f"{'':<10}   paper:    {r['paper']}")
                print(f"{'':<10}   computed: {r['computed']}")
                print(f"{'':<10}   finding:  {r['finding'] or 'NONE (unexplained)'}")
        agree = sum(r["status"] == "agrees" for r in rows)
        print(f"{len(rows)} examples: {agree} agree, {len(rows) - agree} disagree "
              f"({len(rows) - agree - len(unexplained)} registered findings, "
              f"{len(unexplained)} unexplained)")
    return 1 if unexplained else 0
