"""Compile the numba routing kernels into their on-disk cache during set-up (``make setup``).

numba compiles on the first call and caches the machine code beside the sources (``cache=True``); without this
step the first real command after a fresh install spends seconds compiling. The warm-up runs the real pipeline
(ingest, network, every query kind) on a three-station feed written to a temporary folder, so the kernels are
compiled for exactly the argument types real queries use.
"""

from __future__ import annotations

import datetime as dt
import tempfile
import time
from pathlib import Path

from planner.gamefile.game import load_game
from planner.gtfs.ingest import build_timetable
from planner.gtfs.source import FeedSource
from planner.routing import query
from planner.routing.network import TransitNetwork

_FEED = {
    "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Warm-up,https://example.invalid,Europe/Zurich\n",
    "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\n"
                 "8500001,Alpha,47.0,8.0\n8500002,Beta,47.01,8.01\n8500003,Gamma,47.02,8.02\n",
    "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nR1,A,S1,,106\nR2,A,S2,,106\n",
    "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
                    "D,1,1,1,1,1,1,1,20200101,20301231\n",
    "trips.txt": "route_id,service_id,trip_id\nR1,D,t1\nR1,D,t2\nR2,D,t3\n",
    "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
                      "t1,10:00:00,10:00:00,8500001,1\nt1,10:10:00,10:11:00,8500002,2\n"
                      "t1,10:20:00,10:20:00,8500003,3\n"
                      "t2,10:30:00,10:30:00,8500001,1\nt2,10:40:00,10:40:00,8500002,2\n"
                      "t3,10:15:00,10:15:00,8500002,1\nt3,10:18:00,10:18:00,8500003,2\n",
}


def warm_up() -> float:
    """Run every query kind once on a tiny feed; returns the seconds it took (compilation included)."""
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="sbb-planner-warmup-") as tmp:
        for name, text in _FEED.items():
            Path(tmp, name).write_text(text, encoding="utf-8")
        tt = build_timetable(FeedSource(tmp), load_game("none"), dt.date(2021, 9, 11), progress=False)
    net = TransitNetwork(tt)
    alpha, gamma = 0, tt.n_stations - 1
    origin = query.station_origin(alpha, 9 * 3600 + 55 * 60)
    fastest = query.best_journey(net, origin, gamma)
    query.journeys_within(net, origin, gamma, 20, fastest=fastest)
    query.reach(net, query.Query(query.trip_origin(net, 0, int(tt.trip_offset[0]))))
    # the change-window rule (variant A) runs its own kernels (planner.routing.rule_scan)
    bound = query.station_origin(alpha, 9 * 3600 + 55 * 60, window=29 * 60)
    query.journeys_within(net, bound, gamma, 20, fastest=query.best_journey(net, bound, gamma))
    query.reach(net, query.Query(query.trip_origin(net, 0, int(tt.trip_offset[0]), window=29 * 60)))
    # best_journey under the rule mostly answers from the plain scan: the rule-aware one-to-one, arrive-by and
    # several-target scans (with their lower bounds) are compiled here explicitly
    query.reach(net, query.Query(bound, target=gamma))
    query.reach(net, query.Query(bound, target=gamma, arrive_by=11 * 3600))
    query.reach_targets(net, bound, [1, gamma])
    query.reach(net, query.Query(bound, target=[1, gamma]))
    return time.perf_counter() - t0


def main() -> int:
    """``python -m planner.routing.warmup``: compile and say how long it took."""
    print(f"routing kernels compiled and cached in {warm_up():.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
