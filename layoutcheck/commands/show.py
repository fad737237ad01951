"""`layoutcheck show LAYOUT`: the observers, modes and properties of one layout.

Everything is computed by the executable spec (``layoutcheck.spec``), which enumerates:
fine for layouts up to a few hundred thousand elements.
"""

import json

HELP = "show a layout's rank, depth, size, cosize, modes, properties and offsets"


def add_arguments(parser):
    parser.add_argument("layout", help="a layout in CuTe notation, e.g. '(2,(2,2)):(4,(2,1))'")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--limit", type=int, default=1024, metavar="N",
                        help="list at most N values, and draw the grid only when it has at "
                             "most N cells (default 1024)")


def _jsonable(t):
    if isinstance(t, tuple):
        return [_jsonable(x) for x in t]
    return int(t)


def grid_rows(L):
    """Rows of offsets for a rank-2 layout, like CuTe's ``print_layout``: row m, column n
    holds L(m, n); a nested mode is indexed by its own colexicographic index."""
    from layoutcheck import spec as S
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


def describe(text, limit):
    """The shown facts as a dict (the JSON object)."""
    from layoutcheck import spec as S
    from layoutcheck.errors import LayoutError
    if limit < 0:
        raise LayoutError(f"--limit must be non-negative, got {limit}")
    L = S.parse(text)
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
        "properties": S.layout_properties(L),
    }
    if int(S.rank(L)) == 2 and isinstance(L.shape, tuple) and n <= limit:
        info["grid"] = grid_rows(L)
    return info


def run(args):
    info = describe(args.layout, args.limit)
    if args.json:
        print(json.dumps(info))
        return 0
    lines = [f"layout      {info['layout']}"]
    for key in ("rank", "depth", "size", "cosize"):
        lines.append(f"{key:<11} {info[key]}")
    lines.append("modes")
    for i, m in enumerate(info["modes"]):
        lines.append(f"  {i}: {m}")
    lines.append("properties")
    for k, v in info["properties"].items():
        shown = ("yes" if v else "no") if isinstance(v, bool) else v
        lines.append(f"  {k:<16} {shown}")
    more = f" ... ({info['size'] - len(info['values'])} more; raise --limit)" \
        if info["values_truncated"] else ""
    lines.append("values      " + " ".join(map(str, info["values"])) + more)
    if "grid" in info:
        lines.append("grid (row = mode 0, column = mode 1)")
        lines.extend(format_grid(info["grid"]))
    elif info["rank"] == 2:
        lines.append(f"grid        omitted: {info['size']} cells > --limit {args.limit}")
    print("\n".join(lines))
    return 0
