"""Equally fast legal itineraries (pure): every way the rules let a group reach a target as early as its fastest.

The group must head for its target by the fastest way (§4.4), so when several itineraries arrive at the same
minute the group may choose among them: the one that earns the full-hour bonus, the cheapest in fees. The scans'
labels hold one journey per start departure and leg count (:func:`planner.routing.query.equally_fast`); a way that
first rides away and comes back on a later train through the origin (Rotkreuz -> Hünenberg Zythus -> S1 back
through Rotkreuz), or changes at another station with as many changes, is not among them. So each first ride the
group may take (the change window decides which) is tried with every stop it may get off at, followed by the
fastest legal way from there; whatever arrives as early and passes the rule's own check (:func:`check_legs`) is one
more equally fast itinerary.
"""

from __future__ import annotations

from planner.game.zugzwang import boardable, check_legs, journey_log
from planner.gamefile.rules import ChangeWindow
from planner.routing.journey import Journey, Leg
from planner.routing.network import TransitNetwork
from planner.routing.origin import trip_origin
from planner.routing.query import Origin, best_journey, equally_fast

WAYS_MEMO = 20_000  # remembered sets of equally fast ways per network, then forgotten at once
ONWARD_MEMO = 50_000  # remembered onward journeys per network, then forgotten at once
MAX_FIRST_RIDES = 12  # first trains tried (the window holds a handful; a forced wait at a hub a few more)


def equally_fast_ways(net: TransitNetwork, window: ChangeWindow | None, origin: Origin, target: int,
                      journey: Journey) -> list[Journey]:
    """Every legal itinerary found that reaches ``target`` at ``journey``'s arrival (``journey`` first).
    Remembered on the network (its timetable never changes; real-time data makes a new one): groups rolling where
    and when other groups rolled ask it again (journeys are immutable; each caller gets its own list)."""
    ways = net.remembered("_equally_fast_ways", (window, origin, target, journey.signature()),
                          lambda: _ways(net, window, origin, target, journey), WAYS_MEMO)
    return [journey, *ways[1:]]


def _ways(net: TransitNetwork, window: ChangeWindow | None, origin: Origin, target: int,
          journey: Journey) -> list[Journey]:
    tt = net.tt
    arrival = journey.arrival(tt)
    found: dict[tuple, Journey] = {journey.signature(): journey}
    for j in equally_fast(net, origin, target, arrival):
        found.setdefault(j.signature(), j)
    # no way on from a stop can beat its arrival there plus the ride time's static lower bound
    bound = net.lower_bounds(net.target_arrays(int(target))[0])[0]
    for first in _first_rides(net, window, origin, arrival):
        station = first.to_station(tt)
        if station == target or int(tt.st_arr[first.alight_row]) + int(bound[station]) > arrival:
            continue
        # on from the platform it got off at (in the train, at its stop): the change times from that platform
        # hold, as they do in every scan (a group standing anywhere in the station could catch a train on the
        # far platform a minute later, which one just off a train cannot)
        rest = _onward(net, first.trip, first.alight_row, origin.window, target)
        if rest is None or not rest.legs or rest.arrival(tt) != arrival:
            continue
        legs = rest.legs
        if not legs[0].is_walk and legs[0].trip == first.trip:  # it stays on: that way alights further on
            legs = (Leg(first.trip, first.board_row, legs[0].alight_row), *legs[1:])
        else:
            legs = (first, *legs)
        j = Journey(origin.station, target, origin.time, legs)
        if j.signature() not in found and _legal(net, window, origin, j):
            found[j.signature()] = j
    return list(found.values())


def _onward(net: TransitNetwork, trip: int, row: int, window: int | None, target: int) -> Journey | None:
    """The best journey on from stop-time ``row`` of ``trip`` to ``target``, remembered on the network (its
    timetable never changes; real-time data makes a new network): groups rolling in the same trains ask it again
    and again, and a journey is immutable."""
    return net.remembered("_onward_journeys", (trip, row, window, target),
                          lambda: best_journey(net, trip_origin(net, trip, row, window=window), target), ONWARD_MEMO)


def _first_rides(net: TransitNetwork, window: ChangeWindow | None, origin: Origin, arrival: int) -> list[Leg]:
    """First legs the group may ride (to every later stop it can get off at, arriving by ``arrival``)."""
    tt = net.tt
    if origin.in_trip:
        starts = [(origin.trip, origin.row)]
    else:
        if window is not None:
            conns = boardable(net, origin.station, origin.time, window.seconds, since=origin.got_off)
        else:
            conns = [c for c in range(net.first_connection_at(origin.time), net.n_connections)
                     if int(net.c_dep[c]) <= arrival and net.c_pick[c]
                     and int(net.stop_station[net.c_from[c]]) == origin.station][:MAX_FIRST_RIDES]
        seen: set[int] = set()
        starts = []
        for c in conns:
            trip = int(net.c_trip[c])
            if trip not in seen and int(net.c_dep[c]) <= arrival:
                seen.add(trip)
                starts.append((trip, int(net.c_row[c])))
        starts = starts[:MAX_FIRST_RIDES]
    out = []
    for trip, board in starts:
        for r in range(board + (0 if origin.in_trip else 1), tt.trip_stop_times(trip).stop):
            if int(tt.st_arr[r]) > arrival:
                break
            if tt.st_dropoff[r] and int(tt.stop_station[tt.st_stop[r]]) != origin.station:
                out.append(Leg(trip, board, r))
    return out


def _legal(net: TransitNetwork, window: ChangeWindow | None, origin: Origin, journey: Journey) -> bool:
    if window is None:
        return True
    start = None if origin.in_trip else (origin.got_off, origin.time)
    return not check_legs(net, journey_log(net, journey), window, start=start)
