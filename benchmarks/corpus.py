"""The fixed benchmark corpora.

``LAYOUTS`` x ``TILERS``: layouts of rank 1-4, nesting up to depth 3, sizes up to 2^16 for the
algebra; 2^16, 2^20, 2^24 elements for evaluation.  ``TINY_LAYOUTS`` x ``TINY_TILERS``:
small layouts, ranks 1-3, sizes <= 64, where a call costs pycute a few microseconds and
impl's per-call overhead decides the ratio; a binary case is kept when A and B have at most
``tiny_leaves(op)`` leaves together, so that pycute takes about 2-25 µs per call on this
machine when it is quiet (``run.py`` prints the range measured).

For each operation, the cases are the (A, B) pairs from the lists on which impl and pycute
both return (so that the same inputs are timed on both); ``small_cases`` keeps the cases of
size <= 2^10 of the first corpus, on which the enumerating spec is timed as well.
"""

from functools import lru_cache

import layoutcheck.impl as I

LAYOUTS = [
    "65536:1",
    "(256,256):(1,256)",
    "(256,256):(256,1)",
    "(16,16,16,16):(1,16,256,4096)",
    "((4,4),(8,8)):((1,4),(16,128))",
    "(((2,2),(2,2)),((4,4),(4,4))):(((1,2),(4,8)),((16,64),(256,1024)))",
    "(32,(16,(8,16))):(1,(32,(512,4096)))",
    "(8,8,16):(128,1,8)",
    "((2,4),(8,16)):((64,128),(1,8))",
    "(64,32):(2,256)",
    "(4,8):(1,4)",
    "((2,2),(2,4)):((1,8),(2,16))",
    "(2,3,4):(12,4,1)",
    "(8,(2,4)):(1,(64,8))",
]

TILERS = [
    "4:1", "16:2", "(4,4):(1,64)", "(2,8):(8,1)", "((2,2),4):((1,32),2)", "(8,8):(1,256)",
    "(2,2):(1,4)", "(4,2):(2,1)", "((2,2),(2,2)):((1,8),(4,32))", "32:1",
]

TINY_LAYOUTS = [
    "8:1", "16:2", "6:3", "(4,8):(1,4)", "(4,8):(8,1)", "(2,4):(4,1)", "(8,8):(1,8)",
    "(3,4):(1,3)", "(6,4):(4,1)", "(16,4):(1,16)", "(2,8):(1,4)", "(4,2):(2,1)",
    "(2,2,2):(1,2,4)", "(2,4,8):(32,8,1)", "(4,4,4):(1,16,4)", "(2,3,2):(1,2,6)",
    "((2,2),4):((1,2),4)", "(4,(2,2)):(2,(1,8))", "(2,(2,2)):(1,(4,2))",
    "((2,4),(2,2)):((1,4),(2,16))", "(4,8)", "(2,(4,2))",
]

TINY_TILERS = [
    "2:1", "4:1", "2:2", "4:2", "8:1", "(2,2):(1,4)", "(2,4):(1,2)", "(4,2):(2,1)",
    "(2,2):(2,1)", "(2:1,4:1)", "(2:2,2:1)", "(2:2)", "(4:1)", "(2:1,_)", "(_,2:1)",
]

def tiny_leaves(op):
    """The most leaves A and B of a binary case of the tiny corpus have together: pycute's
    divide and product cost 3-6x its composition, so they get one leaf fewer."""
    return 3 if "divide" in op or "product" in op else 4


UNARY = ["coalesce", "filter", "complement", "right_inverse", "left_inverse"]
BINARY = ["composition", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
          "logical_product", "zipped_product", "tiled_product", "blocked_product",
          "raked_product"]
PYCUTE_HAS = {"coalesce", "filter", "complement", "right_inverse", "left_inverse",
              "composition", "logical_divide", "zipped_divide", "tiled_divide",
              "logical_product", "zipped_product", "tiled_product"}

EVAL_SIZES = [1 << 16, 1 << 20, 1 << 24]


def eval_layout(n):
    """A 4-mode, non-contiguous-in-order layout of n elements (n a power of 2 >= 2^8)."""
    k = n // 64
    return I.Layout((4, k, 4, 4), (1, 64, 4, 16))


CORPORA = ("main", "tiny")


def _tiler(t):
    return t if isinstance(t, int) else I.parse_tiler(t)


def _leaves(x):
    if isinstance(x, int):
        return 1
    if isinstance(x, tuple):
        return sum(_leaves(t) for t in x)
    if isinstance(x, I.Underscore):
        return 0
    return len(I.flatten(x.shape))


def _pairs(op, corpus="main"):
    if corpus == "tiny":
        if op in UNARY:
            return [(I.parse(a),) for a in TINY_LAYOUTS]
        bs = TINY_TILERS + TINY_LAYOUTS if op == "composition" else TINY_TILERS
        two_layouts = op in ("blocked_product", "raked_product")
        return [(A, B) for A in map(I.parse, TINY_LAYOUTS) for B in map(_tiler, bs)
                if _leaves(A) + _leaves(B) <= tiny_leaves(op)
                and not (two_layouts and isinstance(B, tuple))]
    if op in UNARY:
        return [(I.parse(a),) for a in LAYOUTS]
    if op == "composition":  # B's image must fit in A: use tilers and the layouts as B
        return [(I.parse(a), I.parse(b)) for a in LAYOUTS for b in TILERS + LAYOUTS]
    return [(I.parse(a), I.parse(b)) for a in LAYOUTS for b in TILERS]


def _pycute_layout(L):
    """The pycute form of a layout, of a tuple of tilers, of an int tiler or of ``_`` (None)."""
    import pycute

    def plain(t):
        return tuple(plain(x) for x in t) if isinstance(t, tuple) else int(t)

    if isinstance(L, int):
        return int(L)
    if isinstance(L, I.Underscore):
        return None
    if isinstance(L, tuple):
        return tuple(_pycute_layout(x) for x in L)
    return pycute.Layout(plain(L.shape), plain(L.stride))


@lru_cache(maxsize=None)
def cases(op, corpus="main"):
    """The inputs of ``op``: pairs on which impl returns without evaluating a layout (the
    exact fallback of composition is cut off meanwhile) and pycute returns too, when it has
    op."""
    import layoutcheck.impl.compose as IC
    import pycute

    def no_evaluation(*a, **k):
        raise RuntimeError("the case needs the exact fallback")

    out, exact = [], IC._compose_exact
    IC._compose_exact = no_evaluation
    try:
        for args in _pairs(op, corpus):
            try:
                getattr(I, op)(*args)
                if op in PYCUTE_HAS:
                    getattr(pycute, op)(*[_pycute_layout(a) for a in args])
            except Exception:  # noqa: BLE001  (a case either side declines is not timed)
                continue
            out.append(args)
    finally:
        IC._compose_exact = exact
    return out


@lru_cache(maxsize=None)
def small_cases(op):
    return [args for args in cases(op) if all(I.size(a) <= 1 << 10 for a in args)]


def pycute_cases(op, small=False, corpus="main"):
    chosen = small_cases(op) if small else cases(op, corpus)
    return [tuple(_pycute_layout(a) for a in args) for args in chosen]
