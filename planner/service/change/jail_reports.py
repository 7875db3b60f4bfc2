"""The jail a group reports (§17 without a live feed: a late train) and the jail the ledger holds a group in, where
the money rules meet the group's day (a roll turned into a 6 by a kept card is the roll's own:
:func:`planner.service.change.group_day.roll`)."""

from __future__ import annotations

from dataclasses import dataclass, replace

import msgspec

from planner.errors import InputError
from planner.ledger.model import Event, JailStay
from planner.service.change.group_day import GroupStatus, set_position, status
from planner.service.read.ledger_views import recorded_event, rules_of
from planner.service.read.positions import PlaceRequest
from planner.service.read.recorded_day import group_day
from planner.service.read.rule_words import message
from planner.service.read.whereabouts import train_at
from planner.service.setup.playing import Play
from planner.util.i18n import _
from planner.util.timefmt import fmt_clock


@dataclass(frozen=True)
class LateReport:
    """What a reported late arrival did: ``jail`` (the stay, None: not late enough, or jailed for that train
    already) and ``why`` in words."""

    jail: JailStay | None
    why: str
    event: dict | None = None  # the recorded jail event

    def to_json(self) -> dict:
        """``{jail: {station, since, until} | None, why, event}``."""
        j = self.jail
        return {"jail": None if j is None else {"station": j.station, "since": fmt_clock(j.since),
                                                "until": fmt_clock(j.until)},
                "why": self.why, "event": self.event}


def report_late(play: Play, group: str, time: int, late: int, event_id: str | None = None) -> LateReport:
    """§17 without a live feed: the group says the train it sat in arrived ``late`` minutes late where its day has
    it at ``time`` (it got off there): jail there by the game's rule, once per train."""
    rules = rules_of(play)
    if not 0 <= late <= 600:
        raise InputError(_("late: minutes from 0 to 600, not {late}").format(late=late))
    g = play.group(group)
    pos = group_day(play.day, play.state.groups.snapshot(play.id, g)).position_at(time)
    if pos is None:
        raise InputError(_("where did the train arrive late? report the position first"))
    tt = play.day.timetable
    trip = pos.trip if pos.seated else train_at(play, g.name, time)
    station = tt.station_name[pos.station]
    if late < rules.jail_delay:
        return LateReport(None, _("{late} minutes late: no jail (it takes {delay}, §17)").format(
            late=late, delay=rules.jail_delay))
    trip_id = tt.trip_id[trip] if trip is not None and trip >= 0 else ""
    state = play.state.ledger.view(rules, play.id)
    now = state.jail(g.name, time)
    if now is not None:
        return LateReport(None, _("group {group} is in jail at {station} until {until} already").format(
            group=g.name, station=now.station, until=fmt_clock(now.until)))
    if trip_id and any(j.trip == trip_id for j in state.jails.get(g.name, ())):
        return LateReport(None, _("once per train (§17): group {group} was in jail for this train already").format(
            group=g.name))
    event = Event("jail", g.name, time, name=station, trip=trip_id, minutes=late)
    rows = play.state.ledger.record(rules, play.game, g, event, event_id=event_id)
    stay = play.state.ledger.view(rules, play.id).jail(g.name, time)
    said = message("jail.stay", station=station, until=fmt_clock(stay.until) if stay else "-").text
    return LateReport(stay, said, msgspec.to_builtins(recorded_event(rows[-1])))


def position_late(play: Play, group: str, place: PlaceRequest, time: int, late: int) -> tuple[GroupStatus, LateReport]:
    """"We got off at X at T (or are in the train), it arrived ``late`` minutes late": the position recorded, then
    the jail it puts the group in (:func:`report_late`); the group's state after both."""
    first = set_position(play, group, place, time)
    report = report_late(play, group, time, late)
    return replace(status(play, group, time), train=first.train), report
