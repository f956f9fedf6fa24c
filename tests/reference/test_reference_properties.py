"""Properties of the reference engine on random boards.

Random boards reach corners the named examples do not: object loops, copies of copies, copy
abilities that remove themselves, gear losing its text, conditions waiting on each other, paradox
rings. The engine runs in check mode (its read/write shortcut in the dependency test is compared
with trying every pair, and every candidate must be one the analysis foresaw), and the result is
checked against invariants that do not replay the procedure:

- the engine is deterministic, and reusing groups across rounds gives what recalculating does;
- each instance applies at most once per object, in increasing steps;
- every application of the final round still exists, targets its object and (settled) meets its
  conditions in the final state; every instance that does so was applied or withdrawn;
- withdrawn applications are never applied; `withdrawals` and `paradoxes` agree with `withdrawn`;
- keyword bonuses add up to the final keyword value; the Might trace chains before -> after.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budget import budget
from riftasp.model import (
    Board,
    Condition,
    Effect,
    Filter,
    GameObject,
    Keyword,
    Operation,
    Settings,
    Target,
)
from riftasp.reference.core import dependency
from riftasp.reference.core.chars import matches
from riftasp.reference.core.evaluate import conditions_hold, exists, targets, undoes
from riftasp.reference.procedures import recheck
from riftasp.reference.registry import rules_of as ruleset
from riftasp.ruleset_data import keyword_rules

IDS = [f"o{i}" for i in range(5)]
KEYWORDS = ["Shield", "Ganking", "Assault", "Tank"]
RULES = keyword_rules("riftbound")
TAGS = ["Mech", "Dragon"]


def keyword(name: str, value: int | None) -> Keyword:
    return Keyword(name, value if RULES.sums(name) else None)


ops = st.one_of(
    st.builds(lambda of: Operation("copy", of=of), st.sampled_from([*IDS, "self", "target"])),
    st.builds(lambda v: Operation("set_might", value=v), st.integers(0, 7)),
    st.builds(lambda p: Operation("set_controller", player=p), st.sampled_from(["alice", "bob"])),
    st.builds(lambda t: Operation("add_tag", tag=t), st.sampled_from(TAGS)),
    st.builds(lambda t: Operation("remove_tag", tag=t), st.sampled_from(TAGS)),
    st.builds(
        lambda ks: Operation("gain_keywords", keywords=tuple(keyword(k, v) for k, v in ks.items())),
        st.dictionaries(st.sampled_from(KEYWORDS), st.sampled_from([None, 1, 2]), min_size=1, max_size=2),
    ),
    st.builds(
        lambda ks: Operation("lose_keywords", keywords=tuple(Keyword(k) for k in ks)),
        st.lists(st.sampled_from(KEYWORDS), min_size=1, max_size=2, unique=True),
    ),
    st.just(Operation("lose_all_abilities")),
    st.builds(lambda n: Operation("plus", amount=n), st.integers(0, 3)),
    st.builds(lambda n: Operation("minus", amount=n), st.integers(0, 3)),
    st.builds(lambda v: Operation("increase_to", value=v), st.integers(0, 7)),
    st.builds(lambda n, m: Operation("plus_max", amount=n, max=m), st.integers(0, 3), st.integers(0, 7)),
    st.builds(lambda n, m: Operation("minus_min", amount=n, min=m), st.integers(0, 3), st.integers(0, 4)),
    st.just(Operation("double")),
)
targets_ = st.one_of(
    st.just(Target("self")),
    st.builds(
        lambda ids: Target("ids", ids=tuple(ids)),
        st.lists(st.sampled_from(IDS), min_size=1, max_size=2, unique=True),
    ),
    st.builds(
        lambda t, r, tag, other: Target("filter", filter=Filter(card_type=t, relation=r, tag=tag, other=other)),
        st.sampled_from([None, "unit"]),
        st.sampled_from([None, "friendly", "enemy"]),
        st.sampled_from([None, "Mech"]),
        st.booleans(),
    ),
)
refs = st.sampled_from(["self", "target", *IDS])
conditions = st.one_of(
    st.builds(lambda of: Condition("mighty", of=of), refs),
    st.builds(lambda of, v: Condition("might_at_least", of=of, value=v), refs, st.integers(2, 6)),
    st.builds(lambda of, k: Condition("has_keyword", of=of, keyword=k), refs, st.sampled_from(KEYWORDS)),
    st.builds(
        lambda of, p: Condition("controlled_by", of=of, player=p), refs, st.sampled_from(["you", "alice", "bob"])
    ),
    st.builds(lambda of: Condition("status", of=of, status="defending"), st.sampled_from(["self", *IDS])),
)


@st.composite
def boards(draw) -> Board:
    counter = iter(range(1000))

    def effect(ongoing: bool, target: Target | None = None) -> Effect:
        return Effect(
            id=f"e{next(counter)}",
            op=draw(ops),
            target=target if target is not None else draw(targets_),
            conditions=tuple(draw(st.lists(conditions, max_size=2))),
            timestamp=draw(st.integers(0, 5)) if ongoing else draw(st.none() | st.integers(0, 5)),
            controller=draw(st.sampled_from(["alice", "bob"])) if ongoing else None,
            source=draw(st.sampled_from(IDS)) if ongoing else None,
        )

    objects = []
    for i, oid in enumerate(IDS):
        is_gear = draw(st.booleans()) and i > 0
        owner = draw(st.sampled_from(["alice", "bob"]))
        zone = draw(st.sampled_from(["base", "battlefield", "battlefield", "hand"]))
        board_bearers = [o.id for o in objects if o.zone != "hand"]
        attached = (
            draw(st.sampled_from([None, *board_bearers])) if is_gear and zone != "hand" else None
        )
        objects.append(
            GameObject(
                id=oid,
                name=oid.upper(),
                card_type="gear" if is_gear else "unit",
                owner=owner,
                controller=owner,
                zone=zone,
                since=draw(st.integers(0, 5)),
                might=None if is_gear else draw(st.integers(0, 6)),
                tags=tuple(draw(st.lists(st.sampled_from(TAGS), max_size=1))),
                keywords=tuple(
                    keyword(k, draw(st.sampled_from([None, 2])))
                    for k in draw(st.lists(st.sampled_from(KEYWORDS), max_size=2, unique=True))
                ),
                status=tuple(draw(st.lists(st.sampled_from(["attacking", "defending"]), max_size=1))),
                attached_to=attached,
                buffed=draw(st.booleans()),
                rules_text=tuple(effect(False) for _ in range(draw(st.integers(0, 2)))),
                effect_text=tuple(effect(False, Target("bearer")) for _ in range(draw(st.integers(0, 1))))
                if is_gear
                else (),
                might_bonus=draw(st.sampled_from([None, 1, 2])) if is_gear else None,
            )
        )
    effects = tuple(effect(True) for _ in range(draw(st.integers(0, 4))))
    timing = draw(st.sampled_from(["settled", "settled", "immediate"]))
    return Board(
        players=("alice", "bob"),
        active_player="alice",
        objects=tuple(objects),
        effects=effects,
        settings=Settings(condition_timing=timing),
    )


def calculate(board: Board):
    return recheck.calculate(board, ruleset(board.ruleset))


def check_invariants(board: Board) -> None:
    dependency.CHECK_MODE, saved = True, dependency.CHECK_MODE
    try:
        first, last = calculate(board)
    finally:
        dependency.CHECK_MODE = saved
    text = json.dumps(first.to_json())
    assert text == json.dumps(calculate(board)[0].to_json())
    # Reusing unchanged groups from the previous round is exact: the same as from scratch; so is
    # keeping dependency pairs from step to step (in CHECK_MODE above each kept answer was also
    # compared with every pair tried afresh).
    for switch in ("REUSE_GROUPS", "KEEP"):
        setattr(recheck, switch, False)
        try:
            assert text == json.dumps(calculate(board)[0].to_json()), switch
        finally:
            setattr(recheck, switch, True)
    settled = board.reading("condition_timing") == "settled"
    withdrawn = {(oid, name) for oid, names in first.withdrawn.items() for name in names}
    view = last.view
    objects = {o.id: o for o in board.objects}

    # Final-round consistency: applied instances still hold in the final state, except an
    # existence or a target that only the application itself undid (§8).
    def undone_by_another(record, reads) -> bool:
        return any(
            matches(w, r)
            for other in last.records if other.step > record.step
            for w in undoes(other.inst, other.oid) for r in reads
        )

    for record in last.records:
        inst, oid = record.inst, record.oid
        reads = last.a.reads(inst, oid)
        if not exists(inst, oid, view):
            assert not undone_by_another(record, reads.existence), (oid, inst.name, "existence")
        if not targets(inst, objects[oid], view):
            assert not undone_by_another(record, reads.targeting), (oid, inst.name, "target")
        if settled:
            assert conditions_hold(inst, oid, view), (oid, inst.name, "condition")
    # ... and every instance that holds there was applied or withdrawn.
    for oid in last.a.layout.on_board:
        done = last.progress[oid].names
        for inst in last.a.current(oid, last.states):
            if targets(inst, objects[oid], view) and conditions_hold(inst, oid, view):
                assert inst.name in done or (oid, inst.name) in withdrawn, (oid, inst.name)

    for obj in board.objects:
        c = first.objects[obj.id]
        apps = first.applied.get(obj.id, [])
        if not obj.on_board:
            assert not apps
            assert (c.might, c.tags) == (obj.might, tuple(sorted(obj.tags)))
            continue
        assert c.mighty == (c.might is not None and c.might >= 5)
        names = [a.effect for a in apps]
        assert len(names) == len(set(names)), "an instance applies only once per object"
        steps = [a.step for a in apps]
        assert steps == sorted(set(steps))
        assert not {(obj.id, n) for n in names} & withdrawn, "withdrawn never applied"
        # The Might trace chains from the printed value; a copy sets its root's printed Might.
        might = obj.might
        for a in apps:
            if a.characteristic == "copy":
                assert a.after in objects
                might = objects[a.after].might
            elif a.characteristic == "might":
                assert a.before == might, (obj.id, a.effect)
                might = a.after
        assert c.might == might
        # Keyword bonuses add up to the final keyword value (nothing withdrawn on the object).
        if c.might is not None and not first.withdrawn.get(obj.id):
            for kw, status in RULES.bonus.items():
                if status in obj.status:
                    added = sum(
                        a.after - a.before for a in apps if a.effect.startswith(f"keyword:{kw}:")
                    )
                    assert added == c.keywords.get(kw, 0), (obj.id, kw)

    assert {(w.object, w.effect) for w in first.withdrawals} == withdrawn
    assert len(first.withdrawals) == len(withdrawn)
    for w in first.withdrawals:
        assert w.failed and set(w.failed) <= {"existence", "target", "condition"}
        if not settled:
            assert "condition" not in w.failed
    withdrawn_names = {name for _, name in withdrawn}
    for paradox in first.paradoxes:
        assert paradox == sorted(set(paradox))
        assert set(paradox) & withdrawn_names


@pytest.mark.thorough
@settings(max_examples=budget(40, 1500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_random_boards_keep_the_engine_invariants(board):
    check_invariants(board)
