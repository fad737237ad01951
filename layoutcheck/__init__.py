"""layoutcheck: a verification and fuzzing harness for the CuTe layout algebra.

``layoutcheck.parse`` reads every notation the project prints (a layout, a swizzle
``Sw<3,4,3>``, a composed layout ``Sw<3,4,3> o _0 o (8,64):(64,1)``, an F2 or a signed
layout).  ``layoutcheck.spec`` is the executable specification, ``layoutcheck.impl`` the fast
implementation with the same API, ``layoutcheck.oracles`` drives other implementations,
``layoutcheck.fuzz`` finds disagreements, ``layoutcheck.proofs`` proves properties with z3 and
``layoutcheck.gpu_checks`` checks addresses computed on a GPU.
"""

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.spec import ComposedLayout, Layout, parse

__version__ = "0.1.0"
__all__ = ["LayoutError", "C", "parse", "Layout", "ComposedLayout"]
