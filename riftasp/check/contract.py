"""Reading a resolution in the output contract (README, riftasp/result.py) for checking: what
every ruleset's checker reads alike (the trace's rows, the errors); each reads its own
characteristics (riftasp/rulesets/<name>/check/view.py).

Any engine's `--json` output is accepted: `applied` (the trace) and each object's `abilities` may
be missing, and then the checks that need them are skipped. Anything else that is not the
contract is a `ContractError` naming the field; nothing is guessed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeGuard

REASONS = frozenset({
    "timestamp", "dependency", "immediately_after", "cycle", "tie", "recheck", "unblocked",
    "became_applicable", "waited",
})  # fmt: skip


class ContractError(ValueError):
    """A resolution that is not the output contract; str() is `FIELD: message`."""

    def __init__(self, where: str, message: str) -> None:
        self.where, self.message = where, message
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True)
class Row:
    """One application in the trace of one object."""

    object: str
    index: int  # position in the object's list
    effect: str
    step: int
    layer: str
    sublayer: str | None
    timestamp: int
    reasons: tuple[str, ...]
    depends_on: tuple[str, ...]
    characteristic: str
    before: Any
    after: Any


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


# The shapes of a row's values, for the replays: a value of another shape than its
# characteristic's, from any engine's answer, is a violation where the replay meets it, never a
# value it computes with.
def is_names(value: Any) -> TypeGuard[list[str]]:
    """A list of names, as tags, types, sub-types, abilities and keywords are written."""
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def is_counts(value: Any) -> TypeGuard[dict[str, int]]:
    """Name -> integer, as Riftbound's keywords are written."""
    return isinstance(value, dict) and all(isinstance(k, str) and _is_int(v) for k, v in value.items())


def _need(ok: bool, where: str, what: str, value: Any) -> None:
    if not ok:
        shown = "null" if value is None else type(value).__name__
        raise ContractError(where, f"expected {what}, got {shown}")


def _str_list(value: Any, where: str) -> list[str]:
    _need(isinstance(value, list), where, "a list of strings", value)
    for i, item in enumerate(value):
        _need(isinstance(item, str), f"{where}[{i}]", "a string", item)
    return value


def _row(oid: str, index: int, data: Any, where: str) -> Row:
    _need(isinstance(data, dict), where, "an object", data)
    for key in ("effect", "step", "layer", "timestamp", "reasons", "characteristic", "before", "after"):
        if key not in data:
            raise ContractError(where, f"missing field '{key}'")
    effect, step, layer, stamp = data["effect"], data["step"], data["layer"], data["timestamp"]
    _need(isinstance(effect, str), f"{where}.effect", "a string", effect)
    _need(_is_int(step), f"{where}.step", "an integer", step)
    _need(isinstance(layer, str), f"{where}.layer", "a string", layer)
    sublayer = data.get("sublayer")
    _need(sublayer is None or isinstance(sublayer, str), f"{where}.sublayer", "a string or null", sublayer)
    _need(_is_int(stamp), f"{where}.timestamp", "an integer", stamp)
    reasons = tuple(_str_list(data["reasons"], f"{where}.reasons"))
    depends = tuple(_str_list(data.get("depends_on", []), f"{where}.depends_on"))
    characteristic = data["characteristic"]
    _need(isinstance(characteristic, str), f"{where}.characteristic", "a string", characteristic)
    return Row(oid, index, effect, step, layer, sublayer, stamp, reasons, depends, characteristic,
               data["before"], data["after"])
