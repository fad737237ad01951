"""Compiled packs across processes: the CuTe DSL runtime path's disk cache.

``cute.compile`` never uses the DSL's own file cache (nvidia-cutlass-dsl 4.8 forces
``no_cache``, NVIDIA/cutlass#3398), and that cache keeps MLIR only.  What works: export a
compiled pack as an object file (``JitCompiledFunction.export_to_c``) and load it again with
``cute.runtime.load_module`` (JITLink, milliseconds).  A sidecar pickle keeps each
structure's trace-time record (answer skeleton, slots, trace text, refusal).  The runtime
path compiles in forked children, which hand their packs to the process that runs them
through this folder (a temporary one when the cache is off).

The cache lives in the user's cache folder, ``$LAYOUTCHECK_CACHE/cute-dsl/<tag>`` (default
``~/.cache/layoutcheck``), where the tag names the DSL's version, Python's and
``CODE_VERSION`` (bump it when the traced code changes: ``Structure.trace``, ``Pack.compile``,
``RUNTIME_CALLS``).  ``$LAYOUTCHECK_DSL_CACHE=off`` turns it off.  Entries are written
atomically (a temporary folder, then renames); a damaged entry is compiled again.
"""

import hashlib
import importlib.metadata
import os
import pickle
import shutil
import sys
import tempfile
from pathlib import Path

from layoutcheck.oracles.cpp.toolchain import cache_root
from layoutcheck.oracles.dsl.packs import Pack, Structure, dsl

__all__ = ["DiskCache", "disk_cache", "dsl_version", "CACHE_ENV", "CODE_VERSION"]

CACHE_ENV = "LAYOUTCHECK_DSL_CACHE"
CODE_VERSION = 4


class DiskCache:
    """Packs on disk, indexed by the structure keys they hold.  A structure the DSL refused
    as a whole (no pack) is kept as its record alone."""

    def __init__(self, folder):
        self.dir = Path(folder)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.index = {}      # structure key -> entry name
        self.scanned = set()  # entry files read into the index
        self.loaded = self.stored = 0

    def _scan(self):
        """Read the entries written since the last scan (by this process or another)."""
        for path in self.dir.glob("*.pkl"):
            if path.name in self.scanned:
                continue
            self.scanned.add(path.name)
            try:
                with open(path, "rb") as f:
                    keys = pickle.load(f)["keys"]
            except Exception:  # noqa: BLE001 - a damaged entry: ignored
                continue
            for key in keys:
                self.index.setdefault(key, path.stem)

    def load(self, keys):
        """{key: Structure} of the cached structures among ``keys``, their packs loaded."""
        if any(k not in self.index for k in keys):
            self._scan()
        cute = dsl()[0]
        found = {}
        for name in {self.index[k] for k in keys if k in self.index}:
            try:
                with open(self.dir / f"{name}.pkl", "rb") as f:
                    meta = pickle.load(f)
                fn = getattr(cute.runtime.load_module(str(self.dir / f"{name}.o")), name) \
                    if meta.get("object", True) else None
            except Exception:  # noqa: BLE001 - a damaged entry: compiled again
                continue
            structs = []
            for key, record in zip(meta["keys"], meta["records"]):
                st = Structure(key)
                st.restore(record)
                structs.append(st)
            if fn is not None:
                pack = Pack(structs)
                pack.fn = fn
                for j, st in enumerate(structs):
                    st.pack, st.slot = pack, j
            for st in structs:
                found.setdefault(st.key, st)
            self.loaded += 1
        return {k: found[k] for k in keys if k in found}

    def store(self, structs, keep_errors=False):
        """Export the packs of freshly compiled ``structs`` (and, with ``keep_errors``, the
        records of those the DSL refused as a whole)."""
        packs = {id(st.pack): st.pack for st in structs if st.pack is not None}.values()
        entries = [(pack.structs, pack) for pack in packs]
        if keep_errors:
            entries += [([st], None) for st in structs if st.pack is None]
        for members, pack in entries:
            keys = [st.key for st in members]
            name = "p" + hashlib.sha1(pickle.dumps(keys)).hexdigest()[:24]
            if (self.dir / f"{name}.pkl").exists():
                continue
            tmp = tempfile.mkdtemp(dir=self.dir)
            try:
                if pack is not None:
                    pack.fn.export_to_c(tmp, name, function_prefix=name)
                    os.replace(os.path.join(tmp, name + ".o"), self.dir / f"{name}.o")
                with open(os.path.join(tmp, name + ".pkl"), "wb") as f:
                    pickle.dump({"keys": keys, "records": [st.record() for st in members],
                                 "object": pack is not None}, f)
                os.replace(os.path.join(tmp, name + ".pkl"), self.dir / f"{name}.pkl")
                self.stored += 1
            except Exception:  # noqa: BLE001 - no entry; nothing else depends on it
                pass
            finally:
                shutil.rmtree(tmp, ignore_errors=True)


def cache_folder():
    """The DSL runtime path's cache folder (None when ``$LAYOUTCHECK_DSL_CACHE`` is off)."""
    setting = os.environ.get(CACHE_ENV, "").strip()
    if setting.lower() in ("off", "0", "none"):
        return None
    tag = f"dsl{dsl_version()}-py{sys.version_info[0]}{sys.version_info[1]}-v{CODE_VERSION}"
    base = Path(setting) if setting else Path(cache_root()).parent / "cute-dsl"
    return base / tag


def dsl_version() -> str:
    """The version of the DSL this process imported: ``cutlass.__version__`` (4.4 and later),
    else the distribution's (the first ``nvidia-cutlass-dsl`` on ``sys.path``: a release's own
    folder comes first in its worker), else ``unknown-`` and a hash of the package's folder:
    never one name for two releases."""
    import cutlass
    version = getattr(cutlass, "__version__", None)
    if not version:
        try:
            version = importlib.metadata.version("nvidia-cutlass-dsl")
        except importlib.metadata.PackageNotFoundError:
            where = str(Path(getattr(cutlass, "__file__", "") or "?").resolve().parent)
            version = "unknown-" + hashlib.sha1(where.encode()).hexdigest()[:10]
    return str(version)


_OPEN = {}


def disk_cache():
    """The disk cache of this process (None when off or when its folder cannot be made)."""
    folder = cache_folder()
    if folder is None:
        return None
    if folder not in _OPEN:
        try:
            _OPEN[folder] = DiskCache(folder)
        except OSError:
            _OPEN[folder] = None
    return _OPEN[folder]
