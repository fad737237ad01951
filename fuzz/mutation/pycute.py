"""Mutation test of the harness: does ``layoutcheck fuzz`` catch realistic bugs it has never seen?

Each mutant is a one-place source patch of pycute (from the installed ``nvidia-cutlass``
wheel): the package is copied into a temporary directory as ``pycute_mNN``, the patch is
applied, and ``layoutcheck fuzz --against module:pycute_mNN@pycute --budget 20 --seed 1
--fail-fast`` runs in a subprocess with that directory on ``PYTHONPATH``: every check (no
``--ops`` hint), the copy named as a descendant of pycute so that pycute's registered
findings apply to it (DESIGN.md "Answer-precise findings"; a harness that does not know
the ``@LINEAGE`` suffix yet gets the plain ``module:pycute_mNN``).  A mutant is *caught*
when the run exits 1 (a new failure) on a counterexample that unpatched pycute passes; the
time to catch is the campaign's time to its first new failure.  ``pycute_m00`` is the
unpatched copy: it must come out clean, otherwise every mutant would look caught.
``--against-baseline pycute`` runs each mutant with ``--baseline pycute`` instead
(``fuzz/campaign/baseline.py``): caught when the run exits 1, a regression or a change against
the unpatched pycute (attributable by construction).

M01-M40 patch the algebra; M41-M95 the rest of pycute's API (IntTuple helpers,
coordinate maps, slicing, default strides, profile coalesce / filter, ``_`` tilers),
structure-only bugs (right function, broken post-condition) and bugs inside the regions of
known findings (F-070, F-071, F-073, F-075, F-076, F-171, F-172), which only an
answer-precise register tells apart from the known bug.

    python -m layoutcheck.fuzz.mutation.pycute [--budget 20] [--seed 1] [--only M01,M07] [--json FILE]

prints a markdown table (mutant, operation, bug, caught, time to catch, failing check).
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from layoutcheck.fuzz.campaign.replay import replay_cases
from layoutcheck.oracles import get_oracle

from layoutcheck.errors import LayoutError

# (id, file, old text, new text, operation, the bug in words)
MUTANTS = [
    ("M01", "layout.py", "elif result_shape[-1] * result_stride[-1] == stride:",
     "elif result_stride[-1] * shape == stride:", "coalesce", "wrong merge condition (s_{i+1} d_i == d_{i+1})"),
    ("M02", "layout.py", "    # skip their shape-1s\n    if shape == 1:\n      continue",
     "    # skip their shape-1s\n    if shape == 0:\n      continue", "coalesce", "size-1 modes not skipped"),
    ("M03", "layout.py", "      result_shape[-1] = result_shape[-1] * shape\n",
     "      result_shape[-1] = result_shape[-1] * shape\n      result_stride[-1] = stride\n",
     "coalesce", "merge overwrites the stride"),
    ("M04", "layout.py", "  result_shape  = [1]\n  result_stride = [0]\n  for (shape,stride) in zip(flatten(layout.shape),flatten(layout.stride)):\n    # skip their shape-1s",
     "  result_shape  = [1]\n  result_stride = [1]\n  for (shape,stride) in zip(flatten(layout.shape),flatten(layout.stride)):\n    # skip their shape-1s",
     "coalesce", "size-1 result gets stride 1 instead of 0"),
    ("M05", "layout.py", "    elif result_shape[-1] == 1:\n      result_shape[-1]  = shape\n      result_stride[-1] = stride",
     "    elif result_shape[-1] == 1 and len(result_shape) > 1:\n      result_shape[-1]  = shape\n      result_stride[-1] = stride",
     "coalesce", "leading size-1 placeholder not replaced"),
    ("M06", "layout.py", "    if not (shape == 1 or stride == 0):", "    if not (shape == 1):",
     "filter", "stride-0 modes kept"),
    ("M07", "layout.py", "  if len(result_shape) == 0:\n    return Layout(1,0)",
     "  if len(result_shape) == 0:\n    return Layout(1,1)", "filter", "empty result 1:1 instead of 1:0"),
    ("M08", "layout.py", "assert curr_shape % rest_stride == 0 or rest_stride % curr_shape == 0",
     "assert curr_shape % rest_stride == 0", "composition", "divisibility test too strict (one direction)"),
    ("M09", "layout.py", "new_shape = min(max(1, curr_shape // rest_stride), rest_shape)",
     "new_shape = min(curr_shape // rest_stride, rest_shape)", "composition", "missing max(1, ...) clamp"),
    ("M10", "layout.py", "rest_stride = -(-rest_stride // curr_shape)",
     "rest_stride = rest_stride // curr_shape", "composition", "floor instead of ceil division of the stride"),
    ("M11", "layout.py", "result_stride.append(rest_stride * curr_stride)",
     "result_stride.append(curr_stride)", "composition", "result stride not scaled by the rest stride"),
    ("M12", "layout.py", "result_stride.append(rest_stride * flatten(flat_A.stride)[-1])",
     "result_stride.append(rest_stride)", "composition", "last mode's stride ignores A's last stride"),
    ("M13", "layout.py", "    flat_A = coalesce(layoutA)", "    flat_A = layoutA",
     "composition", "A not coalesced first"),
    ("M14", "layout.py", "  if layoutB.stride == 0:\n    return Layout(layoutB.shape, 0)",
     "  if layoutB.shape == 1:\n    return Layout(layoutB.shape, 0)", "composition",
     "wrong special case (shape 1 instead of stride 0)"),
    ("M15", "layout.py",
     "    return make_layout(chain((composition(layoutA[i], layoutB[i]) for i in range(           0,len(layoutB))),\n                             (layoutA[i]                          for i in range(len(layoutB),len(layoutA)))))",
     "    return make_layout(chain((composition(layoutA[i], layoutB[i]) for i in range(           0,len(layoutB))),))",
     "composition", "by-mode composition drops A's untiled modes"),
    ("M16", "layout.py", "result_shape.append((max_idx + current_idx - 1) // current_idx)  # ceil_div",
     "result_shape.append(max_idx // current_idx)", "complement", "floor instead of ceil for the last mode"),
    ("M17", "layout.py", "result_shape.append((max_idx + current_idx - 1) // current_idx)  # ceil_div",
     "result_shape.append((max_idx + current_idx) // current_idx)", "complement", "off-by-one in the ceil"),
    ("M18", "layout.py", "    result_stride.append(current_idx)\n    current_idx = shape * stride",
     "    result_stride.append(current_idx)\n    current_idx = stride", "complement",
     "next index is d_i, not s_i d_i"),
    ("M19", "layout.py", "    result_shape.append(stride // current_idx)",
     "    result_shape.append((stride + current_idx - 1) // current_idx)", "complement",
     "ceil instead of exact division (equivalent on complementable input)"),
    ("M20", "layout.py", "sorted_DS = sorted(zip(flatten(layout.stride), flatten(layout.shape)))",
     "sorted_DS = list(zip(flatten(layout.stride), flatten(layout.shape)))", "complement",
     "modes not sorted by stride"),
    ("M21", "layout.py", "    if stride == 0 or shape == 1:\n      continue",
     "    if stride == 0:\n      continue", "complement", "size-1 modes not skipped"),
    ("M22", "layout.py", "  return coalesce(Layout(tuple(result_shape), tuple(result_stride)))\n\n\n# Layout right inverse",
     "  return Layout(tuple(result_shape), tuple(result_stride))\n\n\n# Layout right inverse",
     "complement", "result not coalesced (same function)"),
    ("M23", "layout.py", "    if current_idx != stride:\n      break",
     "    if current_idx > stride:\n      break", "right_inverse", "wrong stop condition (> instead of !=)"),
    ("M24", "layout.py", "    result_stride.append(rstride)", "    result_stride.append(stride)",
     "right_inverse", "uses the stride instead of the index prefix product"),
    ("M25", "int_tuple.py", "        r.append(prefix_product(v,init))\n        init = init * product(v)",
     "        init = init * product(v)\n        r.append(prefix_product(v,init))", "prefix_product",
     "inclusive instead of exclusive prefix product"),
    ("M26", "layout.py", "    if shape == 1:\n      continue\n    if current_idx != stride:",
     "    if current_idx != stride:", "right_inverse", "size-1 modes not skipped"),
    ("M27", "layout.py", "  return right_inverse(make_layout(layout, complement(layout)))",
     "  return right_inverse(layout)", "left_inverse", "complement not appended"),
    ("M28", "layout.py", "  return right_inverse(make_layout(layout, complement(layout)))",
     "  return right_inverse(make_layout(complement(layout), layout))", "left_inverse",
     "complement prepended instead of appended"),
    ("M29", "layout.py", "  return composition(layoutA, make_layout(layoutB, complement(layoutB, size(layoutA))))",
     "  return composition(layoutA, make_layout(layoutB, complement(layoutB, cosize(layoutA))))",
     "logical_divide", "complement up to cosize(A) instead of size(A)"),
    ("M30", "layout.py", "  return composition(layoutA, make_layout(layoutB, complement(layoutB, size(layoutA))))",
     "  return composition(layoutA, make_layout(complement(layoutB, size(layoutA)), layoutB))",
     "logical_divide", "tile and rest modes swapped"),
    ("M31", "layout.py", "complement(layoutA, size(layoutA)*cosize(layoutB))",
     "complement(layoutA, size(layoutA)*size(layoutB))", "logical_product",
     "complement bound uses size(B) instead of cosize(B)"),
    ("M32", "layout.py", "  return make_layout(layoutA, composition(complement(layoutA, size(layoutA)*cosize(layoutB)), layoutB));",
     "  return make_layout(composition(complement(layoutA, size(layoutA)*cosize(layoutB)), layoutB), layoutA);",
     "logical_product", "modes in the wrong order"),
    ("M33", "layout.py", "    return self(self.size() - 1) + 1", "    return self(self.size() - 1)",
     "cosize", "cosize off by one"),
    ("M34", "int_tuple.py",
     "      for i in range(len(shape)-1):\n        result += crd2idx(crd % product(shape[i]), shape[i], stride[i])\n        crd = crd // product(shape[i])\n      return result + crd2idx(crd, shape[-1], stride[-1])",
     "      for i in range(len(shape)-1, 0, -1):\n        result += crd2idx(crd % product(shape[i]), shape[i], stride[i])\n        crd = crd // product(shape[i])\n      return result + crd2idx(crd, shape[0], stride[0])",
     "evaluation", "index to coordinate in row-major instead of column-major order"),
    ("M35", "int_tuple.py", "    return reduce(lambda val,elem : val*product(elem), a, 1)",
     "    return reduce(lambda val,elem : val*(elem if is_int(elem) else 1), a, 1)", "size",
     "product not recursive (nested modes count as 1)"),
    ("M36", "int_tuple.py", "      return tuple(i for a in t for i in flatten(a))",
     "      return tuple(i for a in t for i in (a if is_tuple(a) else (a,)))", "flatten",
     "flattens one level only"),
    ("M37", "layout.py", "  return make_layout([result[0]] + [result[1][i] for i in range(len(result[1]))])\n\n\n# Apply logical product",
     "  return make_layout([result[0]] + [result[1][i] for i in range(len(result[1]) - 1)])\n\n\n# Apply logical product",
     "tiled_divide", "off-by-one drops the last rest mode"),
    ("M38", "layout.py", "    return make_layout(composition(layoutA, layoutB_i) for layoutB_i in layoutB)",
     "    return composition(layoutA, coalesce(layoutB))", "composition",
     "B's modes merged (same function, mode structure lost)"),
    ("M39", "layout.py", "  elif is_int(layoutB):\n    return logical_divide(layoutA, Layout(layoutB))\n  elif is_tuple(layoutB):\n    assert len(layoutA) >= len(layoutB)\n    return make_layout(chain((logical_divide(",
     "  elif is_int(layoutB):\n    return logical_divide(layoutA, Layout(layoutB, 2))\n  elif is_tuple(layoutB):\n    assert len(layoutA) >= len(layoutB)\n    return make_layout(chain((logical_divide(",
     "logical_divide", "int tiler n read as n:2"),
    ("M40", "layout.py", "    in_bound = current_idx <= shape * stride",
     "    in_bound = current_idx < shape * stride", "complement",
     "bound check off by one (only rejects non-complementable input: equivalent at the gate)"),
    # --- the API beyond the algebra, structure-only bugs, bugs inside known regions
    # --- IntTuple helpers (int_tuple.py) ---
    ("M41", "int_tuple.py", "    if len(t) == 0:\n      return ()\n", "    if len(t) == 0:\n      return (t,)\n",
     "flatten", "the empty tuple flattens to ((),)"),
    ("M42", "int_tuple.py", "    return reduce(lambda val,elem : val*product(elem), a, 1)",
     "    return reduce(lambda val,elem : val*product(elem), a[1:], product(a[0]))", "product",
     "product of a tuple seeded with its first entry (fails on ())"),
    ("M43", "int_tuple.py", "  if is_tuple(a):                      # tuple tuple\n    assert len(a) == len(b)\n",
     "  if is_tuple(a):                      # tuple tuple\n", "inner_product",
     "rank check dropped (zip truncates)"),
    ("M44", "int_tuple.py", "    assert not is_tuple(b)\n    return a * b", "    return a * b", "inner_product",
     "int times tuple accepted (returns a repeated tuple)"),
    ("M45", "int_tuple.py", "      return elem_scale(a, product(b))", "      return elem_scale(a, b[0])", "elem_scale",
     "int scaled by b's first entry instead of product(b)"),
    ("M46", "int_tuple.py", "    if is_tuple(b):                     # tuple tuple\n      assert len(a) == len(b)\n      return tuple(elem_scale(x,y)",
     "    if is_tuple(b):                     # tuple tuple\n      return tuple(elem_scale(x,y)", "elem_scale",
     "rank check dropped (zip truncates)"),
    ("M47", "int_tuple.py", "      return (a + b - 1) // b", "      return a // b", "shape_div",
     "floor instead of ceil division"),
    ("M48", "int_tuple.py", "        b = shape_div(b,product(v))", "        b = b // product(v)", "shape_div",
     "the fold divides b by floor (no weak-divisibility ceil)"),
    ("M49", "int_tuple.py", "      assert a % b == 0 or b % a == 0\n", "", "shape_div",
     "divisibility condition not checked"),
    ("M50", "int_tuple.py", "      return tuple(shape_div(x,y) for x,y in zip(a,b))",
     "      return tuple(shape_div(y,x) for x,y in zip(a,b))", "shape_div", "tuple/tuple arguments swapped"),
    ("M51", "int_tuple.py", "      return tuple(prefix_product(x,i) for x,i in zip(a,init))",
     "      return tuple(prefix_product(x) for x,i in zip(a,init))", "prefix_product",
     "a tuple init is ignored"),
    ("M52", "int_tuple.py", "        init = init * product(v)", "        init = init * (v if is_int(v) else 1)",
     "prefix_product", "nested modes count as 1 in the scan (default strides of nested shapes)"),
    ("M53", "int_tuple.py", "      r = []\n      for v in a:\n        r.append(prefix_product(v,init))\n        init = init * product(v)\n      return tuple(r)",
     "      r = []\n      for v in reversed(a):\n        r.append(prefix_product(v,init))\n        init = init * product(v)\n      return tuple(reversed(r))",
     "prefix_product", "default strides row-major (LayoutRight) instead of LayoutLeft"),
    ("M54", "int_tuple.py", "    if is_tuple(init):                 # \"int\" tuple\n      assert False           # Error",
     "    if is_tuple(init):                 # \"int\" tuple\n      return init", "prefix_product",
     "int shape with a tuple init accepted"),
    ("M55", "int_tuple.py", "      return (idx // stride) % shape", "      return (idx % shape) // stride", "idx2crd",
     "modulo before division"),
    ("M56", "int_tuple.py", "def idx2crd(idx, shape, stride=None):\n  if stride is None:\n    stride = prefix_product(shape)",
     "def idx2crd(idx, shape, stride=None):\n  if stride is None:\n    stride = prefix_product(flatten(shape))", "idx2crd",
     "default stride of the flattened shape (nesting lost)"),
    ("M57", "int_tuple.py", "      return (idx // stride) % shape", "      return idx // stride", "idx2crd",
     "no modulo: a coordinate entry overflows its mode"),
    ("M58", "int_tuple.py", "    if crd is None:\n      crd = 0\n", "", "crd2idx", "_ (None) not read as 0"),
    ("M59", "int_tuple.py", "        result += crd2idx(crd % product(shape[i]), shape[i], stride[i])",
     "        result += crd2idx(crd % shape[i], shape[i], stride[i])", "crd2idx",
     "int coordinate split by a nested mode's shape, not its size"),
    ("M60", "int_tuple.py", "      return result + crd2idx(crd, shape[-1], stride[-1])",
     "      return result + crd2idx(crd % product(shape[-1]), shape[-1], stride[-1])", "crd2idx",
     "last mode wraps (CuTe extends it past the end)"),
    ("M61", "int_tuple.py", "      return sum(crd2idx(c, s, d) for c, s, d in zip(crd, shape, stride))",
     "      return sum(crd2idx(c, s) for c, s, d in zip(crd, shape, stride))", "crd2idx",
     "strides dropped below the top level (hierarchical coordinates)"),
    ("M62", "int_tuple.py", "      return crd2idx(crd, src_shape)", "      return crd2idx(crd, dst_shape)", "crd2crd",
     "tuple to int through dst instead of src"),
    ("M63", "int_tuple.py", "      return idx2crd(crd, dst_shape)", "      return crd", "crd2crd",
     "int coordinate not converted into a tuple dst"),
    ("M64", "int_tuple.py", "    # match C++ behavior `return cute::tuple<B>{b};`\n    return (trg,)",
     "    # match C++ behavior `return cute::tuple<B>{b};`\n    return trg", "slice_",
     "a kept entry is spliced, not kept as one mode"),
    ("M65", "int_tuple.py", "  elif crd is None:\n    # match C++ behavior `return cute::tuple<B>{b};`\n    return (trg,)\n  else:\n    return ()",
     "  elif crd is not None:\n    # match C++ behavior `return cute::tuple<B>{b};`\n    return (trg,)\n  else:\n    return ()",
     "slice_", "inverted test: keeps the integer entries (a dice)"),
    ("M66", "int_tuple.py", "    return any(has_none(v) for v in a)", "    return any(v is None for v in a)", "slice_",
     "_ found only at the top level"),
    ("M67", "int_tuple.py", "      return tuple(crd2crd(x, y) for x, y in zip(crd,dst_shape))",
     "      return tuple(crd2crd(x, y, src_shape) for x, y in zip(crd,dst_shape))", "crd2crd",
     "recursion passes the whole src (F-172 answered differently)"),
    # --- layouts (layout.py) ---
    ("M68", "layout.py", "      if len(args) == 1:\n        return Layout(slice_(args[0], self.shape), slice_(args[0], self.stride))",
     "      if len(args) == 1:\n        return Layout(slice_(args[0], self.shape), slice_(args[0], self.shape))",
     "slice_", "stride sliced from the shape"),
    ("M69", "layout.py", "          crd2idx(crd, layout.shape, layout.stride))", "          crd2idx(crd, layout.shape))",
     "slice_and_offset", "offset with the default strides"),
    ("M70", "layout.py", "  return (Layout(slice_(crd, layout.shape), slice_(crd, layout.stride)),",
     "  return (Layout(slice_(crd, layout.stride), slice_(crd, layout.shape)),", "slice_and_offset",
     "shape and stride swapped in the slice"),
    ("M71", "layout.py", "      assert i == 0\n      return Layout(self.shape, self.stride)",
     "      assert i == 0\n      return Layout(self.shape)", "get_mode", "mode 0 of an integral layout loses its stride"),
    ("M72", "layout.py", "      return Layout(self.shape[i], self.stride[i])", "      return Layout(self.shape[i])",
     "get_mode", "a mode gets the default stride"),
    ("M73", "layout.py", "      return len(self.shape)\n    else:\n      return 1", "      return len(self.shape)\n    else:\n      return 0",
     "rank", "rank of an integral layout is 0"),
    ("M74", "layout.py", "      self.stride = prefix_product(self.shape)", "      self.stride = prefix_product(flatten(self.shape))",
     "layout_left", "default stride flattened (not congruent to a nested shape)"),
    ("M75", "layout.py", "    return make_layout(chain((coalesce(layout[i], profile[i]) for i in range(           0,len(profile))),",
     "    return make_layout(chain((coalesce(layout[i]) for i in range(           0,len(profile))),", "coalesce",
     "by-mode coalesce ignores the sub-profiles"),
    ("M76", "layout.py", "    return make_layout(chain((coalesce(layout[i], profile[i]) for i in range(           0,len(profile))),\n                             (layout[i]                       for i in range(len(profile),len(layout)))))",
     "    return make_layout(chain((coalesce(layout[i], profile[i]) for i in range(           0,len(profile))),))",
     "coalesce", "by-mode coalesce drops the modes past the profile"),
    ("M77", "layout.py", "    return make_layout(chain((filter(layout[i], profile[i]) for i in range(           0,len(profile))),",
     "    return make_layout(chain((coalesce(layout[i], profile[i]) for i in range(           0,len(profile))),", "filter",
     "by-mode filter only coalesces (stride-0 modes kept)"),
    ("M78", "layout.py", "                             (layout[i]                     for i in range(len(profile),len(layout)))))",
     "                             (filter(layout[i])             for i in range(len(profile),len(layout)))))",
     "filter", "by-mode filter also filters the modes past the profile"),
    ("M79", "layout.py", "def composition(layoutA, layoutB):\n  if layoutB is None:\n    return layoutA",
     "def composition(layoutA, layoutB):\n  if layoutB is None:\n    return make_layout(layoutA)", "composition",
     "a _ mode comes back wrapped as a rank-1 tuple (structure only)"),
    ("M80", "layout.py", "def logical_divide(layoutA, layoutB):\n  if layoutB is None:\n    return layoutA",
     "def logical_divide(layoutA, layoutB):\n  if layoutB is None:\n    return logical_divide(layoutA, size(layoutA))",
     "logical_divide", "a _ mode is divided by its whole size"),
    ("M81", "layout.py", "def logical_product(layoutA, layoutB):\n  if layoutB is None:\n    return layoutA",
     "def logical_product(layoutA, layoutB):\n  if layoutB is None:\n    return logical_product(layoutA, 1)",
     "logical_product", "a _ mode is multiplied by 1"),
    ("M82", "layout.py", "    return make_layout(Layout(1,0), layoutA)", "    return make_layout(layoutA, Layout(1,0))",
     "zipped_divide", "a _ mode unzipped as (mode, 1:0) (F-171 answered differently)"),
    ("M83", "layout.py", "    return make_layout(make_layout(       split[i][0] for i in range(           0,len(layoutB))),\n                       make_layout(chain((split[i][1] for i in range(           0,len(layoutB))),\n                                         (layoutA[i]  for i in range(len(layoutB),len(layoutA))))))",
     "    return make_layout(make_layout(       split[i][0] for i in range(           0,len(layoutB))),\n                       make_layout(chain((split[i][1] for i in range(           0,len(layoutB))),)))",
     "zipped_divide", "unzip drops the modes the tiler does not name"),
    ("M84", "layout.py", "  result = zipped_product(layoutA, layoutB)\n  return make_layout([result[0]] + [result[1][i] for i in range(len(result[1]))])",
     "  result = zipped_product(layoutA, layoutB)\n  return make_layout([result[0]] + [result[1][i] for i in range(len(result[1]) - 1)])",
     "tiled_product", "off-by-one drops the last rest mode"),
    ("M85", "layout.py", "      assert curr_shape % rest_stride == 0 or rest_stride % curr_shape == 0\n", "",
     "composition", "stride-divisibility assert removed (inside F-070's region)"),
    ("M86", "layout.py", "      rest_shape  = rest_shape // new_shape", "      rest_shape  = -(-rest_shape // new_shape)",
     "composition", "ceil of the rest shape (differs only inside F-071's region)"),
    ("M87", "layout.py", "  elif is_int(layoutB):\n    return logical_divide(layoutA, Layout(layoutB))\n  elif is_tuple(layoutB):\n    assert len(layoutA) >= len(layoutB)\n    return make_layout(chain((logical_product(",
     "  elif is_int(layoutB):\n    return make_layout(layoutA, Layout(layoutB))\n  elif is_tuple(layoutB):\n    assert len(layoutA) >= len(layoutB)\n    return make_layout(chain((logical_product(",
     "logical_product", "int tiler n gives (A, n:1) (inside F-076's region)"),
    ("M88", "layout.py", "    if current_idx != stride:\n      break", "    if current_idx != stride:\n      continue",
     "right_inverse", "skips instead of stopping (inside F-073's region)"),
    ("M89", "layout.py", "    result_shape.append(stride // current_idx)", "    result_shape.append(max(1, stride // current_idx))",
     "complement", "clamps a 0 gap to 1 (only non-complementable input, F-075's region)"),
    ("M90", "layout.py", "  elif is_tuple(layoutB.shape):\n    return make_layout(composition(layoutA, layoutB_i) for layoutB_i in layoutB)",
     "  elif is_tuple(layoutB.shape) and len(layoutB) == 1:\n    return composition(layoutA, layoutB[0])\n  elif is_tuple(layoutB.shape):\n    return make_layout(composition(layoutA, layoutB_i) for layoutB_i in layoutB)",
     "composition", "a rank-1 B gives an integral result (structure only)"),
    ("M91", "layout.py", "  return make_layout(layoutA, composition(complement(layoutA, size(layoutA)*cosize(layoutB)), layoutB));",
     "  return make_layout(coalesce(layoutA), composition(complement(layoutA, size(layoutA)*cosize(layoutB)), layoutB));",
     "logical_product", "mode 0 is coalesce(A), not A (structure only)"),
    ("M92", "layout.py", "  return composition(layoutA, make_layout(layoutB, complement(layoutB, size(layoutA))))",
     "  return coalesce(composition(layoutA, make_layout(layoutB, complement(layoutB, size(layoutA)))), (1,1))",
     "logical_divide", "tile and rest modes coalesced (structure only)"),
    ("M93", "layout.py", "  if len(result_shape) == 1:\n    return Layout(result_shape[0], result_stride[0])\n  else:\n    return Layout(tuple(result_shape), tuple(result_stride))\n\n\n# Layout filter",
     "  if len(result_shape) == 1:\n    return Layout((result_shape[0],), (result_stride[0],))\n  else:\n    return Layout(tuple(result_shape), tuple(result_stride))\n\n\n# Layout filter",
     "coalesce", "one mode printed (s):(d), not s:d (structure only)"),
    ("M94", "layout.py", "  return hier_unzip(logical_product, layoutA, layoutB)", "  return hier_unzip(logical_divide, layoutA, layoutB)",
     "zipped_product", "copy-paste: zipped_product unzips a divide"),
    ("M95", "layout.py", "      if len(args) == 1:\n        return crd2idx(args[0], self.shape, self.stride)",
     "      if len(args) == 1:\n        return crd2idx(args[0], self.shape)", "eval_coord",
     "L(c) ignores the strides (the colex index)"),
]


def _pycute_dir():
    import pycute
    return Path(pycute.__file__).parent


def make_mutant(root, mutant):
    """Copy pycute into root/pycute_<id> and apply the patch; return the package name."""
    mid, fname, old, new = mutant[:4]
    name = f"pycute_{mid.lower()}"
    dst = Path(root) / name
    shutil.copytree(_pycute_dir(), dst, ignore=shutil.ignore_patterns("__pycache__"))
    if fname:
        path = dst / fname
        text = path.read_text()
        count = text.count(old)
        if count != 1:
            raise SystemExit(f"mutant {mid}: the patched text occurs {count} times in {fname}")
        path.write_text(text.replace(old, new))
    return name


def oracle_name(module):
    """``module:NAME@pycute`` where the harness knows lineages, else ``module:NAME``."""

    try:
        get_oracle("module:pycute@pycute")
    except LayoutError:
        return f"module:{module}"
    return f"module:{module}@pycute"


def run_one(root, mutant, budget, seed, extra=()):
    name = make_mutant(root, mutant)
    report = Path(root) / f"{name}.json"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]))
    cmd = [sys.executable, "-m", "layoutcheck", "fuzz", "--against", oracle_name(name),
           "--budget", str(budget), "--seed", str(seed), "--no-db", "--fail-fast",
           "--report", str(report), *extra]
    t0 = time.monotonic()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=root)
    wall = time.monotonic() - t0
    try:
        rep = json.loads(report.read_text())
    except (OSError, ValueError):
        rep = None
    first = next((r for r in (rep or {}).get("results", [])
                  if r["status"] in ("fail", "error") and not r["known_finding"]), None)
    attributable = True
    if first and first["counterexample"] and "--baseline" not in extra:  # with a baseline: by construction
        attributable = _attributable(first, oracle_name(name))
    return {"id": mutant[0], "op": mutant[4], "bug": mutant[5], "exit": proc.returncode,
            "caught": proc.returncode == 1 and attributable, "baseline_fails": not attributable,
            "wall_s": round(wall, 1),
            "catch_s": (rep or {}).get("summary", {}).get("first_failure_s"),
            "check": first["check"] if first else None,
            "case": " ".join(first["counterexample"] or []) if first else None,
            "stderr": proc.stderr.strip().splitlines()[-1:] if proc.returncode == 2 else []}


def _attributable(first, mutant_oracle):
    """The mutant's failure is its own: on the same case unpatched pycute passes, or fails
    only as a known finding with answers different from the mutant's (the mutant changed the
    answer inside a known region).  Without a lineage-aware register the mutant's run also
    reports pycute's known bugs as new; the answer comparison keeps those out.  When the shrunk
    case is not the mutant's own (shrinking can slip from the patch's bug onto one pycute has
    too), the case as first found counts when unpatched pycute passes it."""
    base = replay_cases([(first["check"], "pycute", first["counterexample"])], ["pycute"])
    r = base["results"][0]
    if not base["summary"]["new_failures"]:
        if r["status"] == "pass":
            return True
        norm = {k.replace(mutant_oracle, "pycute"): v for k, v in (first.get("answers") or {}).items()}
        if norm != (r.get("answers") or {}):
            return True
    found = first.get("first_counterexample")
    if not found or list(found) == list(first["counterexample"]):
        return False
    again = replay_cases([(first["check"], "pycute", found)], ["pycute"])
    return again["results"][0]["status"] == "pass"


def table(rows):
    out = ["| mutant | operation | injected bug | caught | time to catch (s) | check | counterexample |",
           "|---|---|---|---|---|---|---|"]
    for r in rows:
        caught = "yes" if r["caught"] else ("error" if r.get("exit") == 2 else
                                            "no (case fails on the unpatched copy too)"
                                            if r.get("baseline_fails") else "no")
        bug = r["bug"].replace("|", "\\|")
        out.append(f"| {r['id']} | {r['op']} | {bug} | {caught} | "
                   f"{r['catch_s'] if r['catch_s'] is not None else '-'} | {r['check'] or '-'} | "
                   f"`{r['case']}` |" if r["case"] else
                   f"| {r['id']} | {r['op']} | {bug} | {caught} | - | - | - |")
    mutants = [r for r in rows if r["id"] != "M00"]
    n = sum(r["caught"] for r in mutants)
    out.append("")
    out.append(f"caught {n}/{len(mutants)} mutants ({100 * n / max(1, len(mutants)):.0f}%)")
    return "\n".join(out)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--budget", type=float, default=20.0, help="seconds per mutant (default 20)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--only", default=None, help="comma-separated mutant ids")
    p.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    p.add_argument("--no-baseline", action="store_true", help="skip the unpatched copy M00")
    p.add_argument("--against-baseline", metavar="ORACLE", default=None,
                   help="fuzz each mutant with --baseline ORACLE (e.g. pycute): caught when it "
                        "answers differently from the baseline where one of them is wrong")
    a = p.parse_args(argv)
    chosen = [m for m in MUTANTS if not a.only or m[0] in a.only.split(",")]
    if not a.no_baseline:
        chosen = [("M00", None, "", "", "-", "none (unpatched copy: must pass)")] + chosen
    rows = []
    with tempfile.TemporaryDirectory(prefix="lc-mutants-") as root:
        for m in chosen:
            r = run_one(root, m, a.budget, a.seed,
                        ("--baseline", a.against_baseline) if a.against_baseline else ())
            rows.append(r)
            print(f"{r['id']}: {'caught' if r['caught'] else 'NOT caught'} "
                  f"(exit {r['exit']}, {r['catch_s']} s, {r['check']}) {' '.join(r['stderr'])}",
                  file=sys.stderr, flush=True)
    print(table(rows))
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
