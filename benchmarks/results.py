"""Record a benchmark's results in ``benchmarks/RESULTS.md``, with where and on what it ran.

    from results import record, recording

    record("Spec against impl", text_or_table, versions=["hypothesis"])

    if __name__ == "__main__":
        with recording("Spec against impl", versions=["hypothesis"]):
            sys.exit(main())

``RESULTS.md`` has one ``## SECTION`` per benchmark: a few lines that say what it measures, then
its entries, newest first, each under a ``### DATE UTC: COMMAND`` heading with the machine (CPU
model, cores, memory, load average), the versions (Python, layoutcheck's commit, the packages
named in ``versions`` besides numpy and hypothesis) and the results.  ``record`` inserts a new
entry above the section's first entry (a section that does not exist yet is added at the end),
and writes the file atomically.

``text_or_table`` is markdown text, or a table: a list of dicts (the keys of the first give the
columns) or a ``(header, rows)`` pair.  ``recording`` runs the block, copies what it printed on
stdout (the console output is unchanged) and records it when the block ends normally, with its
exit status when that is not 0; ``fmt`` says whether that output is markdown or plain text
(``"text"``, fenced) or JSON (``"json"``, fenced).

``LAYOUTCHECK_RESULTS`` names another file to write, or is ``off`` (or ``0``) to record nothing.
"""

from __future__ import annotations

import contextlib
import datetime
import importlib.metadata
import io
import os
import platform
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

__all__ = ["record", "recording", "machine", "versions_line", "results_path", "render_table"]

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "RESULTS.md"
DEFAULT_PACKAGES = ("numpy", "hypothesis")
HEADER = """# Benchmark results

Every figure measured on layoutcheck, grouped by benchmark, newest first: each entry says when
(UTC), on what machine and with which versions it was measured, and the command.  The scripts in
`benchmarks/` add their entries themselves (`benchmarks/results.py`).
"""


def results_path() -> Path | None:
    """The file to write, or None when recording is off (``LAYOUTCHECK_RESULTS``)."""
    value = os.environ.get("LAYOUTCHECK_RESULTS", "")
    if value.lower() in ("off", "0", "no", "false"):
        return None
    return Path(value) if value else RESULTS


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith(("model name", "hardware", "processor\t: ")) and ":" in line:
                value = line.split(":", 1)[1].strip()
                if value and not value.isdigit():
                    return value
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def _memory_gib() -> str:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return f"{int(line.split()[1]) / (1 << 20):.1f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    return "unknown memory"


def machine() -> str:
    """One line: CPU model, cores, memory, architecture, OS, load average."""
    try:
        load = "load %.2f %.2f %.2f" % os.getloadavg()
    except OSError:
        load = "load unknown"
    return (f"{_cpu_model()}, {os.cpu_count()} cores, {_memory_gib()}, {platform.machine()}, "
            f"{platform.system()} {platform.release()}, {load}")


def _commit() -> str:
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return f"{head}{' + uncommitted changes' if dirty else ''}" if head else "unknown"


def versions_line(packages=(), tools=()) -> str:
    """Python, layoutcheck's commit, the installed version of each package, and the first line
    of ``TOOL --version`` for each tool (a compiler, say)."""
    parts = [f"Python {platform.python_version()}", f"layoutcheck {_commit()}"]
    for name in dict.fromkeys([*DEFAULT_PACKAGES, *packages]):
        try:
            parts.append(f"{name} {importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            parts.append(f"{name} not installed")
    for tool in tools:
        try:
            out = subprocess.run([tool, "--version"], capture_output=True, text=True, timeout=20)
            parts.append((out.stdout or out.stderr).strip().splitlines()[0])
        except (OSError, subprocess.SubprocessError, IndexError):
            parts.append(f"{tool} not found")
    return ", ".join(parts)


def render_table(table) -> str:
    """A markdown table from a list of dicts or a (header, rows) pair."""
    if isinstance(table, tuple) and len(table) == 2:
        header, rows = table
        rows = [list(r) for r in rows]
    else:
        rows_d = list(table)
        header = list(rows_d[0]) if rows_d else []
        rows = [[r.get(k, "") for k in header] for r in rows_d]

    def cell(x):
        return str(x).replace("|", "\\|").replace("\n", " ")

    out = ["| " + " | ".join(cell(h) for h in header) + " |",
           "|" + "---|" * len(header)]
    out += ["| " + " | ".join(cell(x) for x in r) + " |" for r in rows]
    return "\n".join(out)


def _command() -> str:
    argv = [os.path.relpath(sys.argv[0], ROOT) if sys.argv and sys.argv[0] else "python"]
    return "python " + " ".join(shlex.quote(a) for a in argv + sys.argv[1:])


def entry(body, versions=(), command=None, when=None, tools=()) -> str:
    """One entry: its heading, machine, versions and body."""
    when = when or datetime.datetime.now(datetime.timezone.utc)
    body = body if isinstance(body, str) else render_table(body)
    return (f"### {when:%Y-%m-%d %H:%M} UTC: `{command or _command()}`\n\n"
            f"- machine: {machine()}\n- versions: {versions_line(versions, tools)}\n\n"
            f"{body.strip()}\n")


def insert(text: str, section: str, new_entry: str) -> str:
    """``text`` (a RESULTS.md) with ``new_entry`` first among ``section``'s entries."""
    lines = text.splitlines()
    try:
        start = lines.index(f"## {section}")
    except ValueError:
        return text.rstrip("\n") + f"\n\n## {section}\n\n{new_entry}"
    end = next((k for k in range(start + 1, len(lines)) if lines[k].startswith("## ")), len(lines))
    first = next((k for k in range(start + 1, end) if lines[k].startswith("### ")), None)
    if first is None:  # no entry yet: after the section's text
        k = end
        while k > start + 1 and not lines[k - 1].strip():
            k -= 1
        head, tail = lines[:k], lines[end:]
        return "\n".join(head + ["", new_entry.rstrip("\n"), ""] + tail).rstrip("\n") + "\n"
    head, tail = lines[:first], lines[first:]
    return "\n".join(head + [new_entry.rstrip("\n"), ""] + tail).rstrip("\n") + "\n"


def record(section, text_or_table, versions=(), command=None, path=None, tools=()) -> Path | None:
    """Add an entry to ``section`` of RESULTS.md (or ``path``); returns the file written, or
    None when recording is off."""
    path = Path(path) if path else results_path()
    if path is None:
        return None
    old = path.read_text(encoding="utf-8") if path.exists() else HEADER
    new = insert(old, section, entry(text_or_table, versions, command, tools=tools))
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".results-", suffix=".md")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(new)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    print(f"recorded in {path} ({section})", file=sys.stderr)
    return path


class _Tee(io.TextIOBase):
    def __init__(self, stream):
        self.stream, self.copy = stream, io.StringIO()

    def write(self, s):
        self.copy.write(s)
        return self.stream.write(s)

    def flush(self):
        self.stream.flush()


@contextlib.contextmanager
def recording(section, versions=(), fmt="text", command=None, tools=()):
    """Run the block, copying its stdout, and record that output in ``section`` when the block
    ends normally or by ``sys.exit`` (an exception records nothing, and neither does
    ``--help``)."""
    tee = _Tee(sys.stdout)
    try:
        with contextlib.redirect_stdout(tee):
            yield tee
    except SystemExit as e:
        status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        _record_output(section, tee, status, versions, fmt, command, tools)
        raise
    _record_output(section, tee, 0, versions, fmt, command, tools)


def _record_output(section, tee, status, versions, fmt, command, tools):
    out = _strip_ansi(tee.copy.getvalue()).strip()
    if not out or {"-h", "--help"} & set(sys.argv[1:]):
        return
    body = _tables_apart(out) if fmt == "markdown" else \
        f"```{'json' if fmt == 'json' else 'text'}\n{out}\n```"
    if status:
        body += f"\n\nExit status {status}."
    record(section, body, versions=versions, command=command, tools=tools)


def _tables_apart(text):
    """A blank line before each markdown table that follows a line of text (a table does not
    interrupt a paragraph everywhere)."""
    out = []
    for line in text.splitlines():
        if line.startswith("|") and out and out[-1].strip() and not out[-1].startswith("|"):
            out.append("")
        out.append(line)
    return "\n".join(out)


def _strip_ansi(s):
    return re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", s)
