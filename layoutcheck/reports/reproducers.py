"""Upstream-ready reports and standalone reproducers (``layoutcheck report``).

A *case* is (oracle, op, args): a finding's ``repro`` field in ``layoutcheck/findings.toml``
(``{ oracle, op, args }``, an array when several) or a failure of a fuzz report.  For a case:

- the *expected* answer is layoutcheck's executable spec, in CuTe's reading for every
  oracle but impl (the reference the fuzz gate uses);
- the *actual* answer is the oracle's, run here;
- the *claims* are what a correct answer must satisfy, with numbers computed by the spec
  (brute force over the layouts' domains): where the spec answers, the answer itself (its
  size and its values i -> E(i) for the ops graded by layout function, its text for the
  others, the defining equation for the inverses); where the spec refuses (the input is
  outside the op's precondition), the op's defining property that no answer can meet
  (composition: R(i) = A(B(i)) for i < size(B); a left inverse of a layout that is not
  injective: the quasi-inverse L(R(L(i))) = L(i) CuTe documents; a divide: size(A) and its tile A(B(i)); a
  product: size(A) size(B), its first mode A and its second comp(B(j)); a complement:
  (A, R) a bijection onto an interval);
- the *reproducer* checks the claims with the implementation alone (``repro_code.py``)
  and exits 1 while the bug is present, 0 once every claim holds.  A fix that makes the
  implementation refuse the input shows as a failed compile (a static_assert) or an abort
  instead: read its message.
"""

import hashlib
import importlib
import importlib.metadata as md
import json
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import layoutcheck.reports.repro_code as repro_code
from layoutcheck import spec
from layoutcheck.deadline import TimedOut, run_bounded
from layoutcheck.errors import LayoutError
from layoutcheck.findings import base_oracle
from layoutcheck.layout import LayoutBase, leaves, size
from layoutcheck.oracles import OPS, REQUIRED, get_oracle, parse_args
from layoutcheck.oracles.compare import answer_values
from layoutcheck.oracles.cpp.toolchain import Toolchain, compile_timeout
from layoutcheck.oracles.fetch import RUNTIME_PATH_SINCE, DslTarget, resolve, script_environment
from layoutcheck.oracles.known import CHECK, explain
from layoutcheck.oracles.nvlabs.oracle import locate
from layoutcheck.oracles.protocol import ANSWERS, Outcome, format_arg
from layoutcheck.oracles.versions import version_key

__all__ = ["Case", "cases_of_finding", "case_from_report", "study", "render", "build_and_run",
           "run_reproducer", "reproducer", "repro_verdict", "runtime_unsupported", "VERDICTS",
           "BUG_STATUSES"]

BUG_STATUSES = ("confirmed-bug", "upstream-reported")
DIVIDES = ("logical_divide", "zipped_divide", "tiled_divide", "flat_divide")
PRODUCTS = ("logical_product", "zipped_product", "tiled_product")
BY_FUNCTION = ("composition", "complement", *DIVIDES, *PRODUCTS, "blocked_product",
               "raked_product", "layout_left", "values")


@dataclass(frozen=True)
class Case:
    oracle: str
    op: str
    texts: tuple

    @property
    def args(self):
        return parse_args(self.op, list(self.texts))

    @property
    def kinds(self):
        return OPS[self.op][:len(self.texts)]

    def text(self):
        return f"{self.op}({', '.join(self.texts)})"


def cases_of_finding(finding):
    """The finding's ``repro`` cases; LayoutError when it has none."""
    rep = finding.get("repro")
    if not rep:
        raise LayoutError(f"{finding['id']} has no repro field (a structured case) to build "
                          "a report from")
    return [Case(r["oracle"], r["op"], tuple(r["args"])) for r in (rep if isinstance(rep, list) else [rep])]


def case_from_report(report, check, oracle=None):
    """The counterexample of ``check`` (on ``oracle``) in a fuzz report (a dict)."""
    rows = [r for r in report.get("results", []) if isinstance(r, dict) and r.get("check") == check
            and r.get("counterexample") and (oracle is None or r.get("oracle") == oracle)]
    if not rows:
        raise LayoutError(f"the report has no counterexample for check {check!r}"
                          + (f" on {oracle}" if oracle else ""))
    r = rows[0]
    op, args = r["op"], [str(a) for a in r["counterexample"]]
    lo = sum(1 for k in OPS.get(op, ()) if not k.endswith("?"))
    if op not in OPS or not lo <= len(args) <= len(OPS[op]):
        raise LayoutError(f"check {check}'s counterexample ({len(args)} inputs) is not a case of "
                          f"{op}; a reproducer needs a differential check's inputs")
    return Case(r["oracle"], op, tuple(args)), r


# --- what the spec says -------------------------------------------------------------------

def _spec_layout(L):
    return spec.Layout(L.shape, L.stride)


def _table(L):
    return [int(x) for x in spec.values(_spec_layout(L))]


def _extended(L, x):
    """L at an index past its size, as CuTe evaluates it (the last mode is unbounded)."""
    shape, stride = leaves(L.shape), leaves(L.stride)
    total = 0
    for k, (s, d) in enumerate(zip(shape, stride)):
        c = x if k == len(shape) - 1 else x % int(s)
        x //= int(s)
        total += c * int(d)
    return total


def reference(case):
    spec = get_oracle("spec", sense=None if case.oracle in ("spec", "impl") else "cute")
    return spec.run(case.op, *case.args)


def claims(case, expected):
    """The claims a correct answer meets (see the module docstring)."""
    op, args = case.op, case.args
    if expected.kind == "ok":
        return _answer_claims(op, args, expected.value)
    return _property_claims(op, args)


def _answer_claims(op, args, E):
    if ANSWERS.get(op) == "composed_offset":  # a slice is judged by S(i) + offset
        return [dict(kind="offset_values", table=[int(v) + int(E[1]) for v in answer_values(E[0])],
                     why="C at the slice's points, by the spec")]
    if op == "right_inverse":
        return [dict(kind="right_inverse", L=_table(args[0])),
                dict(kind="size", value=size(E), why="size of the spec's right inverse")]
    if op == "left_inverse":
        return [dict(kind="left_inverse", L=_table(args[0]))]
    if op == "values":
        return [dict(kind="values", table=list(E), why="L(i) by the spec")]
    if isinstance(E, LayoutBase) and (op in BY_FUNCTION or REQUIRED.get(op) in ("function", "coalesced")):
        return [dict(kind="size", value=size(E), why="size of the spec's answer"),
                dict(kind="values", table=_table(E), why=f"the spec's answer {E}")]
    text = _plain(format_arg(E))
    out = [dict(kind="text", value=text, why="the spec's answer")]
    if isinstance(E, LayoutBase):
        out.append(dict(kind="values", table=_table(E), why=f"the spec's answer {E}"))
    return out


def _plain(text):
    return text.replace("_", "").replace(" ", "")


def _property_claims(op, args):
    A = args[0]
    B = args[1] if len(args) > 1 else None
    if isinstance(B, int) and op != "complement":  # an integer tiler n is the layout n:1
        B = LayoutBase(B, 1)
    if op == "composition" and isinstance(B, LayoutBase):
        truth = [_extended(A, b) for b in _table(B)]
        return [dict(kind="size", value=size(B), why="size(B)"),
                dict(kind="values", table=truth, why="A(B(i))")]
    if op in DIVIDES and isinstance(B, LayoutBase):
        truth = [_extended(A, b) for b in _table(B)]
        return [dict(kind="size", value=size(A), why="size(A): a divide rearranges A"),
                dict(kind="values", table=truth, why="the tile A(B(i))")]
    if op in PRODUCTS + ("blocked_product", "raked_product") and isinstance(B, LayoutBase):
        out = [dict(kind="size", value=size(A) * size(B), why="size(A) size(B)")]
        if op in PRODUCTS:
            cos = max(_table(B)) + 1
            comp = spec.complement(_spec_layout(A), size(A) * cos, sense="cute")
            pairs = [(size(A) * j, _extended(LayoutBase(comp.shape, comp.stride), b))
                     for j, b in enumerate(_table(B))]
            out += [dict(kind="values", table=_table(A), why="the first mode is A"),
                    dict(kind="points", pairs=pairs, why=f"the second mode comp(B(j)), comp = {comp}")]
        return out
    if op == "layout_swizzle_composition":  # composition(L, Sw)(x) = L(Sw(x))
        truth = [_extended(A, spec.swizzle_apply(B, x)) for x in range(size(A))]
        return [dict(kind="size", value=size(A), why="size(L)"),
                dict(kind="values", table=truth, why="L(Sw(i))")]
    if op == "complement":
        return [dict(kind="compact", A=_table(A))]
    if op == "left_inverse":  # not injective: CuTe documents a quasi-inverse
        return [dict(kind="quasi_inverse", L=_table(A))]
    if op == "right_inverse":
        return [dict(kind="right_inverse", L=_table(A))]
    if op == "composed_right_inverse":  # C(R(i)) == i, with C's values by the spec
        return [dict(kind="right_inverse", L=[int(v) for v in spec.composed_values(A)])]
    raise LayoutError(f"no reproducer check for {op} outside its precondition (the spec refuses "
                      "it and layoutcheck knows no defining property to test instead)")


# --- one case, studied ----------------------------------------------------------------------

def study(case, cute_include=None):
    """{case, expected, actual, claims, evidence, implementation}: everything a report
    shows.  ``actual`` runs the oracle here (None when it is unavailable, with why)."""
    expected = reference(case)
    try:
        cl = claims(case, expected)
    except LayoutError:
        # outside the precondition, with no defining property to test: a Python reproducer
        # asserts the refusal itself (any answer is the bug); CuTe C++ has no refusal to test
        if expected.kind != "raised" or base_oracle(case.oracle) == "cute-cpp":
            raise
        cl = []
    options = {"include_dir": cute_include} if case.oracle == "cute-cpp" and cute_include else {}
    oracle = get_oracle(case.oracle, **options)
    why = oracle.unavailable_reason()
    actual = None if why else oracle.run(case.op, *case.args)
    describe = getattr(oracle, "describe", None)
    impl = (describe() if callable(describe) and not why else None) or why or _where(case.oracle)
    return dict(case=case, expected=expected, actual=actual, claims=cl, implementation=impl,
                unavailable=why, evidence=_evidence(case, actual, cl))


def _where(oracle):
    """What a Python oracle without ``describe()`` loaded: its module file and, for pycute,
    the version of the wheel it comes from."""
    name = oracle.split(":", 1)[1].split("@")[0] if oracle.startswith("module:") else oracle
    try:
        mod = importlib.import_module(name)
        version = f"nvidia-cutlass {md.version('nvidia-cutlass')}, " if name == "pycute" else ""
        return f"{name} ({version}{getattr(mod, '__file__', '?')})"
    except Exception:  # noqa: BLE001 - a description only
        return oracle


def _evidence(case, actual, cl):
    """Rows (i, expected, CuTe's) where a value claim and the actual layout differ (first 16),
    with the layout evaluated by the spec."""
    rows = []
    R = actual.value if actual is not None and actual.kind == "ok" else None
    if case.op == "values" and R is not None:
        got = list(R)
    elif isinstance(R, LayoutBase):
        got = None
    else:
        return rows
    for c in cl:
        pairs = list(enumerate(c["table"])) if c["kind"] == "values" else \
            (c["pairs"] if c["kind"] == "points" else [])
        for i, want in pairs:
            have = got[i] if got is not None and i < len(got) else (_extended(R, i) if got is None else None)
            rows.append((i, want, have, c.get("why", "")))
    differ = [r for r in rows if r[1] != r[2]]
    return differ  # no differing value: the claims that fail (a size, a refusal) are the evidence


# --- the report -----------------------------------------------------------------------------

def _header(title, versions, case, flavour):
    lines = [title, "", f"case: {case.text()}", f"oracle: {case.oracle}"]
    lines += [f"seen on: {v}" for v in versions]
    if flavour == "cpp":
        lines += ["", "build and run (exit 1: the bug is present; 0: every check holds):",
                  "  " + repro_code.cpp_command(), "$INC holds cute/ and cutlass/, $CUDA is the CUDA toolkit "
                  "(its include/ and include/cccl/)", "Generated by layoutcheck (layoutcheck report)."]
    else:
        lines += ["", "run: python3 repro.py (exit 1: the bug is present; 0: every check holds)",
                  "Generated by layoutcheck (layoutcheck report)."]
    return lines


def reproducer(case, cl, title, versions, expect_answer=True):
    """(file name, source text) of the case's standalone reproducer."""
    if base_oracle(case.oracle) == "cute-cpp":
        return "repro.cpp", repro_code.cpp_source(case, cl, _header(title, versions, case, "cpp"))
    flavour = {"pycute": "pycute", "nvlabs": "nvlabs", "cute-dsl": "cute-dsl"}.get(base_oracle(case.oracle))
    if flavour is None and case.oracle.startswith("nvlabs"):
        flavour = "nvlabs"
    if flavour is None:
        raise LayoutError(f"no reproducer for oracle {case.oracle} (cute-cpp, pycute, nvlabs, cute-dsl)")
    return "repro.py", repro_code.python_source(case, cl, _header(title, versions, case, "py"), flavour,
                                                expect_answer)


def _outcome_text(o):
    if o is None:
        return "not run here"
    if o.kind == "ok":
        v = o.value
        return "[" + " ".join(map(str, v)) + "]" if isinstance(v, tuple) and all(
            isinstance(x, int) for x in v) and v else format_arg(v)
    return f"{o.kind}: {o.message}"


def render(meta, studies, fmt="text"):
    """The report: ``meta`` = {id, title, status, seen_on, upstream, kind}; ``studies`` from
    ``study`` with their reproducer (name, text) under "reproducer"."""
    if fmt == "json":
        return json.dumps(dict(meta, cases=[_as_json(s) for s in studies]), indent=1)
    md = fmt == "markdown"
    h = (lambda t: f"## {t}") if md else (lambda t: f"{t}\n" + "-" * len(t))
    code = (lambda lang, t: f"```{lang}\n{t.rstrip()}\n```") if md else (lambda lang, t: t.rstrip())
    out = [f"# {meta['id']}: {meta['title']}" if md else f"{meta['id']}: {meta['title']}", ""]
    for key in ("kind", "status"):
        if meta.get(key):
            out.append(f"- {key}: {meta[key]}")
    for v in meta.get("seen_on") or []:
        out.append(f"- seen on: {v}")
    for key, word in (("introduced_in", "introduced in"), ("fixed_in", "fixed in")):
        if meta.get(key):
            out.append(f"- {word}: {meta[key]}")
    for impl, v in (meta.get("versions") or {}).items():
        out.append(f"- {impl} versions: {lifespan_text(v)}")
    if meta.get("evidence"):
        out.append(f"- evidence: {meta['evidence']}")
    for u in meta.get("upstream") or []:
        out.append(f"- upstream: {u}")
    for s in studies:
        case = s["case"]
        out += ["", h(f"Case: {case.text()} on {case.oracle}"), "",
                f"Implementation here: {s['implementation']}", "",
                "Integers written `_N` are static (CuTe's `Int<N>{}`), plain `N` runtime `int`s.", "",
                f"Expected (layoutcheck's executable spec, brute force): {_outcome_text(s['expected'])}",
                f"Actual: {_outcome_text(s['actual'])}", "", "What a correct answer satisfies:"]
        out += [f"- {_claim_text(c)}" for c in s["claims"]]
        if s["evidence"]:
            out += ["", "Evidence (index, expected, the implementation's answer evaluated there):", ""]
            bad = s["evidence"][:16]
            if md:
                out += ["| i | expected | actual | claim |", "|---|---|---|---|"]
                out += [f"| {i} | {w} | {g} | {why} |" for i, w, g, why in bad]
            else:
                out += [f"  i={i}: expected {w}, actual {g} ({why})" for i, w, g, why in bad]
        elif s["actual"] is not None and s["actual"].kind == "ok":
            out += ["", "Evidence: no value differs where the answer is defined; the claim it "
                    "breaks is above (its size, or a refusal the spec makes)."]
        name, text = s["reproducer"]
        out += ["", h(f"Standalone reproducer ({name})"), ""]
        if name.endswith(".cpp"):
            out += ["Build and run (exit 1 while the bug is present, 0 once fixed):", "",
                    code("sh", repro_code.cpp_command()), ""]
        else:
            out += ["Run: `python3 repro.py` (exit 1 while the bug is present, 0 once fixed)", ""]
        out += [code("cpp" if name.endswith(".cpp") else "python", text)]
    return "\n".join(out) + "\n"


_WORDS = {"P": "present", "A": "absent (agrees with the spec)", "D": "a different wrong answer",
          "?": "cannot tell"}


def lifespan_text(v):
    """One implementation's row of the version matrix in words: ``absent (agrees with the spec) on
    3.3.0.0 to 3.8.0.0, present on 3.9.0 to main; not fixed as of main``."""
    runs = []
    for version, status in zip(v["tested"], v["statuses"]):
        if runs and runs[-1][0] == status:
            runs[-1][2] = version
        else:
            runs.append([status, version, version])
    text = ", ".join(f"{_WORDS.get(s, s)} on {a}" + (f" to {b}" if b != a else "") for s, a, b in runs)
    if v.get("fixed_in"):
        return f"{text}; fixed in {v['fixed_in']}"
    return text + (f"; not fixed as of {v['tested'][-1]} (the newest tested)" if v["statuses"][-1:] == "P" else "")


def _claim_text(c):
    k = c["kind"]
    if k == "size":
        return f"size = {c['value']} ({c['why']})"
    if k == "values":
        t = c["table"]
        return f"R(i) for i < {len(t)}: {' '.join(map(str, t[:24]))}{' ...' if len(t) > 24 else ''} ({c['why']})"
    if k == "points":
        return f"R at {len(c['pairs'])} points: " + ", ".join(f"R({i}) = {v}" for i, v in c["pairs"][:8]) + f" ({c['why']})"
    if k == "text":
        return f"the answer is {c['value']} ({c['why']}; static marks ignored)"
    if k == "left_inverse":
        return "R(L(i)) = i for every i < size(L) (a left inverse)"
    if k == "right_inverse":
        return "L(R(i)) = i for every i < size(R) (a right inverse)"
    if k == "quasi_inverse":
        return "L(R(L(i))) = L(i) for every i < size(L) (CuTe's documented quasi-inverse)"
    if k == "compact":
        return "(A, R) is a bijection onto [0, size(A) size(R)) (a complement)"
    return k


def _as_json(s):
    case = s["case"]
    return dict(oracle=case.oracle, op=case.op, args=list(case.texts),
                implementation=s["implementation"], expected=_outcome_text(s["expected"]),
                actual=_outcome_text(s["actual"]), claims=s["claims"],
                evidence=[list(r) for r in s["evidence"]], reproducer=dict(zip(("name", "text"), s["reproducer"])))


# --- building and running a reproducer here -----------------------------------------------

def run_reproducer(case, name, text, cute_include=None, timeout=None):
    """``build_and_run`` with what the case's oracle needs: NVlabs PyCuTe's folder; for another
    release (``cute-cpp@3.8``, ``pycute@3.5``, ``cute-dsl@4.4.0``) its headers, or its Python
    package ahead of the environment's (``oracles/fetch.script_environment``)."""
    extra, python, env = (), None, None
    if case.oracle == "nvlabs" or case.oracle.startswith("nvlabs:"):
        pkg, how = locate(case.oracle.split(":", 1)[1] if ":" in case.oracle else None)
        if pkg is None:
            raise LayoutError(f"cannot run the reproducer: {how}")
        extra = (str(pkg.parent),)
    elif base_oracle(case.oracle) != case.oracle:
        if name.endswith(".cpp"):
            cute_include = str(resolve(case.oracle).include_dir)
        else:
            python, env = script_environment(case.oracle)
    return build_and_run(name, text, cute_include=cute_include, python=python, extra_args=extra,
                         timeout=timeout, env=env)


VERDICTS = {"present": 1, "absent": 0, "cannot tell": 2}


def runtime_unsupported(case) -> str | None:
    """Why a DSL release cannot run the reproducer of ``case`` (runtime integers before the DSL
    4.5, docs/versions.md), else None."""
    if base_oracle(case.oracle) != "cute-dsl" or case.oracle == "cute-dsl" or \
            not repro_code.dsl_runtime_case(case):
        return None
    target = resolve(case.oracle)
    if not isinstance(target, DslTarget) or \
            version_key(target.version) >= version_key(RUNTIME_PATH_SINCE):
        return None
    return (f"nvidia-cutlass-dsl {target.version} cannot run runtime integers (the runtime path "
            f"needs nvidia-cutlass-dsl {RUNTIME_PATH_SINCE} or later)")


def repro_verdict(s, rc, out):
    """(verdict, why) of a reproducer's run for the study ``s``: ``present``, ``absent`` (it
    agrees with the spec; where the spec refuses, a refusal by CuTe at compile time or an
    abort counts as agreeing) or ``cannot tell`` (the toolchain failed otherwise, or a script
    ended without its verdict line).  A process killed by a signal is present only for a
    finding whose symptom is that death (the case is in its region, ``oracles/known.py``)."""
    refuses = s["expected"].kind == "raised"
    case = s["case"]
    why = runtime_unsupported(case)
    if why:
        return "cannot tell", why
    if out.startswith("could not build") or rc == 2:
        return "cannot tell", "the reproducer could not be built or run here"
    if out.startswith("does not compile"):
        return ("absent", "CuTe refuses it at compile time, as the spec does") if refuses else \
            ("present", "CuTe refuses at compile time an input the spec accepts")
    if rc > 128 or "killed by signal" in out:
        if not case.oracle.startswith(("pycute", "cute-dsl", "nvlabs")) and refuses:
            return "absent", "it aborts on an input the spec refuses"
        hit = explain(case.oracle, case.op, CHECK, case.args, Outcome.crashed("killed"), s["expected"])
        if hit is not None:
            return "present", "the process dies, as the finding says"
        return ("present", "it aborts on an input the spec accepts") if not case.oracle.startswith(
            ("pycute", "cute-dsl", "nvlabs")) else ("cannot tell", "the process was killed")
    if rc == 1 and (s["reproducer"][0].endswith(".cpp") or "BUG PRESENT" in out):
        return "present", "a check of the reproducer fails"
    if rc == 0:
        return "absent", "every check of the reproducer holds"
    return "cannot tell", f"the reproducer exited {rc} without its verdict"



def _cute_rejects(stderr):
    """A compile error that is CuTe's rejection of the case: a static assertion, or the
    first error inside CuTe's headers (a substitution failure in cute/...)."""
    first = next((ln for ln in stderr.splitlines() if "error:" in ln), "")
    return "static assertion failed" in stderr or "/cute/" in first.split("error:")[0]


def build_and_run(name, text, cute_include=None, python=None, extra_args=(), timeout=None, env=None):
    """(exit status, output) of the reproducer: a C++ file compiled with the one g++ line
    (cached by source hash and include tree) and run; a Python script run with ``python`` (a
    list: the interpreter and its options) and ``env`` (variables to set).  Each step has
    ``timeout`` seconds (default ``LAYOUTCHECK_CPP_COMPILE_TIMEOUT``) and ends at the run's
    deadline; one cut there is exit 2 ("could not be run to its end here")."""
    timeout = compile_timeout() if timeout is None else timeout
    if name.endswith(".py"):
        with tempfile.TemporaryDirectory(prefix="lc-repro-") as tmp:
            path = Path(tmp) / name
            path.write_text(text)
            argv = list(python) if isinstance(python, (list, tuple)) else [python or sys.executable]
            proc = _bounded([*argv, str(path), *extra_args], timeout, "the reproducer",
                            env=dict(os.environ, **(env or {})))
            if isinstance(proc, str):
                return 2, proc
            tail = "" if proc.returncode >= 0 else f"killed by signal {-proc.returncode}\n"
            return (proc.returncode if proc.returncode >= 0 else 128 - proc.returncode), \
                proc.stdout + proc.stderr + tail
    tc = Toolchain(cute_include)
    why = tc.unavailable_reason()
    if why:
        raise LayoutError(f"cannot build the C++ reproducer: {why}")
    folder = tc.folder / "repro"
    folder.mkdir(exist_ok=True)
    key = hashlib.sha256(text.encode()).hexdigest()[:24]
    binary, failed = folder / f"{key}.bin", folder / f"{key}.err"
    if not binary.is_file() and not failed.is_file():
        with tempfile.TemporaryDirectory(dir=folder) as tmp:
            src = Path(tmp) / name
            src.write_text(text)
            cmd = [tc.cxx, "-std=c++17", "-Wno-deprecated-declarations", f"-I{tc.include_dir}",
                   f"-I{tc.cuda}/include", f"-I{tc.cuda}/include/cccl", str(src), "-o", str(Path(tmp) / "a.out")]
            proc = _bounded(cmd, timeout, "building the reproducer", env=dict(os.environ, LC_ALL="C"))
            if isinstance(proc, str):
                return 2, proc
            if proc.returncode == 0:
                os.replace(Path(tmp) / "a.out", binary)
            elif _cute_rejects(proc.stderr):  # CuTe's own rejection: the result, cached
                (Path(tmp) / "err").write_text(proc.stderr)
                os.replace(Path(tmp) / "err", failed)
            else:  # not CuTe's rejection (a missing header, a broken compiler): not cached
                first = next((ln for ln in proc.stderr.splitlines() if "error" in ln),
                             proc.stderr.strip()[:300])
                return 2, f"could not build the reproducer (not a rejection by CuTe): {first}"
    if failed.is_file():
        err = failed.read_text()
        first = next((ln for ln in err.splitlines() if "error:" in ln), err.strip()[:300])
        return 1, f"does not compile: {first}"
    proc = _bounded([str(binary)], timeout, "the reproducer")
    if isinstance(proc, str):
        return 2, proc
    tail = "" if proc.returncode >= 0 else f"killed by signal {-proc.returncode}\n"
    return (proc.returncode if proc.returncode >= 0 else 128 - proc.returncode), proc.stdout + tail


def _bounded(cmd, timeout, what, **kw):
    """``run_bounded``'s ``CompletedProcess``, or a line saying why there is none (it ran
    past its limit, or cannot start): the reproducer then could not be run here."""
    try:
        return run_bounded(cmd, timeout, what, **kw)
    except TimedOut as e:
        return f"{e} (not run to its end here)"
    except OSError as e:
        return f"{what} cannot start: {e.strerror or e}"

