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

from layoutcheck import spec
from layoutcheck.errors import LayoutError

from .expr import parse_tiler
from .opprops import (complement_checks, composable_checks, composition_checks,
                      concrete_tiler, cute_checks, divide_checks, tree_of)
from .problem import Problem
from .symops import TooManyCases
from .userprops import UNARY, Relation, TooLarge, _small, build_unary

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


def _parse(problem, layout, prop, sense):
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
    conc = lambda env: {k: v.concrete(env) for k, v in names.items()}  # noqa: E731

    def confirm_with(test):
        def confirm(env, val):
            try:
                return test(env)
            except LayoutError as e:
                return str(e).split("\n")[0]
        return confirm

    if name in ("composable", "composition"):
        tA, tB = tree_of(A), tree_of(names["B"])
        if name == "composition":
            def holds(env):
                c = conc(env)
                _small(c["A"], c["B"])
                return spec.composition(c["A"], c["B"]) == c["R"]

            def test(env):
                c = conc(env)
                _small(c["A"], c["B"])
                got = spec.composition(c["A"], c["B"])
                return None if got == c["R"] else f"composition(A, B) = {got}, not R = {c['R']}"
            checks = lambda: composition_checks(problem, tA, tB, tree_of(names["R"]),  # noqa
                                                confirm_with(test))
            return Question(checks, _false_on_error(holds), "the paper's composite (Def 2.3.7.1):"
                            " image, shape(R) refines shape(B) coalesced, pointwise", names)
        if sense == "cute":
            def holds(env):
                c = conc(env)
                return spec.cute_composition_check(c["A"], c["B"]) is None

            def test(env):
                r = spec.cute_composition_check(*(conc(env)[k] for k in "AB"))
                return None if r is None else f"CuTe's static_assert fails: {r}"
            return Question(lambda: cute_checks(problem, tA, tB, confirm_with(test)), holds,
                            "CuTe's composition_impl checks, step by step", names)

        def holds(env):
            c = conc(env)
            _small(c["A"], c["B"])
            return spec.is_composable(c["A"], c["B"])

        def test(env):
            return None if holds(env) else "composition(A, B) is not defined (Def 2.3.7.1)"
        return Question(lambda: composable_checks(problem, tA, tB, confirm_with(test)), holds,
                        "image in [0, size A); each leaf of B a layout function (explicit "
                        "candidates, verified pointwise); the leaves add up", names)
    if name in ("divides", "logical_divide"):
        T = parse_tiler(args[1])
        tA = tree_of(A)
        _tiler_conditions(problem, T)

        def result(env):
            c = conc(env)
            _small(c["A"])
            return c, spec.logical_divide(c["A"], concrete_tiler(T, env), sense)

        def test(env):
            c, got = result(env)
            if name == "logical_divide":
                return None if got == c["R"] else f"logical_divide(A, T) = {got}, not R"
            return _runs_past(c["A"], T, env) if sense == "cute" else None

        def holds(env):
            return test(env) is None
        R = tree_of(names["R"]) if "R" in names else None
        return Question(lambda: divide_checks(problem, tA, T, confirm_with(test),
                                              R, sense),
                        _false_on_error(holds), "by mode: the tile's complement in size(A) "
                        "(Def 2.1.6.25), then " + ("CuTe's checks and the tiled index map "
                                                  "within size(A)" if sense == "cute" else
                                                  "the composite with (tile, complement)"), names)
    # complement
    Nexpr, N = problem.expr(args[1], "the N of complement")

    def test(env):
        c = conc(env)
        got = spec.complement(c["A"], Nexpr.evaluate(env), sense)
        return None if got == c["R"] else f"complement(A, N) = {got}, not R = {c['R']}"
    return Question(lambda: complement_checks(problem, tree_of(A), N, tree_of(names["R"]),
                                              confirm_with(test), sense),
                    _false_on_error(lambda env: test(env) is None),
                    "sort(squeeze(A)) case by case, Def 2.1.6.25, coal(comp^b(A, N))", names)


def _false_on_error(holds):
    def h(env):
        try:
            return holds(env)
        except LayoutError:
            return False
    return h


def _tiler_conditions(problem, T):
    """The tiler's own layouts must be layouts (shape entries >= 1, strides >= 0)."""
    from .expr import Expr, TileLayout
    from .problem import leaves
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
    """Where CuTe's logical_divide(A, T) runs past the tensor: a mode whose tiled index
    map (tile, complement(tile, size)) reaches outside [0, size of the mode)."""
    ms = spec.algebra._modes(A) if isinstance(T, tuple) else [A]
    Ts = T if isinstance(T, tuple) else (T,)
    for k, (m, t) in enumerate(zip(ms, Ts)):
        if t == "_":
            continue
        if isinstance(t, tuple):
            r = _runs_past(m, t, env)
        else:
            tl = spec.algebra._tiler(concrete_tiler(t, env))
            n = spec.size(m)
            B = spec.make_layout(tl, spec.complement(tl, n, "cute"))
            top = max(spec.values(B))
            r = None if top < n else (f"mode {k}: the tile and its CuTe complement reach index "
                                      f"{top} >= size {n}: the result runs past the tensor "
                                      f"(B = {B})")
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
    q = _parse(problem, layout, prop, sense)
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
    return {"assignments": tried, "skipped_too_large": skipped, "held": True,
            "largest": seen[-1] if seen else None}


# ---------------------------------------------------------------- text

def _env_text(env):
    return ", ".join(f"{k} = {v}" for k, v in env.items()) or "(no variables)"


def format_row(r):
    lines = [f"property  {r['property']}" + (f"  [{r['sense']}]" if r["sense"] != "paper" else ""),
             f"layout    {r['layout']}" if r["layout"] else None,
             f"assumed   {', '.join(r['assume']) or '(nothing)'}",
             f"implicit  {', '.join(r['implicit'])}" if r["implicit"] else None,
             f"proved    {'; '.join(r['obligations'])}" if r["obligations"] else None]
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
        lines.append(f"          checked exhaustively for the {ex['assignments']} assignments "
                     f"tried (not a proof; up to {_env_text(ex['largest'] or {})}): holds"
                     + (f"; {ex['skipped_too_large']} too large to enumerate"
                        if ex["skipped_too_large"] else ""))
    lines.append(f"method    {r['method']}")
    return "\n".join(x for x in lines if x is not None)
