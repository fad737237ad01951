"""C++ text for the cute-cpp oracle: one *kernel* per case type, and the answers it prints.

``OPS`` is the one table from an operation to its CuTe C++ expression (``{0}``, ``{1}``, ...
are the C++ arguments in the protocol's order, see ``oracles/protocol.py``); an arity the
table lacks is "unsupported".  To add an op, add a row; a new argument kind (e.g. a swizzle)
is a branch in ``_Writer.arg``; a new answer type is a branch in ``lc::put`` / ``lc::answer``
(``prelude.hpp``, changing the toolchain key) and in ``parse_answer`` /
``parse_static_type`` here.  An answer type the printer does not know comes back as
``?...`` and is reported ``crashed``, never as a value.

``kernel(op, args)`` turns a case into a ``Kernel``: its C++ body and the runtime integers
it reads.  A static integer (``C``, written ``_4``) becomes ``Int<4>{}`` in the text; a
plain ``int`` becomes a variable read from the driver's input at run time, so the body
(hence the C++ types, hence whether CuTe accepts the case at compile time) depends only on
the op, the nesting and the static values, and every case of that type shares one compiled
kernel.  A case without runtime integers is a *static* kernel: its answer is the type of
its result, which the compiler names in a diagnostic (no code is generated or run; see
``prelude.hpp``); a result that is not static then runs as a driver kernel.
"""

import hashlib
import re
from dataclasses import dataclass

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, Underscore, leaves

__all__ = ["OPS", "Op", "Kernel", "kernel", "Unsupported", "parse_answer", "parse_static_type",
           "INT_LIMIT"]

INT_LIMIT = 2 ** 31  # CuTe's Int<N> and the runtime ints are 32-bit ints


class Unsupported(Exception):
    """The case cannot be written for CuTe C++ (the message says why)."""


@dataclass(frozen=True)
class Op:
    """``exprs[n]``: the C++ expression for n arguments; ``literal``: argument positions
    that must be compile-time constants in C++ (the integer goes into the text whether it was
    written static or not); ``note``: how the C++ name differs from the protocol's."""
    exprs: dict
    literal: tuple = ()
    note: str = ""


_DIVIDES = ("logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
            "logical_product", "zipped_product", "tiled_product", "blocked_product",
            "raked_product", "composition")

OPS = {
    "coalesce": Op({1: "cute::coalesce({0})", 2: "cute::coalesce({0}, {1})"}),
    "filter": Op({1: "cute::filter({0})", 2: "cute::filter({0}, {1})"}),
    "complement": Op({1: "cute::complement({0})", 2: "cute::complement({0}, {1})"}),
    **{op: Op({2: f"cute::{op}({{0}}, {{1}})"}) for op in _DIVIDES},
    "right_inverse": Op({1: "cute::right_inverse({0})"}),
    "left_inverse": Op({1: "cute::left_inverse({0})"}),
    "size": Op({1: "cute::size({0})"}),
    "cosize": Op({1: "cute::cosize({0})"}),
    "values": Op({1: "{0}"}),  # printed by lc::values: L(i) for i in [0, size(L))
    "eval_coord": Op({2: "{0}({1})"}),
    "get_mode": Op({2: "cute::layout<{1}>({0})"}, literal=(1,)),
    "rank": Op({1: "cute::rank({0})"}),
    "crd2idx": Op({2: "cute::crd2idx({0}, {1})", 3: "cute::crd2idx({0}, {1}, {2})"}),
    "idx2crd": Op({2: "cute::idx2crd({0}, {1})", 3: "cute::idx2crd({0}, {1}, {2})"}),
    "crd2crd": Op({3: "cute::crd2crd({0}, {2}, {1})"},
                  note="C++ takes (coord, src_shape, dst_shape) and needs the source shape"),
    "slice_": Op({2: "cute::slice({1}, {0})"}),
    "dice": Op({2: "cute::dice({1}, {0})"}),
    "slice_and_offset": Op({2: "cute::slice_and_offset({1}, {0})"}),
    "layout_left": Op({1: "cute::make_layout({0})"}),
    "shape_div": Op({2: "cute::shape_div({0}, {1})"}),
    "prefix_product": Op({1: "cute::compact_col_major({0})", 2: "cute::compact_col_major({0}, {1})"},
                         note="C++ has no prefix_product by that name: compact_col_major(a, init)"),
    "product": Op({1: "cute::product({0})"}),
    "inner_product": Op({2: "cute::inner_product({0}, {1})"}),
    "elem_scale": Op({2: "cute::elem_scale({0}, {1})"}),
    "congruent": Op({2: "cute::congruent({0}, {1})"}),
    "compatible": Op({2: "cute::compatible({0}, {1})"}),
    "flatten": Op({1: "cute::flatten({0})"}),
    # layout.hpp, int_tuple.hpp: recast and vectorization, tiling helpers; the ops on
    # swizzles, composed layouts and tensors run in oracles/cpp/composed.py
    "upcast": Op({2: "cute::upcast<{1}>({0})"}, literal=(1,)),
    "downcast": Op({2: "cute::downcast<{1}>({0})"}, literal=(1,)),
    "recast_layout": Op({3: "cute::recast_layout<cute::uint_bit_t<{1}>, cute::uint_bit_t<{2}>>({0})"},
                        literal=(1, 2), note="element types of the given bit widths (uint_bit_t)"),
    "max_common_vector": Op({2: "cute::max_common_vector({0}, {1})"}),
    "max_common_layout": Op({2: "cute::max_common_layout({0}, {1})"}),
    "nullspace": Op({1: "cute::nullspace({0})"}),
    "product_each": Op({1: "cute::product_each({0})"}),
    "make_ordered_layout": Op({2: "cute::make_ordered_layout({0}, {1})"}),
    "make_layout_like": Op({1: "cute::make_layout_like({0})"}),
    "tile_to_shape": Op({2: "cute::tile_to_shape({0}, {1})", 3: "cute::tile_to_shape({0}, {1}, {2})"}),
    "zip_layout": Op({1: "cute::zip({0})"}, note="C++ calls it zip"),
    "group_modes": Op({3: "cute::group<{1},{2}>({0})"}, literal=(1, 2), note="C++: group<B,E>(L)"),
}

# The protocol's argument kinds -> how a neutral value is written in C++.
_TUPLE_MAKER = {"layout": None, "tiler": "cute::make_tile", "coord": "cute::make_coord",
                "inttuple": "cute::make_tuple", "profile": "cute::make_tuple", "int": None}


@dataclass(frozen=True)
class Kernel:
    """One compiled unit of work: ``body`` (C++ statements, no name) and its ``key``.
    ``static``: no runtime integers (answered from the result's type)."""
    op: str
    body: str
    static: bool

    @property
    def key(self):
        return hashlib.sha256(f"{self.static}\0{self.body}".encode()).hexdigest()[:32]

    def as_driver(self):
        return Kernel(self.op, self.body, False) if self.static else self


class _Writer:
    def __init__(self):
        self.values = []

    def int(self, v, literal=False):
        if isinstance(v, bool) or not isinstance(v, int):
            raise Unsupported(f"{v!r} is not an integer")
        if not 0 <= int(v) < INT_LIMIT:
            raise Unsupported(f"integer {int(v)} does not fit CuTe's 32-bit int")
        if literal:
            return str(int(v))
        if isinstance(v, C):
            return f"cute::Int<{int(v)}>{{}}"
        self.values.append(int(v))
        return f"v{len(self.values) - 1}"

    def tuple(self, t, maker):
        if isinstance(t, tuple):
            return f"{maker}(" + ", ".join(self.tuple(e, maker) for e in t) + ")"
        return self.int(t)

    def layout(self, L):
        return f"cute::make_layout({self.tuple(L.shape, 'cute::make_shape')}, " \
               f"{self.tuple(L.stride, 'cute::make_stride')})"

    def arg(self, x, kind, literal=False):
        if isinstance(x, LayoutBase):
            return self.layout(x)
        if isinstance(x, Underscore):
            return "cute::_"
        if isinstance(x, tuple):
            maker = _TUPLE_MAKER.get(kind) or "cute::make_tuple"
            return f"{maker}(" + ", ".join(self.arg(e, kind) for e in x) + ")"
        return self.int(x, literal)


def kernel(op, args, kinds):
    """(Kernel, runtime values) for ``op(*args)``; ``kinds`` are the protocol's argument
    kinds (``OPS`` of oracles/protocol.py).  Raises Unsupported."""
    spec = OPS.get(op)
    if spec is None:
        raise Unsupported(f"CuTe C++ has no counterpart of {op} in layoutcheck's table")
    expr = spec.exprs.get(len(args))
    if expr is None:
        have = ", ".join(str(n) for n in sorted(spec.exprs))
        raise Unsupported(f"CuTe C++'s {op} is not called with {len(args)} argument(s) "
                          f"(it takes {have}){'; ' + spec.note if spec.note else ''}")
    w = _Writer()
    texts = [w.arg(a, k.rstrip("?"), i in spec.literal) for i, (a, k) in enumerate(zip(args, kinds))]
    call = expr.format(*texts)
    decls = "".join(f"int v{k} = lc::next(); " for k in range(len(w.values)))
    static = not w.values and (op != "values" or _size(args[0]) <= STATIC_VALUES_LIMIT)
    if op == "values" and static:  # lc::static_values: the same L(i) in a constant expression
        body = f"auto f = [&] {{ return lc::static_values({call}); }}; (void)lc::show<decltype(f())>();"
    elif op == "values":
        body = f"{decls}lc::values({call});"
    elif static:
        body = f"auto f = [&] {{ return {call}; }}; (void)lc::show<decltype(f())>();"
    else:
        body = f"{decls}lc::answer({call});"
    return Kernel(op, body, static), w.values


STATIC_VALUES_LIMIT = 1024  # values of a static layout up to this size: from its type


def _size(L):
    n = 1
    for x in leaves(L.shape) if isinstance(L, LayoutBase) else (INT_LIMIT,):
        n *= int(x)
    return n


def driver_body(k):
    """The driver (run-time) body of a static kernel whose result is not static, or whose
    compile-time values are not a constant expression."""
    m = re.fullmatch(r"auto f = \[&\] \{ return (.*); \}; \(void\)lc::show<decltype\(f\(\)\)>\(\);", k.body, re.S)
    if not m:
        return k
    v = re.fullmatch(r"lc::static_values\((.*)\)", m.group(1), re.S)
    if v:
        return Kernel(k.op, f"lc::values({v.group(1)});", False)
    return Kernel(k.op, f"lc::answer({m.group(1)});", False)


# --- answers ------------------------------------------------------------------------------

_TOKEN = re.compile(r"\s*(?:(_?)(\d+)|(_?true|_?false)|([(),:]))")


def _parse_value(text, pos=0):
    """A nested tuple of ints (``_N`` static) or bools from the printer's text; (value, end)."""
    stack, cur, value = [], None, None
    n = len(text)
    while True:
        m = _TOKEN.match(text, pos)
        if not m:
            raise LayoutError(f"unexpected text at {pos}: {text[pos:pos + 20]!r}")
        pos = m.end()
        if m.group(2) is not None:
            value = C(int(m.group(2))) if m.group(1) else int(m.group(2))
        elif m.group(3) is not None:
            value = m.group(3).lstrip("_") == "true"  # a bool answer (DESIGN.md): static or not
        else:
            ch = m.group(4)
            if ch == "(":
                stack.append(cur)
                cur = []
                continue
            if ch == ",":
                if cur is None:
                    raise LayoutError(f"',' outside a tuple at {pos - 1}")
                continue
            if ch == ")":
                if cur is None:
                    raise LayoutError(f"unbalanced ')' at {pos - 1}")
                value, cur = tuple(cur), stack.pop()
            else:  # ':' ends a shape; the caller handles it
                raise LayoutError(f"unexpected ':' at {pos - 1}")
        if cur is None:
            while pos < n and text[pos] == " ":
                pos += 1
            return value, pos
        cur.append(value)


def _parse_layout(text, pos=0):
    shape, pos = _parse_value(text, pos)
    if not text.startswith(":", pos):
        raise LayoutError(f"expected ':' at {pos}")
    stride, pos = _parse_value(text, pos + 1)
    return LayoutBase(shape, stride), pos


def parse_answer(text):
    """The neutral value of a driver answer line ``TAG text`` (see prelude.hpp).
    Raises LayoutError on anything else."""
    tag, _, rest = text.strip("\n").partition(" ")
    if tag == "V":
        return tuple(int(x) for x in rest.split())
    if tag == "L":
        value, end = _parse_layout(rest)
    elif tag == "P":
        layout, end = _parse_layout(rest)
        offset, end = _parse_value(rest, end)
        value = (layout, offset)
    elif tag in ("T", "B"):
        value, end = _parse_value(rest)
    else:
        raise LayoutError(f"not an answer line: {text[:80]!r}")
    if end != len(rest):
        raise LayoutError(f"trailing text {rest[end:end + 40]!r}")
    return value


# g++'s spelling of a static result type, e.g.
# cute::Layout<cute::tuple<cute::C<2>, cute::C<2> >, cute::tuple<cute::C<2>, cute::C<10> > >
_TYPE = re.compile(r"\s*(?:(cute::Layout<)|(cute::tuple<)|cute::C<\(?(?:[\w ]+\))?(-?\d+|true|false)[uUlL]*>"
                   r"|cute::integral_constant<[\w ]+,\s*\(?(?:[\w ]+\))?(-?\d+|true|false)[uUlL]*>|(>)|(,))")


_VALS = re.compile(r"(?:lc::)?vals<(.*)>")  # g++ names it without lc:: inside lc::show


def parse_static_type(text):
    """The neutral value of a static result type as g++ names it; None for a type this
    parser does not know (the case is then run as a driver kernel).  ``lc::vals<0, 2, ...>``
    (the values of a static layout) is the tuple of those ints, as the driver's V answer."""
    v = _VALS.fullmatch(text.strip())
    if v:
        items = [x.strip() for x in v.group(1).split(",")] if v.group(1).strip() else []
        if not all(re.fullmatch(r"-?\d+[lL]*", x) for x in items):
            return None
        return tuple(int(x.rstrip("lL")) for x in items)
    try:
        value, end = _type_value(text.strip(), 0)
    except (LayoutError, IndexError):
        return None
    return value if end == len(text.strip()) else None


def _type_value(text, pos):
    m = _TYPE.match(text, pos)
    if not m:
        raise LayoutError("unknown type")
    pos = m.end()
    num = m.group(3) or m.group(4)
    if num is not None:
        if num in ("true", "false"):
            return num == "true", pos
        if int(num) < 0:
            raise LayoutError("negative")
        return C(int(num)), pos
    if m.group(1) or m.group(2):
        items = []
        while True:
            m2 = _TYPE.match(text, pos)
            if m2 and m2.group(5):
                pos = m2.end()
                break
            if items:
                if not (m2 and m2.group(6)):
                    raise LayoutError("expected ','")
                pos = m2.end()
            item, pos = _type_value(text, pos)
            items.append(item)
        if m.group(1):
            if len(items) != 2:
                raise LayoutError("a layout has a shape and a stride")
            return LayoutBase(items[0], items[1]), pos
        return tuple(items), pos
    raise LayoutError("unexpected token")
