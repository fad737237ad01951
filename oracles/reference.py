"""The references an implementation is judged against: this package's own ``spec`` and
``impl`` as oracles, and, for every CuTe-family oracle, the spec in CuTe's sense.

``PackageOracle("spec" | "impl")`` calls ``layoutcheck.<name>.<op>`` on neutral arguments.
``reference_for(oracle_name, spec_oracle)`` is what a differential check compares
``oracle_name`` with: the spec (paper's sense) for spec and impl, the spec in CuTe's sense
(``SpecReference``) for every other oracle, with impl where the spec refuses to enumerate
(``SizeFallback``), behind an LRU (``MemoReference``: the spec is pure and its inputs
immutable).  ``cute_reference(op, *args)`` is that CuTe-sense answer as an Outcome.
"""

from __future__ import annotations

import inspect
from collections import OrderedDict
from functools import lru_cache
from types import ModuleType
from typing import Any, Callable, Hashable, Iterable, Mapping, Protocol
from weakref import WeakKeyDictionary

import layoutcheck.impl as impl
import layoutcheck.spec as spec
from layoutcheck.oracles.protocol import Argument, Case, Oracle, Outcome, describe_exception
from layoutcheck.oracles.pyapi import package_function
from layoutcheck.spec.limits import ENUMERATION_CONDITION

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase

__all__ = ["PackageOracle", "SpecReference", "SizeFallback", "MemoReference", "reference_for",
           "cute_reference", "case_key", "memo_stats", "MEMO_SIZE"]

PACKAGES: dict[str, ModuleType] = {"spec": spec, "impl": impl}


class Reference(Protocol):
    """What a differential check calls for the reference's answer (an ``Oracle``, or one of
    the wrappers below)."""

    name: str

    def unavailable_reason(self) -> str | None: ...

    def run(self, op: str, *args: Argument) -> Outcome: ...


class PackageOracle(Oracle):
    """``spec`` or ``impl``: call ``layoutcheck.<pkg>.<op>`` on the neutral arguments."""

    def __init__(self, name: str, sense: str | None = None) -> None:
        """``sense="cute"`` calls every function that has a ``sense`` parameter with it
        (the spec's CuTe reading of composition, complement, divide and product)."""
        if sense not in (None, "paper", "cute"):
            raise LayoutError(f"sense must be 'paper' or 'cute', got {sense!r}")
        if name not in PACKAGES:
            raise LayoutError(f"no package oracle {name!r}; known: {', '.join(PACKAGES)}")
        self.name = name
        self.sense = sense
        self._package = PACKAGES[name]
        self._module_name = f"layoutcheck.{name}"

    def _run_many(self, cases: list[tuple[str, tuple[Argument, ...]]]) -> list[Outcome]:
        return [self._one(self._package, op, args) for op, args in cases]

    def _one(self, mod: ModuleType, op: str, args: tuple[Argument, ...]) -> Outcome:
        fn = package_function(mod, op, args)
        if fn is None:
            return Outcome.unsupported(f"{self._module_name} has no {op}")
        kwargs = {}
        if self.sense and "sense" in _parameters(fn):
            kwargs["sense"] = self.sense
        try:
            result = fn(*args, **kwargs)
        except NotImplementedError as e:
            return Outcome.unsupported(f"{self._module_name}.{op}: {e}")
        except LayoutError as e:
            cond = f" [condition {e.condition}]" if e.condition else ""
            return Outcome.raised(f"{e}{cond}")
        except Exception as e:  # a bug in the package: report it, the comparison flags it
            return Outcome.raised(f"internal error: {describe_exception(e)}")
        if op == "values":
            return Outcome.ok(tuple(int(x) for x in result))
        return Outcome.ok(result)


def _parameters(fn: Callable[..., Any]) -> Mapping[str, inspect.Parameter]:
    try:
        return inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return {}


class SpecReference:
    """The spec as the reference for CuTe-family oracles: operations that take a ``sense``
    run with ``sense="cute"`` (CuTe's conventions where it differs from the paper, e.g. the
    N of complement rounded up, composition past A's size); the rest as the spec oracle."""

    name = "spec[cute]"

    def __init__(self, spec_oracle: Reference) -> None:
        self._spec = spec_oracle

    def unavailable_reason(self) -> str | None:
        return self._spec.unavailable_reason()

    def run(self, op: str, *args: Argument) -> Outcome:
        fn: Any = getattr(spec, op, None)  # the spec's function of that name, if any
        try:
            takes_sense = fn is not None and "sense" in inspect.signature(fn).parameters
        except (TypeError, ValueError):
            takes_sense = False
        if not takes_sense:
            return self._spec.run(op, *args)
        try:
            return Outcome.ok(fn(*args, sense="cute"))
        except LayoutError as e:
            cond = f" [condition {e.condition}]" if e.condition else ""
            return Outcome.raised(f"{e}{cond}")
        except NotImplementedError as e:
            return Outcome.unsupported(str(e))


def reference_for(oracle_name: str, spec_oracle: Reference, memo: bool = True) -> Reference:
    """The reference a differential check compares ``oracle_name`` with: the spec itself
    (paper's sense) for impl, the spec in CuTe's sense for every CuTe-family oracle;
    memoised (``MemoReference``) unless ``memo=False``."""
    ref = spec_oracle if oracle_name in ("spec", "impl") else SpecReference(spec_oracle)
    if spec_oracle is not None:
        ref = SizeFallback(ref, oracle_name, cute=isinstance(ref, SpecReference))
    return MemoReference(ref, spec_oracle) if memo and spec_oracle is not None else ref


class SizeFallback:
    """Where the spec refuses to enumerate an input this large (``condition
    enumeration_limit``, spec/limits.py), that refusal is no precondition: the reference is
    impl then (which never enumerates; its agreement with the spec is tested), as in
    ``layoutcheck op``.  For impl itself there is no independent reference: the case is
    unsupported (skipped), never judged against impl's own answer."""

    def __init__(self, ref: Reference, oracle_name: str, cute: bool) -> None:
        self._ref, self.name, self._oracle, self._cute = ref, ref.name, oracle_name, cute

    def unavailable_reason(self) -> str | None:
        return self._ref.unavailable_reason()

    def run(self, op: str, *args: Argument) -> Outcome:
        out = self._ref.run(op, *args)
        if out.kind != "raised" or f"[condition {ENUMERATION_CONDITION}]" not in (out.message or ""):
            return out
        if self._oracle in ("spec", "impl"):
            return Outcome.unsupported(f"too large for the spec to enumerate ({out.message}); "
                                       "impl has no other reference")
        return PackageOracle("impl", sense="cute" if self._cute else None).run(op, *args)

    def run_many(self, cases: Iterable[Case]) -> list[Outcome]:
        return [self.run(op, *args) for op, args in cases]


MEMO_SIZE = 8192


# spec oracle -> {reference name: LRU}; shared by every pair
_MEMOS: WeakKeyDictionary[object, dict[str, _LRU]] = WeakKeyDictionary()


def case_key(x: Any) -> Hashable:
    """A hashable key of a neutral argument that tells static from dynamic integers
    (``LayoutBase ==`` compares values only: ``_4:_1 == 4:1``)."""
    t = type(x)
    if t is int:
        return x
    if t is tuple:
        return tuple(map(case_key, x))
    if isinstance(x, LayoutBase):
        return ("L", case_key(x.shape), case_key(x.stride))
    if isinstance(x, C):
        return ("C", int(x))
    return (t.__name__, x)  # bool, `_`


class MemoReference:
    """The reference oracle behind an LRU keyed by (op, inputs): the spec is a pure function
    of immutable inputs, and hypothesis draws the same small cases again and again (a third
    of all cases in a 30 s run).  Only the reference is memoised, never the oracle under test.
    ``hits`` / ``misses`` are counted per reference."""

    def __init__(self, ref: Reference, owner: object) -> None:
        self._ref, self.name = ref, ref.name
        try:
            memos = _MEMOS.setdefault(owner, {})
        except TypeError:  # an owner that cannot be weakly referenced: a private memo
            memos = {}
        self._lru = memos.setdefault(ref.name, _LRU())

    def unavailable_reason(self) -> str | None:
        return self._ref.unavailable_reason()

    def run(self, op: str, *args: Argument) -> Outcome:
        lru = self._lru
        key = (op, case_key(args))
        try:
            out = lru.get(key)
        except TypeError:  # an argument that is not hashable: not memoised
            return self._ref.run(op, *args)
        if out is None:
            lru.misses += 1
            out = self._ref.run(op, *args)
            if out.kind != "crashed":  # a crash says nothing about the inputs
                lru.put(key, out)
        else:
            lru.hits += 1
        return out

    def run_many(self, cases: Iterable[Case]) -> list[Outcome]:
        return [self.run(op, *args) for op, args in cases]

    def stats(self) -> dict[str, int]:
        return {"hits": self._lru.hits, "misses": self._lru.misses}


class _LRU:
    def __init__(self, size: int = MEMO_SIZE) -> None:
        self.data: OrderedDict[Hashable, Outcome] = OrderedDict()
        self.size, self.hits, self.misses = size, 0, 0

    def get(self, key: Hashable) -> Outcome | None:
        out = self.data.get(key)
        if out is not None:
            self.data.move_to_end(key)
        return out

    def put(self, key: Hashable, value: Outcome) -> None:
        self.data[key] = value
        if len(self.data) > self.size:
            self.data.popitem(last=False)


def memo_stats(spec_oracle: object) -> dict[str, dict[str, int]]:
    """{reference name: {"hits", "misses"}} of the memos built over ``spec_oracle``."""
    try:
        memos = _MEMOS.get(spec_oracle, {})
    except TypeError:
        memos = {}
    return {name: {"hits": m.hits, "misses": m.misses} for name, m in memos.items()}


@lru_cache(maxsize=1)
def _cute_reference() -> Reference:
    return reference_for("cute-cpp", PackageOracle("spec"), memo=False)


def cute_reference(op: str, *args: Argument) -> Outcome:
    """The spec's answer in CuTe's sense (the fuzzer's reference for CuTe oracles) as an
    Outcome: the predicates that compare an implementation with CuTe's reading use it."""
    return _cute_reference().run(op, *args)
