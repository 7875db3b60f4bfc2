"""The bonus use case: "which trains can we sit in at the next full hour, arriving or departing at :00?"
(``planner bonus``): from a position, every chance a group obeying the change window can reach; for a group of a
game, only the chances its day allows (on its way when it heads for a target)."""

from __future__ import annotations

import msgspec

from planner.game.bonus import bonus_chances, next_full_hour
from planner.routing import Origin
from planner.service.answers.questions import BonusAnswer
from planner.service.questions.next_step import next_step
from planner.service.read.positions import origin_of
from planner.service.read.views import with_realtime, zugzwang_json
from planner.service.setup.playing import GameDay, Play
from planner.util.timefmt import fmt_clock


def bonus_answer(day: GameDay, origin: Origin, train: str | None = None) -> BonusAnswer:
    """The chances at the next full hour from ``origin`` (``planner bonus``)."""
    out = msgspec.convert(bonus_chances(day.network, day.game, origin), BonusAnswer)
    out.zugzwang = zugzwang_json(origin)  # the chances are those a group obeying the rule can reach
    if train:
        out.train = train
    return with_realtime(day, out, origin.time)


def group_bonus(play: Play, group: str, time: int) -> BonusAnswer:
    """The chances of a group of the game at ``time``: those its day allows (``planner bonus --group``)."""
    day = play.day
    ans = next_step(play, group, time)
    st = ans.status.state
    b = day.game.bonus
    out = BonusAnswer(hour=fmt_clock(next_full_hour(st.time)), minutes=list(b.minutes), fee=b.bonus_fee,
                      base_fee=b.base_fee, chances=ans.bonus, obligation=st.obligation.kind,
                      target=st.obligation.target, group=ans.status.name)
    if st.position is not None:
        out.zugzwang = zugzwang_json(origin_of(day, st.position, st.time))
    return out
