"""`layoutcheck bisect OP ARG... --against cute-cpp@3.3..4.2`: the version that changed an answer.

Runs one case (CuTe notation, as for ``layoutcheck op``) on an ordered list of versions of one
implementation (ranges and lists: ``cute-cpp@3.3..3.8,cute-cpp@4.2``, ``cute-cpp@NAME=DIR``
for a header tree) and prints the first version whose answer differs from the version before it,
with both answers and how each compares with the spec; ``--every`` asks every version and
prints every change (``fuzz/versions/bisect.py``).  ``--json`` prints the result as one object.
Exit 0 when the versions were compared (a change found or not), 2 on bad input or a version that
cannot be fetched.
"""

import json

from layoutcheck.commands.common import oracle_names
from layoutcheck.errors import LayoutError
from layoutcheck.fuzz.versions.bisect import bisect_versions
from layoutcheck.oracles import OPS, parse_args
from layoutcheck.oracles.protocol import format_arg, operation_for
from layoutcheck.oracles.versions import expand, is_versioned

HELP = "find the first version of CuTe C++, pycute or the DSL whose answer to a case differs from the one before"


def add_arguments(parser):
    parser.add_argument("name", metavar="OP", help="operation: " + ", ".join(OPS))
    parser.add_argument("args", metavar="ARG", nargs="*", help="arguments in CuTe notation")
    parser.add_argument("--against", required=True, metavar="VERSIONS",
                        help="ordered versions of one implementation: cute-cpp@3.3..4.2, "
                             "pycute@3.3..3.8,pycute@4.2, cute-dsl@4.5.0..4.8.1")
    parser.add_argument("--every", action="store_true",
                        help="ask every version and print every change (default: halve the range)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")


def _line(e):
    how = e["verdict"] + (f" {e['finding']}" if e["finding"] else "")
    return f"  {e['version']}: {e['answer']}  ({how})"


def run(args):
    op = operation_for(args.name, args.args)
    inputs = parse_args(op, args.args)
    names = expand(oracle_names(args.against, list))
    if not all(is_versioned(n) for n in names):
        raise LayoutError("--against: bisect needs versioned oracles (cute-cpp@3.3..4.2)")
    result = bisect_versions(op, inputs, names, every=args.every)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{op} {' '.join(format_arg(a) for a in inputs)} on {len(names)} versions "
          f"({len(result['tested'])} asked); the spec (CuTe's sense): {result['reference']}")
    if not result["changes"]:
        print(f"no change: every version asked answers as {result['tested'][0]['version']} does")
    for ch in result["changes"]:
        print(f"first change: {ch['before']['version']} -> {ch['after']['version']}" if not args.every
              else f"change: {ch['before']['version']} -> {ch['after']['version']}")
        print(_line(ch["before"]))
        print(_line(ch["after"]))
    print("asked: " + ", ".join(f"{e['version']} ({e['verdict']})" for e in result["tested"]))
    return 0
