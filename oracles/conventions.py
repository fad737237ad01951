"""Declared conventions of each oracle: what an implementation does differently *on purpose*.

A convention is never reported as a bug and a bug is never filed as a convention: every
entry cites the implementation's own documentation or tests, and names the register entry
(kind ``convention``) that recognises the difference at the gate (DESIGN.md, "Post-conditions
and declared conventions").  One table per oracle, below.
"""

from dataclasses import dataclass

__all__ = ["Convention", "CONVENTIONS", "conventions_for"]


@dataclass(frozen=True)
class Convention:
    id: str          # short stable name, e.g. "drops-untiled-modes"
    ops: tuple       # the operations it concerns
    what: str        # what the implementation does, in one sentence
    cite: str        # where the implementation documents it (file/doc and the words' gist)
    finding: str     # the register entry (kind "convention") that recognises it


CONVENTIONS = {}


def conventions_for(oracle):
    """The declared conventions of ``oracle`` (a name; a ``module:NAME@LINEAGE`` oracle has
    its lineage's)."""
    name = oracle.rsplit("@", 1)[-1] if "@" in oracle else oracle
    return list(CONVENTIONS.get(name, ()))
