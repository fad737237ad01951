"""A cute-cpp-aware case mix: what a generator should send to CuTe C++.

The fuzzer's strategies draw staticness per integer, so most drawn cases mix ``_N`` and
``N`` and each is a C++ type of its own: one compile per case (~50 ms of CPU).  Cases whose
integers are all runtime share kernels by nesting alone and run at thousands per second
once compiled; all-static cases cost one front-end pass (~30 ms) the first time and nothing
after.  ``CaseMix.apply(op, args)`` keeps a drawn case as it is when it is all-static or
all-dynamic, and otherwise keeps it mixed with probability ``mixed``, makes it all-static
with probability ``static`` (when that type is new to the library, else all-dynamic), and
all-dynamic otherwise.  The choice is a function of the case's text and ``seed`` (the same
run for the same seed).  Dropping staticness never loses a case kind the oracle cannot
reach: every mix still sends all three kinds.

The fuzz campaign applies it to every batch it draws for cute-cpp (``fuzz/campaign/pairs.py`` calls
``CuteCppOracle.case_mix``, which is ``campaign_mix`` here): ``$LAYOUTCHECK_CPP_MIX`` is
``MIXED,STATIC`` (default ``0.05,0.10``) or ``off`` (the cases exactly as the strategies
draw them).  Measured over the first batch of every check (118 checks, 7,552 cases, seed 7):
as drawn 26.8% all-static, 43.5% mixed, 29.6% all-dynamic; with the default mix 31.5%
all-static, 1.9% mixed, 66.5% all-dynamic.
"""

import hashlib
import os
from dataclasses import dataclass

from layoutcheck.oracles.protocol import format_arg

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase

__all__ = ["CaseMix", "retype", "staticness", "campaign_mix", "MIX_ENV"]

MIX_ENV = "LAYOUTCHECK_CPP_MIX"
DEFAULT_MIX = (0.05, 0.10)


def retype(x, static):
    """x with every integer static (``C``) or every integer a runtime int (``_`` kept)."""
    if isinstance(x, LayoutBase):
        return LayoutBase(retype(x.shape, static), retype(x.stride, static))
    if isinstance(x, tuple):
        return tuple(retype(e, static) for e in x)
    if isinstance(x, int) and not isinstance(x, bool):
        return C(int(x)) if static else int(x)
    return x


def staticness(args):
    """"static", "dynamic" or "mixed" (a case without integers is "static")."""
    kinds = set()

    def walk(x):
        if isinstance(x, LayoutBase):
            walk(x.shape)
            walk(x.stride)
        elif isinstance(x, tuple):
            for e in x:
                walk(e)
        elif isinstance(x, int) and not isinstance(x, bool):
            kinds.add(isinstance(x, C))
    walk(args)
    if kinds == {False}:
        return "dynamic"
    return "mixed" if len(kinds) == 2 else "static"


@dataclass
class CaseMix:
    """``oracle``: a CuteCppOracle (its ``is_new`` tells a new static type) or None."""
    oracle: object = None
    mixed: float = 0.05
    static: float = 0.10
    seed: int = 0

    def _draw(self, op, args):
        text = f"{self.seed}|{op}|" + "|".join(format_arg(a) for a in args)
        return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") / 2 ** 64

    def apply(self, op, args):
        args = tuple(args)
        if staticness(args) != "mixed":
            return args
        u = self._draw(op, args)
        if u < self.mixed:
            return args
        if u < self.mixed + self.static:
            static = retype(args, True)
            if self.oracle is None or self.oracle.is_new(op, static):
                return static
        return retype(args, False)


def mix_setting(text=None, env=MIX_ENV, default=DEFAULT_MIX):
    """(mixed, static) from ``$LAYOUTCHECK_CPP_MIX`` (or the variable ``env``, or ``text``),
    ``default`` when empty, or None for ``off``."""
    text = (os.environ.get(env, "") if text is None else text).strip().lower()
    if not text:
        return default
    if text in ("off", "none", "0"):
        return None
    example = ",".join(f"{x:g}" for x in default)
    try:
        mixed, static = (float(x) for x in text.split(","))
    except ValueError:
        raise LayoutError(f"{env}={text!r}: expected MIXED,STATIC (e.g. {example}) or off") from None
    if not (0 <= mixed <= 1 and 0 <= static <= 1 and mixed + static <= 1):
        raise LayoutError(f"{env}={text!r}: fractions in [0, 1] whose sum is at most 1")
    return mixed, static


def campaign_mix(op, cases, seed):
    """The cases of a drawn batch through ``CaseMix`` (``$LAYOUTCHECK_CPP_MIX``); the
    type-novelty filter is not used (a check's arguments need not be one op's)."""
    setting = mix_setting()
    if setting is None:
        return list(cases)
    mix = CaseMix(None, mixed=setting[0], static=setting[1], seed=seed)
    return [mix.apply(op, args) for args in cases]
