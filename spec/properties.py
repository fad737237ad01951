"""The properties that ``layoutcheck show`` reports, gathered in one place.

The fixed ones come from 2.1.2-2.1.5 (``spec/basic.py``).  Predicates that later parts of
the spec add (``is_coalesced``, ``is_complementable``, ``is_tractable``) and the coalesced
form (``coalesce``) are looked up on ``layoutcheck.spec`` at call time and included when
present, so this module needs no change when they land.
"""

import importlib

from layoutcheck.spec.layout import as_layout

from layoutcheck.errors import LayoutError

__all__ = ["layout_properties", "PROPERTY_NAMES", "OPTIONAL_PROPERTY_NAMES"]

# name shown -> function name on layoutcheck.spec
PROPERTY_NAMES = {
    "sorted": "is_sorted",                  # Def 2.1.3.25
    "column_major": "is_column_major",      # Def 2.1.2.6
    "row_major": "is_row_major",            # Def 2.1.2.6
    "non_degenerate": "is_non_degenerate",  # Def 2.1.2.27
    "injective": "is_injective",
    "compact": "is_compact",                # Def 2.1.5.1
    "surjective": "is_surjective",          # onto [0, cosize)
}
OPTIONAL_PROPERTY_NAMES = {
    "coalesced": "is_coalesced",            # Def 2.1.4.1 / 2.3
    "complementable": "is_complementable",  # Def 2.1.6.11 / 2.3
    "tractable": "is_tractable",            # 2.1.8 / 2.3
}


def layout_properties(L):
    """An ordered dict: property name -> bool, then ``coalesced_form`` -> str when available.

    Optional predicates are called with the layout alone; one that needs more arguments or
    refuses the layout (raises ``LayoutError``/``TypeError``) is left out.
    """
    spec = importlib.import_module("layoutcheck.spec")
    L = as_layout(L)
    out = {name: bool(getattr(spec, fn)(L)) for name, fn in PROPERTY_NAMES.items()}
    for name, fn in OPTIONAL_PROPERTY_NAMES.items():
        f = getattr(spec, fn, None)
        if f is None:
            continue
        try:
            out[name] = bool(f(L))
        except (LayoutError, TypeError):
            continue
    coalesce = getattr(spec, "coalesce", None)
    if coalesce is not None:
        try:
            out["coalesced_form"] = str(coalesce(L))
        except (LayoutError, TypeError):
            pass
    return out
