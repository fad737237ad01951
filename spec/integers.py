"""CuTe integers, transcribed from seeds 000 and 003.

A *static* integer ``C<v>`` (``Int<v>``, ``_v``) carries its value in its type; a *dynamic*
integer is an ordinary C++ integral type (here: a plain Python ``int``).  The rules below
are written out literally, one function per operator, so that the operators of
``layoutcheck.integers.C`` can be checked against them (tests/test_spec_integers.py).

Seed 003, "运算之后，静态信息能否保留":

==================  =====================================
``_2 + _3``         ``_5``   static op static -> static
``_2 * _3``         ``_6``
``_2 + n`` (n=5)    ``7``    static op dynamic -> dynamic
``_2 + 3``          ``5``    a literal 3 is dynamic too
``_0 * n``          ``_0``   static zero is special-cased
``_2 < _3``         ``C<true>`` comparisons of statics are static bools
==================  =====================================

The mixed special cases beyond ``_0 * n`` (``_0 / n``, ``_0 % n``, ``n % _1``) are CuTe's
(``cute/numeric/integral_constant.hpp``); they are marked as such below.
Division follows C++ (truncation toward zero), ``%`` takes the sign of the dividend.
"""

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C, CBool
from layoutcheck.layout import LayoutBase
from layoutcheck.notation import format_tuple

__all__ = ["is_static", "is_constant", "is_integral", "is_std_integral", "int_add", "int_sub",
           "int_mul", "int_div", "int_mod", "int_lt", "int_le", "int_gt", "int_ge", "int_eq",
           "int_ne", "cute_print"]


def is_static(x):
    """``cute::is_static<T>``: the value is known from the type alone (seed 000/003).

    True for ``C<v>``; for a tuple, when every leaf is static (CuTe: an empty type, so the
    empty tuple is static); for a layout, when its shape and stride are static.  A plain
    ``int`` is dynamic: ``is_static<int>`` is false.
    """
    if isinstance(x, LayoutBase):
        return is_static(x.shape) and is_static(x.stride)
    if isinstance(x, tuple):
        return all(is_static(e) for e in x)
    return isinstance(x, C)


def is_constant(n, x):
    """``cute::is_constant<n, T>``: x is the static integer ``C<n>`` (seed 003).

    A dynamic integer is never a constant, whatever its value.
    """
    return isinstance(x, C) and int(x) == n


def is_integral(x):
    """``cute::is_integral<T>``: a dynamic integral or a static ``C<v>`` (seed 000)."""
    return isinstance(x, int)


def is_std_integral(x):
    """``std::is_integral<T>``: only the built-in integral types; ``_3`` is a class type (seed 000)."""
    return isinstance(x, int) and not isinstance(x, C)


def _check(a, b):
    for v in (a, b):
        if not is_integral(v):
            raise LayoutError(f"{v!r} is not a CuTe integer")


def _result(a, b, value, special_static=False):
    """static op static -> static; otherwise dynamic unless a special case applies."""
    if (isinstance(a, C) and isinstance(b, C)) or special_static:
        return C(value)
    return int(value)


def _c_div(a, b):
    if b == 0:
        raise LayoutError("division by zero", condition="nonzero_divisor")
    q = abs(int(a)) // abs(int(b))
    return q if (a < 0) == (b < 0) else -q


def int_add(a, b):
    """``a + b`` (seed 003: ``_2+_3 -> _5``, ``_2+n -> int``, ``_2+3 -> int``)."""
    _check(a, b)
    return _result(a, b, int(a) + int(b))


def int_sub(a, b):
    """``a - b``: static only when both are."""
    _check(a, b)
    return _result(a, b, int(a) - int(b))


def int_mul(a, b):
    """``a * b`` (seed 003: ``_2*_3 -> _6``; ``_0*n -> _0`` from either side)."""
    _check(a, b)
    zero = is_constant(0, a) or is_constant(0, b)
    return _result(a, b, int(a) * int(b), special_static=zero)


def int_div(a, b):
    """``a / b`` (C++ truncation); CuTe keeps ``_0 / n`` static."""
    _check(a, b)
    return _result(a, b, _c_div(a, b), special_static=is_constant(0, a))


def int_mod(a, b):
    """``a % b`` (C++ sign rule); CuTe keeps ``_0 % n`` and ``n % _1`` static ``_0``."""
    _check(a, b)
    q = _c_div(a, b)
    special = is_constant(0, a) or is_constant(1, b) or is_constant(-1, b)
    return _result(a, b, int(a) - q * int(b), special_static=special)


def _compare(a, b, value):
    _check(a, b)
    if isinstance(a, C) and isinstance(b, C):
        return CBool(value)  # seed 003: _2 < _3 is C<true>
    return bool(value)


def int_lt(a, b):
    """``a < b``: ``C<bool>`` for two statics, ``bool`` otherwise (seed 003)."""
    return _compare(a, b, int(a) < int(b))


def int_le(a, b):
    return _compare(a, b, int(a) <= int(b))


def int_gt(a, b):
    return _compare(a, b, int(a) > int(b))


def int_ge(a, b):
    return _compare(a, b, int(a) >= int(b))


def int_eq(a, b):
    return _compare(a, b, int(a) == int(b))


def int_ne(a, b):
    return _compare(a, b, int(a) != int(b))


def cute_print(x):
    """What ``cute::print`` writes: ``_5`` for ``C<5>``, ``5`` for a dynamic 5 (seed 003).

    A static bool prints as its integer value (``C<true>`` prints ``_1``), tuples as
    ``(a,b)``, layouts as ``shape:stride``.
    """
    if isinstance(x, LayoutBase):
        return str(x)
    if isinstance(x, bool):
        return str(int(x))
    if isinstance(x, (tuple, int)):
        return format_tuple(x)
    raise LayoutError(f"{x!r} is not a CuTe integer, tuple or layout")
