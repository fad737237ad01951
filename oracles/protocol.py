"""The oracle protocol (DESIGN.md, issue 5): operations, outcomes, and the base class.

An oracle takes arguments in the neutral form (``LayoutBase`` layouts, tilers = a layout,
an int or a tuple of tilers, plain/static ints) and an operation name, and answers an
``Outcome``: ``ok`` with a value (a ``LayoutBase``, an int, or a tuple of ints for
``values``), ``raised`` with the message of the error it raised, or ``unsupported``.
"""

from dataclasses import dataclass
from typing import Any

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, check_inttuple, parse_tile
from layoutcheck.notation import parse_tuple

__all__ = ["Outcome", "Oracle", "OPS", "check_op", "parse_args", "neutral_layout", "neutral_int",
           "format_arg", "static_everywhere"]

# op name -> argument kinds; "int?" is an optional trailing integer.
OPS = {
    "coalesce": ("layout", "profile?"),
    "filter": ("layout", "profile?"),
    "complement": ("layout", "int?"),
    "composition": ("layout", "tiler"),
    "logical_divide": ("layout", "tiler"),
    "zipped_divide": ("layout", "tiler"),
    "tiled_divide": ("layout", "tiler"),
    "flat_divide": ("layout", "tiler"),
    "logical_product": ("layout", "tiler"),
    "zipped_product": ("layout", "tiler"),
    "tiled_product": ("layout", "tiler"),
    "blocked_product": ("layout", "layout"),
    "raked_product": ("layout", "layout"),
    "right_inverse": ("layout",),
    "left_inverse": ("layout",),
    "size": ("layout",),
    "cosize": ("layout",),
    "values": ("layout",),  # the layout function on its domain: (L(0), ..., L(size-1))
    # beyond the algebra (issue 11, DESIGN.md "Oracle operations beyond the algebra")
    "eval_coord": ("layout", "coord"),
    "get_mode": ("layout", "int"),
    "rank": ("layout",),
    "crd2idx": ("coord", "inttuple", "inttuple?"),
    "idx2crd": ("int", "inttuple", "inttuple?"),
    "crd2crd": ("coord", "inttuple", "inttuple?"),
    "slice_": ("layout", "coord"),
    "dice": ("layout", "coord"),
    "slice_and_offset": ("layout", "coord"),
    "layout_left": ("inttuple",),
    "shape_div": ("inttuple", "inttuple"),
    "prefix_product": ("inttuple", "inttuple?"),
    "product": ("inttuple",),
    "inner_product": ("inttuple", "inttuple"),
    "elem_scale": ("inttuple", "inttuple"),
    "congruent": ("inttuple", "inttuple"),
    "compatible": ("inttuple", "inttuple"),
    "flatten": ("inttuple",),
}


@dataclass(frozen=True)
class Outcome:
    """``kind`` is ``"ok"`` (``value``), ``"raised"`` or ``"unsupported"`` (``message``)."""

    kind: str
    value: Any = None
    message: str = ""

    @classmethod
    def ok(cls, value):
        return cls("ok", value=value)

    @classmethod
    def raised(cls, message):
        return cls("raised", message=str(message))

    @classmethod
    def unsupported(cls, message):
        return cls("unsupported", message=str(message))

    def __str__(self):
        if self.kind == "ok":
            v = self.value
            if isinstance(v, tuple):
                return "[" + " ".join(str(int(x)) for x in v) + "]"
            return str(v)
        return f"{self.kind}: {self.message}"


def check_op(op, args):
    """Raise LayoutError unless ``op`` is known and ``args`` has a matching arity."""
    if op not in OPS:
        raise LayoutError(f"unknown operation {op!r}; known: {', '.join(OPS)}")
    kinds = OPS[op]
    lo = sum(1 for k in kinds if not k.endswith("?"))
    if not lo <= len(args) <= len(kinds):
        want = f"{lo}" if lo == len(kinds) else f"{lo} or {len(kinds)}"
        raise LayoutError(f"{op} takes {want} argument(s) ({', '.join(kinds)}), got {len(args)}")


def neutral_int(text):
    """``24`` (dynamic) or ``_24`` (static) as an int / ``C``."""
    value = parse_tuple(text)
    if isinstance(value, tuple):
        raise LayoutError(f"expected an integer, got {text!r}")
    return check_inttuple(value, "integer argument", 1)


def neutral_layout(text):
    return LayoutBase.parse(text)


def parse_args(op, texts):
    """Parse an op's arguments from CuTe notation into the neutral form."""
    check_op(op, texts)
    parsers = {"layout": neutral_layout, "tiler": lambda t: parse_tile(t, LayoutBase),
               "int": neutral_int}
    return tuple(parsers[kind.rstrip("?")](text) for kind, text in zip(OPS[op], texts))


def format_arg(x):
    """A neutral argument in CuTe notation (layouts, tilers, ``_N`` / ``N`` integers)."""
    if isinstance(x, LayoutBase):
        return str(x)
    if isinstance(x, tuple):
        return "(" + ",".join(format_arg(e) for e in x) + ")"
    return repr(x) if isinstance(x, C) else str(int(x))


def static_everywhere(x):
    """A layout or int with every integer made static (for oracles without dynamic ints)."""
    def go(t):
        return tuple(go(e) for e in t) if isinstance(t, tuple) else C(t)
    if isinstance(x, LayoutBase):
        return LayoutBase(go(x.shape), go(x.stride))
    return go(x)


class Oracle:
    """Base class: subclasses implement ``_reason()`` and ``_run_many(cases)``."""

    name = "?"

    def unavailable_reason(self):
        """None when the oracle can run here, else the exact reason it cannot."""
        if not hasattr(self, "_reason_cache"):
            self._reason_cache = self._reason()
        return self._reason_cache

    def _reason(self):
        return None

    def run(self, op, *args):
        return self.run_many([(op, args)])[0]

    def run_many(self, cases):
        """Run ``[(op, args), ...]``; one Outcome per case, in order."""
        cases = [(op, tuple(args)) for op, args in cases]
        for op, args in cases:
            check_op(op, args)
        reason = self.unavailable_reason()
        if reason:
            raise LayoutError(f"oracle {self.name} is unavailable: {reason}")
        return list(self._run_many(cases))

    def _run_many(self, cases):
        raise NotImplementedError

    def __repr__(self):
        return f"<oracle {self.name}>"
