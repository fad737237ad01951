"""GPU checks on a device.  Without one (cupy.is_available() False) the device tests skip
with the reason; the throughput code is still exercised here through a numpy stand-in for
CuPy whose launches run the host-shim build of the same kernels."""

import types

import numpy as np
import pytest
from layoutcheck.gpu_checks import throughput
from layoutcheck.gpu_checks.checks import run_checks
from layoutcheck.gpu_checks.execute import DeviceModule, HostModule, device_unavailable_reason
from layoutcheck.gpu_checks.kernels import address_source

NO_DEVICE = device_unavailable_reason()
needs_device = pytest.mark.skipif(NO_DEVICE is not None, reason=f"needs a CUDA device: {NO_DEVICE}")


@pytest.mark.gpu
@needs_device
def test_device_agrees_with_spec_on_every_kernel():
    results = run_checks(DeviceModule, seed=0, count=200, cute_count=24)  # as `layoutcheck gpu`
    assert [r.kernel for r in results] == ["address", "sweep", "specialised", "data-movement",
                                           "cute"]
    for r in results:
        assert r.ok and r.checked > 0, (r.kernel, r.mismatches)


@pytest.mark.gpu
@needs_device
def test_device_throughput_small_sizes_verify():
    rows = throughput.measure(DeviceModule(address_source()), (20, 22), reps=2)
    for r in rows:
        assert r.ok, r.mismatches
        assert len(r.metrics["sizes"]) == 2 and all(x["GBps"] > 0 for x in r.metrics["sizes"])


def test_dry_run_disables_the_device(monkeypatch):
    monkeypatch.setenv("LAYOUTCHECK_GPU_DRY_RUN", "1")
    assert "dry run" in device_unavailable_reason()


class _Event:
    def __init__(self):
        self.t = 0.0

    def record(self):
        import time
        self.t = time.perf_counter()

    def synchronize(self):
        pass


def _fake_cupy():
    rt = types.SimpleNamespace(
        deviceSynchronize=lambda: None,
        getDeviceProperties=lambda dev: {"name": b"fake", "multiProcessorCount": 4,
                                         "memoryClockRate": 2_619_000, "memoryBusWidth": 6144},
        deviceGetAttribute=lambda attr, dev: 0)
    rng = np.random.default_rng(0)
    return types.SimpleNamespace(
        asarray=np.asarray, asnumpy=np.asarray, empty=np.empty, empty_like=np.empty_like,
        zeros=np.zeros, arange=np.arange, array_equal=np.array_equal, int64=np.int64,
        float32=np.float32,
        random=types.SimpleNamespace(
            standard_normal=lambda n, dtype: rng.standard_normal(n).astype(dtype)),
        cuda=types.SimpleNamespace(runtime=rt, Event=_Event, Device=lambda: types.SimpleNamespace(id=0),
                                   get_elapsed_time=lambda a, b: max(b.t - a.t, 1e-9) * 1e3),
        get_default_memory_pool=lambda: types.SimpleNamespace(free_all_blocks=lambda: None))


class _HostAsDevice:
    """``DeviceModule``'s interface over the host shim: numpy arrays stand for device ones."""

    def __init__(self, corrupt=None):
        self.cupy = _fake_cupy()
        self.host = HostModule(address_source())
        self.corrupt = corrupt

    def launch_device(self, kernel, n, *args):
        self.host.launch(kernel, n, *args)
        if kernel == self.corrupt:
            args[-1][n // 2] += 1


def test_throughput_bookkeeping_through_the_host_shim():
    rows = throughput.measure(_HostAsDevice(), (10, 12), reps=1, samples=16)
    assert [r.kernel for r in rows] == ["address (large)", "gather (large)", "copy (large)"]
    peak = 2 * 2_619_000 * 1e3 * 6144 / 8 / 1e9
    for r in rows:
        assert r.ok, r.mismatches
        assert r.checked == 2 and r.metrics["peak_GBps"] == round(peak, 1)
        sizes = r.metrics["sizes"]
        assert [x["log2_elements"] for x in sizes] == [10, 12]
        for x in sizes:
            assert x["GBps"] == pytest.approx(8 * 2 ** x["log2_elements"] / x["seconds"] / 1e9)
            assert x["fraction_of_peak"] == pytest.approx(x["GBps"] / peak)


@pytest.mark.parametrize("kernel", ["lc_address", "lc_gather", "lc_copy"])
def test_throughput_verification_catches_a_wrong_element(kernel):
    rows = throughput.measure(_HostAsDevice(corrupt=kernel), (10,), reps=1, samples=4)
    bad = {r.kernel for r in rows if not r.ok}
    assert bad == {kernel[3:] + " (large)"}


class _FakeRawModule:
    """``cupy.RawModule(path=cubin)`` whose functions run the host-shim build of the same
    source with the grid and block that DeviceModule chose."""

    def __init__(self, path):
        assert open(path, "rb").read(4) == b"\x7fELF"  # DeviceModule loads the sm_90 cubin
        self.host = None

    def get_function(self, name):
        def launch(grid, block, args):
            plain = [a if isinstance(a, np.ndarray) else int(a) for a in args]
            self.host.launch(name, 0, *plain, grid=grid[0], block=block[0])
        return launch


def test_device_module_logic_with_a_stand_in_for_cupy(monkeypatch):
    fake = _fake_cupy()
    fake.asarray = lambda a: np.array(a, copy=True)  # a device copy, not a view
    fake.asnumpy = lambda a: np.array(a, copy=True)
    modules = []

    def raw_module(path):
        m = _FakeRawModule(path)
        modules.append(m)
        return m

    fake.RawModule = raw_module
    from layoutcheck.gpu_checks import toolchain
    assert toolchain.nvrtc_unavailable_reason() is None  # loads NVRTC before cupy is replaced
    monkeypatch.setitem(__import__("sys").modules, "cupy", fake)

    class StandIn(DeviceModule):
        def __init__(self, source):
            super().__init__(source, backend="nvrtc")
            modules[-1].host = HostModule(source)

    results = run_checks(StandIn, seed=0, count=20, cute_count=12)  # cached sources
    for r in results:
        assert r.where == "device" and r.ok and r.checked > 0, (r.kernel, r.mismatches)
