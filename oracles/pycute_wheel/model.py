"""A model of pycute's layout algebra (the pycute of the ``nvidia-cutlass`` 4.2.0.0 wheel).

The findings register calls a pycute failure *known* only when pycute's answer is exactly
what a registered bug or convention produces (DESIGN.md, "Answer-precise findings").  This
module recomputes that answer: it follows the algorithms pycute documents in its source
comments and docstrings (coalesce by merging neighbours with ``s d == d'``; composition by
walking B's stride through the modes of coalesce(A), asserting the stride-divisibility
condition; complement from the sorted (stride, shape) pairs; the right inverse that stops at
the first stride that is not the running product; the left inverse as the right inverse of
``(L, complement(L))``; divides and products from those; ``logical_product`` with an int
tiler going to ``logical_divide``).  It is written for this harness, on plain Python ints,
and is checked against pycute by ``tests/test_known_precise.py``.

``answer(op, *args)`` returns the ``Outcome`` pycute's oracle (``module:pycute``) gives:
``ok`` with a ``LayoutBase``/int, or ``raised`` with the exception's type name first, as the
oracle reports it (``AssertionError (no message)``, ``ValueError: ...``).
"""

from layoutcheck.oracles.protocol import Outcome

from layoutcheck.errors import LayoutError
from layoutcheck.layout import LayoutBase, Underscore

__all__ = ["answer", "matches", "Raise", "SUPPORTED"]


class Raise(Exception):
    """pycute raises here: ``kind`` is the Python exception type pycute raises."""

    def __init__(self, kind, text=""):
        super().__init__(f"{kind}: {text}" if text else kind)
        self.kind, self.text = kind, text


def _need(cond, kind="AssertionError", text=""):
    if not cond:
        raise Raise(kind, text)


class _L:
    """A pycute layout: shape and stride as plain nested tuples / ints."""

    __slots__ = ("shape", "stride")

    def __init__(self, shape, stride=None):
        self.shape = shape
        self.stride = _prefix(shape, 1) if stride is None else stride

    def rank(self):
        return len(self.shape) if isinstance(self.shape, tuple) else 1

    def mode(self, i):
        if isinstance(self.shape, tuple):
            if i >= len(self.shape):
                raise Raise("IndexError", "tuple index out of range")
            return _L(self.shape[i], self.stride[i])
        _need(i == 0)
        return self

    def modes(self):
        return [self.mode(i) for i in range(self.rank())] if isinstance(self.shape, tuple) else [self]

    def __call__(self, i):
        return _crd2idx(i, self.shape, self.stride)


def _flat(t):
    return tuple(x for e in t for x in _flat(e)) if isinstance(t, tuple) else (t,)


def _product(t):
    n = 1
    for x in (t if isinstance(t, tuple) else (t,)):
        n *= _product(x) if isinstance(x, tuple) else x
    return n


def _prefix(shape, init):
    """pycute's exclusive prefix product of a shape (the default, column-major strides)."""
    if not isinstance(shape, tuple):
        return init
    out = []
    for s in shape:
        out.append(_prefix(s, init))
        init = init * _product(s)
    return tuple(out)


def _crd2idx(crd, shape, stride):
    """An index (int coordinate) mapped through a nested shape, as pycute's crd2idx does:
    the last mode of a tuple takes what is left, an empty tuple has no last mode."""
    if not isinstance(shape, tuple):
        return crd * stride
    total = 0
    for s, d in zip(shape[:-1], stride[:-1]):
        n = _product(s)
        total += _crd2idx(crd % n, s, d)
        crd //= n
    if not shape:
        raise Raise("IndexError", "tuple index out of range")
    return total + _crd2idx(crd, shape[-1], stride[-1])


def _size(L):
    return _product(L.shape)


def _cosize(L):
    return L(_size(L) - 1) + 1


def _make(layouts):
    layouts = list(layouts)
    if not layouts:  # pycute unpacks zip(*()) into shape, stride
        raise Raise("ValueError", "not enough values to unpack (expected 2, got 0)")
    return _L(tuple(x.shape for x in layouts), tuple(x.stride for x in layouts))


def _from_pairs(shapes, strides):
    if len(shapes) == 1:
        return _L(shapes[0], strides[0])
    return _L(tuple(shapes), tuple(strides))


# --- the operations --------------------------------------------------------------------

def coalesce(L, profile=None):
    if isinstance(profile, tuple):
        _need(L.rank() >= len(profile))
        ms = L.modes()
        return _make([coalesce(ms[i], p) for i, p in enumerate(profile)] + ms[len(profile):])
    shapes, strides = [1], [0]
    for s, d in zip(_flat(L.shape), _flat(L.stride)):
        if s == 1:
            continue
        if shapes[-1] == 1:
            shapes[-1], strides[-1] = s, d
        elif shapes[-1] * strides[-1] == d:
            shapes[-1] *= s
        else:
            shapes.append(s)
            strides.append(d)
    return _from_pairs(shapes, strides)


def filter_(L, profile=None):
    if isinstance(profile, tuple):
        _need(L.rank() >= len(profile))
        ms = L.modes()
        return _make([filter_(ms[i], p) for i, p in enumerate(profile)] + ms[len(profile):])
    kept = [(s, d) for s, d in zip(_flat(L.shape), _flat(L.stride)) if s != 1 and d != 0]
    if not kept:
        return _L(1, 0)
    return coalesce(_L(tuple(s for s, _ in kept), tuple(d for _, d in kept)))


def composition(A, B):
    if B is None:
        return A
    if isinstance(B, int):
        return composition(A, _L(B))
    if isinstance(B, tuple):
        _need(A.rank() >= len(B))
        ms = A.modes()
        return _make([composition(ms[i], b) for i, b in enumerate(B)] + ms[len(B):])
    if isinstance(B.shape, tuple):
        return _make(composition(A, b) for b in B.modes())
    if B.stride == 0:
        return _L(B.shape, 0)
    cA = coalesce(A)
    a_shapes, a_strides = _flat(cA.shape), _flat(cA.stride)
    out_s, out_d = [], []
    rest_shape, rest_stride = B.shape, B.stride
    for cs, cd in zip(a_shapes[:-1], a_strides[:-1]):
        _need(cs % rest_stride == 0 or rest_stride % cs == 0)  # stride divisibility
        take = min(max(1, cs // rest_stride), rest_shape)
        if take != 1:
            out_s.append(take)
            out_d.append(rest_stride * cd)
        rest_shape //= take
        rest_stride = -(-rest_stride // cs)  # ceil for positive strides
    if rest_shape != 1 or not out_s:
        out_s.append(rest_shape)
        out_d.append(rest_stride * a_strides[-1])
    return _from_pairs(out_s, out_d)


def complement(L, max_idx=1):
    shapes, strides, cur = [], [], 1
    for d, s in sorted(zip(_flat(L.stride), _flat(L.shape))):
        if d == 0 or s == 1:
            continue
        _need(cur <= s * d)
        shapes.append(d // cur)
        strides.append(cur)
        cur = s * d
    shapes.append((max_idx + cur - 1) // cur)
    strides.append(cur)
    return coalesce(_L(tuple(shapes), tuple(strides)))


def right_inverse(L):
    fs = _flat(L.shape)
    shapes, strides, cur = [], [], 1
    for d, s, p in sorted(zip(_flat(L.stride), fs, _flat(_prefix(fs, 1)))):
        if s == 1:
            continue
        if d != cur:
            break
        shapes.append(s)
        strides.append(p)
        cur = s * d
    return coalesce(_L(tuple(shapes), tuple(strides)))


def left_inverse(L):
    return right_inverse(_make([L, complement(L)]))


def logical_divide(A, B):
    if B is None:
        return A
    if isinstance(B, int):
        return logical_divide(A, _L(B))
    if isinstance(B, tuple):
        _need(A.rank() >= len(B))
        ms = A.modes()
        return _make([logical_divide(ms[i], b) for i, b in enumerate(B)] + ms[len(B):])
    return composition(A, _make([B, complement(B, _size(A))]))


def logical_product(A, B):
    if B is None:
        return A
    if isinstance(B, int):  # pycute sends an int tiler to logical_divide (finding F-076)
        return logical_divide(A, _L(B))
    if isinstance(B, tuple):
        _need(A.rank() >= len(B))
        ms = A.modes()
        return _make([logical_product(ms[i], b) for i, b in enumerate(B)] + ms[len(B):])
    return _make([A, composition(complement(A, _size(A) * _cosize(B)), B)])


def _unzip(split, A, B):
    """pycute's hier_unzip: gather the (tile, rest) pairs of a by-mode divide or product."""
    if B is None:
        return _make([_L(1, 0), A])
    if isinstance(B, tuple):
        _need(A.rank() >= len(B))
        ms = A.modes()
        parts = [_unzip(split, ms[i], b) for i, b in enumerate(B)]
        return _make([_make(p.mode(0) for p in parts),
                      _make([p.mode(1) for p in parts] + ms[len(B):])])
    return split(A, B)


def _tiled(Z):
    rest = Z.mode(1)
    return _make([Z.mode(0)] + [rest.mode(i) for i in range(rest.rank())])


OPS = {
    "coalesce": coalesce,
    "filter": filter_,
    "composition": composition,
    "complement": complement,
    "right_inverse": right_inverse,
    "left_inverse": left_inverse,
    "logical_divide": logical_divide,
    "zipped_divide": lambda A, B: _unzip(logical_divide, A, B),
    "tiled_divide": lambda A, B: _tiled(_unzip(logical_divide, A, B)),
    "logical_product": logical_product,
    "zipped_product": lambda A, B: _unzip(logical_product, A, B),
    "tiled_product": lambda A, B: _tiled(_unzip(logical_product, A, B)),
    "size": _size,
    "cosize": _cosize,
    "values": lambda L: tuple(L(i) for i in range(_size(L))),
}
SUPPORTED = tuple(OPS)


def _to(x):
    if isinstance(x, LayoutBase):
        return _L(_plain(x.shape), _plain(x.stride))
    if isinstance(x, tuple):
        return tuple(_to(e) for e in x)
    if x is None or isinstance(x, Underscore):
        return None
    return int(x)


def _plain(t):
    return tuple(_plain(e) for e in t) if isinstance(t, tuple) else int(t)


def answer(op, *args):
    """The Outcome pycute's oracle gives for ``op(*args)`` according to the model, or None
    for an op the model does not cover."""
    fn = OPS.get(op)
    if fn is None:
        return None
    try:
        r = fn(*[_to(a) for a in args])
    except Raise as e:
        return Outcome.raised(f"{e.kind}: {e.text}" if e.text else f"{e.kind} (no message)")
    except (ZeroDivisionError, RecursionError) as e:
        return Outcome.raised(f"{type(e).__name__}: {e}")
    except TypeError:  # arguments outside what the model covers
        return None
    if isinstance(r, _L):
        try:
            return Outcome.ok(LayoutBase(r.shape, r.stride))
        except LayoutError as e:
            return Outcome.raised(f"returned an invalid layout {r.shape}:{r.stride}: {e}")
    return Outcome.ok(r)


def _exception_name(message):
    return message.split(":")[0].split(" ")[0]


# Exceptions whose text comes from the interpreter's arithmetic, not from pycute: the model
# reaches them by its own arithmetic, so only their type is compared.
ARITHMETIC = ("ZeroDivisionError", "RecursionError")


def matches(answer, model):
    """Whether the oracle's ``answer`` (an Outcome) is exactly the model's: the same layout
    (or number) structurally; the same invalid layout (the adapter's ``returned an invalid
    layout ...``, word for word); or the same exception, type and message (pycute's bare
    ``assert`` has none; for an arithmetic error the type)."""
    if model is None or answer is None:
        return False
    if model.kind == "ok":
        return answer.kind == "ok" and type(answer.value) is type(model.value) and answer.value == model.value
    if answer.kind != "raised" or model.kind != "raised":
        return False
    if _exception_name(model.message) in ARITHMETIC:
        return _exception_name(answer.message) == _exception_name(model.message)
    return answer.message == model.message
