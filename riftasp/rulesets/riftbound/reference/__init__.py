"""Riftbound for the reference engine: its operations, conditions, characteristics and its own
kinds of instance (buffs, Might Bonuses, keyword bonuses), on the ruleset-neutral core."""

from .ruleset import Riftbound

__all__ = ["Riftbound"]
