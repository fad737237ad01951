"""Re-checks of the findings F-120 and F-121 (layoutcheck/findings.toml): the impl/spec side
always, the CuTe C++ side when g++, the CUDA headers and the wheel's CuTe headers are present
(one small program, about 2 s to compile)."""

import shutil
import subprocess
from pathlib import Path

import layoutcheck.impl as I
import layoutcheck.spec as S
import pytest

_CUDA = Path("/usr/local/cuda-13.0/include")


def _cute_include():
    try:
        import cutlass_library
    except ImportError:
        return None
    inc = Path(cutlass_library.__file__).parent / "source" / "include"
    return inc if (inc / "cute" / "layout.hpp").exists() else None


def _run_cute(tmp_path, expressions):
    inc = _cute_include()
    if shutil.which("g++") is None or inc is None or not _CUDA.exists():
        pytest.skip("g++, the CUDA 13.0 headers or the CuTe headers are missing")
    body = "".join(f'  print({e}); printf("\\n");\n' for e in expressions)
    src = tmp_path / "f.cpp"
    src.write_text("#include <cute/layout.hpp>\n#include <cstdio>\nusing namespace cute;\n"
                   f"int main() {{\n{body}  return 0;\n}}\n")
    exe = tmp_path / "f"
    subprocess.run(["g++", "-std=c++17", "-Wno-deprecated-declarations", f"-I{inc}",
                    f"-I{_CUDA}", f"-I{_CUDA / 'cccl'}", str(src), "-o", str(exe)],
                   check=True, capture_output=True, timeout=120)
    return subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout.split()


L48 = "make_layout(make_shape(Int<4>{}, Int<8>{}), make_stride(Int<1>{}, Int<4>{}))"
CASES = [f"composition({L48}, make_tile(make_layout(Int<2>{{}}, Int<2>{{}})))",
         f"logical_divide({L48}, make_tile(make_layout(Int<2>{{}}, Int<2>{{}})))",
         "blocked_product(make_layout(Int<4>{}, Int<1>{}), "
         "make_layout(make_shape(Int<3>{}), make_stride(Int<1>{})))",
         "blocked_product(make_layout(Int<4>{}, Int<1>{}), make_layout(Int<3>{}, Int<1>{}))"]


@pytest.fixture(scope="module")
def cute(tmp_path_factory):
    """CuTe C++'s printed results for CASES (one compile)."""
    return _run_cute(tmp_path_factory.mktemp("cute"), CASES)


def test_F120_tuple_tiler_composition_keeps_modes_cute_cpp_drops_them(cute):
    A, T = "(4,8):(1,4)", (I.parse("2:2"),)
    assert str(I.composition(A, T)) == "(2,8):(2,4)"
    assert S.composition(A, T) == I.composition(A, T)
    pycute = pytest.importorskip("pycute")
    P = pycute.composition(pycute.Layout((4, 8), (1, 4)), (pycute.Layout(2, 2),))
    assert (P.shape, P.stride) == ((2, 8), (2, 4))
    out = cute
    assert out[0] == "(_2):(_2)"                     # mode 1 of A is dropped by CuTe C++
    assert out[1] == "((_2,_2),_8):((_2,_1),_4)"     # logical_divide keeps it, as impl does
    assert I.logical_divide(A, T) == I.parse("((2,2),8):((2,1),4)")


def test_F121_blocked_product_rank_one_leaf_and_tuple(cute):
    assert str(I.blocked_product("4:1", "(3):(1)")) == "((4,3)):((1,4))"
    assert I.blocked_product("4:1", "(3):(1)") == S.blocked_product("4:1", "(3):(1)")
    assert I.blocked_product("(4):(1)", "3:1") == I.parse("((4,3)):((1,4))")
    assert cute[2:] == ["((_4,(_3))):((_1,(_4)))", "((_4,_3)):((_1,_4))"]
