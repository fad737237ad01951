"""Compiled packs across processes: the CuTe DSL runtime path's disk cache.

``cute.compile`` never uses the DSL's own file cache (nvidia-cutlass-dsl 4.8 forces
``no_cache``, NVIDIA/cutlass#3398), and that cache keeps MLIR only.  What works: export a
compiled pack as an object file (``JitCompiledFunction.export_to_c``) and load it again with
``cute.runtime.load_module`` (JITLink, milliseconds).  A sidecar pickle keeps each
structure's trace-time record (answer skeleton, slots, trace text, refusal).

The cache lives in the user's cache folder, ``$LAYOUTCHECK_CACHE/cute-dsl/<tag>`` (default
``~/.cache/layoutcheck``), where the tag names the DSL's version, Python's and
``CODE_VERSION`` (bump it when the traced code changes: ``Structure.trace``, ``Pack.compile``,
``RUNTIME_CALLS``).  ``$LAYOUTCHECK_DSL_CACHE=off`` turns it off.  Entries are written
atomically (a temporary folder, then renames); a damaged entry is compiled again.
"""

import hashlib
import os
import pickle
import shutil
import sys
import tempfile
from pathlib import Path

from layoutcheck.oracles.cpp.toolchain import cache_root
from layoutcheck.oracles.dsl.packs import Pack, Structure, dsl

__all__ = ["DiskCache", "disk_cache", "CACHE_ENV", "CODE_VERSION"]

CACHE_ENV = "LAYOUTCHECK_DSL_CACHE"
CODE_VERSION = 3


class DiskCache:
    """Packs on disk, indexed by the structure keys they hold."""

    def __init__(self, folder):
        self.dir = Path(folder)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.index = None  # structure key -> pack name
        self.loaded = self.stored = 0

    def _scan(self):
        self.index = {}
        for path in self.dir.glob("*.pkl"):
            try:
                with open(path, "rb") as f:
                    keys = pickle.load(f)["keys"]
            except Exception:  # noqa: BLE001 - a damaged entry: ignored
                continue
            for key in keys:
                self.index.setdefault(key, path.stem)

    def holds(self, key):
        if self.index is None:
            self._scan()
        return key in self.index

    def load(self, keys):
        """{key: Structure} of the cached structures among ``keys``, their packs loaded."""
        if self.index is None:
            self._scan()
        cute = dsl()[0]
        found = {}
        for name in {self.index[k] for k in keys if k in self.index}:
            try:
                with open(self.dir / f"{name}.pkl", "rb") as f:
                    meta = pickle.load(f)
                fn = getattr(cute.runtime.load_module(str(self.dir / f"{name}.o")), name)
            except Exception:  # noqa: BLE001 - a damaged entry: compiled again
                continue
            structs = []
            for key, record in zip(meta["keys"], meta["records"]):
                st = Structure(key)
                st.restore(record)
                structs.append(st)
            pack = Pack(structs)
            pack.fn = fn
            for j, st in enumerate(structs):
                st.pack, st.slot = pack, j
                found.setdefault(st.key, st)
            self.loaded += 1
        return found

    def store(self, structs):
        """Export the packs of freshly compiled ``structs``."""
        for pack in {id(st.pack): st.pack for st in structs if st.pack is not None}.values():
            keys = [st.key for st in pack.structs]
            name = "p" + hashlib.sha1(pickle.dumps(keys)).hexdigest()[:24]
            if (self.dir / f"{name}.pkl").exists():
                continue
            tmp = tempfile.mkdtemp(dir=self.dir)
            try:
                pack.fn.export_to_c(tmp, name, function_prefix=name)
                with open(os.path.join(tmp, name + ".pkl"), "wb") as f:
                    pickle.dump({"keys": keys, "records": [st.record() for st in pack.structs]}, f)
                os.replace(os.path.join(tmp, name + ".o"), self.dir / f"{name}.o")
                os.replace(os.path.join(tmp, name + ".pkl"), self.dir / f"{name}.pkl")
                self.stored += 1
            except Exception:  # noqa: BLE001 - no entry; nothing else depends on it
                pass
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
            if self.index is not None:
                for key in keys:
                    self.index.setdefault(key, name)


def cache_folder():
    """The DSL runtime path's cache folder (None when ``$LAYOUTCHECK_DSL_CACHE`` is off)."""
    setting = os.environ.get(CACHE_ENV, "").strip()
    if setting.lower() in ("off", "0", "none"):
        return None
    import cutlass
    tag = (f"dsl{getattr(cutlass, '__version__', 'unknown')}-py{sys.version_info[0]}"
           f"{sys.version_info[1]}-v{CODE_VERSION}")
    base = Path(setting) if setting else Path(cache_root()) / "cute-dsl"
    return base / tag


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
