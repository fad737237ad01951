"""Integer expressions over named variables, and CuTe notation whose entries are expressions.

``parse_expr("M/8")``, ``parse_assumptions("M % 64 == 0, 64 <= M <= 2**20")`` and
``parse_layout("((8,M/8),(8,K/8)):((8,64),(1,8*M))")``.  Grammar::

    expr  := or ;  or := and ('or' and)* ;  and := not ('and' not)* ;  not := 'not' not | cmp
    cmp   := sum (('=='|'!='|'<'|'<='|'>'|'>=') sum)*        -- chained: 1 <= M <= 64
    sum   := term (('+'|'-') term)* ;  term := unary (('*'|'/'|'//'|'%') unary)*
    unary := '-' unary | power ;  power := atom ['**' unary]  -- constant exponent >= 0
    atom  := INT | '_' INT (CuTe static) | NAME | '(' expr ')'
    tree  := '(' [tree (',' tree)*] ')' | expr                -- layout := tree ':' tree

In a layout, ``(`` opens a tuple (``(8):(1)`` is rank 1); a one-element tuple followed by an
operator is a parenthesised expression (``(M+1)*2``).  ``/`` is exact division: every use
becomes an *obligation* (the divisor is non-zero and divides) that the caller proves from
the assumptions; ``//`` and ``%`` are Euclidean (z3's ``div``/``mod``: 0 <= a % b < |b|),
evaluated the same way in Python, with a non-zero divisor as obligation.  In an assumption a
division by zero makes the atom false, and ``/`` is refused (write ``//`` or ``%``).
"""

import re

import z3

from layoutcheck.errors import LayoutError

__all__ = ["Expr", "parse_expr", "parse_assumptions", "parse_tree", "parse_layout",
           "parse_tiler", "TileLayout", "holds", "Z3Env", "euclid_div", "euclid_mod", "tree_text"]

_TOKEN = re.compile(r"\s*(?:(?P<int>\d+)|(?P<name>[A-Za-z][A-Za-z0-9_]*)|"
                    r"(?P<op>\*\*|//|==|!=|<=|>=|[-+*/%<>(),:_]))")
_CMP = ("==", "!=", "<", "<=", ">", ">=")
_KEYWORDS = ("and", "or", "not")


def euclid_mod(a, b):
    if b == 0:
        raise ZeroDivisionError
    return a % abs(b)


def euclid_div(a, b):
    return (a - euclid_mod(a, b)) // b


class Expr:
    """A node: ``kind`` in int, var, bin, neg, cmp, and, or, not; ``static`` for ``_N``."""

    def __init__(self, kind, args=(), value=None, static=False):
        self.kind, self.args, self.value, self.static = kind, tuple(args), value, static

    @property
    def is_bool(self):
        return self.kind in ("cmp", "and", "or", "not")

    def variables(self):
        if self.kind == "var":
            return {self.value}
        out = set()
        for a in self.args:
            out |= a.variables()
        return out

    def divisions(self):
        """The (op, a, b) nodes with op in /, //, %."""
        out = [self] if self.kind == "bin" and self.value in ("/", "//", "%") else []
        for a in self.args:
            out += a.divisions()
        return out

    def __str__(self):
        k = self.kind
        if k == "int":
            return ("_" if self.static else "") + str(self.value)
        if k == "var":
            return self.value
        if k == "neg":
            return f"-{_paren(self.args[0])}"
        if k == "not":
            return f"not {_paren(self.args[0])}"
        if k in ("and", "or"):
            return f" {k} ".join(_paren(a) for a in self.args)
        if k == "cmp":
            parts = [str(self.args[0])]
            for op, a in zip(self.value, self.args[1:]):
                parts += [op, str(a)]
            return " ".join(parts)
        a, b = self.args
        op = self.value
        sep = "" if op in ("*", "/", "**") else " "
        return f"{_operand(a, op, False)}{sep}{op}{sep}{_operand(b, op, True)}"

    def evaluate(self, env):
        """The value under ``env`` (name -> int); ZeroDivisionError, ArithmeticError on an
        inexact ``/``, KeyError on an unknown name."""
        k = self.kind
        if k == "int":
            return self.value
        if k == "var":
            return env[self.value]
        if k == "neg":
            return -self.args[0].evaluate(env)
        if k == "not":
            return not self.args[0].evaluate(env)
        if k == "and":
            return all(a.evaluate(env) for a in self.args)
        if k == "or":
            return any(a.evaluate(env) for a in self.args)
        if k == "cmp":
            vals = [a.evaluate(env) for a in self.args]
            return all(_compare(op, x, y) for op, x, y in zip(self.value, vals, vals[1:]))
        a, b = (x.evaluate(env) for x in self.args)
        op = self.value
        if op == "+":
            return a + b
        if op == "-":
            return a - b
        if op == "*":
            return a * b
        if op == "**":
            return a ** b
        if op == "%":
            return euclid_mod(a, b)
        if op == "//":
            return euclid_div(a, b)
        if b == 0 or a % b:
            raise ArithmeticError(f"{self} is not exact: {a}/{b}")
        return a // b


def _paren(e):
    return str(e) if e.kind in ("int", "var") else f"({e})"


_LEVEL = {"+": 1, "-": 1, "*": 2, "/": 2, "//": 2, "%": 2, "**": 3}


def _operand(e, op, right):
    """``e`` as an operand of ``op``: parentheses only where precedence needs them."""
    if e.kind in ("int", "var") and not (e.kind == "int" and e.value < 0):
        return str(e)
    if e.kind == "bin":
        inner, outer = _LEVEL[e.value], _LEVEL[op]
        if inner > outer or (inner == outer and not right and op != "**") or \
                (inner == outer and right and op in ("+", "*") and e.value == op):
            return str(e)
    return f"({e})"


def _compare(op, x, y):
    return {"==": x == y, "!=": x != y, "<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y}[op]


# ------------------------------------------------------------------ z3 translation

class Z3Env:
    """Translates expressions to z3 over one set of variables.

    ``defs`` collects the definitions of exact quotients (a == b q for a fresh q; with the
    obligation b != 0 proved, q is a / b), ``obligations`` the (text, z3 condition) pairs
    that must follow from the assumptions: exact ``/`` and non-zero divisors."""

    def __init__(self, prefix="v_"):
        self.prefix = prefix
        self.vars = {}
        self.used = set()   # the names met outside the assumptions
        self.defs = []
        self.obligations = []
        self._quotients = {}

    def var(self, name):
        if name not in self.vars:
            self.vars[name] = z3.Int(self.prefix + name)
        return self.vars[name]

    def term(self, e):
        """The z3 term of an integer expression of a layout (obligations collected)."""
        k = e.kind
        if k == "int":
            return z3.IntVal(e.value)
        if k == "var":
            self.used.add(e.value)
            return self.var(e.value)
        if k == "neg":
            return -self.term(e.args[0])
        op = e.value
        a, b = (self.term(x) for x in e.args)
        if op in ("+", "-", "*", "**"):
            return _z3arith(op, a, b, e)
        if op == "/":
            key = id(e)
            if key not in self._quotients:
                q = z3.Int(f"{self.prefix}q{len(self._quotients)}")
                self._quotients[key] = q
                self.defs.append(a == b * q)
                pa, pb = self.plain(e.args[0]), self.plain(e.args[1])
                self.obligations.append((f"{e} is an exact division "
                                         f"({_paren(e.args[0])} % {_paren(e.args[1])} == 0)",
                                         z3.And(pb != 0, pa % pb == 0)))
            return self._quotients[key]
        self.obligations.append((f"the divisor of {e} is non-zero", self.plain(e.args[1]) != 0))
        return a / b if op == "//" else a % b

    def plain(self, e):
        """The z3 term with z3's own div/mod for every division (no definitions): the form
        the obligations are stated and proved in."""
        k = e.kind
        if k == "int":
            return z3.IntVal(e.value)
        if k == "var":
            return self.var(e.value)
        if k == "neg":
            return -self.plain(e.args[0])
        op = e.value
        a, b = (self.plain(x) for x in e.args)
        if op in ("+", "-", "*", "**"):
            return _z3arith(op, a, b, e)
        return a % b if op == "%" else a / b

    def assumption(self, e):
        """A boolean assumption; an atom with a zero divisor is false (as in ``holds``)."""
        return self._assumption_term(e, [])

    def _assumption_term(self, e, guards):
        k = e.kind
        if k in ("and", "or", "not"):
            parts = [self._assumption_term(a, guards) for a in e.args]
            return z3.And(parts) if k == "and" else (z3.Or(parts) if k == "or" else z3.Not(parts[0]))
        if k == "cmp":
            ts, nz = [], []
            for a in e.args:
                ts.append(self._int_in_assumption(a, nz))
            atom = z3.And([_z3cmp(op, x, y) for op, x, y in zip(e.value, ts, ts[1:])])
            return z3.And(nz + [atom]) if nz else atom
        raise LayoutError(f"assumption {e} is not a condition (use ==, <, <=, ...)")

    def _int_in_assumption(self, e, nz):
        k = e.kind
        if k == "int":
            return z3.IntVal(e.value)
        if k == "var":
            return self.var(e.value)
        if k == "neg":
            return -self._int_in_assumption(e.args[0], nz)
        op = e.value
        a, b = (self._int_in_assumption(x, nz) for x in e.args)
        if op in ("//", "%"):
            nz.append(b != 0)
            return a / b if op == "//" else a % b
        return _z3arith(op, a, b, e)


def _z3arith(op, a, b, e):
    if op == "**":
        out = z3.IntVal(1)
        for _ in range(e.args[1].value):
            out = out * a
        return out
    return {"+": a + b, "-": a - b, "*": a * b}[op]


def _z3cmp(op, x, y):
    return {"==": x == y, "!=": x != y, "<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y}[op]


def holds(e, env):
    """A boolean assumption under ``env``; an atom with a zero divisor is false."""
    k = e.kind
    if k == "and":
        return all(holds(a, env) for a in e.args)
    if k == "or":
        return any(holds(a, env) for a in e.args)
    if k == "not":
        return not holds(e.args[0], env)
    try:
        return bool(e.evaluate(env))
    except ZeroDivisionError:
        return False


# ------------------------------------------------------------------ parser

class _Parser:
    def __init__(self, text, what):
        if not isinstance(text, str):
            raise LayoutError(f"expected {what} as a string, got {type(text).__name__}")
        self.text, self.what = text, what
        self.toks = []
        pos = 0
        while pos < len(text):
            if text[pos:].strip() == "":
                break
            m = _TOKEN.match(text, pos)
            if not m:
                j = len(text) - len(text[pos:].lstrip())
                self.fail(f"unexpected character {text[j]!r}", j)
            kind = m.lastgroup
            self.toks.append((kind, m.group(kind), m.start(kind)))
            pos = m.end()
        self.i = 0

    def fail(self, msg, pos=None):
        if pos is None:
            pos = self.toks[self.i][2] if self.i < len(self.toks) else len(self.text)
        raise LayoutError(f"malformed {self.what} {self.text!r}: {msg} at position {pos}")

    def peek(self, k=0):
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else (None, None, len(self.text))

    def at(self, *vals):
        kind, val, _ = self.peek()
        return kind in ("op", "name") and val in vals

    def take(self, val=None):
        tok = self.peek()
        if tok[0] is None:
            self.fail(f"expected {val!r}" if val else "unexpected end")
        if val is not None and tok[1] != val:
            self.fail(f"expected {val!r}, found {tok[1]!r}")
        self.i += 1
        return tok

    def done(self):
        if self.i != len(self.toks):
            self.fail(f"unexpected {self.peek()[1]!r}")

    # expressions
    def expr(self):
        items = [self.conj()]
        while self.at("or"):
            self.take()
            items.append(self.conj())
        return items[0] if len(items) == 1 else _typed("or", items, self)

    def conj(self):
        items = [self.neg()]
        while self.at("and"):
            self.take()
            items.append(self.neg())
        return items[0] if len(items) == 1 else _typed("and", items, self)

    def neg(self):
        if self.at("not"):
            self.take()
            return _typed("not", [self.neg()], self)
        return self.cmp()

    def cmp(self, first=None):
        items, ops = [self.sum(first)], []
        while self.at(*_CMP):
            ops.append(self.take()[1])
            items.append(self.sum())
        if not ops:
            return items[0]
        for a in items:
            if a.is_bool:
                self.fail(f"cannot compare the condition {a}")
        return Expr("cmp", items, tuple(ops))

    def sum(self, first=None):
        left = self.term(first)
        while self.at("+", "-"):
            op = self.take()[1]
            left = _arith(op, left, self.term(), self)
        return left

    def term(self, first=None):
        left = self.unary() if first is None else self.power(first)
        while self.at("*", "/", "//", "%"):
            op = self.take()[1]
            left = _arith(op, left, self.unary(), self)
        return left

    def unary(self):
        if self.at("-"):
            self.take()
            a = self.unary()
            if a.is_bool:
                self.fail(f"cannot negate the condition {a}")
            return Expr("int", value=-a.value) if a.kind == "int" else Expr("neg", [a])
        return self.power()

    def power(self, first=None):
        base = self.atom() if first is None else first
        if self.at("**"):
            self.take()
            exp = self.unary()
            if exp.kind != "int" or exp.value < 0 or exp.value > 256:
                self.fail(f"the exponent of ** must be an integer literal in 0..256, got {exp}")
            node = _arith("**", base, exp, self)
            if base.kind == "int":
                return Expr("int", value=base.value ** exp.value)
            return node
        return base

    def atom(self):
        kind, val, pos = self.peek()
        if kind == "int":
            self.take()
            return Expr("int", value=int(val))
        if kind == "op" and val == "_":
            nxt = self.peek(1)
            if nxt[0] == "int" and nxt[2] == pos + 1:
                self.take(), self.take()
                return Expr("int", value=int(nxt[1]), static=True)
            self.fail("'_' is not a value here (a static integer is written _N)")
        if kind == "name":
            if val in _KEYWORDS:
                self.fail(f"unexpected {val!r}")
            self.take()
            return Expr("var", value=val)
        if kind == "op" and val == "(":
            self.take()
            e = self.expr()
            self.take(")")
            return e
        self.fail("expected a number, a name or '('" if kind else "unexpected end")

    # CuTe trees
    def tree(self, allow_underscore=False):
        kind, val, pos = self.peek()
        if kind == "op" and val == "_" and allow_underscore and self.peek(1)[0] != "int":
            self.take()
            return "_"
        if not (kind == "op" and val == "("):
            return self._entry(self.expr())
        self.take("(")
        items = []
        if not self.at(")"):
            items.append(self.tree(allow_underscore))
            while self.at(","):
                self.take()
                items.append(self.tree(allow_underscore))
        self.take(")")
        if len(items) == 1 and isinstance(items[0], Expr) and self.at(
                "+", "-", "*", "/", "//", "%", "**", *_CMP):
            return self._entry(self.cmp(items[0]))  # a parenthesised expression
        return tuple(items)

    def _entry(self, e):
        if e.is_bool:
            self.fail(f"a layout entry must be an integer expression, got the condition {e}")
        return e


def _typed(kind, items, p):
    for a in items:
        if not a.is_bool:
            p.fail(f"'{kind}' needs conditions, got {a}")
    return Expr(kind, items)


def _arith(op, a, b, p):
    for x in (a, b):
        if x.is_bool:
            p.fail(f"arithmetic on the condition {x}")
    if op in ("/", "//", "%") and b.kind == "int" and b.value == 0:
        p.fail(f"division by zero in {a}{op}{b}")
    if a.kind == "int" and b.kind == "int" and op != "/":
        try:
            v = Expr("bin", [a, b], op).evaluate({})
        except ZeroDivisionError:
            p.fail(f"division by zero in {a}{op}{b}")
        return Expr("int", value=v, static=a.static and b.static)
    return Expr("bin", [a, b], op)


def parse_expr(text, what="expression"):
    p = _Parser(text, what)
    e = p.expr()
    p.done()
    return e


def parse_assumptions(texts):
    """Assumptions from strings (each a comma-separated list of conditions) -> [Expr]."""
    if isinstance(texts, str):
        texts = [texts]
    out = []
    for text in texts:
        p = _Parser(text, "assumption")
        if not p.toks:
            continue
        while True:
            e = p.expr()
            if not e.is_bool:
                p.fail(f"{e} is not a condition (use ==, !=, <, <=, >, >=)")
            if any(d.value == "/" for d in _all_divisions(e)):
                p.fail("'/' (exact division) is not allowed in an assumption; write // or %")
            out.append(e)
            if not p.at(","):
                break
            p.take()
        p.done()
    return out


def _all_divisions(e):
    return e.divisions()


def parse_tree(text, what="tuple", allow_underscore=False):
    p = _Parser(text, what)
    t = p.tree(allow_underscore)
    p.done()
    return t


def parse_layout(text, what="layout"):
    """``shape:stride`` (or a bare shape, LayoutLeft strides) -> (shape tree, stride tree or
    None)."""
    p = _Parser(text, what)
    shape = p.tree()
    stride = None
    if p.at(":"):
        p.take()
        stride = p.tree()
    p.done()
    if stride is not None and not _congruent(shape, stride):
        raise LayoutError(f"malformed {what} {text!r}: shape and stride are not congruent")
    return shape, stride


def parse_tiler(text, what="tiler"):
    """A CuTe Tile: a layout, an expression n (n:1), '_' or a tuple of tilers."""
    p = _Parser(text, what)
    t = _tile(p)
    p.done()
    return t


def _tile(p):
    kind, val, _ = p.peek()
    if kind == "op" and val == "_" and p.peek(1)[0] != "int":
        p.take()
        return "_"
    if kind == "op" and val == "(":
        p.take("(")
        items = [] if p.at(")") else [_tile(p)]
        while p.at(","):
            p.take()
            items.append(_tile(p))
        p.take(")")
        if len(items) == 1 and isinstance(items[0], Expr) and p.at(
                "+", "-", "*", "/", "//", "%", "**"):
            node = p._entry(p.cmp(items[0]))
        else:
            node = tuple(items)
    else:
        node = p._entry(p.expr())
    if not p.at(":"):
        return node
    if not _plain_tree(node):
        p.fail("a tile layout's shape holds integers only")
    p.take(":")
    stride = p.tree()
    if not _congruent(node, stride):
        p.fail("the tile's shape and stride are not congruent")
    return TileLayout(node, stride)


class TileLayout:
    """A layout inside a tiler: trees of expressions."""

    def __init__(self, shape, stride):
        self.shape, self.stride = shape, stride

    def __str__(self):
        return f"{tree_text(self.shape)}:{tree_text(self.stride)}"


def _plain_tree(t):
    if isinstance(t, tuple):
        return all(_plain_tree(x) for x in t)
    return isinstance(t, Expr)


def _congruent(a, b):
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(map(_congruent, a, b))
    return not isinstance(b, tuple)


def tree_text(t):
    if isinstance(t, tuple):
        return "(" + ",".join(tree_text(x) for x in t) + ")"
    return str(t)
