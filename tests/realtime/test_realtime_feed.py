"""The GTFS-RT reader: the numba wire decoder reads what the official bindings write (random messages), and a
file that is not a feed is one clear error (empty, garbage, truncated, random bytes), never a crash."""

from __future__ import annotations

import random

import numpy as np
import pytest
from google.transit import gtfs_realtime_pb2 as rt

from planner.realtime import wire
from planner.realtime.feed import RealtimeError, decode_feed
from tests.support.rt_fixtures import feed_message


def _random_feed(rng: random.Random) -> tuple[bytes, list[dict]]:
    updates = []
    for _ in range(rng.randrange(0, 8)):
        u = {"trip_id": rng.choice([f"t{rng.randrange(99)}", "", "1.TA.91-S01-N-j21-1.97.H"]),
             "start_date": rng.choice(["", "20210911", "20210912"]), "canceled": rng.random() < 0.2,
             "original_trip_id": rng.choice([None, f"orig-{rng.randrange(9)}"]),
             "delay": rng.choice([None, rng.randrange(-600, 3600)]), "stops": []}
        for _ in range(rng.randrange(0, 6)):
            st = {"stop_id": rng.choice(["", "8502204:0:4", f"85{rng.randrange(10**5):05d}"]),
                  "stop_sequence": rng.choice([None, rng.randrange(1, 40)]),
                  "skipped": rng.random() < 0.1, "no_data": rng.random() < 0.1}
            for kind in ("arrival", "departure"):
                if rng.random() < 0.6:
                    st[f"{kind}_delay"] = rng.randrange(-900, 7200)
                if rng.random() < 0.3:
                    st[f"{kind}_time"] = 1631354400 + rng.randrange(0, 86400)
            u["stops"].append(st)
        updates.append(u)
    return feed_message(rng.choice([0, 1631356680]), updates), updates


def _bindings_rows(data: bytes):
    fm = rt.FeedMessage()
    fm.ParseFromString(data)
    tus, sus = [], []
    for e in fm.entity:
        if not e.HasField("trip_update"):
            continue
        tu = e.trip_update
        tus.append((tu.trip.trip_id, tu.trip.start_date, int(tu.trip.schedule_relationship),
                    tu.delay if tu.HasField("delay") else None, len(tu.stop_time_update)))
        for s in tu.stop_time_update:
            ev = {}
            for kind in ("arrival", "departure"):
                if s.HasField(kind):
                    x = getattr(s, kind)
                    ev[kind] = (x.delay if x.HasField("delay") else None, x.time if x.HasField("time") else None)
                else:
                    ev[kind] = (None, None)
            sus.append((s.stop_id, s.stop_sequence if s.HasField("stop_sequence") else None,
                        int(s.schedule_relationship), ev["arrival"], ev["departure"]))
    return fm.header.timestamp, tus, sus


def _wire_rows(data: bytes):
    f = decode_feed(data, "x")
    tus = []
    for i, row in enumerate(f.tu):
        tus.append((f.trip_id[i].decode(), f.start_date[i].decode(), int(row[wire.TU_REL]),
                    int(row[wire.TU_DELAY]) if row[wire.TU_HAS_DELAY] else None,
                    int(row[wire.TU_STU1] - row[wire.TU_STU0])))
    sus = []
    for i, row in enumerate(f.su):
        ev = {}
        for kind, col in (("arrival", wire.SU_ARR_DELAY), ("departure", wire.SU_DEP_DELAY)):
            ev[kind] = (int(row[col]) if row[col + 1] else None, int(row[col + 2]) if row[col + 3] else None)
        sus.append((f.stop_id[i].decode(), int(row[wire.SU_SEQ]) if row[wire.SU_HAS_SEQ] else None,
                    int(row[wire.SU_REL]), ev["arrival"], ev["departure"]))
    return f.timestamp, tus, sus, f


def test_wire_decoder_reads_what_the_bindings_write():
    rng = random.Random(7)
    for _ in range(300):
        data, updates = _random_feed(rng)
        ts, tus, sus = _bindings_rows(data)
        ts2, tus2, sus2, f = _wire_rows(data)
        assert (ts, tus, sus) == (ts2, tus2, sus2)
        # the Swiss profile's original_trip_id (field 8, unknown to the bindings) is read too
        assert [o.decode() for o in f.original_trip_id] == [u.get("original_trip_id") or "" for u in updates]


def test_other_entities_and_deleted_ones_are_read_or_skipped():
    fm = rt.FeedMessage()
    fm.header.gtfs_realtime_version = "2.0"
    a = fm.entity.add()
    a.id = "alert"
    a.alert.header_text.translation.add().text = "Bauarbeiten"
    d = fm.entity.add()
    d.id = "gone"
    d.is_deleted = True
    d.trip_update.trip.trip_id = "t1"
    f = decode_feed(fm.SerializeToString(), "x")
    assert f.n_entities == 2 and f.n_trip_updates == 1 and f.tu[0, wire.TU_DELETED] == 1


@pytest.mark.parametrize("data, why", [
    (b"", "empty file"),
    (b"\x0f", "not protobuf"),
    (b"\xff\xff\xff", "truncated"),
    (b"\x0a\x05\x0a\x03", "truncated"),
    (b"\x10\x01", "no header"),
    # a well-formed envelope around a stop-time update whose sequence number never ends: only the walk that
    # fills the columns enters stop updates, and once left the rest of them unwritten (np.empty) and no error
    (b"\x0a\x05\x0a\x032.0" + b"\x12\x0e" + b"\x0a\x011" + b"\x1a\x09" + b"\x0a\x03\x0a\x01x" + b"\x12\x02\x08\x80",
     "truncated"),
])
def test_not_a_feed_is_one_clear_error(data, why):
    with pytest.raises(RealtimeError, match=why):
        decode_feed(data, "f.pb")


def test_random_bytes_and_cut_feeds_never_crash():
    rng = random.Random(3)
    whole, _ = _random_feed(random.Random(11))
    for n in range(len(whole)):
        try:
            decode_feed(whole[:n], "cut.pb")
        except RealtimeError as exc:
            assert "cut.pb" in str(exc)
    for _ in range(500):
        blob = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))
        try:
            f = decode_feed(blob, "r.pb")
        except RealtimeError:
            continue
        assert f.tu.shape[1] == wire.N_TU and np.all(f.tu[:, wire.TU_STU0] <= f.tu[:, wire.TU_STU1])
