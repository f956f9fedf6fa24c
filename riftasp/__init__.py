"""riftasp: a declarative (ASP) resolver for the layer systems of trading card games.

The library (docs/api.md): `resolve`, `resolve_many`, `diff`, `load_board`, `board`, `edit`,
`with_effect`, `effect_ids` and `generate` (riftasp/api.py). They, `Board`, `Resolution`,
`Transition`, `ResolveFailure`, `BoardError` and `__version__` load on first use, so that
`import riftasp` (and the `riftasp` program's start-up, bench/coldstart.py) costs nothing.
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .api import board, diff, edit, effect_ids, generate, load_board, resolve, resolve_many, with_effect
    from .board_io import BoardError
    from .failure import ResolveFailure
    from .model import Board
    from .result import Resolution
    from .transitions import Transition

    __version__: str

_API = ("board", "diff", "edit", "effect_ids", "generate", "load_board", "resolve", "resolve_many", "with_effect")
# Name -> the module that holds it.
_LAZY = {
    **{name: "riftasp.api" for name in _API},
    "Board": "riftasp.model",
    "BoardError": "riftasp.board_io",
    "Resolution": "riftasp.result",
    "ResolveFailure": "riftasp.failure",
    "Transition": "riftasp.transitions",
}

__all__ = [
    "Board", "BoardError", "Resolution", "ResolveFailure", "Transition", "__version__", "board", "diff", "edit",
    "effect_ids", "generate", "load_board", "resolve", "resolve_many", "with_effect",
]  # fmt: skip


class _Package(types.ModuleType):
    """riftasp itself: `riftasp.resolve` stays the function when the module riftasp/resolve.py
    is imported (the import system sets a submodule on its package; `from riftasp.resolve import
    ...` and sys.modules still find the module)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _API and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __getattr__(name: str) -> Any:
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            value = version("riftasp")
        except PackageNotFoundError:
            value = "0+unknown"
    elif name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
    else:
        raise AttributeError(f"module 'riftasp' has no attribute {name!r}")
    globals()[name] = value  # found once
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
