"""The tolls use case: "which toll lines and tunnels does this trip cross, and what do we owe?" (``planner
tolls``): decided on the physical path of the train between its stops (docs/rules.md §3 "Crossing"), fees by the
owners' counts (§11.2, §12.2)."""

from __future__ import annotations

from planner.errors import InputError
from planner.game.owners import resolve_owners
from planner.ledger.crossing_fees import fee_for
from planner.rail.trips import trip_crossings
from planner.service.answers.questions import TollCrossing, TollsAnswer
from planner.service.setup.playing import GameDay
from planner.timetable.trips import find_trip
from planner.util.i18n import _


def tolls_answer(day: GameDay, trip_ref: str, at: str | None = None, to: str | None = None,
                 owners_doc: dict | None = None, tunnel_dice: int | None = None,
                 owners_source: str = "owners") -> TollsAnswer:
    """The crossings of ``trip_ref`` (from ``at`` to ``to``, default its first and last stop in the area) with
    each owner's fee (``owners_doc``: the owners file as parsed; ``tunnel_dice``: the two dice's sum)."""
    tt, game = day.timetable, day.game
    trip = find_trip(tt, trip_ref)
    rows = list(tt.trip_stop_times(trip))
    first, last = rows[0], rows[-1]
    if at:
        s = day.station(at)
        cand = [r for r in rows if tt.stop_station[tt.st_stop[r]] == s]
        if not cand:
            raise InputError(_("trip {trip} does not stop at {station}").format(trip=trip_ref,
                                                                                 station=tt.station_name[s]))
        first = cand[0]
    if to:
        s = day.station(to)
        cand = [r for r in rows if tt.stop_station[tt.st_stop[r]] == s and r > first]
        if not cand:
            raise InputError(_("trip {trip} does not stop at {station} after the boarding stop").format(
                trip=trip_ref, station=tt.station_name[s]))
        last = cand[0]
    if tunnel_dice is not None and not 2 <= tunnel_dice <= 12:
        raise InputError(_("--tunnel-dice {sum}: two dice sum to 2-12").format(sum=tunnel_dice))
    owners = resolve_owners(owners_doc, game, tt.station_name, owners_source) if owners_doc else {}
    # Here, not at the top: the loader imports pandas and networkx (300 ms) and this module sits on the
    # import path of target and roll, which never read the physical network.
    from planner.rail.loader import load_rail_network

    crossings = []
    for h in trip_crossings(tt, load_rail_network(), game, trip, first, last):
        c = game.crossing(h.name)
        fee = fee_for(game, c, owners, tunnel_dice) if c is not None else None
        crossings.append(TollCrossing(name=h.name, kind=h.kind, between=list(h.between), owner=owners.get(h.name),
                                      fee=None if fee is None else fee["amount"],
                                      fee_text=None if fee is None else fee["text"]))
    return TollsAnswer(trip_id=tt.trip_id[trip], route=tt.route_name[tt.trip_route[trip]],
                       from_=tt.station_name[tt.stop_station[tt.st_stop[first]]],
                       to=tt.station_name[tt.stop_station[tt.st_stop[last]]], crossings=crossings)
