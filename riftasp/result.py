"""What a resolve returns: every object's current characteristics and how they came about.

`Resolution.to_json()` is the output contract of `riftasp resolve --json`; every engine
(the ASP resolver, the reference engine, an external engine) answers in this shape.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# The characteristics engines are compared on.
COMPARED_FIELDS = ("controller", "might", "mighty", "tags", "types", "keywords")


@dataclass(frozen=True)
class Application:
    """One effect applied to one object during the calculation."""

    effect: str
    step: int
    layer: str
    sublayer: str | None
    timestamp: int
    why: str
    # "timestamp" first, then any of "dependency", "immediately_after", "cycle", "tie", "recheck",
    # "unblocked", "became_applicable", "waited" (docs/semantics.md §11)
    reasons: tuple[str, ...]
    depends_on: tuple[str, ...]
    characteristic: str
    before: Any
    after: Any

    def to_json(self) -> dict[str, Any]:
        return {
            "effect": self.effect,
            "step": self.step,
            "layer": self.layer,
            "sublayer": self.sublayer,
            "timestamp": self.timestamp,
            "why": self.why,
            "reasons": list(self.reasons),
            "depends_on": list(self.depends_on),
            "characteristic": self.characteristic,
            "before": self.before,
            "after": self.after,
        }


@dataclass(frozen=True)
class Characteristics:
    name: str
    controller: str | None
    might: int | None
    mighty: bool
    tags: tuple[str, ...]
    types: tuple[str, ...]
    keywords: dict[str, int]
    zone: str = "base"
    abilities: tuple[str, ...] = ()  # names of the abilities it holds at the end

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "controller": self.controller,
            "might": self.might,
            "mighty": self.mighty,
            "tags": sorted(self.tags),
            "types": sorted(self.types),
            "keywords": dict(sorted(self.keywords.items())),
            "zone": self.zone,
            "abilities": sorted(self.abilities),
        }


@dataclass(frozen=True)
class Withdrawal:
    """An application taken out by the final check (docs/semantics.md §8), and why."""

    object: str
    effect: str
    round: int  # the round whose final state it failed in (1 = the first calculation)
    failed: tuple[str, ...]  # among "existence", "target", "condition"
    because: tuple[str, ...]  # the culprits: applications that changed what the failing part reads

    def to_json(self) -> dict[str, Any]:
        return {
            "object": self.object,
            "effect": self.effect,
            "round": self.round,
            "failed": list(self.failed),
            "because": list(self.because),
        }


@dataclass(frozen=True)
class Resolution:
    ruleset: str
    objects: dict[str, Characteristics]
    applied: dict[str, list[Application]] = field(default_factory=dict)
    dependency_cycles: list[list[str]] = field(default_factory=list)
    object_loops: list[list[str]] = field(default_factory=list)
    timestamp_ties: list[list[str]] = field(default_factory=list)
    withdrawn: dict[str, list[str]] = field(default_factory=dict)
    needs: dict[str, list[str]] = field(default_factory=dict)  # object -> objects calculated first
    engine: str = "asp"
    paradoxes: list[list[str]] = field(default_factory=list)
    withdrawals: list[Withdrawal] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "engine": self.engine,
            "objects": {oid: c.to_json() for oid, c in sorted(self.objects.items())},
            "applied": {
                oid: [a.to_json() for a in apps] for oid, apps in sorted(self.applied.items())
            },
            "dependency_cycles": sorted(sorted(c) for c in self.dependency_cycles),
            "object_loops": sorted(sorted(loop) for loop in self.object_loops),
            "timestamp_ties": sorted(sorted(t) for t in self.timestamp_ties),
            "withdrawn": {oid: sorted(ids) for oid, ids in sorted(self.withdrawn.items()) if ids},
            "needs": {oid: sorted(q) for oid, q in sorted(self.needs.items()) if q},
            "paradoxes": sorted(sorted(p) for p in self.paradoxes),
            "withdrawals": [
                w.to_json() for w in sorted(self.withdrawals, key=lambda w: (w.round, w.object, w.effect))
            ],
        }
