"""Ledger use cases: record an event with what the planner knows, status, end ranking, feed.

Between the adapters (CLI, later the web app) and the pure core: it resolves station names on the game
day, fills in a station's price and letter from the game file (planner/game/prices.py), checks a claimed
position against the group's sightings by timetable, and records through :class:`LedgerStore`.
``ctx`` is anything with ``game``, ``date``, ``timetable``, ``network`` and ``station(name)`` (the
commands' Context).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from planner.errors import InputError
from planner.ledger import capital as cap
from planner.ledger.apply import fee_due
from planner.ledger.messages import level_code
from planner.ledger.model import STATION, TOLL_LINE, TUNNEL, Event, LedgerState
from planner.ledger.position import Sighting, contradiction, ledger_sightings
from planner.ledger.rules import LedgerRules, ledger_rules
from planner.store.ledger import LedgerStore, Recorded


def rules_of(ctx: Any) -> LedgerRules:
    """The ledger rules of the game in force (cached on the context)."""
    extra = getattr(ctx, "extra", {})
    if "ledger_rules" not in extra:
        extra["ledger_rules"] = ledger_rules(ctx.game)
    return extra["ledger_rules"]


def station_facts(ctx: Any, name: str) -> tuple[str, int, str]:
    """(name as on the game day, purchase price, initial letter) of a station."""
    from planner.game.prices import initial_letter, station_price

    s = ctx.station(name)
    tt = ctx.timetable
    return tt.station_name[s], station_price(ctx.game, tt, s), initial_letter(tt.station_name[s])


def resolve_target(ctx: Any, station: str | None, toll_line: str | None, tunnel: str | None) -> tuple[str, str]:
    """(kind, name) of exactly one of --station / --toll-line / --tunnel (names checked)."""
    given = [(k, v) for k, v in ((STATION, station), (TOLL_LINE, toll_line), (TUNNEL, tunnel)) if v]
    if len(given) != 1:
        raise InputError("give exactly one of --station, --toll-line, --tunnel")
    kind, name = given[0]
    if kind == STATION:
        return kind, station_facts(ctx, name)[0]
    known = [c.name for c in (ctx.game.toll_lines if kind == TOLL_LINE else ctx.game.tunnels)]
    from planner.util.text import fold

    match = [k for k in known if fold(k) == fold(name)]
    if not match:
        raise InputError(f"unknown {kind.replace('_', ' ')} {name!r}: one of {', '.join(known) or 'none'}")
    return kind, match[0]


def _sightings(ctx: Any, store: LedgerStore, events: list[Event], group: str) -> list[Sighting]:
    from planner.service.group import label_station

    seen = ledger_sightings(events, group)
    for r in store.groups.history(ctx.game.name, ctx.date, group):
        if r.position:
            seen.append(Sighting(r.time, label_station(r.position), f"roll #{r.seq}"))
    return seen


def _earliest(ctx: Any):
    from planner.routing import best_journey, station_origin

    def earliest(a: str, t: int, b: str) -> int | None:
        tt = ctx.timetable
        j = best_journey(ctx.network, station_origin(ctx.station(a), t), ctx.station(b))
        return None if j is None else j.arrival(tt)

    return earliest


def record(ctx: Any, event: Event, *, event_id: str | None = None, store: LedgerStore | None = None
           ) -> tuple[Recorded, ...]:
    """Record ``event``; a station claim that contradicts the group's known position is refused (exit 2)."""
    rules = rules_of(ctx)
    own = store is None
    store = store or LedgerStore()
    check = None
    if event.target == STATION and event.kind in ("buy", "fee"):
        def check(state: LedgerState, events: list[Event]) -> None:
            if event.name in state.visits.get(event.group, ()):
                return  # a card's virtual visit (variant B): no need to be there
            why = contradiction(_sightings(ctx, store, events, event.group), event.name, event.time,
                                _earliest(ctx))
            if why:
                raise InputError(f"group {event.group} at {event.name} at {_clock(event.time)}? {why}")
    try:
        return store.record(rules, ctx.date, event, check=check, event_id=event_id)
    finally:
        if own:
            store.close()


def _clock(t: int) -> str:
    from planner.util.timefmt import fmt_clock

    return fmt_clock(t)


def group_status(rules: LedgerRules, state: LedgerState, group: str) -> dict:
    """A group's cash, capital and holdings (with the fee each charges others now)."""
    c = cap.capital(rules, state, group)
    ok = cap.buildable(rules, state, group)

    def row(h) -> dict:
        due = fee_due(rules, state, "", h.kind, h.name) if h.owner == group else None
        d = {"name": h.name, "price": h.price, "value": cap.holding_value(rules, h), "mortgaged": h.mortgaged,
             "bought": _clock(h.time)}
        if h.kind == STATION:
            d |= {"letter": h.letter, "houses": h.level, "code": level_code(rules, h.level) if h.level else "",
                  "in_letter_group": h.name in ok}
        if h.kind == TUNNEL:
            d["fee_multiplier"] = None if due is None else due[2]
        else:
            d["fee"] = None if due is None else due[1]
        return d

    held = state.owned(group)
    mortgaged = [h for h in held if h.mortgaged]
    return {
        "group": group, "cash": c["cash"], "capital": c["capital"], "holdings_value": c["holdings_value"],
        "group_bonus": c["group_bonus"],
        "letter_groups": [[h.name for h in run] for run in cap.letter_groups(rules, state, group)],
        "stations": [row(h) for h in held if h.kind == STATION],
        "toll_lines": [row(h) for h in held if h.kind == TOLL_LINE],
        "tunnels": [row(h) for h in held if h.kind == TUNNEL],
        "redeem_due": [h.name for h in mortgaged if rules.redeem_asap
                       and cap.redeem_cost(rules, h) <= c["cash"]],
        "must_mortgage": c["cash"] < 0 and group not in state.out,
        "out": group in state.out, "out_since": _clock(state.out[group]) if group in state.out else None,
        "free_stations": state.free_station.get(group, 0),
        "virtual_visits": list(state.visits.get(group, [])),
    }


def status(ctx: Any, group: str | None = None) -> dict:
    """The ledger now: one group, or every group with the free parking and pending dice-offs."""
    rules = rules_of(ctx)
    with LedgerStore() as store:
        state = store.state(rules, ctx.date)
    if group is not None:
        return group_status(rules, state, str(group)) | {"parking": state.parking}
    return {"groups": [group_status(rules, state, g) for g in sorted(state.cash, key=cap._group_key)],
            "parking": state.parking,
            "diceoffs": [{"name": d.name, "time": _clock(d.time), "groups": [d.holder, *d.challengers]}
                         for d in state.disputes.values()]}


def end(ctx: Any) -> dict:
    """§5: the capital table and ranking."""
    rules = rules_of(ctx)
    with LedgerStore() as store:
        state = store.state(rules, ctx.date)
    rows = cap.ranking(rules, state)
    alive = [r for r in rows if not r["out"]]
    winner = alive[0]["group"] if alive and (len(alive) == 1 or alive[0]["rank"] != alive[1]["rank"]) else None
    return {"ranking": rows, "winner": winner, "parking": state.parking}


def canonical_group(name: str, known: Iterable[str]) -> str:
    """The name a group is known by when ``name`` is the same group typed otherwise ("team rot" for "Team Rot":
    case-, accent- and spacing-insensitive, as group names are everywhere), else ``name`` itself."""
    from planner.util.text import fold

    key = fold(str(name))
    return next((k for k in known if fold(k) == key), str(name))


def group_of(ctx: Any, name: str, store: LedgerStore | None = None) -> str:
    """``name`` as the group is already known on the day: by its rolls and reports, else by its ledger."""
    own = store is None
    store = store or LedgerStore()
    try:
        known = list(store.groups.group_names(ctx.game.name, ctx.date).values())
        known += list(store.state(rules_of(ctx), ctx.date).cash)
    finally:
        if own:
            store.close()
    return canonical_group(name, known)


def feed(ctx: Any, group: str, since: int = 0) -> dict:
    """What ``group`` must be told of since event ``since`` (§13): ``{group, since, events, last}``; the CLI's
    ``ledger feed`` and the web app's message list answer with this."""
    from planner.util.timefmt import fmt_clock

    with LedgerStore() as store:
        name = group_of(ctx, group, store)
        rows = store.feed(ctx.game.name, ctx.date, name, since)
    return {"group": name, "since": since,
            "events": [r.to_json() | {"time": fmt_clock(r.event.time)} for r in rows],
            "last": rows[-1].seq if rows else since}
