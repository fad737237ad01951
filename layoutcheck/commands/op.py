"""`layoutcheck op NAME ARG... [--against ORACLES] [--json] [--accept-regions]`: one operation on several oracles.

Runs the operation on the spec (the reference) and on every requested oracle (default:
every available one), grades each answer with ``layoutcheck.oracles.compare`` and prints
them side by side.  Where the spec refuses to enumerate an input this large
(``condition enumeration_limit``), ``impl`` (which never enumerates; its agreement with the
spec is tested) is the reference, and the output says so.  Exit 1 when an oracle disagrees
at the level the operation requires and no finding of the register explains it, when an
oracle crashed (exited, was killed, timed out) and no crash finding explains that crash (its
signal, in its region), or when a finding explains it only by a property of the answer
("known region", answer not checked) unless ``--accept-regions``; 2 for bad notation, an
unknown operation or an unknown / unavailable oracle.  An answer that is no value of the op's
kind (``returned ...``) is garbage, never a refusal, even where the spec refuses.
"""

import json

from layoutcheck import impl
from layoutcheck.commands.common import oracle_names
from layoutcheck.errors import LayoutError
from layoutcheck.oracles import OPS, REQUIRED, available_oracles, compare, get_oracle, parse_args
from layoutcheck.oracles.cpp.toolchain import add_cute_include_argument, apply_cute_include
from layoutcheck.oracles.known import verdict
from layoutcheck.oracles.protocol import ANSWERS, format_arg, format_value, operation_for
from layoutcheck.spec.limits import ENUMERATION_CONDITION

HELP = "run one layout operation on several oracles and compare them with the spec"

VALUES_LIMIT = 1 << 16  # `op values` lists at most this many offsets per oracle


def add_arguments(parser):
    parser.add_argument("name", metavar="NAME",
                        help="operation (CuTe's name; on a swizzle or composed layout the overload for "
                             "it is used): " + ", ".join(OPS))
    parser.add_argument("args", metavar="ARG", nargs="*",
                        help="arguments in CuTe notation: layouts '(6,2):(8,2)', tilers "
                             "'(2:1,(4,2):(1,8))' or '(2,4)', integers '24' or '_24'")
    parser.add_argument("--against", metavar="ORACLES",
                        help="comma-separated oracles: spec, impl, pycute, nvlabs, nvlabs:PATH, cute-cpp, "
                             "cute-dsl, module:NAME[@LINEAGE] (default: every available one)")
    parser.add_argument("--sense", choices=("paper", "cute"), default="paper",
                        help="the reading of the spec and impl: the paper's definitions "
                             "(default) or CuTe's extensions (composition beyond size(A), "
                             "complement/divide rounding N up)")
    parser.add_argument("--json", action="store_true", help="print one JSON object per oracle")
    parser.add_argument("--accept-regions", action="store_true",
                        help="exit 0 on a known region whose answer was not checked (a finding "
                             "recognised by a property of the answer; default: exit 1)")
    add_cute_include_argument(parser)


def _oracles(against, sense):
    oracles = []
    for n in oracle_names(against, available_oracles):
        o = get_oracle(n, sense=sense) if n in ("spec", "impl") and sense == "cute" else get_oracle(n)
        reason = o.unavailable_reason()
        if reason:
            raise LayoutError(f"oracle {n} is unavailable: {reason}")
        oracles.append(o)
    return oracles


def _reference(op, inputs, sense):
    """(oracle, outcome, note): the spec, or impl where the spec refuses by size."""
    kw = {"sense": "cute"} if sense == "cute" else {}
    spec = get_oracle("spec", **kw)
    out = spec.run(op, *inputs)
    if out.kind == "raised" and f"[condition {ENUMERATION_CONDITION}]" in out.message:
        impl = get_oracle("impl", **kw)
        note = (f"reference: impl ({sense}), because the spec refuses: "
                f"{out.message.split(' [condition')[0]}")
        return impl, impl.run(op, *inputs), note
    return spec, out, f"reference ({sense})"


def _check_size(op, inputs):
    if op == "values" and int(impl.size(inputs[0])) > VALUES_LIMIT:
        raise LayoutError(f"values of a layout of size {int(impl.size(inputs[0]))}: `op values` "
                          f"lists at most {VALUES_LIMIT} offsets (use `layoutcheck show --limit N`)")


def run(args):

    apply_cute_include(args)
    op = operation_for(args.name, args.args)  # CuTe's overloads on swizzles and composed layouts
    inputs = parse_args(op, args.args)
    _check_size(op, inputs)
    sense = getattr(args, "sense", "paper")
    oracles = _oracles(args.against, sense)
    ref_oracle, reference, note = _reference(op, inputs, sense)
    oracles = [o for o in oracles if o.name not in ("spec", ref_oracle.name)]
    rows = [dict(oracle=ref_oracle.name, op=op, args=[format_arg(a) for a in inputs],
                 kind=reference.kind, result=_result(op, reference),
                 message=reference.message or None, level="reference", agrees=None,
                 required="", verdict=note, finding=None, detail="")]
    answers = {}
    for o in oracles:  # one batch per oracle
        answers[o.name] = o.run_many([(op, inputs)])[0]
    for o in oracles:
        outcome = answers[o.name]
        c = compare(op, inputs, reference, outcome)
        v, fid = verdict(o.name, op, inputs, c, outcome, reference)
        if reference.kind == "crashed" or (outcome.kind == "crashed" and v != "known"):
            v, fid = "crashed", None  # a crash that no crash finding explains
        rows.append(dict(oracle=o.name, op=op, args=[format_arg(a) for a in inputs],
                         kind=outcome.kind, result=_result(op, outcome),
                         message=outcome.message or None, level=c.level, agrees=c.ok,
                         required=c.required, verdict=v, finding=fid, detail=c.detail,
                         loaded=_loaded(o)))
    if args.json:
        for r in rows:
            print(json.dumps(r))
    else:
        _table(op, inputs, rows)
        for o in oracles:  # what an oracle loaded (nvlabs: its path and files' versions)
            if _loaded(o):
                print(f"{o.name}: {_loaded(o)}")
    failing = ("disagree", "crashed") + (() if getattr(args, "accept_regions", False) else ("known region",))
    return 1 if any(r["verdict"] in failing for r in rows) else 0


def _loaded(oracle):
    """The oracle's ``describe()`` (which code it runs), or None."""
    fn = getattr(oracle, "describe", None)
    try:
        return fn() if callable(fn) else None
    except Exception:  # noqa: BLE001 - a description is optional
        return None


def _result(op, outcome):
    """values as a list of ints, every other answer in CuTe notation (oracles.protocol)."""
    if outcome.kind != "ok":
        return None
    v = outcome.value
    return [int(x) for x in v] if ANSWERS.get(op) == "values" else format_value(op, v)


def _table(op, inputs, rows):
    print(f"{op} {' '.join(format_arg(a) for a in inputs)}    "
          f"(required agreement: {REQUIRED.get(op, 'structure')})")
    shown = []
    for r in rows:
        if r["kind"] == "ok":
            text = r["result"] if isinstance(r["result"], str) else " ".join(map(str, r["result"]))
        else:
            text = f"{r['kind']}: {r['message']}"
        verdict = r["verdict"].upper() if r["verdict"] in ("crashed", "known region") else r["verdict"]
        verdict += f" {r['finding']}" if r["finding"] else ""
        if r["verdict"] == "known region":
            verdict += " (answer not checked)"
        elif r["verdict"] == "known" and r["kind"] == "crashed":
            verdict += " (crashed)"
        shown.append((r["oracle"], _clip(text, 60), r["level"], _clip(verdict, 200),
                      _clip(r["detail"], 90)))
    w0 = max(len(s[0]) for s in shown)
    w1 = min(max(len(s[1]) for s in shown), 60)
    w2 = max(len(s[2]) for s in shown)
    print(f"{'oracle':<{w0}}  {'result':<{w1}}  {'level':<{w2}}  verdict")
    for name, text, level, verdict, detail in shown:
        line = f"{name:<{w0}}  {text:<{w1}}  {level:<{w2}}  {verdict}"
        print(line + (f"  ({detail})" if detail else ""))


def _clip(text, n):
    return text if len(text) <= n else text[:n - 3] + "..."
