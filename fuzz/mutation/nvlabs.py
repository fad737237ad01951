"""Mutation table of NVIDIA's new PyCuTe: does the gate catch bugs planted in NVlabs' code?

Each mutant is a one-place text replacement in a copy of the NVlabs PyCuTe snapshot that
``$LAYOUTCHECK_NVLABS_PATH`` names (the folder holding ``pycute/``; ``--nvlabs PATH`` names
another): the folder is copied into a temporary directory, the patch applied to the copy, and
``layoutcheck fuzz --against nvlabs:COPY --budget 20 --seed 1 --no-db --fail-fast`` runs in a
subprocess, every check, as a user's CI would.  NV00 is the unpatched copy: it must come out
clean.  A mutant is *caught* when the run exits 1 on a new failure whose case the unpatched
snapshot passes (the case replayed on both, in-process), or fails only as a known finding (the
mutant's failure there being new, its answer is another); when the shrunk case is not the
mutant's own, the case as first found is judged the same way (shrinking can slip onto a bug the
snapshot has too).  The time to catch is the campaign's time to its first new failure.

The mutants were written from NVlabs' code without looking at the checks: the algebra
(coalesce, composition, complement and its extension, the divides and products, the inverses,
nullspace, recast), the coordinates (idx2crd, crd2idx, evaluation, slicing), the tuple helpers,
the ordered layouts, swizzles and F2 strides, and NVlabs' own ``layout_add`` and
``greatest_common_domain``.  ``APART`` lists the mutants the gate cannot observe by design, with
the reason; they are run and shown, and not counted in the catch rate.

    python -m layoutcheck.fuzz.mutation.nvlabs [--budget 20] [--seed 1] [--only NV01,NV07]
        [--nvlabs PATH] [--json FILE]

prints a markdown table (mutant, operation, bug, caught, time to catch, failing check).
``--against-baseline`` runs each mutant with ``--baseline nvlabs:SNAPSHOT`` instead (the
unpatched snapshot; ``fuzz/campaign/baseline.py``): caught when the run exits 1, a regression or
a change against the snapshot, attributable to the patch by construction.
"""

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

from layoutcheck.fuzz.campaign.replay import replay_cases
from layoutcheck.fuzz.mutation.tables import patch, row, run_gate, table
from layoutcheck.oracles.nvlabs.oracle import locate

from layoutcheck.errors import LayoutError

# (id, file under pycute/, old text, new text, operation, the bug in words)
MUTANTS = [
    ('NV01', 'stride.py',
     '      if (s_a * d_a == d_b                                # Linearity at (0, 1)',
     '      if (d_a * s_b == d_b                                # Linearity at (0, 1)',
     'coalesce', "merge test multiplies the previous stride by the NEXT mode's size (s_b) instead of its own (s_a)"),
    ('NV02', 'stride.py',
     '      if (s_a * d_a == d_b                                # Linearity at (0, 1)',
     '      if (d_a != 0 and s_a * d_a == d_b                   # Linearity at (0, 1)',
     'coalesce', 'stride-0 modes are never merged: coalesce((2,3):(0,0)) stays (2,3):(0,0) instead of 6:0 (not minimal)'),
    ('NV03', 'stride.py',
     '      s_a, d_a = result_s[-1], result_d[-1]',
     '      s_a, d_a = result_s[0], result_d[0]',
     'coalesce', "merge test compares with the FIRST accumulated mode instead of the last; (2,3,4):(1,5,2) merges mode 2 into mode 1's place -> (2,8):(1,5), a different function"),
    ('NV04', 'layout.py',
     '      return make_layout(a._coalesce(p) for a,p in zip_longest(self,profile))',
     '      return make_layout(a._coalesce(p) for a,p in zip(self,profile))',
     'coalesce', 'by-mode coalesce with a profile shorter than the layout drops the modes the profile does not name (zip instead of zip_longest)'),
    ('NV05', 'layout.py',
     '    if len(new_s) > 1 and new_s[-1] == 1:',
     '    if len(new_s) >= 1 and new_s[-1] == 1:',
     'coalesce', 'a layout of size 1 coalesces to the empty layout ():() instead of 1:d (pycute: 1:7, CuTe 1:0)'),
    ('NV06', 'layout.py',
     '      return Layout._set(B.shape, A(B.stride))',
     '      return Layout._set(B.shape, B.stride)',
     'composition', "a size-1 B = 1:M composes to 1:M (B's stride, not mapped through A) instead of 1:A(M); function-preserving (a size-1 layout only takes the value 0), visible in the representation only"),
    ('NV07', 'layout.py',
     "        elif qSD < B.shape - 1:                  # It reaches past this mode's extent",
     "        elif qSD < B.shape:                      # It reaches past this mode's extent",
     'composition', 'stride divisibility check off by one: refuses valid compositions such as (6,2):(1,7) o 2:4 = 2:4'),
    ('NV08', 'layout.py',
     '        result_s[-1], rES = divmod(result_s[-1], result_s[i])',
     '        result_s[-1], rES = divmod(result_s[-1], result_s[0])',
     'composition', "the 'keep' loop always divides by the first mode's size instead of mode i"),
    ('NV09', 'layout.py',
     '      if rank(self) < len(B): raise ValueError(f"Rank mismatch: composition({self}, {B})")',
     '      pass',
     'composition', 'by-mode composition with a tiler of higher rank than A is accepted (zip silently drops the extra tiler modes)'),
    ('NV10', 'layout.py',
     '        if rES != 0:',
     '        if rES < 0:',
     'composition', 'shape divisibility condition never raises'),
    ('NV11', 'layout.py',
     '      result_s.append(d // result_d[-1])',
     '      result_s.append((d + result_d[-1] - 1) // result_d[-1])',
     'complement', 'gap of a non-divisible stride chain rounded UP instead of down'),
    ('NV12', 'layout.py',
     '      if is_static(d) and is_static(result_d[-1]) and d < result_d[-1]:',
     '      if is_static(d) and is_static(result_d[-1]) and d * s < result_d[-1]:',
     'complement', 'injectivity check tests the END of the mode (d*s) instead of its start'),
    ('NV13', 'layout.py',
     '    result = transform_leaf(lambda c,rs,rd: Layout._set(tuple(rs+[1]), tuple(rd))._coalesce_z(), coprof, result_S, result_D)',
     '    result = transform_leaf(lambda c,rs,rd: Layout._set(tuple(rs), tuple(rd))._coalesce_z(), coprof, result_S, result_D)',
     'complement', "the trailing size-1 mode carrying the complement's end stride is forgotten, so the end stride is lost and extend/logical_divide use stride 1 for the rest"),
    ('NV14', 'layout.py',
     '          shapeR[i] = (s + sizeC - 1) // sizeC',
     '          shapeR[i] = s // sizeC',
     'complement / logical_divide', 'extend rounds DOWN instead of up'),
    ('NV15', 'layout.py',
     '          sizeC     = (s + sizeC - 1) // s',
     '          sizeC     = (s + sizeC) // s',
     'complement / logical_divide', 'off-by-one in the leaf-by-leaf carry of the extension over a multi-mode shape(A)'),
    ('NV16', 'algebra.py',
     '  return logical_divide(A, tiler_to_layout(B), mode=mode)',
     '  return logical_divide(A, B, mode=mode)',
     'zipped_divide', 'zipped_divide forgets to promote a tuple tiler, so it divides by-mode'),
    ('NV17', 'algebra.py',
     '  if is_int(B):\n    B = Layout._set(B, 1)\n  if is_layout(B):\n    return composition(A, make_layout([B, complement(B, extend=shape(A))]))',
     '  if is_int(B):\n    B = Layout._set(B, 0)\n  if is_layout(B):\n    return composition(A, make_layout([B, complement(B, extend=shape(A))]))',
     'logical_divide', 'wrong default stride: an integer tiler n becomes n:0 instead of n:1 in logical_divide'),
    ('NV18', 'layout.py',
     '  if is_int(tiler):\n    return Layout._set(tiler, e)',
     '  if is_int(tiler) or tiler is None:\n    return Layout._set(1 if tiler is None else tiler, e)',
     'zipped_divide / tiler_to_layout', 'a `_` (None) tiler leaf is promoted to 1:e (a tile of size 1) instead of raising (or keeping the whole mode)'),
    ('NV19', 'algebra.py',
     '  if rank(A) != rank(B):\n    raise ValueError(f"Rank mismatch: blocked_product({A}, {B})")',
     '  if rank(A) > rank(B):\n    raise ValueError(f"Rank mismatch: blocked_product({A}, {B})")',
     'blocked_product', "rank check relaxed: rank(A) < rank(B) is accepted and zip drops B's extra grid modes (result too small)"),
    ('NV20', 'algebra.py',
     '    return make_layout(logical_product(a,b) for a,b in zip_longest(A,B))',
     '    return make_layout(logical_product(a,b) for a,b in zip(A,B))',
     'logical_product', "by-mode logical_product with a tiler tuple shorter than A drops A's unnamed modes (zip instead of zip_longest)"),
    ('NV21', 'algebra.py',
     '  return make_layout(make_layout([x,y]) for x,y in zip(result[1], result[0]))',
     '  return make_layout(make_layout([x,y]) for x,y in zip(result[0], result[1]))',
     'raked_product', 'raked_product copy-pasted from blocked_product'),
    ('NV22', 'layout.py',
     '        if residue + residue != 0 or (s - 1) * residue >= curr_d:',
     '        if residue + residue > 0 or (s - 1) * residue >= curr_d:',
     'right_inverse', 'chain test only rejects strides BELOW the running extent; a stride past it (a hole) continues the chain'),
    ('NV23', 'layout.py',
     '          stride += inner_product(idx2crd(residue, result_s), result_d)',
     '          stride += residue',
     'right_inverse (F2)', 'F2 right inverse'),
    ('NV24', 'layout.py',
     '      result_d.append(pps)',
     '      result_d.append(d)',
     'left_inverse', 'left_inverse records the codomain stride d instead of the domain prefix product'),
    ('NV25', 'layout.py',
     '                       unwrap(tuple(pshape[i] for i in iseq)))',
     '                       unwrap(prefix_product(tuple(fshape[i] for i in iseq))))',
     'nullspace', 'nullspace strides are compact within the nullspace instead of domain indices'),
    ('NV26', 'layout.py',
     '      return Layout._set(-(-shape // n), stride)',
     '      return Layout._set(shape // n, stride)',
     'recast (upcast)', "unit-stride mode's new extent rounded DOWN: recast(6:1, 4) = 1:1 instead of 2:1"),
    ('NV27', 'layout.py',
     '    if not (rdn == 0 or rnd == 0):',
     '    if not (rdn == 0 or rnd == 0 or shape == 1):',
     'recast', 'divisibility precondition skipped for size-1 modes: recast((1,4):(6,1), 4) answers instead of raising'),
    ('NV28', 'layout.py',
     '    if dd == 0:\n      return Layout._set(shape, stride)',
     '    if dd == 0:\n      return Layout._set(-(-shape // n), stride)',
     'recast (upcast)', "stride-0 mode's extent is divided by the scale like a unit-stride mode"),
    ('NV29', 'algebra.py',
     '  if size(G) != size(A):',
     '  if size(G) > size(A):',
     'layout_add', 'missing precondition'),
    ('NV30', 'algebra.py',
     '        pA = pB = lcm_pab * gcd_rab',
     '        pA = pB = lcm_pab',
     'greatest_common_domain', 'running prefix not advanced by the common factor'),
    ('NV31', 'shape.py',
     '        yield idx                        # Avoid mod on last shape',
     '        yield idx % flatten(shape)[-1]   # Avoid mod on last shape',
     'idx2crd / layout evaluation', 'the last leaf wraps an out-of-bounds index instead of absorbing the excess'),
    ('NV32', 'shape.py',
     '      if len(idx) != len(shape): raise ValueError(f"Incompatible rank: idx2crd({idx}, {shape})")',
     '      pass',
     'idx2crd / layout evaluation', 'a coordinate whose rank does not match the shape is accepted (zip truncates)'),
    ('NV33', 'shape.py',
     '  return inner_product(crd, prefix_product(transform_leaf(lambda c,s: size(s), crd, shape)))',
     '  return inner_product(crd, prefix_product(transform_leaf(lambda c,s: s, crd, shape)))',
     'crd2idx', 'crd2idx uses the sub-shape itself instead of its size where the coordinate has an integer over a nested mode'),
    ('NV34', 'shape.py',
     '        for s in flatten(shape)[:-1]:\n          idx,rem = divmod(idx,s)        # (idx // s, idx % s)',
     '        for s in flatten(shape)[-2::-1]:\n          idx,rem = divmod(idx,s)        # (idx // s, idx % s)',
     'idx2crd / layout evaluation', 'the leading extents are peeled in reverse order; identical for 2 leaves, wrong from 3 leaves on'),
    ('NV35', 'shape.py',
     '  return inner_product(crd, prefix_product(transform_leaf(lambda c,s: size(s), crd, shape)))',
     '  return inner_product(transform_leaf(lambda c: 1 if c is None else c, crd), prefix_product(transform_leaf(lambda c,s: size(s), crd, shape)))',
     'crd2idx', 'a None (_) in the coordinate is read as 1 instead of 0 (no crash, wrong index)'),
    ('NV36', 'layout.py',
     '    crd = crd[0] if len(crd) == 1 else crd',
     '    crd = crd[0] if len(crd) >= 1 else crd',
     'layout evaluation (eval_coord)', 'varargs coordinate L(i, j) keeps only its first component'),
    ('NV37', 'htuple.py',
     '  return make(b for a,b in zip_leaves(htuple,B) if a is None)',
     '  return make(b for a,b in zip_leaves(htuple,B) if not a)',
     'slice_ / slice_and_offset', 'truthiness bug'),
    ('NV38', 'htuple.py',
     '  return make(b for a,b in zip_leaves(htuple,B) if a is None)',
     '  return make(leaves(B)) if htuple is None else make(b for a,b in zip_leaves(htuple,B) if a is None)',
     'slice_ / slice_and_offset', 'slicing at a bare _ flattens the layout: ((2,3),4) -> (2,3,4) (CuTe: the layout itself; pycute: wrapped)'),
    ('NV39', 'htuple.py',
     '    return len(a) == len(b) and all(congruent(i,j) for i,j in zip(a,b))',
     '    return all(congruent(i,j) for i,j in zip(a,b))',
     'congruent', 'congruence ignores the rank: congruent((1,1,1),(1,1)) is True'),
    ('NV40', 'htuple.py',
     '  return tuple(product(x) for x in s)',
     '  return tuple(product(x) for x in leaves(s))',
     'product_each', 'product_each iterates over the leaves instead of the top-level modes: product_each(((2,3),4)) = (2,3,4)'),
    ('NV41', 'stride.py',
     '    return unflatten(iter([init]+[init:=init*v for v in leaves(a)]), a)',
     '    return unflatten(iter([init]+[init:=v for v in leaves(a)]), a)',
     'prefix_product / default strides', 'prefix product does not accumulate (init = v instead of init*v); same for 2 leaves, wrong from the 3rd'),
    ('NV42', 'shape.py',
     '    return len(a) == len(b) and reduce(operator.and_, [compatible(i,j) for i,j in zip(a,b)], True)',
     '    return reduce(operator.and_, [compatible(i,j) for i,j in zip(a,b)], True)',
     'compatible', 'compatibility ignores the rank of tuple modes: compatible((2,3),(2,3,5)) is True'),
    ('NV43', 'layout.py',
     '    result_d[i] = current\n    current    *= s\n\n  return Layout._set(_shape, unflatten(iter(result_d), _shape))',
     '    result_d[i] = current\n    current     = s\n\n  return Layout._set(_shape, unflatten(iter(result_d), _shape))',
     'make_ordered_layout', 'running stride not accumulated (current = s)'),
    ('NV44', 'layout.py',
     '    result_d[i] = current\n    current    *= s\n\n  return Layout._set(layout.shape, unflatten(iter(result_d), layout.shape))',
     '    result_d[i] = current\n    current     = s\n\n  return Layout._set(layout.shape, unflatten(iter(result_d), layout.shape))',
     'make_layout_like', 'running stride not accumulated (current = s) in make_layout_like: wrong from the 3rd non-zero mode'),
    ('NV45', 'swizzle.py',
     '    return offset ^ shiftr(offset & self.yyy_msk, self.shift)',
     '    return (offset & 0xFFFF) ^ shiftr(offset & self.yyy_msk, self.shift)',
     'swizzle_apply', 'the swizzled offset is truncated to 16 bits: every offset >= 2^16 loses its high bits'),
    ('NV46', 'swizzle.py',
     '    self.yyy_msk = bit_msk << (base + max(0,shift))',
     '    self.yyy_msk = (bit_msk << (base + max(0,shift))) & 0xFFF',
     'swizzle_apply', 'YYY mask kept in 12 bits'),
    ('NV47', 'swizzle.py',
     '    while v != 0:\n      if v & 1: r ^= c',
     '    while v != 0 and c < (1 << 13):\n      if v & 1: r ^= c',
     'F2 strides (f2_values)', 'carry-less product stops once the shifted operand reaches 2^13'),
    ('NV48', 'swizzle.py',
     '    if shift < 0 and abs(shift) < bits: raise ValueError(f"Swizzle({bits}, {base}, {shift})")',
     '    if shift < 0 and abs(shift) < bits - 1: raise ValueError(f"Swizzle({bits}, {base}, {shift})")',
     'Swizzle construction', 'off-by-one precondition: overlapping Swizzle(3, 0, -2) (|S| < B) is accepted and is no bijection'),
    ('NV49', 'swizzle.py',
     '    if bits < 0: raise ValueError(f"Swizzle({bits}, {base}, {shift})")',
     '    if bits <= 0: raise ValueError(f"Swizzle({bits}, {base}, {shift})")',
     'Swizzle construction', 'the identity swizzle Swizzle(0, M, S) is refused'),
    ('NV50', 'swizzle.py',
     '    while v != 0:\n      if v & 1: r ^= c',
     '    while v != 0:\n      if v & 1: r |= c',
     'F2 strides (f2_values)', 'carry-less product accumulates with OR instead of XOR: 3 * F2(3) = F2(7) instead of F2(5)'),]

# Mutants that no check can observe by design (run and shown, not counted), with the reason.
APART = {
    "NV23": "right_inverse of a layout with F2 (XOR) strides: F2 layouts are NVlabs' own (no CuTe "
            "implementation has them), and the gate hands them only to f2_values",
    "NV36": "the varargs call L(i, j) is a Python spelling of L((i, j)); the gate's eval_coord passes "
            "one coordinate, as CuTe's layout(coord) takes it",
    "NV48": "Swizzle(3, 0, -2) (|S| < B) is what CuTe's static_assert refuses: the gate's Swizzle "
            "value refuses it when it is made, so no oracle is ever handed one",
}


def snapshot(path=None) -> Path:
    """The folder holding the unpatched ``pycute/`` (``path``, else ``$LAYOUTCHECK_NVLABS_PATH``)."""
    pkg, how = locate(path)
    if pkg is None:
        raise LayoutError(how)
    return Path(pkg).parent


def make_mutant(root, mutant, source) -> Path:
    """Copy the snapshot ``source`` into root/<id> and apply the patch; return the copy."""
    mid, fname, old, new = mutant[:4]
    dst = Path(root) / mid.lower()
    shutil.copytree(source, dst, ignore=shutil.ignore_patterns("__pycache__", ".git"))
    if fname:
        patch(dst / "pycute" / fname, old, new, mid)
    return dst


def run_one(root, mutant, budget, seed, source, extra=()) -> dict:
    copy = make_mutant(root, mutant, source)
    env = dict(os.environ)
    env.pop("LAYOUTCHECK_NVLABS_PATH", None)  # the copy is named explicitly
    # the gate runs in ``root`` and names the copy by its folder there: the campaign seeds its
    # draws with the oracle's name, so a name with the random temporary path in it would draw
    # other cases on every run, whatever --seed says
    run = run_gate(["--against", f"nvlabs:{copy.name}", "--budget", str(budget), "--seed", str(seed),
                    "--no-db", "--fail-fast", *extra], Path(root) / f"{copy.name}.json", env, root)
    first = next((r for r in (run.report or {}).get("results", [])
                  if r["status"] in ("fail", "error") and not r["known_finding"]), None)
    ok = True
    if first and first.get("counterexample") and "--baseline" not in extra:  # with a baseline: by construction
        ok = attributable(first, f"nvlabs:{copy}", f"nvlabs:{source}")
    return row(mutant, run, ok)


def attributable(first, mutant_oracle, unpatched_oracle) -> bool:
    """The mutant's failure is its own: on its case the unpatched snapshot passes, or fails only
    as a known finding where the mutant's failure is new (the register tells their answers
    apart: the mutant changed the answer inside a known region).  The shrunk case is judged
    first; when it is not the mutant's own (shrinking can slip from the patch's bug onto one the
    snapshot has too), the case as first found is judged the same way."""
    cases = [first["counterexample"]]
    found = first.get("first_counterexample")
    if found and list(found) != list(first["counterexample"]):
        cases.append(found)
    return any(own_failure(first["check"], case, mutant_oracle, unpatched_oracle) for case in cases)


def own_failure(check: str, case, mutant_oracle: str, unpatched_oracle: str) -> bool:
    """``check`` on ``case``, replayed on the mutant and on the unpatched snapshot: the mutant
    fails it as a new failure, and the snapshot passes it or fails it only as a known finding
    with other answers (or one the register tells apart from the mutant's)."""
    rep = replay_cases([(check, mutant_oracle, case), (check, unpatched_oracle, case)],
                       [mutant_oracle, unpatched_oracle])
    mine, base = rep["results"]
    if mine["status"] not in ("fail", "error") or mine.get("known_finding"):
        return False
    if base["status"] in ("pass", "skipped"):
        return True
    # the snapshot fails it as a known finding and the mutant, on the same case, as a new one:
    # the register is answer-precise, so their answers differ where it looks (a law check's
    # recorded answers may not show the difference: it can lie in another operation it called)
    return base["status"] == "fail" and bool(base.get("known_finding"))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--budget", type=float, default=20.0, help="seconds per mutant (default 20)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--only", default=None, help="comma-separated mutant ids")
    p.add_argument("--nvlabs", default=None, metavar="PATH",
                   help="the folder holding NVlabs' pycute/ (default: $LAYOUTCHECK_NVLABS_PATH)")
    p.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    p.add_argument("--no-baseline", action="store_true", help="skip the unpatched copy NV00")
    p.add_argument("--against-baseline", action="store_true",
                   help="fuzz each mutant with --baseline nvlabs:SNAPSHOT (the unpatched one): caught "
                        "when it answers differently from the snapshot where one of them is wrong")
    a = p.parse_args(argv)
    try:
        source = snapshot(a.nvlabs)
    except LayoutError as e:
        print(f"mutation table: {e}", file=sys.stderr)
        return 2
    only = set(a.only.split(",")) if a.only else None
    chosen = [m for m in MUTANTS if not only or m[0] in only]
    if not a.no_baseline:
        chosen = [("NV00", None, "", "", "-", "none (unpatched copy: must pass)")] + chosen
    rows = []
    with tempfile.TemporaryDirectory(prefix="lc-nvlabs-mutants-") as root:
        for m in chosen:
            extra = ["--baseline", f"nvlabs:{source}"] if a.against_baseline else []
            r = run_one(root, m, a.budget, a.seed, source, extra)
            rows.append(r)
            print(f"{r['id']}: {'caught' if r['caught'] else 'NOT caught'} (exit {r['exit']}, "
                  f"{r['catch_s']} s, {r['check']}, {r['cases']} cases) {' '.join(r['stderr'])}",
                  file=sys.stderr, flush=True)
    print(table(rows, APART))
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
