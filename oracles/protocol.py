"""The oracle protocol (DESIGN.md): operations, outcomes, and the base class.

An oracle takes arguments in the neutral form (``LayoutBase`` layouts, tilers = a layout,
an int, ``_`` or a tuple of tilers, coordinates = ints and ``_`` nested, IntTuples,
plain/static ints; ``OPS`` gives each op's argument kinds) and an operation name, and
answers an ``Outcome``: ``ok`` with a value of the op's answer kind (``ANSWERS``: a
``LayoutBase``, an int, a bool, an IntTuple, the flat tuple of ``values``, or a
(layout, int) pair), ``raised`` with the message of the error it raised, or
``unsupported``.  ``parse_args`` / ``format_arg`` / ``decode_arg`` are the text codec.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence, TypeAlias, cast

from layoutcheck.oracles.conventions import Convention
from layoutcheck.oracles.operations import OPERATIONS, resolve

from layoutcheck.composed import (
    ComposedLayoutBase,
    ComposedValue,
    F2Layout,
    Swizzle,
    is_composed_value,
    looks_composed,
    parse_composed,
    parse_f2,
    parse_smem,
    parse_swizzle,
    parse_value,
)
from layoutcheck.errors import LayoutError
from layoutcheck.integers import C, IntTuple
from layoutcheck.layout import Coord, LayoutBase, Tiler, Underscore, _, check_inttuple, parse_tile
from layoutcheck.notation import TileNode, parse_tile_parts, parse_tuple

__all__ = ["Outcome", "Oracle", "OPS", "ANSWERS", "check_op", "parse_args", "neutral_layout",
           "neutral_int", "neutral_inttuple", "neutral_coord", "decode_arg", "format_arg",
           "format_value", "static_everywhere", "INVALID_ANSWER", "is_invalid_answer",
           "describe_exception", "Implementation", "operation_for", "Argument", "Case"]

# op name -> argument kinds, op name -> answer kind: views of the operations table
OPS = {op.name: op.arguments for op in OPERATIONS}
ANSWERS = {op.name: op.answer for op in OPERATIONS}

# A neutral argument (``OPS`` gives each op's kinds): a layout, a tiler, a coordinate, an
# IntTuple, an integer, a swizzle or a composed layout.
Argument: TypeAlias = Tiler | Coord | ComposedValue
# One call of an oracle: (op, its arguments).
Case: TypeAlias = tuple[str, Sequence[Argument]]


@dataclass(frozen=True)
class Outcome:
    """``kind`` is ``"ok"`` (``value``), ``"raised"`` or ``"unsupported"`` (``message``), or
    ``"crashed"`` (``message``): the implementation did not answer this case (its worker
    exited, was killed by a signal, ran out of time or memory).  A crash is never a refusal:
    every check treats it as a failure of the oracle (``oracles/isolation.py``)."""

    kind: str
    value: Any = None
    message: str = ""

    @classmethod
    def ok(cls, value: Any) -> Outcome:
        return cls("ok", value=value)

    @classmethod
    def raised(cls, message: object) -> Outcome:
        return cls("raised", message=str(message))

    @classmethod
    def unsupported(cls, message: object) -> Outcome:
        return cls("unsupported", message=str(message))

    @classmethod
    def crashed(cls, message: object) -> Outcome:
        return cls("crashed", message=str(message))

    def __str__(self) -> str:
        if self.kind == "ok":
            v = self.value
            if isinstance(v, tuple) and all(_is_leaf(x) for x in v):  # values(L)
                return "[" + " ".join(str(int(x)) for x in v) + "]"
            return format_arg(v)
        return f"{self.kind}: {self.message}"


def _is_leaf(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


# An adapter that finds the implementation's answer is no value of the op's answer kind (an
# invalid layout, a tuple where an int is due) answers ``raised`` with a message starting so;
# that is no refusal: the differential check fails on it even where the spec refuses too.
INVALID_ANSWER = "returned "


def is_invalid_answer(outcome: Outcome) -> bool:
    return outcome.kind == "raised" and outcome.message.startswith(INVALID_ANSWER)


def check_op(op: str, args: Sequence[object]) -> None:
    """Raise LayoutError unless ``op`` is known and ``args`` has a matching arity."""
    if op not in OPS:
        raise LayoutError(f"unknown operation {op!r}; known: {', '.join(OPS)}")
    kinds = OPS[op]
    lo = sum(1 for k in kinds if not k.endswith("?"))
    if not lo <= len(args) <= len(kinds):
        want = f"{lo}" if lo == len(kinds) else f"{lo} or {len(kinds)}"
        raise LayoutError(f"{op} takes {want} argument(s) ({', '.join(kinds)}), got {len(args)}")


def operation_for(name: str, texts: Iterable[object]) -> str:
    """The operation a user means by CuTe's function ``name`` on these argument texts: an
    overload on swizzles and composed layouts where one fits (``right_inverse`` of
    ``Sw<3,4,3> o _0 o (8,64):(64,1)`` is ``composed_right_inverse``), else ``name``."""
    from_kind = {Swizzle: "swizzle", ComposedLayoutBase: "composed", F2Layout: "f2layout"}
    kinds = []
    for text in texts:
        kind = "layout"
        if looks_composed(text):
            try:
                kind = from_kind.get(type(parse_value(str(text))), "other")
            except LayoutError:
                kind = "other"
        kinds.append(kind)
    return resolve(name, tuple(kinds))


def neutral_int(text: str) -> int:
    """``24`` (dynamic) or ``_24`` (static) as an int / ``C`` (>= 0; each op checks its own
    range, e.g. complement's N >= 1)."""
    value = parse_tuple(text)
    if isinstance(value, tuple):
        raise LayoutError(f"expected an integer, got {text!r}")
    return cast(int, check_inttuple(value, "integer argument", 0))  # not a tuple: an int


def neutral_layout(text: str) -> LayoutBase:
    return LayoutBase.parse(text)


def neutral_inttuple(text: str) -> IntTuple:
    """An IntTuple: an integer or a nested tuple of integers >= 0 (``(2,(3,_4))``, ``()``)."""
    return check_inttuple(parse_tuple(text), "IntTuple", 0)


def neutral_coord(text: str) -> Argument:
    """A coordinate: an integer >= 0, ``_`` (CuTe's Underscore), or a nested tuple of them
    (``(1,(_,2))``); no layouts."""
    value = decode_arg(text)
    if _holds_layout(value):
        raise LayoutError(f"expected a coordinate (integers and _), got the layout text {text!r}")
    return value


def _holds_layout(x: object) -> bool:
    return (isinstance(x, LayoutBase) or is_composed_value(x)
            or (isinstance(x, tuple) and any(map(_holds_layout, x))))


def decode_arg(text: object) -> Argument:
    """Any neutral argument from its CuTe text, without knowing its kind (what
    ``format_arg`` printed): a layout, a tiler (layouts, ints, ``_``), a coordinate or an
    IntTuple (integers >= 0, ``_``).  ``decode_arg(format_arg(x)) == x``."""
    if looks_composed(text):  # Sw<B,M,S>, A o O o B, F2 strides
        return parse_value(str(text))

    def build(node: TileNode) -> Tiler:
        kind = node[0]
        if kind == "layout":
            return LayoutBase(node[1], node[2])
        if kind == "int":
            return check_inttuple(node[1], "entry", 0)
        if kind == "underscore":
            return _
        return tuple(build(x) for x in node[1])
    return build(parse_tile_parts(str(text).strip()))


def parse_args(op: str, texts: Sequence[str]) -> tuple[Argument, ...]:
    """Parse an op's arguments from CuTe notation into the neutral form (by OPS kind)."""
    check_op(op, texts)
    parsers = {"layout": neutral_layout, "tiler": lambda t: parse_tile(t, LayoutBase),
               "int": neutral_int, "coord": neutral_coord, "inttuple": neutral_inttuple,
               "profile": neutral_inttuple, **_composed_parsers()}
    return tuple(parsers[kind.rstrip("?")](text) for kind, text in zip(OPS[op], texts))


def _composed_parsers() -> dict[str, Callable[[str], Argument]]:
    """The argument kinds of swizzles and composed layouts (layoutcheck/composed.py)."""
    return {"swizzle": parse_swizzle, "composed": parse_composed, "f2layout": parse_f2,
            "smem": parse_smem}


def format_arg(x: Any) -> str:
    """A neutral argument or answer in CuTe notation (layouts, tilers, coordinates with
    ``_``, ``_N`` / ``N`` integers; a bool as ``true`` / ``false``)."""
    if isinstance(x, LayoutBase) or is_composed_value(x):
        return str(x)
    if isinstance(x, tuple):
        return "(" + ",".join(format_arg(e) for e in x) + ")"
    if isinstance(x, Underscore):
        return "_"
    if isinstance(x, bool):
        return "true" if x else "false"
    return repr(x) if isinstance(x, C) else str(int(x))


def format_value(op: str, value: Any) -> str:
    """An ``ok`` answer of ``op`` as text: ``values`` as ``[0 1 2]``, the rest as
    ``format_arg``."""
    if ANSWERS.get(op) == "values":
        return "[" + " ".join(str(int(x)) for x in value) + "]"
    return format_arg(value)


def static_everywhere(x: LayoutBase | IntTuple) -> LayoutBase | IntTuple:
    """A layout or int with every integer made static (for oracles without dynamic ints)."""
    def go(t: IntTuple) -> IntTuple:
        return tuple(go(e) for e in t) if isinstance(t, tuple) else C(t)
    if isinstance(x, LayoutBase):
        return LayoutBase(go(x.shape), go(x.stride))
    return go(x)


def describe_exception(e: BaseException) -> str:
    """``Type: first line of the message`` (how an implementation's exception is reported)."""
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0]}" if text else type(e).__name__


class Oracle:
    """Base class: subclasses implement ``_reason()`` and ``_run_many(cases)``."""

    name: str = "?"

    def unavailable_reason(self) -> str | None:
        """None when the oracle can run here, else the exact reason it cannot."""
        if not hasattr(self, "_reason_cache"):
            self._reason_cache = self._reason()
        return self._reason_cache

    def _reason(self) -> str | None:
        return None

    def run(self, op: str, *args: Argument) -> Outcome:
        return self.run_many([(op, args)])[0]

    def run_many(self, cases: Iterable[Case]) -> list[Outcome]:
        """Run ``[(op, args), ...]``; one Outcome per case, in order."""
        calls = [(op, tuple(args)) for op, args in cases]
        for op, args in calls:
            check_op(op, args)
        reason = self.unavailable_reason()
        if reason:
            raise LayoutError(f"oracle {self.name} is unavailable: {reason}")
        return list(self._run_many(calls))

    def _run_many(self, cases: list[tuple[str, tuple[Argument, ...]]]) -> Iterable[Outcome]:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<oracle {self.name}>"


@dataclass(frozen=True)
class Implementation:
    """One implementation under test, as the register and the campaign see it: which oracle
    names are it, how to start one, the predicates that recognise its registered findings
    (``oracles/predicates.py``) and its declared conventions (``oracles/conventions.py``).
    Each implementation's package defines one in its ``implementation.py``;
    ``oracles/implementations.py`` lists them all."""

    lineage: str                                    # the name its findings are registered under
    summary: str                                    # one line: what it is
    names: tuple[str, ...] = ()                     # exact oracle names, e.g. ("cute-cpp",)
    prefixes: tuple[str, ...] = ()                  # name prefixes, e.g. ("nvlabs:",)
    make: Callable[..., Oracle] = field(kw_only=True)  # make(name, **options) -> Oracle (required)
    regions: Mapping[str, Callable[..., bool]] = field(default_factory=dict)
    symptoms: Mapping[str, Callable[..., bool]] = field(default_factory=dict)
    conventions: tuple[Convention, ...] = ()
    runtime_integers: Callable[[str], bool] = lambda op: False  # op -> its plain ints run as runtime ones

    def claims(self, name: str) -> bool:
        """``name`` is an oracle of this implementation."""
        return name in self.names or any(name.startswith(p) for p in self.prefixes)
