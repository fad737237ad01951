"""layoutcheck: a verification and fuzzing harness for the CuTe layout algebra.

``layoutcheck.spec`` is the executable specification, ``layoutcheck.impl`` the fast
implementation with the same API, ``layoutcheck.oracles`` drives other implementations,
``layoutcheck.fuzz`` finds disagreements, ``layoutcheck.proofs`` proves lemmas with z3 and
``layoutcheck.gpu_checks`` checks addresses computed on a GPU.
"""

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.spec import Layout
from layoutcheck.spec import parse as _parse

__version__ = "0.1.0"
__all__ = ["LayoutError", "C", "parse", "Layout"]


def parse(text):
    """Parse CuTe notation (``"(2,(3,_4)):(1,(2,6))"``) into a ``layoutcheck.spec.Layout``."""
    return _parse(text)


def __getattr__(name):
    if name == "Layout":
        return Layout
    raise AttributeError(name)
