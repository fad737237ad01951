"""GPU checks, compilation: every kernel source builds to PTX and an sm_90 cubin here
(no GPU needed).  NVRTC 13.0 is a declared dependency (extra "gpu"), so its absence fails;
nvcc is optional and its tests skip with the reason."""

import pytest
from layoutcheck.gpu_checks import toolchain as T
from layoutcheck.gpu_checks.checks import check_compile, sample_sources
from layoutcheck.gpu_checks.kernels import CuteCase, KernelSource, address_source, cute_source
from layoutcheck.spec import parse

WORKLOAD = dict(seed=0, count=20, cute_count=12)  # shared with the host and CLI tests

nvcc_only = pytest.mark.skipif(T.nvcc_unavailable_reason() is not None,
                               reason=str(T.nvcc_unavailable_reason()))


def test_nvrtc_is_the_pinned_13_0():
    assert T.nvrtc_unavailable_reason() is None


@pytest.mark.parametrize("index", [0, 1, 2], ids=["address", "specialised", "cute"])
def test_every_source_compiles_with_nvrtc(index):
    source = sample_sources(**WORKLOAD)[index]
    [res] = check_compile([source], ["nvrtc"])
    assert res.ok, res.mismatches
    assert res.checked == len(source.kernels) > 0
    assert res.metrics["cubin_bytes"] > 1000


@nvcc_only
def test_address_and_specialised_compile_with_nvcc():
    sources = sample_sources(**WORKLOAD)[:2]
    results = check_compile(sources, ["nvcc"])
    assert all(r.ok for r in results), [r.mismatches for r in results]


@pytest.mark.slow
@nvcc_only
def test_cute_compiles_with_nvcc():
    [res] = check_compile(sample_sources(**WORKLOAD)[2:], ["nvcc"])
    assert res.ok, res.mismatches


def test_ptx_defines_each_kernel_for_sm90():
    art = T.compile_device(address_source().text, "address", backend="nvrtc")
    ptx = art.ptx.decode()
    assert ".target sm_90" in ptx
    for name in address_source().kernels:
        assert f".entry {name}(" in ptx
    assert art.cubin[:4] == b"\x7fELF"


def test_cache_by_source_hash(tmp_path, monkeypatch):
    monkeypatch.setenv("LAYOUTCHECK_CACHE", str(tmp_path))
    text = address_source().text
    first = T.compile_device(text, "address", backend="nvrtc")
    again = T.compile_device(text, "address", backend="nvrtc")
    other = T.compile_device(text + "\n// changed\n", "address", backend="nvrtc")
    assert not first.cached and again.cached and not other.cached
    assert again.cubin == first.cubin
    assert first.cubin_path.parent == tmp_path / "gpu"
    assert len(list((tmp_path / "gpu").glob("*.cubin"))) == 2


def test_compile_failure_fails_with_the_log():
    with pytest.raises(T.CompileError, match="undefined|identifier"):
        T.compile_device('extern "C" __global__ void k() { undefined_thing(); }', "broken",
                         backend="nvrtc")
    broken = KernelSource("broken", '#include "lc_layout.cuh"\nint f() { return nope; }\n', {})
    [res] = check_compile([broken], ["nvrtc"])
    assert not res.ok and res.failed == 1 and "nope" in res.mismatches[0]


def test_a_kernel_missing_from_the_ptx_fails():
    good = address_source()
    claims_more = KernelSource("address", good.text, {**good.kernels, "lc_missing": ("int",)})
    [res] = check_compile([claims_more], ["nvrtc"])
    assert not res.ok and "lc_missing" in res.mismatches[0]


def test_cute_kernel_uses_static_and_dynamic_integers():
    case = CuteCase("layout", parse("(_2,(3,_4)):(12,(_1,3))"))
    source, dyn = cute_source([case])
    assert "cute::Int<2>{}" in source.text and "cute::Int<4>{}" in source.text
    assert dyn == [[3, 12, 3]]  # the dynamic leaves, in order, read from dyn[] at run time
    assert source.cute and "#include <cute/layout.hpp>" in source.text
