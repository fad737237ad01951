"""Properties of the user's own layouts, for every runtime shape.

``prove("(M,8):(1,64)", "injective", assume=["M <= 64"])`` answers **proved** (every
assignment of the named variables that satisfies the assumptions), **refuted** (a concrete
assignment, the concrete layouts and the violation, re-checked on ``layoutcheck.spec`` by
plain evaluation: at the points z3 names, and by enumerating the whole property when the
layouts are small) or **unknown** (a solver timeout, too many cases, or a model the spec
does not confirm), never a guess.  With ``exhaustive=N`` an unknown is followed by plain
evaluation of the property at up to N assignments (smallest first), reported as
"checked exhaustively for the N assignments tried", which is no proof; a failing
assignment found that way is a refutation.

Properties (``PROPERTIES``): injective, surjective, compact, sorted, non-degenerate,
no-write-conflicts, ``bijective-onto N``, ``in-bounds N``, ``covers TILE exactly-once``,
``equal L``, ``refines L``, ``coalesces-to L``, ``composable(A, B)``,
``composition(A, B) == R``, ``divides(A, T)``, ``logical_divide(A, T) == R``,
``complement(A, N) == R``.  ``A`` in an argument list is the layout given as ``layout``.
"""

import time

import z3
from layoutcheck.oracles.regions import cute_composition_check
from layoutcheck.proofs.expr import Expr, TileLayout, parse_tiler
from layoutcheck.proofs.opprops import (
    complement_checks,
    composable_checks,
    composition_checks,
    concrete_tiler,
    cute_checks,
    divide_checks,
    tree_of,
)
from layoutcheck.proofs.problem import Problem, leaves
from layoutcheck.proofs.symops import TooManyCases
from layoutcheck.proofs.userprops import UNARY, Relation, TooLarge, build_unary, small_cases

from layoutcheck import spec
from layoutcheck.errors import LayoutError

__all__ = ["prove", "PROPERTIES", "DEFAULT_TIMEOUT", "format_row"]

DEFAULT_TIMEOUT = 20.0
RELATIONS = ("equal", "refines", "coalesces-to")
OPERATIONS = ("composable", "composition", "divides", "logical_divide", "complement")
PROPERTIES = UNARY + RELATIONS + OPERATIONS
ARGS = {"in-bounds": "N", "bijective-onto": "N", "covers": "TILE exactly-once",
        "equal": "L", "refines": "L", "coalesces-to": "L", "composable": "(A, B)",
        "composition": "(A, B) == R", "divides": "(A, T)", "logical_divide": "(A, T) == R",
        "complement": "(A, N) == R"}


def _split_args(text):
    """'(a, (b,c)) == R' -> (['a', '(b,c)'], 'R' or None)."""
    text = text.strip()
    if not text.startswith("("):
        raise LayoutError(f"expected an argument list '(...)', got {text!r}")
    depth, args, cur = 0, [], ""
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
            if depth == 1:
                continue
        elif ch == ")":
            depth -= 1
            if depth == 0:
                args.append(cur.strip())
                rest = text[i + 1:].strip()
                break
        elif ch == "," and depth == 1:
            args.append(cur.strip())
            cur = ""
            continue
        cur += ch
    else:
        raise LayoutError(f"unbalanced parentheses in {text!r}")
    if not rest:
        return args, None
    if not rest.startswith("=="):
        raise LayoutError(f"expected '== R' after the arguments, got {rest!r}")
    return args, rest[2:].strip()


class Question:
    """What ``prove`` asks: ``checks()``, ``holds(env)`` on the spec, ``method``, the
    layouts by name."""

    def __init__(self, checks, holds, method, names):
        self._checks, self.holds, self.method, self.names = checks, holds, method, names

    def checks(self):
        return self._checks()


def parse(problem, layout, prop, sense):
    if not isinstance(prop, str) or not prop.strip():
        raise LayoutError("no property given; one of: " + ", ".join(PROPERTIES))
    prop = prop.strip()
    name = prop.replace("(", " (").split()[0]
    rest = prop[len(name):].strip()
    if name not in PROPERTIES:
        raise LayoutError(f"unknown property {name!r}; one of: " + ", ".join(PROPERTIES))
    if name in OPERATIONS:
        return _operation(problem, layout, name, rest, sense)
    if layout is None:
        raise LayoutError(f"{name} needs a layout (--layout)")
    A = problem.layout(layout, "A")
    if name in RELATIONS:
        if not rest:
            raise LayoutError(f"{name} needs another layout: {name} L")
        rel = Relation(problem, A, name, problem.layout(rest, "L"))
        return Question(rel.checks, rel.holds, rel.method, {"A": A, "L": rel.B})
    arg = None
    if name in ("in-bounds", "bijective-onto"):
        if not rest:
            raise LayoutError(f"{name} needs a bound: {name} N")
        arg = rest
    elif name == "covers":
        words = rest.split()
        if words and words[-1] == "exactly-once":
            rest = rest[:rest.rindex("exactly-once")].strip()
        if not rest:
            raise LayoutError("covers needs a tile: covers TILE exactly-once")
        arg = rest
    elif rest:
        raise LayoutError(f"{name} takes no argument, got {rest!r}")
    u = build_unary(problem, A, name, arg)
    return Question(u.checks, u.holds, u.method, {"A": A})


def _operand(problem, layout, text, name):
    if text == "A":
        if layout is None:
            raise LayoutError("'A' refers to --layout, which is not given")
        text = layout
    return problem.layout(text, name)


def _operation(problem, layout, name, rest, sense):
    if not rest.startswith("("):
        raise LayoutError(f"{name} is written {name}{ARGS[name]} (A: the --layout)")
    args, rhs = _split_args(rest)
    want = {"composable": (2, False), "composition": (2, True), "divides": (2, False),
            "logical_divide": (2, True), "complement": (2, True)}[name]
    if len(args) != want[0] or (rhs is not None) != want[1]:
        raise LayoutError(f"{name} is written {name}{ARGS[name]}")
    if sense not in ("paper", "cute"):
        raise LayoutError(f"sense must be 'paper' or 'cute', got {sense!r}")
    if sense == "cute" and name in ("composition", "logical_divide"):
        raise LayoutError(f"{name}(...) == R is checked in the paper's sense only")
    A = _operand(problem, layout, args[0], "A")
    names = {"A": A}
    if name in ("composable", "composition"):
        names["B"] = _operand(problem, layout, args[1], "B")
    if rhs is not None:
        names["R"] = problem.layout(rhs, "R")
    T = parse_tiler(args[1]) if name in ("divides", "logical_divide") else None
    if T is not None:
        _tiler_conditions(problem, T)
    if name == "complement":
        Nexpr, N = problem.expr(args[1], "the N of complement")
    tA = tree_of(A)
    tB, tR = (tree_of(names[k]) if k in names else None for k in "BR")

    def conc(env, *big):
        c = {k: v.concrete(env) for k, v in names.items()}
        small_cases(*(c[k] for k in big))
        return c

    def test(env):
        """The claim at ``env`` on the spec: None when it holds, else what fails."""
        if name == "composition":
            c = conc(env, "A", "B")
            got = spec.composition(c["A"], c["B"])
            return None if got == c["R"] else f"composition(A, B) = {got}, not R = {c['R']}"
        if name == "composable" and sense == "cute":
            c = conc(env)
            r = cute_composition_check(c["A"], c["B"])
            return None if r is None else f"CuTe's static_assert fails: {r}"
        if name == "composable":
            c = conc(env, "A", "B")
            return None if spec.is_composable(c["A"], c["B"]) else \
                "composition(A, B) is not defined (Def 2.3.7.1)"
        if name == "complement":
            c = conc(env)
            got = spec.complement(c["A"], Nexpr.evaluate(env), sense)
            return None if got == c["R"] else f"complement(A, N) = {got}, not R = {c['R']}"
        c = conc(env, "A")
        got = spec.logical_divide(c["A"], concrete_tiler(T, env), sense)
        if name == "logical_divide":
            return None if got == c["R"] else f"logical_divide(A, T) = {got}, not R"
        return _runs_past(c["A"], T, env) if sense == "cute" else None

    def confirm(env, val):
        try:
            return test(env)
        except LayoutError as e:
            return str(e).split("\n")[0]

    def holds(env):
        try:
            return test(env) is None
        except LayoutError:
            return False

    if name == "composition":
        checks = lambda: composition_checks(problem, tA, tB, tR, confirm)  # noqa: E731
        method = "the paper's composite (Def 2.3.7.1): image, shape(R) refines shape(B) " \
                 "coalesced, pointwise"
    elif name == "composable" and sense == "cute":
        checks = lambda: cute_checks(problem, tA, tB, confirm)  # noqa: E731
        method = "CuTe's composition_impl checks, step by step"
    elif name == "composable":
        checks = lambda: composable_checks(problem, tA, tB, confirm)  # noqa: E731
        method = "image in [0, size A); each leaf of B a layout function (explicit " \
                 "candidates, verified pointwise); the leaves add up"
    elif name == "complement":
        checks = lambda: complement_checks(problem, tA, N, tR, confirm, sense)  # noqa: E731
        method = "sort(squeeze(A)) case by case, Def 2.1.6.25, coal(comp^b(A, N))"
    else:
        checks = lambda: divide_checks(problem, tA, T, confirm, tR, sense)  # noqa: E731
        method = "by mode: the tile's complement in size(A) (Def 2.1.6.25), then " + (
            "CuTe's checks and the tiled index map within size(A)" if sense == "cute" else
            "the composite with (tile, complement)")
    return Question(checks, holds, method, names)


def _tiler_conditions(problem, T):
    """The tiler's own layouts must be layouts (shape entries >= 1, strides >= 0)."""
    if isinstance(T, tuple):
        for t in T:
            _tiler_conditions(problem, t)
    elif isinstance(T, Expr):
        problem.implicit_condition(f"{T} >= 1", problem.env.term(T) >= 1,
                                   problem.env.plain(T) >= 1)
    elif isinstance(T, TileLayout):
        for s, d in zip(leaves(T.shape), leaves(T.stride)):
            problem.implicit_condition(f"{s} >= 1", problem.env.term(s) >= 1,
                                       problem.env.plain(s) >= 1)
            problem.implicit_condition(f"{d} >= 0", problem.env.term(d) >= 0,
                                       problem.env.plain(d) >= 0)


def _runs_past(A, T, env):
    """Where CuTe's logical_divide(A, T) fails: a mode whose composition with (tile,
    complement(tile, size)) trips CuTe's static checks, or whose tiled index map reaches
    outside [0, size of the mode) (the result runs past the tensor)."""
    ms = spec.algebra.top_modes(A) if isinstance(T, tuple) else [A]
    Ts = T if isinstance(T, tuple) else (T,)
    for k, (m, t) in enumerate(zip(ms, Ts)):
        if t == "_":
            continue
        if isinstance(t, tuple):
            r = _runs_past(m, t, env)
        else:
            tl = spec.algebra.as_tiler(concrete_tiler(t, env))
            n = spec.size(m)
            B = spec.make_layout(tl, spec.complement(tl, n, "cute"))
            top = max(spec.values(B))
            check = cute_composition_check(m, B)
            r = (f"mode {k}: CuTe's static_assert fails: {check}" if check else None) or \
                (None if top < n else f"mode {k}: the tile and its CuTe complement reach index "
                 f"{top} >= size {n}: the result runs past the tensor (B = {B})")
        if r:
            return r
    return None


# ---------------------------------------------------------------- running

def prove(layout, prop, assume=(), timeout=DEFAULT_TIMEOUT, sense="paper", exhaustive=0):
    """One row: ``{"property", "layout", "sense", "assume", "implicit", "obligations",
    "result", "seconds", "queries", "counterexample", "note", "method", "exhaustive"}``.
    LayoutError for a malformed question (exit 2 on the command line)."""
    t0 = time.perf_counter()
    if isinstance(assume, str):
        assume = [assume]
    if exhaustive is None or isinstance(exhaustive, bool) or not isinstance(exhaustive, int) \
            or exhaustive < 0:
        raise LayoutError(f"exhaustive must be a non-negative integer, got {exhaustive!r}")
    problem = Problem(assume, timeout)
    q = parse(problem, layout, prop, sense)
    stray = sorted(set(problem.env.vars) - problem.env.used)
    if stray:
        raise LayoutError(f"the assumptions name {', '.join(stray)}, which the question does not "
                          "use (a typo?)")
    problem.check_wellformed()
    result, cex, note = _run(problem, q)
    row = {"property": prop, "layout": layout, "sense": sense,
           "assume": [str(e) for e in problem.assume_exprs],
           "implicit": problem.implicit_texts(),
           "obligations": [t for t, _ in problem.env.obligations],
           "result": result, "counterexample": cex, "note": note, "method": q.method,
           "exhaustive": None}
    if result == "unknown" and exhaustive:
        ex = _exhaustive(problem, q, exhaustive)
        row["exhaustive"] = ex
        if ex.get("counterexample"):
            row["result"], row["counterexample"] = "refuted", ex.pop("counterexample")
            row["note"] = (note + "; " if note else "") + "refuted by the exhaustive search"
    row["queries"] = problem.queries
    row["seconds"] = round(time.perf_counter() - t0, 3)
    return row


def _run(problem, q):
    try:
        checks = q.checks()
    except TooManyCases as e:
        return "unknown", None, f"the case split stopped: {e}"
    unknown = []
    for chk in checks:
        res, model = problem.solve(chk.assertions)
        if res == "unsat":
            continue
        if res == "unknown":
            unknown.append(f"{chk.label}: solver timeout or unknown")
            continue
        cex, why = _refute(problem, q, chk, model)
        if cex is not None:
            return "refuted", cex, chk.label
        unknown.append(f"{chk.label}: {why}")
    if unknown:
        return "unknown", None, "; ".join(unknown)
    return "proved", None, ""


def _refute(problem, q, chk, model, attempts=3):
    """A re-checked counterexample from ``model`` (minimised), or (None, why)."""
    assertions, why = list(chk.assertions), "z3's model does not re-check on the spec"
    for _ in range(attempts):
        model = problem.minimize(assertions, model)
        env = problem.assignment(model)

        def val(t, model=model):
            return model.eval(t, model_completion=True).as_long()
        if problem.satisfies(env):
            try:
                desc = chk.confirm(env, val)
            except TooLarge:
                desc, why = None, "the counterexample is too large to re-check by enumeration"
            except (ArithmeticError, ZeroDivisionError) as e:
                desc, why = None, f"cannot evaluate the counterexample: {e}"
            if desc:
                try:
                    whole = q.holds(env)
                except TooLarge:
                    whole = None
                if whole is not True:
                    layouts = {k: str(v.concrete(env)) for k, v in q.names.items()}
                    return {"assignment": env, "layouts": layouts, "violation": desc,
                            "rechecked": "at the points named" + (
                                "" if whole is None else " and by enumeration")}, ""
                why = "the spec's enumeration disagrees with the point re-check"
        else:
            why = "z3's model does not satisfy the assumptions on re-evaluation"
        vs = problem.env.vars
        if not vs:
            break
        assertions.append(z3.Or([v != env[n] for n, v in vs.items()]))
        res, model = problem.solve(assertions)
        if res != "sat":
            break
    return None, why


def _exhaustive(problem, q, limit):
    """Plain evaluation at up to ``limit`` assignments satisfying the assumptions, the
    smallest (sum of |v|) first, enumerated by z3."""
    vs = problem.env.vars
    cost = z3.Sum([z3.If(v >= 0, v, -v) for v in vs.values()]) if vs else z3.IntVal(0)
    tried, skipped, seen, bound = 0, 0, [], 8
    s = z3.Solver()
    s.set("timeout", max(1, int(problem.timeout * 1000)))
    s.add(*problem.base())
    while tried + skipped < limit and bound <= 1 << 24:
        s.push()
        s.add(cost <= bound)
        while tried + skipped < limit and s.check() == z3.sat:
            env = problem.assignment(s.model())
            s.add(z3.Or([v != env[n] for n, v in vs.items()]) if vs else z3.BoolVal(False))
            if not problem.satisfies(env):
                continue
            try:
                ok = q.holds(env)
            except TooLarge:
                skipped += 1
                continue
            tried += 1
            seen.append(env)
            if not ok:
                layouts = {k: str(v.concrete(env)) for k, v in q.names.items()}
                return {"assignments": tried, "skipped_too_large": skipped, "held": False,
                        "counterexample": {"assignment": env, "layouts": layouts,
                                           "violation": "the property fails here by plain "
                                                        "evaluation on the spec",
                                           "rechecked": "by enumeration"}}
        s.pop()
        if not vs:
            break
        bound *= 4
    ranges = {n: [min(e[n] for e in seen), max(e[n] for e in seen)] for n in vs} if seen else {}
    return {"assignments": tried, "skipped_too_large": skipped, "held": True, "ranges": ranges}


# ---------------------------------------------------------------- text

def _env_text(env):
    return ", ".join(f"{k} = {v}" for k, v in env.items()) or "(no variables)"


def format_row(r):
    lines = [f"property  {r['property']}" + (f"  [{r['sense']}]" if r["sense"] != "paper" else ""),
             f"layout    {r['layout']}" if r["layout"] else None,
             f"assumed   {', '.join(r['assume']) or '(nothing)'}",
             f"implicit  {', '.join(r['implicit'])}" if r["implicit"] else None,
             f"exact     {', '.join(o.split(' is ')[0] for o in r['obligations'])} (proved "
             "from the assumptions)" if r["obligations"] else None]
    head = f"result    {r['result']}"
    c = r["counterexample"]
    if r["result"] == "proved":
        head += " for every assignment satisfying the assumptions"
    elif c and c["assignment"]:
        head += f" for {_env_text(c['assignment'])}"
    lines.append(f"{head}  ({r['queries']} queries, {r['seconds']:.2f} s)")
    if c:
        lines += [f"          {k} = {v}" for k, v in c["layouts"].items()]
        lines.append(f"          {c['violation']}")
        lines.append(f"          re-checked on layoutcheck.spec by plain evaluation "
                     f"({c['rechecked']})")
    if r["result"] == "unknown":
        lines.append(f"          {r['note']}")
    ex = r["exhaustive"]
    if ex and ex["held"]:
        span = ", ".join(f"{n} in {lo}..{hi}" for n, (lo, hi) in ex["ranges"].items())
        lines.append(f"          checked exhaustively for the {ex['assignments']} assignments "
                     f"tried (not a proof; {span or 'no variables'}): holds"
                     + (f"; {ex['skipped_too_large']} too large to enumerate"
                        if ex["skipped_too_large"] else ""))
    lines.append(f"method    {r['method']}")
    return "\n".join(x for x in lines if x is not None)
