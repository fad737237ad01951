"""Shrinking a failing case by CuTe's measures: one order, one set of moves, one search, for
every oracle.

A failing case is a tuple of neutral arguments (layouts, tilers, coordinates, IntTuples,
integers, swizzles, composed and F2 layouts).  Hypothesis shrinks the *choices* a strategy
made, which is not the same as making the CuTe value small, and a compiled oracle cannot
afford hypothesis' one-case-at-a-time shrinking anyway.  So every failure, from every oracle,
is shrunk here, after it is found, with the same order and the same moves: two oracles that
fail on one bug end on the same case wherever the search reaches the same local minimum.

**The order** (``measure``): a case is smaller than another when, compared in this order,

1. it has fewer *modes*: leaf modes of its layouts (a shape entry with its stride), leaves
   of its tuples (integers and ``_``), and its integer arguments;
2. it has fewer *tuples* (pairs of parentheses: shallower nesting);
3. the sum of its integers (extents, strides, coordinates, swizzle parameters, offsets) is
   smaller, by absolute value;
4. it has fewer *static marks* (``_4`` is a static 4; the failure keeps a mark it needs);
5. its integers, read left to right, are smaller (lexicographically);
6. its CuTe text is smaller (so the order is total: no two cases tie).

**The moves** (``candidates``): every case one move away that is smaller in that order.
Per argument: drop a mode (at any depth), splice a nested tuple into its parent, replace a
tuple by one of its elements (unnest; ``(8):(1)`` becomes ``8:1``), make an extent 1, 2, its
half, one less or itself divided by one of its prime factors, a stride or an integer the same
from 0 and 1, divide every stride of a layout by a prime factor they share (which keeps the
relations between its strides and extents), remove one static mark;
on a swizzle, lower B, M or |S|; on a composed layout, each part.  Across arguments: the same
structural move at the same place in every argument that has a tuple of that length there
(a coordinate and its shape lose the same mode), and every static mark removed at once.
A move keeps each argument's kind: a layout stays a layout, a tuple stays a tuple or becomes
one of its elements.

**The search** (``shrink``): greedy and deterministic.  Each round takes the candidates of the
current case in three groups, each sorted by the order: first those of the current case's *type*
(``type_of``: the same nesting and the same static values, only runtime integers changed; CuTe
C++ answers them through the kernel already compiled), then those that only lose static marks
(after which the case's integers are runtime ones), then the rest.  They are judged in
chunks of ``CHUNK`` (one ``run_many`` per chunk and stage, so at most one compile per chunk for
CuTe C++); the smallest candidate of the first chunk that holds one that *fails the same way*
becomes the current case, and the next round starts from it.
Failing the same way (``same``) is judged on labels ``(kind, signature, finding)``: for a
known finding, the same finding; for a new failure, no finding (a new failure never shrinks
into a known one), the same kind ("fail", or "error:" and the exception's type) and the same
``signature`` of its message (the statement that failed with its numbers and values blanked),
so that a case does not drift into another failure of the same check (a move may leave the
cases a strategy draws: an input outside an operation's precondition fails differently).  It ends at a local minimum (no candidate fails the same way) or at its bound
(seconds, candidates judged, compiles), and says which.  The result depends only on the first
case and the oracle's answers, never on timing, unless a bound cuts it.
"""

import math
import re
import time
from dataclasses import dataclass, field
from typing import Callable, Optional

from layoutcheck.fuzz.checks.base import CheckFailed
from layoutcheck.oracles.protocol import format_arg
from layoutcheck.oracles.reference import case_key

from layoutcheck.composed import ComposedLayoutBase, F2Layout, Swizzle
from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, Underscore, leaves

__all__ = ["measure", "candidates", "shrink", "type_of", "Shrunk", "size_of", "signature", "same", "label_of", "known_label", "CHUNK"]

CHUNK = 64  # candidates judged together (one run_many per stage; one compile for CuTe C++)
SMALL = 8   # an integer up to this shrinks to every smaller value


# --- the order -----------------------------------------------------------------------------

class _Tally:
    __slots__ = ("modes", "tuples", "total", "statics", "ints")

    def __init__(self):
        self.modes = self.tuples = self.total = self.statics = 0
        self.ints = []

    def integer(self, v):
        n = abs(int(v))
        self.total += n
        self.ints.append(n)
        self.statics += isinstance(v, C)

    def nest(self, t):
        """Count the tuples of a shape-like nested tuple."""
        if isinstance(t, tuple):
            self.tuples += 1
            for e in t:
                self.nest(e)

    def walk(self, x):
        if isinstance(x, (LayoutBase, F2Layout)):
            shape = leaves(x.shape)
            self.modes += len(shape)
            self.nest(x.shape)
            for s, d in zip(shape, leaves(x.stride)):
                self.integer(s)
                self.integer(d)
        elif isinstance(x, ComposedLayoutBase):
            self.walk(x.outer)
            self.integer(x.offset)
            self.walk(x.inner)
        elif isinstance(x, Swizzle):
            for v in x.params:
                self.integer(v)
        elif isinstance(x, tuple):
            self.tuples += 1
            for e in x:
                self.walk(e)
        elif isinstance(x, bool):
            return
        elif isinstance(x, int):
            self.modes += 1
            self.integer(x)
        elif isinstance(x, Underscore):
            self.modes += 1


def measure(args) -> tuple:
    """The case's place in the shrinking order (smaller is simpler): (modes, tuples, sum of
    |integers|, static marks, the integers left to right, the CuTe text).  See the module
    docstring."""
    t = _Tally()
    for a in args:
        t.walk(a)
    return (t.modes, t.tuples, t.total, t.statics, tuple(t.ints),
            ", ".join(format_arg(a) for a in args))


def size_of(args) -> dict:
    """What the benchmarks report of a case: its modes, tuples and largest integer."""
    t = _Tally()
    for a in args:
        t.walk(a)
    return {"modes": t.modes, "tuples": t.tuples, "largest": max(t.ints, default=0),
            "statics": t.statics}


# --- the moves -----------------------------------------------------------------------------

class _Pair:
    """A leaf mode of a layout in a tree of modes: (extent, stride); not a tuple."""
    __slots__ = ("s", "d")

    def __init__(self, s, d):
        self.s, self.d = s, d


def _paired(shape, stride):
    if isinstance(shape, tuple):
        return tuple(_paired(s, d) for s, d in zip(shape, stride))
    return _Pair(shape, stride)


def _unpaired(t):
    if isinstance(t, tuple):
        parts = [_unpaired(e) for e in t]
        return tuple(p[0] for p in parts), tuple(p[1] for p in parts)
    return t.s, t.d


def _factors(n):
    """The prime factors of n (n >= 2), smallest first, at most eight."""
    out, p = [], 2
    while p * p <= n and len(out) < 8:
        if n % p == 0:
            out.append(p)
            while n % p == 0:
                n //= p
        p += 1
    if n > 1:
        out.append(n)
    return out


def _smaller(v, lo):
    """Smaller integers than ``v`` (toward ``lo``): every one below ``SMALL``; else lo, lo + 1,
    v // 2, v - 1, and v divided by each of its prime factors (divisibility decides much of
    the algebra: 35 shrinks to 7 and to 5); static stays static."""
    n = int(v)
    out = set(range(lo, n)) if n <= SMALL else {lo, lo + 1, n // 2, n - 1}
    if n >= 2:
        out.update(n // p for p in _factors(n))
    out = sorted(x for x in out if lo <= x < n)
    return [C(x) if isinstance(v, C) else x for x in out]


def _unmark(x):
    """``x`` with every static integer made a runtime one."""
    if isinstance(x, LayoutBase):
        return LayoutBase(_unmark(x.shape), _unmark(x.stride))
    if isinstance(x, F2Layout):
        return F2Layout(_unmark(x.shape), _unmark(x.stride))
    if isinstance(x, ComposedLayoutBase):
        return ComposedLayoutBase(_unmark(x.outer), _unmark(x.offset), _unmark(x.inner))
    if isinstance(x, tuple):
        return tuple(_unmark(e) for e in x)
    if isinstance(x, C):
        return int(x)
    return x


def _nodes(t, path=()):
    """(path, node) of every tuple node of a nested tuple, the root first."""
    if isinstance(t, tuple):
        yield path, t
        for i, e in enumerate(t):
            yield from _nodes(e, path + (i,))


def _leaves_at(t, path=()):
    if isinstance(t, tuple):
        for i, e in enumerate(t):
            yield from _leaves_at(e, path + (i,))
    else:
        yield path, t


def _replace(t, path, new):
    if not path:
        return new
    i = path[0]
    return t[:i] + (_replace(t[i], path[1:], new),) + t[i + 1:]


def _at(t, path):
    for i in path:
        if not isinstance(t, tuple) or i >= len(t):
            return None
        t = t[i]
    return t


def _structural(node):
    """The structural moves on one tuple node: ("drop", i), ("splice", i), ("hoist", i)."""
    for i, child in enumerate(node):
        yield ("drop", i)
        if isinstance(child, tuple):
            yield ("splice", i)
        yield ("hoist", i)


def _apply(tree, path, move):
    node = _at(tree, path)
    kind, i = move
    if not isinstance(node, tuple) or i >= len(node):
        return None
    if kind == "drop":
        return _replace(tree, path, node[:i] + node[i + 1:])
    if kind == "splice":
        if not isinstance(node[i], tuple):
            return None
        return _replace(tree, path, node[:i] + node[i] + node[i + 1:])
    return _replace(tree, path, node[i])  # hoist: the node becomes its i-th element


def _tree(x):
    """(tree, rebuild) of an argument with a tuple structure (a layout's tree of modes, a
    tuple), else None."""
    if isinstance(x, (LayoutBase, F2Layout)):
        kind = type(x)
        return _paired(x.shape, x.stride), lambda t: kind(*_unpaired(t))
    if isinstance(x, tuple):
        return x, lambda t: t
    return None


def _build(rebuild, tree):
    try:
        return rebuild(tree)
    except (LayoutError, TypeError, ValueError):
        return None


def _leaf_moves(leaf):
    """Smaller versions of one leaf of a tree: a layout mode, an integer, a layout (in a
    tiler)."""
    if isinstance(leaf, _Pair):
        for s in _smaller(leaf.s, 1):
            yield _Pair(s, leaf.d)
        for d in _smaller(leaf.d, 0):
            yield _Pair(leaf.s, d)
        if isinstance(leaf.s, C):
            yield _Pair(int(leaf.s), leaf.d)
        if isinstance(leaf.d, C):
            yield _Pair(leaf.s, int(leaf.d))
    elif isinstance(leaf, bool):
        return
    elif isinstance(leaf, int):
        yield from _smaller(leaf, 0)
        if isinstance(leaf, C):
            yield int(leaf)
    else:
        yield from _moves(leaf)


def _scaled(x):
    """A layout with every stride divided by a prime factor they share: the relations between
    its strides and extents (``d_i+1 == s_i d_i``, equal strides) stay as they are."""
    strides = [int(d) for d in leaves(x.stride) if int(d)]
    g = 0
    for d in strides:
        g = math.gcd(g, d)
    if g < 2:
        return
    for p in _factors(g):
        def down(t):
            if isinstance(t, tuple):
                return tuple(down(e) for e in t)
            return C(int(t) // p) if isinstance(t, C) else int(t) // p
        yield _build(lambda t: type(x)(x.shape, t), down(x.stride))


def _moves(x):
    """Every argument one move smaller than ``x`` (some may not be smaller in the order)."""
    shaped = _tree(x)
    if isinstance(x, (LayoutBase, F2Layout)):
        yield from _scaled(x)
    if shaped is not None:
        tree, rebuild = shaped
        for path, node in _nodes(tree):
            for move in _structural(node):
                got = _apply(tree, path, move)
                if got is not None:
                    yield _build(rebuild, got)
        for path, leaf in _leaves_at(tree):
            for new in _leaf_moves(leaf):
                yield _build(rebuild, _replace(tree, path, new))
    elif isinstance(x, ComposedLayoutBase):
        parts = (x.outer, x.offset, x.inner)
        for k, part in enumerate(parts):
            subs = _leaf_moves(part) if k == 1 else _moves(part)
            for new in subs:
                if new is None:
                    continue
                try:
                    yield ComposedLayoutBase(*(new if j == k else p for j, p in enumerate(parts)))
                except LayoutError:
                    continue
    elif isinstance(x, Swizzle):
        b, m, s = x.params
        sign = -1 if s < 0 else 1
        options = [(b2, m, s) for b2 in _smaller(b, 0)] + [(b, m2, s) for m2 in _smaller(m, 0)]
        options += [(b, m, sign * s2) for s2 in _smaller(abs(s), 0)]
        for p in options:
            try:
                yield Swizzle(*p)
            except LayoutError:
                continue
    elif isinstance(x, int) and not isinstance(x, bool):
        yield from _leaf_moves(x)


def _joint(args):
    """The same structural move at the same place of every argument that has a tuple of that
    length there (at least two arguments)."""
    trees = [_tree(a) for a in args]
    places = {}
    for k, shaped in enumerate(trees):
        if shaped is None:
            continue
        for path, node in _nodes(shaped[0]):
            places.setdefault((path, len(node)), []).append(k)
    for (path, _), ks in places.items():
        if len(ks) < 2:
            continue
        node = _at(trees[ks[0]][0], path)
        for move in _structural(node):
            out = list(args)
            for k in ks:
                tree, rebuild = trees[k]
                got = _apply(tree, path, move)
                new = None if got is None else _build(rebuild, got)
                if new is None:
                    break
                out[k] = new
            else:
                yield tuple(out)


def candidates(args) -> list:
    """Every case one move away from ``args`` that is smaller in the order, smallest first,
    each once (static and runtime integers told apart)."""
    args = tuple(args)
    here, own = measure(args), case_key(args)
    found = {}

    def add(case):
        key = case_key(case)
        if key != own and key not in found:
            found[key] = case
    for i, a in enumerate(args):
        for new in _moves(a):
            if new is not None:
                add(args[:i] + (new,) + args[i + 1:])
    for case in _joint(args):
        add(case)
    unmarked = tuple(_unmark(a) for a in args)
    add(unmarked)
    ranked = sorted((measure(c), c) for c in found.values())
    return [c for m, c in ranked if m < here]


# --- the search ----------------------------------------------------------------------------

def type_of(args):
    """What a case's types depend on: its nesting and its static values (a runtime integer is
    just ``int``).  Cases of one type share CuTe C++'s compiled kernels."""
    if isinstance(args, LayoutBase):
        return ("L", type_of(args.shape), type_of(args.stride))
    if isinstance(args, tuple):
        return tuple(type_of(a) for a in args)
    if isinstance(args, int) and not isinstance(args, (bool, C)):
        return "int"
    return case_key(args)


_VALUE = re.compile(r"[#(),:_\[\]<>]*#[#(),:_\[\]<>]*")
_RAISED = re.compile(r"([A-Z]\w*(?:Error|Exception|Exit|Interrupt|Warning))\b")


def signature(failure, oracle=None) -> str:
    """The statement a failure's message makes, with its numbers and values blanked (``#``):
    ``"results disagree"`` (how far the answers still agree is left out: one bug gives other
    levels on other inputs), ``"L(R(#)) != #"``; with the exception type the ``oracle``'s
    answer names, where it raised one (``"... rejects an input the spec accepts
    [AssertionError]"``)."""
    message = getattr(failure, "message", None) or str(failure)
    first = message.splitlines()[0] if message else ""
    first = _VALUE.sub("#", re.sub(r"\d+", "#", first.split(" (strictest agreement: ")[0]))[:200]
    answer = (getattr(failure, "answers", None) or {}).get(oracle) if oracle else None
    raised = _RAISED.match(answer) if isinstance(answer, str) else None
    return first + (f" [{raised.group(1)}]" if raised else "")


def label_of(failure, finding=None, oracle=None) -> tuple:
    """A failure's label ``(kind, signature, finding)``: kind "fail" for a check that failed
    (``CheckFailed``), else "error:" and the exception's type (a crash, a harness error);
    ``oracle``: the name of the oracle under test (``signature``)."""
    if isinstance(failure, CheckFailed):
        return ("fail", signature(failure, oracle), finding)
    return (f"error:{type(failure).__name__}", "", finding)  # a crash finding, or None


def known_label(finding, checked=True):
    """The ``finding`` part of a label: the finding's id, or for a known region whose answer
    was not checked (``recognise``) the id and that mark: a case whose answer was checked never
    shrinks into one whose answer was not, nor the other way round."""
    if finding is None or checked:
        return finding
    return (finding, "answer not checked")


def same(target, got) -> bool:
    """Whether a candidate's label ``got`` fails the way ``target`` does (labels are
    ``(kind, signature, finding)``; see the module docstring)."""
    if got is None or got[2] != target[2]:
        return False
    return target[2] is not None or got[:2] == target[:2]


@dataclass
class Shrunk:
    """The outcome of ``shrink``: the first and the minimal case (``failure``: what the minimal
    case failed with), the moves taken (``steps``), the chunks and candidates judged, the
    seconds and compiles spent, and ``cut``: None when ``minimal`` is a local minimum (no
    candidate fails the same way), else the bound that ended the search ("time", "compiles",
    "candidates")."""

    first: tuple
    minimal: tuple
    failure: object = None
    steps: int = 0
    rounds: int = 0
    candidates: int = 0
    seconds: float = 0.0
    compiles: int = 0
    cut: Optional[str] = None
    label: Optional[tuple] = None
    judged: set = field(default_factory=set, repr=False)
    chunk_s: float = 0.0  # seconds the last chunk took (a resumed search predicts with it)

    def row(self) -> dict:
        """The report row's ``shrink`` entry."""
        return {"first": [format_arg(a) for a in self.first], "steps": self.steps,
                "rounds": self.rounds, "candidates": self.candidates,
                "seconds": round(self.seconds, 3), "compiles": self.compiles, "cut": self.cut,
                "first_size": size_of(self.first), "size": size_of(self.minimal)}


def _judged(judge, part):
    """``judge(part)``; where the harness itself fails on the chunk (an oracle that cannot
    build some candidate), each half is judged alone, down to the candidates it fails on,
    which count as not failing the same way (the error is the harness', not the case's)."""
    try:
        return judge(part)
    except Exception:  # noqa: BLE001 - a harness error on some candidate of the chunk
        if len(part) == 1:
            return [None]
        half = len(part) // 2
        return _judged(judge, part[:half]) + _judged(judge, part[half:])


def _groups(case, todo):
    """The candidates in the order they are judged: those of the case's type (only runtime
    integers changed), those that only lose static marks, then the rest; each group sorted."""
    here, plain = type_of(case), case_key(tuple(_unmark(a) for a in case))
    kept = [c for c in todo if type_of(c) == here]
    unmarked = [c for c in todo if type_of(c) != here
                and case_key(tuple(_unmark(a) for a in c)) == plain]
    picked = {case_key(c) for c in kept + unmarked}
    return kept, unmarked, [c for c in todo if case_key(c) not in picked]


def shrink(first, failure, judge: Callable, label, *, until=None, max_candidates=None,
           max_compiles=None, compiles: Optional[Callable] = None, known_pass: Callable = None,
           chunk=CHUNK, clock=time.monotonic, resume: Optional[Shrunk] = None) -> Shrunk:
    """Shrink the failing case ``first`` (which failed with ``failure``, labelled ``label``).

    ``judge(cases)`` answers, for each case, None (it does not fail) or ``(label, failure)``;
    a label is ``(kind, signature, finding id or None)``, and a candidate is taken only when
    its label is the ``same`` as ``label``.  Bounds: ``until`` (monotonic seconds: a chunk is
    not started when one taking as long as the last would end past it), ``max_candidates``
    (judged in all), ``max_compiles`` (``compiles()`` is the oracle's running count of compiler
    runs; the bound is on this call's).
    ``known_pass(case)``: True for a case known not to fail this way (not judged).
    ``resume``: a search a bound cut, continued from where it stopped (its counts go on)."""
    t0 = clock()
    c0 = compiles() if compiles else 0
    out = resume or Shrunk(tuple(first), tuple(first), failure, label=label)
    out.cut, judged = None, out.judged
    seconds, spent = out.seconds, out.compiles

    def bound():  # a chunk that would end past ``until``, taking as long as the last, waits
        if until is not None and clock() + out.chunk_s > until:
            return "time"
        if max_candidates is not None and out.candidates >= max_candidates:
            return "candidates"
        if max_compiles is not None and compiles and compiles() - c0 >= max_compiles:
            return "compiles"
        return None

    try:
        while True:
            todo = [c for c in candidates(out.minimal) if case_key(c) not in judged
                    and not (known_pass and known_pass(c))]
            chunks = []
            for group in _groups(out.minimal, todo):
                chunks += [group[k:k + chunk] for k in range(0, len(group), chunk)]
            taken, trimmed = None, False
            for part in chunks:
                why = bound()
                if why:
                    out.cut = why
                    return out
                if max_candidates is not None and len(part) > max_candidates - out.candidates:
                    part, trimmed = part[:max_candidates - out.candidates], True
                started = clock()
                verdicts = _judged(judge, part)
                out.chunk_s = clock() - started
                out.rounds += 1
                out.candidates += len(part)
                for case, verdict in zip(part, verdicts):
                    judged.add(case_key(case))
                    if taken is None and verdict is not None and same(label, verdict[0]):
                        taken = (case, verdict[1])
                if taken is not None:
                    break
            if taken is None:
                out.cut = "candidates" if trimmed else None
                return out
            out.minimal, out.failure = taken
            out.steps += 1
    finally:
        out.seconds = seconds + clock() - t0
        out.compiles = spent + ((compiles() - c0) if compiles else 0)
