"""Public hypothesis strategies of CuTe values, in the neutral form every oracle accepts
(``layoutcheck.layout.LayoutBase``, nested tuples of ``int`` / static ``C``, tilers):
layouts and the algebra's arguments (``layouts``), coordinates, slices and IntTuples
(``coordinates``), swizzles and composed layouts (``swizzle``), recast (``recast``) and the
tiling helpers' arguments (``tiling``).

    from hypothesis import given
    from layoutcheck.fuzz import strategies as lst

    @given(lst.layouts(max_size=64, injective=True))
    def test_my_coalesce(L): ...
"""

from layoutcheck.fuzz.strategies.coordinates import *  # noqa: F401,F403
from layoutcheck.fuzz.strategies.coordinates import __all__ as _coordinates
from layoutcheck.fuzz.strategies.algebra import *  # noqa: F401,F403
from layoutcheck.fuzz.strategies.algebra import __all__ as _layouts
from layoutcheck.fuzz.strategies.recast import *  # noqa: F401,F403
from layoutcheck.fuzz.strategies.recast import __all__ as _recast
from layoutcheck.fuzz.strategies.swizzle import *  # noqa: F401,F403
from layoutcheck.fuzz.strategies.swizzle import __all__ as _swizzle
from layoutcheck.fuzz.strategies.tiling import *  # noqa: F401,F403
from layoutcheck.fuzz.strategies.tiling import __all__ as _tiling

__all__ = list(_layouts) + list(_coordinates) + list(_swizzle) + list(_recast) + list(_tiling)
