"""The CuTe DSL (``nvidia-cutlass-dsl``), whose layout algebra runs inside ``@cute.jit``
functions on the host (``cute-dsl``).

``implementation.py`` is what the register and the campaign use; ``oracle.py`` the oracle
(a worker process), which sends each case to one of two paths:

* the runtime path, the way kernels run (plain ints as ``Int32`` values): ``runtime.py``
  (compile, load, run, isolated in forked children), ``structures.py`` (a case's structure
  and runtime values, the answer read back), ``packs.py`` (structures compiled into one
  function and run over rows), ``diskcache.py`` (compiled packs across processes);
* the trace-time path (every integer static) for the rest: ``tracetime.py``, with
  ``calls.py`` for swizzles, composed layouts, recast and tiling.

``model.py`` is a model of its answers; ``findings/`` the predicates of its registered
findings; ``conventions.py`` its declared conventions.
"""
