"""Toll lines and tunnels on the physical path of trains (planner.rail).

Real data: the SBB line network CSV in ../shared/data/stations and the Zug extract timetable.
"""

from __future__ import annotations

import itertools
import math

import networkx as nx
import pytest

from planner.errors import FeedError, StationNotFound
from planner.ledger.crossing_fees import fee_for
from planner.organiser.crossings import route_names
from planner.rail.crossings import CrossingHit, check_crossings, crossings
from planner.rail.loader import load_rail_network, read_rail_points
from planner.rail.network import RailNetwork
from planner.rail.trips import crossing_trips, trip_crossings
from planner.timetable.model import Mode
from tests.support import DATA
from tests.support.timetable import mini_timetable

pytestmark = pytest.mark.needs_shared  # reads ../shared (tests/project/test_suite_without_shared.py)

RAIL_CSV = DATA / "stations" / "sbb-linie-mit-betriebspunkten.csv"


@pytest.fixture(scope="module")
def net() -> RailNetwork:
    """The real SBB network (cached by load_rail_network)."""
    return load_rail_network(RAIL_CSV)


def uics(net: RailNetwork, *names: str) -> list[str]:
    """Stop names -> the stations' main operating points (as a timetable's station ids)."""
    return [net.resolve(n) for n in names]


def names_of(net: RailNetwork, path: list[str]) -> list[str]:
    """Point names of a path."""
    return [net.point_name[net.node_of[u]] for u in path]


def crossed(net: RailNetwork, game, *stops: str) -> set[str]:
    """Names of the crossings of ``game`` a train stopping at ``stops`` crosses."""
    return {h.name for h in crossings(net, game, uics(net, *stops))}


# ---- shortest physical paths --------------------------------------------------------------------------

def test_shortest_paths_are_shortest_and_walk_real_edges(net):
    """From 40 points spread over the network: every distance equals an independent algorithm's
    (Bellman-Ford), and every path walks edges of the graph whose weights add up to that distance."""
    for source in range(0, len(net), len(net) // 40):
        dist, prev = net.tree((source,))
        _, reference = nx.bellman_ford_predecessor_and_distance(net.graph, source)
        assert {v: d for v, d in enumerate(dist) if math.isfinite(d)} == pytest.approx(reference)
        for target in range(0, len(net), 97):
            p = net.node_path(source, target)
            if p is None:
                assert target not in reference
                continue
            assert p[0] == source and p[-1] == target
            assert sum(net.adj[a][b] for a, b in itertools.pairwise(p)) == pytest.approx(dist[target])


def test_a_set_of_sources_reaches_each_point_from_its_nearest(net):
    a, b = net.node_of[net.resolve("Olten")], net.node_of[net.resolve("Aarau")]
    both, _ = net.tree(tuple(sorted((a, b))))
    alone = [net.tree((a,))[0], net.tree((b,))[0]]
    assert both == [min(x, y) for x, y in zip(*alone, strict=True)]
    assert net.distance([net.uics[a]], [net.uics[b]]) == pytest.approx(alone[0][b])


# ---- loading ---------------------------------------------------------------------------------------


def test_load_is_cached(net):
    # Its speed is a benchmark's business (bench/bench_maps.py), not a test's.
    fresh = RailNetwork(read_rail_points(RAIL_CSV))
    assert len(fresh) == len(net) > 1300
    assert load_rail_network(RAIL_CSV) is net


def test_default_path_from_env(monkeypatch):
    monkeypatch.setenv("PLANNER_RAIL_CSV", str(RAIL_CSV))
    assert "8500218" in load_rail_network()


def test_missing_file_is_a_one_line_feed_error(tmp_path, monkeypatch):
    monkeypatch.setenv("PLANNER_RAIL_CSV", str(tmp_path / "nope.csv"))
    with pytest.raises(FeedError, match="nope.csv") as exc:
        load_rail_network()
    assert "\n" not in str(exc.value)


@pytest.mark.parametrize("content, what", [
    ("a;b;c\n1;2;3\n", "missing column"),
    ("\ufeffAbkuerzung Bahnhof;Name Haltestelle;Linie;KM;Linien Text;Geoposition;BPUIC\n"
     "OL;Olten;500;x;Basel - Olten;47.35, 7.90;8500218\n", "malformed"),
    ("\ufeffAbkuerzung Bahnhof;Name Haltestelle;Linie;KM;Linien Text;Geoposition;BPUIC\n"
     "OL;Olten;500;39.3;Basel - Olten;47.35;8500218\n", "malformed"),
])
def test_malformed_file_is_a_feed_error(tmp_path, content, what):
    p = tmp_path / "rail.csv"
    p.write_text(content, encoding="utf-8")
    with pytest.raises(FeedError, match=what) as exc:
        load_rail_network(p)
    assert str(p) in str(exc.value)


# ---- names ------------------------------------------------------------------------------------------


def test_resolve_is_accent_tag_and_prefix_insensitive(net):
    assert net.resolve("Olten") == "8500218"  # the station point, not Olten Nord (Abzw)
    assert net.resolve("Möhlin") == net.resolve("Mohlin") == "8500302"
    assert net.resolve("Hauenstein Süd") == "8500247"  # "Hauenstein Sud (Spw)"
    assert net.point_name[net.node_of[net.resolve("Heitersberglinie Ost")]] == "Heitersberglinie Ost (Abzw)"
    assert net.resolve("Muttenz Ost") == "8515984"  # a point's own name (second name column)
    assert net.resolve("Killwangen") == net.resolve("Killwangen-Spreitenbach")  # unique prefix
    assert net.resolve_all("Olten") >= {"8500218", "8500243", "8500244"}
    with pytest.raises(StationNotFound):
        net.resolve("Hölstein")  # Waldenburgerbahn: not an SBB line
    with pytest.raises(StationNotFound, match="ambiguous"):
        net.resolve("Zürich")


def test_path_unknown_point_is_none(net):
    assert net.path("8500218", "9999999") is None
    assert net.path("8500218", "8500218") == ["8500218"]


# ---- physical paths -----------------------------------------------------------------------------------


def test_ic_basel_olten_takes_adler_and_hauenstein_base_tunnel(net):
    bs, lst, ol = uics(net, "Basel SBB", "Liestal", "Olten")
    first = net.path(bs, lst)
    # Muttenz Ost -> Liestal Nord directly: line 501, the Adler tunnel, not over Pratteln
    i = first.index("8515984")
    assert first[i + 1] == "8515272" and 501 in net.edge_lines(net.node_of[first[i]], net.node_of[first[i + 1]])
    assert "Pratteln" not in {net.station_of(u) for u in first}
    second = names_of(net, net.path(lst, ol))
    assert "Hauenstein Süd (Spw)" in second and "Tecknau" in second
    assert "Läufelfingen" not in second  # line 503 is as long by km: the preference decides


def test_ic_olten_zurich_via_aarau_and_heitersberg(net):
    p = names_of(net, net.path(*uics(net, "Olten", "Zürich HB")))
    assert "Aarau" in p and "Heitersberglinie Ost (Abzw)" in p and "Mellingen Heitersberg" in p
    assert "Baden" not in p and "Brugg AG" not in p


def test_sbahn_brugg_baden_over_turgi(net):
    p = names_of(net, net.path(*uics(net, "Brugg AG", "Baden")))
    assert p == ["Brugg AG", "Turgi", "Baden"]


def test_project_lines_are_not_used(net):
    # line 9501 "Projekt Juradurchstich" Liestal-Olten Nord is not built
    assert 9501 not in net.lines and 501 in net.lines and 503 in net.lines


# ---- definitions of both games -----------------------------------------------------------------------


def test_every_definition_resolves(net, sbb_game, nws_game):
    for game in (sbb_game, nws_game):
        for chk in check_crossings(net, game):
            if chk.name == "Hölstein–Niederdorf":
                assert chk.method == "stops"  # Waldenburgerbahn: decided on the stops
                continue
            assert chk.method == "path", (chk.name, chk.problems)
            assert chk.problems == ()
            assert chk.stretch and chk.length_km < 20
    heit = next(c for c in check_crossings(net, sbb_game) if c.name == "Heitersberg")
    assert names_of(net, list(heit.stretch)) == [
        "Mellingen Heitersberg", "Langacher (Spw)", "Heitersberglinie Ost (Abzw)", "Killwangen West (Abzw)"]
    adler = next(c for c in check_crossings(net, nws_game) if c.name == "Adlertunnel")
    assert adler.via_lines == (501,)
    assert names_of(net, list(adler.stretch)) == ["Muttenz Ost (Abzw)", "Liestal Nord (Abzw)"]


# one sequence that crosses, one that does not, per crossing (non-stop passes included)
CASES_A = [
    ("Delémont–Laufen", ["Delémont", "Basel SBB"], ["Delémont", "Moutier"]),
    ("Delémont–Laufen", ["Laufen", "Soyhières", "Delémont"], ["Laufen", "Basel SBB"]),
    ("Olten–Aarau", ["Olten", "Zürich HB"], ["Aarau", "Lenzburg"]),
    ("Olten–Aarau", ["Olten", "Aarau", "Lenzburg"], ["Olten", "Dulliken"]),
    ("Olten–Aarau", ["Bern", "Zürich HB"], ["Olten", "Zofingen"]),
    ("Brugg–Baden", ["Brugg AG", "Baden", "Wettingen"], ["Baden", "Wettingen"]),
    ("Brugg–Baden", ["Basel SBB", "Zürich HB"], ["Olten", "Zürich HB"]),
    ("Luzern–Rotkreuz", ["Luzern", "Zug"], ["Luzern", "Emmenbrücke"]),
    ("Luzern–Rotkreuz", ["Zürich HB", "Luzern"], ["Luzern", "Arth-Goldau"]),
    ("Hauenstein", ["Basel SBB", "Liestal", "Olten"], ["Sissach", "Läufelfingen", "Olten"]),
    ("Hauenstein", ["Gelterkinden", "Tecknau", "Olten"], ["Liestal", "Tecknau"]),
    ("Heitersberg", ["Olten", "Zürich HB"], ["Lenzburg", "Brugg AG", "Baden", "Zürich HB"]),
    ("Heitersberg", ["Lenzburg", "Mellingen Heitersberg", "Killwangen-Spreitenbach"], ["Baden", "Mellingen", "Lenzburg"]),
]
CASES_B = [
    ("Zwingen–Grellingen", ["Laufen", "Basel SBB"], ["Laufen", "Zwingen"]),
    ("Basel SBB–Muttenz", ["Basel SBB", "Liestal"], ["Muttenz", "Liestal"]),
    ("Basel SBB–Muttenz", ["Basel SBB", "Muttenz"], ["Basel Bad Bf", "Muttenz"]),
    ("Möhlin–Mumpf", ["Rheinfelden", "Stein-Säckingen"], ["Rheinfelden", "Möhlin"]),
    ("Möhlin–Mumpf", ["Mumpf", "Möhlin"], ["Basel SBB", "Rheinfelden"]),
    ("Adlertunnel", ["Basel SBB", "Liestal"], ["Muttenz", "Pratteln", "Liestal"]),
    ("Adlertunnel", ["Muttenz", "Liestal", "Olten"], ["Pratteln", "Frenkendorf-Füllinsdorf", "Liestal"]),
    ("Hauenstein-Basistunnel", ["Basel SBB", "Liestal", "Olten"], ["Sissach", "Läufelfingen", "Olten"]),
    ("Hauenstein-Basistunnel", ["Olten", "Sissach"], ["Olten", "Trimbach"]),
]


@pytest.mark.parametrize("name, yes, no", CASES_A)
def test_variant_a_crossings(net, sbb_game, name, yes, no):
    assert name in crossed(net, sbb_game, *yes)
    assert name not in crossed(net, sbb_game, *no)


@pytest.mark.parametrize("name, yes, no", CASES_B)
def test_variant_b_crossings(net, nws_game, name, yes, no):
    assert name in crossed(net, nws_game, *yes)
    assert name not in crossed(net, nws_game, *no)


def test_every_crossing_has_cases(sbb_game, nws_game):
    assert {c.name for c in (*sbb_game.toll_lines, *sbb_game.tunnels)} == {n for n, _, _ in CASES_A}
    covered_b = {n for n, _, _ in CASES_B} | {"Hölstein–Niederdorf"}  # stops: test_stop_fallback
    assert {c.name for c in (*nws_game.toll_lines, *nws_game.tunnels)} == covered_b


def test_leg_positions_and_direction(net, sbb_game):
    hits = crossings(net, sbb_game, uics(net, "Delémont", "Soyhières", "Laufen", "Basel SBB"))
    assert [(h.name, h.kind, h.leg_start, h.leg_end, h.forward) for h in hits] == [
        ("Delémont–Laufen", "toll_line", 0, 1, True)]
    assert (hits[0].start, hits[0].end) == (0, 2)  # board at stop 0 or before, ride to stop 2
    (h,) = crossings(net, sbb_game, uics(net, "Olten", "Sissach", "Liestal", "Basel SBB"))
    assert (h.name, h.kind, h.leg_start, h.leg_end, h.forward) == ("Hauenstein", "tunnel", 0, 0, False)
    assert "8500247" in h.points  # Hauenstein Süd
    hits = crossings(net, sbb_game, uics(net, "Bern", "Olten", "Aarau", "Zürich HB"))
    assert [(h.name, h.leg_start) for h in hits] == [("Olten–Aarau", 1), ("Heitersberg", 2)]


def test_stop_off_network_is_never_bridged(net, sbb_game):
    ol, aa = uics(net, "Olten", "Aarau")
    assert crossings(net, sbb_game, [ol, "9999999", aa]) == []
    assert [h.name for h in crossings(net, sbb_game, [ol, aa, "9999999"])] == ["Olten–Aarau"]


def test_stop_fallback_waldenburgerbahn(net, nws_game):
    # stop names as in the feed (ids of the BLT stops); the toll line is decided on the stops
    stops = [("8578249", "Lampenberg-Ramlinsburg, Station"), ("8578250", "Hölstein, Station"),
             ("8592304", "Hölstein, Süd"), ("8592306", "Niederdorf, Hirschlang"),
             ("8592307", "Niederdorf, Station"), ("8592308", "Oberdorf BL, Station")]
    ids, names = [s for s, _ in stops], [n for _, n in stops]
    (h,) = crossings(net, nws_game, ids, names)
    assert (h.name, h.method, h.leg_start, h.leg_end) == ("Hölstein–Niederdorf", "stops", 1, 3)
    back = crossings(net, nws_game, ids[::-1], names[::-1])
    assert [(h.leg_start, h.leg_end, h.forward) for h in back] == [(1, 3, False)]
    assert crossings(net, nws_game, ids[:3], names[:3]) == []  # ends at Hölstein Süd
    assert crossings(net, nws_game, ids[2:], names[2:]) == []  # starts after Hölstein
    assert crossings(net, nws_game, ids) == []  # without names it cannot be decided


# ---- the Zug extract timetable ---------------------------------------------------------------------


def trip_stations(tt, t: int) -> list[str]:
    """Station names of a trip's stops."""
    return [tt.station_name[tt.stop_station[tt.st_stop[r]]] for r in tt.trip_stop_times(t)]


def trips_with(tt, a: str, b: str) -> list[tuple[int, int, int]]:
    """(trip, position of a, position of b) for trips that stop at a and later at b."""
    out = []
    for t in range(tt.n_trips):
        names = trip_stations(tt, t)
        if a in names and b in names[names.index(a) + 1:]:
            out.append((t, names.index(a), names.index(b, names.index(a) + 1)))
    return out


def test_zug_luzern_rotkreuz(zug_tt, net, sbb_game):
    found = trips_with(zug_tt, "Luzern", "Rotkreuz")
    assert len(found) >= 10
    for t, pa, pb in found:
        hits = [h for h in trip_crossings(zug_tt, net, sbb_game, t) if h.name == "Luzern–Rotkreuz"]
        assert len(hits) == 1 and hits[0].forward  # Luzern -> Rotkreuz
        assert hits[0].start == pa and hits[0].end == pb  # between the stops Luzern and Rotkreuz
        # the leg a group rides from Luzern to Rotkreuz, as stop-time rows (Leg.board_row/alight_row)
        lo = int(zug_tt.trip_offset[t])
        assert [h.name for h in trip_crossings(zug_tt, net, sbb_game, t, lo + pa, lo + pb)] == ["Luzern–Rotkreuz"]


def test_zug_luzern_emmenbruecke_does_not_cross(zug_tt, net, sbb_game):
    found = trips_with(zug_tt, "Luzern", "Emmenbrücke")
    assert found
    for t, pa, pb in found:
        lo = int(zug_tt.trip_offset[t])
        assert trip_crossings(zug_tt, net, sbb_game, t, lo + pa, lo + pb) == []


def test_zug_olten_aarau(zug_tt, net, sbb_game):
    found = trips_with(zug_tt, "Olten", "Aarau")
    assert found
    for t, pa, pb in found:
        hits = trip_crossings(zug_tt, net, sbb_game, t)
        assert [(h.start, h.end) for h in hits if h.name == "Olten–Aarau"] == [(pa, pb)]
        # riding only Aarau -> (next stop) does not cross it
        lo = int(zug_tt.trip_offset[t])
        assert all(h.name != "Olten–Aarau" for h in trip_crossings(zug_tt, net, sbb_game, t, lo + pb, lo + pb + 1))


def _routes(tt, net, game) -> dict[str, list[str]]:
    """The routes crossing each toll line and tunnel of ``game``, as the organisers' report lists them."""
    return {name: route_names(tt, (h[0] for h in hits)) for name, hits in crossing_trips(tt, net, game).items()}


def test_zug_route_report(zug_tt, net, sbb_game):
    report = _routes(zug_tt, net, sbb_game)
    assert set(report) == {c.name for c in (*sbb_game.toll_lines, *sbb_game.tunnels)}
    assert {"IR70", "IR75", "S1"} <= set(report["Luzern–Rotkreuz"])
    assert report["Luzern–Rotkreuz"].index("IR70") < report["Luzern–Rotkreuz"].index("IR75")
    assert "S26" in report["Olten–Aarau"]
    assert report["Hauenstein"] == [] and report["Delémont–Laufen"] == []  # not in the Zug extract
    assert "S24" not in {r for v in report.values() for r in v}  # Zug-Zürich: no toll line
    stretches = crossing_trips(zug_tt, net, sbb_game)
    passes = 0
    for t, first, last, _share in stretches["Luzern–Rotkreuz"]:
        assert zug_tt.trip_offset[t] <= first < last < zug_tt.trip_offset[t + 1]
        ends = [zug_tt.station_name[zug_tt.stop_station[zug_tt.st_stop[r]]] for r in (first, last)]
        assert "Luzern" in ends
        passes += "Rotkreuz" not in ends
        # riding exactly that stretch crosses it
        assert "Luzern–Rotkreuz" in {h.name for h in trip_crossings(zug_tt, net, sbb_game, t, first, last)}
    assert passes  # IR70 Luzern -> Zug passes Rotkreuz without stopping


# ---- modes (tiny timetable) -------------------------------------------------------------------------


def test_buses_cross_nothing(net, nws_game):
    wb = [("8578250", "Hölstein, Station"), ("8592307", "Niederdorf, Station")]
    ic = [("8500010", "Basel SBB"), ("8500023", "Liestal")]
    tt = mini_timetable([(Mode.TRAM, wb), (Mode.BUS, wb), (Mode.RAIL, ic), (Mode.BUS, ic)])
    assert [h.name for h in trip_crossings(tt, net, nws_game, 0)] == ["Hölstein–Niederdorf"]
    assert trip_crossings(tt, net, nws_game, 1) == []
    assert {h.name for h in trip_crossings(tt, net, nws_game, 2)} == {"Adlertunnel", "Basel SBB–Muttenz"}
    assert trip_crossings(tt, net, nws_game, 3) == []
    assert _routes(tt, net, nws_game)["Hölstein–Niederdorf"] == ["tram"]


# ---- fees ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("owned, fee", [(1, 500), (2, 1000), (3, 2000), (4, 4000)])
def test_toll_fee_by_owned_count(sbb_game, owned, fee):
    names = [c.name for c in sbb_game.toll_lines]
    owners = {n: "red" for n in names[:owned]} | {n: "blue" for n in names[owned:]}
    f = fee_for(sbb_game, names[0], owners)
    assert (f["owner"], f["owned_count"], f["amount"], f["text"]) == ("red", owned, fee, str(fee))


@pytest.mark.parametrize("owned, mult", [(1, 80), (2, 200)])
def test_tunnel_fee_by_owned_count(sbb_game, owned, mult):
    names = [c.name for c in sbb_game.tunnels]
    owners = {n: "red" for n in names[:owned]}
    f = fee_for(sbb_game, names[0], owners, dice_sum=7)
    assert (f["kind"], f["amount"], f["multiplier"]) == ("tunnel", 7 * mult, mult)
    f = fee_for(sbb_game, names[0], owners)
    assert (f["amount"], f["multiplier"], f["text"]) == (None, mult, f"{mult} x dice")


def test_fee_edge_cases(sbb_game):
    hit = CrossingHit("Olten–Aarau", "toll_line", ("Olten", "Aarau"), 0, 0)
    assert fee_for(sbb_game, hit, {})["amount"] == 0  # not owned
    assert fee_for(sbb_game, hit, {"Olten–Aarau": "g1"})["amount"] == 500
    with pytest.raises(ValueError):
        fee_for(sbb_game, "Hauenstein", {"Hauenstein": "g1"}, dice_sum=13)
    with pytest.raises(KeyError):
        fee_for(sbb_game, "Gotthard", {})


def test_ride_rows_of_a_trip_at_a_small_offset(net, nws_game):
    # trip 1 starts at stop-time row 2: its rows are 2..5 and its positions 0..3, so the numbers 2 and 3
    # are both a row (Basel SBB, Muttenz) and a position (Pratteln, Liestal). A ride is given in rows only.
    filler = [("8502204", "Zug"), ("8502202", "Baar")]
    line = [("8500010", "Basel SBB"), ("8500021", "Muttenz"), ("8500022", "Pratteln"), ("8500023", "Liestal")]
    tt = mini_timetable([(Mode.RAIL, filler), (Mode.RAIL, line)])
    assert int(tt.trip_offset[1]) == 2
    # rows 2..3: Basel SBB -> Muttenz, the toll line; positions 0..1 within the whole trip
    hits = trip_crossings(tt, net, nws_game, 1, 2, 3)
    assert [(h.name, h.start, h.end) for h in hits] == [("Basel SBB–Muttenz", 0, 1)]
    # rows 4..5 (Pratteln -> Liestal) cross nothing: the Adler tunnel bypasses Pratteln
    assert trip_crossings(tt, net, nws_game, 1, 4, 5) == []
    # 0 and 1 are positions, not rows of trip 1: refused, never read as Basel SBB -> Muttenz
    with pytest.raises(IndexError, match="row 0 is not a stop-time row of trip t1"):
        trip_crossings(tt, net, nws_game, 1, 0, 1)


def test_routes_are_listed_as_people_read_them(zug_tt):
    """S2 before S12 and IR70 before IR75: letters, then the number as a number."""
    names = {str(zug_tt.route_name[int(zug_tt.trip_route[t])]): t for t in range(zug_tt.n_trips)}
    listed = route_names(zug_tt, names.values())
    assert sorted(listed) == sorted(names)
    numbered = [(n.rstrip("0123456789"), int(n[len(n.rstrip("0123456789")):])) for n in listed
                if n[-1:].isdigit() and n.rstrip("0123456789").isalpha()]
    assert numbered and all(a <= b for a, b in zip(numbered, numbered[1:], strict=False) if a[0] == b[0])
