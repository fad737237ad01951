"""cute-cpp's values of an all-static layout: read from the type ``lc::vals<L(0), ...>``
that the compiler names (``lc::static_values`` in prelude.hpp), the same ``L(i)`` that a
driver program computes at run time; a static pass that does not compile hands the case to a
driver, never answers it as CuTe's rejection.  Kernels are cached in $LAYOUTCHECK_CACHE."""

import layoutcheck.oracles.cpp.codegen as cpp_codegen
import layoutcheck.oracles.cpp.driver as cpp_driver
import pytest
from layoutcheck.oracles import get_oracle, parse_args

from layoutcheck import spec

ORACLE = get_oracle("cute-cpp")
needs_cpp = pytest.mark.skipif(bool(ORACLE.unavailable_reason()),
                               reason=str(ORACLE.unavailable_reason()))

LAYOUTS = ["(_2,(_3,_2)):(_3,(_1,_6))", "(_4,_8,_32):(_0,_7,_100)", "_1:_0",
           "((_2,_2),(_8,_4)):((_64,_1),(_2,_300))"]


def _cases(layouts):
    return [("values", parse_args("values", [L])) for L in layouts]


def _spec_values(args):
    return tuple(spec.values(spec.Layout(args[0].shape, args[0].stride)))


def test_static_values_kernel_text_no_compile():
    (op, args), = _cases(["(_2,_3):(_3,_1)"])
    k, values = cpp_codegen.kernel(op, args, ("layout",))
    assert k.static and values == [] and "lc::static_values(" in k.body
    assert cpp_codegen.driver_body(k).body.startswith("lc::values(cute::make_layout(")
    big = parse_args("values", ["(_64,_32):(_1,_64)"])  # 2048 > STATIC_VALUES_LIMIT: a driver
    assert not cpp_codegen.kernel("values", big, ("layout",))[0].static
    assert not cpp_codegen.kernel("values", parse_args("values", ["(2,_3):(3,_1)"]), ("layout",))[0].static
    assert cpp_codegen.parse_static_type("vals<0, 3, 1>") == (0, 3, 1)
    assert cpp_codegen.parse_static_type("lc::vals<>") == ()
    assert cpp_codegen.parse_static_type("vals<0, x>") is None


@needs_cpp
def test_static_values_come_from_the_type_and_agree_with_the_spec():
    o = get_oracle("cute-cpp")
    out = o.run_many(_cases(LAYOUTS))
    for (_, args), r in zip(_cases(LAYOUTS), out):
        assert r.kind == "ok" and r.value == _spec_values(args), (args, r)
    assert o.stats()["cases"]["static"] == len(LAYOUTS) and o.stats()["cases"]["driver"] == 0


@needs_cpp
@pytest.mark.slow
def test_a_static_pass_that_fails_sends_values_to_a_driver(monkeypatch):
    """Every static unit is made to fail: the values cases must still be answered, by drivers
    (with the driver's values), and none may be reported as a compile-time rejection."""
    o = get_oracle("cute-cpp")
    monkeypatch.setattr(o.library, "lookup", lambda keys, count=True: list(dict.fromkeys(keys)))
    monkeypatch.setattr(o.library, "_record", lambda rows: o.library.memo.update(rows))
    real = cpp_driver.Library._compile

    def compile_(self, source, static):
        if static:
            return False, "unit.cpp:4:1: error: '(1 / 0)' is not a constant expression\n", "unit.cpp"
        return real(self, source, static)

    monkeypatch.setattr(cpp_driver.Library, "_compile", compile_)
    out = o.run_many(_cases(LAYOUTS))
    for (_, args), r in zip(_cases(LAYOUTS), out):
        assert r.kind == "ok" and r.value == _spec_values(args), (args, r)
    assert o.stats()["cases"]["driver"] == len(LAYOUTS)


_ERR = """In file included from /x/lc_prelude.hpp:5:
/x/cute/layout.hpp: In instantiation of 'constexpr auto cute::f() [with T = int]':
/x/cute/layout.hpp:90:5:   required from 'constexpr auto cute::g()'
unit.cpp:11:20:   required from here
/x/cute/layout.hpp:100:5: error: static assertion failed: boom
unit.cpp: In function 'void k0()':
unit.cpp:5:9: warning: 'constexpr int lc::show() [with R = cute::C<3>; int <anonymous> = 0]' is deprecated: lc-static-answer [-Wdeprecated-declarations]
unit.cpp: In function 'void k1()':
unit.cpp:8:9: warning: 'constexpr int lc::show() [with R = cute::C<4>; int <anonymous> = 0]' is deprecated: lc-static-answer [-Wdeprecated-declarations]
unit.cpp: In function 'void k3()':
unit.cpp:14:9: warning: 'constexpr int lc::show() [with R = cute::C<5>; int <anonymous> = 0]' is deprecated: lc-static-answer [-Wdeprecated-declarations]
"""


def test_kernels_before_the_first_error_are_trusted_no_compile():
    """k0, k1 named their types before k2's error: trusted; k3 (after it) is not."""
    items = [(f"key{i}", None) for i in range(4)]
    spans = {f"key{i}": (4 + 3 * i, 6 + 3 * i) for i in range(4)}  # k2: lines 10..12
    blamed = cpp_driver.blame(_ERR, "unit.cpp", spans)
    assert list(blamed) == ["key2"] and "boom" in blamed["key2"][0]
    assert not cpp_driver._stray_errors(_ERR, "unit.cpp", spans)
    assert [k for k, _ in cpp_driver._before_first_error(items, blamed, _ERR, "unit.cpp", spans)] == ["key0", "key1"]
    stray = _ERR + "/x/cute/util.hpp: In function 'void cute::h()':\n" \
        "/x/cute/util.hpp:7:1: error: something no kernel required\n"
    assert cpp_driver._stray_errors(stray, "unit.cpp", spans)
    assert cpp_driver._before_first_error(items, blamed, stray, "unit.cpp", spans) == []
    unnamed = _ERR.replace("unit.cpp:8:9: warning", "unit.cpp:99:9: warning")  # k1 named none
    assert cpp_driver._before_first_error(items, blamed, unnamed, "unit.cpp", spans) == []
