"""The optional dependencies: packages layoutcheck imports only inside the function that needs
them, so that the core runs without them (``pip install layoutcheck`` needs numpy, hypothesis
and z3 alone).  Every other import is at the top of its module (``tests/test_architecture.py``).

import name -> the extra of ``pyproject.toml`` that installs it.
"""

OPTIONAL_IMPORTS = {
    "cupy": "gpu",                  # GPU execution (gpu_checks)
    "cupy_backends": "gpu",         # NVRTC through CuPy (gpu_checks)
    "cutlass": "dsl",               # the CuTe DSL (the cute-dsl oracle, in its worker)
    "dask": "cluster",              # campaigns on a Dask cluster
    "distributed": "cluster",
    "redis": "cluster",             # the shared example database
    "hypothesis.extra.redis": "cluster",
    "matplotlib": "report",         # the HTML report's plot
    "pycute": "(the nvidia-cutlass wheel)",  # only the mutation tables import it, to copy it
}
