"""The ``nvlabs`` oracle: NVIDIA's new PyCuTe (github.com/NVlabs/CuTe), loaded from a path.

PyCuTe's package is called ``pycute``, like the old pycute of the ``nvidia-cutlass`` wheel
(the ``pycute`` oracle).  This oracle never imports it by that name: the package found at
an explicit location is loaded under a private alias (``_layoutcheck_nvlabs_<hash>``; its
internal imports are relative, so every submodule lands under the alias too), so it neither
shadows nor is shadowed by the wheel's ``pycute`` and both can run in one process.

Where it is loaded from (``locate``), first match wins:
  ``nvlabs:PATH``                  that path, nothing else;
  ``nvlabs``                       ``$LAYOUTCHECK_NVLABS_PATH``; without it the oracle is
                                   unavailable and says how to point at a checkout.
PATH is the folder that holds ``pycute/`` or the ``pycute`` folder itself.  ``describe()``
names the path, how it was chosen, and the version of every loaded file (the snapshot's
``SOURCES.txt`` commit where it lists one, and a content hash).

The operations go through ``oracles/pyapi.py`` (pycute's op table) with PyCuTe's
differences (``nvlabs_calls``); what PyCuTe lacks is ``unsupported``.  Inputs go in as plain
ints (PyCuTe has no static integers), ``_`` as ``None``.  The harness runs the adapter in a
worker process (``nvlabs_oracle``, ``oracles/isolation.py``).
"""

import hashlib
import importlib.util
import os
import sys
from pathlib import Path

from layoutcheck.oracles.isolation import IsolatedOracle
from layoutcheck.oracles.protocol import Oracle, Outcome
from layoutcheck.oracles.pyapi import Call, PyApi, nvlabs_composed_calls

__all__ = ["nvlabs_oracle", "NvlabsAdapter", "nvlabs_calls", "locate", "load", "alias_for", "provenance",
           "describe_provenance", "ENV_VAR"]

ENV_VAR = "LAYOUTCHECK_NVLABS_PATH"
ALIAS_PREFIX = "_layoutcheck_nvlabs_"


# --- locating and loading ----------------------------------------------------------------

def _package_dir(path):
    """The ``pycute`` package folder at ``path`` (the folder holding it, or itself)."""
    p = Path(path).expanduser()
    for cand in (p / "pycute", p):
        if (cand / "__init__.py").is_file() and cand.name == "pycute":
            return cand.resolve()
    return None


def locate(path=None):
    """``(package_dir, how)`` or ``(None, reason)``: where the PyCuTe to load is."""
    if path is not None:
        pkg = _package_dir(path)
        return (pkg, f"nvlabs:{path}") if pkg else (None, f"no pycute package at {path!r} "
                                                          "(expected PATH/pycute/__init__.py)")
    env = os.environ.get(ENV_VAR)
    if env:
        pkg = _package_dir(env)
        return (pkg, f"${ENV_VAR}") if pkg else (None, f"${ENV_VAR}={env!r} holds no pycute package "
                                                       "(expected PATH/pycute/__init__.py)")
    return None, (f"NVlabs PyCuTe not located: set ${ENV_VAR} to a checkout of "
                  "github.com/NVlabs/CuTe (the folder holding pycute/) or use nvlabs:PATH")


_LOADED = {}


def alias_for(package_dir):
    """The private module name the package at ``package_dir`` is loaded under."""
    return ALIAS_PREFIX + hashlib.sha1(str(Path(package_dir).resolve()).encode()).hexdigest()[:10]


def load(package_dir):
    """Import the package at ``package_dir`` under a private alias (once per path)."""
    package_dir = Path(package_dir).resolve()
    if package_dir in _LOADED:
        return _LOADED[package_dir]
    alias = alias_for(package_dir)
    spec = importlib.util.spec_from_file_location(alias, package_dir / "__init__.py",
                                                  submodule_search_locations=[str(package_dir)])
    module = importlib.util.module_from_spec(spec)
    sys.modules[alias] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        for k in [k for k in sys.modules if k == alias or k.startswith(alias + ".")]:
            del sys.modules[k]
        raise
    _LOADED[package_dir] = module
    return module


def _sources(package_dir):
    """``{relative path: commit}`` from the snapshot's SOURCES.txt (absent: {})."""
    table = {}
    f = package_dir.parent / "SOURCES.txt"
    if f.is_file():
        for line in f.read_text(errors="replace").splitlines():
            parts = line.split()
            if len(parts) >= 2 and parts[0].startswith("pycute/"):
                table[parts[0]] = parts[1]
    return table


def _git_head(root):
    """The commit of a git checkout at ``root`` (read from .git, no subprocess), or None."""
    git = root / ".git"
    try:
        ref = (git / "HEAD").read_text().strip()
    except OSError:
        return None
    if not ref.startswith("ref: "):
        return ref or None
    ref = ref[5:]
    try:
        return (git / ref).read_text().strip()
    except OSError:
        pass
    try:  # a packed ref: "<sha> <ref>" lines
        for line in (git / "packed-refs").read_text().splitlines():
            if line.endswith(" " + ref):
                return line.split()[0]
    except OSError:
        pass
    return None


def provenance(module, package_dir, how):
    """What was loaded: the path, how it was chosen, and each loaded file's version."""
    package_dir = Path(package_dir)
    root = package_dir.parent
    commits = _sources(package_dir)
    files = []
    prefix = module.__name__
    for name in sorted(k for k in sys.modules if k == prefix or k.startswith(prefix + ".")):
        path = getattr(sys.modules[name], "__file__", None)
        if not path:
            continue
        rel = "pycute/" + Path(path).resolve().relative_to(package_dir).as_posix()
        digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12]
        files.append({"file": rel, "commit": commits.get(rel), "sha256": digest})
    known = sorted({f["commit"] for f in files if f["commit"] and f["commit"] != "unknown"})
    return {"path": str(package_dir), "how": how, "alias": prefix,
            "snapshot": (root / "SOURCES.txt").is_file(), "git_head": _git_head(root),
            "files": files, "commits": known,
            "unknown_commit": [f["file"] for f in files if f["commit"] in (None, "unknown")]}


def describe_provenance(info):
    """One line: the path, how it was chosen, the version, and every loaded file as
    ``name@commit`` (the SOURCES.txt commit, or ``sha256:`` of its content when unknown)."""
    if info["git_head"]:
        version = f"git checkout at {info['git_head'][:12]}"
    elif info["snapshot"]:
        version = "snapshot (SOURCES.txt)"
    else:
        version = "no version information (no SOURCES.txt, no .git)"
    files = ", ".join(
        f"{f['file'][len('pycute/'):]}@" + (f["commit"][:7] if f["commit"] not in (None, "unknown")
                                           else f"sha256:{f['sha256'][:8]}")
        for f in info["files"])
    return (f"NVlabs PyCuTe from {info['path']} ({info['how']}; {version}); "
            f"{len(info['files'])} files loaded: {files}")


# --- the API mapping ---------------------------------------------------------------------

def _slice(m, L, c):
    """PyCuTe slices through ``Layout._offset_and_slice`` (what its ``Tensor.__getitem__``
    calls): the sub-layout of the ``None`` modes, or the offset when ``c`` names every mode."""
    offset, sliced = L._offset_and_slice(c)
    return offset if m.rank(sliced) == 0 else sliced


def _slice_and_offset(m, L, c):
    offset, sliced = L._offset_and_slice(c)
    return sliced, offset


def nvlabs_calls():
    """PyCuTe's differences from pycute's op table (``oracles/pyapi.py``).  An op whose
    function PyCuTe lacks (filter, cosize, tiled/flat_divide, zipped/tiled_product,
    shape_div, elem_scale, crd2crd, dice) is found missing by ``PyApi`` itself, so a newer
    checkout that adds one is tested with it."""
    opt = lambda name: Call((name,), lambda m, *a: getattr(m, name)(*a))  # noqa: E731
    return {
        "rank": opt("rank"),                       # no Layout.__len__; rank(L) as in CuTe
        "congruent": opt("congruent"),
        "compatible": opt("compatible"),
        "slice_": Call(("Layout._offset_and_slice", "rank"), _slice),
        "slice_and_offset": Call(("Layout._offset_and_slice",), _slice_and_offset),
        **_composed_calls(),  # Swizzle, F2 strides, nullspace, recast, ...
    }


def _composed_calls():
    return nvlabs_composed_calls()


# ops whose optional trailing argument PyCuTe's function does not take
NO_OPTIONAL = {"crd2idx": "PyCuTe's crd2idx(crd, shape) takes no stride",
               "idx2crd": "PyCuTe's idx2crd(idx, shape) takes no stride"}


class NvlabsAdapter(Oracle):
    """NVlabs PyCuTe in this process, loaded from ``path`` (None: ``$LAYOUTCHECK_NVLABS_PATH``
    or the snapshot).  The harness runs it in a worker process (``nvlabs_oracle``)."""

    def __init__(self, path=None, name=None):
        self.path = path
        self.name = name or ("nvlabs" if path is None else f"nvlabs:{path}")
        self._mod = self._api = self.info = None

    def _reason(self):
        pkg, how = locate(self.path)
        if pkg is None:
            return how
        try:
            self._mod = load(pkg)
        except Exception as e:  # a broken checkout is a reason, not a crash
            return f"NVlabs PyCuTe at {pkg} does not import ({type(e).__name__}: {e})"
        if not callable(getattr(self._mod, "Layout", None)):
            return f"the pycute package at {pkg} has no Layout (not NVlabs PyCuTe?)"
        self.info = provenance(self._mod, pkg, how)
        self._api = PyApi(self._mod, name="PyCuTe", overrides=nvlabs_calls(), underscore=None)
        return None

    def describe(self):
        """Where the oracle's code comes from (one line), or why it is unavailable."""
        reason = self.unavailable_reason()
        return f"unavailable: {reason}" if reason else describe_provenance(self.info)

    def _run_many(self, cases):
        out = []
        for op, args in cases:
            if op in NO_OPTIONAL and len(args) == 3:
                out.append(Outcome.unsupported(NO_OPTIONAL[op]))
            else:
                out.append(self._api.call(op, args))
        return out


def nvlabs_oracle(path=None, name=None, **options):
    """The ``nvlabs`` / ``nvlabs:PATH`` oracle as the harness runs it: ``NvlabsAdapter`` in a
    worker process (``oracles/isolation.py``; options: ``timeout``, ``start_timeout``,
    ``memory_mb``).  ``describe()`` names the loaded files and their versions."""
    name = name or ("nvlabs" if path is None else f"nvlabs:{path}")
    return IsolatedOracle(name, ("layoutcheck.oracles.nvlabs.oracle", "NvlabsAdapter", (path, name)),
                          **options)
