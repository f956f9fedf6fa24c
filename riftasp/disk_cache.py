"""Results worth keeping between processes, on disk, as JSON, under a key of everything they
were made from (riftasp/step_names.py: a ruleset's encoding with its step-local predicates
renamed costs ~0.3 s of clingo.ast walking to make and ~1 ms to read back).

The folder: $RIFTASP_CACHE, else $XDG_CACHE_HOME/riftasp, else ~/.cache/riftasp. A folder that
cannot be written, or an entry that cannot be read, only means making the result again: the
cache is never needed for an answer. RIFTASP_CACHE=off keeps nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def folder() -> Path | None:
    chosen = os.environ.get("RIFTASP_CACHE")
    if chosen == "off":
        return None
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "riftasp"


def key(*parts: bytes | str) -> str:
    digest = hashlib.sha256()
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "little") + data)
    return digest.hexdigest()[:32]


def cached(kind: str, entry: str, make: Callable[[], T], encode: Callable[[T], Any], decode: Callable[[Any], T]) -> T:
    """The value stored for `entry` (a `key`), else `make()`'s, stored for next time. `encode`
    gives the JSON to store; `decode` reads it back (an entry it cannot read -- damaged, or
    written by something else -- is made again)."""
    where = folder()
    path = where / f"{kind}-{entry}.json" if where is not None else None
    if path is not None:
        try:
            return decode(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            pass
    value = make()
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # Written whole, then renamed: a process reading meanwhile sees all of it or none.
            with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, suffix=".tmp",
                                             encoding="utf-8") as file:
                json.dump(encode(value), file)
            os.replace(file.name, path)
        except OSError:
            pass
    return value
