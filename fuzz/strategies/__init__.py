"""Public hypothesis strategies of CuTe values, in the neutral form every oracle accepts
(``layoutcheck.layout.LayoutBase``, nested tuples of ``int`` / static ``C``, tilers):
layouts and the algebra's arguments (``layouts``), coordinates, slices and IntTuples
(``coordinates``), swizzles, composed layouts, recast and tiling arguments (``swizzle``).

    from hypothesis import given
    from layoutcheck.fuzz import strategies as lst

    @given(lst.layouts(max_size=64, injective=True))
    def test_my_coalesce(L): ...
"""

from layoutcheck.fuzz.strategies.coordinates import *  # noqa: F401,F403
from layoutcheck.fuzz.strategies.coordinates import __all__ as _coordinates
from layoutcheck.fuzz.strategies.algebra import *  # noqa: F401,F403
from layoutcheck.fuzz.strategies.algebra import __all__ as _layouts
from layoutcheck.fuzz.strategies.swizzle import *  # noqa: F401,F403
from layoutcheck.fuzz.strategies.swizzle import __all__ as _swizzle

__all__ = list(_layouts) + list(_coordinates) + list(_swizzle)
