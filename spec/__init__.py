"""The executable specification: every definition, transcribed literally and enumerated.

Slow and obviously correct.  Each function cites the paper's number or the seed it comes
from.  ``layoutcheck.impl`` has the same public API and never imports this package.
"""

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C

from layoutcheck.spec.limits import enumeration_limit, set_enumeration_limit  # noqa: F401   the guard
from layoutcheck.spec.tuples import *  # noqa: F401,F403   IntTuples (2.1.1, 2.2; seeds 000, 001)
from layoutcheck.spec.integers import *  # noqa: F401,F403   CuTe integers (seeds 000, 003)
from layoutcheck.spec.layout import *  # noqa: F401,F403   layouts, phi, Phi (2.1.2; seed 000)
from layoutcheck.spec.layout import parse_tiler  # noqa: F401
from layoutcheck.spec.basic import *  # noqa: F401,F403   restriction .. concatenation (2.1.3)
from layoutcheck.spec.properties import *  # noqa: F401,F403   predicates shown by `layoutcheck show`
from layoutcheck.spec.nested import *  # noqa: F401,F403   nested tuples (2.2)
from layoutcheck.spec.flat import *  # noqa: F401,F403   flat coalesce .. tractable (2.1.4-2.1.8)
from layoutcheck.spec.algebra import *  # noqa: F401,F403   nested layout algebra (2.3)
from layoutcheck.spec.division import *  # noqa: F401,F403   division and product (2.3.8, 2.3.9) and CuTe's forms
from layoutcheck.spec.coords import *  # noqa: F401,F403   coordinates, slicing, IntTuple helpers (CuTe's API)
from layoutcheck.spec.mutual_refinement import *  # noqa: F401,F403   composition algorithm (4)
from layoutcheck.spec.categories import *  # noqa: F401,F403   the categories Tuple and Nest (3)
from layoutcheck.spec.theorems import *  # noqa: F401,F403   their main theorems as checks (3)
from layoutcheck.spec.examples import *  # noqa: F401,F403   the paper's numbered examples as checks
from layoutcheck.spec.swizzle import *  # noqa: F401,F403   swizzles, F2 strides, composed layouts
from layoutcheck.spec.recast import *  # noqa: F401,F403   upcast / downcast / recast, max_common_vector, nullspace
from layoutcheck.spec.tiling import *  # noqa: F401,F403   make_ordered_layout .. local_partition, zip, group
from layoutcheck.spec.banks import *  # noqa: F401,F403   shared-memory bank conflicts of a warp's access
from layoutcheck.spec.addition import *  # noqa: F401,F403   layout_add (NVlabs PyCuTe's pointwise sum)
from layoutcheck.spec.overloads import *  # noqa: F401,F403   CuTe's overloads on swizzles and composed layouts


import sys  # noqa: E402

# The spec's public names: every module's own, once each (where two modules export a name, the
# one imported last above is the package's).
_MODULES = ("tuples", "integers", "layout", "basic", "properties", "nested", "flat", "algebra",
            "division", "coords", "mutual_refinement", "categories", "theorems", "examples",
            "swizzle", "recast", "tiling", "banks", "addition", "overloads")
__all__ = sorted({"LayoutError", "C", "enumeration_limit", "set_enumeration_limit", "parse_tiler",
                  *(name for m in _MODULES for name in sys.modules[f"{__name__}.{m}"].__all__)})
