"""A model of CuTe C++'s layout algebra (``include/cute/layout.hpp`` of the cutlass 4.2 headers)
with CuTe's integer types: a static ``C`` is ``Int<N>``, a plain ``int`` a runtime integer.

The findings register calls a cute-cpp (or CuTe DSL) failure *known* only when the answer is
exactly what a registered bug or convention produces (DESIGN.md, "Answer-precise findings").
This module recomputes that answer from the algorithms as the header documents them, type
decisions included: CuTe decides at compile time, so a branch that needs a static value
(``is_constant<1, ...>``, a merge in ``bw_coalesce``, the ``static_assert`` of the stride and
shape divisibility conditions) is taken only when the integers are static.  Written for this
harness in Python; checked against the real headers by ``tests/test_known_precise.py``.

``answer(op, *args)`` returns the ``Outcome`` the cute-cpp oracle gives: ``ok`` with a
``LayoutBase``; ``raised`` with the ``static_assert`` text for a compile-time rejection
(``Reject``) or ``runtime abort (SIGFPE)`` for a division by a runtime zero (``Abort``).
With ``static=True`` every input integer is made static first (the CuTe DSL's arithmetic).
"""

from layoutcheck.oracles.predicates import UNCHECKED
from layoutcheck.oracles.protocol import Outcome

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, Underscore

__all__ = ["answer", "matches", "run", "checked", "Reject", "Abort", "SUPPORTED", "OPS"]


class Reject(Exception):
    """CuTe rejects the case at compile time (``text``: the static_assert or error)."""


class Abort(Exception):
    """The program dies at run time (a division by a runtime zero: SIGFPE); ``where`` names
    the CuTe function that divided first (``composition`` or ``complement``).  A case that
    does not compile never runs, so a compile-time rejection anywhere in it wins."""

    where = None


_WHERE = []   # the CuTe functions being modelled (innermost last)
_ABORTS = []  # where a runtime division by zero happened in this run


def _located(where):
    def wrap(fn):
        def located(*args, **kw):
            _WHERE.append(where)
            try:
                return fn(*args, **kw)
            finally:
                _WHERE.pop()
        located.__name__, located.__doc__ = fn.__name__, fn.__doc__
        return located
    return wrap


def _st(x):
    return isinstance(x, C)


def _is(v, x):  # is_constant<v, decltype(x)>
    return isinstance(x, C) and int(x) == v


def _typed(v, *src):  # static iff every source is static
    return C(v) if all(map(_st, src)) else int(v)


def _div(a, b):
    """a / b.  A static division by zero does not compile; a runtime one dies (SIGFPE) when
    the program runs, which it only does if every case compiles: it is noted, and the model
    goes on (with b = 1) so that a compile-time rejection later in the case still wins."""
    if int(b) == 0:
        if _st(a) and _st(b):
            raise Reject("division by zero in a constant expression")
        _ABORTS.append(_WHERE[-1] if _WHERE else None)
        b = 1
    return a // b


def _cdiv(a, b):  # ceil_div(a, b) = (a + b - _1) / b, or its tuple forms
    if isinstance(a, tuple):
        out, rest = [], b
        for x in a:
            out.append(_cdiv(x, rest))
            rest = _cdiv(rest, x)
        return tuple(out)
    return _div(a + b - C(1), b)


def _min(a, b):
    return _typed(min(int(a), int(b)), a, b)


def flat_leaves(t):
    return [x for e in t for x in flat_leaves(e)] if isinstance(t, tuple) else [t]


def cute_product(t):
    n = C(1)
    for x in flat_leaves(t):
        n = n * x
    return n


class _L:
    __slots__ = ("shape", "stride")

    def __init__(self, shape, stride):
        self.shape, self.stride = shape, stride

    def rank(self):
        return len(self.shape) if isinstance(self.shape, tuple) else 1

    def modes(self):
        if not isinstance(self.shape, tuple):
            return [self]
        return [_L(s, d) for s, d in zip(self.shape, self.stride)]


def _make(layouts):  # make_layout(L0, L1, ...): the modes side by side
    layouts = list(layouts)
    if not layouts:
        raise Reject("no matching function for call to make_layout() (no modes)")
    return _L(tuple(x.shape for x in layouts), tuple(x.stride for x in layouts))


def _pack(shapes, strides):
    return _L(shapes[0], strides[0]) if len(shapes) == 1 else _L(tuple(shapes), tuple(strides))


# --- coalesce, filter ---------------------------------------------------------------------

def _bw_coalesce(fs, fd, s0, d0):
    """The back-to-front merge of ``bw_coalesce`` (modes ``fs``/``fd`` before the seed
    ``s0:d0``): a static size-1 mode is skipped, a static size-1 seed replaced, a mode merged
    only when ``s d == d'`` holds *statically*, else prepended."""
    shapes, strides, leaf = [s0], [d0], True
    for s, d in zip(reversed(fs), reversed(fd)):
        if _is(1, s):
            continue
        if leaf and _is(1, shapes[0]):
            shapes, strides = [s], [d]
            continue
        prod = s * d
        if _st(shapes[0]) and _st(prod) and _st(strides[0]) and int(prod) == int(strides[0]):
            shapes[0], strides[0] = s * shapes[0], d
        else:
            shapes.insert(0, s)
            strides.insert(0, d)
            leaf = False
    if leaf and _is(1, shapes[0]):
        return _L(C(1), C(0))
    return _L(shapes[0], strides[0]) if leaf else _L(tuple(shapes), tuple(strides))


def coalesce(L, profile=None):
    if isinstance(profile, tuple):
        if len(profile) > L.rank():
            raise Reject("static assertion failed")
        ms = L.modes()
        return _make([coalesce(ms[i], p) for i, p in enumerate(profile)] + ms[len(profile):])
    fs, fd = flat_leaves(L.shape), flat_leaves(L.stride)
    if not fs:
        raise Reject("get<-1> of an empty tuple in coalesce")
    return _bw_coalesce(fs[:-1], fd[:-1], fs[-1], fd[-1])


def _coalesce_x(L):
    """coalesce that keeps A's function past its end: a trailing size-1 mode seeds as _2:d."""
    fs, fd = flat_leaves(L.shape), flat_leaves(L.stride)
    if not fs:
        raise Reject("get<-1> of an empty tuple in coalesce_x")
    last = C(2) if _is(1, fs[-1]) else fs[-1]
    return _bw_coalesce(fs[:-1], fd[:-1], last, fd[-1])


def _filter_zeros(shape, stride):
    if isinstance(shape, tuple):
        return tuple(_filter_zeros(s, d) for s, d in zip(shape, stride))
    return C(1) if _is(0, stride) else shape


def filter_(L, profile=None):
    if isinstance(profile, tuple):
        if len(profile) > L.rank():
            raise Reject("static assertion failed")
        ms = L.modes()
        return _make([filter_(ms[i], p) for i, p in enumerate(profile)] + ms[len(profile):])
    return coalesce(_L(_filter_zeros(L.shape, L.stride), L.stride))


# The CuTe DSL's dialect of the algorithm (``run(..., dsl=True)``): its complement's
# coalesce of a cotarget shape merges nothing unless the shape is all static (C++: neighbours
# of equal staticness), and its last mode is the product of ceil_div(cotarget, step) (C++: that
# tuple, coalesced).
_DSL_DIALECT = [False]


def _coalesce_shape(t):  # coalesce(Shape): neighbours of equal staticness multiplied
    fs = flat_leaves(t)
    if _DSL_DIALECT[0] and not all(map(_st, fs)):  # the DSL merges only an all-static shape
        return fs[0] if len(fs) == 1 else tuple(fs)
    out = [fs[0]]
    for a in fs[1:]:
        if _st(out[-1]) == _st(a):
            out[-1] = out[-1] * a
        else:
            out.append(a)
    return out[0] if len(out) == 1 else tuple(out)


def compact_left(shape, start):  # compact_major<LayoutLeft>: a static size-1 mode gets _0
    if not isinstance(shape, tuple):
        return C(0) if _is(1, shape) else start
    out = []
    for s in shape:
        out.append(compact_left(s, start))
        start = start * cute_product(s)
    return tuple(out)


# --- composition ----------------------------------------------------------------------------

def _impl(ls, ld, rs, rd):
    """composition_impl: B distributed over its modes, then B's stride walked through the
    modes of coalesce_x(A) with CuTe's *weak* (compile-time only) divisibility checks."""
    if isinstance(rs, tuple):
        return _make(_impl(ls, ld, s, d) for s, d in zip(rs, rd))
    if _is(0, rd):
        return _L(rs, rd)
    if not isinstance(ls, tuple):
        return _L(rs, rd * ld)
    out_s, out_d = [], []
    rest_s, rest_d = rs, rd
    for cs, cd in zip(ls[:-1], ld[:-1]):
        if _st(cs) and _st(rest_d) and not (int(rest_d) % int(cs) == 0 or int(rest_d) < int(cs)):
            raise Reject("static assertion failed: Stride Divisibility Condition")
        next_s = _cdiv(cs, rest_d)
        next_d = _cdiv(rest_d, cs) * _typed(1, rest_d)
        if _is(1, next_s) or _is(1, rest_s):
            rest_d = next_d
            continue
        new = _min(next_s, rest_s)
        if _st(new) and _st(rest_s) and int(rest_s) % int(new):
            raise Reject("static assertion failed: Shape Divisibility Condition")
        out_s.append(new)
        out_d.append(rest_d * cd)
        rest_s, rest_d = _div(rest_s, new), next_d
    if not out_s:
        return _L(rest_s, rest_d * ld[-1])
    if _is(1, rest_s):
        return _pack(out_s, out_d)
    return _L(tuple(out_s) + (rest_s,), tuple(out_d) + (rest_d * ld[-1],))


@_located("composition")
def composition(A, B):
    if isinstance(B, Underscore) or B is None:
        return A
    if isinstance(B, tuple):  # a Tile: by mode; A's modes the tiler does not name are dropped
        if len(B) > A.rank():
            raise Reject("static assertion failed")
        return _make(composition(a, b) for a, b in zip(A.modes(), B))
    if not isinstance(B, _L):
        B = _L(B, C(1))
    flat = _coalesce_x(A)
    return _impl(flat.shape, flat.stride, B.shape, B.stride)


# --- complement -----------------------------------------------------------------------------

def cute_cosize(L):
    """L(size(L) - 1) + 1 in CuTe arithmetic (the index walked through the flat modes)."""
    shapes, strides = flat_leaves(L.shape), flat_leaves(L.stride)
    i, total = cute_product(L.shape) - C(1), C(0)
    for k, (s, d) in enumerate(zip(shapes, strides)):
        c = i if k == len(shapes) - 1 else i % s
        i = i if k == len(shapes) - 1 else _div(i, s)
        total = total + c * d
    return total + C(1)


@_located("complement")
def complement(L, cotarget=None, injective_check=True):
    """CuTe's complement; ``injective_check=False`` goes on past the static_assert on a zero
    shape (the CuTe DSL does, and returns that layout: in its dialect there is no such check)."""
    injective_check = injective_check and not _DSL_DIALECT[0]
    f = filter_(L)
    if cotarget is None:
        cotarget = cute_cosize(f)
    if _is(0, f.stride):  # the irreducible stride-0 layout: a compact layout of the cotarget
        shape = _coalesce_shape(cotarget)
        return _L(shape, compact_left(shape, C(1)))
    shapes, strides = flat_leaves(f.shape), flat_leaves(f.stride)
    R = len(shapes)
    if R > 1 and not all(map(_st, strides)):
        raise Reject("static assertion failed: Dynamic-stride complement only for rank-1 layouts")
    out_s, out_d = [], [C(1)]
    for i in range(R - 1):
        k = min(range(len(strides)), key=lambda j: (int(strides[j]), j))
        new = _div(strides[k], out_d[i])
        if _is(0, new) and injective_check:
            raise Reject("static assertion failed: Non-injective Layout detected in complement.")
        out_s.append(new)
        out_d.append(strides[k] * shapes[k])
        del shapes[k], strides[k]
    new = _div(strides[0], out_d[R - 1])
    if _is(0, new) and injective_check:
        raise Reject("static assertion failed: Non-injective Layout detected in complement.")
    out_s.append(new)
    step = strides[0] * shapes[0]
    if _DSL_DIALECT[0]:  # the DSL multiplies the ceil_div of the cotarget tuple
        rest = cute_product(_cdiv(cotarget, step))
    else:
        rest = _coalesce_shape(_cdiv(cotarget, step))
    return coalesce(_L((tuple(out_s), rest), (tuple(out_d), compact_left(rest, step))))


# --- divides and products -------------------------------------------------------------------

def _by_mode(fn, A, T, what):
    if len(T) > A.rank():
        raise Reject(f"static assertion failed: {what}: Too many modes in tiler.")
    ms = A.modes()
    return _make([fn(ms[i], t) for i, t in enumerate(T)] + ms[len(T):])


def logical_divide(A, T):
    if isinstance(T, tuple):
        return _by_mode(logical_divide, A, T, "logical_divide")
    if isinstance(T, Underscore) or T is None:
        return A
    if not isinstance(T, _L):  # make_layout(n): compact, so a static _1 gets stride _0
        T = _L(T, compact_left(T, C(1)))
    return composition(A, _make([T, complement(T, coalesce(A).shape)]))


def logical_product(A, T):
    if isinstance(T, tuple):
        return _by_mode(logical_product, A, T, "logical_product")
    if isinstance(T, Underscore) or T is None:
        return A
    if not isinstance(T, _L):  # make_layout(n): compact, so a static _1 gets stride _0
        T = _L(T, compact_left(T, C(1)))
    return _make([A, composition(complement(A, cute_product(A.shape) * cute_cosize(T)), T)])


def _zip2_by(t, guide):
    if isinstance(guide, tuple):
        if not isinstance(t, tuple) or len(t) < len(guide):
            raise Reject("static assertion failed: Mismatched ranks")
        split = [_zip2_by(x, g) for x, g in zip(t, guide)]
        return tuple(p[0] for p in split), tuple(p[1] for p in split) + t[len(guide):]
    if not isinstance(t, tuple) or len(t) != 2:
        raise Reject("static assertion failed: Mismatched ranks")
    return t


def _unzip(P, T):
    return _L(_zip2_by(P.shape, T), _zip2_by(P.stride, T))


def _entries(s, d):
    """The pieces slice(repeat<R>(_), mode) keeps: the entries of a tuple of rank >= 2, else
    the mode itself (a rank-1 tuple stays wrapped)."""
    if isinstance(s, tuple) and len(s) >= 2:
        return list(zip(s, d))
    return [(s, d)]


def _tiled(Z, both):
    (s0, s1), (d0, d1) = Z.shape, Z.stride
    pieces = (_entries(s0, d0) if both else [(s0, d0)]) + _entries(s1, d1)
    return _L(tuple(s for s, _ in pieces), tuple(d for _, d in pieces))


def _append_to(L, R):  # append<R>(L): pad with _1:_0 modes up to rank R (a leaf stays for R = 1)
    if L.rank() >= R:
        return L
    ms = L.modes() + [_L(C(1), C(0))] * (R - L.rank())
    return _make(ms)


def _zip(a, b):
    if not isinstance(a, tuple):
        return ((a, b),)
    if not isinstance(b, tuple) or len(a) != len(b):
        raise Reject("zip of tuples of mismatched ranks (Index out of range / tuple_size)")
    return tuple(zip(a, b))


def _rank_sensitive(A, B, blocked):
    R = max(A.rank(), B.rank())
    P = logical_product(_append_to(A, R), _append_to(B, R))
    m0, m1 = P.modes()
    first, second = (m0, m1) if blocked else (m1, m0)
    return _L(_zip(first.shape, second.shape), _zip(first.stride, second.stride))


# --- inverses -------------------------------------------------------------------------------

def _wrapped(L):
    c = coalesce(L)
    shapes = list(c.shape) if isinstance(c.shape, tuple) else [c.shape]
    strides = list(c.stride) if isinstance(c.stride, tuple) else [c.stride]
    prefix = [C(1)]
    for s in shapes:
        prefix.append(s * prefix[-1])
    return shapes, strides, prefix


def right_inverse(L):
    shapes, strides, prefix = _wrapped(L)
    order = sorted((i for i, d in enumerate(strides) if _st(d)), key=lambda i: int(strides[i]))
    out_s, out_d, curr = [C(1)], [C(0)], C(1)
    for i in order:
        if _st(curr) and int(strides[i]) == int(curr):
            out_s.append(shapes[i])
            out_d.append(prefix[i])
            curr = shapes[i] * strides[i]
    return coalesce(_L(tuple(out_s), tuple(out_d)))


def left_inverse(L):
    shapes, strides, prefix = _wrapped(L)
    if not all(map(_st, strides)):
        raise Reject("static assertion failed: Left inverse requires static strides.")
    order = sorted(range(len(strides)), key=lambda i: int(strides[i]))
    out_s, out_d = [], [C(0)]
    for i in order:
        if _is(0, strides[i]):
            continue
        have = cute_product(tuple(out_s))
        if int(strides[i]) % int(have):
            raise Reject("static assertion failed: Left inverse divisibility condition")
        out_s.append(_div(strides[i], have))
        out_d.append(prefix[i])
    return coalesce(_L(tuple(out_s) + (shapes[order[-1]],), tuple(out_d)))


OPS = {
    "coalesce": coalesce,
    "filter": filter_,
    "composition": composition,
    "complement": complement,
    "right_inverse": right_inverse,
    "left_inverse": left_inverse,
    "logical_divide": logical_divide,
    "zipped_divide": lambda A, T: _unzip(logical_divide(A, T), T),
    "tiled_divide": lambda A, T: _tiled(_unzip(logical_divide(A, T), T), False),
    "flat_divide": lambda A, T: _tiled(_unzip(logical_divide(A, T), T), True),
    "logical_product": logical_product,
    "zipped_product": lambda A, T: _unzip(logical_product(A, T), T),
    "tiled_product": lambda A, T: _tiled(_unzip(logical_product(A, T), T), False),
    "blocked_product": lambda A, B: _rank_sensitive(A, B, True),
    "raked_product": lambda A, B: _rank_sensitive(A, B, False),
}
SUPPORTED = tuple(OPS)


def _static(x):
    if isinstance(x, LayoutBase):
        return LayoutBase(_static(x.shape), _static(x.stride))
    if isinstance(x, tuple):
        return tuple(_static(e) for e in x)
    return x if x is None or isinstance(x, Underscore) else C(x)


def to_model(x):
    if isinstance(x, LayoutBase):
        return _L(x.shape, x.stride)
    if isinstance(x, tuple):
        return tuple(to_model(e) for e in x)
    return x


def checked(fn, *args, dsl=False, **kw):
    """``fn(*args)`` of this module on its own layouts (a helper's piece of an op): raises
    Abort if it divided by a runtime zero.  ``dsl``: the CuTe DSL's dialect."""
    del _ABORTS[:], _WHERE[:]
    _DSL_DIALECT[0] = dsl
    try:
        r = fn(*args, **kw)
    finally:
        _DSL_DIALECT[0] = False
    if _ABORTS:
        raise Abort("SIGFPE")
    return r


def run(op, *args, static=False, dsl=False):
    """The model's result: a ``LayoutBase`` (raises Reject / Abort / KeyError).  ``dsl``:
    the CuTe DSL's dialect of the algorithm (``_DSL_DIALECT``)."""
    if static:
        args = tuple(_static(a) for a in args)
    del _ABORTS[:], _WHERE[:]
    _DSL_DIALECT[0] = dsl
    try:
        r = OPS[op](*[to_model(a) for a in args])
        result = LayoutBase(r.shape, r.stride)
    except Reject:
        raise
    except Exception:  # noqa: BLE001 - a value computed after a runtime zero
        if not _ABORTS:
            raise
        result = None
    finally:
        _DSL_DIALECT[0] = False
    if _ABORTS:  # it compiled; running it divides by zero
        e = Abort("SIGFPE")
        e.where = _ABORTS[0]
        raise e
    return result


def answer(op, *args, static=False):
    """The Outcome the cute-cpp oracle gives for ``op(*args)`` according to the model
    (None for an op the model does not cover)."""
    if op not in OPS:
        return None
    try:
        return Outcome.ok(run(op, *args, static=static))
    except Reject as e:
        return Outcome.raised(f"compile-time rejection: {e}")
    except Abort as e:
        return Outcome.raised(f"runtime abort ({e} in {e.where})")
    except LayoutError as e:  # the model built an invalid layout: CuTe would print it
        return Outcome.raised(f"model: {e}")
    except (TypeError, ValueError, IndexError):  # arguments outside what the model covers
        return None


def matches(answer, model):
    """Whether the cute-cpp oracle's ``answer`` is exactly the model's: the same layout
    structurally (values; the staticness of a printed integer is not judged), the same
    ``static_assert`` text for a compile-time rejection (a rejection the compiler reports
    by another error line is ``UNCHECKED``: g++ does not always print the static_assert, and
    which of CuTe's checks fired is then not visible), or the
    driver's refusal ``runtime abort (SIGFPE ...)`` for a division by a runtime zero (a worker
    that died is another answer)."""
    if model is None or answer is None:
        return False
    if model.kind == "ok":
        return answer.kind == "ok" and isinstance(answer.value, LayoutBase) and answer.value == model.value
    if answer.kind != "raised":  # the driver answers a SIGFPE of a case as its refusal
        return False
    text, got = model.message, answer.message
    if text.startswith("runtime abort"):
        return got.startswith("runtime abort") and ("signal 8" in got or "SIGFPE" in got)
    if "compile-time rejection" not in got:
        return False
    if "static assertion failed" in text:
        want = text.split("static assertion failed", 1)[1]
        if "static assertion failed" not in got:  # g++ reported another error line of the case:
            return UNCHECKED  # CuTe rejected it at compile time, but which check is not visible
        if want.startswith(": "):
            return want[2:] in got
        return "static assertion failed (" in got  # a static_assert without a message
    fragments = next((f for key, f in GXX_ERRORS.items() if key in text), ())
    return any(f in got for f in fragments)


# How g++ reports CuTe's zip of tuples of different ranks (the first error line it prints).
ZIP_ERRORS = ("Index out of range", "tuple_size", "Mismatched Ranks")

# The model's rejections that are no static_assert, and the text g++ prints for each.
GXX_ERRORS = {"make_layout() (no modes)": ("no matching function for call to 'make_layout()'",),
              "get<-1> of an empty tuple": ("get<(0 - 1)>", "get<-1>"),
              "zip of tuples of mismatched ranks": ZIP_ERRORS,
              "division by zero in a constant expression": ("division by zero",)}

