"""Standalone reproducer sources (``layoutcheck report``): a C++ file for CuTe
C++ and a Python script for pycute, NVlabs PyCuTe and the CuTe DSL.

Each program computes one case with the implementation under test and checks *claims*
(``layoutcheck/reports/reproducers.py``): facts the correct answer has, with the expected numbers
written into the program (computed by layoutcheck's spec: brute force).  It prints what it
found and exits 1 when a claim fails (the bug is present), 0 when every claim holds.
Nothing here depends on layoutcheck at run time.  Written for layoutcheck; the C++ uses
only CuTe's public API (``make_layout``, the op, ``size``, ``L(i)``).
"""

from layoutcheck.oracles.implementations import takes_runtime_integers

from layoutcheck.composed import ComposedLayoutBase, Swizzle
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, Underscore

__all__ = ["cpp_source", "python_source", "CPP_CALLS", "PY_CALLS", "DSL_CALLS", "cpp_command",
           "dsl_runtime_case"]

# op -> C++ call ({0}, {1}, ... are the arguments in the protocol's order)
CPP_CALLS = {
    "eval_coord": "{0}({1})", "get_mode": "layout<{1}>({0})", "crd2crd": "crd2crd({0}, {2}, {1})",
    "slice_": "slice({1}, {0})", "dice": "dice({1}, {0})",
    "slice_and_offset": "slice_and_offset({1}, {0})", "layout_left": "make_layout({0})",
    "prefix_product": "compact_col_major({args})", "values": "{0}",
}
# op -> pycute-style Python call (pycute and NVlabs PyCuTe share these names)
PY_CALLS = {
    "eval_coord": "{0}({1})", "get_mode": "{0}[{1}]", "rank": "len({0})",
    "slice_": "slice_({1}, {0})", "slice_and_offset": "slice_and_offset({1}, {0})",
    "layout_left": "Layout({0})", "values": "{0}", "crd2crd": "crd2crd({args})",
}
DSL_CALLS = {"values": "{0}", "layout_left": "cute.make_layout({0})"}
# swizzles and composed layouts (their values in _cpp / _py below)
CPP_CALLS.update({
    "swizzle_apply": "{0}({1})", "composed_size": "size({0})", "composed_cosize": "cosize({0})",
    "composed_slice_and_offset": "slice_and_offset({1}, {0})", "composed_upcast": "upcast<{1}>({0})",
    "composed_downcast": "downcast<{1}>({0})", "composed_right_inverse": "right_inverse({0})",
    "layout_swizzle_composition": "composition({0}, {1})", "swizzle_composition": "composition({0}, {1})",
    "composed_composition": "composition({0}, {1})", "composed_logical_divide": "logical_divide({0}, {1})",
    "composed_zipped_divide": "zipped_divide({0}, {1})", "composed_tiled_divide": "tiled_divide({0}, {1})",
    "upcast": "upcast<{1}>({0})", "downcast": "downcast<{1}>({0})"})
# TiledCopy (copy_atom.hpp): the thread's view of a tensor over a null pointer, as layout
_TILED_COPY = ("make_tiled_copy(Copy_Atom<UniversalCopy<int>, int>{{}}, {1}, {2}).get_slice({3})"
               ".partition_{side}(make_tensor((int*)nullptr, {0})).layout()")
CPP_CALLS.update({f"tiled_copy_partition_{side}": _TILED_COPY.replace("{side}", side)
                  for side in "SD"})
PY_CALLS.update({"swizzle_apply": "{0}({1})", "composed_size": "{0}.size()",
                 "composed_cosize": "{0}.cosize()"})
DSL_CALLS.update({"composed_cosize": "cute.cosize({0})", "upcast": "cute.recast_layout({1}, 1, {0})",
                  "composed_slice_and_offset": "cute.slice_and_offset({1}, {0})",
                  "composed_zipped_divide": "cute.zipped_divide({0}, {1})",
                  "composed_tiled_divide": "cute.tiled_divide({0}, {1})"})
_LITERAL_1 = ("get_mode", "upcast", "downcast", "composed_upcast", "composed_downcast")

_CPP_HELPERS = r"""
// Text of an answer without CuTe's static marks: "(2,(3,4)):(1,(2,6))", "7", "true".
template <class T> struct lc_is_bool : std::is_same<T, bool> {};
template <bool b> struct lc_is_bool<cute::C<b>> : std::true_type {};
template <class T> void lc_text(std::string& out, T const& x);
template <class T, size_t... I>
void lc_tuple(std::string& out, T const& t, std::index_sequence<I...>) {
  out += '(';
  ((out += (I ? "," : ""), lc_text(out, cute::get<I>(t))), ...);
  out += ')';
}
template <class T> struct lc_is_swizzle : std::false_type {};
template <int B, int M, int S> struct lc_is_swizzle<cute::Swizzle<B, M, S>> : std::true_type {};
template <class T> void lc_text(std::string& out, T const& x) {
  if constexpr (lc_is_swizzle<T>::value) {
    out += "Sw<" + std::to_string(T::num_bits) + "," + std::to_string(T::num_base) + "," +
           std::to_string(T::num_shft) + ">";
  } else if constexpr (cute::is_composed_layout<T>::value) {  // A o O o B, no spaces
    lc_text(out, x.layout_a()); out += 'o'; lc_text(out, x.offset()); out += 'o';
    lc_text(out, x.layout_b());
  } else if constexpr (cute::is_layout<T>::value) {
    lc_text(out, x.shape()); out += ':'; lc_text(out, x.stride());
  } else if constexpr (cute::is_tuple<T>::value) {
    lc_tuple(out, x, std::make_index_sequence<cute::tuple_size<T>::value>{});
  } else if constexpr (lc_is_bool<T>::value) {
    out += bool(x) ? "true" : "false";
  } else {
    out += std::to_string(static_cast<long long>(x));
  }
}
"""


def cpp_command(include="$INC", cuda="$CUDA"):
    return (f"g++ -std=c++17 -Wno-deprecated-declarations -I{include} -I{cuda}/include "
            f"-I{cuda}/include/cccl repro.cpp -o repro && ./repro")


# --- C++ ------------------------------------------------------------------------------------

def _cpp_int(v, literal=False):
    if literal:
        return str(int(v))
    return f"Int<{int(v)}>{{}}" if isinstance(v, C) else f"lc_rt({int(v)})"


def _cpp(x, maker="make_tuple", literal=False):
    if isinstance(x, Swizzle):
        return "Swizzle<{},{},{}>{{}}".format(*x.params)
    if isinstance(x, ComposedLayoutBase):
        return f"make_composed_layout({_cpp(x.outer)}, {_cpp_int(x.offset)}, {_cpp(x.inner)})"
    if isinstance(x, LayoutBase):
        return f"make_layout({_cpp(x.shape, 'make_shape')}, {_cpp(x.stride, 'make_stride')})"
    if isinstance(x, Underscore):
        return "_"
    if isinstance(x, tuple):
        inner = "make_tile" if any(isinstance(e, LayoutBase) for e in x) else maker
        return f"{inner}(" + ", ".join(_cpp(e, maker) for e in x) + ")"
    return _cpp_int(x, literal)


def _cpp_call(op, args, kinds):
    makers = {"coord": "make_coord", "tiler": "make_tile"}
    texts = [_cpp(a, makers.get(k.rstrip("?"), "make_tuple"), literal=(op in _LITERAL_1 and i == 1))
             for i, (a, k) in enumerate(zip(args, kinds))]
    pattern = CPP_CALLS.get(op, op + "({args})")
    return pattern.format(*texts, args=", ".join(texts))


def _cpp_array(name, values):
    body = ", ".join(str(int(v)) for v in values) or "0"
    return f"  static const long long {name}[] = {{{body}}};"


def cpp_source(case, claims, header):
    """The reproducer's C++ text.  ``header``: the comment lines on top (title, versions,
    how to build)."""
    lines = ["// " + ln if ln else "//" for ln in header]
    atoms = ["#include <cute/atom/copy_atom.hpp>"] if case.op.startswith("tiled_copy") else []
    lines += ["#include <cute/layout.hpp>", "#include <cute/swizzle_layout.hpp>", *atoms,
              "#include <algorithm>", "#include <cstdio>",
              "#include <string>", "#include <utility>", "#include <vector>",
              "using namespace cute;", "",
              "// A runtime int the compiler cannot fold: CuTe sees an `int`, as written.",
              "static int lc_rt(int v) { static volatile int sink; sink = v; return sink; }",
              _CPP_HELPERS, "int main() {"]
    call = _cpp_call(case.op, case.args, case.kinds)
    lines += [f"  auto R = {call};  // {case.text()}",
              "  std::string text; lc_text(text, R);",
              f'  std::printf("{case.op} = %s\\n", text.c_str());', "  int bad = 0;"]
    for k, c in enumerate(claims):
        lines += _cpp_claim(k, c)
    lines += ['  if (bad) { std::printf("BUG PRESENT: %d check(s) failed\\n", bad); return 1; }',
              '  std::printf("OK: every check holds\\n");', "  return 0;", "}"]
    return "\n".join(lines) + "\n"


def _c(text):
    """Text safe inside a printf format in a C string literal."""
    return str(text).replace("\\", "\\\\").replace('"', '\\"').replace("%", "%%")


def _say(fmt, *args):
    joined = "".join(f", {a}" for a in args)
    return f'if (bad < 12) std::printf("  {fmt}\\n"{joined});'


def _cpp_claim(k, c):
    kind, why = c["kind"], _c(c.get("why", ""))
    if kind == "text":
        want = _c(c["value"])
        return [f'  if (text != "{want}") {{ ++bad; {_say("answer %s, expected " + want + " (" + why + ")", "text.c_str()")} }}']
    if kind == "offset_values":  # R = (S, offset), S(i) + offset by the spec
        return [_cpp_array(f"want{k}", c["table"]),
                f"  for (long long i = 0; i < {len(c['table'])}; ++i) {{",
                "    long long got = (long long)get<0>(R)(i) + (long long)get<1>(R);",
                f"    if (got != want{k}[i]) {{ ++bad; {_say('S(%lld) + offset = %lld, expected %lld (' + why + ')', 'i', 'got', f'want{k}[i]')} }}",
                "  }"]
    if kind == "size":
        return [f"  if ((long long)size(R) != {c['value']}) {{ ++bad; "
                f"{_say('size = %lld, expected ' + str(c['value']) + ' (' + why + ')', '(long long)size(R)')} }}"]
    if kind == "values":
        return [_cpp_array(f"want{k}", c["table"]),
                f"  for (long long i = 0; i < {len(c['table'])}; ++i) {{",
                "    long long got = (long long)R(i);",
                f"    if (got != want{k}[i]) {{ ++bad; {_say('R(%lld) = %lld, expected %lld (' + why + ')', 'i', 'got', f'want{k}[i]')} }}",
                "  }"]
    if kind == "points":
        idx, val = zip(*c["pairs"]) if c["pairs"] else ((), ())
        return [_cpp_array(f"at{k}", idx), _cpp_array(f"want{k}", val),
                f"  for (int j = 0; j < {len(idx)}; ++j) {{",
                f"    long long got = (long long)R(at{k}[j]);",
                f"    if (got != want{k}[j]) {{ ++bad; {_say('R(%lld) = %lld, expected %lld (' + why + ')', f'at{k}[j]', 'got', f'want{k}[j]')} }}",
                "  }"]
    if kind == "left_inverse":
        return [_cpp_array(f"L{k}", c["L"]),
                f"  for (long long i = 0; i < {len(c['L'])}; ++i) {{",
                f"    long long got = (long long)R(L{k}[i]);",
                f"    if (got != i) {{ ++bad; {_say('R(L(%lld)) = %lld, expected %lld (a left inverse)', 'i', 'got', 'i')} }}",
                "  }"]
    if kind == "quasi_inverse":
        return [_cpp_array(f"L{k}", c["L"]),
                f"  for (long long i = 0; i < {len(c['L'])}; ++i) {{",
                f"    long long r = (long long)R(L{k}[i]);",
                f"    if (r < 0 || r >= {len(c['L'])} || L{k}[r] != L{k}[i]) {{ ++bad; "
                f"{_say('L(R(L(%lld))) != L(%lld) (a quasi-inverse)', 'i', 'i')} }}",
                "  }"]
    if kind == "right_inverse":
        return [_cpp_array(f"L{k}", c["L"]),
                "  for (long long i = 0; i < (long long)size(R); ++i) {",
                "    long long r = (long long)R(i);",
                f"    if (r < 0 || r >= {len(c['L'])} || L{k}[r] != i) {{ ++bad; {_say('L(R(%lld)) != %lld (a right inverse)', 'i', 'i')} }}",
                "  }"]
    if kind == "compact":
        return [_cpp_array(f"A{k}", c["A"]),
                "  {",
                f"    long long n = {len(c['A'])} * (long long)size(R), clash = 0;",
                "    std::vector<char> seen(n, 0);",
                f"    for (long long j = 0; j < (long long)size(R); ++j) for (int i = 0; i < {len(c['A'])}; ++i) {{",
                f"      long long v = A{k}[i] + (long long)R(j);",
                "      if (v < 0 || v >= n || seen[v]) ++clash; else seen[v] = 1; }",
                f"    if (clash) {{ ++bad; {_say('(A, R) misses [0, size(A) size(R)) at %lld value(s): R is no complement of A', 'clash')} }}",
                "  }"]
    raise ValueError(f"unknown claim {kind!r}")


# --- Python ---------------------------------------------------------------------------------

def _py(x, dsl=False):
    if isinstance(x, Swizzle):
        return ("cute.make_swizzle({}, {}, {})" if dsl else "Swizzle({}, {}, {})").format(*x.params)
    if isinstance(x, ComposedLayoutBase):
        make = "cute.make_composed_layout" if dsl else "ComposedLayout"
        return f"{make}({_py(x.outer, dsl)}, {int(x.offset)}, {_py(x.inner, dsl)})"
    if isinstance(x, LayoutBase):
        shape, stride = _py(x.shape), _py(x.stride)
        return f"cute.make_layout({shape}, stride={stride})" if dsl else f"Layout({shape}, {stride})"
    if isinstance(x, Underscore):
        return "None"
    if isinstance(x, tuple):
        inner = ", ".join(_py(e, dsl) for e in x)
        return f"({inner},)" if len(x) == 1 else f"({inner})"
    return str(int(x))


def _py_call(op, args, dsl):
    texts = [_py(a, dsl) for a in args]
    table = DSL_CALLS if dsl else PY_CALLS
    default = ("cute." if dsl else "") + op + "({args})"
    return table.get(op, default).format(*texts, args=", ".join(texts))


_PY_HELPERS = '''
def text_of(x):
    """An answer as text without static marks or spaces: (2,(3,4)):(1,(2,6)), 7, true."""
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, (tuple, list)):
        return "(" + ",".join(text_of(e) for e in x) + ")"
    return str(x).replace(" ", "").replace("_", "").replace("True", "true").replace("False", "false")
'''


def python_source(case, claims, header, flavour, expect_answer=True):
    """The reproducer script for ``flavour`` "pycute" (the wheel's), "nvlabs" (PyCuTe from
    a folder given as argv[1] or $LAYOUTCHECK_NVLABS_PATH) or "cute-dsl"."""
    lines = ["#!/usr/bin/env python3"] + ["# " + ln if ln else "#" for ln in header]
    lines += ["import os", "import sys", ""]
    call = _py_call(case.op, case.args, flavour == "cute-dsl")
    if flavour == "nvlabs":
        lines += ["PATH = sys.argv[1] if len(sys.argv) > 1 else os.environ.get('LAYOUTCHECK_NVLABS_PATH')",
                  "if not PATH:", "    sys.exit('give the folder that holds NVlabs PyCuTe (pycute/) as argv[1]')",
                  "sys.path.insert(0, PATH)", "from pycute import *  # noqa: E402,F401,F403", ""]
    if flavour in ("pycute", "nvlabs"):
        if flavour == "pycute":
            lines += ["from pycute import *  # noqa: F401,F403", ""]
        lines += [_PY_HELPERS, f"EXPECT_ANSWER = {bool(expect_answer)}  # False: the input is "
                  "outside the precondition, refusing it is right", "try:",
                  f"    R = {call}  # {case.text()}", "except Exception as e:  # noqa: BLE001",
                  f"    print('{case.op} raised', type(e).__name__, e)",
                  "    if EXPECT_ANSWER:", "        print('BUG PRESENT: it raised where an answer exists')",
                  "        sys.exit(1)", "    print('OK: it refuses an input outside the precondition')",
                  "    sys.exit(0)", "TEXT = text_of(R)", "def size_of(L):", "    try:",
                  "        return size(L)",
                  "    except Exception as e:  # noqa: BLE001 - not a layout: every check fails",
                  "        return f'<{type(e).__name__}>'", "def at(L, i):", "    try:",
                  "        return L(i)", "    except Exception as e:  # noqa: BLE001",
                  "        return f'<{type(e).__name__}>'", ""]
    elif dsl_runtime_case(case):
        lines += _dsl_runtime_lines(case, claims, expect_answer)
    else:
        lines += ["import cutlass.cute as cute", "", _PY_HELPERS, "OUT = {}", "", "@cute.jit",
                  "def traced():  # the DSL computes layouts at trace time",
                  f"    R = {call}  # {case.text()}",
                  "    OUT['text'] = text_of(R)",
                  "    OUT['size'] = int(str(cute.size(R)))",
                  f"    n = max({_dsl_points(claims)}, OUT['size'])",
                  "    OUT['values'] = [int(str(R(i))) for i in range(n)]", "",
                  "try:", "    traced()", "except Exception as e:  # noqa: BLE001",
                  f"    print('{case.op} raised', type(e).__name__, str(e).splitlines()[:1])",
                  f"    if {bool(expect_answer)}:", "        print('BUG PRESENT: it raised where an answer exists')",
                  "        sys.exit(1)", "    print('OK: it refuses an input outside the precondition')",
                  "    sys.exit(0)", "TEXT = OUT['text']", "def size_of(L):", "    return OUT['size']",
                  "def at(L, i):", "    return OUT['values'][i]", "R = None", ""]
    lines += [f"print('{case.op} =', TEXT)", "bad = []"]
    if not expect_answer:  # the input is outside the precondition: any answer is the bug
        lines += ["print('BUG PRESENT: it answers an input outside the precondition (a refusal is due)')",
                  "sys.exit(1)"]
        return "\n".join(lines) + "\n"
    for c in claims:
        lines += _py_claim(c)
    lines += ["for b in bad[:12]:", "    print('  ' + b)",
              "if bad:", "    print(f'BUG PRESENT: {len(bad)} check(s) failed')", "    sys.exit(1)",
              "print('OK: every check holds')"]
    return "\n".join(lines) + "\n"


def _runtime_ints(x):
    if isinstance(x, LayoutBase):
        return _runtime_ints(x.shape) + _runtime_ints(x.stride)
    if isinstance(x, tuple):
        return [v for e in x for v in _runtime_ints(e)]
    return [int(x)] if isinstance(x, int) and not isinstance(x, (bool, C)) else []


def dsl_runtime_case(case) -> bool:
    """The case runs on the DSL's runtime path with runtime integers (a kernel's Int32s)."""
    return takes_runtime_integers("cute-dsl", case.op) and bool(_runtime_ints(case.args))


def _py_runtime(x, names):
    """``x`` as DSL code whose runtime integers are ``v[k]`` (the kernel's Int32 arguments)."""
    if isinstance(x, LayoutBase):
        return f"cute.make_layout({_py_runtime(x.shape, names)}, stride={_py_runtime(x.stride, names)})"
    if isinstance(x, Underscore):
        return "None"
    if isinstance(x, tuple):
        inner = ", ".join(_py_runtime(e, names) for e in x)
        return f"({inner},)" if len(x) == 1 else f"({inner})"
    if isinstance(x, C):
        return str(int(x))
    names.append(int(x))
    return f"v[{len(names) - 1}]"


def _dsl_runtime_lines(case, claims, expect_answer):
    """A DSL reproducer with runtime integers: the case compiled with ``cute.compile`` (its
    runtime integers Int32 arguments) and run in a child process of the script, which prints
    the answer with ``cute.printf``; a child killed by a signal is the bug."""
    names = []
    texts = [_py_runtime(a, names) for a in case.args]
    call = DSL_CALLS.get(case.op, f"cute.{case.op}({{args}})").format(*texts, args=", ".join(texts))
    n = _dsl_points(claims)
    return [
        "import subprocess", "", f"VALUES = {names}  # the runtime integers (Int32), in order", "",
        "if sys.argv[1:] == ['--child']:",
        "    import cutlass", "    import cutlass.cute as cute", "",
        "    @cute.jit", "    def traced(*v):  # v: the runtime integers",
        f"        R = {call}  # {case.text()}",
        "        cute.printf('TEXT {}', R)", "        cute.printf('SIZE {}', cute.size(R))",
        "        for i in cutlass.range(cute.size(R)):", "            cute.printf('AT {} {}', i, R(i))",
        f"        for i in range({n}):", "            cute.printf('AT {} {}', i, R(i))", "",
        "    try:", "        fn = cute.compile(traced, *[cutlass.Int32(x) for x in VALUES])",
        "        fn(*VALUES)", "    except Exception as e:  # noqa: BLE001",
        "        print('RAISED', type(e).__name__, str(e).splitlines()[:1], flush=True)", "        sys.exit(3)",
        "    sys.exit(0)", "",
        "p = subprocess.run([sys.executable, os.path.abspath(__file__), '--child'], capture_output=True,",
        "                   text=True, timeout=900)",
        "if p.returncode < 0:",
        f"    print('{case.op} killed the process with signal', -p.returncode)",
        "    print('BUG PRESENT: the process died')", "    sys.exit(1)",
        "raised = [ln for ln in p.stdout.splitlines() if ln.startswith('RAISED')]",
        "if raised or p.returncode:",
        f"    print('{case.op} raised', (raised or [p.stderr.strip()[-300:]])[0])",
        f"    if {bool(expect_answer)}:", "        print('BUG PRESENT: it raised where an answer exists')",
        "        sys.exit(1)", "    print('OK: it refuses an input outside the precondition')",
        "    sys.exit(0)",
        "OUT = {'values': {}}", "for ln in p.stdout.splitlines():",
        "    if ln.startswith('TEXT '):", "        OUT['text'] = ln[5:].replace(' ', '')",
        "    elif ln.startswith('SIZE '):", "        OUT['size'] = int(ln[5:])",
        "    elif ln.startswith('AT '):", "        i, x = ln[3:].split()", "        OUT['values'][int(i)] = int(x)",
        "TEXT = OUT.get('text', '?')", "def size_of(L):", "    return OUT.get('size', '<none>')",
        "def at(L, i):", "    return OUT['values'].get(i, '<none>')", "R = None", ""]


def _dsl_points(claims):
    n = 0
    for c in claims:
        if c["kind"] == "values":
            n = max(n, len(c["table"]))
        if c["kind"] == "points" and c["pairs"]:
            n = max(n, max(i for i, _ in c["pairs"]) + 1)
        if c["kind"] in ("left_inverse", "quasi_inverse") and c["L"]:
            n = max(n, max(c["L"]) + 1)
    return n


def _py_claim(c):
    kind, why = c["kind"], repr(" (" + c.get("why", "") + ")")
    if kind == "text":
        return [f"if TEXT != {c['value']!r}:",
                f"    bad.append('answer ' + TEXT + ', expected ' + {c['value']!r} + {why})"]
    if kind == "size":
        return [f"if size_of(R) != {c['value']}:",
                f"    bad.append('size = ' + str(size_of(R)) + ', expected {c['value']}' + {why})"]
    if kind in ("values", "points"):
        pairs = list(enumerate(map(int, c["table"]))) if kind == "values" else \
            [(int(i), int(v)) for i, v in c["pairs"]]
        return [f"for i, want in {pairs}:", "    got = at(R, i)", "    if got != want:",
                f"        bad.append(f'R({{i}}) = {{got}}, expected {{want}}' + {why})"]
    if kind == "left_inverse":
        return [f"for i, x in enumerate({list(map(int, c['L']))}):",
                "    if at(R, x) != i:", "        bad.append(f'R(L({i})) = {at(R, x)}, expected {i} (a left inverse)')"]
    if kind == "quasi_inverse":
        return [f"Lv = {list(map(int, c['L']))}", "for i, x in enumerate(Lv):", "    r = at(R, x)",
                "    if not (isinstance(r, int) and 0 <= r < len(Lv) and Lv[r] == x):",
                "        bad.append(f'L(R(L({i}))) != L({i}) (a quasi-inverse)')"]
    if kind == "right_inverse":
        return [f"Lv = {list(map(int, c['L']))}", "n = size_of(R) if isinstance(size_of(R), int) else 0",
                "if not n:", "    bad.append('no right inverse: ' + TEXT)", "for i in range(n):", "    r = at(R, i)",
                "    if not (0 <= r < len(Lv) and Lv[r] == i):",
                "        bad.append(f'L(R({i})) != {i} (a right inverse)')"]
    if kind == "compact":
        return [f"Av = {list(map(int, c['A']))}",
                "vals = [a + at(R, j) for j in range(size_of(R)) for a in Av] if isinstance(size_of(R), int) else [-1]",
                "if sorted(vals) != list(range(len(vals))):",
                "    bad.append('(A, R) is not a bijection onto [0, size(A) size(R)): R is no complement of A')"]
    raise ValueError(f"unknown claim {kind!r}")
