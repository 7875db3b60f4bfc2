"""The 29-minute rule (variant A §4.2): after getting off at t, take a train departing by t+29 min;
if none departs in that window, the next departing train."""

from __future__ import annotations

import numpy as np

from planner.routing.network import TransitNetwork
from planner.util.timefmt import fmt_clock

WINDOW = 29 * 60


def departures_between(net: TransitNetwork, station: int, t0: int, t1: int, exclude_trip: int = -1) -> list[dict]:
    """Trains boardable at ``station`` departing in [t0, t1] (one row per trip), in time order."""
    tt = net.tt
    lo = np.searchsorted(net.c_dep, t0, side="left")
    hi = np.searchsorted(net.c_dep, t1, side="right")
    out, seen = [], set()
    for i in range(lo, hi):
        if not net.c_pick[i] or net.stop_station[net.c_from[i]] != station:
            continue
        trip = int(net.c_trip[i])
        if trip in seen or trip == exclude_trip:
            continue
        seen.add(trip)
        row = int(net.c_row[i])
        out.append({
            "trip_id": tt.trip_id[trip], "route": tt.route_name[tt.trip_route[trip]],
            "headsign": tt.trip_headsign[trip], "platform": tt.stop_platform[tt.st_stop[row]],
            "departure": fmt_clock(int(net.c_dep[i])), "_dep": int(net.c_dep[i]), "_row": row, "_trip": trip,
        })
    return out


def zugzwang(net: TransitNetwork, station: int, t: int, exclude_trip: int = -1, window: int = WINDOW) -> dict:
    """Deadline and the trains the group may take after getting off at ``station`` at ``t``.

    Every departure in the window is listed; ``catchable`` is False for one leaving sooner than the
    station's shortest change time (e.g. the train just left). If no catchable train departs in the
    window, the next catchable one must be taken (``forced_next``).
    """
    need = net.min_change(station)
    deps = departures_between(net, station, t, t + window, exclude_trip)
    for d in deps:
        d["catchable"] = d["_dep"] >= t + need
    forced = False
    if not any(d["catchable"] for d in deps):
        later = departures_between(net, station, t + need, 48 * 3600, exclude_trip)
        deps = [d | {"catchable": True} for d in later[:1]]
        forced = True
    return {
        "station": net.tt.station_name[station], "got_off": fmt_clock(t), "deadline": fmt_clock(t + window),
        "departures": [{k: v for k, v in d.items() if not k.startswith("_")} for d in deps],
        "forced_next": forced,
    }


def check_legs(net: TransitNetwork, legs: list[dict], window: int = WINDOW) -> list[dict]:
    """Check a day's log of legs (dicts with ``from_station``, ``to_station``, ``departure``, ``arrival``
    as station indexes and seconds, plus ``line`` for messages) and list every violation of §4.1/§4.2."""
    tt = net.tt
    out = []
    for prev, cur in zip(legs, legs[1:], strict=False):
        here = prev["to_station"]
        if cur["from_station"] != here:
            out.append({"line": cur["line"], "rule": "4.1",
                        "message": f"left from {tt.station_name[cur['from_station']]} but arrived at "
                                   f"{tt.station_name[here]} (no walking between stations)"})
            continue
        t = prev["arrival"]
        wait = cur["departure"] - t
        if wait <= window:
            continue
        in_window = departures_between(net, here, t, t + window)
        if in_window:
            first = in_window[0]
            out.append({"line": cur["line"], "rule": "4.2",
                        "message": f"waited {wait // 60} min at {tt.station_name[here]} after {fmt_clock(t)}; "
                                   f"{len(in_window)} train(s) left by {fmt_clock(t + window)}, first "
                                   f"{first['route']} {first['departure']}"})
        else:
            nxt = departures_between(net, here, t + window + 1, 48 * 3600)
            if nxt and nxt[0]["_dep"] < cur["departure"]:
                out.append({"line": cur["line"], "rule": "4.2",
                            "message": f"no train within 29 min of {fmt_clock(t)} at {tt.station_name[here]}: "
                                       f"the next one ({nxt[0]['route']} {nxt[0]['departure']}) had to be taken"})
    return out
