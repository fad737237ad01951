"""Every command and code snippet of README.md runs as written (issue 12).

What is extracted, from any README text:
- fenced ``bash`` / ``sh`` / ``shell`` / ``console`` blocks: every logical line (``\\``
  continuations joined, comments and blank lines dropped; a leading ``$ `` removed) is a
  shell command;
- untyped fenced blocks: only their ``$ `` lines (the other lines are synopses such as
  ``layoutcheck fuzz [--ops ...]``, not commands);
- fenced ``python`` blocks: run as one program.

Each runs in a fresh folder that links this repository's top-level entries (so
``.venv/bin/layoutcheck``, ``benchmarks/...`` resolve and ``.layoutcheck/`` lands there), with
``.venv/bin`` first on PATH (a bare ``layoutcheck`` is the activated environment's), under
a time and memory cap.  A command must exit with status 0, or with the status its trailing
comment states (``# exit 1`` / ``# exits 1``), and print no Python traceback.

Explicit treatments, so the default run stays short (``LAYOUTCHECK_SLOW=1`` runs everything
as written, except the rule 1 prefix):
1. ``bash .ci/setup && ...``: the set-up prefix is dropped (``.ci/run`` ran it before this
   suite; rerunning it here would reinstall the environment under the running tests).
2. ``... -m pytest`` with no test selection (the whole suite): not run, it would run this
   suite from inside itself (``.ci/run`` is that command).
3. ``--budget N``: reduced to ``--budget $LAYOUTCHECK_README_BUDGET`` (default 1 second);
   a ``fuzz`` command then also gets ``--allow-unreached`` (a 1 s budget reaches only some
   checks, which would otherwise exit 2).
4. The multi-minute commands in ``LONG`` (the demo, deep proofs, the benchmark and mutation
   suites, the full GPU sweep): only under ``LAYOUTCHECK_SLOW=1``, with the reason.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
SLOW = bool(os.environ.get("LAYOUTCHECK_SLOW"))
BUDGET = os.environ.get("LAYOUTCHECK_README_BUDGET", "1")
TIMEOUT_S = 1800 if SLOW else 300
MEMORY_BYTES = 6 << 30
SHELL = ("bash", "sh", "shell", "console")

# pattern on the command -> why it runs only under LAYOUTCHECK_SLOW
LONG = [
    (r"\blayoutcheck demo\b", "the demo runs every part (examples, fuzz, z3, GPU shim): minutes; "
                              "tests/test_demo.py runs it on a short budget"),
    (r"\bprove\b.*--max-rank\s+[5-9]", "proofs to rank 5 and beyond take minutes"),
    (r"benchmarks/run\.py", "the benchmark suite takes minutes"),
    (r"layoutcheck\.fuzz\.mutation", "the mutation tests run one fuzz campaign per mutant (95 and 30)"),
    (r"\blayoutcheck gpu\b(?!.*--compile-only)", "the full GPU sweep (compile + host shim): minutes"),
]


def snippets(text):
    """[(line number, kind, text)] with kind "shell" or "python"."""
    out, lines, k = [], text.splitlines(), 0
    while k < len(lines):
        m = re.match(r"^\s*(```+|~~~+)\s*([\w+-]*)", lines[k])
        if not m:
            k += 1
            continue
        fence, lang = m.group(1), m.group(2).lower()
        start, body = k + 1, []
        k += 1
        while k < len(lines) and not lines[k].strip().startswith(fence[:3]):
            body.append(lines[k])
            k += 1
        k += 1
        if lang in ("python", "py"):
            out.append((start + 1, "python", "\n".join(body)))
        elif lang in SHELL or lang == "":
            out += [(start + 1 + i, "shell", cmd) for i, cmd in _commands(body, prompt_only=lang == "")]
    return out


def _commands(body, prompt_only):
    """Logical shell lines of a block: (index in block, command)."""
    out, k = [], 0
    while k < len(body):
        first, line = k, body[k].rstrip()
        while line.endswith("\\") and k + 1 < len(body):
            k += 1
            line = line[:-1] + " " + body[k].strip()
        k += 1
        stripped = line.strip()
        if stripped.startswith("$ "):
            stripped = stripped[2:]
        elif prompt_only:
            continue
        if stripped and not stripped.startswith("#"):
            out.append((first, stripped))
    return out


def expected_status(cmd):
    m = re.search(r"#.*\bexits?\s+(\d)\b", cmd)
    return int(m.group(1)) if m else 0


def prepare(cmd):
    """(command to run, reason to skip or None) after the documented treatments."""
    code = _strip_comment(cmd)
    code = re.sub(r"^\s*bash\s+\.ci/setup\s*&&\s*", "", code)  # rule 1
    if re.search(r"-m\s+pytest(\s+-n\s+\d+)?(\s+--dist\s+\w+)?\s*$", code):
        return code, "runs the whole test suite from inside itself (.ci/run is that command)"
    if not SLOW:
        for pattern, why in LONG:
            if re.search(pattern, code):
                return code, f"long ({why}); runs with LAYOUTCHECK_SLOW=1"
        if re.search(r"--budget(\s+|=)\d", code):  # rule 3
            code = re.sub(r"--budget(\s+|=)\d+(\.\d+)?", f"--budget {BUDGET}", code)
            if re.search(r"\bfuzz\b", code) and "--allow-unreached" not in code:
                code += " --allow-unreached"  # a 1 s budget reaches only some checks
    return code, None


def _strip_comment(cmd):
    """The command without its trailing ``# ...`` comment (quotes respected)."""
    quote, k = None, 0
    while k < len(cmd):
        ch = cmd[k]
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (k == 0 or cmd[k - 1].isspace()):
            return cmd[:k].rstrip()
        k += 1
    return cmd.rstrip()


def _workdir(tmp_path):
    for entry in ROOT.iterdir():
        if entry.name not in (".git", ".layoutcheck", ".hypothesis", "__pycache__"):
            (tmp_path / entry.name).symlink_to(entry)
    return tmp_path


def _limits():
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))


def _run(argv, cwd):
    env = dict(os.environ, PATH=f"{ROOT / '.venv' / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
               VIRTUAL_ENV=str(ROOT / ".venv"))
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=TIMEOUT_S, preexec_fn=_limits)


SNIPPETS = snippets(README.read_text(encoding="utf-8")) if README.exists() else []


def test_the_readme_has_snippets():
    assert len(SNIPPETS) >= 3, "README.md lost its commands (or the extractor broke)"


@pytest.mark.parametrize("line, kind, text", SNIPPETS,
                         ids=[f"README.md:{n}" for n, _, _ in SNIPPETS])
def test_snippet_runs(line, kind, text, tmp_path):
    cwd = _workdir(tmp_path)
    if kind == "python":
        p = _run([sys.executable, "-c", text], cwd)
        assert p.returncode == 0, f"README.md:{line}\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}"
        assert "Traceback" not in p.stderr
        return
    code, skip = prepare(text)
    if skip:
        pytest.skip(f"README.md:{line}: {skip}")
    p = _run(["bash", "-o", "pipefail", "-c", code], cwd)
    want = expected_status(text)
    assert p.returncode == want, (f"README.md:{line}: `{code}` exited {p.returncode}, "
                                  f"expected {want}\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}")
    assert "Traceback (most recent call last)" not in p.stdout + p.stderr, code


# --- the extractor itself -------------------------------------------------------------------

SAMPLE = '''
text
```bash
bash .ci/setup && .venv/bin/layoutcheck demo   # set up, then the demo
layoutcheck fuzz --against impl \\
    --budget 60 --seed 1        # exit 0
```
```
layoutcheck fuzz --against pycute [--ops coalesce,...]
$ layoutcheck show '(2,2):(1,2)'   # shape # not a comment inside quotes
```
```python
print("hi")
```
'''


def test_extractor_on_a_sample():
    got = snippets(SAMPLE)
    assert [k for _, k, _ in got] == ["shell", "shell", "shell", "python"]
    cmds = [t for _, k, t in got if k == "shell"]
    assert cmds[1].startswith("layoutcheck fuzz --against impl") and "--seed 1" in cmds[1]
    assert cmds[2] == "layoutcheck show '(2,2):(1,2)'   # shape # not a comment inside quotes"
    assert _strip_comment(cmds[2]) == "layoutcheck show '(2,2):(1,2)'"
    assert _strip_comment("layoutcheck show '#x'") == "layoutcheck show '#x'"
    code, skip = prepare(cmds[0])
    assert code == ".venv/bin/layoutcheck demo" and (skip is None) == SLOW
    code, skip = prepare(cmds[1])
    assert skip is None and ("--budget 60" in code) == SLOW
    assert prepare("bash .ci/setup && .venv/bin/python -m pytest")[1]
    assert prepare("bash .ci/setup && .venv/bin/python -m pytest -n 2 --dist loadscope")[1]
    assert not prepare("python -m pytest -n 2 tests/test_x.py")[1]
    assert expected_status("x  # exits 1 on a disagreement") == 1 and expected_status("x") == 0
