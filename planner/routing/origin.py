"""Where a group is when it asks: standing at a station (since when, under which change window) or seated in a
trip (:class:`Origin`), as the queries of :mod:`planner.routing.query` take it."""

from __future__ import annotations

from dataclasses import dataclass, replace

from planner.errors import InputError
from planner.routing.network import INF, TransitNetwork
from planner.routing.rule_limits import first_departure_limit, first_departure_limit_real
from planner.util.i18n import _

DEFAULT_MAX_LEGS = 12  # trips per itinerary at the most (the level cap of the scans)


@dataclass(frozen=True)
class Origin:
    """Where a group is: standing at ``station`` at ``time``, or seated in ``trip`` at/approaching ``row``.

    ``window`` (seconds) binds the group by the change-window rule (variant A §4.2, game-file data; None =
    plain timetable routing); ``since`` is when a standing group got off at ``station`` (None = ``time``).
    """

    station: int = -1
    time: int = 0
    trip: int = -1
    row: int = -1
    since: int | None = None
    window: int | None = None

    @property
    def in_trip(self) -> bool:
        """True when the group sits in a train."""
        return self.trip >= 0

    @property
    def got_off(self) -> int:
        """When a standing group got off at its station (its rule window starts there)."""
        return self.time if self.since is None else self.since

    def later(self, time: int) -> Origin:
        """The same standing group asked at a later ``time``, still bound by the window it got off into."""
        return replace(self, time=int(time), since=self.got_off)

    def first_departure_limit(self, net: TransitNetwork) -> int:
        """Latest first departure this group may take (INF without the rule or seated): the window's end,
        or, when nothing departs in the window, the last second of the minute of the forced next train."""
        if self.window is None or self.in_trip:
            return int(INF)
        w_end = self.window_end
        # remembered on the network: a dice answer's searches ask it for one origin a few times over
        return net.remembered("_first_departure_limit", (self.station, self.time, w_end),
                              lambda: self._first_departure_limit(net, w_end), 100_000)

    def _first_departure_limit(self, net: TransitNetwork, w_end: int) -> int:
        sd_off, sd_time, _, _ = net.station_boardings
        if net.on_plan:
            return int(first_departure_limit(self.station, self.time, w_end, sd_off, sd_time, net.link_off,
                                             net.link_to, net.link_sec))
        real, late, _ = net.boarding_times  # on predicted times: the latest predicted departure it may take
        return int(first_departure_limit_real(self.station, self.time, w_end, sd_off, sd_time, real, late,
                                              net.link_off, net.link_to, net.link_sec))

    @property
    def window_end(self) -> int:
        """The last timetable departure time the standing group's window holds (docs/rules.md §3)."""
        return max(self.time, self.got_off + int(self.window or 0))


def station_origin(station: int, time: int, *, since: int | None = None, window: int | None = None) -> Origin:
    """A group standing at ``station`` (any platform) at ``time`` (seconds), there since ``since``, bound by
    a change window of ``window`` seconds (None: no rule)."""
    return Origin(station=int(station), time=int(time), since=None if since is None else int(since),
                  window=None if window is None else int(window))


def trip_origin(net: TransitNetwork, trip: int, row: int, *, window: int | None = None,
                time: int | None = None) -> Origin:
    """A group seated in ``trip``, at or approaching the stop of stop-time ``row`` (bound by ``window``
    from the moment it gets off). ``time``: asked then; a train standing at that stop (arrived before ``time``)
    lets the group get off there only now, not at its arrival."""
    tt = net.tt
    rng = tt.trip_stop_times(trip)
    if row not in rng:
        raise InputError(_("row {row} is not a stop of trip {trip}").format(row=row, trip=tt.trip_id[trip]))
    at = int(tt.st_arr[row]) if time is None else max(int(tt.st_arr[row]), int(time))
    return Origin(station=int(tt.stop_station[tt.st_stop[row]]), time=at, trip=int(trip),
                  row=int(row), window=None if window is None else int(window))
