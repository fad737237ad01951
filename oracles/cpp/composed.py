"""cute-cpp for the operations on swizzles, composed layouts, recast and tiling on swizzles, composed layouts and tensors.

The layout-only ops beyond the algebra (upcast, max_common_vector, tile_to_shape, ...) are rows of
``oracles/cpp/codegen.py``'s table.  The ops here need types that table's prelude does not
include (``cute/swizzle_layout.hpp``, ``cute/tensor.hpp``) and answers it does not print
(``Swizzle``, ``ComposedLayout``, decayed layouts with negative strides, tensor offsets), so
they run in programs of their own: one translation unit per batch on a precompiled prelude
(``composed_prelude.hpp``), with the same toolchain (compiler, flags, header tree) as the
rest of cute-cpp, cached by source hash under the toolchain's folder (``composed/``).
``CuteCppOracle._run_many`` hands these ops to ``run_cases``.

Integers follow the input: a static ``_4`` is ``Int<4>{}``, a dynamic ``4`` an ``int``.  A case
CuTe rejects at compile time answers ``raised`` with the compiler's message (the batch is
recompiled without it); a case that aborts at run time (assert, SIGFPE) answers ``raised``
"runtime abort (signal N)" and the rest still run; an answer that cannot be read is
``crashed``.  ``bank_conflicts`` and ``f2_values`` have no CuTe C++ counterpart.
"""

import hashlib
import os
import re
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from layoutcheck.oracles.cpp.driver import blame, rejection_text
from layoutcheck.oracles.cpp.toolchain import compiler_env, run_compiler
from layoutcheck.oracles.protocol import ANSWERS, OPS, Outcome

from layoutcheck.composed import ComposedLayoutBase, F2Layout, Swizzle, parse_value
from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, Underscore
from layoutcheck.notation import parse_tuple

__all__ = ["COMPOSED_OPS", "handles", "run_cases", "case_program"]

PRELUDE = Path(__file__).resolve().parent / "composed_prelude.hpp"
INT_LIMIT = 2 ** 31
TU_CASES = 40
# TiledCopy cases instantiate copy_atom.hpp's machinery: about 0.5 s of g++ each (measured:
# 24 cases, 13-20 s a compile); the tensor partitions about 0.2 s each, and their cover laws
# ask for one partition per thread (16 cases of law.local_tile.covers: 31 s cold).  They
# travel in small batches (CuteCppOracle.batch_cases).
HEAVY = frozenset({"tiled_copy_partition_S", "tiled_copy_partition_D", "local_tile",
                   "local_partition", "inner_partition", "outer_partition"})
HEAVY_BATCH = 8

_TILED_COPY = "cute::make_tiled_copy(cute::Copy_Atom<cute::UniversalCopy<int>, int>{{}}, {1}, {2})"

# op -> (form, C++ expression over {0}, {1}, ...; literal argument positions)
COMPOSED_OPS = {
    "swizzle_apply": ("answer", "{0}({1})", ()),
    "swizzle_values": ("swizzle_values", "{0}", ()),
    "composed_values": ("values", "{0}", ()),
    "composed_size": ("answer", "cute::size({0})", ()),
    "composed_cosize": ("answer", "cute::cosize({0})", ()),
    "swizzle_composition": ("answer", "cute::composition({0}, {1})", ()),
    "layout_swizzle_composition": ("answer", "cute::composition({0}, {1})", ()),
    "composed_composition": ("answer", "cute::composition({0}, {1})", ()),
    "composed_logical_divide": ("answer", "cute::logical_divide({0}, {1})", ()),
    "composed_zipped_divide": ("answer", "cute::zipped_divide({0}, {1})", ()),
    "composed_tiled_divide": ("answer", "cute::tiled_divide({0}, {1})", ()),
    "composed_slice_and_offset": ("pair", "cute::slice_and_offset({1}, {0})", ()),
    "composed_right_inverse": ("answer", "cute::right_inverse({0})", ()),
    "composed_upcast": ("answer", "cute::upcast<{1}>({0})", (1,)),
    "composed_downcast": ("answer", "cute::downcast<{1}>({0})", (1,)),
    "local_tile": ("tensor", "cute::local_tile(t, {1}, {2})", ()),
    "inner_partition": ("tensor", "cute::inner_partition(t, {1}, {2})", ()),
    "outer_partition": ("tensor", "cute::outer_partition(t, {1}, {2})", ()),
    "local_partition": ("tensor", "cute::local_partition(t, {1}, {2})", ()),
    # TiledCopy of the universal one-element atom over the int tensor (atom/copy_atom.hpp)
    "tiled_copy_partition_S": ("tensor", _TILED_COPY + ".get_slice({3}).partition_S(t)", ()),
    "tiled_copy_partition_D": ("tensor", _TILED_COPY + ".get_slice({3}).partition_D(t)", ()),
}
_NONE = {"bank_conflicts": "CuTe C++ has no bank-conflict count (gpu_checks measures it on a device)",
         "f2_values": "CuTe C++ has no F2 strides (NVlabs PyCuTe has)",
         "swizzle_as_f2": "CuTe C++ has no F2 strides, so no F2 form of a swizzle",
         "layout_add": "CuTe C++ has no layout_add (NVlabs PyCuTe's own operation)"}


def handles(op):
    return op in COMPOSED_OPS or op in _NONE


class _Unsupported(Exception):
    pass


def _int(v, literal=False):
    if isinstance(v, bool) or not isinstance(v, int):
        raise _Unsupported(f"{v!r} is not an integer")
    if not 0 <= int(v) < INT_LIMIT:
        raise _Unsupported(f"integer {int(v)} does not fit CuTe's 32-bit int")
    if literal:
        return str(int(v))
    return f"cute::Int<{int(v)}>{{}}" if isinstance(v, C) else f"int({int(v)})"


def _tuple(t, maker):
    if isinstance(t, tuple):
        return f"{maker}(" + ", ".join(_tuple(e, maker) for e in t) + ")"
    return _int(t)


def _layout(L):
    return f"cute::make_layout({_tuple(L.shape, 'cute::make_shape')}, " \
           f"{_tuple(L.stride, 'cute::make_stride')})"


def _arg(x, kind, literal=False):
    if isinstance(x, Swizzle):
        if x.span >= 31:
            raise _Unsupported(f"{x}: its masks do not fit CuTe's 32-bit int")
        return f"cute::Swizzle<{x.bits},{x.base},{x.shift}>{{}}"
    if isinstance(x, ComposedLayoutBase):
        return f"cute::make_composed_layout({_arg(x.outer, 'layout')}, {_int(x.offset)}, " \
               f"{_layout(x.inner)})"
    if isinstance(x, F2Layout):
        raise _Unsupported("CuTe C++ has no F2 strides")
    if isinstance(x, LayoutBase):
        return _layout(x)
    if isinstance(x, Underscore):
        return "cute::_"
    if isinstance(x, tuple):
        maker = {"tiler": "cute::make_tile", "coord": "cute::make_coord"}.get(kind, "cute::make_tuple")
        return f"{maker}(" + ", ".join(_arg(e, kind) for e in x) + ")"
    return _int(x, literal)


def _body(k, op, args, kinds):
    form, expr, literal = COMPOSED_OPS[op]
    texts = [_arg(a, kd.rstrip("?"), i in literal) for i, (a, kd) in enumerate(zip(args, kinds))]
    call = expr.format(*texts)
    if form == "answer":
        return f"lcv::answer({k}, {call});"
    if form == "pair":
        return f"lcv::pair({k}, {call});"
    if form == "values":
        return f"lcv::layout_values({k}, {call});"
    if form == "swizzle_values":
        return f"lcv::values({k}, {call}, {1 << args[0].span}LL);"
    return f"lcv::tensor_op({k}, [&](auto const& t) {{ return {call}; }}, {texts[0]});"


def case_program(cases, kinds_of):
    """(source, {line: case index}) of one translation unit running ``cases``."""
    lines = ['#include "lc_composed.hpp"', ""]
    owner = {}
    for k, (op, args) in enumerate(cases):
        body = _body(k, op, args, kinds_of(op))
        lines.append(f"static void case_{k}() {{")
        owner[len(lines) + 1] = k
        lines.append("  " + body)
        lines.append("}")
    lines.append("int main(int argc, char** argv) {")
    lines.append("  int start = argc > 1 ? std::atoi(argv[1]) : 0;")
    for k in range(len(cases)):
        lines.append(f"  if (start <= {k}) case_{k}();")
    lines.append("  return 0;")
    lines.append("}")
    return "\n".join(lines) + "\n", owner


# --- compiling and running ---------------------------------------------------------------------

def _folder(toolchain):
    key = hashlib.sha256((toolchain.key + PRELUDE.read_text()).encode()).hexdigest()[:16]
    path = toolchain.folder / "composed" / key
    path.mkdir(parents=True, exist_ok=True)
    return path


def _env():
    return compiler_env()


def _pch(toolchain, folder, timeout):
    header, gch = folder / "lc_composed.hpp", folder / "lc_composed.hpp.gch"
    if gch.is_file() and header.is_file():
        return
    if not header.is_file():
        _write(header, PRELUDE.read_text())
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        out = Path(tmp) / "lc_composed.hpp.gch"
        cmd = [toolchain.cxx, *toolchain.flags(), f"-I{folder}", "-x", "c++-header", str(header),
               "-o", str(out)]
        p = run_compiler(cmd, timeout, "the composed-layout prelude", env=_env())
        if p.returncode != 0:
            raise LayoutError(f"cute-cpp: the composed-layout prelude does not compile: {p.stderr[-600:]}")
        os.replace(out, gch)


def _write(path, text):
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


_ERR = re.compile(r"case\.cpp:(\d+):\d+:")


def _message(err):
    """The rejection as the rest of cute-cpp words it (cpp_driver.rejection_text:
    "compile-time rejection: <the static_assert or first error>"), so the register's
    symptoms read one format."""
    return rejection_text(err)


def _own_errors(err, owner):
    """{case index: the error lines of its own instantiation chains} (cpp_driver._blame: the
    errors after ``case.cpp:LINE: required from here`` belong to the case at LINE)."""
    return blame(err, "case.cpp", {k: (line, line) for line, k in owner.items()})


def _compile(toolchain, folder, source, timeout):
    """(binary path, None) or (None, stderr)."""
    h = hashlib.sha256(source.encode()).hexdigest()[:24]
    binary, failed = folder / f"{h}.bin", folder / f"{h}.err"
    if binary.is_file():
        return binary, None
    if failed.is_file():  # the same source failed before (the folder is keyed by toolchain)
        return None, failed.read_text()
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        src = Path(tmp) / "case.cpp"
        src.write_text(source)
        out = Path(tmp) / "case.bin"
        cmd = [toolchain.cxx, *toolchain.flags(), f"-I{folder}", str(src), "-o", str(out)]
        p = run_compiler(cmd, timeout, "compiling a composed-layout case", env=_env())
        if p.returncode != 0:
            if is_rejection(p.returncode, p.stderr):  # kept: the same source fails again
                _write(failed, p.stderr)
            return None, p.stderr
        os.replace(out, binary)
    return binary, None


def is_rejection(returncode, stderr):
    """g++ ran and refused the source (an error in CuTe's or our code), as opposed to g++
    killed (out of memory: "Killed", a signal) or crashing (an internal compiler error):
    only a rejection may be cached."""
    return (returncode > 0 and "error" in stderr and "internal compiler error" not in stderr
            and "Killed" not in stderr)


def _run(binary, n, timeout):
    """{case index: (tag, text)} and {case index: abort message}."""
    got, aborted, start = {}, {}, 0
    while start < n:
        try:
            p = subprocess.run([str(binary), str(start)], capture_output=True, text=True,
                               timeout=timeout)
            out, rc = p.stdout, p.returncode
        except subprocess.TimeoutExpired as e:
            out, rc = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or ""), None
        last = start - 1
        for line in out.splitlines():
            m = re.match(r"@@(\d+) (\w) ?(.*)$", line)
            if m:
                k = int(m.group(1))
                got[k] = (m.group(2), m.group(3))
                last = max(last, k)
        if rc == 0:
            break
        bad = last + 1
        if bad >= n:
            break
        aborted[bad] = ("hang" if rc is None else
                        f"runtime abort (signal {-rc})" if rc < 0 else f"runtime abort (exit {rc})")
        start = bad + 1
    return got, aborted


def _parse(op, tag, text):
    kind = ANSWERS[op]
    if tag == "V":
        return tuple(int(x) for x in text.split())
    if kind in ("composed_offset", "layout_offset"):
        layout, _, off = text.rpartition("|")
        value = parse_value(layout.strip())
        if kind == "layout_offset" and not isinstance(value, LayoutBase):
            raise LayoutError(f"expected a layout, got {layout!r}")
        return value, parse_tuple(off.strip())
    if kind == "int":
        v = parse_tuple(text.strip())
        if isinstance(v, tuple):
            raise LayoutError(f"expected an integer, got {text!r}")
        return v
    return parse_value(text.strip())


def run_cases(toolchain, cases, timeout=300, jobs=1):
    """One Outcome per (op, args) of the C++ ops on swizzles, composed layouts, recast and tiling, in translation units of at most
    ``TU_CASES`` cases, ``jobs`` compiled at a time (a batch is cut into at least ``jobs``
    units: a unit compiles on one core)."""
    results = [None] * len(cases)
    todo = []
    for i, (op, args) in enumerate(cases):
        if op in _NONE:
            results[i] = Outcome.unsupported(_NONE[op])
            continue
        try:
            _body(0, op, args, OPS[op])
        except _Unsupported as e:
            results[i] = Outcome.unsupported(str(e))
            continue
        todo.append(i)
    if not todo:
        return results
    folder = _folder(toolchain)
    _pch(toolchain, folder, timeout)
    size = max(1, min(TU_CASES, -(-len(todo) // max(1, jobs))))
    chunks = [todo[k:k + size] for k in range(0, len(todo), size)]
    if len(chunks) == 1 or jobs <= 1:
        for chunk in chunks:
            _run_chunk(toolchain, folder, cases, chunk, results, timeout)
        return results
    with ThreadPoolExecutor(max_workers=jobs) as pool:  # each chunk fills its own results
        for f in [pool.submit(_run_chunk, toolchain, folder, cases, c, results, timeout)
                  for c in chunks]:
            f.result()
    return results


def _run_chunk(toolchain, folder, cases, chunk, results, timeout):
    live = list(chunk)
    for _attempt in range(len(chunk) + 1):
        if not live:
            return
        source, owner = case_program([cases[i] for i in live], lambda op: OPS[op])
        binary, err = _compile(toolchain, folder, source, timeout)
        if binary is not None:
            break
        blamed = {owner[int(m.group(1))] for m in _ERR.finditer(err) if int(m.group(1)) in owner}
        if not blamed:  # cannot tell which: every remaining case alone
            blamed = set(range(len(live))) if len(live) == 1 else None
        if blamed is None:
            for i in live:
                _run_chunk(toolchain, folder, cases, [i], results, timeout)
            return
        own = _own_errors(err, owner)  # each case is worded by its own errors, not the batch's
        for k in sorted(blamed):
            results[live[k]] = Outcome.raised(_message("\n".join(own.get(k) or [err])))
        live = [i for k, i in enumerate(live) if k not in blamed]
    else:  # pragma: no cover
        return
    got, aborted = _run(binary, len(live), timeout)
    for k, i in enumerate(live):
        op = cases[i][0]
        if k in got:
            tag, text = got[k]
            try:
                results[i] = Outcome.ok(_parse(op, tag, text))
            except LayoutError as e:
                results[i] = Outcome.crashed(f"cute-cpp printed {text[:120]!r} for {op}: {e}")
        elif aborted.get(k) == "hang":
            results[i] = Outcome.crashed(f"cute-cpp: the case did not finish in {timeout} s")
        else:
            results[i] = Outcome.raised(aborted.get(k, "runtime abort (no answer)"))
