"""Where a group was, for the ledger's checks: a purchase or fee at a station needs the group there, a toll line or
tunnel the group in a train crossing it, the full-hour bonus the train it sat in.

What the planner knows comes from the group's day (position reports, the itineraries of its rolls) and from its own
ledger events at stations. A claim is refused only when that knowledge contradicts it; a group the planner knows
nothing of at that time is taken at its word (its statement is recorded).
"""

from __future__ import annotations

from planner.errors import InputError
from planner.ledger.model import STATION, Event
from planner.ledger.position import Sighting, contradiction, ledger_sightings
from planner.routing import Query, reach, station_origin
from planner.routing.network import TransitNetwork
from planner.service.read.fee_stops import DAY_END, stops_of
from planner.service.read.positions import named_train
from planner.service.read.recorded_day import group_day, label_station
from planner.service.setup.playing import Play
from planner.util.i18n import _
from planner.util.timefmt import fmt_clock

CROSSING_SLACK = 10 * 60  # a purchase message may come a little after the train has left the line (§13)
EARLIEST_MEMO = 200_000  # remembered earliest arrivals per network (a few MB), then forgotten at once


def check_at_station(play: Play, group: str, event: Event, events: list[Event]) -> None:
    """Refuse a station purchase or fee when the group cannot have been at the station then."""
    g = play.group(group)
    seen = ledger_sightings(events, g.name, around=event.time)
    snap = play.state.groups.snapshot(play.id, g)
    day = play.day
    # the stops of its day: where it said it stood, the stops of the train it said it sits in, its rolls' ways (a
    # roll's own position after them: of two at one time, the later one names the sighting)
    seen += [Sighting(x.time, x.name, _("its day")) for x in stops_of(day, group_day(day, snap), DAY_END)
             if x.kind == STATION]
    for r in snap.rolls:
        if r.position:
            seen.append(Sighting(r.time, label_station(r.position), _("roll #{n}").format(n=r.seq)))

    def earliest(a: str, t: int, b: str) -> int | None:
        return earliest_arrival(day.network, day.station(a), t, day.station(b))

    why = contradiction(seen, event.name, event.time, earliest)
    if why:
        raise InputError(_("group {group} at {station} at {time}? {why}").format(group=g.name, station=event.name,
                                                                                 time=fmt_clock(event.time), why=why))


def earliest_arrival(net: TransitNetwork, a: int, t: int, b: int) -> int | None:
    """The earliest arrival at station ``b`` leaving station ``a`` at ``t`` (None: never), remembered on the
    network: the timetable of a network never changes (real-time data makes a new one), and every group's fee on
    the same train asks the same again; one scan, no journey (best_journey's fewest changes and latest departure
    do not change when the group can be there)."""
    def scan() -> int | None:
        return reach(net, Query(station_origin(a, t), target=b)).station_arrival(b) if net.station_reach[a, b] else None

    return net.remembered("_earliest_arrivals", (a, int(t), b), scan, EARLIEST_MEMO)


def _rides(play: Play, group: str, t: int) -> tuple[bool, list[tuple[int, int, int]]]:
    """(known, rides): whether the group's day says what it does around ``t`` (it follows a roll's itinerary then,
    or reported itself shortly before), and the rides ``(trip, board_row, alight_row)`` it is on around ``t``."""
    g = play.group(group)
    model = group_day(play.day, play.state.groups.snapshot(play.id, g))
    tt = play.day.timetable
    # the day puts the group somewhere then (a report, a roll's way, however long ago): a crossing is on its rides
    known, rides = model.position_at(t) is not None, []
    roll = model.last_roll(t)
    if (roll is not None and roll.legs and roll.arrival is not None and roll.plan_from <= t
            <= roll.arrival + CROSSING_SLACK and model.on_plan(roll, t)):
        known = True
        rides += [(leg.trip, leg.board_row, leg.alight_row) for leg in roll.legs if not leg.is_walk
                  and leg.departure(tt) - CROSSING_SLACK <= t <= leg.arrival(tt) + CROSSING_SLACK]
    for p in model.positions:  # a report before: standing somewhere, or in a train still running around ``t``
        if p.time > t:
            continue
        if t - CROSSING_SLACK <= p.time:
            known = True
        if p.position.seated:
            rows = tt.trip_stop_times(p.position.trip)
            if t - CROSSING_SLACK <= int(tt.st_arr[rows.stop - 1]) and (t - CROSSING_SLACK <= p.time or not any(
                    q.time > p.time and q.time <= t for q in model.positions)):
                rides.append((p.position.trip, rows.start, rows.stop - 1))
    return known, rides


def group_train(play: Play, group: str, ref: str, t: int) -> int:
    """The trip the group names ``ref`` at ``t``: by its time at the station (or stop) its day has it at then
    (:func:`planner.service.read.positions.named_train`), never by another stop's time."""
    model = group_day(play.day, play.state.groups.snapshot(play.id, play.group(group)))
    return named_train(play.day, model, ref, t)


def train_at(play: Play, group: str, t: int) -> int | None:
    """The train the group's day has it in at ``t`` (or just left), else None: the train it sits in then as its
    day has it (boarded at a report or on a roll's way, however long ago, its first stop too), else the ride of
    a roll's itinerary or of a report around ``t``."""
    pos = group_day(play.day, play.state.groups.snapshot(play.id, play.group(group))).position_at(t)
    if pos is not None and pos.seated:
        return pos.trip
    _known, rides = _rides(play, group, t)
    return rides[0][0] if rides else None


def check_place(play: Play, group: str, event: Event, events: list[Event]) -> None:
    """What may be bought (or paid) where: refuse a purchase or fee of a station the group's day cannot put it at
    then, or of a toll line or tunnel none of its trains then crossed (one rule for the offers a group sees and
    for the events it records; ``events``: the ledger's standing events, whose purchases and fees at stations
    are sightings too)."""
    if event.target == STATION:
        check_at_station(play, group, event, events)
    else:
        check_crossing(play, group, event)


def check_crossing(play: Play, group: str, event: Event) -> None:
    """Refuse a toll-line or tunnel purchase or fee when the group's day has it elsewhere then: a known group must
    be on (or just off) a train that travels through it around that time."""
    known, rides = _rides(play, group, event.time)
    if not known:
        return  # nothing known: the group's statement
    stretches = play.day.crossings_by_trip
    tt = play.day.timetable
    for trip, board, alight in rides:
        for name, first, last in stretches.get(trip, ()):
            if name != event.name or not (board <= first and last <= alight):
                continue
            if int(tt.st_dep[first]) - CROSSING_SLACK <= event.time <= int(tt.st_arr[last]) + CROSSING_SLACK:
                return
    said = (_("group {group} crossing toll line {name} at {time}? its day has it in no train through it then "
              "(report the train first: 'planner group position --trip')") if event.target == "toll_line" else
            _("group {group} crossing tunnel {name} at {time}? its day has it in no train through it then (report "
              "the train first: 'planner group position --trip')"))
    phone = (_("group {group} crossing toll line {name} at {time}? its day has it in no train through it then "
               "(tell the train you are in first)") if event.target == "toll_line" else
             _("group {group} crossing tunnel {name} at {time}? its day has it in no train through it then (tell "
               "the train you are in first)"))
    where = {"group": play.group(group).name, "name": event.name, "time": fmt_clock(event.time)}
    raise InputError(said.format(**where), phone=phone.format(**where))
