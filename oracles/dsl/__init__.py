"""The CuTe DSL (``nvidia-cutlass-dsl``), whose layout algebra runs inside ``@cute.jit``
functions on the host (``cute-dsl``).

``implementation.py`` is what the register and the campaign use; ``oracle.py`` the oracle
(a worker process); ``calls.py`` how each operation is called on the DSL; ``model.py`` a
model of its answers; ``findings/`` the predicates of its registered findings;
``conventions.py`` its declared conventions.
"""
