"""Planted bugs for the shrinking tests: one coalesce bug, in a ``module:`` oracle and in CuTe
C++'s compiled output.  The bug drops a trailing stride-0 mode of extent 2 from coalesce's
answer, so the function changes; the smallest layout it shows on is ``(2,2):(1,0)``."""

import textwrap

from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, leaves
from layoutcheck.oracles.cpp.oracle import CuteCppOracle
from layoutcheck.oracles.protocol import Outcome

MINIMAL = "(2,2):(1,0)"

MODULE = textwrap.dedent('''
    """A small layout library whose coalesce drops a trailing stride-0 mode of extent 2."""

    def _flat(t):
        return [x for e in t for x in _flat(e)] if isinstance(t, tuple) else [t]

    class Layout:
        def __init__(self, shape, stride):
            self.shape, self.stride = shape, stride

        def __call__(self, i):
            out = 0
            for s, d in zip(_flat(self.shape), _flat(self.stride)):
                out, i = out + (i % s) * d, i // s
            return out

    def coalesce(layout, profile=None):
        shape, stride = [], []
        for s, d in zip(_flat(layout.shape), _flat(layout.stride)):
            if s == 1:
                continue
            if shape and stride[-1] * shape[-1] == d:
                shape[-1] *= s
            else:
                shape.append(s)
                stride.append(d)
        if len(shape) > 1 and shape[-1] == 2 and stride[-1] == 0:   # the bug
            shape.pop()
            stride.pop()
        if not shape:
            return Layout(1, 0)
        return Layout(shape[0], stride[0]) if len(shape) == 1 else Layout(tuple(shape), tuple(stride))
''')


def planted(op, out):
    """CuTe's answer with the bug applied: a coalesce answer of two or more modes loses a
    trailing mode of extent 2 and stride 0."""
    if op != "coalesce" or out.kind != "ok" or not isinstance(out.value, LayoutBase):
        return out
    shape, stride = list(leaves(out.value.shape)), list(leaves(out.value.stride))
    if len(shape) < 2 or int(shape[-1]) != 2 or int(stride[-1]) != 0:
        return out
    shape, stride = shape[:-1], stride[:-1]
    if len(shape) == 1:
        return Outcome.ok(LayoutBase(shape[0], stride[0]))
    return Outcome.ok(LayoutBase(tuple(shape), tuple(stride)))


class PlantedCpp(CuteCppOracle):
    """CuTe C++, compiled and run as usual (the real headers, the real kernels); the bug is
    applied to the answers its programs print."""

    def _run_many(self, cases):
        outs = super()._run_many(cases)
        return [planted(op, out) for (op, _), out in zip(cases, outs)]


def static(text):
    """A layout text with every integer static (``(2,2):(1,0)`` -> ``(_2,_2):(_1,_0)``)."""
    L = LayoutBase.parse(text)

    def go(t):
        return tuple(go(e) for e in t) if isinstance(t, tuple) else C(int(t))
    return str(LayoutBase(go(L.shape), go(L.stride)))
