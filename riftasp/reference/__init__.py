"""The independent reference engine: docs/semantics.md written out imperatively.

It shares no rules logic with the ASP resolver; the two are compared by differential tests. Like
the encoding it is a ruleset-neutral core (core/), scheduling procedures (procedures/) and
rulesets (riftbound/), put together in registry.py.
"""

from __future__ import annotations

from .registry import resolve

__all__ = ["resolve"]
