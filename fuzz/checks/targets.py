"""How the checks reach oracles and judge answers: ``compare`` (the oracles' comparison of
an answer with the reference, after measuring every layout it would evaluate), ``table``
(the trusted evaluator the laws use, independent of spec and impl), the case codec
(``encode`` / ``decode``: CuTe notation in reports and the example database) and the
``observer`` hook the campaign sets while it judges a case.
"""

from layoutcheck.fuzz.checks.bounds import check_size
from layoutcheck.oracles.compare import compare as compare_answers
from layoutcheck.oracles.protocol import decode_arg, format_arg

from layoutcheck.layout import LayoutBase, leaves

__all__ = ["compare", "table", "encode", "decode", "format_arg", "observer"]


def compare(op, inputs, expected, actual):
    """(level, ok): the strictest agreement level and whether the op's required level holds
    (ok is None when no verdict is possible, e.g. an unsupported answer).  Every layout is
    measured first (``bounds.check_size``): the comparison evaluates them."""
    for value, what in ((actual, "the answer"), (expected, "the reference's answer")):
        _check_sizes(value, what)
    r = compare_answers(op, inputs, expected, actual)
    return str(r.level), r.ok


def _check_sizes(value, what):
    """The comparison evaluates layouts: measure each one first (``bounds.check_size``)."""
    if isinstance(value, LayoutBase):
        check_size(value, what)
    elif isinstance(value, tuple) and len(value) <= 64:  # a (layout, offset) pair, a tiler
        for v in value:
            if isinstance(v, (LayoutBase, tuple)):
                _check_sizes(v, what)


# --- memoised reference: the spec is pure, its inputs immutable ---------------------------

observer = None  # a callable(feature) the campaign sets while it judges a case (or None)


# --- the trusted evaluator the laws use: independent of spec and impl ------------------------

def table(L):
    """Phi_L on [0, size(L)) as a list: outer sum of per-mode offsets, first mode fastest
    (Construction 2.1.2.19: Phi = phi ∘ colex^{-1}).  The size is checked from the modes
    first (``bounds.check_size``): a layout larger than the case's inputs allow fails the
    check instead of being enumerated."""
    check_size(L)
    vals = [0]
    for s, d in zip(leaves(L.shape), leaves(L.stride)):
        s, d = int(s), int(d)
        vals = [v + k * d for k in range(s) for v in vals]
    return vals


# --- counterexamples as text: CuTe notation in, CuTe notation out ----------------------------

def encode(args):
    """Inputs -> list of CuTe strings (what reports and the example database hold)."""
    return [format_arg(a) for a in args]


def decode(texts):
    """CuTe strings -> neutral inputs (``layoutcheck.oracles.protocol.decode_arg``: a layout,
    a tiler, a coordinate with ``_``, an IntTuple or an int)."""
    return tuple(decode_arg(t) for t in texts)
