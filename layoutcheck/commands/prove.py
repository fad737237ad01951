"""`layoutcheck prove`: prove the lemma catalogue with z3 (layoutcheck.proofs).

Exit 0 when every chosen lemma ends as its catalogue entry expects (proved; refuted for a
literal erratum), 1 otherwise (a lemma unknown at some rank, or an unexpected outcome).
"""

import json
import sys

HELP = "prove the layout lemmas with z3: proved, refuted (with a counterexample) or unknown"


def add_arguments(parser):
    parser.add_argument("lemmas", nargs="*", metavar="LEMMA", help="lemma names (default: all)")
    parser.add_argument("--list", action="store_true", help="list the catalogue and exit")
    from .common import count, seconds
    parser.add_argument("--max-rank", type=count(1, 8), default=None,
                        help="prove ranks 1..R (default 4, at most 8)")
    parser.add_argument("--timeout", type=seconds(3600), default=None,
                        help="seconds per z3 query (default 20, at most 3600)")
    parser.add_argument("--no-induction", action="store_true",
                        help="skip the all-rank induction steps")
    parser.add_argument("--report", metavar="FILE", help="write the rows as JSON to FILE")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")


def _list(out):
    from layoutcheck.proofs import CATALOGUE
    print(f"{'lemma':22} {'paper':12} {'expect':8} {'induction':9} statement", file=out)
    for lemma in CATALOGUE:
        ind = "yes" if lemma.induction is not None else "no"
        print(f"{lemma.name:22} {lemma.ref:12} {lemma.expected:8} {ind:9} {lemma.statement}",
              file=out)
        print(f"{'':22} bound: {lemma.bound}", file=out)


HEADER = (f"{'lemma':24} {'rank':>4} {'result':8} {'time/s':>8} {'queries':>7} "
          f"{'all ranks':9} bound / counterexample")


def format_row(r):
    """One table line.  The "all" row of a lemma says whether its induction closed."""
    extra = r["counterexample"] or r["bound"]
    if r["result"] == "unknown":
        extra = f"{extra}; {r['note']}"
    elif r["rank"] == "all":
        extra = "induction steps (per-mode)"
    # "all ranks" is known once the induction row has run: the streamed rank rows say "-"
    pending = r["induction"] and r["rank"] != "all"
    every = "yes" if r["for_all_ranks"] else ("-" if pending else "no")
    return (f"{r['lemma']:24} {r['rank']!s:>4} {r['result']:8} {r['seconds']:8.2f} "
            f"{r['queries']:>7} {every:9} {extra}")


def format_table(rows):
    return "\n".join([HEADER, "-" * len(HEADER)] + [format_row(r) for r in rows])


def run(args):
    from layoutcheck.errors import LayoutError
    from layoutcheck.proofs import DEFAULT_MAX_RANK, DEFAULT_TIMEOUT, expected_outcome_met
    from layoutcheck.proofs.runner import check_arguments
    from layoutcheck.proofs import run as run_proofs

    if args.list:
        _list(sys.stdout)
        return 0
    max_rank = DEFAULT_MAX_RANK if args.max_rank is None else args.max_rank
    timeout = DEFAULT_TIMEOUT if args.timeout is None else args.timeout
    check_arguments(args.lemmas, max_rank, timeout)  # bad input: exit 2 before any work
    report = None
    if args.report:
        from .common import check_output_path
        check_output_path(args.report, "--report")  # a directory, /dev/full, ...: exit 2 now
        try:
            report = open(args.report, "w")
        except OSError as e:
            raise LayoutError(f"cannot write report {args.report}: {e.strerror}") from None
    stream = None
    if not args.json:  # the table streams: each row as its rank finishes
        print(HEADER)
        print("-" * len(HEADER), flush=True)
        stream = lambda row: print(format_row(row), flush=True)  # noqa: E731
    rows = run_proofs(args.lemmas or None, max_rank=max_rank, timeout=timeout,
                      induction=not args.no_induction, on_row=stream)
    names = list(dict.fromkeys(r["lemma"] for r in rows))
    failed = [n for n in names if not expected_outcome_met(n, rows)]
    if report is not None:
        with report:
            json.dump(rows, report, indent=1)
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        proved_all = sorted({r["lemma"] for r in rows if r["for_all_ranks"]})
        print(f"for all ranks by induction: {', '.join(proved_all) or 'none'}")
        if failed:
            print(f"not as expected: {', '.join(failed)}")
        else:
            print(f"all {len(names)} lemmas as expected")
    return 1 if failed else 0
