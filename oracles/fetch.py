"""Fetching a release of an implementation under test into the cache, never into an environment.

- ``cute-cpp`` and ``pycute``: the wheel ``nvidia-cutlass==V`` is downloaded (``pip download
  --no-deps``, 4-7 MB) and only its CuTe/CUTLASS headers (``cutlass_library/source/include``,
  kept as ``include/``) and its ``pycute/`` package are unpacked (``fetch_cutlass`` ->
  ``CutlassTree``).
- ``cute-dsl``: ``nvidia-cutlass-dsl==V`` and exactly its own parts (``-libs-base`` from 4.4,
  ``-libs-core`` and ``-libs-cu12`` from 4.6) are installed with ``pip install --no-deps
  --target`` into a folder of their own (150-255 MB), keyed by the interpreter (its wheels are
  CPython- and platform-specific): ``fetch_dsl`` -> ``DslTarget``.  Its run-time dependencies
  (numpy, typing-extensions, cuda-bindings, protobuf) come from the running environment.

Cache layout (``oracles/versions.cache_root``: ``$LAYOUTCHECK_CACHE/versions``)::

    releases.json                     release lists and when they were read
    cutlass/<V>/include, pycute/      the headers and pycute of nvidia-cutlass==V
    cutlass/<V>/FETCHED.json          what was downloaded: sha256, sizes, seconds
    dsl/<V>-<cpXY>-<platform>/        the pip --target folder of nvidia-cutlass-dsl==V
    locks/<package>-<V>.lock          one fetch of a release at a time

A release is downloaded and unpacked in a temporary folder beside its destination, then
renamed into place: a folder that exists is complete.  A file lock keeps two processes from
fetching the same release at once (the second waits and finds the first one's).  Each pip call
has a time limit (``$LAYOUTCHECK_DOWNLOAD_TIMEOUT``, default 600 s).  A failed download is one
``VersionError`` line that names the command prefetching the release where the index is
reachable.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import re
import shutil
import sys
import sysconfig
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

from layoutcheck.oracles.versions import (
    KNOWN_RELEASES,
    VersionError,
    VersionSpec,
    cache_root,
    download_timeout,
    offline,
    parse_spec,
    pip,
    prefetch_hint,
    releases,
    version_key,
)

from layoutcheck.findings import base_oracle

__all__ = ["CutlassTree", "DslTarget", "fetch_cutlass", "fetch_dsl", "fetch", "dsl_parts",
           "interpreter_tag", "cached", "resolve", "script_environment", "LOCK_WAIT_S",
           "RUNTIME_PATH_SINCE"]

LOCK_WAIT_S = 900.0          # how long a second fetcher waits for the first
WHEEL_INCLUDE = "cutlass_library/source/include/"
WHEEL_PYCUTE = "pycute/"
MANIFEST = "FETCHED.json"


@dataclass(frozen=True)
class CutlassTree:
    """One nvidia-cutlass release in the cache (``version`` is the release), or a folder named
    by ``cute-cpp@DIR`` / ``pycute@DIR`` (``version`` is None)."""
    version: str | None
    root: Path

    @property
    def include_dir(self) -> Path:
        """The folder that holds ``cute/`` and ``cutlass/`` (what ``--cute-include`` names)."""
        if self.version is None and not (self.root / "include" / "cute").is_dir():
            return self.root
        return self.root / "include"

    @property
    def pycute_path(self) -> Path:
        """The folder to put first on ``sys.path`` so that ``import pycute`` is this one's."""
        if self.version is None and self.root.name == "pycute":
            return self.root.parent
        if self.version is None and (self.root / "python" / "pycute").is_dir():
            return self.root / "python"  # a CUTLASS source checkout
        return self.root

    def label(self) -> str:
        """``nvidia-cutlass 3.8.0.0`` or ``the folder PATH``."""
        return f"nvidia-cutlass {self.version}" if self.version else f"the folder {self.root}"

    def manifest(self) -> dict:
        return json.loads((self.root / MANIFEST).read_text())


# The first nvidia-cutlass-dsl release whose compiled host code runs without a GPU driver and
# can be exported and loaded again (what the DSL oracle's runtime path needs): 4.2 has no
# export_to_c / cute.runtime.load_module, 4.3 and 4.4 initialise the driver when compiling.
RUNTIME_PATH_SINCE = "4.5"


@dataclass(frozen=True)
class DslTarget:
    """One nvidia-cutlass-dsl release installed with ``pip --target`` in the cache."""
    version: str
    root: Path

    @property
    def package_dir(self) -> Path:
        """The folder that holds ``cutlass/`` (what the target's own .pth file would add:
        ``nvidia_cutlass_dsl/python_packages`` up to 4.5, ``.../dsl_packages`` from 4.6)."""
        for sub in ("dsl_packages", "python_packages"):
            d = self.root / "nvidia_cutlass_dsl" / sub
            if d.is_dir():
                return d
        raise VersionError(f"cute-dsl@{self.version}: {self.root} has no "
                           "nvidia_cutlass_dsl/dsl_packages or python_packages folder")

    def python_path(self) -> list[str]:
        """The ``sys.path`` entries that load this release, to put ahead of the environment's."""
        return [str(self.package_dir), str(self.root)]

    def environment(self) -> dict:
        """What a run of this release needs: no shared IR file cache (its key ignores the DSL's
        version, so releases would read each other's bytecode) and, before 4.5, IR only
        (``CUTE_DSL_DRYRUN``: 4.3 and 4.4 call cuInit whenever they compile and fail without a
        GPU driver; those releases cannot run runtime integers here, ``RUNTIME_PATH_SINCE``).
        From 4.5 the DSL compiles host code without a driver, which the runtime path runs."""
        env = {"CUTE_DSL_DISABLE_FILE_CACHING": "1"}
        if version_key(self.version) < version_key(RUNTIME_PATH_SINCE):
            env["CUTE_DSL_DRYRUN"] = "1"
        return env


def interpreter_tag() -> str:
    """``cp311-linux-x86_64``: what a DSL target folder is valid for."""
    return f"cp{sysconfig.get_python_version().replace('.', '')}-{sysconfig.get_platform()}"


# --- locks and atomic installs ----------------------------------------------------------------

@contextlib.contextmanager
def _locked(root, name, wait=LOCK_WAIT_S):
    """Hold ``root/locks/<name>.lock``; VersionError after ``wait`` seconds."""
    locks = root / "locks"
    locks.mkdir(parents=True, exist_ok=True)
    with open(locks / f"{name}.lock", "a+") as fh:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError as e:
                if e.errno not in (errno.EAGAIN, errno.EACCES):
                    raise
                if time.monotonic() > deadline:
                    raise VersionError(f"another process has been fetching {name} for over "
                                       f"{wait:.0f} s (lock {locks / (name + '.lock')})") from None
                time.sleep(0.2)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _publish(tmp, dest):
    """Rename the finished ``tmp`` folder to ``dest``; if another process got there first, keep
    theirs."""
    try:
        os.rename(tmp, dest)
    except OSError as e:
        if e.errno not in (errno.ENOTEMPTY, errno.EEXIST) or not dest.is_dir():
            raise
        shutil.rmtree(tmp, ignore_errors=True)


_NO_NETWORK = re.compile(
    r"NewConnectionError|Failed to establish a new connection|Temporary failure in name "
    r"resolution|Name or service not known|Network is unreachable|Connection refused|"
    r"ConnectTimeout|Read timed out|ProxyError|SSLError|No route to host|"
    r"Could not fetch URL|connection broken", re.I)
_NOT_FOUND = re.compile(r"No matching distribution found|Could not find a version")


def _fail(requirement, spec_text, version, rc, output, timeout):
    """The one-line VersionError of a failed download."""
    hint = prefetch_hint(spec_text, version)
    if rc is None:
        return VersionError(f"cannot download {requirement} (timed out after {timeout:g} s): {hint}")
    if _NO_NETWORK.search(output) or "from versions: none" in output:
        return VersionError(f"cannot download {requirement} (no network): {hint}")
    if _NOT_FOUND.search(output):
        return VersionError(f"the package index has no {requirement}")
    last = next((ln.strip() for ln in reversed(output.splitlines()) if ln.strip().startswith("ERROR")),
                (output.strip().splitlines() or ["?"])[-1])
    return VersionError(f"cannot download {requirement} (pip exit {rc}: {last[:200]}): {hint}")


def _known_or_fail(oracle, package, version, root):
    """A release of the built-in list is taken as it is; another must be on the current list.
    Nothing is downloaded with ``$LAYOUTCHECK_OFFLINE`` set."""
    if offline():
        raise VersionError(f"cannot download {package}=={version} (LAYOUTCHECK_OFFLINE is set): "
                           f"{prefetch_hint(oracle, version)}")
    if version in KNOWN_RELEASES.get(package, ()):
        return
    known = releases(package, root)
    if version not in known.versions:
        if known.source != "index":
            raise VersionError(f"{oracle}@{version}: not among the releases known here and the "
                               f"package index could not be read: {prefetch_hint(oracle, version)}")
        raise VersionError(f"{oracle}@{version}: {package} has no release {version}; releases: "
                           f"{', '.join(known.versions)}")


def _manifest(folder, **fields):
    fields["fetched_at"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    (folder / MANIFEST).write_text(json.dumps(fields, indent=1))


# --- nvidia-cutlass ---------------------------------------------------------------------------

def fetch_cutlass(version: str, root=None, oracle: str = "cute-cpp") -> CutlassTree:
    """nvidia-cutlass==``version`` (an exact release, e.g. ``3.8.0.0``) in the cache: its headers
    and pycute, downloaded and unpacked once."""
    root = cache_root(root)
    dest = root / "cutlass" / version
    if (dest / MANIFEST).is_file():
        return CutlassTree(version, dest)
    timeout = download_timeout()
    _known_or_fail(oracle, "nvidia-cutlass", version, root)
    requirement = f"nvidia-cutlass=={version}"
    with _locked(root, f"nvidia-cutlass-{version}", wait=max(LOCK_WAIT_S, timeout)):
        if (dest / MANIFEST).is_file():  # fetched by another process while this one waited
            return CutlassTree(version, dest)
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{version}.", dir=dest.parent))
        try:
            t0 = time.monotonic()
            rc, out = pip(["download", "--no-deps", "--only-binary", ":all:", "--retries", "1", "--timeout",
                           str(int(min(timeout, 60))), "-d", str(tmp / "download"), requirement],
                          timeout)
            wheels = sorted((tmp / "download").glob("nvidia_cutlass-*.whl"))
            if rc != 0 or not wheels:
                raise _fail(requirement, oracle, version, rc, out, timeout)
            seconds = time.monotonic() - t0
            tree = tmp / "tree"
            kept = _unpack_cutlass(wheels[0], tree)
            if not (tree / "include" / "cute").is_dir():
                raise VersionError(f"{requirement}'s wheel has no {WHEEL_INCLUDE}cute folder")
            data = wheels[0].read_bytes()
            _manifest(tree, package="nvidia-cutlass", version=version, wheel=wheels[0].name,
                      sha256=hashlib.sha256(data).hexdigest(), wheel_bytes=len(data),
                      unpacked_bytes=kept, download_seconds=round(seconds, 2))
            _publish(tree, dest)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return CutlassTree(version, dest)


def _unpack_cutlass(wheel, tree):
    """Extract the headers (as ``include/``) and ``pycute/``; the bytes kept."""
    kept = 0
    base = str(tree.resolve()) + os.sep
    with zipfile.ZipFile(wheel) as z:
        for info in z.infolist():
            name = info.filename
            if name.startswith(WHEEL_INCLUDE):
                rel = "include/" + name[len(WHEEL_INCLUDE):]
            elif name.startswith(WHEEL_PYCUTE):
                rel = name
            else:
                continue
            target = (tree / rel).resolve()
            if not str(target).startswith(base):
                raise VersionError(f"{wheel.name} holds an unsafe path: {name}")
            if info.is_dir():
                target.mkdir(parents=True, exist_ok=True)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            with z.open(info) as src, open(target, "wb") as dst:
                shutil.copyfileobj(src, dst)
            kept += info.file_size
    return kept


# --- nvidia-cutlass-dsl -----------------------------------------------------------------------

def dsl_parts(version: str) -> list[str]:
    """The distributions of nvidia-cutlass-dsl==``version``: one wheel up to 4.3; -libs-base
    from 4.4; -libs-core and -libs-cu12 from 4.6 (read from the metadata of every release)."""
    key = version_key(version)
    parts = ["nvidia-cutlass-dsl"]
    if key >= version_key("4.4.0"):
        parts.append("nvidia-cutlass-dsl-libs-base")
    if key >= version_key("4.6.0"):
        parts += ["nvidia-cutlass-dsl-libs-core", "nvidia-cutlass-dsl-libs-cu12"]
    return [f"{p}=={version}" for p in parts]


def fetch_dsl(version: str, root=None) -> DslTarget:
    """nvidia-cutlass-dsl==``version`` installed into its own cache folder, once."""
    root = cache_root(root)
    dest = root / "dsl" / f"{version}-{interpreter_tag()}"
    if (dest / MANIFEST).is_file():
        return DslTarget(version, dest)
    timeout = download_timeout()
    _known_or_fail("cute-dsl", "nvidia-cutlass-dsl", version, root)
    reqs = dsl_parts(version)
    with _locked(root, f"nvidia-cutlass-dsl-{version}", wait=max(LOCK_WAIT_S, timeout)):
        if (dest / MANIFEST).is_file():
            return DslTarget(version, dest)
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{version}.", dir=dest.parent))
        try:
            t0 = time.monotonic()
            rc, out = pip(["install", "--no-deps", "--no-compile", "--only-binary", ":all:", "--retries", "1",
                           "--no-warn-script-location", "--timeout", str(int(min(timeout, 60))),
                           "--target", str(tmp / "target"), *reqs], timeout)
            if rc != 0:
                raise _fail(f"nvidia-cutlass-dsl=={version}", "cute-dsl", version, rc, out, timeout)
            target = DslTarget(version, tmp / "target")
            package_dir = target.package_dir
            size = sum(f.stat().st_size for f in target.root.rglob("*") if f.is_file())
            _manifest(target.root, package="nvidia-cutlass-dsl", version=version,
                      requirements=reqs, installed_bytes=size, interpreter=interpreter_tag(),
                      install_seconds=round(time.monotonic() - t0, 2),
                      package_dir=str(package_dir.relative_to(target.root)))
            _publish(target.root, dest)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return DslTarget(version, dest)


def fetch(text: str, root=None) -> list:
    """Every release a name or range names (``cute-cpp@3.3..4.2``), in the cache: a list of
    ``CutlassTree`` / ``DslTarget``, oldest first (``layoutcheck fetch``)."""
    spec = parse_spec(text, root)
    if spec is None:
        raise VersionError(f"{text}: name a release (ORACLE@VERSION or ORACLE@LOW..HIGH), e.g. cute-cpp@3.8")
    if spec.folder is not None:
        raise VersionError(f"{text}: a folder is used where it is, there is nothing to fetch")
    return [_one(spec, v, root) for v in spec.versions]


def _one(spec: VersionSpec, version, root):
    if spec.oracle == "cute-dsl":
        return fetch_dsl(version, root)
    return fetch_cutlass(version, root, spec.oracle)


def resolve(name: str, root=None) -> CutlassTree | DslTarget:
    """The one release (fetched now if need be) or folder a versioned oracle name names."""
    spec = parse_spec(name, root)
    if spec is None:
        raise VersionError(f"{name}: no version (ORACLE@VERSION)")
    if spec.is_range:
        raise VersionError(f"{name} names {len(spec.versions)} releases; one oracle takes one "
                           f"(list them: {','.join(spec.names())}; a range is for matrix and bisect)")
    if spec.folder is not None:
        tree = CutlassTree(None, spec.folder.resolve())
        if spec.oracle == "cute-cpp" and not (tree.include_dir / "cute" / "layout.hpp").is_file():
            raise VersionError(f"{name}: no cute/layout.hpp in {spec.folder} (name the folder "
                               "that holds cute/ and cutlass/)")
        if spec.oracle == "pycute" and not (tree.pycute_path / "pycute" / "__init__.py").is_file():
            raise VersionError(f"{name}: no pycute package in {spec.folder} (name the folder "
                               "that holds pycute/)")
        return tree
    return _one(spec, spec.versions[0], root)


def script_environment(name: str) -> tuple[list[str], dict]:
    """How to run a standalone Python script against the version ``name`` names (``pycute@V``,
    ``cute-dsl@V``; an unversioned name: the environment as it is): the interpreter's
    arguments before the script, and the variables to set.  pycute's folder goes first on
    PYTHONPATH; a DSL release runs without site (``-S``: the environment's DSL is reachable only
    through its .pth file) with its own folders, then the environment's other folders."""
    if base_oracle(name) == name:
        return [sys.executable], {}
    got = resolve(name)
    if isinstance(got, DslTarget):
        rest = [p for p in sys.path if p and not (Path(p) / "cutlass" / "cute").is_dir()]
        return [sys.executable, "-S"], {"PYTHONPATH": os.pathsep.join(got.python_path() + rest),
                                        **got.environment()}
    old = os.environ.get("PYTHONPATH")
    return [sys.executable], {"PYTHONPATH": os.pathsep.join([str(got.pycute_path)] + ([old] if old else []))}


def cached(root=None) -> list[tuple[str, str, int]]:
    """What the cache holds: (package, version, bytes) per fetched release."""
    root = cache_root(root)
    out = []
    for kind, package in (("cutlass", "nvidia-cutlass"), ("dsl", "nvidia-cutlass-dsl")):
        for folder in sorted((root / kind).glob("*"), key=lambda p: version_key(p.name)):
            manifest = folder / MANIFEST
            if manifest.is_file():
                data = json.loads(manifest.read_text())
                size = data.get("unpacked_bytes") or data.get("installed_bytes") or 0
                out.append((package, data.get("version", folder.name), int(size)))
    return out
