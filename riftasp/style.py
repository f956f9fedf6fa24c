"""Colour for people at a terminal, and only there: table headers in bold, disagreements and new
findings in red, agreement and "nothing found" in green (crosscheck, fuzz).

Styled only when standard output is a terminal and NO_COLOR (https://no-color.org) is unset or
empty; output to a pipe, a file or a test has no escape codes, so goldens and scripts see plain
text. Style text last, after `present.printable` (which would escape the codes) and after
measuring its width."""

from __future__ import annotations

import os
import sys
from typing import TextIO

BOLD, RED, GREEN, RESET = "\x1b[1m", "\x1b[31m", "\x1b[32m", "\x1b[0m"


def colour(stream: TextIO | None = None) -> bool:
    """Whether to style text written to `stream` (standard output by default)."""
    if os.environ.get("NO_COLOR"):
        return False
    stream = sys.stdout if stream is None else stream
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


def bold(text: str, stream: TextIO | None = None) -> str:
    return f"{BOLD}{text}{RESET}" if text and colour(stream) else text


def red(text: str, stream: TextIO | None = None) -> str:
    return f"{RED}{text}{RESET}" if text and colour(stream) else text


def green(text: str, stream: TextIO | None = None) -> str:
    return f"{GREEN}{text}{RESET}" if text and colour(stream) else text
