"""Reading and writing the files a run names: report paths are checked before
any work (a directory, an unwritable folder or a device such as ``/dev/full`` is refused
at once) and written atomically; JSON inputs (``--replay``) are read with a size bound.
Every problem is one ``LayoutError`` line."""

from __future__ import annotations

import json
import os
import stat
from typing import Any

from layoutcheck.errors import LayoutError

__all__ = ["check_output_path", "write_output", "read_json", "MAX_INPUT_BYTES"]

MAX_INPUT_BYTES = 16 << 20   # --replay and other JSON inputs: read at most 16 MiB


def _same_as_std(st: os.stat_result) -> bool:
    for fd in (1, 2):
        try:
            s = os.fstat(fd)
        except OSError:
            continue
        if (s.st_dev, s.st_ino) == (st.st_dev, st.st_ino):
            return True
    return False


def check_output_path(path: str | os.PathLike[str] | None, option: str) -> None:
    """Raise LayoutError unless ``path`` can take a report: not empty, not a directory, its
    folder exists and is writable, and it is a regular file (or new), ``/dev/null``, a pipe,
    or this process's stdout / stderr (a device such as ``/dev/full`` cannot hold one)."""
    if path is None:
        return
    if not str(path).strip():
        raise LayoutError(f"{option} needs a file name, got {path!r}")
    try:
        st = os.stat(path)
    except FileNotFoundError:
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise LayoutError(f"{option} {path}: folder {folder} does not exist") from None
        if not os.access(folder, os.W_OK | os.X_OK):
            raise LayoutError(f"{option} {path}: folder {folder} is not writable") from None
        return
    except OSError as e:
        raise LayoutError(f"{option} {path}: {e.strerror}") from None
    if stat.S_ISDIR(st.st_mode):
        raise LayoutError(f"{option} {path} is a directory")
    if not stat.S_ISREG(st.st_mode):
        special = stat.S_ISFIFO(st.st_mode) or _same_as_std(st) or (
            os.path.exists(os.devnull) and os.path.samefile(path, os.devnull))
        if not special:
            raise LayoutError(f"{option} {path} is not a regular file (a device such as "
                              "/dev/full cannot hold a report)")
    if not os.access(path, os.W_OK):
        raise LayoutError(f"{option} {path} is not writable")


def write_output(path: str | os.PathLike[str], text: str, option: str) -> None:
    """Write a report checked by ``check_output_path``: a regular file through a temporary
    file and a rename (never half-written), anything else directly.  LayoutError on failure."""
    try:
        regular = not os.path.exists(path) or stat.S_ISREG(os.stat(path).st_mode)
        if regular:
            tmp = f"{path}.tmp{os.getpid()}"
            try:
                with open(tmp, "w", encoding="utf-8") as f:
                    f.write(text)
                os.replace(tmp, path)
            finally:
                if os.path.exists(tmp):
                    os.unlink(tmp)
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
    except OSError as e:
        raise LayoutError(f"cannot write {option} {path}: {e.strerror or e}") from None


def read_json(path: str | os.PathLike[str], what: str, limit: int = MAX_INPUT_BYTES) -> Any:
    """A JSON document from a regular file of at most ``limit`` bytes; LayoutError naming
    the problem otherwise (missing, empty, a device or pipe, too large, not UTF-8, not
    JSON, nested too deeply)."""
    if not str(path).strip():
        raise LayoutError(f"{what} needs a file name, got {path!r}")
    try:
        st = os.stat(path)
    except OSError as e:
        raise LayoutError(f"cannot read {what} {path}: {e.strerror}") from None
    if stat.S_ISDIR(st.st_mode):
        raise LayoutError(f"{what} {path} is a directory")
    if not stat.S_ISREG(st.st_mode):
        raise LayoutError(f"{what} {path} is not a regular file")
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise LayoutError(f"cannot read {what} {path}: {e.strerror}") from None
    if len(data) > limit:
        raise LayoutError(f"{what} {path} is larger than {limit >> 20} MiB")
    if not data.strip():
        raise LayoutError(f"{what} {path} is empty")
    try:
        return json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise LayoutError(f"{what} {path} is not UTF-8 text (byte {e.start})") from None
    except json.JSONDecodeError as e:
        raise LayoutError(f"{what} {path} is not JSON: {e.msg} at line {e.lineno} "
                          f"column {e.colno}") from None
    except RecursionError:
        raise LayoutError(f"{what} {path} is nested too deeply") from None
