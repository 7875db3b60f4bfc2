"""Write GTFS-RT ``FeedMessage`` files for real trips of the Zug extract (the tests' real-time fixtures).

The files are made with the official bindings (``gtfs-realtime-bindings``), about the demo's itinerary: a group
at Zug at 12:40 heading for Wohlen AG takes the S1 13:06 to Rotkreuz (13:19) and changes to the S26 13:23.
Scenarios: ``late`` (the S1 4 min late from Zug: the change breaks), ``early``, ``cancelled`` (the S26),
``skipped`` (the S26 skips Rotkreuz), ``jail`` (the S1 6 min late), ``unknown`` (a trip the day lacks, beside
``late``), ``original`` (``late`` named only by ``original_trip_id``), ``platform`` (``late`` on a platform the
timetable does not plan), ``empty``, ``stale`` (``late`` two hours old), ``wrong_date``, ``garbage`` (random
bytes), ``truncated`` (``late`` cut in half). ``manifest.json`` lists what each file holds.

    python -m tests.support.rt_fixtures --out /tmp/rt [--feed ZIP --date 2021-09-11]

No network: the tests call :func:`write_fixtures` into a temporary folder.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
from pathlib import Path

from google.transit import gtfs_realtime_pb2 as rt

DEMO_FEED = "../shared/data/gtfs/ch-zug-fp2021.zip"
DEMO_DATE = dt.date(2021, 9, 11)
SCENARIO = {"at": "Zug", "time": "12:40", "to": "Wohlen AG"}


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def feed_message(timestamp: int, updates: list[dict]) -> bytes:
    """A FeedMessage of trip updates. Each update: ``trip_id``, optional ``original_trip_id`` (the Swiss
    profile's field 8, written as such), ``start_date``, ``canceled``, ``delay`` (trip level) and ``stops``:
    ``{stop_id, stop_sequence, arrival_delay, departure_delay, arrival_time, departure_time, skipped, no_data}``."""
    fm = rt.FeedMessage()
    fm.header.gtfs_realtime_version = "2.0"
    fm.header.incrementality = rt.FeedHeader.FULL_DATASET
    if timestamp:
        fm.header.timestamp = int(timestamp)
    for i, u in enumerate(updates):
        e = fm.entity.add()
        e.id = f"e{i}"
        tu = e.trip_update
        if u.get("trip_id") is not None:
            tu.trip.trip_id = u["trip_id"]
        if u.get("start_date"):
            tu.trip.start_date = u["start_date"]
        if u.get("canceled"):
            tu.trip.schedule_relationship = rt.TripDescriptor.CANCELED
        if u.get("original_trip_id"):
            raw = u["original_trip_id"].encode()
            tu.trip.MergeFromString(b"\x42" + _varint(len(raw)) + raw)  # field 8, length-delimited
        if u.get("delay") is not None:
            tu.delay = int(u["delay"])
        for st in u.get("stops", []):
            s = tu.stop_time_update.add()
            if st.get("stop_sequence") is not None:
                s.stop_sequence = int(st["stop_sequence"])
            if st.get("stop_id"):
                s.stop_id = st["stop_id"]
            if st.get("skipped"):
                s.schedule_relationship = rt.TripUpdate.StopTimeUpdate.SKIPPED
            elif st.get("no_data"):
                s.schedule_relationship = rt.TripUpdate.StopTimeUpdate.NO_DATA
            for kind in ("arrival", "departure"):
                ev = getattr(s, kind)
                if st.get(f"{kind}_delay") is not None:
                    ev.delay = int(st[f"{kind}_delay"])
                if st.get(f"{kind}_time") is not None:
                    ev.time = int(st[f"{kind}_time"])
    return fm.SerializeToString()


def demo_legs(day) -> list[dict]:
    """The demo itinerary's legs (trip id, boarding and alighting stop ids) on the timetable."""
    from planner.game.day import Position
    from planner.routing import best_journey
    from planner.service.read.positions import origin_of
    from planner.util.timefmt import parse_clock

    tt = day.timetable
    t = parse_clock(SCENARIO["time"])
    origin = origin_of(day, Position(day.station(SCENARIO["at"]), t), t)
    j = best_journey(day.plan_network, origin, day.station(SCENARIO["to"]))
    return [{"trip_id": tt.trip_id[leg.trip], "board_row": leg.board_row, "alight_row": leg.alight_row,
             "board_stop": tt.stop_id[tt.st_stop[leg.board_row]], "alight_stop": tt.stop_id[tt.st_stop[leg.alight_row]],
             "route": tt.route_name[tt.trip_route[leg.trip]]} for leg in j.legs]


def _other_platform(tt, stop_id: str) -> str | None:
    """Another platform of the same station (a platform change)."""
    q = tt.stop_index[stop_id]
    off, members = tt.station_stops
    s = int(tt.stop_station[q])
    for m in members[off[s]:off[s + 1]]:
        if int(m) != q:
            return tt.stop_id[int(m)]
    return None


def scenarios(day, date: dt.date = DEMO_DATE) -> dict[str, tuple[bytes, dict]]:
    """Every scenario's bytes and what it holds (see the module docstring)."""
    from planner.realtime.overlay import service_day_start

    tt = day.timetable
    legs = demo_legs(day)
    first, second = legs[0], legs[1]
    ymd = date.strftime("%Y%m%d")
    ts = service_day_start(date) + 12 * 3600 + 38 * 60  # 12:38 Swiss time on the game day

    def late(minutes: int, **extra) -> dict:
        return {"trip_id": first["trip_id"], "start_date": ymd,
                "stops": [{"stop_id": first["board_stop"], "departure_delay": minutes * 60}], **extra}

    out: dict[str, tuple[bytes, dict]] = {}
    out["late"] = (feed_message(ts, [late(4)]), {"trip": first["trip_id"], "delay_min": 4})
    out["early"] = (feed_message(ts, [{"trip_id": first["trip_id"], "start_date": ymd, "stops": [
        {"stop_id": first["alight_stop"], "arrival_delay": -120}]}]), {"trip": first["trip_id"], "delay_min": -2})
    out["cancelled"] = (feed_message(ts, [{"trip_id": second["trip_id"], "start_date": ymd, "canceled": True}]),
                        {"trip": second["trip_id"]})
    out["skipped"] = (feed_message(ts, [{"trip_id": second["trip_id"], "start_date": ymd, "stops": [
        {"stop_id": second["board_stop"], "skipped": True}]}]),
        {"trip": second["trip_id"], "stop": second["board_stop"]})
    out["jail"] = (feed_message(ts, [late(6)]), {"trip": first["trip_id"], "delay_min": 6,
                                                   "station": tt.station_name[tt.stop_station[tt.st_stop[first["alight_row"]]]]})
    out["unknown"] = (feed_message(ts, [late(4), {"trip_id": "no.such.trip", "start_date": ymd, "stops": [
        {"stop_id": first["board_stop"], "departure_delay": 600}]}]), {"unknown": 1})
    orig = late(4, original_trip_id=first["trip_id"])
    orig["trip_id"] = "rt-only-id-4711"
    out["original"] = (feed_message(ts, [orig]), {"trip": first["trip_id"], "delay_min": 4})
    other = _other_platform(tt, first["board_stop"])
    plat = late(4)
    plat["stops"][0]["stop_id"] = other or first["board_stop"]
    out["platform"] = (feed_message(ts, [plat]), {"trip": first["trip_id"], "delay_min": 4, "stop_id": other})
    out["empty"] = (feed_message(ts, []), {})
    out["stale"] = (feed_message(ts - 2 * 3600, [late(4)]), {"age_min": 120})
    nxt = (date + dt.timedelta(days=1)).strftime("%Y%m%d")
    out["wrong_date"] = (feed_message(ts + 86400, [late(4, start_date=nxt)]), {})
    rnd = random.Random(20)
    out["garbage"] = (bytes([0xFF, 0xFF]) + bytes(rnd.randrange(256) for _ in range(3000)), {})
    whole = out["late"][0]
    out["truncated"] = (whole[: len(whole) // 2], {})
    return out


def write_fixtures(day, out_dir: Path, date: dt.date = DEMO_DATE) -> dict:
    """Write every scenario as ``<name>.pb`` into ``out_dir`` and ``manifest.json``; returns the manifest."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    manifest = {"date": date.isoformat(), "scenario": SCENARIO, "legs": demo_legs(day), "files": {}}
    for name, (data, info) in scenarios(day, date).items():
        (out_dir / f"{name}.pb").write_bytes(data)
        manifest["files"][name] = info
    (out_dir / "manifest.json").write_text(json.dumps(manifest, indent=2))
    return manifest


def main(argv: list[str] | None = None) -> int:
    """Write the fixtures for the demo extract (or ``--feed``/``--date``)."""
    from planner.gamefile.game import load_game
    from planner.service.setup.playing import GameDay

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--feed", default=DEMO_FEED)
    ap.add_argument("--date", default=DEMO_DATE.isoformat())
    ap.add_argument("--game", default="sbb-monopoly")
    a = ap.parse_args(argv)
    date = dt.date.fromisoformat(a.date)
    m = write_fixtures(GameDay(a.feed, load_game(a.game), date), Path(a.out), date)
    print(json.dumps(m["files"], indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
