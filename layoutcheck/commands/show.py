"""`layoutcheck show LAYOUT`: the observers, modes and properties of one layout.

Nothing here enumerates the layout: the properties are decided from the modes
(``mode_properties``: ``layoutcheck.impl``'s mode-wise predicates, plus exact mode rules for
injectivity and surjectivity, z3 for the injectivity cases no rule settles); values are
computed one index at a time (the spec's Phi) and only the first ``--limit`` of them; the
grid is drawn only when it has at most ``--limit`` cells.  ``tests/test_show.py`` checks
every mode rule against the spec's literal, enumerating predicates.
"""

import json
import sys

import numpy as np
import z3

from layoutcheck import impl
from layoutcheck import spec as S
from layoutcheck.commands.common import check_output_path, count, write_output
from layoutcheck.composed import ComposedLayoutBase, F2Layout, Swizzle, looks_composed
from layoutcheck.errors import LayoutError
from layoutcheck.layout import leaves
from layoutcheck.reports.pictures import picture_for_show
from layoutcheck.spec.layout import parse as parse_layout

HELP = "show a layout's rank, depth, size, cosize, modes, properties and offsets"

MAX_LIMIT = 1 << 20  # --limit at most this many values / grid cells
Z3_TIMEOUT_MS = 5000


def add_arguments(parser):
    parser.add_argument("layout", help="a layout in CuTe notation, e.g. '(2,(2,2)):(4,(2,1))', a "
                        "swizzle 'Sw<3,4,3>' or a composed layout 'Sw<3,4,3> o _0 o (8,64):(64,1)'")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--limit", default=1024, metavar="N",
                        help=f"list at most N values, and draw the grid only when it has at "
                             f"most N cells (default 1024, at most {MAX_LIMIT})")
    parser.add_argument("--svg", metavar="FILE",
                        help="also draw the layout as an SVG grid (cells labelled with their "
                             "offset, coloured by offset; layoutcheck.reports.pictures)")
    parser.add_argument("--tv", action="store_true",
                        help="with --svg: a thread-value layout (thread, value) -> tile index, "
                             "cells coloured by thread")
    parser.add_argument("--tile", metavar="M,N",
                        help="with --tv: the tile (default: the most square M x N = cosize)")
    parser.add_argument("--banks", metavar="BYTES",
                        help="with --svg: the shared-memory bank of each cell for BYTES-byte "
                             "elements (1, 2, 4, 8, 16); the layout may be swizzled "
                             "('Sw<3,4,3> o _0 o (8,64):(64,1)')")


def _jsonable(t):
    if isinstance(t, tuple):
        return [_jsonable(x) for x in t]
    return int(t)


def grid_rows(L):
    """Rows of offsets for a rank-2 layout, like CuTe's ``print_layout``: row m, column n
    holds L(m, n); a nested mode is indexed by its own colexicographic index."""
    return [[L((m, n)) for n in range(S.size(L, 1))] for m in range(S.size(L, 0))]


def format_grid(rows):
    if not rows or not rows[0]:
        return []
    width = max(len(str(v)) for row in rows for v in row)
    width = max(width, len(str(len(rows[0]) - 1)))
    sep = "    " + ("+" + "-" * (width + 2)) * len(rows[0]) + "+"
    out = ["    " + "".join(f"  {n:>{width}} " for n in range(len(rows[0])))]
    for m, row in enumerate(rows):
        out.append(sep)
        out.append(f"{m:>2}  " + "".join(f"| {v:>{width}} " for v in row) + "|")
    out.append(sep)
    return out


# --- properties from the modes ----------------------------------------------------------

def _live_modes(L):
    """The flat modes that move: size > 1 (size-1 modes contribute nothing)."""
    return [(int(s), int(d)) for s, d in zip(leaves(L.shape), leaves(L.stride)) if int(s) > 1]


def is_surjective_by_modes(L):
    """Image(Phi_L) = [0, cosize(L)), exactly: the image is the sum of the progressions
    {0, d, ..., (s-1)d}.  Taken by increasing stride, while the partial sum is an interval
    [0, span], adding a progression with d <= span + 1 gives [0, span + (s-1)d]; a stride
    d > span + 1 leaves span + 1 < cosize uncovered for good (every later term is 0 or >= d).
    """
    span = 0
    for s, d in sorted((m for m in _live_modes(L) if m[1]), key=lambda m: m[1]):
        if d > span + 1:
            return False
        span += (s - 1) * d
    return True


def is_injective_by_modes(L, limit):
    """Phi_L injective: True / False, or None when undecided.  Rules: a moving stride-0
    mode repeats values; strides that each exceed the span of the smaller modes are
    injective; size > cosize is not (pigeonhole); a layout of at most ``limit`` points is
    enumerated (impl); else z3 looks for a non-zero y with |y_i| < s_i and sum y_i d_i = 0."""
    ms = _live_modes(L)
    if any(d == 0 for _, d in ms):
        return False
    span = 0
    for s, d in sorted(ms, key=lambda m: m[1]):
        if d <= span:
            break
        span += (s - 1) * d
    else:
        return True
    size = 1
    for s, _ in ms:
        size *= s
    cosize = 1 + sum((s - 1) * d for s, d in ms)
    if size > cosize:
        return False
    if size <= limit:

        v = impl.values(L)
        return bool(np.unique(v).size == v.size)
    return _injective_z3(ms)


def _injective_z3(ms):
    ys = [z3.Int(f"y{i}") for i in range(len(ms))]
    solver = z3.Solver()
    solver.set("timeout", Z3_TIMEOUT_MS)
    for y, (s, _) in zip(ys, ms):
        solver.add(y > -s, y < s)
    solver.add(z3.Sum([y * d for y, (_, d) in zip(ys, ms)]) == 0)
    solver.add(z3.Or([y != 0 for y in ys]))
    answer = solver.check()
    return None if answer == z3.unknown else answer == z3.unsat


def mode_properties(L, limit=1024):
    """The properties ``show`` reports, decided from the modes (never enumerating more than
    ``limit`` points): name -> True / False / None (undecided), then ``coalesced_form``."""
    out = {"sorted": impl.is_sorted(L), "column_major": impl.is_column_major(L),
           "row_major": impl.is_row_major(L), "non_degenerate": impl.is_non_degenerate(L),
           "injective": is_injective_by_modes(L, limit), "compact": impl.is_compact(L),
           "surjective": is_surjective_by_modes(L)}
    for name, fn in (("coalesced", impl.is_coalesced), ("complementable", impl.is_complementable),
                     ("tractable", impl.is_tractable)):
        try:
            out[name] = bool(fn(L))
        except (LayoutError, TypeError):
            continue
    out = {k: (v if v is None else bool(v)) for k, v in out.items()}
    try:
        out["coalesced_form"] = str(impl.coalesce(L))
    except (LayoutError, TypeError):
        pass
    return out


def describe(text, limit):
    """The shown facts as a dict (the JSON object)."""
    limit = count(0, MAX_LIMIT)(limit, "--limit")
    L = parse_layout(text)
    n = int(S.size(L))
    shown = min(n, limit)
    info = {
        "layout": str(L),
        "shape": _jsonable(L.shape),
        "stride": _jsonable(L.stride),
        "rank": int(S.rank(L)),
        "depth": int(S.depth(L)),
        "size": n,
        "cosize": int(S.cosize(L)),
        "modes": [str(m) for m in S.modes(L)] if S.rank(L) else [],
        "values": [int(S.Phi(L, i)) for i in range(shown)],
        "values_truncated": shown < n,
        "properties": mode_properties(L, limit),
    }
    if int(S.rank(L)) == 2 and isinstance(L.shape, tuple) and n <= limit:
        info["grid"] = grid_rows(L)
    return info


def describe_composed(value, limit):
    """The shown facts of a swizzle, a composed layout or an F2 layout (the JSON object):
    its parts, size, the codomain its function reaches (CuTe's ``cosize`` of a composed layout
    is its inner layout's), the first ``limit`` values and, for a rank-2 inner layout, the grid
    of C(m, n) as CuTe's ``print_layout`` draws a composed layout."""
    limit = count(0, MAX_LIMIT)(limit, "--limit")
    if isinstance(value, Swizzle):
        n = 1 << int(S.swizzle_span(value))
        shown = min(n, limit)
        vals = [int(S.swizzle_apply(value, i)) for i in range(shown)]
        return {"layout": str(value), "kind": "swizzle", "bits": value.bits, "base": value.base,
                "shift": value.shift, "size": n, "values": vals, "values_truncated": shown < n,
                "properties": {"involution": bool(S.is_involution(value))}}
    if isinstance(value, F2Layout):
        vals = list(S.f2_values(value))
        return {"layout": str(value), "kind": "f2 layout", "size": len(vals),
                "values": vals[:limit], "values_truncated": len(vals) > limit, "properties": {}}
    C = S.as_composed(value)
    n = int(S.size(C.inner))
    shown = min(n, limit)
    vals = [int(C(i)) for i in range(shown)]
    info = {"layout": str(C), "kind": "composed layout", "outer": str(C.outer),
            "offset": int(C.offset), "inner": str(C.inner), "rank": int(S.rank(C.inner)),
            "depth": int(S.depth(C.inner)), "size": n, "cosize": int(S.cosize(C.inner)),
            "reach": int(S.composed_cosize(C)) if n <= limit else None,
            "values": vals, "values_truncated": shown < n,
            "properties": {"injective": len(set(vals)) == len(vals) if shown == n else None}}
    if info["rank"] == 2 and isinstance(C.inner.shape, tuple) and n <= limit:
        info["grid"] = [[int(C((m, k))) for k in range(int(S.size(C.inner, 1)))]
                        for m in range(int(S.size(C.inner, 0)))]
    return info


def _picture(args):
    """--svg (with --tv / --tile / --banks): write the picture; False when the layout is not a
    plain layout (a swizzled one): then nothing else is shown."""

    if args.svg is None:
        if args.tv or args.tile is not None or args.banks is not None:
            raise LayoutError("--tv, --tile and --banks shape the picture: give --svg FILE too")
        return True
    if args.tv and args.banks is not None:
        raise LayoutError("--tv and --banks are different pictures: give one")
    check_output_path(args.svg, "--svg")
    banks = None if args.banks is None else count(1, 16)(args.banks, "--banks")
    svg, plain = picture_for_show(args.layout, tv=args.tv, tile=args.tile, banks=banks)
    write_output(args.svg, svg, "--svg")
    print(f"picture written to {args.svg}", file=sys.stderr)
    if not plain:
        print(f"layout      {args.layout.strip()}\npicture     {args.svg}")
    return plain


def run(args):
    args.limit = count(0, MAX_LIMIT)(args.limit, "--limit")
    if not _picture(args):
        return 0
    value = S.parse(args.layout) if looks_composed(args.layout) else None
    composed = isinstance(value, (Swizzle, F2Layout, ComposedLayoutBase))
    info = describe_composed(value, args.limit) if composed else describe(args.layout, args.limit)
    if args.json:
        print(json.dumps(info))
        return 0
    lines = [f"layout      {info['layout']}"]
    if composed:
        lines.append(f"kind        {info['kind']}")
    for key in ("outer", "offset", "inner", "bits", "base", "shift", "rank", "depth", "size",
                "cosize", "reach"):
        if info.get(key) is not None:
            lines.append(f"{key:<11} {info[key]}")
    if "modes" in info:
        lines.append("modes")
    for i, m in enumerate(info.get("modes", ())):
        lines.append(f"  {i}: {m}")
    lines.append("properties")
    for k, v in info["properties"].items():
        shown = "undecided" if v is None else ("yes" if v else "no") if isinstance(v, bool) else v
        lines.append(f"  {k:<16} {shown}")
    more = f" ... ({info['size'] - len(info['values'])} more; raise --limit)" \
        if info["values_truncated"] else ""
    lines.append("values      " + " ".join(map(str, info["values"])) + more)
    if "grid" in info:
        lines.append("grid (row = mode 0, column = mode 1)")
        lines.extend(format_grid(info["grid"]))
    elif info.get("rank") == 2:
        lines.append(f"grid        omitted: {info['size']} cells > --limit {args.limit}")
    print("\n".join(lines))
    return 0
