"""What a resolve returns: every object's current characteristics and how they came about.

`Resolution.to_json()` is the output contract of `riftasp resolve --json`; every engine
(the ASP resolver, the reference engine, an external engine) answers in this shape.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .specs import OutputField

if TYPE_CHECKING:
    from .rulesets import Ruleset


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


@dataclass(frozen=True, init=False)
class Characteristics:
    """One object's final characteristics: its ruleset's output fields (`fields`, the plugin's
    OUTPUT; their values in `values`, read as attributes too: `c.might`), then the core ones
    every ruleset has.

    `Characteristics(fields, name="U", might=3, keywords={...})` names the values one by one;
    a field not given is empty (None, no members, not set)."""

    fields: tuple[OutputField, ...] = field(repr=False)  # the same for every object of a ruleset
    values: dict[str, Any]
    keywords: dict[str, int]
    zone: str
    abilities: tuple[str, ...]  # names of the abilities it holds at the end

    def __init__(
        self,
        fields: tuple[OutputField, ...],
        values: Mapping[str, Any] | None = None,
        *,
        keywords: Mapping[str, int] | None = None,
        zone: str = "base",
        abilities: Iterable[str] = (),
        **named: Any,
    ) -> None:
        given = {**(values or {}), **named}
        unknown = set(given) - {f.key for f in fields}
        if unknown:
            raise TypeError(f"Characteristics: no output field {sorted(unknown)}")
        own = {f.key: _stored(f, given.get(f.key, f.empty)) for f in fields}
        object.__setattr__(self, "fields", tuple(fields))
        object.__setattr__(self, "values", own)
        object.__setattr__(self, "keywords", dict(sorted((keywords or {}).items())))
        object.__setattr__(self, "zone", zone)
        object.__setattr__(self, "abilities", tuple(sorted(abilities)))

    def __getattr__(self, name: str) -> Any:
        # Only called when normal lookup fails; `values` may be missing while unpickling.
        values = self.__dict__.get("values")
        if values is None or name not in values:
            raise AttributeError(f"{type(self).__name__} has no field {name!r}")
        return values[name]

    def to_json(self) -> dict[str, Any]:
        # Sorted here as well: a caller may have changed `keywords` since.
        own = {f.key: sorted(self.values[f.key]) if f.kind == "set" else self.values[f.key] for f in self.fields}
        return own | {
            "keywords": dict(sorted(self.keywords.items())),
            "zone": self.zone,
            "abilities": sorted(self.abilities),
        }


def _stored(field: OutputField, value: Any) -> Any:
    """A set as a sorted tuple, whatever order it was given in (the JSON lists it sorted)."""
    return tuple(sorted(value)) if field.kind == "set" else value


@dataclass(frozen=True)
class Withdrawal:
    """An application taken out by the final check (docs/semantics.md §8), and why."""

    object: str
    effect: str
    round: int  # the round whose final state it failed in (1 = the first calculation)
    # among "existence", "target", "condition"; or only "support": withdrawn when the application
    # it took away was restored (§8), `because` naming that application; or only "self_support":
    # it and the applications in `because` held each other up (§8: calculated again without
    # them, none would apply); or only "exchanged": withdrawn in place of the application in
    # `because`, with which it had failed (§8, "the other side of a ring")
    failed: tuple[str, ...]
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
    ruleset: Ruleset  # the value (riftasp/rulesets/); its name in the JSON
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
            "ruleset": self.ruleset.name,
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
