"""`layoutcheck gpu`: compile-only, host-shim execution (saying that the device was not
used and why), the report file, and bad input (exit 2, one line on stderr)."""

import json

import pytest

from layoutcheck.cli import main
from layoutcheck.gpu_checks.execute import device_unavailable_reason

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
