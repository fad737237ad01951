"""`layoutcheck prove`: prove the lemma catalogue with z3 (layoutcheck.proofs), or properties
of the user's own layouts for every runtime shape (layoutcheck.proofs.user, ``--layout``).

Catalogue: exit 0 when every chosen lemma ends as its catalogue entry expects (proved;
refuted for a literal erratum), 1 otherwise (a lemma unknown at some rank, or an unexpected
outcome).  Before it starts it says how much work the run is (``proofs.estimate``: queries
per rank from the catalogue) and how long it is expected to take; ranks past what the
catalogue has been run at need ``--time-limit``.  A run cut by ``--time-limit`` names the
lemmas it did not finish and exits 2 (1 when a finished row already failed), never 0.
``--property``: exit 0 when every property is proved, 1 when one is refuted or unknown.
Bad input (a malformed layout or expression, an inexact division, options of the other
mode): one line, exit 2.
"""

import json
import os
import sys

from layoutcheck.commands.common import add_run_limits, run_limits, unfinished_status
from layoutcheck.errors import LayoutError
from layoutcheck.files import check_output_path
from layoutcheck.progress import Progress
from layoutcheck.proofs import CATALOGUE, DEFAULT_MAX_RANK, expected_outcome_met, get_lemma
from layoutcheck.proofs import DEFAULT_TIMEOUT as CATALOGUE_TIMEOUT
from layoutcheck.proofs import run as run_proofs
from layoutcheck.proofs.estimate import MAX_UNIT_QUERIES, MEASURED_RANK, estimate
from layoutcheck.proofs.runner import check_arguments
from layoutcheck.proofs.user import DEFAULT_TIMEOUT as USER_TIMEOUT
from layoutcheck.proofs.user import format_row as user_row
from layoutcheck.proofs.user import prove

HELP = ("prove the layout lemmas, or properties of your layouts for every runtime shape, with "
        "z3: proved, refuted (with a counterexample) or unknown")


def add_arguments(parser):
    parser.add_argument("lemmas", nargs="*", metavar="LEMMA", help="lemma names (default: all)")
    parser.add_argument("--list", action="store_true", help="list the catalogue and exit")
    parser.add_argument("--max-rank", type=int, default=None,
                        help="prove ranks 1..R (default 4)")
    parser.add_argument("--timeout", type=float, default=None,
                        help="seconds per z3 query (default 20)")
    parser.add_argument("--no-induction", action="store_true",
                        help="skip the all-rank induction steps")
    parser.add_argument("--jobs", type=int, default=None,
                        help="worker processes for the catalogue (default: the CPU count)")
    parser.add_argument("--layout", metavar="L", help="your layout, CuTe notation whose entries "
                        "may be expressions over named variables: '((8,M/8),(8,K/8)):((8,64),(1,8*M))'")
    parser.add_argument("--property", action="append", metavar="P", default=None,
                        help="a property of --layout to prove (repeatable): injective, surjective, "
                        "compact, sorted, non-degenerate, 'bijective-onto N', 'in-bounds N', "
                        "'covers TILE exactly-once', no-write-conflicts, 'equal L', 'refines L', "
                        "'coalesces-to L', 'composable(A, B)', 'composition(A, B) == R', "
                        "'divides(A, T)', 'logical_divide(A, T) == R', 'complement(A, N) == R' "
                        "(A is --layout)")
    parser.add_argument("--assume", action="append", metavar="C", default=[],
                        help="assumptions, e.g. 'M %% 64 == 0, 64 <= M <= 2**20' (repeatable)")
    parser.add_argument("--sense", choices=("paper", "cute"), default="paper",
                        help="composable / divides in the paper's or CuTe's sense (default paper)")
    parser.add_argument("--exhaustive", type=int, default=0, metavar="N",
                        help="after unknown, evaluate the property at up to N assignments "
                        "(labelled: no proof)")
    parser.add_argument("--report", metavar="FILE", help="write the rows as JSON to FILE")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    add_run_limits(parser, f"the catalogue's run (needed past rank {MEASURED_RANK}; the cheapest "
                           "ranks go first)")


def _list(out):
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
    queries = r["queries"] if r["queries"] < 10 ** 7 else f"{r['queries']:.1e}"
    return (f"{r['lemma']:24} {r['rank']!s:>4} {r['result']:8} {r['seconds']:8.2f} "
            f"{queries:>7} {every:9} {extra}")


def format_table(rows):
    return "\n".join([HEADER, "-" * len(HEADER)] + [format_row(r) for r in rows])


def check_options(args):
    """The options of the two modes, validated in one place (LayoutError: exit 2)."""
    user = args.property is not None or args.layout is not None
    if user:
        other = [n for n, v in (("LEMMA", args.lemmas), ("--list", args.list),
                                ("--max-rank", args.max_rank is not None),
                                ("--no-induction", args.no_induction),
                                ("--jobs", args.jobs is not None),
                                ("--time-limit", args.time_limit is not None)) if v]
        if other:
            raise LayoutError(f"{', '.join(other)}: for the lemma catalogue only, not with "
                              "--layout/--property")
        if not args.property:
            raise LayoutError("--layout needs --property (e.g. --property injective)")
        if args.exhaustive < 0:
            raise LayoutError(f"--exhaustive must be >= 0, got {args.exhaustive}")
    elif args.assume or args.exhaustive or args.sense != "paper":
        raise LayoutError("--assume, --sense and --exhaustive need --property")
    if args.timeout is not None and not 0 < args.timeout < 1e6:
        raise LayoutError(f"timeout must be a positive number of seconds, got {args.timeout}")
    return user


def _cpus():
    try:
        n = len(os.sched_getaffinity(0))
    except AttributeError:
        n = os.cpu_count() or 1
    return max(1, min(n, 16))


def _open_report(path):
    check_output_path(path, "--report")  # a directory, /dev/full, ...: one line, exit 2 now
    try:
        return open(path, "w")
    except OSError as e:
        raise LayoutError(f"cannot write report {path}: {e.strerror}") from None


def _run_user(args):
    timeout = USER_TIMEOUT if args.timeout is None else args.timeout
    report = _open_report(args.report) if args.report else None
    rows = []
    for prop in args.property:
        row = prove(args.layout, prop, assume=args.assume, timeout=timeout, sense=args.sense,
                    exhaustive=args.exhaustive)
        rows.append(row)
        if not args.json:
            print(("\n" if len(rows) > 1 else "") + user_row(row), flush=True)
    if report is not None:
        with report:
            json.dump(rows, report, indent=1)
    if args.json:
        print(json.dumps(rows, indent=1))
    return 0 if all(r["result"] == "proved" for r in rows) else 1


def run(args):

    if check_options(args):
        return _run_user(args)
    if args.list:
        _list(sys.stdout)
        return 0
    max_rank = DEFAULT_MAX_RANK if args.max_rank is None else args.max_rank
    timeout = CATALOGUE_TIMEOUT if args.timeout is None else args.timeout
    jobs = _cpus() if args.jobs is None else args.jobs
    chosen = check_arguments(args.lemmas, max_rank, timeout, jobs)  # bad input: exit 2 now
    limit, show_progress = run_limits(args)
    est = estimate(chosen, max_rank, timeout, not args.no_induction, jobs)
    if limit is None:
        _refuse_unbounded(est)
    report = _open_report(args.report) if args.report else None
    print(f"layoutcheck prove: {est.line()}", file=sys.stderr, flush=True)
    steps = len(est.units) + sum(1 for lm in chosen if lm.induction and not args.no_induction)
    bar = Progress("layoutcheck prove", total=steps, deadline=limit, enabled=show_progress)
    if not args.json:  # the table streams: each row as its rank finishes
        print(HEADER)
        print("-" * len(HEADER), flush=True)

    def stream(row):
        if not args.json:
            bar.close()
            print(format_row(row), flush=True)
        if limit is None and jobs == 1:  # in this process: a step per row
            bar.update(1, note=f"{row['lemma']} rank {row['rank']}")
    with bar:
        rows = run_proofs(args.lemmas or None, max_rank=max_rank, timeout=timeout,
                          induction=not args.no_induction, on_row=stream, jobs=jobs,
                          deadline=limit,
                          on_progress=lambda done, total: bar.update(done=done, total=total))
    names = list(dict.fromkeys(r["lemma"] for r in rows))
    cut = {n: _unfinished(n, rows) for n in names}
    failed = [n for n in names if not expected_outcome_met(n, rows) and
              (not cut[n] or _failed_already(n, rows))]
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
        elif not any(cut.values()):
            print(f"all {len(names)} lemmas as expected")
    return unfinished_status("layoutcheck prove", failed,
                             [f"{n} ({cut[n]})" for n in names if cut[n] and n not in failed],
                             limit)


def _refuse_unbounded(est):
    """Without --time-limit, a run past the measured ranks is refused before it starts (one
    line, exit 2): it would run for hours or for ever, with nothing to show."""
    if est.beyond:
        name, top, queries = est.beyond[0]
        raise LayoutError(f"ranks above {MEASURED_RANK} are past what the catalogue has been run "
                          f"at: {name} alone asks {queries:.3g} z3 queries up to rank {top}, and z3 "
                          "is not known to settle such ranks; give --time-limit SECONDS to run "
                          "what fits (the cheapest ranks first; what is not finished is named, "
                          f"exit 2), or --max-rank {MEASURED_RANK} or less")
    if est.too_large:
        name, rank, queries = est.too_large[0]
        raise LayoutError(f"{name} at rank {rank} asks {queries:.3g} z3 queries, more than "
                          f"{MAX_UNIT_QUERIES:,} (never attempted); lower --max-rank or give "
                          "--time-limit SECONDS")


def _unfinished(name, rows):
    """'ranks 8-100', 'rank 5, induction': what of lemma ``name`` the run did not finish."""
    mine = [r["rank"] for r in rows if r["lemma"] == name and r.get("unfinished")]
    ranks = [r for r in mine if r != "all"]
    parts = []
    if ranks:
        parts.append(f"rank {ranks[0]}" if len(ranks) == 1 else f"ranks {ranks[0]}-{ranks[-1]}"
                     if ranks == list(range(ranks[0], ranks[-1] + 1)) else
                     "ranks " + ", ".join(map(str, ranks)))
    if "all" in mine:
        parts.append("induction")
    return ", ".join(parts)


def _failed_already(name, rows):
    """A lemma whose finished rows already miss its expectation, whatever the rest says: a
    refutation of a lemma expected to hold, or an unknown in an erratum's rows."""
    lemma = get_lemma(name)
    done = [r for r in rows if r["lemma"] == name and not r.get("unfinished")]
    if lemma.expected == "proved":
        return any(r["result"] == "refuted" for r in done)
    return any(r["result"] == "unknown" for r in done)
