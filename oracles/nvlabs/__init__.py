"""NVIDIA's new PyCuTe (github.com/NVlabs/CuTe), loaded from a path (``nvlabs``, ``nvlabs:PATH``).

``implementation.py`` is what the register and the campaign use; ``oracle.py`` the loader and
adapter; ``model.py`` a model of its documented algebra; ``findings.py`` the predicates of its
registered findings; ``conventions.py`` its declared conventions.
"""
