"""Every fenced snippet of README.md runs as written, and prints what the README shows.

What a fenced block of the README is:
- ``bash`` / ``sh`` / ``shell``: every logical line is a command (``\\`` continuations and
  here-documents joined, comments and blank lines dropped); nothing is compared;
- ``console`` and untyped blocks: a line starting with ``$ `` is a command (with its
  continuations and here-document); the lines after it, up to the next ``$ ``, are its
  expected output;
- ``python``: one program; a ``text`` block right after it (blank lines between allowed) is
  its expected output;
- ``text`` elsewhere is an error: every fenced block of the README runs.

The commands of one block run one after the other in one fresh folder (so a block can write
a file and use it), which links this repository's top-level entries (``.venv/bin/...``,
``benchmarks/...`` resolve; ``.layoutcheck/`` lands there), with ``.venv/bin`` first on PATH
(a bare ``layoutcheck`` is the activated environment's), under a time and memory cap.  A
command must exit with status 0, or with the status its trailing comment states
(``# exit 1`` / ``# exits 1``), and print no Python traceback.

Expected output is compared line by line, in order, as a subsequence of what the command
printed (stdout and stderr each keep their own order; an expected line may come from
either): runs of blanks count as one blank, ``...`` inside a line matches any text, and a
line that is only ``...`` marks lines left out.  So the README may trim an output and elide
what changes from run to run (timings), and what it does show is checked.

Explicit treatments, so the default run stays short (``LAYOUTCHECK_SLOW=1`` runs everything
as written, except the rule 1 prefix):
1. ``bash .ci/setup && ...``: the set-up prefix is dropped (``.ci/run`` ran it before this
   suite; rerunning it here would reinstall the environment under the running tests).
2. ``... -m pytest`` with no test selection (the whole suite): not run, it would run this
   suite from inside itself (``.ci/run`` is that command).
3. ``--budget N``: reduced to ``--budget $LAYOUTCHECK_README_BUDGET`` (default 1 second);
   a ``fuzz`` command then also gets ``--allow-unreached`` (a 1 s budget reaches only some
   checks, which would otherwise exit 2), and its output is not compared.
4. The multi-minute commands in ``LONG`` (the demo, deep proofs, the benchmark and mutation
   suites, the full GPU sweep): only under ``LAYOUTCHECK_SLOW=1``, with the reason.
5. A command naming an implementation this machine lacks (``--against cute-dsl`` without the
   DSL, ...) is skipped with the oracle's own reason, and so are the commands after it in
   its block.

The relative links of README.md, DESIGN.md, CHANGELOG.md and docs/*.md must lead to files
that exist (and to headings that exist, for ``#anchor`` links into markdown files).
"""

import os
import re
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
SLOW = bool(os.environ.get("LAYOUTCHECK_SLOW"))
BUDGET = os.environ.get("LAYOUTCHECK_README_BUDGET", "1")
TIMEOUT_S = 1800 if SLOW else 300
MEMORY_BYTES = 6 << 30
SHELL = ("bash", "sh", "shell")
PROMPTED = ("console", "")
OUTPUT = ("text", "output")
# the implementations a command may need; spec, impl and module:NAME are always there
OPTIONAL_ORACLES = ("pycute", "nvlabs", "cute-cpp", "cute-dsl")

# pattern on the command -> why it runs only under LAYOUTCHECK_SLOW
LONG = [
    (r"\blayoutcheck demo\b", "the demo runs every part (examples, fuzz, z3, GPU shim): minutes; "
                              "tests/test_demo.py runs it on a short budget"),
    (r"\bprove\b.*--max-rank\s+[5-9]", "proofs to rank 5 and beyond take minutes"),
    (r"benchmarks/run\.py", "the benchmark suite takes minutes"),
    (r"layoutcheck\.fuzz\.mutation", "the mutation tests run one fuzz campaign per mutant (95 and 30)"),
    (r"\blayoutcheck gpu\b(?!.*--compile-only)", "the full GPU sweep (compile + host shim): minutes"),
]


class Command:
    """One command of a block: its README line, its text, the output the README shows."""

    def __init__(self, line, text, expected=()):
        self.line, self.text, self.expected = line, text, list(expected)

    def __repr__(self):
        return f"Command({self.line}, {self.text!r})"


class Block:
    """One fenced block: ``kind`` is "shell" or "python"; ``commands`` (shell) or ``text`` and
    ``expected`` (python)."""

    def __init__(self, line, kind, commands=(), text="", expected=()):
        self.line, self.kind = line, kind
        self.commands, self.text, self.expected = list(commands), text, list(expected)


def fences(text):
    """[(line number of the first body line, language, body lines, index of the closing
    fence)] of every fenced block."""
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
        out.append((start + 1, lang, body, k))  # k: the closing fence's index
        k += 1
    return out


def blocks(text):
    """The README's blocks, each with what it runs; raises ValueError on a block that runs
    nothing (a synopsis, or an output block that follows no program)."""
    out, lines = [], text.splitlines()
    found = fences(text)
    previous_end, previous_python = None, None
    for first, lang, body, end in found:
        between = lines[previous_end + 1:first - 2] if previous_end is not None else ["x"]
        if lang in ("python", "py"):
            previous_python = Block(first, "python", text="\n".join(body))
            out.append(previous_python)
        elif lang in OUTPUT:
            if previous_python is None or any(s.strip() for s in between):
                raise ValueError(f"README.md:{first}: a ```{lang} block that follows no "
                                 "```python block runs nothing")
            previous_python.expected = body
            previous_python = None
        elif lang in SHELL or lang in PROMPTED:
            commands = _commands(body, first, prompted=lang in PROMPTED)
            if not commands:
                raise ValueError(f"README.md:{first}: a fenced block with no command "
                                 "(write commands as `$ ...` lines, or use ```bash)")
            out.append(Block(first, "shell", commands=commands))
            previous_python = None
        else:
            raise ValueError(f"README.md:{first}: a ```{lang} block: the README's blocks are "
                             "bash, console, python, and text right after python")
        previous_end = end
    return out


def _heredoc(line):
    m = re.search(r"<<-?\s*(['\"]?)(\w+)\1", line)
    return m.group(2) if m else None


def _commands(body, first, prompted):
    """The logical commands of a block's lines, each with the output lines after it."""
    out, k = [], 0
    while k < len(body):
        start, line = k, body[k].rstrip()
        stripped = line.strip()
        if prompted and not stripped.startswith("$ "):
            if out:
                out[-1].expected.append(line)
            k += 1
            continue
        while line.endswith("\\") and k + 1 < len(body):
            k += 1
            line = line[:-1] + " " + body[k].strip()
        k += 1
        word = _heredoc(line)
        if word:
            doc = []
            while k < len(body) and body[k].strip() != word:
                doc.append(body[k])
                k += 1
            k += 1
            line = "\n".join([line] + doc + [word])
        text = line.strip()
        if text.startswith("$ "):
            text = text[2:]
        if text and not text.startswith("#"):
            out.append(Command(first + start, text))
    return out


def expected_status(cmd):
    first = cmd.splitlines()[0]
    m = re.search(r"#.*\bexits?\s+(\d)\b", first)
    return int(m.group(1)) if m else 0


def prepare(cmd):
    """(command to run, reason to skip or None, compare the output?) after the treatments."""
    code = _strip_comment(cmd)
    code = re.sub(r"^\s*bash\s+\.ci/setup\s*&&\s*", "", code)  # rule 1
    if re.search(r"-m\s+pytest(\s+-n\s+\d+)?(\s+--dist\s+\w+)?\s*$", code):
        return code, "runs the whole test suite from inside itself (.ci/run is that command)", False
    compare = True
    if not SLOW:
        for pattern, why in LONG:
            if re.search(pattern, code):
                return code, f"long ({why}); runs with LAYOUTCHECK_SLOW=1", False
        if re.search(r"--budget(\s+|=)\d", code):  # rule 3
            code = re.sub(r"--budget(\s+|=)\d+(\.\d+)?", f"--budget {BUDGET}", code)
            if re.search(r"\bfuzz\b", code) and "--allow-unreached" not in code:
                code += " --allow-unreached"  # a 1 s budget reaches only some checks
            compare = False
    missing = [r for r in map(_unavailable, _oracles_named(code)) if r]  # rule 5
    if missing:
        return code, missing[0], False
    return code, None, compare


def _oracles_named(code):
    names = []
    for m in re.finditer(r"--against[= ]+([\w:@.,/-]+)", code):
        names += [n for n in m.group(1).split(",") if n in OPTIONAL_ORACLES]
    return names


@lru_cache(maxsize=None)
def _unavailable(name):
    """The oracle's reason not to run here, or None (asked once per test process)."""
    from layoutcheck.oracles import get_oracle
    reason = get_oracle(name).unavailable_reason()
    return f"needs {name}, unavailable here: {reason}" if reason else None


def _strip_comment(cmd):
    """The command without the trailing ``# ...`` comment of its first line (quotes
    respected; a here-document's lines are kept as they are)."""
    first, sep, rest = cmd.partition("\n")
    quote, k = None, 0
    while k < len(first):
        ch = first[k]
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (k == 0 or first[k - 1].isspace()):
            first = first[:k].rstrip()
            break
        k += 1
    return first.rstrip() + sep + rest


# --- comparing outputs ------------------------------------------------------------------------

def _norm(line):
    return " ".join(line.split())


def _pattern(expected_line):
    parts = [re.escape(p.strip()) for p in _norm(expected_line).split("...")]
    return re.compile("^" + ".*".join(parts) + "$")


def missing_output(expected, stdout, stderr):
    """The first expected line that is not found (in order) in stdout or stderr, or None."""
    streams = [[_norm(s) for s in stdout.splitlines()], [_norm(s) for s in stderr.splitlines()]]
    at = [0, 0]
    for line in expected:
        if not line.strip() or _norm(line) == "...":
            continue
        pat = _pattern(line)
        for s, lines in enumerate(streams):
            hit = next((i for i in range(at[s], len(lines)) if pat.match(lines[i])), None)
            if hit is not None:
                at[s] = hit + 1
                break
        else:
            return line
    return None


# --- running ----------------------------------------------------------------------------------

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


def _tail(p):
    return f"--- stdout\n{p.stdout[-3000:]}\n--- stderr\n{p.stderr[-3000:]}"


def _load():
    try:
        return blocks(README.read_text(encoding="utf-8")), None
    except (OSError, ValueError) as e:
        return [], str(e)


BLOCKS, BLOCKS_ERROR = _load()


def test_the_readme_has_snippets():
    assert BLOCKS_ERROR is None, BLOCKS_ERROR
    assert len(BLOCKS) >= 3, "README.md lost its commands (or the extractor broke)"


@pytest.mark.parametrize("block", BLOCKS, ids=[f"README.md:{b.line}" for b in BLOCKS])
def test_snippet_runs(block, tmp_path):
    cwd = _workdir(tmp_path)
    if block.kind == "python":
        p = _run([sys.executable, "-c", block.text], cwd)
        assert p.returncode == 0, f"README.md:{block.line}\n{_tail(p)}"
        assert "Traceback" not in p.stderr
        gap = missing_output(block.expected, p.stdout, p.stderr)
        assert gap is None, f"README.md:{block.line}: the output lacks {gap!r}\n{_tail(p)}"
        return
    ran, skipped = 0, []
    for cmd in block.commands:
        code, skip, compare = prepare(cmd.text)
        if skip:
            skipped.append(f"README.md:{cmd.line}: {skip}")
            if "unavailable here" in skip:
                break  # rule 5: later commands of the block may need this one's files
            continue
        p = _run(["bash", "-o", "pipefail", "-c", code], cwd)
        want = expected_status(cmd.text)
        assert p.returncode == want, (f"README.md:{cmd.line}: `{code}` exited {p.returncode}, "
                                      f"expected {want}\n{_tail(p)}")
        assert "Traceback (most recent call last)" not in p.stdout + p.stderr, code
        if compare:
            gap = missing_output(cmd.expected, p.stdout, p.stderr)
            assert gap is None, (f"README.md:{cmd.line}: the output of `{code}` lacks "
                                 f"{gap!r}\n{_tail(p)}")
        ran += 1
    if skipped and not ran:
        pytest.skip("; ".join(skipped))


# --- links ------------------------------------------------------------------------------------

def _anchors(md):
    """GitHub's anchors of a markdown file's headings."""
    out = set()
    for line in md.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^#{1,6}\s+(.*)$", line)
        if m:
            slug = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
            out.add(slug)
    return out


DOCUMENTS = [p for p in [ROOT / "README.md", ROOT / "DESIGN.md", ROOT / "CHANGELOG.md",
                         ROOT / "benchmarks" / "RESULTS.md", *sorted((ROOT / "docs").glob("*.md"))]
             if p.exists()]


@pytest.mark.parametrize("doc", DOCUMENTS, ids=[str(p.relative_to(ROOT)) for p in DOCUMENTS])
def test_relative_links_lead_somewhere(doc):
    text = re.sub(r"```.*?```", "", doc.read_text(encoding="utf-8"), flags=re.S)
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"^[a-z]+:", target):
            continue  # https:, mailto:
        path, _, anchor = target.partition("#")
        dest = (doc.parent / path).resolve() if path else doc
        if not dest.exists():
            broken.append(target)
        elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
            broken.append(target)
    assert not broken, f"{doc.relative_to(ROOT)}: links to nothing: {broken}"


# --- the extractor itself -------------------------------------------------------------------

SAMPLE = '''
text
```bash
bash .ci/setup && .venv/bin/layoutcheck demo   # set up, then the demo
layoutcheck fuzz --against impl \\
    --budget 60 --seed 1        # exit 0
```
```console
$ cat > m.py <<'EOF'
print("# not a comment")
EOF
$ layoutcheck show '(2,2):(1,2)'   # shape # not a comment inside quotes
layout      (2,2):(1,2)
...
size ... 4
```
```python
print("hi")
```

```text
hi
```
'''


def test_extractor_on_a_sample():
    got = blocks(SAMPLE)
    assert [b.kind for b in got] == ["shell", "shell", "python"]
    cmds = [c.text for b in got if b.kind == "shell" for c in b.commands]
    assert cmds[1].startswith("layoutcheck fuzz --against impl") and "--seed 1" in cmds[1]
    assert cmds[2] == "cat > m.py <<'EOF'\nprint(\"# not a comment\")\nEOF"
    assert _strip_comment(cmds[2]) == cmds[2]
    assert cmds[3] == "layoutcheck show '(2,2):(1,2)'   # shape # not a comment inside quotes"
    assert _strip_comment(cmds[3]) == "layoutcheck show '(2,2):(1,2)'"
    assert _strip_comment("layoutcheck show '#x'") == "layoutcheck show '#x'"
    assert got[1].commands[1].expected == ["layout      (2,2):(1,2)", "...", "size ... 4"]
    assert got[2].expected == ["hi"]
    code, skip, _ = prepare(cmds[0])
    assert code == ".venv/bin/layoutcheck demo" and (skip is None) == SLOW
    code, skip, compare = prepare(cmds[1])
    assert skip is None and ("--budget 60" in code) == SLOW and compare == SLOW
    assert prepare("bash .ci/setup && .venv/bin/python -m pytest")[1]
    assert prepare("bash .ci/setup && .venv/bin/python -m pytest -n 2 --dist loadscope")[1]
    assert not prepare("python -m pytest -n 2 tests/test_x.py")[1]
    assert expected_status("x  # exits 1 on a disagreement") == 1 and expected_status("x") == 0
    assert _oracles_named("layoutcheck op x --against impl,cute-cpp,module:m@pycute") == ["cute-cpp"]


def test_extractor_refuses_blocks_that_run_nothing():
    for text in ("```\nlayoutcheck fuzz [--against ORACLES]\n```\n",
                 "intro\n```text\nan output of nothing\n```\n",
                 "```python\nprint(1)\n```\nprose between\n```text\n1\n```\n",
                 "```yaml\na: 1\n```\n"):
        with pytest.raises(ValueError):
            blocks(text)


def test_outputs_are_compared_in_order_with_elisions():
    out = "layout  (2,2):(1,2)\nsize    4\ncosize  4\n"
    assert missing_output(["layout (2,2):(1,2)", "...", "cosize 4"], out, "") is None
    assert missing_output(["size ... 4", "layout ..."], out, "") == "layout ..."
    assert missing_output(["cosize 5"], out, "") == "cosize 5"
    assert missing_output(["size 4", "progress"], out, "progress\n") is None
