"""CuTe C++: the real CuTe headers of any CUTLASS version, compiled with g++ (``cute-cpp``).

``implementation.py`` is what the register and the campaign use; ``oracle.py`` the oracle;
``toolchain.py``, ``codegen.py``, ``driver.py``, ``cases.py``, ``composed.py`` and the two
preludes how cases become compiled kernels; ``model.py`` a model of CuTe's algebra;
``findings/`` the predicates of its registered findings; ``conventions.py`` its declared
conventions.
"""
