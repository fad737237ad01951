"""Run a mutation table and record it in benchmarks/RESULTS.md (docs/mutation.md says what
the tables measure).

    .venv/bin/python benchmarks/mutation_tables.py pycute [--budget 20] [--seed 1] [--only M01,M07]
    .venv/bin/python benchmarks/mutation_tables.py impl [--budget 30] [--seed 1] [--only M01,M07]
    .venv/bin/python benchmarks/mutation_tables.py nvlabs [--budget 20] [--seed 1] [--against-baseline]
    .venv/bin/python benchmarks/mutation_tables.py cpp [--budget 120] [--seed 7] [--only CPP01,CPP07]
    .venv/bin/python benchmarks/mutation_tables.py nvlabs --rows rows.json [--note TEXT] [OPTIONS]

Runs ``python -m layoutcheck.fuzz.mutation.TABLE`` with the options given (one fuzz campaign per
mutant: minutes), prints its table, and records the catch rate, the median and longest time to
the first new failure, the mutants not caught, the table's wall time and the whole table under
"Mutation tables".  The unpatched copy (the id ending in 00) and the mutants a table lists apart
as not observable by design (its ``APART``) are not counted.  ``--rows FILE`` records the rows a
table wrote earlier with ``--json FILE`` instead of running it (the OPTIONS then only say, in
the entry's command, how it was run); ``--note TEXT`` adds a line to the entry (the load while
the table ran, say: the machine line gives the load when the entry is written).
"""

import importlib
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from results import record

TABLES = {"pycute": "layoutcheck.fuzz.mutation.pycute", "impl": "layoutcheck.fuzz.mutation.impl",
          "nvlabs": "layoutcheck.fuzz.mutation.nvlabs", "cpp": "layoutcheck.fuzz.mutation.cpp"}


def apart(name):
    """The mutants the table lists apart as not observable by design (id -> reason)."""
    return getattr(importlib.import_module(TABLES[name]), "APART", {})


def render(name, rows):
    """The table's markdown, as the table itself prints it."""
    module = importlib.import_module(TABLES[name])
    if name == "cpp":
        return module.table(rows, module.APART, reach=True)
    return module.table(rows, module.APART) if hasattr(module, "APART") else module.table(rows)


def summary(name, rows, not_counted=()):
    """The catch rate and its times, whether the unpatched copy stayed clean, the mutants not
    caught (with their operation) and the table's wall time."""
    base = [r for r in rows if r["id"].endswith("00")]
    mutants = [r for r in rows if not r["id"].endswith("00") and r["id"] not in not_counted]
    caught = [r for r in mutants if r["caught"]]
    times = [r["catch_s"] for r in caught if r.get("catch_s") is not None]
    unpatched = base[0] if base else None
    clean = unpatched is None or not (unpatched.get("caught") or unpatched.get("check")
                                      or unpatched.get("exit") or unpatched.get("error")
                                      or unpatched.get("not_reached"))
    lines = [f"{name} table: **{len(caught)}/{len(mutants)} mutants caught "
             f"({100 * len(caught) / max(1, len(mutants)):.1f}%)**"]
    if times:
        lines[0] += f", median time to the first new failure {statistics.median(times):.1f} s, " \
                    f"longest {max(times):.1f} s"
    if unpatched is not None:
        lines[0] += f"; {unpatched['id']} (unpatched) " + ("clean" if clean else "NOT clean")
    lines[0] += "."
    missed = [f"{r['id']} ({r['op']})" if r.get("op") else r["id"] for r in mutants if not r["caught"]]
    if missed:
        lines.append(f"Not caught: {', '.join(missed)}.")
    shown = [r["id"] for r in rows if r["id"] in not_counted]
    if shown:
        lines.append(f"Not counted (not observable by design): {', '.join(shown)}.")
    walls = [r["wall_s"] for r in rows if r.get("wall_s") is not None]
    if walls:
        lines.append(f"The gate runs took {sum(walls) / 60:.1f} min in all.")
    return "\n".join(lines)


def own_options(argv):
    """(``--rows`` FILE or None, ``--note`` TEXT or None, the table's options)."""
    rows = note = None
    rest = []
    it = iter(argv)
    for arg in it:
        if arg in ("--rows", "--note"):
            value = next(it, None)
            if value is None:
                raise ValueError(f"{arg} needs a value")
            rows, note = (value, note) if arg == "--rows" else (rows, value)
        else:
            rest.append(arg)
    return rows, note, rest


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in TABLES:
        print(f"usage: mutation_tables.py {{{','.join(TABLES)}}} [options of the table]", file=sys.stderr)
        return 2
    name = argv[0]
    try:
        rows_file, note, options = own_options(argv[1:])
    except ValueError as e:
        print(f"mutation_tables.py: {e}", file=sys.stderr)
        return 2
    if rows_file:
        try:
            rows = json.loads(Path(rows_file).read_text())
        except (OSError, ValueError) as e:
            print(f"mutation_tables.py: cannot read the rows in {rows_file}: {e}", file=sys.stderr)
            return 2
        table, returncode = render(name, rows), 0
        command = f"python -m {TABLES[name]} {' '.join(options)}".rstrip()
    else:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "rows.json"
            proc = subprocess.run([sys.executable, "-m", TABLES[name], *options, "--json", str(out)],
                                  stdout=subprocess.PIPE, text=True)
            print(proc.stdout, end="")
            if not out.exists():
                return proc.returncode or 2
            rows = json.loads(out.read_text())
        table, returncode = proc.stdout.strip(), proc.returncode
        command = f"python benchmarks/mutation_tables.py {' '.join([name, *options])}"
    text = summary(name, rows, apart(name))
    if note:
        text += f"\n{note}"
    print(text)
    if "-h" not in options and "--help" not in options:
        record("Mutation tables", f"{text}\n\n{table}", versions=["nvidia-cutlass"], command=command)
    return returncode


if __name__ == "__main__":
    sys.exit(main())
