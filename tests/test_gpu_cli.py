"""`layoutcheck gpu`: compile-only, host-shim execution (saying that the device was not
used and why), the report file, and bad input (exit 2, one line on stderr)."""

import json
import os

import pytest
from layoutcheck.gpu_checks.execute import device_unavailable_reason

from layoutcheck.cli import main

SMALL = ["--count", "20", "--cute-count", "12", "--backend", "nvrtc"]  # cached by other tests


def test_compile_only(capsys):
    assert main(["gpu", "--compile-only", *SMALL]) == 0
    out = capsys.readouterr().out
    for name in ("compile address", "compile specialised", "compile cute"):
        assert name in out
    assert "not run (--compile-only)" in out and "host shim" not in out.split("execution:")[1].splitlines()[0]


def test_execution_and_json_report(tmp_path, capsys):
    report = tmp_path / "gpu.json"
    assert main(["gpu", *SMALL, "--sizes", "", "--report", str(report)]) == 0
    out = capsys.readouterr().out
    data = json.loads(report.read_text())
    assert data["ok"] is True
    kernels = {(r["kernel"], r["where"]) for r in data["results"]}
    for k in ("address", "sweep", "specialised", "data-movement", "cute"):
        assert (k, "host shim (CPU)") in kernels
    sweep = next(r for r in data["results"] if r["kernel"] == "sweep")
    assert sweep["checked"] == 20 and sweep["failed"] == 0
    if device_unavailable_reason():
        assert "device execution NOT run" in out and device_unavailable_reason() in out
        assert data["environment"]["device"] is False


def test_text_report(tmp_path, capsys):
    path = tmp_path / "gpu.txt"
    assert main(["gpu", "--compile-only", *SMALL, "--report", str(path)]) == 0
    assert path.read_text().strip() == capsys.readouterr().out.strip()


@pytest.mark.parametrize("argv,needle", [
    (["--sizes", "3"], "log2 sizes must lie in 10..31"),
    (["--sizes", "a,b"], "not a comma-separated list"),
    (["--count", "0"], "at least 1"),
])
def test_bad_input_exit_2_one_line(argv, needle, capsys):
    assert main(["gpu", *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and needle in err[0]



def _swizzle_kernels_warm():
    from layoutcheck.gpu_checks import swizzle_gpu
    try:
        return swizzle_gpu.cache_is_warm(seed=0, backends=["nvrtc"])
    except Exception:  # no CUDA compiler here: the cold path, opt-in only
        return False


SLOW = bool(os.environ.get("LAYOUTCHECK_SLOW"))
COLD = "the swizzle kernels are not in the kernel cache (a cold compile takes > 100 s): LAYOUTCHECK_SLOW=1"


@pytest.mark.skipif(not (SLOW or _swizzle_kernels_warm()), reason=COLD)
def test_swizzle_flag_compiles_the_swizzle_kernels(capsys):
    """`gpu --swizzle` adds gpu_checks/swizzle_gpu.py's kernels to the report (here their
    compile rows, from the warm cache); without the flag they are not there."""
    assert main(["gpu", "--compile-only", *SMALL, "--swizzle"]) == 0
    out = capsys.readouterr().out
    for k in ("swizzle_addr", "swizzle_cute", "bank"):
        assert f"compile {k}" in out
    assert "swizzle kernels: ok, device not run (--compile-only)" in out
    assert main(["gpu", "--compile-only", *SMALL]) == 0
    assert "swizzle" not in capsys.readouterr().out


@pytest.mark.skipif(not SLOW, reason="runs every GPU check and the swizzle kernels on the host "
                                     "shim (~10 s): LAYOUTCHECK_SLOW=1")
def test_swizzle_kernels_run_behind_the_flag(tmp_path, capsys):
    """`gpu --swizzle` executes the swizzle kernels (host shim here, the device where there is
    one) and joins their verdict to the report's."""
    report = tmp_path / "gpu.json"
    assert main(["gpu", *SMALL, "--sizes", "", "--swizzle", "--report", str(report)]) == 0
    out = capsys.readouterr().out
    data = json.loads(report.read_text())
    rows = {(r["kernel"], r["where"]): r for r in data["results"]}
    for k in ("swizzle_addr", "swizzle_cute", "bank_addresses"):
        host = rows[(k, "host shim (CPU)")]
        assert host["checked"] > 0 and not host["failed"] and not host["mismatches"], host
    assert data["swizzle"]["ok"] is True and data["ok"] is True
    assert "swizzle kernels: ok" in out
    if device_unavailable_reason():
        assert data["swizzle"]["device"].startswith("NOT run")
