"""Pictures of layouts as SVG: the grids of CuTe's ``print_layout`` /
``print_latex`` drawn in our own style, for ``layoutcheck show --svg`` and the HTML report.

- ``layout_svg(L)``: a grid of offsets.  Rank 2: row m, column n holds L(m, n) (a nested mode
  indexed by its own colexicographic index); rank 1 and integral layouts are one column (as
  CuTe appends a ``_1:_0`` mode); rank > 2 is grouped as (mode 0, the other modes): rows are
  mode 0, columns the colexicographic index of the rest, so cell (m, n) is ``L(m + M n)``.
  Each cell is labelled with its offset and coloured by it (equal offsets, equal colours).
- ``tv_svg(TV, tile)``: a thread-value layout ``(thread, value) -> index`` drawn over its
  ``tile`` (M, N) (an index i is tile cell (i % M, i // M)): each cell says which thread and
  value land there and is coloured by thread (``print_latex_tv``).
- ``banks_svg(smem, element_bytes)``: a shared-memory layout (plain or composed, e.g.
  swizzled) with each cell's shared-memory bank (``layoutcheck.spec.banks``), coloured by bank.
- ``compare_svg(...)`` / ``failure_svg(row)``: the expected and the actual answer side by side,
  the cells whose offsets differ (same index, different value) marked on both.

Every picture is one well-formed SVG document (no script, no external reference); cells are
``<rect class="cell">`` with ``data-row``, ``data-col``, ``data-value`` and, where marked,
class ``cell diff``.  At most ``MAX_CELLS`` cells per grid (LayoutError beyond).
"""

import sys
import textwrap
from xml.sax.saxutils import escape, quoteattr

from layoutcheck import impl
from layoutcheck.composed import ComposedLayoutBase, parse_smem
from layoutcheck.errors import LayoutError
from layoutcheck.files import check_output_path, write_output
from layoutcheck.findings import load
from layoutcheck.layout import LayoutBase, size
from layoutcheck.oracles import Outcome, get_oracle
from layoutcheck.oracles.protocol import format_value
from layoutcheck.reports.reproducers import Case, claims, reference
from layoutcheck.spec.banks import BANKS, ELEMENT_BYTES, bank_of
from layoutcheck.spec.swizzle import composed_values

__all__ = ["grid_of", "layout_svg", "tv_svg", "banks_svg", "compare_svg", "failure_svg",
           "finding_svg", "picture_for_show", "parse_tile_shape", "default_tile", "MAX_CELLS"]

MAX_CELLS = 4096
CELL_H = 30
PAD = 34
FONT = "font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\""


COLUMN = 16  # a rank-1 layout is one column of at most this many cells, then wraps


def _ranked(L):
    return isinstance(L.shape, tuple) and len(L.shape) >= 2


def _rows_of(L):
    """M: how many rows the 2-D grouping of L has (size of mode 0 for rank >= 2; a rank-1
    layout is one column, wrapped every COLUMN cells)."""
    if _ranked(L):
        return size(L.shape[0])
    return min(size(L.shape), COLUMN)


def _values(x):
    """Every offset of a layout or a composed layout, index order."""
    if isinstance(x, ComposedLayoutBase):
        n = size(x.inner.shape)
        _limit(n)
        return [int(v) for v in composed_values(x)]
    _limit(size(x.shape))
    return [int(v) for v in impl.values(impl.Layout(x.shape, x.stride))]


def _limit(n):
    if n > MAX_CELLS:
        raise LayoutError(f"the picture would have {n} cells; at most {MAX_CELLS} are drawn")


def grid_of(values, rows):
    """Values (index order) as ``rows`` rows: cell (m, n) holds values[m + rows * n]."""
    rows = max(1, rows)
    cols = max(1, -(-len(values) // rows))
    return [[values[m + rows * n] if m + rows * n < len(values) else None for n in range(cols)]
            for m in range(rows)]


def _hue_colour(k, light=80):
    """A fill colour for an integer key: neighbouring keys get far-apart hues."""
    hue = (int(k) * 137.508) % 360
    return f"hsl({hue:.0f},62%,{light}%)"


def _cell_w(grid, labels=None):
    longest = max((len(str(v)) for row in grid for v in row if v is not None), default=1)
    if labels is not None:
        longest = max([longest] + [len(t) for row in labels for t in row if t])
    return max(34, 8 * longest + 14)


class _Canvas:
    def __init__(self):
        self.parts, self.width, self.height = [], 0, 0

    def add(self, text):
        self.parts.append(text)

    def text(self, x, y, s, size=12, anchor="middle", cls=None, weight=None):
        c = f" class={quoteattr(cls)}" if cls else ""
        w = f" font-weight=\"{weight}\"" if weight else ""
        self.add(f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}"{c}{w}>'
                 f"{escape(str(s))}</text>")

    def svg(self, title):
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width:.0f}" '
                f'height="{self.height:.0f}" viewBox="0 0 {self.width:.0f} {self.height:.0f}" '
                f'{FONT} role="img">')
        return "\n".join([head, f"<title>{escape(title)}</title>",
                          f'<rect class="background" x="0" y="0" width="{self.width:.0f}" '
                          f'height="{self.height:.0f}" fill="white"/>', *self.parts, "</svg>"]) + "\n"


def _draw_grid(cv, x0, y0, grid, title, fill, labels=None, marks=(), caption=None, kind="offset"):
    """One grid on the canvas at (x0, y0); returns its (width, height)."""
    cw = _cell_w(grid, labels)
    rows, cols = len(grid), len(grid[0]) if grid else 0
    cv.text(x0, y0 + 14, title, size=13, anchor="start", cls="grid-title", weight="bold")
    top, left = y0 + 24 + 16, x0 + PAD
    for n in range(cols):
        cv.text(left + n * cw + cw / 2, top - 5, n, size=10, cls="axis")
    marks = set(marks)
    cv.add(f'<g class="grid" data-rows="{rows}" data-cols="{cols}" data-kind="{kind}">')
    for m in range(rows):
        cv.text(left - 6, top + m * CELL_H + CELL_H / 2 + 4, m, size=10, anchor="end", cls="axis")
        for n in range(cols):
            v = grid[m][n]
            x, y = left + n * cw, top + m * CELL_H
            diff = (m, n) in marks
            cls = "cell diff" if diff else "cell"
            colour = "white" if v is None else fill(m, n, v)
            cv.add(f'<rect class="{cls}" data-row="{m}" data-col="{n}" '
                   f'data-value="{"" if v is None else v}" x="{x:.1f}" y="{y:.1f}" '
                   f'width="{cw}" height="{CELL_H}" fill="{colour}" '
                   f'stroke="{"#d00000" if diff else "#555"}" '
                   f'stroke-width="{3 if diff else 1}"/>')
            label = labels[m][n] if labels is not None else ("" if v is None else str(v))
            if label:
                cv.text(x + cw / 2, y + CELL_H / 2 + 4, label, size=11 if labels is None else 10,
                        cls="label diff" if diff else "label")
    cv.add("</g>")
    w = max(PAD + cols * cw + 8, 12 + 8.2 * len(title))
    h = 40 + rows * CELL_H + 6
    lines = caption if isinstance(caption, list) else [caption] if caption else []
    for k, line in enumerate(lines):
        cv.text(x0, y0 + h + 14 + 15 * k, line, size=11, anchor="start", cls="caption")
        w = max(w, 12 + 6.8 * len(line))
    return w, h + (8 + 15 * len(lines) if lines else 0)


def _single(title, grid, fill, labels=None, caption=None, kind="offset"):
    cv = _Canvas()
    w, h = _draw_grid(cv, 10, 8, grid, title, fill, labels, caption=caption, kind=kind)
    cv.width, cv.height = w + 20, h + 16
    return cv.svg(title)


def layout_svg(L, title=None):
    """The grid of a layout's offsets (see the module docstring)."""
    L = _as_layout(L)
    values = _values(L)
    grid = grid_of(values, _rows_of(L))
    return _single(title or str(L), grid, lambda m, n, v: _hue_colour(v),
                   caption=_grouping_note(L))


def _grouping_note(L):
    if isinstance(L.shape, tuple) and len(L.shape) > 2:
        return "rows: mode 0; columns: modes 1.. in colexicographic order"
    if not isinstance(L.shape, tuple) or len(L.shape) < 2:
        more = f", wrapped every {COLUMN} cells" if size(L.shape) > COLUMN else ""
        return f"one column: rank 1 (CuTe appends a _1:_0 mode){more}"
    return None


def _as_layout(L):
    if isinstance(L, str):
        return LayoutBase.parse(L)
    if not isinstance(L, LayoutBase):
        raise LayoutError(f"expected a layout, got {type(L).__name__}")
    return L


def parse_tile_shape(text):
    """``M,N`` or ``(M,N)`` -> (M, N), positive ints."""
    t = str(text).strip().strip("()")
    parts = [p.strip() for p in t.split(",")]
    if len(parts) != 2 or not all(p.lstrip("_").isdigit() for p in parts):
        raise LayoutError(f"--tile {text!r}: expected M,N (two positive integers)")
    m, n = (int(p.lstrip("_")) for p in parts)
    if m < 1 or n < 1:
        raise LayoutError(f"--tile {text!r}: both sizes must be at least 1")
    _limit(m * n)
    return m, n


def default_tile(cosize):
    """The most square (M, N) with M * N == cosize and M >= N."""
    n = max(d for d in range(1, int(cosize ** 0.5) + 1) if cosize % d == 0)
    return cosize // n, n


def tv_svg(TV, tile=None, title=None):
    """A thread-value layout over its tile (see the module docstring)."""
    TV = _as_layout(TV)
    if not isinstance(TV.shape, tuple) or len(TV.shape) != 2:
        raise LayoutError(f"--tv needs a rank-2 (thread, value) layout, got {TV}")
    threads = size(TV.shape[0])
    values = _values(TV)
    cos = max(values) + 1
    M, N = tile or default_tile(cos)
    if cos > M * N:
        raise LayoutError(f"the layout reaches index {cos - 1}, outside the {M}x{N} tile")
    owner, labels = {}, [["" for _ in range(N)] for _ in range(M)]
    for i, idx in enumerate(values):
        t, v = i % threads, i // threads
        cell = (idx % M, idx // M)
        if cell not in owner:
            owner[cell] = (t, v)
            labels[cell[0]][cell[1]] = f"T{t}V{v}"
        elif not labels[cell[0]][cell[1]].endswith("+"):
            labels[cell[0]][cell[1]] += "+"   # more than one (thread, value) lands here
    grid = [[owner[(m, n)][0] if (m, n) in owner else None for n in range(N)] for m in range(M)]
    return _single(title or f"{TV} over a {M}x{N} tile", grid,
                   lambda m, n, t: _hue_colour(t, 78), labels=labels, kind="thread",
                   caption=f"cell (m, n) = tile index m + {M} n; colour = thread; "
                           "a + marks a cell more than one (thread, value) reaches")


def banks_svg(smem, element_bytes, title=None):
    """Each cell of a shared-memory layout with its bank (``spec.banks.bank_of``)."""
    if element_bytes not in ELEMENT_BYTES:
        raise LayoutError(f"--banks {element_bytes}: the element width in bytes must be one of "
                          f"{', '.join(map(str, ELEMENT_BYTES))}")
    shape_of = smem.inner if isinstance(smem, ComposedLayoutBase) else _as_layout(smem)
    offsets = _values(smem)
    rows = _rows_of(shape_of)
    banks = [bank_of(o * element_bytes) for o in offsets]
    grid = grid_of(banks, rows)
    offs = grid_of(offsets, rows)
    labels = [[f"{o}:b{b}" if o is not None else "" for o, b in zip(ro, rb)]
              for ro, rb in zip(offs, grid)]
    return _single(title or f"{smem}, {element_bytes}-byte elements: banks", grid,
                   lambda m, n, b: _hue_colour(b * 3, 80), labels=labels, kind="bank",
                   caption=f"label offset:bank; bank = (offset x {element_bytes} B / 4) mod "
                           f"{BANKS}; colour = bank")


def compare_svg(expected, actual, rows, titles=("expected", "actual"), caption=None,
                heading=None):
    """Two value lists side by side as grids of ``rows`` rows (``rows`` a pair: one per
    side), cells whose index holds different values (or exists on one side only) marked."""
    n = max(len(expected), len(actual))
    _limit(n)
    diff = {i for i in range(n) if (expected[i] if i < len(expected) else None)
            != (actual[i] if i < len(actual) else None)}
    cv = _Canvas()
    x, tallest, y0 = 10, 0, 8
    if heading:
        cv.text(10, 20, heading, size=13, anchor="start", cls="heading", weight="bold")
        y0 = 30
    for values, r, title in zip((expected, actual), rows, titles):
        r = max(1, r)
        marks = {(i % r, i // r) for i in diff if i < len(values)}
        w, h = _draw_grid(cv, x, y0, grid_of(list(values), r), title,
                          lambda m, k, v: _hue_colour(v), marks=marks)
        x += w + 28
        tallest = max(tallest, h)
    lines = [f"{len(diff)} of {n} cells differ (marked in red)" if diff else "no cell differs"]
    for c in caption if isinstance(caption, list) else ([caption] if caption else []):
        lines += textwrap.wrap(c, 100) or [""]
    for k, line in enumerate(lines):
        cv.text(10, y0 + tallest + 16 + 15 * k, line, size=11, anchor="start", cls="caption")
    cv.width = max(x, 20 + 6.8 * max(len(s) for s in lines), 20 + 8.2 * len(heading or ""))
    cv.height = y0 + tallest + 24 + 15 * len(lines)
    return cv.svg(heading or f"{titles[0]} vs {titles[1]}")


def picture_for_show(text, tv=False, tile=None, banks=None):
    """``layoutcheck show TEXT --svg``: (svg, whether TEXT is a plain layout)."""
    if banks is not None:
        if not (isinstance(banks, int) and 1 <= banks <= 16):
            raise LayoutError(f"--banks must be an integer in [1, 16], got {banks!r}")
        smem = parse_smem(text)
        return banks_svg(smem, banks), isinstance(smem, LayoutBase)
    if tile is not None and not tv:
        raise LayoutError("--tile goes with --tv (a thread-value layout over a tile)")
    L = LayoutBase.parse(text)
    if tv:
        return tv_svg(L, parse_tile_shape(tile) if tile is not None else None), True
    return layout_svg(L), True


# --- pictures of a failure -------------------------------------------------------------------

def _parse(text):
    try:
        return LayoutBase.parse(text) if isinstance(text, str) else None
    except (LayoutError, ValueError, TypeError):
        return None


def _truth(op, inputs, oracle):
    """What a correct answer computes where the spec refuses (composition: i -> A(B(i)); a
    divide's tile), from ``layoutcheck.reports.reproducers``; None when there is no such claim."""
    try:
        case = Case(oracle, op, tuple(inputs))
        for c in claims(case, Outcome.raised("refused")):
            if c["kind"] == "values":
                return list(c["table"]), c.get("why") or "a correct answer"
    except Exception:  # noqa: BLE001 - no defining property known for this op
        return None
    return None


def _caption(key, text, limit=300):
    """``key: text`` for a caption (wrapped by compare_svg), shortened at a word boundary
    (a plain [:160] cut a message mid-word: "[condition is_composa")."""
    return textwrap.shorten(f"{key}: {text}", limit, placeholder=" ...")


def failure_svg(row):
    """The side-by-side picture of a fuzz result row with a counterexample, or None when its
    answers hold no layout to draw."""
    answers, oracle = row.get("answers") or {}, row.get("oracle") or ""
    inputs = row.get("counterexample") or []
    names = {oracle, oracle.replace("_", " ")}
    act_key = next((k for k in answers if k in names), None)
    exp_key = next((k for k in answers if k != act_key and k.startswith("spec")), None)
    if act_key is None or exp_key is None:  # a law: its first two layouts (input vs result)
        keys = [k for k in answers if _parse(answers[k]) is not None]
        if len(keys) < 2:
            return None
        exp_key, act_key = keys[0], keys[1]
    E, A = _parse(answers.get(exp_key)), _parse(answers.get(act_key))
    case = f"{row.get('op')}({', '.join(inputs)})"
    try:
        if E is not None and A is not None:
            rows = (_rows_of(E), _rows_of(A))
            if size(E.shape) == size(A.shape):  # one grouping for both: cells line up
                rows = (_rows_of(A),) * 2 if _ranked(A) and not _ranked(E) else (rows[0],) * 2
            return compare_svg(_values(E), _values(A), rows,
                               (f"{exp_key}: {E}", f"{act_key}: {A}"), heading=case)
        if A is not None:
            truth = _truth(row.get("op"), inputs, oracle)
            if truth is None:
                return None
            values, why = truth
            return compare_svg(values, _values(A), (_rows_of(A), _rows_of(A)),
                               (f"correct: {why}", f"{act_key}: {A}"), heading=case,
                               caption=[_caption(exp_key, answers.get(exp_key))])
        if E is not None:
            return _single(f"{exp_key}: {E}", grid_of(_values(E), _rows_of(E)),
                           lambda m, n, v: _hue_colour(v),
                           caption=[_caption(act_key, answers.get(act_key))])
    except LayoutError:  # too large to draw
        return None
    return None


def finding_svg(finding_id, answer=None):
    """The picture of a finding's first repro case: the oracle's answer (``answer``: its
    text; default: run the oracle here) against the spec."""
    f = next((x for x in load() if x["id"] == finding_id), None)
    if f is None or not f.get("repro"):
        raise LayoutError(f"{finding_id}: no such finding with a repro case in the register")
    rep = f["repro"][0] if isinstance(f["repro"], list) else f["repro"]
    case = Case(rep["oracle"], rep["op"], tuple(rep["args"]))
    if answer is None:
        out = get_oracle(case.oracle).run(case.op, *case.args)
        if out.kind != "ok":
            raise LayoutError(f"{finding_id}: {case.oracle} answers {out}")
        answer = format_value(case.op, out.value)
    exp = reference(case)
    shown = format_value(case.op, exp.value) if exp.kind == "ok" else f"{exp.kind}: {exp.message}"
    row = {"op": case.op, "oracle": case.oracle, "counterexample": list(case.texts),
           "answers": {"spec[cute]": shown, case.oracle: answer}}
    svg = failure_svg(row)
    if svg is None:
        raise LayoutError(f"{finding_id}: nothing to draw for {case.text()}")
    return svg.replace(f"<title>{escape(case.text())}</title>",
                       f"<title>{escape(finding_id + ': ' + case.text())}</title>", 1)


def _main(argv):
    """``python -m layoutcheck.reports.pictures F-NNN OUT.svg``: a finding's picture, the oracle run
    here (how docs/F-030.svg is made)."""
    if len(argv) != 2:
        print("usage: python -m layoutcheck.reports.pictures F-NNN OUT.svg", file=sys.stderr)
        return 2
    try:
        svg = finding_svg(argv[0])
        check_output_path(argv[1], "OUT.svg")
        write_output(argv[1], svg, "OUT.svg")
    except LayoutError as e:
        print(f"layoutcheck.reports.pictures: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    import sys
    sys.exit(_main(sys.argv[1:]))
