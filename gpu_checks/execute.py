"""Running a ``KernelSource``: on the CPU through the host shim, or on a device through CuPy.

Both runners have the same ``launch(kernel, n, *args)``: ``args`` follow the kernel's C
signature (numpy arrays for pointers, ints for scalars); arrays behind non-const pointers
are outputs and hold the results afterwards.  ``n`` (the number of indices) sizes the grid;
every kernel walks its indices with a grid-stride loop, so any grid is correct.
"""

import ctypes
import os

import numpy as np
from layoutcheck.gpu_checks.toolchain import build_host_library, compile_device

__all__ = ["HostModule", "DeviceModule", "device_unavailable_reason"]

_DTYPES = {"long long": np.int64, "float": np.float32}


def _pointee(ctype):
    base = ctype.replace("const", "").replace("*", "").strip()
    return _DTYPES[base]


def _check_args(kernel, params, args):
    if len(args) != len(params):
        raise TypeError(f"{kernel} takes {len(params)} arguments, got {len(args)}")
    for ctype, a in zip(params, args):
        if ctype.endswith("*"):
            want = _pointee(ctype)
            if not (isinstance(a, np.ndarray) and a.dtype == want and a.flags.c_contiguous):
                raise TypeError(f"{kernel}: expected a contiguous {np.dtype(want)} array "
                                f"for {ctype}, got {type(a).__name__}")


class HostModule:
    """A kernel source built with the host shim (g++) and called through ctypes.

    The default grid is small and fixed (4 blocks of 32 threads), so the shim runs several
    thread indices and every grid-stride step is exercised.
    """

    where = "host shim (CPU)"

    def __init__(self, source):
        self.source = source
        self.path = build_host_library(source.text, source.host_wrappers(), source.name,
                                       cute=source.cute, defines=source.defines)
        self._lib = ctypes.CDLL(str(self.path))

    def launch(self, kernel, n, *args, grid=4, block=32):
        params = self.source.kernels[kernel]
        _check_args(kernel, params, args)
        cargs = []
        for ctype, a in zip(params, args):
            if ctype.endswith("*"):
                cargs.append(ctypes.c_void_p(a.ctypes.data))
            elif ctype == "int":
                cargs.append(ctypes.c_int(int(a)))
            else:
                cargs.append(ctypes.c_longlong(int(a)))
        getattr(self._lib, f"host_{kernel}")(ctypes.c_uint(grid), ctypes.c_uint(block), *cargs)


def device_unavailable_reason():
    """None when a CUDA device is usable through CuPy, else why not.

    ``LAYOUTCHECK_GPU_DRY_RUN=1`` disables device launches (everything else still runs):
    the dry-run mode of run_on_device.sh.
    """
    if os.environ.get("LAYOUTCHECK_GPU_DRY_RUN"):
        return "dry run: device launches disabled (LAYOUTCHECK_GPU_DRY_RUN=1)"
    try:
        import cupy
    except Exception as e:  # noqa: BLE001
        return f"cupy cannot be imported ({type(e).__name__}: {e})"
    try:
        if not cupy.is_available():
            return "cupy.is_available() is False: no CUDA device or driver on this machine"
    except Exception as e:  # noqa: BLE001
        return f"cupy.is_available() failed ({type(e).__name__}: {e})"
    return None


class DeviceModule:
    """A kernel source compiled to an sm_90 cubin (same compiler path as the compile
    checks) and loaded with ``cupy.RawModule``."""

    where = "device"

    def __init__(self, source, backend=None):
        import cupy
        self.cupy = cupy
        self.source = source
        self.artifact = compile_device(source.text, source.name, cute=source.cute,
                                       defines=source.defines, backend=backend)
        self._module = cupy.RawModule(path=str(self.artifact.cubin_path))
        props = cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)
        self.sm_count = int(props["multiProcessorCount"])

    def grid_for(self, n, block=256):
        return max(1, min((int(n) + block - 1) // block, self.sm_count * 32))

    def launch_device(self, kernel, n, *args, block=256):
        """Launch with device arrays (cupy) or scalars; no copies.  For timing."""
        cp = self.cupy
        params = self.source.kernels[kernel]
        cargs = [a if ctype.endswith("*") else (np.int32(a) if ctype == "int" else np.int64(a))
                 for ctype, a in zip(params, args)]
        fn = self._module.get_function(kernel)
        fn((self.grid_for(n, block),), (block,), tuple(cargs))
        return cp

    def launch(self, kernel, n, *args, block=256):
        cp = self.cupy
        params = self.source.kernels[kernel]
        _check_args(kernel, params, args)
        dev = [cp.asarray(a) if ctype.endswith("*") else a for ctype, a in zip(params, args)]
        self.launch_device(kernel, n, *dev, block=block)
        cp.cuda.runtime.deviceSynchronize()
        for ctype, a, d in zip(params, args, dev):
            if ctype.endswith("*") and not ctype.startswith("const"):
                a[...] = cp.asnumpy(d)
