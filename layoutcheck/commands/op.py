"""`layoutcheck op NAME ARG... [--against ORACLES] [--json]`: one operation on several oracles.

Runs the operation on the spec (the reference) and on every requested oracle (default:
every available one), grades each answer with ``layoutcheck.oracles.compare`` and prints
them side by side.  Exit 1 when an oracle disagrees at the level the operation requires
and no finding of the register explains it; 2 for bad notation, an unknown operation or
an unknown / unavailable oracle.
"""

import json

from layoutcheck.errors import LayoutError

HELP = "run one layout operation on several oracles and compare them with the spec"


def add_arguments(parser):
    from layoutcheck.oracles import OPS
    parser.add_argument("name", metavar="NAME", help="operation: " + ", ".join(OPS))
    parser.add_argument("args", metavar="ARG", nargs="*",
                        help="arguments in CuTe notation: layouts '(6,2):(8,2)', tilers "
                             "'(2:1,(4,2):(1,8))' or '(2,4)', integers '24' or '_24'")
    parser.add_argument("--against", metavar="ORACLES",
                        help="comma-separated oracles: spec, impl, pycute, cute-cpp, cute-dsl, "
                             "module:NAME (default: every available one)")
    parser.add_argument("--sense", choices=("paper", "cute"), default="paper",
                        help="the spec's reading used as the reference: the paper's definitions "
                             "(default) or CuTe's extensions (composition beyond size(A), "
                             "complement/divide rounding N up)")
    parser.add_argument("--json", action="store_true", help="print one JSON object per oracle")


def _oracles(against):
    from layoutcheck.oracles import available_oracles, get_oracle
    names = [n.strip() for n in against.split(",") if n.strip()] if against else available_oracles()
    if not names:
        raise LayoutError("--against names no oracle")
    oracles = []
    for n in dict.fromkeys(names):
        o = get_oracle(n)
        reason = o.unavailable_reason()
        if reason:
            raise LayoutError(f"oracle {n} is unavailable: {reason}")
        oracles.append(o)
    return oracles


def run(args):
    from layoutcheck.oracles import compare, get_oracle, parse_args, verdict
    from layoutcheck.oracles.protocol import format_arg

    op = args.name
    inputs = parse_args(op, args.args)
    oracles = [o for o in _oracles(args.against) if o.name != "spec"]
    sense = getattr(args, "sense", "paper")
    spec = get_oracle("spec", sense=None if sense == "paper" else sense)
    reference = spec.run(op, *inputs)
    rows = []
    for o in [spec] + oracles:
        outcome = reference if o is spec else o.run(op, *inputs)
        if o is spec:
            row = dict(level="reference", agrees=None, required="", verdict=f"reference ({sense})",
                       finding=None, detail="")
        else:
            c = compare(op, inputs, reference, outcome)
            v, fid = verdict(o.name, op, inputs, c)
            row = dict(level=c.level, agrees=c.ok, required=c.required, verdict=v, finding=fid,
                       detail=c.detail)
        rows.append(dict(oracle=o.name, op=op, args=[format_arg(a) for a in inputs],
                         kind=outcome.kind, result=_result(outcome),
                         message=outcome.message or None, **row))
    if args.json:
        for r in rows:
            print(json.dumps(r))
    else:
        _table(op, inputs, rows)
    return 1 if any(r["verdict"] == "disagree" for r in rows) else 0


def _result(outcome):
    if outcome.kind != "ok":
        return None
    v = outcome.value
    return [int(x) for x in v] if isinstance(v, tuple) else str(v)


def _table(op, inputs, rows):
    from layoutcheck.oracles import REQUIRED
    from layoutcheck.oracles.protocol import format_arg
    print(f"{op} {' '.join(format_arg(a) for a in inputs)}    "
          f"(required agreement: {REQUIRED.get(op, 'structure')})")
    shown = []
    for r in rows:
        if r["kind"] == "ok":
            text = r["result"] if isinstance(r["result"], str) else " ".join(map(str, r["result"]))
        else:
            text = f"{r['kind']}: {r['message']}"
        verdict = r["verdict"] + (f" {r['finding']}" if r["finding"] else "")
        shown.append((r["oracle"], _clip(text, 60), r["level"], verdict, _clip(r["detail"], 90)))
    w0 = max(len(s[0]) for s in shown)
    w1 = min(max(len(s[1]) for s in shown), 60)
    w2 = max(len(s[2]) for s in shown)
    print(f"{'oracle':<{w0}}  {'result':<{w1}}  {'level':<{w2}}  verdict")
    for name, text, level, verdict, detail in shown:
        line = f"{name:<{w0}}  {text:<{w1}}  {level:<{w2}}  {verdict}"
        print(line + (f"  ({detail})" if detail else ""))


def _clip(text, n):
    return text if len(text) <= n else text[:n - 3] + "..."
