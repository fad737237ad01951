"""pycute, the Python CuTe of the ``nvidia-cutlass`` wheel (``pycute``), run like any
``module:`` oracle in a worker process.

``implementation.py`` is what the register and the campaign use; ``model.py`` a model of its
algebra; ``findings/`` the predicates of its registered findings; ``conventions.py`` its
declared conventions.
"""
