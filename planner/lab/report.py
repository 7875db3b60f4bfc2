"""The numbers of a lab run (pure): what the simulated days say about the stations, the dice table and the start.

``stations``: per station, the stops groups made per day, the distinct groups per day, its price, the fee it
charges unbuilt and the fee income per day if one group owned it (the other groups' stops), the payback time in
game minutes, ranked by fee income against price. ``dice``: per number, the travel time to its target (median,
p90, share never reached before the end), by part of the area and by hour, the targets chosen and those never the
fastest. ``capital``: final capital by start region and strategy, and whether the start decides. ``verdict``: the
dice table judged, with the numbers behind it. ``meta`` says how the days were played (seed, groups, plain routing
or the game's change window, real-time data or the timetable). Money is in whole francs (the game's unit: fee
income per day and capital are rounded to it); everything is sorted and rounded: equal runs give equal bytes.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from statistics import mean, median, pstdev

from planner.lab.day import DayConfig, DayResult
from planner.lab.findings import findings, region_name
from planner.lab.moves import Board
from planner.lab.strategies import assign
from planner.util.i18n import _, format_amount
from planner.util.text import fold
from planner.util.timefmt import fmt_clock, parse_clock

FAIR_UNREACHED = 0.10  # a number whose target is missed this often before the end is not fair
FAIR_SPREAD_MIN = 30  # nor one whose median travel time differs by more between parts of the area
DECISIVE_Z = 2.0  # a difference between start regions this many standard errors wide is not chance


def _r(x: float, nd: int = 2) -> float:
    return round(float(x), nd)


def _francs(x: float) -> int:
    """Money in whole francs."""
    return int(round(float(x)))


def _quantile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))]


def travel(rows: list[dict], end: int) -> dict:
    """Median and p90 travel minutes of target rolls, and the share of them that never get there by the end."""
    mins, missed = [], 0
    for r in rows:
        arr = parse_clock(r["arrival"]) if r["arrival"] else None
        if arr is None or arr > end:
            missed += 1
        else:
            mins.append((arr - parse_clock(r["time"])) / 60)
    n = len(rows)
    return {"n": n, "median": _r(median(mins), 1) if mins else None, "p90": _r(_quantile(mins, 0.9), 1) if mins else None,
            "unreached": _r(missed / n, 3) if n else None}


def stations(results: list[DayResult], board: Board, groups: int, fee_of, game_minutes: int) -> list[dict]:
    """The station table (see module docstring), best payback first."""
    days = max(1, len(results))
    stops: Counter = Counter()
    by_hour: dict[str, list[int]] = defaultdict(lambda: [0] * 24)
    visitors: Counter = Counter()
    for res in results:
        for name, hours in res.stops.items():
            stops[name] += sum(hours)
            acc = by_hour[name]
            for h, n in enumerate(hours):
                acc[h] += n
        for name, gs in res.visitors.items():
            visitors[name] += len(gs)
    out = []
    tt = board.day.timetable
    share = (groups - 1) / groups if groups else 0.0
    for s, name in enumerate(board.names):
        price = board.price[s]
        fee = fee_of(price)
        per_day = stops[name] / days
        income = per_day * share * fee
        payback = price / income * game_minutes if income else None
        out.append({"name": name, "category": board.category[s], "region": board.region[s], "price": price,
                    "fee": fee, "stops_per_day": _r(per_day), "groups_per_day": _r(visitors[name] / days),
                    "fee_income_per_day": _francs(income), "payback_minutes": _r(payback, 0) if payback else None,
                    "pays_back": bool(payback is not None and payback <= game_minutes),
                    "stops_by_hour": {f"{h:02d}": _r(n / days, 3) for h, n in enumerate(by_hour[name]) if n},
                    "lat": _r(tt.station_lat[s], 5), "lon": _r(tt.station_lon[s], 5)})
    out.sort(key=lambda d: (-(d["fee_income_per_day"] / d["price"] if d["price"] else 0), d["name"]))
    for i, d in enumerate(out, 1):
        d["rank"] = i
    return out


def dice(results: list[DayResult], game, end: int) -> dict:
    """Per dice number: rolls, what they gave, travel times overall, by region and by hour. ``never_fastest``: the
    targets some roll could have been given (reachable, not yet targeted) that no roll chose, as another target
    of the number was always faster; ``never_available``: those no roll could have been given at all."""
    rolls = [r for res in results for r in res.rolls]
    out: dict[str, dict] = {}
    chosen: Counter = Counter()
    available: Counter = Counter()
    for entry in game.dice.targets:
        mine = [r for r in rolls if r["roll"] == entry.number]
        hits = [r for r in mine if r["kind"] == "target"]
        targets = Counter(r["target"] for r in hits)
        chosen.update(targets)
        for r in mine:
            available.update(_open_targets(r, game))
        regions = defaultdict(list)
        hours = defaultdict(list)
        for r in hits:
            regions[r["region"]].append(r)
            hours[r["time"][:2]].append(r)
        out[str(entry.number)] = {
            "names": sorted(n for n in (*entry.stations, entry.toll_line or "", entry.tunnel or "") if n),
            "rolls": len(mine), "as_free": _r((len(mine) - len(hits)) / len(mine), 3) if mine else None,
            "targets": dict(sorted(targets.items())), "travel": travel(hits, end),
            "by_region": {k: travel(v, end) for k, v in sorted(regions.items())},
            "by_hour": {k: travel(v, end) for k, v in sorted(hours.items())}}
    names = sorted({n for t in game.dice.targets for n in (*t.stations, t.toll_line or "", t.tunnel or "") if n})
    return {"numbers": out, "targets_total": len(names),
            "never_fastest": [n for n in names if available[n] and not chosen[n]],
            "never_available": [n for n in names if not available[n] and not chosen[n]],
            "free_numbers": sorted(game.dice.free_numbers)}


def _open_targets(roll: dict, game) -> list[str]:
    """The targets a roll could have been given: reachable from where the group stood, and not out of play for
    having been targeted before (the dice rules' :meth:`~planner.gamefile.rules.DiceRules.skips`)."""
    before = {fold(t) for t in roll["targeted"]}
    return [name for name, arrival in roll["candidates"]
            if arrival is not None and not game.dice.skips(fold(name) in before)]


def capital(results: list[DayResult]) -> dict:
    """Final capital by start region and by strategy (mean, median, share of wins), and whether the start decides
    (the best and the worst region's mean capital ``z`` standard errors apart)."""
    rows = [g for res in results for g in res.groups]

    def table(key: str) -> dict:
        groups = defaultdict(list)
        for g in rows:
            groups[g[key]].append(g)
        return {k: {"n": len(v), "mean": _francs(mean(x["capital"] for x in v)),
                    "median": _francs(median(x["capital"] for x in v)),
                    "sd": _francs(pstdev([x["capital"] for x in v])),
                    "wins": _r(sum(1 for x in v if x["rank"] == 1) / len(v), 3)} for k, v in sorted(groups.items())}

    regions, strategies = table("region"), table("strategy")
    big = {k: v for k, v in regions.items() if v["n"] >= 5}
    z = None
    if len(big) >= 2:
        best = max(big, key=lambda k: big[k]["mean"])
        worst = min(big, key=lambda k: big[k]["mean"])
        se = math.sqrt(sum(big[k]["sd"] ** 2 / big[k]["n"] for k in (best, worst)))
        z = _r((big[best]["mean"] - big[worst]["mean"]) / se, 2) if se else None
    cross = defaultdict(dict)
    for g in rows:
        cross[g["region"]].setdefault(g["strategy"], []).append(g["capital"])
    return {"by_region": regions, "by_strategy": strategies,
            "by_region_strategy": {r: {s: _francs(mean(v)) for s, v in sorted(d.items())} for r, d in sorted(cross.items())},
            "start_z": z, "start_decisive": bool(z is not None and z >= DECISIVE_Z)}


def verdict(d: dict, cap: dict | None = None) -> dict:
    """The dice table judged: fair when every target can be had, no number is missed often before the end, and no
    part of the area waits much longer than another for its target; with the numbers behind it: ``reasons`` (why
    not fair) and ``findings`` (what the judgement rests on, fair or not, each sentence with its numbers)."""
    reasons = []
    if d["never_available"]:
        reasons.append(_("{n} targets are never reachable in the simulated days: {names}").format(
            n=len(d["never_available"]), names=", ".join(d["never_available"])))
    for num, v in d["numbers"].items():
        t = v["travel"]
        if t["unreached"] is not None and t["unreached"] > FAIR_UNREACHED:
            reasons.append(_("{num}: {share:.0%} of its targets are not reached before the end").format(
                num=num, share=t["unreached"]))
        if v["as_free"] and v["as_free"] > FAIR_UNREACHED:
            reasons.append(_("{num}: {share:.0%} of its rolls count as free (no target left or reachable)").format(
                num=num, share=v["as_free"]))
        meds = [r["median"] for r in v["by_region"].values() if r["median"] is not None and r["n"] >= 5]
        if len(meds) >= 2 and max(meds) - min(meds) > FAIR_SPREAD_MIN:
            reasons.append(_("{num}: median travel {lo:.0f}-{hi:.0f} min depending on the part of the area").format(
                num=num, lo=min(meds), hi=max(meds)))
    return {"fair": not reasons, "reasons": reasons, "rests_on": rests_on(d, cap),
            "thresholds": {"unreached": FAIR_UNREACHED, "spread_minutes": FAIR_SPREAD_MIN}}


def rests_on(d: dict, cap: dict | None) -> list[str]:
    """What a verdict rests on, one sentence each with its numbers: per dice number its travel time (median, p90,
    the share not reached before the end, the parts of the area fastest and slowest to their target), the targets
    never had, and whether the start region decides the game."""
    out = []
    for num, v in d["numbers"].items():
        t = v["travel"]
        if not t["n"]:
            out.append(_("{num}: no roll gave a target ({rolls} rolls)").format(num=num, rolls=v["rolls"]))
            continue
        regions = {k: r for k, r in v["by_region"].items() if r["median"] is not None and r["n"] >= 5}
        spread = ""
        if len(regions) >= 2:
            lo = min(regions, key=lambda k: regions[k]["median"])
            hi = max(regions, key=lambda k: regions[k]["median"])
            spread = _("; fastest from the {lo} ({lo_min:.0f} min, n={lo_n}), slowest from the {hi} ({hi_min:.0f} "
                       "min, n={hi_n})").format(lo=region_name(lo), lo_min=regions[lo]["median"],
                                                lo_n=regions[lo]["n"], hi=region_name(hi),
                                                hi_min=regions[hi]["median"], hi_n=regions[hi]["n"])
        out.append(_("{num}: median travel {med:.0f} min, p90 {p90:.0f} min over {n} rolls to a target, {late:.0%} "
                     "not reached before the end, {free:.0%} of its rolls free{spread}").format(
            num=num, med=t["median"] or 0, p90=t["p90"] or 0, n=t["n"], late=t["unreached"] or 0,
            free=v["as_free"] or 0, spread=spread))
    missing = sorted(set(d["never_available"]) | set(d["never_fastest"]))
    out.append(_("every target was chosen by some roll") if not missing else
               _("targets no roll was given: {names} (never reachable: {never}; never the fastest: {slow})").format(
                   names=", ".join(missing), never=len(d["never_available"]), slow=len(d["never_fastest"])))
    if cap and cap.get("start_z") is not None:
        big = {k: r for k, r in cap["by_region"].items() if r["n"] >= 5}
        best = max(big, key=lambda k: big[k]["mean"])
        worst = min(big, key=lambda k: big[k]["mean"])
        out.append(_("the start region {decides}: mean final capital {best_cap} starting in {best} (n={best_n}) against "
                     "{worst_cap} in {worst} (n={worst_n}), {z} standard errors apart (decisive from {limit})").format(
            decides=_("decides") if cap["start_decisive"] else _("does not decide"),
            best_cap=format_amount(big[best]["mean"]), best=region_name(best), best_n=big[best]["n"],
            worst_cap=format_amount(big[worst]["mean"]), worst=region_name(worst), worst_n=big[worst]["n"],
            z=cap["start_z"], limit=DECISIVE_Z))
    return out


def routing_note(meta: dict) -> str:
    """How the report's days were played, in one sentence for its page and text: by the game's own rules (its
    change window, when the game file has one: ``meta.change_window`` minutes) or plain timetable routing
    (``--no-zugzwang``), on the timetable or on real-time data (``--realtime``)."""
    window, rt = meta.get("change_window"), meta.get("realtime")
    if meta.get("plain_routing") and window:
        said = (_("Played with plain timetable routing (--no-zugzwang): the game's {minutes}-minute rule was NOT "
                  "applied, so this is not a report on the game's rules; on real-time data from {source} (predicted "
                  "times, cancellations).") if rt else
                _("Played with plain timetable routing (--no-zugzwang): the game's {minutes}-minute rule was NOT "
                  "applied, so this is not a report on the game's rules; on the timetable."))
    elif window:
        said = (_("Played by the game's rules, the {minutes}-minute rule on every change, on real-time data from "
                  "{source} (predicted times, cancellations).") if rt else
                _("Played by the game's rules, the {minutes}-minute rule on every change, on the timetable."))
    else:
        said = (_("Played by the game's rules (this game has no change window: a group takes any train), on "
                  "real-time data from {source} (predicted times, cancellations).") if rt else
                _("Played by the game's rules (this game has no change window: a group takes any train), on the "
                  "timetable."))
    return said.format(minutes=window, source=rt)


def build(results: list[DayResult], board: Board, cfg: DayConfig) -> dict:
    """The whole report (JSON: ``meta``, ``stations``, ``dice``, ``capital``, ``verdict``)."""
    day = board.day
    game, rules, clock = day.game, day.ledger_rules, day.game.clock
    d = dice(results, game, clock.end)
    cap = capital(results)
    rolls = sum(len(r.rolls) for r in results)
    rep = {
        "meta": {"game": game.name, "title": game.title, "date": day.date.isoformat(),
                 "feed_version": str(day.timetable.feed_version), "days": len(results),
                 "groups": cfg.groups, "strategy": cfg.strategy, "seed": cfg.seed,
                 "strategies": [s.name for s in assign(cfg.strategy, cfg.groups)],
                 "min_transfer": day.min_transfer_minutes, "plain_routing": bool(day.plain_timetable),
                 "change_window": game.window.minutes if game.window else None,
                 "realtime": day.realtime_source or None, "start": fmt_clock(clock.start),
                 "dice_from": fmt_clock(clock.dice_from), "end": fmt_clock(clock.end), "rolls": rolls,
                 "ledger_events": sum(r.events for r in results),
                 "money_conserved": all(r.conserved for r in results),
                 "errors": sum(len(r.errors) for r in results)},
        "stations": stations(results, board, cfg.groups, lambda p: rules.station_fee(p, 0),
                             (clock.end - clock.start) // 60),
        "dice": d, "capital": cap, "verdict": verdict(d, cap)}
    rep["verdict"]["findings"] = findings(rep, board.names, d["targets_total"], unreached=FAIR_UNREACHED,
                                          spread=FAIR_SPREAD_MIN, decisive=DECISIVE_Z)
    return rep
