"""The timestamp rule as properties over generated games (riftasp/timeline/generate.py: entering,
leaving and coming back, attachments, condition flips, effects starting and ending, activated
abilities), stated as the seeds state it:

- [L] "A timestamp records when the effect began applying": after every event, what was active
  before and still is keeps its timestamp; what becomes active has the event's time; nothing has a
  timestamp later than the event.
- [L] "When Rules Text becomes inactive …, it loses its timestamp; when that text becomes active
  again, it gains a new one": a thing that was inactive and is active again never has its old one.
- The two bookkeepings (encodings/timeline/ and riftasp/reference/timeline.py) are independent
  code: on the same calculations they give the same timestamps.
"""

from __future__ import annotations

import pytest

pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402

from budget import budget  # noqa: E402
from riftasp.timeline.generate import timeline_strategy  # noqa: E402
from riftasp.timeline.log import timeline_from_dict  # noqa: E402
from riftasp.timeline.run import replay  # noqa: E402
from riftasp.timeline.stamps import AspBookkeeping  # noqa: E402

RULESETS = ["riftbound", "sorcery"]
SETTINGS = settings(max_examples=budget(12, 100), deadline=None, derandomize=True,
                    suppress_health_check=list(HealthCheck))


def _moments(game: dict, **kw) -> list:
    return list(replay(timeline_from_dict(game, "<generated>"), "reference", **kw))


@pytest.mark.thorough
@pytest.mark.parametrize("ruleset", RULESETS)
def test_what_stays_active_keeps_its_timestamp_and_what_begins_takes_the_event_s_time(ruleset):
    @SETTINGS
    @given(timeline_strategy(ruleset))
    def check(game: dict) -> None:
        moments = _moments(game)
        ever: dict = {}
        for before, after in zip(moments, moments[1:]):
            for thing, stamp in after.stamps.items():
                assert stamp <= after.time, (thing, stamp, after.time)
                if thing in before.stamps:
                    assert stamp == before.stamps[thing], thing
                else:
                    assert stamp == after.time, thing
                    # Active again after a while inactive: never its old timestamp.
                    assert thing not in ever or ever[thing] < stamp, thing
            ever.update(before.stamps)

    check()


@pytest.mark.thorough
@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_two_bookkeepings_give_the_same_timestamps(ruleset):
    @SETTINGS
    @given(timeline_strategy(ruleset))
    def check(game: dict) -> None:
        reference = _moments(game)
        asp = _moments(game, keeper=AspBookkeeping())
        assert [m.stamps for m in asp] == [m.stamps for m in reference]
        assert [m.data for m in asp] == [m.data for m in reference]

    check()
