#!/usr/bin/env bash
# The whole GPU check of layoutcheck on a fresh GPU machine (Hopper, sm_90), in < 5 minutes.
#
#   bash gpu_checks/run_on_device.sh --prepare        # on a networked machine, beforehand
#   bash gpu_checks/run_on_device.sh OUT_DIR          # on the GPU machine (OUT_DIR defaults to $OUT)
#   bash gpu_checks/run_on_device.sh --dry-run OUT_DIR  # anywhere: everything but launches
#
# --prepare fills $CARRY (default .layoutcheck/gpu-carry, ignored by git) with the
# nvidia-cutlass wheel (CuTe headers) and the compiled kernels (cache by source hash), so
# that a GPU machine without network needs nothing else: copy the tree with that folder
# there and run the second form (about 7 minutes at most).
# On the GPU machine: installs layoutcheck (copied from this tree) and the carried wheels into
# $SITE (pip --no-index --no-deps), then runs `python -m layoutcheck gpu` (compile, host
# shim, device execution, throughput for 2^24..2^30) and writes report.json, report.txt,
# env.txt and run.log into OUT_DIR.  Exit status: that of the check (0 ok, 1 a check failed,
# 2 environment error).
# Variables: PYTHON (default: the project's .venv/bin/python for --prepare and --dry-run when
# it exists, else python3; python3 on the device, which gets no .venv), CARRY, SITE (default
# /tmp/lc-site), LAYOUTCHECK_GPU_ARGS (extra options for the check, e.g. "--count 50 --sizes 24").
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
MODE=device
case "${1:-}" in
  --prepare) MODE=prepare; shift ;;
  --dry-run) MODE=dry-run; shift ;;
  -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
esac
if [ -z "${PYTHON:-}" ]; then
  PYTHON=python3
  [ "$MODE" != device ] && [ -x "$ROOT/.venv/bin/python" ] && PYTHON="$ROOT/.venv/bin/python"
fi
CARRY=${CARRY:-$ROOT/.layoutcheck/gpu-carry}
SITE=${SITE:-/tmp/lc-site}
PYTHON=$(command -v "$PYTHON") || { echo "run_on_device.sh: no python ($PYTHON)" >&2; exit 2; }
case "$PYTHON" in /*) ;; *) PYTHON="$ROOT/$PYTHON" ;; esac
case "$CARRY" in /*) ;; *) CARRY="$ROOT/$CARRY" ;; esac

if [ "$MODE" = prepare ]; then
  set -e
  mkdir -p "$CARRY/wheels" "$CARRY/cache"
  ver=$(grep -E '^nvidia-cutlass==' requirements-nodeps.txt | head -1)
  ls "$CARRY"/wheels/nvidia_cutlass-*.whl >/dev/null 2>&1 ||
    "$PYTHON" -m pip download -q --no-deps --only-binary=:all: -d "$CARRY/wheels" "${ver:-nvidia-cutlass}"
  LAYOUTCHECK_CACHE="$CARRY/cache" "$PYTHON" -m layoutcheck gpu --compile-only \
    ${LAYOUTCHECK_GPU_ARGS:-} >/dev/null
  # the swizzle / bank-conflict kernels (gpu_checks/swizzle_gpu.py)
  LAYOUTCHECK_CACHE="$CARRY/cache" "$PYTHON" -m layoutcheck.gpu_checks.swizzle_gpu --compile-only >/dev/null
  du -sh "$CARRY"
  echo "prepared $CARRY: carry it as .layoutcheck/gpu-carry"
  exit 0
fi

OUTDIR=${1:-${OUT:-}}
[ -n "$OUTDIR" ] || { echo "run_on_device.sh: no output folder (argument or \$OUT)" >&2; exit 2; }
mkdir -p "$OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd)
LOG="$OUTDIR/run.log"
: >"$LOG"
say() { echo "[$(date +%H:%M:%S)] $*" | tee -a "$LOG" >&2; }
T0=$(date +%s)

say "mode $MODE, python $PYTHON $("$PYTHON" -c 'import sys; print(sys.version.split()[0])' 2>&1)"
{
  echo "== nvidia-smi"; nvidia-smi 2>&1 || echo "nvidia-smi not available"
  echo "== nvcc"; nvcc --version 2>&1 || echo "nvcc not on PATH"
  echo "== g++"; g++ --version 2>&1 | head -1 || echo "g++ not found"
  echo "== python packages"
  "$PYTHON" -m pip list 2>/dev/null | grep -i -E '^(cupy|numpy|nvidia-cuda-nvrtc|hypothesis|setuptools) ' || true
} >"$OUTDIR/env.txt" 2>&1

# Install: layoutcheck from this tree (the code under test), laid out as its pyproject's
# package-dir says (no build step: the device may lack `wheel`), then the carried wheels.
rm -rf "$SITE"; mkdir -p "$SITE"
if ! "$PYTHON" - "$SITE" >>"$LOG" 2>&1 <<'PY'
import shutil, sys, tomllib
site = sys.argv[1]
dirs = tomllib.load(open("pyproject.toml", "rb"))["tool"]["setuptools"]["package-dir"]
for pkg in sorted(dirs, key=lambda p: p.count(".")):
    shutil.copytree(dirs[pkg], f"{site}/{pkg.replace('.', '/')}", dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
PY
then
  say "could not install layoutcheck from the tree (see run.log)"; exit 2
fi
if ls "$CARRY"/wheels/*.whl >/dev/null 2>&1; then
  "$PYTHON" -m pip install -q --no-index --no-deps --no-compile --target "$SITE" \
    "$CARRY"/wheels/*.whl >>"$LOG" 2>&1 || { say "could not install the carried wheels"; exit 2; }
fi
export PYTHONPATH="$SITE${PYTHONPATH:+:$PYTHONPATH}"
say "installed into $SITE in $(( $(date +%s) - T0 )) s"

# The compiled kernels travel in $CARRY/cache; a miss (other compiler version) compiles here.
export LAYOUTCHECK_CACHE="${LAYOUTCHECK_CACHE:-$CARRY/cache}"
mkdir -p "$LAYOUTCHECK_CACHE"
[ "$MODE" = dry-run ] && export LAYOUTCHECK_GPU_DRY_RUN=1
export PYTHONUNBUFFERED=1
# Run Python away from the tree: its folders are not importable as layoutcheck.* in place.
cd /tmp
"$PYTHON" -c 'import layoutcheck.gpu_checks.run as r, numpy, cupy
print("layoutcheck from", r.__file__); print("CuTe headers", r.T.cute_include())' \
  >>"$OUTDIR/env.txt" 2>>"$LOG" || { say "import check failed (see run.log)"; exit 2; }

say "running the GPU check"
timeout 270 "$PYTHON" -m layoutcheck gpu --report "$OUTDIR/report.json" \
  ${LAYOUTCHECK_GPU_ARGS:-} >"$OUTDIR/report.txt" 2>>"$LOG"
rc=$?
cat "$OUTDIR/report.txt"
say "check finished with status $rc in $(( $(date +%s) - T0 )) s"

# swizzled addresses (plain CUDA and CuTe), bank-conflict addresses and their timing
# against a conflict-free control (gpu_checks/swizzle_gpu.py): swizzle.json / swizzle.txt
say "running the swizzle and bank-conflict check"
timeout 120 "$PYTHON" -m layoutcheck.gpu_checks.swizzle_gpu --report "$OUTDIR/swizzle.json" \
  >"$OUTDIR/swizzle.txt" 2>>"$LOG"
rc2=$?
cat "$OUTDIR/swizzle.txt"
say "swizzle check finished with status $rc2 in $(( $(date +%s) - T0 )) s"
[ "$rc" -eq 0 ] && rc=$rc2
exit $rc
