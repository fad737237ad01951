"""What one compiled DSL function serves: a case's *structure* and its *runtime values*.

A case's integers are what a DSL kernel gets: a plain ``int`` leaf of the neutral form is a
runtime value (``cutlass.Int32``), a static ``C`` leaf (``_4``) a Python int the DSL keeps
static.  ``split_case(op, args)`` gives ``(key, values)`` in one pass:

* the **key** is ``(op, skeletons)``: each argument's nesting with its static leaves and their
  values; ``("s", v)`` a static leaf, ``"d"`` a runtime leaf, ``("t", items)`` a tuple,
  ``("L", shape, stride)`` a layout, ``"_"`` CuTe's Underscore.  Equal keys, same compiled
  code: the DSL decides everything but the runtime values at trace time;
* the **values** are the runtime leaves, depth first, left to right.

An argument the DSL needs at trace time (a mode index, a target profile) is part of the key
whatever its staticness (``TRACE_TIME``).

The answer of a traced op is recorded once per structure as its *answer skeleton* (the same
encoding, with ``"d"`` a 32-bit and ``"D"`` a 64-bit runtime leaf) and its trace-time text
(``str`` of the DSL's value, ``?`` for a runtime value, ``?{div=N}`` where the DSL knows a
divisor); the compiled code stores the runtime leaves, which ``decode`` puts back.
``trace_disagreement`` checks the trace-time text against the decoded answer: the same
nesting, the same static values, and every runtime value a multiple of the divisor the DSL
claimed at trace time.
"""

import re

from layoutcheck.oracles.protocol import INVALID_ANSWER

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, Underscore

__all__ = ["RUNTIME_CALLS", "ARG_KINDS", "TRACE_TIME", "INT32_MAX", "split_case", "structure_key",
           "build", "answer_skeleton", "count_runtime", "count_slots", "decode", "raw_text",
           "error_text", "trace_disagreement", "runtime_case_problem", "integer_kind"]

INT32_MAX = 2 ** 31 - 1  # runtime values are Int32 (the DSL's integers are 32-bit, like CuTe's int)

# op -> argument kinds (oracles/operations.py) of the forms the runtime path calls
ARG_KINDS = {
    "coalesce": ("layout", "profile?"), "filter": ("layout",), "complement": ("layout", "int"),
    **{op: ("layout", "tiler") for op in (
        "composition", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
        "logical_product", "zipped_product", "tiled_product")},
    "blocked_product": ("layout", "layout"), "raked_product": ("layout", "layout"),
    "right_inverse": ("layout",), "left_inverse": ("layout",), "size": ("layout",),
    "cosize": ("layout",), "rank": ("layout",), "eval_coord": ("layout", "coord"),
    "get_mode": ("layout", "int"), "crd2idx": ("coord", "inttuple", "inttuple?"),
    "idx2crd": ("int", "inttuple"), "slice_": ("layout", "coord"), "dice": ("layout", "coord"),
    "slice_and_offset": ("layout", "coord"), "layout_left": ("inttuple",),
    "shape_div": ("inttuple", "inttuple"), "product": ("inttuple",), "flatten": ("inttuple",),
}

# (op, argument position) the DSL takes as a Python value at trace time: part of the key
TRACE_TIME = {("get_mode", 1), ("coalesce", 1)}


def _underscore(c):
    return c is None or (isinstance(c, tuple) and any(map(_underscore, c)))


def _crd2idx(cute, c, s, d=None):
    # crd2idx(c, shape[, stride]): CuTe's index of c in the layout (shape, stride or LayoutLeft)
    return cute.crd2idx(c, cute.make_layout(s) if d is None else cute.make_layout(s, stride=d))


# op -> fn(cute, *dsl_args) -> the DSL's value (at trace time, inside @cute.jit)
RUNTIME_CALLS = {
    "coalesce": lambda cute, L, p=None: cute.coalesce(L) if p is None else cute.coalesce(L, target_profile=p),
    "filter": lambda cute, L: cute.filter(L),
    "complement": lambda cute, L, n: cute.complement(L, n),
    "composition": lambda cute, L, T: cute.composition(L, T),
    "logical_divide": lambda cute, L, T: cute.logical_divide(L, T),
    "zipped_divide": lambda cute, L, T: cute.zipped_divide(L, T),
    "tiled_divide": lambda cute, L, T: cute.tiled_divide(L, T),
    "flat_divide": lambda cute, L, T: cute.flat_divide(L, T),
    "logical_product": lambda cute, L, T: cute.logical_product(L, T),
    "zipped_product": lambda cute, L, T: cute.zipped_product(L, T),
    "tiled_product": lambda cute, L, T: cute.tiled_product(L, T),
    "blocked_product": lambda cute, L, T: cute.blocked_product(L, T),
    "raked_product": lambda cute, L, T: cute.raked_product(L, T),
    "right_inverse": lambda cute, L: cute.right_inverse(L),
    "left_inverse": lambda cute, L: cute.left_inverse(L),
    "size": lambda cute, L: cute.size(L),
    "cosize": lambda cute, L: cute.cosize(L),
    "rank": lambda cute, L: cute.rank(L),
    "eval_coord": lambda cute, L, c: cute.crd2idx(c, L),
    "get_mode": lambda cute, L, i: cute.get(L, mode=[i]),
    "crd2idx": _crd2idx,
    "idx2crd": lambda cute, i, s: cute.idx2crd(i, s),
    # slice_ without a '_' is the coordinate function L(c) (CuTe's operator())
    "slice_": lambda cute, L, c: cute.slice_(L, c) if _underscore(c) else cute.crd2idx(c, L),
    "dice": lambda cute, L, c: cute.dice(L, c),
    "slice_and_offset": lambda cute, L, c: tuple(cute.slice_and_offset(c, L)),
    "layout_left": lambda cute, s: cute.make_layout(s),
    "shape_div": lambda cute, a, b: cute.shape_div(a, b),
    "product": lambda cute, a: cute.product(a),
    "flatten": lambda cute, a: cute.flatten(a),
}


# --- structure and values ----------------------------------------------------------------

def _split_arg(x, vals, static=False):
    """The skeleton of one argument; appends its runtime leaves to ``vals`` (this runs for
    every case: exact type tests first)."""
    t = type(x)
    if t is int:
        if static:
            return ("s", x)
        vals.append(x)
        return "d"
    if t is C:
        return ("s", int(x))
    if t is tuple:
        return ("t", tuple([_split_arg(e, vals, static) for e in x]))
    if isinstance(x, LayoutBase):
        return ("L", _split_arg(x.shape, vals, static), _split_arg(x.stride, vals, static))
    if isinstance(x, Underscore):
        return "_"
    if isinstance(x, int) and not isinstance(x, bool):
        return _split_arg(int(x), vals, static)
    raise TypeError(f"not a neutral argument of the runtime path: {type(x).__name__}")


def split_case(op, args):
    """``(key, runtime values)`` of a case (see the module docstring)."""
    vals = []
    skels = tuple([_split_arg(a, vals, (op, i) in TRACE_TIME) for i, a in enumerate(args)])
    return (op, skels), vals


def structure_key(op, args):
    return split_case(op, args)[0]


def count_runtime(skel):
    """Runtime leaves of an argument skeleton."""
    if skel == "d":
        return 1
    if skel == "_" or skel[0] == "s":
        return 0
    if skel[0] == "t":
        return sum(count_runtime(e) for e in skel[1])
    return count_runtime(skel[1]) + count_runtime(skel[2])


def runtime_case_problem(op, args):
    """None when the runtime path takes ``op(*args)``, else why not (an op it does not call,
    another arity, an integer outside Int32)."""
    kinds = ARG_KINDS.get(op)
    if kinds is None:
        return f"no runtime-path call of {op}"
    lo = sum(1 for k in kinds if not k.endswith("?"))
    if not lo <= len(args) <= len(kinds):
        return f"the DSL's {op} takes {lo}..{len(kinds)} argument(s) here, got {len(args)}"
    bad = _too_large(args)
    if bad is not None:
        return f"integer {bad} does not fit the CuTe DSL's 32-bit int"
    return None


def _too_large(x):
    if isinstance(x, LayoutBase):
        return _too_large((x.shape, x.stride))
    if isinstance(x, tuple):
        return next((b for b in map(_too_large, x) if b is not None), None)
    if isinstance(x, int) and not isinstance(x, bool) and not 0 <= int(x) <= INT32_MAX:
        return int(x)
    return None


def integer_kind(op, args):
    """How the DSL runs the integers of ``op(*args)``: ``"runtime"`` (every one a runtime
    value), ``"static"`` (every one static, or none) or ``"mixed"``; an argument the DSL
    takes at trace time counts as static."""
    key, vals = split_case(op, args)
    if not vals:
        return "static"
    return "mixed" if any(_has_static(s) for s in key[1]) else "runtime"


def _has_static(skel):
    if skel in ("d", "_"):
        return False
    if skel[0] == "s":
        return True
    if skel[0] == "t":
        return any(map(_has_static, skel[1]))
    return _has_static(skel[1]) or _has_static(skel[2])


# --- trace time: arguments in, the answer's skeleton out ---------------------------------

def build(cute, skel, vals):
    """A skeleton as the DSL's value; ``vals`` yields the runtime leaves (Int32 values)."""
    if skel == "d":
        return next(vals)
    if skel == "_":
        return None  # the DSL's placeholder in coordinates and tilers
    tag = skel[0]
    if tag == "s":
        return skel[1]
    if tag == "t":
        return tuple(build(cute, e, vals) for e in skel[1])
    return cute.make_layout(build(cute, skel[1], vals), stride=build(cute, skel[2], vals))


def answer_skeleton(cute, numeric, r, dyn):
    """The skeleton of a DSL answer; appends its runtime leaves to ``dyn`` (trace time).
    ``numeric`` is ``cutlass.Numeric``."""
    if isinstance(r, cute.Layout):
        return ("L", answer_skeleton(cute, numeric, r.shape, dyn),
                answer_skeleton(cute, numeric, r.stride, dyn))
    if isinstance(r, (tuple, list)):
        return ("t", tuple(answer_skeleton(cute, numeric, e, dyn) for e in r))
    if isinstance(r, bool):
        return ("b", r)
    if isinstance(r, int):
        return ("s", r)
    if isinstance(r, numeric) or hasattr(r, "ir_value"):
        if cute.is_static(r):  # a typed constant: its value
            return ("s", int(r.value if hasattr(r, "value") else r))
        dyn.append(r)
        return "d" if getattr(type(r), "width", 32) <= 32 else "D"
    raise TypeError(f"unexpected part of a DSL answer: {type(r).__name__}")


def count_slots(skel):
    """int32 slots of an answer skeleton's runtime leaves (``"d"``: 1, ``"D"``: 2)."""
    if skel == "d":
        return 1
    if skel == "D":
        return 2
    if skel[0] in ("s", "b"):
        return 0
    if skel[0] == "t":
        return sum(count_slots(e) for e in skel[1])
    return count_slots(skel[1]) + count_slots(skel[2])


def _neutral(skel, it):
    if skel == "d":
        return int(next(it))
    if skel == "D":
        lo, hi = int(next(it)) & 0xFFFFFFFF, int(next(it))
        return (hi << 32) | lo
    tag = skel[0]
    if tag == "s":
        return C(skel[1])
    if tag == "b":
        return bool(skel[1])
    if tag == "t":
        return tuple(_neutral(e, it) for e in skel[1])
    return LayoutBase(_neutral(skel[1], it), _neutral(skel[2], it))  # LayoutError: invalid


def decode(skel, row):
    """The answer in the neutral form: ``C`` where the DSL's answer is static, ``int`` where
    it is a runtime value read back from ``row`` (raises LayoutError for an invalid layout)."""
    return _neutral(skel, iter(row))


def raw_text(skel, row):
    """The answer as text from its skeleton and raw values (for invalid answers)."""
    it = iter(row)

    def go(s):
        if s in ("d", "D"):
            return str(_neutral(s, it))
        if s[0] in ("s", "b"):
            return f"_{s[1]}"
        if s[0] == "t":
            return "(" + ",".join(go(e) for e in s[1]) + ")"
        return go(s[1]) + ":" + go(s[2])
    return go(skel)


def error_text(e):
    """One line of a DSL exception (its ``error:`` line when it has one), colours removed."""
    text = re.sub(r"\x1b\[[0-9;]*m", "", str(e))
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    detail = next((ln for ln in lines if ln.startswith("error:")), lines[0] if lines else "")
    return f"{type(e).__name__}: {detail}"[:400]


# --- the trace-time answer against the run-time answer -------------------------------------

_TOKEN = re.compile(r"\s*(?:(\()|(\))|(,)|(:)|(\?)(?:\{div=(\d+)\})?|(-?\d+)|(True|False))")
_WRAPPED = re.compile(r"\b[A-Za-z]\w*\(\s*(\?(?:\{div=\d+\})?|-?\d+)\s*\)")  # Int32(?) -> ?


def _parse_trace(text):
    """The DSL's trace-time text as a tree: ``("?", div)``, ``int``, ``bool``, ``("t", items)``
    or ``("L", shape, stride)``; None when it is not such a text."""
    text = _WRAPPED.sub(r"\1", text.strip())
    toks, pos = [], 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            return None
        toks.append(m)
        pos = m.end()
    toks = [t for t in toks if t.group(0).strip()]

    def term(i):
        t = toks[i]
        if t.group(1):
            items, i = [], i + 1
            while not toks[i].group(2):
                item, i = layout(i)
                items.append(item)
                if toks[i].group(3):
                    i += 1
            return ("t", tuple(items)), i + 1
        if t.group(5):
            return ("?", int(t.group(6)) if t.group(6) else None), i + 1
        if t.group(7):
            return int(t.group(7)), i + 1
        if t.group(8):
            return t.group(8) == "True", i + 1
        raise IndexError

    def layout(i):
        a, i = term(i)
        if i < len(toks) and toks[i].group(4):
            b, i = term(i + 1)
            return ("L", a, b), i
        return a, i
    try:
        tree, end = layout(0)
    except IndexError:
        return None
    return tree if end == len(toks) else None


def _differs(tree, value):
    """Why the trace-time tree does not describe ``value`` (the decoded answer), or None."""
    if isinstance(value, LayoutBase):
        if not (isinstance(tree, tuple) and tree[0] == "L"):
            return "a layout at run time, no layout at trace time"
        return _differs(tree[1], value.shape) or _differs(tree[2], value.stride)
    if isinstance(value, tuple):
        if not (isinstance(tree, tuple) and tree[0] == "t" and len(tree[1]) == len(value)):
            return f"the nesting differs at {value}"
        return next((w for w in map(_differs, tree[1], value) if w), None)
    if isinstance(value, bool):
        return None if tree is value else f"{value} at run time, {tree} at trace time"
    if isinstance(tree, tuple) and tree[0] == "?":
        if isinstance(value, C):
            return f"static {int(value)} at run time, a runtime value at trace time"
        if tree[1] and int(value) % tree[1]:
            return f"{int(value)} is no multiple of {tree[1]}, the divisor known at trace time"
        return None
    if isinstance(tree, int) and not isinstance(tree, bool):
        if not isinstance(value, C):
            return f"runtime {int(value)} where the trace time printed the constant {tree}"
        return None if int(value) == tree else f"{int(value)} at run time, {tree} at trace time"
    return f"{value} at run time, {tree} at trace time"


def trace_disagreement(trace_text, value):
    """None when the trace-time text describes the decoded answer ``value``, else the
    ``raised`` message of an invalid answer (oracles.protocol.INVALID_ANSWER) that says how
    they differ.  A text this reader does not know is no disagreement (the run-time answer
    is read exactly either way)."""
    if trace_text is None:
        return None
    tree = _parse_trace(trace_text)
    if tree is None:
        return None
    why = _differs(tree, value)
    if why is None:
        return None
    return f"{INVALID_ANSWER}an answer whose trace-time form {trace_text} disagrees with its run-time value: {why}"


def check_answer_kind(kind, value):
    """Raise LayoutError unless ``value`` is of the answer kind (oracles/operations.py)."""
    ok = {"layout": lambda v: isinstance(v, LayoutBase),
          "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
          "bool": lambda v: isinstance(v, bool),
          "inttuple": lambda v: isinstance(v, (int, tuple)) and not isinstance(v, bool),
          "layout_offset": lambda v: (isinstance(v, tuple) and len(v) == 2
                                      and isinstance(v[0], LayoutBase) and isinstance(v[1], int))}
    test = ok.get(kind)
    if test is not None and not test(value):
        raise LayoutError(f"not a value of kind {kind}")
