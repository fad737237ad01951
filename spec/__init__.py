"""The executable specification: every definition, transcribed literally and enumerated.

Slow and obviously correct.  Each function cites the paper's number or the seed it comes
from.  ``layoutcheck.impl`` has the same public API and never imports this package.
"""

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C

from .limits import enumeration_limit, set_enumeration_limit  # noqa: F401   the guard (issue 12)
from .tuples import *  # noqa: F401,F403   IntTuples (2.1.1, 2.2; seeds 000, 001)
from .integers import *  # noqa: F401,F403   CuTe integers (seeds 000, 003)
from .layout import *  # noqa: F401,F403   layouts, phi, Phi (2.1.2; seed 000)
from .layout import parse_tiler  # noqa: F401
from .basic import *  # noqa: F401,F403   restriction .. concatenation (2.1.3)
from .properties import *  # noqa: F401,F403   predicates shown by `layoutcheck show`
from .nested import *  # noqa: F401,F403   nested tuples (2.2)
from .flat import *  # noqa: F401,F403   flat coalesce .. tractable (2.1.4-2.1.8)
from .algebra import *  # noqa: F401,F403   nested layout algebra (2.3) and CuTe's derived ops
from .coords import *  # noqa: F401,F403   coordinates, slicing, IntTuple helpers (CuTe's API)
from .mutual_refinement import *  # noqa: F401,F403   composition algorithm (4)
from .categories import *  # noqa: F401,F403   the categories Tuple and Nest (3)
from .examples import *  # noqa: F401,F403   the paper's numbered examples as checks
from .swizzle import *  # noqa: F401,F403   swizzles, F2 strides, composed layouts (issue 16)
from .recast import *  # noqa: F401,F403   upcast / downcast / recast, max_common_vector, nullspace
from .tiling import *  # noqa: F401,F403   make_ordered_layout .. local_partition, zip, group
from .banks import *  # noqa: F401,F403   shared-memory bank conflicts of a warp's access
