"""Time any command and record it in benchmarks/RESULTS.md: a gate run, the proof catalogue,
the test suite, the demo.

    .venv/bin/python benchmarks/timed.py SECTION [--tail N] -- COMMAND [ARG...]

For example:

    .venv/bin/python benchmarks/timed.py "Proofs" -- .venv/bin/layoutcheck prove --max-rank 6 --timeout 20
    .venv/bin/python benchmarks/timed.py "Fuzz gates on the real implementations" -- \
        .venv/bin/layoutcheck fuzz --against cute-cpp --budget 300 --seed 7 --no-db
    .venv/bin/python benchmarks/timed.py "Test suite" -- .venv/bin/python -m pytest -n 2 --dist loadscope -q

Runs the command with its output passing through, then prints and records its exit status,
wall seconds, CPU seconds of the command and its children (user + system), and the last
``--tail`` lines of its stdout (default 6), under SECTION.
"""

import argparse
import os
import resource
import shlex
import subprocess
import sys
import time
from collections import deque

from results import record


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--" not in argv:
        print("usage: timed.py SECTION [--tail N] -- COMMAND [ARG...]", file=sys.stderr)
        return 2
    k = argv.index("--")
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("section")
    ap.add_argument("--tail", type=int, default=6)
    a = ap.parse_args(argv[:k])
    command = argv[k + 1:]
    if not command:
        ap.error("no command after --")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    tail = deque(maxlen=max(0, a.tail))
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True, bufsize=1) as proc:
        for line in proc.stdout:
            sys.stdout.write(line)
            tail.append(line.rstrip("\n"))
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    line = f"exit {proc.returncode}, {wall:.1f} s wall, {cpu:.1f} CPU-s"
    print(line)
    body = line + ("\n\n```text\n" + "\n".join(tail) + "\n```" if tail else "")
    record(a.section, body, command=" ".join(shlex.quote(c) for c in command),
           versions=["nvidia-cutlass", "z3-solver"], tools=["g++"])
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
