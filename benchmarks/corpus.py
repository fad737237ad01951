"""The fixed benchmark corpus: layouts of rank 1-4, nesting up to depth 3, sizes up to 2^16
for the algebra; 2^16, 2^20, 2^24 elements for evaluation.

For each operation, the cases are the (A, B) pairs from the lists below on which impl and
pycute both return (so that the same inputs are timed on both); ``SMALL`` keeps the cases of
size <= 2^10, on which the enumerating spec is timed as well.
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


def _pairs(op):
    if op in UNARY:
        return [(I.parse(a),) for a in LAYOUTS]
    if op == "composition":  # B's image must fit in A: use tilers and the layouts as B
        return [(I.parse(a), I.parse(b)) for a in LAYOUTS for b in TILERS + LAYOUTS]
    return [(I.parse(a), I.parse(b)) for a in LAYOUTS for b in TILERS]


def _pycute_layout(L):
    import pycute

    def plain(t):
        return tuple(plain(x) for x in t) if isinstance(t, tuple) else int(t)

    return pycute.Layout(plain(L.shape), plain(L.stride))


@lru_cache(maxsize=None)
def cases(op):
    """The inputs of ``op``: pairs on which impl returns (and pycute too, when it has op)."""
    import pycute
    out = []
    for args in _pairs(op):
        try:
            getattr(I, op)(*args)
            if op in PYCUTE_HAS:
                getattr(pycute, op)(*[_pycute_layout(a) for a in args])
        except Exception:  # noqa: BLE001  (a case either side declines is not timed)
            continue
        out.append(args)
    return out


@lru_cache(maxsize=None)
def small_cases(op):
    return [args for args in cases(op) if all(I.size(a) <= 1 << 10 for a in args)]


def pycute_cases(op, small=False):
    return [tuple(_pycute_layout(a) for a in args) for args in (small_cases(op) if small else cases(op))]
