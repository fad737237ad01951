"""The one exception type of layoutcheck."""

from __future__ import annotations

__all__ = ["LayoutError"]


class LayoutError(ValueError):
    """Bad input or a failed precondition.

    The message names the problem; for notation it also names the position (0-based
    character offset) in the text.  ``condition`` names the violated precondition
    predicate when an operation refuses its input (e.g. ``"is_complementable"``).
    """

    def __init__(self, message: str, *, position: int | None = None, text: str | None = None,
                 condition: str | None = None) -> None:
        self.position = position
        self.text = text
        self.condition = condition
        if position is not None:
            message = f"{message} at position {position}"
            if text is not None:
                message += f" in {text!r}"
        super().__init__(message)
