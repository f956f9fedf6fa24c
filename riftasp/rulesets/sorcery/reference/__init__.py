"""Sorcery: Contested Realm for the reference engine (docs/semantics-sorcery.md): its ruleset (the
manifest's layer table and readings, its output) and its rules (rules.py, the realm's grid in
realm.py), resolved by the procedure "layered" (riftasp/reference/procedures/layered.py)."""

from .ruleset import Sorcery

__all__ = ["Sorcery"]
