"""The executable specification: every definition, transcribed literally and enumerated.

Slow and obviously correct.  Each function cites the paper's number or the seed it comes
from.  ``layoutcheck.impl`` has the same public API and never imports this package.
"""

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C

from .tuples import *  # noqa: F401,F403
from .layout import *  # noqa: F401,F403
from .layout import parse_tiler  # noqa: F401
