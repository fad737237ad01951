"""One question about the user's layouts: variables, assumptions, layouts, and the solver.

A ``Problem`` holds the assumptions (z3 conditions over the named variables), the layouts
(``UserLayout``: trees of expressions, flat z3 modes), what they implicitly require (shape
entries >= 1, stride entries >= 0: a layout exists) and the obligations that must follow
from the assumptions (exact ``/``, non-zero divisors).  ``check_wellformed`` proves the
obligations and that the assumptions can hold; ``solve`` asks one violation query;
``decide`` settles a branch condition (always / never / depends); ``assignment`` reads the
user's variables off a model, smallest first (``minimize``).
"""

import time

import z3
from layoutcheck.proofs.expr import Expr, Z3Env, holds, parse_assumptions, parse_expr, parse_layout, tree_text
from layoutcheck.proofs.solving import CounterModel, check_assertions
from layoutcheck.proofs.symbolic import Mode, SymLayout

from layoutcheck import spec
from layoutcheck.errors import LayoutError
from layoutcheck.integers import C

__all__ = ["Problem", "UserLayout", "leaves", "concrete_tree"]


def leaves(t):
    if isinstance(t, tuple):
        out = []
        for x in t:
            out += leaves(x)
        return out
    return [t]


def _product(exprs):
    out = None
    for e in exprs:
        out = e if out is None else Expr("bin", [out, e], "*")
    return out if out is not None else Expr("int", value=1)


def _default_stride(shape):
    """CuTe's LayoutLeft (compact column-major) strides for a bare shape."""
    seen = []

    def go(t):
        if isinstance(t, tuple):
            return tuple(go(x) for x in t)
        out = _product(seen) if seen else Expr("int", value=1)
        seen.append(t)
        return out
    return go(shape)


def concrete_tree(t, env):
    """A tree of expressions evaluated under ``env`` (ints; ``_N`` literals stay static)."""
    if isinstance(t, tuple):
        return tuple(concrete_tree(x, env) for x in t)
    v = t.evaluate(env)
    return C(v) if t.kind == "int" and t.static else v


class UserLayout:
    """A layout of the user's: ``shape``/``stride`` trees of ``Expr``, ``sym`` its flat
    z3 form (symbolic.SymLayout), ``text`` as written."""

    def __init__(self, text, problem, name="A", trees=None):
        self.name, self.text = name, text
        shape, stride = trees if trees is not None else parse_layout(text, f"layout {name}")
        self.shape = shape
        self.stride = stride if stride is not None else _default_stride(shape)
        self.flat = list(zip(leaves(self.shape), leaves(self.stride)))
        env = problem.env
        self.sym = SymLayout(Mode(env.term(s), env.term(d)) for s, d in self.flat)
        for (s, d), m in zip(self.flat, self.sym.modes):
            problem.implicit_condition(f"{s} >= 1", m.s >= 1, env.plain(s) >= 1)
            problem.implicit_condition(f"{d} >= 0", m.d >= 0, env.plain(d) >= 0)

    @property
    def modes(self):
        return self.sym.modes

    def shape_text(self):
        return tree_text(self.shape)

    def concrete(self, env):
        return spec.Layout(concrete_tree(self.shape, env), concrete_tree(self.stride, env))

    def top_modes(self):
        """The top-level modes as (shape tree, stride tree) pairs (the layout itself at rank
        0 depth)."""
        if isinstance(self.shape, tuple):
            return list(zip(self.shape, self.stride))
        return [(self.shape, self.stride)]

    def __str__(self):
        return f"{tree_text(self.shape)}:{tree_text(self.stride)}"


class Problem:
    def __init__(self, assume=(), timeout=20.0):
        if not timeout > 0:
            raise LayoutError(f"timeout must be positive, got {timeout}")
        self.timeout = timeout
        self.env = Z3Env()
        self.assume_exprs = parse_assumptions(list(assume))
        self.assumed = [self.env.assumption(e) for e in self.assume_exprs]
        self.implicit = []          # (text, z3) a layout requires of the variables
        self.layouts = {}
        self.queries = 0
        self.solver_seconds = 0.0

    # ---------------------------------------------------------------- building
    def layout(self, text, name):
        L = UserLayout(text, self, name)
        self.layouts[name] = L
        return L

    def from_trees(self, shape, stride, name):
        L = UserLayout(f"{tree_text(shape)}:{tree_text(stride)}", self, name, (shape, stride))
        self.layouts[name] = L
        return L

    def expr(self, text, what="expression"):
        e = text if isinstance(text, Expr) else parse_expr(text, what)
        if e.is_bool:
            raise LayoutError(f"{what} {text!r} must be an integer expression, not a condition")
        return e, self.env.term(e)

    def implicit_condition(self, text, cond, plain=None):
        """A condition a layout needs (``cond``; ``plain`` its form with z3's div, in which
        the obligations are proved)."""
        cond = z3.simplify(cond)
        if z3.is_true(cond):
            return
        if z3.is_false(cond):
            raise LayoutError(f"not a layout: {text} fails for every value")
        if text not in [t for t, _, _ in self.implicit]:
            self.implicit.append((text, cond, cond if plain is None else plain))

    def implicit_texts(self):
        """The implicit conditions that the assumptions (and the ones listed before) do not
        already imply: what the answer assumes beyond the user's assumptions."""
        out, known = [], list(self.assumed) + self.env.defs
        shapes_first = sorted(self.implicit, key=lambda c: not c[0].endswith(">= 1"))
        for text, cond, _ in shapes_first:
            if self.solve([z3.Not(cond)], 2.0, base=known)[0] != "unsat":
                out.append(text)
            known.append(cond)
        return out

    def base(self):
        """The assumptions, what the layouts require, and the definitions of quotients."""
        return self.assumed + [c for _, c, _ in self.implicit] + self.env.defs

    def variables(self):
        return sorted(self.env.vars)

    # ---------------------------------------------------------------- solving
    def solve(self, assertions, timeout=None, base=None):
        """'unsat' | 'sat' | 'unknown' and the model on 'sat'.  An unknown is asked once
        more in a fresh z3 context (z3's search follows the ids of the terms, so a query
        can be slow in one process history and quick in another); a model from there
        evaluates this context's terms (runner.CounterModel)."""
        t = timeout or self.timeout
        todo = list(self.base() if base is None else base) + list(assertions)
        t0 = time.perf_counter()
        res, model = check_assertions(todo, t, True)
        if res == "unknown":
            ctx = z3.Context()
            res, model = check_assertions([a.translate(ctx) for a in todo], t, True, ctx)
            model = None if model is None else CounterModel(model, ctx)
        self.solver_seconds += time.perf_counter() - t0
        self.queries += 1
        return res, model

    def decide(self, cond, context=()):
        """True when the assumptions (and ``context``) imply ``cond``, False when they
        imply its negation, None when it depends on the values (or z3 cannot tell)."""
        c = z3.simplify(cond)
        if z3.is_true(c):
            return True
        if z3.is_false(c):
            return False
        budget = min(self.timeout, 5.0)
        if self.solve(list(context) + [z3.Not(c)], budget)[0] == "unsat":
            return True
        if self.solve(list(context) + [c], budget)[0] == "unsat":
            return False
        return None

    def check_wellformed(self):
        """LayoutError unless the assumptions can hold and imply every obligation (with at
        least 10 s per query, whatever the property's timeout)."""
        plain = self.assumed + [p for _, _, p in self.implicit]
        budget = max(self.timeout, 10.0)  # the question's own checks, not the property's
        for text, cond in self.env.obligations:
            res, model = self.solve([z3.Not(cond)], budget, base=plain)
            if res == "sat":
                env = _show(self.assignment(model))
                if "exact" in text:
                    what, cond = text.split(" is an exact division ")
                    raise LayoutError(f"{what} is not an exact division for {env}, which the "
                                      f"assumptions allow: assume {cond[1:-1]}")
                raise LayoutError(f"{text.replace('is non-zero', 'is 0')} for {env}, which "
                                  "the assumptions allow")
            if res == "unknown":
                raise LayoutError(f"cannot establish that {text} from the assumptions "
                                  "(solver timeout): state it as an assumption")
        res, _ = self.solve([], budget)
        if res == "unsat":
            raise LayoutError("the assumptions contradict each other (with the layouts' "
                              "shape entries >= 1): every claim would hold vacuously")
        if res == "unknown":
            raise LayoutError("cannot find any values that satisfy the assumptions "
                              "(solver timeout)")

    def assignment(self, model):
        """The user's variables under ``model`` (unconstrained ones get 0)."""
        return {n: model.eval(v, model_completion=True).as_long()
                for n, v in sorted(self.env.vars.items())}

    def satisfies(self, env):
        """The assumptions and the layouts' requirements, by plain evaluation."""
        if not all(holds(e, env) for e in self.assume_exprs):
            return False
        try:
            for L in self.layouts.values():
                L.concrete(env)
        except (LayoutError, ArithmeticError, ZeroDivisionError):
            return False
        return True

    def minimize(self, assertions, model, rounds=24):
        """A model of ``assertions`` whose variables are small (sum of |v| by bisection;
        a timeout only stops the search early).  Returns the best model found."""
        vs = list(self.env.vars.values())
        if not vs:
            return model
        cost = z3.Sum([z3.If(v >= 0, v, -v) for v in vs])
        best = model
        hi = best.eval(cost, model_completion=True).as_long()
        lo = 0
        s = z3.Solver()
        s.set("timeout", max(1, int(min(self.timeout, 2.0) * 1000)))
        s.add(*self.base(), *assertions)
        for _ in range(rounds):
            if lo >= hi:
                break
            mid = (lo + hi) // 2
            s.push()
            s.add(cost <= mid)
            res = s.check()
            self.queries += 1
            if res == z3.sat:
                best = s.model()
                hi = best.eval(cost, model_completion=True).as_long()
            else:
                lo = mid + 1
            s.pop()
        return best


def _show(env):
    return ", ".join(f"{k} = {v}" for k, v in env.items()) or "every value"
