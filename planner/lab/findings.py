"""What an organiser should change, from a lab report's numbers (pure): at most five findings, each with the
evidence it rests on and what to do, most important first.

A finding is ``{"key", "evidence", "action"}`` (texts in the reader's language). The keys, in their order of
importance: ``cut`` (dice targets the feed's day does not have at all: the feed covers only part of the area, e.g.
the Zug extract), ``unreachable`` (targets in the timetable no roll could reach), ``late`` (numbers whose target is
often not reached before the end), ``free`` (numbers whose rolls often count as free), ``spread`` (numbers where
the part of the area decides the travel time), ``start`` (the start region decides the game), ``thin`` (too few
simulated days to trust the shares). The thresholds are the verdict's (:mod:`planner.lab.report`).
"""

from __future__ import annotations

from planner.util.i18n import N_, _, format_amount, ngettext
from planner.util.text import fold

MAX_FINDINGS = 5
LISTED = 6  # numbers or targets named in one finding; the rest are counted
THIN_GROUP_DAYS = 100  # fewer simulated group-days than this: the shares are a first look, not a verdict

# the lab's parts of the area (moves.Board.region) as a reader says them
REGION_NAMES = {"NW": N_("north-west"), "N": N_("north"), "NE": N_("north-east"), "W": N_("west"),
                "C": N_("centre"), "E": N_("east"), "SW": N_("south-west"), "S": N_("south"),
                "SE": N_("south-east")}


def region_name(key: str) -> str:
    """A part of the area (``NE``) in the reader's words ("Nordosten")."""
    return _(REGION_NAMES[key]) if key in REGION_NAMES else key


def _names(names: list[str]) -> str:
    """Up to :data:`LISTED` names, then how many more."""
    shown = ", ".join(names[:LISTED])
    if len(names) <= LISTED:
        return shown
    more = len(names) - LISTED
    return ngettext("{names} and {n} more", "{names} and {n} more", more).format(names=shown, n=more)


def _shares(pairs: list[tuple[str, float]]) -> str:
    """Numbers with their share, worst first: ``46 (100%), 55 (67%)``."""
    pairs = sorted(pairs, key=lambda p: (-p[1], p[0]))
    return _names([f"{num} ({share:.0%})" for num, share in pairs])


def not_in_day(never: list[str], station_names: list[str]) -> list[str]:
    """The never-reachable targets that are no station of the day's timetable at all (the feed's cut)."""
    have = {fold(n) for n in station_names}
    return [n for n in never if fold(n) not in have]


def _cut(d: dict, cut: list[str], total: int) -> dict | None:
    if not cut:
        return None
    evidence = ngettext(
        "{n} of the {total} dice targets is not in the feed's timetable of this day at all ({names}): the feed "
        "covers only part of the game's area, so that target can never be reached and its rolls count as free.",
        "{n} of the {total} dice targets are not in the feed's timetable of this day at all ({names}): the feed "
        "covers only part of the game's area, so these targets can never be reached and their rolls count as free.",
        len(cut)).format(n=len(cut), total=total, names=_names(cut))
    empty = _empty_numbers(d, cut)
    if empty:
        evidence += " " + ngettext("Dice number {numbers} has no target on this feed.",
                                   "Dice numbers {numbers} have no target on this feed.", len(empty)).format(
            numbers=", ".join(empty))
    return {"key": "cut", "evidence": evidence,
            "action": _("Play on a feed that covers the whole area (planner feed download) and check it with planner "
                        "check-area; on this feed, read the numbers below as a test of the planner, not of the game.")}


def _empty_numbers(d: dict, cut: list[str]) -> list[str]:
    """The dice numbers every target of which is cut off by the feed."""
    gone = set(cut)
    return [n for n, v in d["numbers"].items() if v.get("names") and set(v["names"]) <= gone]


def _unreachable(d: dict, cut: list[str]) -> dict | None:
    rest = [n for n in d["never_available"] if n not in cut]
    if not rest:
        return None
    return {"key": "unreachable", "evidence": ngettext(
        "{n} dice target is in the timetable but no simulated roll could reach it before the end: {names}.",
        "{n} dice targets are in the timetable but no simulated roll could reach them before the end: {names}.",
        len(rest)).format(n=len(rest), names=_names(rest)),
        "action": _("Check their service on the game day (planner check-area) and replace those served too "
                    "rarely by better served stations in the dice table of the game file.")}


def _late(d: dict, limit: float) -> dict | None:
    late = [(n, v["travel"]["unreached"]) for n, v in d["numbers"].items()
            if v["travel"]["unreached"] is not None and v["travel"]["unreached"] > limit]
    if not late:
        return None
    return {"key": "late", "evidence": ngettext(
        "{k} of {m} dice numbers misses its target before the end in more than {limit:.0%} of its rolls: {numbers}.",
        "{k} of {m} dice numbers miss their target before the end in more than {limit:.0%} of their rolls: "
        "{numbers}.", len(late)).format(k=len(late), m=len(d["numbers"]), limit=limit, numbers=_shares(late)),
        "action": _("Give these numbers targets nearer the middle of the area in the dice table of the game file, "
                    "so that a group can still get there in the last hours.")}


def _free(d: dict, limit: float, cut: list[str]) -> dict | None:
    empty = set(_empty_numbers(d, cut))  # said by the finding on the feed's cut
    free = [(n, v["as_free"]) for n, v in d["numbers"].items()
            if v["as_free"] and v["as_free"] > limit and n not in empty]
    if not free:
        return None
    return {"key": "free", "evidence": ngettext(
        "{k} dice number counts as free in more than {limit:.0%} of its rolls (no target left or reachable): "
        "{numbers}.",
        "{k} dice numbers count as free in more than {limit:.0%} of their rolls (no target left or reachable): "
        "{numbers}.", len(free)).format(k=len(free), limit=limit, numbers=_shares(free)),
        "action": _("Give these numbers more targets, or targets that are served all afternoon, in the dice table "
                    "of the game file.")}


def _spread(d: dict, minutes: int) -> dict | None:
    wide = []
    for num, v in d["numbers"].items():
        meds = {k: r["median"] for k, r in v["by_region"].items() if r["median"] is not None and r["n"] >= 5}
        if len(meds) >= 2 and max(meds.values()) - min(meds.values()) > minutes:
            lo, hi = min(meds, key=meds.get), max(meds, key=meds.get)
            wide.append(_("{num} ({lo_min:.0f} min from the {lo}, {hi_min:.0f} min from the {hi})").format(
                num=num, lo_min=meds[lo], lo=region_name(lo), hi_min=meds[hi], hi=region_name(hi)))
    if not wide:
        return None
    return {"key": "spread", "evidence": ngettext(
        "For {k} dice number the part of the area decides the median travel time by more than {minutes} min: "
        "{numbers}.",
        "For {k} dice numbers the part of the area decides the median travel time by more than {minutes} min: "
        "{numbers}.", len(wide)).format(k=len(wide), minutes=minutes, numbers=_names(wide)),
        "action": _("Give each of these numbers a target in every part of the area, so that no group is far from "
                    "all of them.")}


def _start(cap: dict, limit: float) -> dict | None:
    if not cap.get("start_decisive"):
        return None
    big = {k: r for k, r in cap["by_region"].items() if r["n"] >= 5}
    best = max(big, key=lambda k: big[k]["mean"])
    worst = min(big, key=lambda k: big[k]["mean"])
    return {"key": "start", "evidence": _(
        "The start region decides the game: groups starting in the {best} end with {best_cap} on average "
        "(n={best_n}), those starting in the {worst} with {worst_cap} (n={worst_n}), {z} standard errors apart "
        "(decisive from {limit}).").format(
        best=region_name(best), best_cap=format_amount(big[best]["mean"]), best_n=big[best]["n"],
        worst=region_name(worst), worst_cap=format_amount(big[worst]["mean"]), worst_n=big[worst]["n"],
        z=cap["start_z"], limit=limit),
        "action": _("Let all groups start in the same part of the area, or draw the start stations by lot from "
                    "every part.")}


def _thin(meta: dict) -> dict | None:
    group_days = meta["days"] * meta["groups"]
    if group_days >= THIN_GROUP_DAYS:
        return None
    return {"key": "thin", "evidence": ngettext(
        "The shares rest on {n} simulated group-day ({rolls} rolls): too few to judge a dice number.",
        "The shares rest on {n} simulated group-days ({rolls} rolls): too few to judge a dice number.",
        group_days).format(n=group_days, rolls=meta["rolls"]),
        "action": _("Run planner simulate again with --days 200 before changing the game file.")}


def findings(rep: dict, station_names: list[str], n_targets: int, *, unreached: float, spread: int,
             decisive: float) -> list[dict]:
    """At most :data:`MAX_FINDINGS` findings of a report (see module docstring); a warning that the days are too
    few to judge always keeps its place."""
    d, cap = rep["dice"], rep["capital"]
    cut = not_in_day(d["never_available"], station_names)
    found = [f for f in (_cut(d, cut, n_targets), _unreachable(d, cut), _late(d, unreached), _free(d, unreached, cut),
                         _spread(d, spread), _start(cap, decisive)) if f]
    thin = _thin(rep["meta"])
    if thin:
        return [*found[:MAX_FINDINGS - 1], thin]
    return found[:MAX_FINDINGS]
