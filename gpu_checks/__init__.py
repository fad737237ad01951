"""layoutcheck.gpu_checks: CUDA kernels that compute addresses through layouts, checked
against the spec.

Kernel sources (package data): ``lc_layout.cuh`` (Phi_L, rank bound LC_MAX_RANK = 16),
``address.cu`` (address, sweep, gather, scatter, copy kernels), ``host_shim.cuh`` (runs
kernel sources on the CPU); generated per batch: specialised kernels (layouts as
compile-time constants) and CuTe kernels (the real CuTe headers of the nvidia-cutlass
wheel).  ``run_on_device.sh`` runs the whole check on a fresh GPU machine.

Modules: ``toolchain`` (NVRTC / nvcc / g++, cache), ``kernels`` (sources, signatures),
``execute`` (host shim and CuPy runners), ``generate`` (layouts, shrinker), ``checks``
(comparisons with the spec), ``throughput`` (device rates), ``run`` (the whole check and
its report).  The command is ``layoutcheck gpu`` (also ``python -m layoutcheck gpu``).
"""

from layoutcheck.gpu_checks.kernels import MAX_RANK

__all__ = ["MAX_RANK"]
