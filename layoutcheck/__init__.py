"""layoutcheck: a verification and fuzzing harness for the CuTe layout algebra.

``layoutcheck.parse`` reads every notation the project prints (a layout, a swizzle
``Sw<3,4,3>``, a composed layout ``Sw<3,4,3> o _0 o (8,64):(64,1)``, an F2 or a signed
layout).  ``layoutcheck.spec`` is the executable specification, ``layoutcheck.impl`` the fast
implementation with the same API, ``layoutcheck.oracles`` drives other implementations,
``layoutcheck.fuzz`` finds disagreements, ``layoutcheck.proofs`` proves properties with z3 and
``layoutcheck.gpu_checks`` checks addresses computed on a GPU.
"""

from __future__ import annotations

from layoutcheck.composed import ComposedLayoutBase, F2Layout, SignedLayout, Swizzle, parse_value
from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase
from layoutcheck.spec import ComposedLayout, Layout, as_composed, as_layout

__version__ = "0.10.0"
__all__ = ["LayoutError", "C", "parse", "Layout", "ComposedLayout"]


def parse(text: str) -> Layout | ComposedLayout | Swizzle | F2Layout | SignedLayout:
    """Any value in the notation layoutcheck prints: a layout (a ``layoutcheck.spec.Layout``,
    which evaluates), a swizzle, a composed layout (a ``layoutcheck.spec.ComposedLayout``), an
    F2 layout or a signed layout (a decayed slice's answer)."""
    value = parse_value(text)
    if isinstance(value, ComposedLayoutBase):
        return as_composed(value)
    if isinstance(value, LayoutBase):  # parse_value gives LayoutBase itself
        return as_layout(value)
    return value
