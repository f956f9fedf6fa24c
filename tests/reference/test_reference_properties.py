"""Properties of the reference engine on random boards.

Random boards reach corners the named examples do not: object loops, copies of copies, gear
losing its text, conditions waiting on each other. The engine runs in check mode, so its
incremental pending tracker is compared with asking from scratch at every step, and its internal
assertion that no object is read before it is calculated (a missing needs edge) is exercised.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings

from budget import budget
from hypothesis import strategies as st

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
from riftasp.reference import engine, resolve

IDS = [f"o{i}" for i in range(6)]
KEYWORDS = ["Shield", "Ganking", "Deflect", "Assault"]
TAGS = ["Mech", "Dragon"]

ops = st.one_of(
    st.builds(lambda of: Operation("copy", of=of), st.sampled_from(IDS)),
    st.builds(lambda v: Operation("set_might", value=v), st.integers(0, 7)),
    st.builds(lambda p: Operation("set_controller", player=p), st.sampled_from(["alice", "bob"])),
    st.builds(lambda t: Operation("add_tag", tag=t), st.sampled_from(TAGS)),
    st.builds(lambda t: Operation("remove_tag", tag=t), st.sampled_from(TAGS)),
    st.builds(
        lambda ks: Operation("gain_keywords", keywords=tuple(Keyword(k, v) for k, v in ks)),
        st.lists(
            st.tuples(st.sampled_from(KEYWORDS), st.sampled_from([None, 1, 2])),
            min_size=1,
            max_size=2,
        ),
    ),
    st.builds(
        lambda ks: Operation("lose_keywords", keywords=tuple(Keyword(k) for k in ks)),
        st.lists(st.sampled_from(KEYWORDS), min_size=1, max_size=2),
    ),
    st.just(Operation("lose_all_abilities")),
    st.builds(lambda n: Operation("plus", amount=n), st.integers(0, 3)),
    st.builds(lambda n: Operation("minus", amount=n), st.integers(0, 3)),
    st.builds(lambda v: Operation("increase_to", value=v), st.integers(0, 7)),
    st.builds(
        lambda n, m: Operation("plus_max", amount=n, max=m), st.integers(0, 3), st.integers(0, 7)
    ),
    st.builds(
        lambda n, m: Operation("minus_min", amount=n, min=m), st.integers(0, 3), st.integers(0, 4)
    ),
    st.just(Operation("double")),
)
targets = st.one_of(
    st.just(Target("self")),
    st.builds(
        lambda ids: Target("ids", ids=tuple(ids)),
        st.lists(st.sampled_from(IDS), min_size=1, max_size=2, unique=True),
    ),
    st.builds(
        lambda t, r, tag, other: Target(
            "filter", filter=Filter(card_type=t, relation=r, tag=tag, other=other)
        ),
        st.sampled_from([None, "unit"]),
        st.sampled_from([None, "friendly", "enemy"]),
        st.sampled_from([None, "Mech"]),
        st.booleans(),
    ),
)
conditions = st.one_of(
    st.builds(lambda of: Condition("mighty", of=of), st.sampled_from(["self", "target", *IDS])),
    st.builds(
        lambda of, v: Condition("might_at_least", of=of, value=v),
        st.sampled_from(["self", "target", *IDS]),
        st.integers(2, 6),
    ),
    st.builds(
        lambda of, k: Condition("has_keyword", of=of, keyword=k),
        st.sampled_from(["self", "target", *IDS]),
        st.sampled_from(KEYWORDS),
    ),
    st.builds(
        lambda of, p: Condition("controlled_by", of=of, player=p),
        st.sampled_from(["self", "target", *IDS]),
        st.sampled_from(["you", "alice", "bob"]),
    ),
    st.builds(
        lambda of: Condition("status", of=of, status="defending"), st.sampled_from(["self", *IDS])
    ),
)


@st.composite
def boards(draw) -> Board:
    counter = iter(range(1000))

    def effect(ongoing: bool, target: Target | None = None) -> Effect:
        return Effect(
            id=f"e{next(counter)}",
            op=draw(ops),
            target=target if target is not None else draw(targets),
            conditions=tuple(draw(st.lists(conditions, max_size=2))),
            timestamp=draw(st.integers(0, 6)) if ongoing else draw(st.none() | st.integers(0, 6)),
            controller=draw(st.sampled_from(["alice", "bob"])) if ongoing else None,
            source=draw(st.sampled_from(IDS)) if ongoing else None,
        )

    objects = []
    for i, oid in enumerate(IDS):
        is_gear = draw(st.booleans()) and i > 0
        owner = draw(st.sampled_from(["alice", "bob"]))
        attached = draw(st.sampled_from([None, *IDS[:i]])) if is_gear else None
        objects.append(
            GameObject(
                id=oid,
                name=oid.upper(),
                card_type="gear" if is_gear else "unit",
                owner=owner,
                controller=owner,
                zone=draw(st.sampled_from(["base", "battlefield", "hand"])),
                since=draw(st.integers(0, 6)),
                might=None if is_gear else draw(st.integers(0, 6)),
                tags=tuple(draw(st.lists(st.sampled_from(TAGS), max_size=1))),
                keywords=tuple(
                    Keyword(k) for k in draw(st.lists(st.sampled_from(KEYWORDS), max_size=1))
                ),
                status=tuple(
                    draw(st.lists(st.sampled_from(["attacking", "defending"]), max_size=1))
                ),
                attached_to=attached,
                buffed=draw(st.booleans()),
                rules_text=tuple(effect(False) for _ in range(draw(st.integers(0, 2)))),
                effect_text=tuple(
                    effect(False, Target("bearer")) for _ in range(draw(st.integers(0, 1)))
                )
                if is_gear
                else (),
                might_bonus=draw(st.sampled_from([None, 1, 2])) if is_gear else None,
            )
        )
    # Attachment needs a bearer on the board (the board reader rejects anything else).
    on_board = {o.id for o in objects if o.zone != "hand"}
    objects = [
        o
        if o.attached_to in on_board or o.attached_to is None
        else GameObject(**{**o.__dict__, "attached_to": None})
        for o in objects
    ]
    effects = tuple(effect(True) for _ in range(draw(st.integers(0, 4))))
    timing = draw(st.sampled_from(["settled", "immediate"]))
    return Board(
        players=("alice", "bob"),
        active_player="alice",
        objects=tuple(objects),
        effects=effects,
        settings=Settings(condition_timing=timing),
    )


@pytest.mark.thorough
@settings(max_examples=budget(60, 300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_random_boards_keep_the_engine_invariants(board):
    engine.CHECK_MODE, saved = True, engine.CHECK_MODE
    try:
        first = resolve(board)
    finally:
        engine.CHECK_MODE = saved
    assert json.dumps(first.to_json()) == json.dumps(resolve(board).to_json())
    # Reusing unchanged groups after a withdrawal must give exactly a full recalculation.
    engine.REUSE_GROUPS = False
    try:
        assert json.dumps(first.to_json()) == json.dumps(resolve(board).to_json())
    finally:
        engine.REUSE_GROUPS = True
    for obj in board.objects:
        c = first.objects[obj.id]
        if not obj.on_board:
            assert obj.id not in first.applied
            assert (c.might, c.tags) == (obj.might, tuple(sorted(obj.tags)))
            continue
        assert c.mighty == (c.might is not None and c.might >= 5)
        apps = first.applied.get(obj.id, [])
        assert apps or obj.id not in first.applied
        if obj.might is None and not any(a.characteristic == "copy" for a in apps):
            assert c.might is None
        ids = [a.effect for a in apps]
        assert len(ids) == len(set(ids)), "an instance applies only once per object"
        assert [a.step for a in apps] == sorted(a.step for a in apps)
        assert not set(ids) & set(first.withdrawn.get(obj.id, []))
    if board.settings.condition_timing == "immediate":
        assert first.withdrawn == {}
