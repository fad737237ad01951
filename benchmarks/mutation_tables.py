"""Run a mutation table and record it in benchmarks/RESULTS.md (docs/mutation.md says what
the tables measure).

    .venv/bin/python benchmarks/mutation_tables.py pycute [--budget 20] [--seed 1] [--only M01,M07]
    .venv/bin/python benchmarks/mutation_tables.py impl [--budget 30] [--seed 1] [--only M01,M07]

Runs ``python -m layoutcheck.fuzz.mutation.TABLE`` with the options given (one fuzz campaign per
mutant: minutes), prints its table, and records the catch rate, the median and longest time to
the first new failure, the mutants not caught and the whole table under "Mutation tables".
"""

import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from results import record

TABLES = {"pycute": "layoutcheck.fuzz.mutation.pycute", "impl": "layoutcheck.fuzz.mutation.impl",
          "nvlabs": "layoutcheck.fuzz.mutation.nvlabs"}


def summary(name, rows):
    mutants = [r for r in rows if r["id"] != "M00"]
    caught = [r for r in mutants if r["caught"]]
    times = [r["catch_s"] for r in caught if r.get("catch_s") is not None]
    m00 = next((r for r in rows if r["id"] == "M00"), None)
    clean = m00 is None or not (m00.get("caught") or m00.get("check") or m00.get("exit") or m00.get("error"))
    lines = [f"{name} table: **{len(caught)}/{len(mutants)} mutants caught "
             f"({100 * len(caught) / max(1, len(mutants)):.1f}%)**"]
    if times:
        lines[0] += f", median time to the first new failure {statistics.median(times):.1f} s, " \
                    f"longest {max(times):.1f} s"
    lines[0] += "; M00 (unpatched) " + ("clean" if clean else "NOT clean") + "."
    missed = [r["id"] for r in mutants if not r["caught"]]
    if missed:
        lines.append(f"Not caught: {', '.join(missed)}.")
    return "\n".join(lines)


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in TABLES:
        print(f"usage: mutation_tables.py {{{','.join(TABLES)}}} [options of the table]", file=sys.stderr)
        return 2
    name, options = argv[0], argv[1:]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "rows.json"
        proc = subprocess.run([sys.executable, "-m", TABLES[name], *options, "--json", str(out)],
                              stdout=subprocess.PIPE, text=True)
        print(proc.stdout, end="")
        if not out.exists():
            return proc.returncode or 2
        rows = json.loads(out.read_text())
    text = summary(name, rows)
    print(text)
    if "-h" not in options and "--help" not in options:
        table = "\n".join(line for line in proc.stdout.splitlines() if line.startswith("|"))
        record("Mutation tables", f"{text}\n\n{table}", versions=["nvidia-cutlass"],
               command=f"python benchmarks/mutation_tables.py {' '.join([name, *options])}")
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
