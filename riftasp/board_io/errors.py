"""How a reading failure is told: `BoardError`, one line `FILE: PATH: message`, and the
helpers every reading step uses to name a place and quote a value in it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..present import printable, shorten

SHORT_PART = 200  # characters of a PATH in an error line; FILE and message get four times that


class BoardError(Exception):
    """A board that cannot be read; str() is the one-line `FILE: PATH: message` (`FILE: message`
    when `where` is empty)."""

    def __init__(self, source: str, where: str, message: str) -> None:
        self.source, self.where, self.message = source, where, message
        # One line whatever the parts contain, control characters escaped and a long fact or
        # clingo message cut: callers print it as is.
        # An empty `where`: a problem of the file as a whole, `FILE: message`.
        parts = (shorten(source, 4 * SHORT_PART), shorten(where, SHORT_PART), shorten(message, 4 * SHORT_PART))
        super().__init__(printable(": ".join(part for i, part in enumerate(parts) if part or i != 1)))

    def __reduce__(self) -> tuple:
        # Rebuild from the parts (the default would call __init__ with the joined line).
        return (type(self), (self.source, self.where, self.message))


class Invalid(Exception):
    """A problem at a path inside the document; `BoardError` adds the file at the boundary."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(message)
        self.where = where or "top level"
        self.message = message


def key_path(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def item_path(path: str, index: int) -> str:
    return f"{path}[{index}]"


def text_position(text: str, index: int) -> str:
    """Where character `index` of `text` is, as an error line names it."""
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return f"line {line} column {column}"


def shown(value: Any) -> str:
    """A value quoted for a message; repr keeps control characters on one line, and a long
    value is cut (an id of a megabyte would otherwise fill the error line)."""
    if isinstance(value, str) and len(value) > SHORT_PART:
        return repr(value[:SHORT_PART]) + "…"
    return shorten(repr(value), SHORT_PART)


def joined(choices: Iterable[str]) -> str:
    """Names listed in a message: `a, b, c`."""
    return ", ".join(choices)
