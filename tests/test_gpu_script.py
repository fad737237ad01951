"""gpu_checks/run_on_device.sh, tested up to the launch: its dry run installs layoutcheck
from the tree into a fresh folder, compiles, runs the host shim and writes the report,
with device launches disabled."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from layoutcheck.gpu_checks import toolchain as T

SCRIPT = Path(T.SOURCE_DIR) / "run_on_device.sh"
ROOT = SCRIPT.parent.parent


def _run(args, tmp_path, **env):
    full = {**os.environ, "PYTHON": sys.executable, "SITE": str(tmp_path / "site"),
            "CARRY": str(tmp_path / "carry"), "LAYOUTCHECK_CACHE": str(T.cache_dir().parent),
            **env}
    full.pop("OUT", None)
    return subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True,
                          env=full, timeout=300)


@pytest.mark.skipif(not (ROOT / "pyproject.toml").exists(), reason="needs the source tree")
def test_dry_run_does_everything_but_launch(tmp_path):
    out = tmp_path / "out"
    res = _run(["--dry-run", str(out)], tmp_path,
               LAYOUTCHECK_GPU_ARGS="--count 20 --cute-count 12 --backend nvrtc")
    assert res.returncode == 0, res.stderr + (out / "run.log").read_text()
    report = json.loads((out / "report.json").read_text())
    assert report["ok"] is True
    assert "dry run" in report["execution"]
    assert {r["kernel"] for r in report["results"]} >= {"compile cute", "sweep", "cute"}
    env = (out / "env.txt").read_text()
    assert f"layoutcheck from {tmp_path / 'site'}" in env  # the copy, not the tree
    assert (out / "report.txt").read_text().strip().splitlines()[-1].startswith("OK in")


def test_no_output_folder_is_an_environment_error(tmp_path):
    res = _run([], tmp_path)
    assert res.returncode == 2 and "no output folder" in res.stderr


def test_help():
    res = subprocess.run(["bash", str(SCRIPT), "--help"], capture_output=True, text=True)
    assert res.returncode == 0 and "--prepare" in res.stdout and "--dry-run" in res.stdout
