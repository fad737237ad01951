"""The typing contract (DESIGN.md): mypy finds no error in the modules that ``[tool.mypy]`` of
``pyproject.toml`` lists, and every public function and method of those modules is annotated
(a new one without hints fails here, whichever mypy settings its module has).

mypy reads a package from one folder, like import-linter; the package's folders are mapped into
``layoutcheck`` by ``pyproject.toml``, so mypy runs on a copy of the tree with every folder under
``layoutcheck/`` (``test_architecture.mirror``), with its cache in the test's temporary folder.
"""

import ast
import importlib.util
import shutil
import subprocess
import sys
import tomllib

import pytest
from test_architecture import FOLDERS, REPO, mirror

CONFIG = tomllib.loads((REPO / "pyproject.toml").read_text())
MYPY = CONFIG["tool"]["mypy"]
needs_mypy = pytest.mark.skipif(importlib.util.find_spec("mypy") is None,
                                reason="mypy is not installed (pip install '.[test]')")


def source_path(path):
    """A path of the import package (``layoutcheck/spec/layout.py``) in this repository
    (``spec/layout.py``)."""
    parts = path.split("/")
    if len(parts) > 2 and parts[0] == "layoutcheck" and parts[1] in FOLDERS:
        return "/".join(parts[1:])
    return path


def public_defs(tree):
    """(name, node) of the module's public functions and of the public methods (plus
    ``__init__`` and ``__call__``) of its public classes."""
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.name.startswith("_"):
            yield node.name, node
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
                        not item.name.startswith("_") or item.name in ("__init__", "__call__")):
                    yield f"{node.name}.{item.name}", item


def missing_hints(fn, method):
    """The parameters (and ``return``) of ``fn`` without an annotation."""
    a = fn.args
    params = a.posonlyargs + a.args
    static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in fn.decorator_list)
    if method and not static:
        params = params[1:]  # self / cls
    params = params + a.kwonlyargs + [p for p in (a.vararg, a.kwarg) if p is not None]
    out = [p.arg for p in params if p.annotation is None]
    if fn.returns is None:
        out.append("return")
    return out


def test_the_typed_modules_are_the_listed_ones():
    files = MYPY["files"]
    assert len(files) == len(set(files)) and files
    for path in files:
        assert (REPO / source_path(path)).is_file(), path
    assert "py.typed" in CONFIG["tool"]["setuptools"]["package-data"]["layoutcheck"]
    assert (REPO / "layoutcheck" / "py.typed").is_file()


def test_every_public_function_of_the_typed_modules_is_annotated():
    found = []
    for path in MYPY["files"]:
        rel = source_path(path)
        tree = ast.parse((REPO / rel).read_text())
        for name, fn in public_defs(tree):
            missing = missing_hints(fn, "." in name)
            if missing:
                found.append(f"{rel}:{fn.lineno}: {name} ({', '.join(missing)})")
    assert not found, "public functions without type hints:\n" + "\n".join(found)


def test_the_check_finds_a_public_function_without_hints():
    tree = ast.parse("def shown(x: int) -> int: ...\ndef bare(x, y: int): ...\ndef _hidden(x): ...\n"
                     "class K:\n    def __init__(self, n): ...\n    def ok(self) -> None: ...\n")
    got = {name: missing_hints(fn, "." in name) for name, fn in public_defs(tree)}
    assert got == {"shown": [], "bare": ["x", "return"], "K.__init__": ["n", "return"], "K.ok": []}


def mypy(tree, cache):
    """mypy with pyproject.toml's [tool.mypy] on the mirror ``tree``: (exit status, its lines
    with this repository's paths)."""
    r = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(cache), "--no-error-summary",
                        "--hide-error-context"], cwd=tree, capture_output=True, text=True, timeout=600)
    return r.returncode, [source_path(line) for line in (r.stdout + r.stderr).splitlines() if line.strip()]


@needs_mypy
def test_mypy_finds_no_error_in_the_typed_modules(tmp_path):
    tree = mirror(tmp_path / "tree")
    shutil.copy(REPO / "pyproject.toml", tree / "pyproject.toml")
    status, lines = mypy(tree, tmp_path / "cache")
    assert status == 0, "mypy (pyproject.toml [tool.mypy]):\n" + "\n".join(lines[-80:])
    assert not lines, lines
    # and it fails on a planted type error and on an unannotated helper of a typed module
    # (the second run reuses the first one's cache: seconds)
    path = tree / "layoutcheck" / "notation.py"
    path.write_text(path.read_text() + "\n\ndef _planted(x):\n    return x\n\n\n"
                    "def planted_too(x: int) -> str:\n    return x\n")
    status, lines = mypy(tree, tmp_path / "cache")
    assert status != 0
    assert any("layoutcheck/notation.py" in x and "[no-untyped-def]" in x for x in lines), lines
    assert any("layoutcheck/notation.py" in x and "[return-value]" in x for x in lines), lines
