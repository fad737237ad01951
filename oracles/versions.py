"""Versions of an implementation under test: which releases exist, and oracle names that carry one.

An oracle name may name a release: ``cute-cpp@3.8`` (the newest 3.8.x), ``pycute@3.5.1``,
``cute-dsl@4.4.0``, ``cute-cpp@latest``; a folder: ``cute-cpp@/path/to/include`` (a header tree,
e.g. a source checkout's ``include/``) or ``pycute@/path/holding/pycute``, with a name for tables
``cute-cpp@main=/path/to/include``; or, where several
oracles are meant (``layoutcheck matrix``, ``bisect``), an ordered range ``cute-cpp@3.3..4.2``
(every release from the oldest 3.3 to the newest 4.2; either end may be left out).

- ``cute-cpp`` and ``pycute`` are releases of the wheel ``nvidia-cutlass`` (the CuTe headers
  and pycute), ``cute-dsl`` of ``nvidia-cutlass-dsl``.
- ``releases(package)`` asks the package index through pip, at most once a day (cached under
  the cache root), falling back to the cached list however old, then to ``KNOWN_RELEASES``.
- ``parse_spec`` resolves a name to a ``VersionSpec``; ``expand`` turns a list of names with
  ranges into one name per release; ``base_name`` is the unversioned oracle a name belongs to.

Errors are ``VersionError`` (a ``LayoutError``): one line, naming what exists and, where the
index could not be read, the command that fetches the version where it can
(``layoutcheck fetch cute-cpp@3.8``).  Fetching itself is ``oracles/fetch.py``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from layoutcheck.errors import LayoutError
from layoutcheck.findings import base_oracle

__all__ = ["VersionError", "VersionSpec", "ORACLE_PACKAGES", "KNOWN_RELEASES", "cache_root",
           "releases", "parse_spec", "expand", "is_versioned", "base_name", "version_key",
           "short_version", "download_timeout", "pip", "prefetch_hint", "offline", "INDEX_TIMEOUT_S",
           "ReleaseList", "version_label"]

ORACLE_PACKAGES = {"cute-cpp": "nvidia-cutlass", "pycute": "nvidia-cutlass",
                   "cute-dsl": "nvidia-cutlass-dsl"}

# The releases on the package index (`pip index versions NAME`, read December 2026): the list
# used when the index cannot be read and nothing is cached.
KNOWN_RELEASES = {
    "nvidia-cutlass": ("3.3.0.0", "3.4.0.0", "3.4.1.0", "3.5.0.0", "3.5.1.0", "3.6.0.0",
                       "3.7.0.0", "3.8.0.0", "4.2.0.0"),
    "nvidia-cutlass-dsl": ("4.2.0", "4.2.1", "4.3.0", "4.3.1", "4.3.2", "4.3.3", "4.3.4",
                           "4.3.5", "4.4.0", "4.4.1", "4.4.2", "4.5.0", "4.5.1", "4.5.2",
                           "4.5.3", "4.6.0", "4.6.1", "4.6.2", "4.6.3", "4.7.0", "4.7.1",
                           "4.8.0", "4.8.1"),
}

RELEASES_TTL_S = 24 * 3600
DOWNLOAD_TIMEOUT_S = 600.0   # one pip download or install; $LAYOUTCHECK_DOWNLOAD_TIMEOUT
INDEX_TIMEOUT_S = 60.0       # one release-list query
_VERSION = re.compile(r"\d+(\.\d+){0,3}")


class VersionError(LayoutError):
    """A version that names no release, or a release that cannot be fetched (one line)."""


# --- names ------------------------------------------------------------------------------------

def base_name(name: str) -> str:
    """The unversioned oracle a name belongs to: ``cute-cpp@3.8`` -> ``cute-cpp``; any other
    name is itself (``module:NAME@LINEAGE`` and ``nvlabs:PATH`` included)."""
    return base_oracle(name)


def is_versioned(name: str) -> bool:
    """``name`` is one of ORACLE_PACKAGES' oracles with ``@VERSION``, ``@DIR`` or a range."""
    return base_name(name) != name and base_name(name) in ORACLE_PACKAGES


def is_folder(selector: str) -> bool:
    """A selector that names a folder (``cute-cpp@/path``, ``@./include``, ``@~/x``)."""
    return "/" in selector or selector.startswith("~") or selector == "."


def short_version(version: str) -> str:
    """``3.8.0.0`` -> ``3.8``; ``4.4.0`` -> ``4.4.0`` (three parts are kept)."""
    parts = version.split(".")
    while len(parts) > 3 and parts[-1] == "0":
        parts.pop()
    if len(parts) == 3 and parts[-1] == "0" and len(version.split(".")) == 4:
        parts.pop()
    return ".".join(parts)


def prefetch_hint(oracle: str, version: str) -> str:
    """The command that fetches a release where the index is reachable."""
    return f"run `layoutcheck fetch {oracle}@{short_version(version)}` where the package index is reachable"


_PART = re.compile(r"(\d+)|([A-Za-z]+)")


def version_key(text: str) -> tuple:
    """A sort key: numeric parts compare as numbers; a pre-release tag (``4.3.0rc1``) sorts
    before the release, ``.postN`` after it."""
    key = []
    for num, word in _PART.findall(str(text)):
        if num:
            key.append((1, int(num), ""))
        else:
            w = word.lower()
            key.append((2, 0, w) if w.startswith("post") else (0, 0, w))
    key.append((1, -1, ""))
    return tuple(key)


def _matches(release, prefix):
    """``prefix`` (``3.8``, ``3.5.1``, ``4.4.0``) names ``release`` (``3.8.0.0``)."""
    if not re.fullmatch(r"\d+(\.\d+)*", release):
        return release == prefix
    want = tuple(int(x) for x in prefix.split("."))
    have = tuple(int(x) for x in release.split("."))
    return have[:len(want)] == want


# --- the cache and pip ------------------------------------------------------------------------

def cache_root(root: str | os.PathLike | None = None) -> Path:
    """Where versions live: ``root``, else ``$LAYOUTCHECK_CACHE``, else ``~/.cache/layoutcheck``;
    under its ``versions/``."""
    base = Path(root) if root else Path(os.environ.get("LAYOUTCHECK_CACHE")
                                        or Path.home() / ".cache" / "layoutcheck")
    return base / "versions"


def download_timeout() -> float:
    """Seconds one download may take (``$LAYOUTCHECK_DOWNLOAD_TIMEOUT``, default 600)."""
    text = os.environ.get("LAYOUTCHECK_DOWNLOAD_TIMEOUT", "").strip()
    if not text:
        return DOWNLOAD_TIMEOUT_S
    try:
        value = float(text)
    except ValueError:
        raise LayoutError(f"LAYOUTCHECK_DOWNLOAD_TIMEOUT={text!r} is not a number") from None
    if not 1 <= value <= 86400:
        raise LayoutError(f"LAYOUTCHECK_DOWNLOAD_TIMEOUT={text!r} must lie in [1, 86400]")
    return value


def offline() -> bool:
    """``$LAYOUTCHECK_OFFLINE`` set: never ask the package index."""
    return os.environ.get("LAYOUTCHECK_OFFLINE", "") not in ("", "0")


def pip(args: list[str], timeout: float) -> tuple[int | None, str]:
    """``python -m pip ARGS`` with the running interpreter; (rc, output), rc None on a time-out."""
    cmd = [sys.executable, "-m", "pip", "--disable-pip-version-check", *args]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                           stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"") + (e.stderr or b"")
        return None, out.decode(errors="replace") if isinstance(out, bytes) else out
    except OSError as e:
        return 1, f"pip does not run: {e}"
    return p.returncode, p.stdout + p.stderr


_FROM_VERSIONS = re.compile(r"\(from versions: ([^)]*)\)")


def _query_index(package, timeout):
    """The releases of ``package`` on the index (oldest first), or None when they cannot be
    read within ``timeout`` seconds (``pip index versions``, else the list pip prints for a
    version that does not exist)."""
    deadline = time.monotonic() + timeout
    net = ["--timeout", str(max(1, int(min(timeout, 30)))), "--retries", "0"]
    rc, out = pip(["index", "versions", *net, package], timeout)
    m = re.search(r"Available versions:\s*(.+)", out or "")
    if rc == 0 and m:
        return sorted({v.strip() for v in m.group(1).split(",") if v.strip()}, key=version_key)
    left = deadline - time.monotonic()
    if rc is None or left < 1:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        rc, out = pip(["download", "--no-deps", *net, "-d", tmp, f"{package}==0.0.0.dev0"], left)
    m = _FROM_VERSIONS.search(out or "")
    if m and m.group(1).strip() != "none":
        return sorted({v.strip() for v in m.group(1).split(",")}, key=version_key)
    return None


@dataclass(frozen=True)
class ReleaseList:
    """The releases of a package, oldest first, and where the list came from: ``index`` (read
    from it within the day), ``stale`` (an older reading: the index could not be read) or
    ``built-in`` (``KNOWN_RELEASES``)."""
    package: str
    versions: tuple
    source: str


def releases(package: str, root=None, refresh: bool = False) -> ReleaseList:
    """The published releases of ``package``: from the index at most once a day (cached in
    ``versions/releases.json``); when the index cannot be read, the cached list however old,
    else ``KNOWN_RELEASES``.  ``$LAYOUTCHECK_OFFLINE`` never asks the index."""
    root = cache_root(root)
    path = root / "releases.json"
    try:
        cached = json.loads(path.read_text())
    except (OSError, ValueError):
        cached = {}
    entry = cached.get(package) if isinstance(cached, dict) else None
    fresh = entry and time.time() - entry.get("read_at", 0) < RELEASES_TTL_S
    if entry and (fresh or offline()) and not refresh:
        return ReleaseList(package, tuple(entry["releases"]), "index" if fresh else "stale")
    found = None if offline() else _query_index(package, min(INDEX_TIMEOUT_S, download_timeout()))
    if found:
        cached = cached if isinstance(cached, dict) else {}
        cached[package] = {"releases": found, "read_at": time.time()}
        root.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".releases.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(cached, indent=1))
        os.replace(tmp, path)
        return ReleaseList(package, tuple(found), "index")
    if entry:
        return ReleaseList(package, tuple(entry["releases"]), "stale")
    return ReleaseList(package, KNOWN_RELEASES.get(package, ()), "built-in")


# --- specs ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class VersionSpec:
    """``oracle@selector`` resolved: ``versions`` are releases of ``package``, oldest first
    (one for a version, several for a range); ``folder`` is set for ``oracle@DIR``."""
    oracle: str
    package: str
    selector: str
    versions: tuple = ()
    folder: Path | None = None
    label: str | None = None   # ORACLE@LABEL=DIR: what the folder is called in tables

    @property
    def is_range(self) -> bool:
        return ".." in self.selector and self.folder is None

    def names(self) -> list[str]:
        """One oracle name per release (``cute-cpp@3.3.0.0``, ...), or the name itself."""
        if not self.is_range:
            return [f"{self.oracle}@{self.selector}"]
        return [f"{self.oracle}@{v}" for v in self.versions]

    def __str__(self):
        return f"{self.oracle}@{self.selector}"


def _pick(spec_text, package, prefix, known, newest=True):
    hits = [r for r in known.versions if _matches(r, prefix)]
    if hits:
        return hits[-1] if newest else hits[0]
    listed = ", ".join(known.versions) or "none"
    if known.source != "index":
        raise VersionError(f"{spec_text}: {package} {prefix} is not among the releases known here "
                           f"({listed}; the package index could not be read): "
                           f"{prefetch_hint(spec_text.split('@')[0], prefix)}")
    hint = (" (CUTLASS versions without a wheel: name a header tree, cute-cpp@DIR or --cute-include DIR)"
            if package == "nvidia-cutlass" else "")
    raise VersionError(f"{spec_text}: {package} has no release {prefix}; releases: {listed}{hint}")


def parse_spec(text: str, root=None, known: ReleaseList | None = None) -> VersionSpec | None:
    """``cute-cpp@3.8`` -> the newest 3.8 release; ``cute-cpp@3.3..4.2`` -> every release from
    the oldest 3.3 to the newest 4.2; ``@latest``; ``@DIR``.  None for a name without a version.
    ``known``: the release list to use (default ``releases(package)``)."""
    text = text.strip()
    if not is_versioned(text):
        if "@" in text and not text.startswith(("module:", "nvlabs:")):
            raise VersionError(f"{text}: only {', '.join(ORACLE_PACKAGES)} take a version "
                               "(ORACLE@VERSION, ORACLE@LOW..HIGH or ORACLE@DIR)")
        return None
    oracle, _, selector = text.partition("@")
    package = ORACLE_PACKAGES[oracle]
    if not selector:
        raise VersionError(f"{text}: no version after '@' (e.g. {oracle}@{KNOWN_RELEASES[package][-1]})")
    label, eq, where = selector.partition("=")
    if eq or is_folder(selector):
        if oracle == "cute-dsl":
            raise VersionError(f"{text}: cute-dsl takes a release (cute-dsl@4.8.1), not a folder")
        if eq and (not label or not where or not re.fullmatch(r"[\w.+-]+", label)):
            raise VersionError(f"{text}: expected {oracle}@LABEL=DIR (e.g. {oracle}@main=~/cutlass/include)")
        return VersionSpec(oracle, package, selector, (), Path(where if eq else selector).expanduser(),
                           label if eq else None)
    parts = selector.split("..")
    if len(parts) > 2 or any(p and p != "latest" and not _VERSION.fullmatch(p) for p in parts):
        raise VersionError(f"{text}: '{selector}' is no version (digits and dots, e.g. 3.8), "
                           "range (LOW..HIGH) or folder")
    known = known or releases(package, root)
    versions = sorted(known.versions, key=version_key)
    if not versions:
        raise VersionError(f"{text}: no releases of {package} are known")
    if selector == "latest":
        return VersionSpec(oracle, package, selector, (versions[-1],))
    if len(parts) == 1:
        return VersionSpec(oracle, package, selector, (_pick(text, package, selector, known),))
    lo_text, hi_text = parts
    lo = _pick(text, package, lo_text, known, newest=False) if lo_text else versions[0]
    hi = versions[-1] if hi_text in ("", "latest") else _pick(text, package, hi_text, known)
    if version_key(lo) > version_key(hi):
        raise VersionError(f"{text}: the range is empty ({lo} comes after {hi})")
    span = tuple(v for v in versions if version_key(lo) <= version_key(v) <= version_key(hi))
    return VersionSpec(oracle, package, selector, span)


def version_label(name: str, root=None) -> str:
    """What a version is called in tables: the release (``cute-cpp@3.8`` -> ``3.8.0.0``), the
    label of ``ORACLE@LABEL=DIR``, the folder of ``ORACLE@DIR``; an unversioned name is itself."""
    spec = parse_spec(name, root) if is_versioned(name) else None
    if spec is None:
        return name
    if spec.folder is not None:
        return spec.label or str(spec.folder)
    return spec.versions[0] if len(spec.versions) == 1 else str(spec.selector)


def expand(names: list[str], root=None) -> list[str]:
    """Oracle names with every range replaced by one name per release, oldest first
    (``cute-cpp@3.7..3.8`` -> ``cute-cpp@3.7.0.0, cute-cpp@3.8.0.0``); duplicates dropped."""
    out = []
    for name in names:
        spec = parse_spec(name, root) if is_versioned(name) else None
        out += spec.names() if spec is not None else [name]
    return list(dict.fromkeys(out))
