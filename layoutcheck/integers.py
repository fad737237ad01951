"""CuTe integers: static ``C<v>`` (printed ``_v``) and dynamic ones (plain ``int``).

Seeds 000 and 003: a static integer carries its value in its type.  static op static stays
static (``_2 * _3 -> _6``), static op dynamic becomes dynamic (``_2 + n -> int``), with the
documented special case that multiplying by a static zero stays static (``_0 * n -> _0``).

``C`` is an ``int`` subclass, so every layout function and algebra operation written with
plain integer arithmetic also propagates staticness the way CuTe does.  The predicates
(``is_static``, ``is_constant``, ...) live in ``layoutcheck.spec.integers``.
"""

from __future__ import annotations

from typing import TypeAlias

__all__ = ["C", "CBool", "static", "dynamic", "IntTuple"]


class C(int):
    """A static integer ``C<v>``; ``C(3)`` prints as ``_3`` and equals ``3``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"_{int(self)}"

    __str__ = __repr__

    # static op static -> static; static op dynamic -> dynamic (seed 003).
    def _lift(self, other: object, value: int) -> int:
        if isinstance(other, C):
            return C(value)
        return int(value)

    def __add__(self, o: int) -> int:
        return self._lift(o, int(self) + int(o)) if isinstance(o, int) else NotImplemented

    __radd__ = __add__

    def __sub__(self, o: int) -> int:
        return self._lift(o, int(self) - int(o)) if isinstance(o, int) else NotImplemented

    def __rsub__(self, o: int) -> int:
        return self._lift(o, int(o) - int(self)) if isinstance(o, int) else NotImplemented

    def __mul__(self, o: int) -> int:
        if not isinstance(o, int):
            return NotImplemented
        if int(self) == 0:  # _0 * n -> _0 (seed 003: CuTe special-cases a static zero)
            return C(0)
        return self._lift(o, int(self) * int(o))

    __rmul__ = __mul__

    def __floordiv__(self, o: int) -> int:
        if not isinstance(o, int):
            return NotImplemented
        if int(self) == 0:  # _0 / n -> _0 (CuTe's mixed special case)
            return C(0)
        return self._lift(o, int(self) // int(o))

    def __rfloordiv__(self, o: int) -> int:
        return self._lift(o, int(o) // int(self)) if isinstance(o, int) else NotImplemented

    def __mod__(self, o: int) -> int:
        if not isinstance(o, int):
            return NotImplemented
        if int(self) == 0:  # _0 % n -> _0 (CuTe's mixed special case)
            return C(0)
        return self._lift(o, int(self) % int(o))

    def __rmod__(self, o: int) -> int:
        if not isinstance(o, int):
            return NotImplemented
        if int(self) in (1, -1):  # n % _1 -> _0 (CuTe's mixed special case)
            return C(0)
        return self._lift(o, int(o) % int(self))

    # Comparisons of two statics give a static bool C<true>/C<false> (seed 003:
    # ``_2{} < _3{}`` is ``C<true>``); mixed comparisons give a plain bool.  ``==``/``!=``
    # stay plain bools so that hashing and containers behave (the rule function
    # ``layoutcheck.spec.integers.eq`` gives the static form).
    def _cmp(self, o: object, value: bool) -> int:
        return CBool(value) if isinstance(o, C) else bool(value)

    # (a CBool is an int, not a bool: these widen int's ``-> bool``; mypy sees an overlap)
    def __lt__(self, o: int) -> int:  # type: ignore[override, misc]
        return self._cmp(o, int(self) < int(o)) if isinstance(o, int) else NotImplemented

    def __le__(self, o: int) -> int:  # type: ignore[override, misc]
        return self._cmp(o, int(self) <= int(o)) if isinstance(o, int) else NotImplemented

    def __gt__(self, o: int) -> int:  # type: ignore[override, misc]
        return self._cmp(o, int(self) > int(o)) if isinstance(o, int) else NotImplemented

    def __ge__(self, o: int) -> int:  # type: ignore[override, misc]
        return self._cmp(o, int(self) >= int(o)) if isinstance(o, int) else NotImplemented

    def __neg__(self) -> C:
        return C(-int(self))

    def __abs__(self) -> C:
        return C(abs(int(self)))

    def __hash__(self) -> int:
        return int.__hash__(self)

    def __eq__(self, o: object) -> bool:
        return int(self) == o

    def __ne__(self, o: object) -> bool:
        return int(self) != o

    def __reduce__(self) -> tuple[type[C], tuple[int]]:
        return (C, (int(self),))


class CBool(C):
    """A static bool ``C<true>`` / ``C<false>``: a static integer whose value is 1 or 0.

    CuTe's ``print`` shows it as ``_1`` / ``_0`` (checked with g++ on the shipped headers);
    ``repr`` names the type, ``C<true>``.
    """

    __slots__ = ()

    def __new__(cls, value: object) -> CBool:
        return super().__new__(cls, 1 if value else 0)

    def __repr__(self) -> str:
        return "C<true>" if int(self) else "C<false>"

    def __str__(self) -> str:
        return f"_{int(self)}"

    def __bool__(self) -> bool:
        return int(self) != 0

    def __reduce__(self) -> tuple[type[CBool], tuple[int]]:
        return (CBool, (int(self),))


def static(v: int) -> C:
    """``Int<v>{}``."""
    return C(v)


def dynamic(v: int) -> int:
    """A runtime ``int`` holding ``v``."""
    return int(v)


# CuTe's IntTuple: an integer (a plain ``int``, dynamic, or a ``C``, static) or a tuple of
# IntTuples.  Shapes, strides and the answers of the tuple operations are IntTuples.
IntTuple: TypeAlias = int | tuple["IntTuple", ...]
