"""The package's architecture, checked on every module: the import-linter contracts of
``.importlinter`` (layers, independent implementations, no cycle between siblings), no import
inside a function but of an optional dependency (``layoutcheck/optional.py``), and no module
past ~600 lines.

The package's folders are mapped into ``layoutcheck`` by ``pyproject.toml``; import-linter's
graph (grimp) reads a package from one folder, so the tests give it a copy of the tree with
every folder under ``layoutcheck/``.
"""

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from layoutcheck.optional import OPTIONAL_IMPORTS

REPO = Path(__file__).resolve().parents[1]
FOLDERS = ("spec", "impl", "oracles", "fuzz", "proofs", "gpu_checks")
LINT = Path(sys.executable).with_name("lint-imports")
needs_linter = pytest.mark.skipif(not LINT.exists(), reason="import-linter is not installed "
                                                            "(pip install '.[test]')")


def package_files():
    """Every Python file of the package, as (path, module name)."""
    out = []
    for top, package in [("layoutcheck", "layoutcheck")] + [(f, f"layoutcheck.{f}") for f in FOLDERS]:
        for path in sorted((REPO / top).rglob("*.py")):
            rel = path.relative_to(REPO / top).with_suffix("")
            parts = [p for p in rel.parts if p != "__init__"]
            out.append((path, ".".join([package] + parts)))
    return out


def mirror(dest):
    """A copy of the package with every folder under ``layoutcheck/``."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(REPO / "layoutcheck", dest / "layoutcheck", ignore=ignore)
    for folder in FOLDERS:
        shutil.copytree(REPO / folder, dest / "layoutcheck" / folder, ignore=ignore)
    return dest


def lint(tree):
    return subprocess.run([str(LINT), str(REPO / ".importlinter")], cwd=tree, capture_output=True,
                          text=True, timeout=600, env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"})


@needs_linter
def test_the_contracts_hold_on_every_module(tmp_path):
    r = lint(mirror(tmp_path))
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    analysed = int(re.search(r"Analyzed (\d+) files", r.stdout).group(1))
    assert analysed >= len(package_files()), (analysed, len(package_files()))
    assert "broken" not in r.stdout.split("Contracts:")[-1].replace("0 broken", "")


@needs_linter
@pytest.mark.parametrize("importer, imported", [
    ("spec/tuples.py", "layoutcheck.spec.layout"),                   # two modules of one layer
    ("oracles/cpp/model.py", "layoutcheck.oracles.cpp.findings.algebra"),  # deep in a package
    ("layoutcheck/errors.py", "layoutcheck.fuzz.campaign.runner"),   # a lower layer up
])
def test_a_planted_cycle_or_upward_import_fails(tmp_path, importer, imported):
    tree = mirror(tmp_path)
    path = tree / "layoutcheck" / importer.removeprefix("layoutcheck/")
    path.write_text(path.read_text() + f"\nimport {imported}  # planted\n")
    r = lint(tree)
    assert r.returncode != 0, r.stdout[-3000:]
    assert "BROKEN" in r.stdout


def test_imports_inside_functions_are_only_optional_dependencies():
    found = []
    for path, module in package_files():
        tree = ast.parse(path.read_text())
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(fn):
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom):
                    names = [node.module or ""]
                else:
                    continue
                for name in names:
                    if not any(name == o or name.startswith(o + ".") for o in OPTIONAL_IMPORTS):
                        found.append(f"{path.relative_to(REPO)}:{node.lineno}: {name}")
    assert not found, "imports inside functions:\n" + "\n".join(found)


def test_no_module_is_past_600_lines():
    long = [f"{p.relative_to(REPO)}: {n}" for p, _ in package_files()
            if (n := p.read_text().count("\n")) > 600]
    assert not long, long


def test_every_module_has_a_docstring():
    missing = [str(p.relative_to(REPO)) for p, _ in package_files()
               if p.stat().st_size and ast.get_docstring(ast.parse(p.read_text())) is None]
    assert not missing, missing
