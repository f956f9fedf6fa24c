"""The independent reference engine: docs/semantics.md written out imperatively.

It shares no rules logic with the ASP resolver; the two are compared by differential tests.
"""

from __future__ import annotations

from .engine import resolve

__all__ = ["resolve"]
