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
    "coalesce": ("unable to compute",),
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
        return M.run("coalesce", L)
    ms = [M.run("coalesce", LayoutBase(s, d)) for s, d in zip(L.shape, L.stride)]
    return LayoutBase(tuple(m.shape for m in ms), tuple(m.stride for m in ms))


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
        return M.run("coalesce", A)  # an empty target profile is no profile (F-175)
    if zero_size_complement(op, A, T):
        raise _Refused(ZERO_COMPLEMENT)  # F-125
    if op in ("tiled_divide", "flat_divide"):
        return _unpack(M.run("zipped_divide", A, T), op == "flat_divide")
    if op == "tiled_product":
        return _unpack(M.run("zipped_product", A, T), False)
    if op == "raked_product":
        return _coalesce_modes(M.run("raked_product", A, T))  # F-086
    if op == "complement":  # no injectivity check: a zero shape is returned (F-075)
        r = M.checked(M.complement, M.to_model(A), T, injective_check=False)
        if 0 in [int(s) for s in M.flat_leaves(r.shape)]:
            raise _Refused(f"unparseable output '{_text(r.shape)}:{_text(r.stride)}'")
        return LayoutBase(r.shape, r.stride)
    if op == "left_inverse":  # all strides 0: the DSL answers _1:_0 (C++: the last shape)
        c = M.run("coalesce", A)
        if all(int(d) == 0 for d in M.flat_leaves(c.stride)):
            return LayoutBase(C(1), C(0))
    return M.run(op, *args)


def _text(t):
    return "(" + ",".join(_text(e) for e in t) + ")" if isinstance(t, tuple) else str(int(t))


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
    if op.endswith("_divide"):
        r = M.checked(M.complement, M.to_model(Tl), M.coalesce(M.to_model(A)).shape, injective_check=False)
    elif op.endswith("_product"):
        a = M.to_model(A)
        r = M.checked(M.complement, a, M.cute_product(a.shape) * M.cute_cosize(M.to_model(Tl)), injective_check=False)
    else:
        return False
    return _has_zero(r)


def answer(op, *args):
    """The Outcome of the cute-dsl oracle for ``op(*args)`` according to the model (None
    where the model says nothing: an op it does not cover, or complement without N, which
    the oracle reports as unsupported)."""
    if op not in M.OPS or (op == "complement" and len(args) < 2):
        return None
    try:
        return Outcome.ok(_run(op, tuple(all_static(a) for a in args)))
    except _Refused as e:
        if str(e) == ZERO_COMPLEMENT:  # F-125: the worker dies (or the DSL refuses: matches)
            return Outcome.crashed(f"killed by SIGFPE on this case (the model: {ZERO_COMPLEMENT})")
        return Outcome.raised(str(e))
    except (M.Reject, M.Abort):
        return Outcome.raised("rejected: " + " / ".join(DSL_ERRORS.get(_family(op), ("unable to compute",))))
    except Exception:  # noqa: BLE001 - arguments outside what the model covers
        return None


def matches(answer_, model, op):
    """The DSL's answer is the model's: the same layout structurally, or a rejection with the
    DSL's message for that op (``must be a Value`` for F-081/F-051, else its MLIRError)."""
    if model is None or answer_ is None:
        return False
    if model.kind == "ok":
        return answer_.kind == "ok" and isinstance(answer_.value, LayoutBase) and answer_.value == model.value
    if answer_.kind not in ("raised", "crashed"):
        return False
    if model.kind == "crashed":  # F-125: the DSL dies on it (SIGFPE), or refuses the op
        if answer_.kind == "crashed":
            return crashed_with(answer_, "SIGFPE")
        # which of the two the DSL does is not modelled, and its refusal names only the op's
        # family: a refusal here is matched by that property, not recomputed
        return UNCHECKED if any(w in answer_.message for w in DSL_ERRORS.get(_family(op), ())) else False
    if answer_.kind == "crashed":
        return False
    if model.message == NOT_A_VALUE:
        return NOT_A_VALUE in answer_.message
    if model.message.startswith("unparseable output"):
        return answer_.message.startswith(model.message)
    return any(w in answer_.message for w in DSL_ERRORS.get(_family(op), ("unable to compute",)))
