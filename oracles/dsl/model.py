"""The CuTe DSL's answers a model of its answers (nvidia-cutlass-dsl 4.8.1).

The DSL runs CuTe's layout algebra on static integers, so its answers are those of the
CuTe C++ model (``oracles/cpp/model.py``) with every integer static, except where the DSL's
Python layer does something of its own (each a finding of the register):

* zipped/tiled/flat_divide and zipped/tiled_product pass a bare int tiler unconverted to the
  MLIR op (F-081), zipped/tiled_product a Tile tuple too (F-051): ``must be a Value``;
* raked_product returns each top mode of the zip coalesced (F-086);
* tiled/flat forms unpack a rank-1 mode where C++ keeps it wrapped;
* coalesce of ``():()`` is ``():()`` (F-049), an empty target profile is none (F-175);
* a zero-size complement (C++: static_assert 'Non-injective Layout detected in complement') is
  computed on, and a divide or product built on it dies with SIGFPE or refuses (F-125);
* where CuTe C++ does not compile, the DSL raises an MLIRError naming the op
  ("unable to compute product", "unable to compute the following composition", ...).

``answer(op, *args)`` is the Outcome the ``cute-dsl`` oracle gives according to this model;
``dsl_answer`` is the symptom the register's cute-dsl tables name.
"""

import layoutcheck.oracles.cpp.model as M
from layoutcheck.oracles.predicates import UNCHECKED, crashed_with
from layoutcheck.oracles.protocol import Outcome

from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, Underscore

__all__ = ["answer", "matches", "DSL_ERRORS"]

# The MLIRError text of the DSL when CuTe's checks reject (by op family).
DSL_ERRORS = {
    "composition": ("unable to compute the following composition",),
    "product": ("unable to compute product",),
    "divide": ("failed to perform a valid division", "unable to compute"),
    "left_inverse": ("unable to compute the left inverse",),
    "right_inverse": ("unable to compute the right inverse",),
    "complement": ("unable to compute the complement", "unable to compute"),
    "coalesce": ("unable to compute", "unable to coalesce"),
    "filter": ("unable to compute",),
}


NOT_A_VALUE = "must be a Value"


def _family(op):
    if op.endswith("_product"):
        return "product"
    if op.endswith("_divide"):
        return "divide"
    return op


def all_static(x):
    if isinstance(x, LayoutBase):
        return LayoutBase(all_static(x.shape), all_static(x.stride))
    if isinstance(x, tuple):
        return tuple(all_static(e) for e in x)
    return x if x is None or isinstance(x, Underscore) else C(x)


def _unpack(L, both):
    """tiled (both=False) / flat (both=True) from the zipped form: the DSL unpacks the entries
    of each mode it unpacks, a rank-1 tuple included."""
    (s0, s1), (d0, d1) = L.shape, L.stride

    def entries(s, d):
        return list(zip(s, d)) if isinstance(s, tuple) else [(s, d)]
    pieces = (entries(s0, d0) if both else [(s0, d0)]) + entries(s1, d1)
    return LayoutBase(tuple(s for s, _ in pieces), tuple(d for _, d in pieces))


def _coalesce_modes(L):
    if not isinstance(L.shape, tuple):
        return M.run("coalesce", L, dsl=True)
    ms = [M.run("coalesce", LayoutBase(s, d), dsl=True) for s, d in zip(L.shape, L.stride)]
    return LayoutBase(tuple(m.shape for m in ms), tuple(m.stride for m in ms))


def _int_tiles_as_layouts(T):
    """A Tile tuple's integer entries as CuTe's make_layout(n) (compact: _1:_0)."""
    if isinstance(T, tuple):
        return tuple(LayoutBase(t, M.compact_left(t, C(1))) if isinstance(t, int) else t for t in T)
    return T


def _run(op, args):
    A = args[0] if args else None
    T = args[1] if len(args) > 1 else None
    if op in ("zipped_divide", "tiled_divide", "flat_divide", "zipped_product", "tiled_product"):
        if isinstance(T, int):
            raise _Refused(NOT_A_VALUE)  # F-081
    if op in ("zipped_product", "tiled_product") and isinstance(T, tuple):
        raise _Refused(NOT_A_VALUE)  # F-051
    if op == "coalesce" and isinstance(A, LayoutBase) and A.shape == ():
        return LayoutBase((), ())  # F-049
    if op == "coalesce" and T == ():
        return M.run("coalesce", A, dsl=True)  # an empty target profile is no profile (F-175)
    if zero_size_complement(op, A, T) and not (op.endswith("_product") and _takes_no_extent(T)):
        raise _Refused(ZERO_COMPLEMENT)  # F-125
    if op == "composition":  # an integer tile n is make_layout(n): a static _1 gets stride _0
        T = _int_tiles_as_layouts(T)
        args = (A, T)
    if op in ("tiled_divide", "flat_divide"):
        return _unpack(M.run("zipped_divide", A, T, dsl=True), op == "flat_divide")
    if op == "tiled_product":
        return _unpack(M.run("zipped_product", A, T, dsl=True), False)
    if op == "raked_product":
        return _coalesce_modes(M.run("raked_product", A, T, dsl=True))  # F-086
    if op == "complement":  # no injectivity check: a zero shape is returned (F-075)
        r = M.checked(M.complement, M.to_model(A), T, injective_check=False, dsl=True)
        if 0 in [int(s) for s in M.flat_leaves(r.shape)]:  # no valid layout (F-xxx)
            raise _Refused(f"{INVALID}{_text(r.shape)}:{_text(r.stride)}:")
        return LayoutBase(r.shape, r.stride)
    if op == "left_inverse":  # all strides 0: the DSL answers _1:_0 (C++: the last shape)
        c = M.run("coalesce", A, dsl=True)
        if all(int(d) == 0 for d in M.flat_leaves(c.stride)):
            return LayoutBase(C(1), C(0))
    return M.run(op, *args, dsl=True)


def _text(t):
    """CuTe notation of a tuple of C (``_N``) and runtime ints, as an invalid answer prints."""
    if isinstance(t, tuple):
        return "(" + ",".join(_text(e) for e in t) + ")"
    return f"_{int(t)}" if isinstance(t, C) else str(int(t))


INVALID = "returned an invalid answer "  # the runtime path's message for a zero extent


class _Refused(Exception):
    pass


ZERO_COMPLEMENT = "zero-size complement: SIGFPE or a refusal"


def _has_zero(L):
    return any(int(x) == 0 for x in M.flat_leaves(L.shape))


def zero_size_complement(op, A, T):
    """F-125: the complement inside the op (of the divisor in shape(coalesce(A)) for a divide,
    of A in size(A) cosize(B) for a product) has a zero-size mode: the DSL does not stop at
    C++'s static_assert 'Non-injective Layout detected in complement'."""
    if not isinstance(A, LayoutBase) or T is None:
        return False
    if isinstance(T, tuple):
        modes = [LayoutBase(s, d) for s, d in zip(A.shape, A.stride)] if isinstance(A.shape, tuple) else [A]
        return any(zero_size_complement(op, a, t) for a, t in zip(modes, T))
    if isinstance(T, Underscore):
        return False
    Tl = T if isinstance(T, LayoutBase) else LayoutBase(T, C(1))
    try:
        return _has_zero(_inner_complement(op, A, Tl))
    except M.Abort:  # a runtime zero divisor: the op's own answer says what happens
        return False


def _takes_no_extent(T):
    """Every mode of the tiler ``T`` has size 1 or stride 0: composing a complement with it
    never divides by the complement's extents (a size-1 mode is _1:_0, a stride-0 mode s:0),
    so a zero-size mode there is computed on, not divided by (the DSL answers: tile_to_shape of
    ((_2,_2)):((_1,_1)) to _1 is (((_2,_2),_1)):(((_1,_1),_0)))."""
    if not isinstance(T, LayoutBase):
        return False
    shapes, strides = M.flat_leaves(T.shape), M.flat_leaves(T.stride)
    return all(int(s) == 1 or int(d) == 0 for s, d in zip(shapes, strides))


def _inner_complement(op, A, Tl):
    if op.endswith("_divide"):
        r = M.checked(M.complement, M.to_model(Tl), M.coalesce(M.to_model(A)).shape, injective_check=False,
                      dsl=True)
    elif op.endswith("_product"):
        a = M.to_model(A)
        r = M.checked(M.complement, a, M.cute_product(a.shape) * M.cute_cosize(M.to_model(Tl)),
                      injective_check=False, dsl=True)
    else:
        return M.to_model(LayoutBase(1, 1))
    return r


def _has_runtime(x):
    """Some integer of ``x`` (a layout, tiler or int) is a runtime value."""
    if isinstance(x, LayoutBase):
        return _has_runtime((x.shape, x.stride))
    if isinstance(x, tuple):
        return any(map(_has_runtime, x))
    return isinstance(x, int) and not isinstance(x, (bool, C))


class _Crash(Exception):
    """The DSL's process dies (the message says when and how)."""


STATIC_INPUT = "expects `input` to be static"            # products: a runtime leaf in A
STATIC_SHAPE = "expects an input with static shape"      # right_inverse: a runtime shape
LEFT_INVERSE = "unable to compute the left inverse"      # left_inverse: any runtime leaf
ERROR_TYPE = "source must not have error"                 # complement: the error type x:x
TRACE_ABORT = "while tracing: killed by SIGABRT"          # complement of a rank-1 tuple (F-xxx)
RUN_SIGFPE = "at run time: killed by SIGFPE"              # a runtime zero divisor
DIVIDE_REFUSED = "failed to perform a valid division"     # divides: the tile's complement failed


def _dynamic_stride_complement(T):
    """CuTe C++'s complement of ``T`` stops at its static_assert 'Dynamic-stride complement
    only for rank-1 layouts' (filter(T) has several modes, one with a runtime stride)."""
    f = M.filter_(M.to_model(T))
    strides = M.flat_leaves(f.stride)
    return len(strides) > 1 and not all(isinstance(d, C) for d in strides)


def _complement_input_fails(T, refusal):
    """Where the DSL's complement of ``T`` fails with runtime strides: T of several
    top-level modes with a runtime stride has the error type as its complement (``refusal``:
    what the op then says), before any filtering (C++: only several modes *after* filter);
    a rank-1 T whose mode is a tuple (((a,b)):((c,d))) that C++ would refuse kills the
    process while tracing (an uncaught std::bad_variant_access)."""
    if isinstance(T.shape, tuple) and len(T.shape) > 1:
        if not all(isinstance(d, C) for d in M.flat_leaves(T.stride)):
            raise _Refused(refusal)
    elif isinstance(T.shape, tuple) and _dynamic_stride_complement(T):
        raise _Crash(TRACE_ABORT)


def _tiles(A, T):
    """The layout tiles a divide complements: T, or the layouts of a Tile tuple (by mode)."""
    if isinstance(T, LayoutBase):
        return [T]
    if isinstance(T, tuple):
        return [t for t in T if isinstance(t, LayoutBase)]
    return []


def _multiplied_runtime(op, A, T):
    """A product multiplies a mode of A (all of A, or the modes a Tile tuple names) with a
    runtime integer: the DSL wants that input static."""
    if isinstance(T, tuple) and op == "logical_product" and isinstance(A.shape, tuple):
        modes = [LayoutBase(s, d) for s, d in zip(A.shape, A.stride)]
        return any(_has_runtime(m) for m, t in zip(modes, T) if not isinstance(t, Underscore))
    if isinstance(T, tuple) and op == "logical_product" and all(isinstance(t, Underscore) for t in T):
        return False
    return _has_runtime(A)


def _run_runtime(op, args):
    """The DSL with runtime integers: what its ops refuse at trace time, then the C++
    algorithm on CuTe's integer types (``oracles/cpp/model.py``) with the DSL's wrappers."""
    A = args[0]
    T = args[1] if len(args) > 1 else None
    if op in ("composition", "logical_divide") and isinstance(T, int) and not isinstance(T, C):
        raise _Refused(NOT_A_VALUE)  # a runtime integer tiler reaches the MLIR op as it is
    if op.endswith("_product") and _multiplied_runtime(op, A, T):
        _run(op, tuple(all_static(a) for a in args)) if op in ("zipped_product", "tiled_product") \
            and not isinstance(T, LayoutBase) else None  # its tiler refusals come first (F-051, F-081)
        raise _Refused(STATIC_INPUT)
    if op == "right_inverse" and _has_runtime(A.shape):
        raise _Refused(STATIC_SHAPE)
    if op == "left_inverse" and _has_runtime(A):
        raise _Refused(LEFT_INVERSE)
    if op == "complement":
        _complement_input_fails(A, ERROR_TYPE)
    if op.endswith("_divide"):
        for t in _tiles(A, T):
            _complement_input_fails(t, DIVIDE_REFUSED)
    return _run(op, args)


def answer(op, *args):
    """The Outcome of the cute-dsl oracle for ``op(*args)`` according to the model (None
    where the model says nothing: an op it does not cover, or complement without N, which
    the oracle reports as unsupported).  Plain ints are runtime integers, as the oracle runs
    them (every op of the model is on the DSL's runtime path)."""
    if op not in M.OPS or (op == "complement" and len(args) < 2):
        return None
    runtime = any(map(_has_runtime, args))
    try:
        return Outcome.ok(_run_runtime(op, args) if runtime else _run(op, args))
    except _Refused as e:
        if str(e) == ZERO_COMPLEMENT:  # F-125: the worker dies (or the DSL refuses: matches)
            return Outcome.crashed(f"killed by SIGFPE on this case (the model: {ZERO_COMPLEMENT})")
        return Outcome.raised(str(e))
    except _Crash as e:
        return Outcome.crashed(str(e))
    except M.Abort:
        if runtime:
            return Outcome.crashed(RUN_SIGFPE)
        return Outcome.raised("rejected: " + " / ".join(DSL_ERRORS.get(_family(op), ("unable to compute",))))
    except M.Reject:
        return Outcome.raised("rejected: " + " / ".join(DSL_ERRORS.get(_family(op), ("unable to compute",))))
    except Exception:  # noqa: BLE001 - arguments outside what the model covers
        return None


def matches(answer_, model, op):
    """The DSL's answer is the model's: the same layout structurally; a refusal with the
    DSL's message for that op (``must be a Value`` for F-081/F-051, an invalid answer with
    its text, a refusal of runtime integers with its text, else its MLIRError); a crash
    when and how the model dies."""
    if model is None or answer_ is None:
        return False
    if model.kind == "ok":
        return answer_.kind == "ok" and isinstance(answer_.value, LayoutBase) and answer_.value == model.value
    if answer_.kind not in ("raised", "crashed"):
        return False
    if model.kind == "crashed":
        if ZERO_COMPLEMENT in model.message:  # F-125: the DSL dies on it (SIGFPE), or refuses the op
            if answer_.kind == "crashed":
                return crashed_with(answer_, "SIGFPE")
            # which of the two the DSL does is not modelled, and its refusal names only the op's
            # family: a refusal here is matched by that property, not recomputed
            return UNCHECKED if any(w in answer_.message for w in DSL_ERRORS.get(_family(op), ())) else False
        when, how = model.message.split(": killed by ")
        return crashed_with(answer_, how) and when in answer_.message
    if answer_.kind == "crashed":
        return False
    if model.message.startswith(INVALID):
        return answer_.message.startswith(model.message)
    if model.message in (NOT_A_VALUE, STATIC_INPUT, STATIC_SHAPE, LEFT_INVERSE, ERROR_TYPE, DIVIDE_REFUSED):
        return model.message in answer_.message
    if model.message.startswith("unparseable output"):
        return answer_.message.startswith(model.message)
    return any(w in answer_.message for w in DSL_ERRORS.get(_family(op), ("unable to compute",)))
