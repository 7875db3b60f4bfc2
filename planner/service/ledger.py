"""Ledger use cases: record a money event, void one, status, the end ranking, what a group must be told of.

The command line and the phone send the same typed request (:class:`LedgerRequest`: facts only, never amounts);
this module resolves names on the game day, fills in a station's price and letter from the game file, checks the
claim against the group's day (:mod:`planner.service.whereabouts`), and records through the state's ledger.
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.errors import InputError
from planner.game.bonus import trip_meets_bonus
from planner.game.prices import initial_letter, station_price
from planner.ledger import capital as cap
from planner.ledger.apply import fee_due
from planner.ledger.corrections import VOID
from planner.ledger.messages import level_code, sms_time
from planner.ledger.model import STATION, TOLL_LINE, TUNNEL, Event, LedgerState
from planner.ledger.rules import LedgerRules
from planner.service.jail import check_jail_payment
from planner.service.play import Play
from planner.service.whereabouts import check_at_station, check_crossing, group_train, train_at
from planner.store.ledger import Recorded
from planner.util.text import fold
from planner.util.timefmt import fmt_clock

KINDS = ("buy", "build", "mortgage", "redeem", "pay", "income", "parking", "parking_empty", "card", "diceoff")


@dataclass(frozen=True)
class LedgerRequest:
    """A money event as a group tells it: what (``kind``), when (``time``; ``reported``: when the message was
    sent, §13), on what (one of ``station``/``toll_line``/``tunnel``), and the kind's own facts. ``event_id``
    makes a retry idempotent (it belongs to the group)."""

    group: str
    kind: str
    time: int
    reported: int | None = None
    station: str | None = None
    toll_line: str | None = None
    tunnel: str | None = None
    dice: tuple[int, ...] = ()  # a tunnel fee, emptying the free parking
    houses: tuple[tuple[str, str], ...] = ()  # build: (station, "1".."4" | "hotel") each
    bonus: bool = False  # income: the group says the bonus rule is met
    trip: str | None = None  # income: the train it sat in (the planner checks the bonus rule itself)
    reason: str = ""  # parking: which payment
    card: str = ""
    rolls: tuple[tuple[str, int], ...] = ()  # diceoff: (group, dice sum) each
    event_id: str | None = None


@dataclass(frozen=True)
class LedgerResult:
    """What was recorded: the rows written (a first event of a group also records its joining), the event last."""

    rows: tuple[Recorded, ...]

    def to_json(self) -> dict:
        """The recorded event (``planner ledger ... --json``) with ``joined``."""
        last = self.rows[-1]
        return last.to_json() | {"time": fmt_clock(last.event.time), "joined": len(self.rows) > 1}


def rules_of(play: Play) -> LedgerRules:
    """The money rules of the game in force."""
    return play.day.ledger_rules


def station_facts(play: Play, name: str) -> tuple[str, int, str]:
    """(name as on the game day, purchase price, initial letter) of a station."""
    day = play.day
    s = day.station(name)
    facts = day.station_facts.get(s)
    if facts is None:  # the game file and the timetable never change on a game day
        tt = day.timetable
        facts = day.station_facts[s] = (tt.station_name[s], station_price(day.game, tt, s),
                                        initial_letter(tt.station_name[s]))
    return facts


def resolve_target(play: Play, station: str | None, toll_line: str | None, tunnel: str | None) -> tuple[str, str]:
    """(kind, name) of exactly one of station / toll line / tunnel (names checked)."""
    given = [(k, v) for k, v in ((STATION, station), (TOLL_LINE, toll_line), (TUNNEL, tunnel)) if v]
    if len(given) != 1:
        raise InputError("give exactly one of --station, --toll-line, --tunnel")
    kind, name = given[0]
    if kind == STATION:
        return kind, station_facts(play, name)[0]
    game = play.day.game
    known = [c.name for c in (game.toll_lines if kind == TOLL_LINE else game.tunnels)]
    match = [k for k in known if fold(k) == fold(name)]
    if not match:
        raise InputError(f"unknown {kind.replace('_', ' ')} {name!r}: one of {', '.join(known) or 'none'}")
    return kind, match[0]


def event_of(play: Play, req: LedgerRequest) -> Event:
    """The ledger event of a request (names resolved, a station's price and letter filled in)."""
    if req.kind not in KINDS:
        raise InputError(f"unknown ledger event {req.kind!r} (one of {', '.join(KINDS)})")
    group = play.group(req.group).name
    base = {"group": group, "time": req.time, "reported": req.reported}
    if req.kind in ("buy", "mortgage", "redeem", "pay"):
        target, name = resolve_target(play, req.station, req.toll_line, req.tunnel)
        kw: dict = {"target": target, "name": name}
        if target == STATION and req.kind == "buy":
            _, kw["price"], kw["letter"] = station_facts(play, name)
        if req.kind == "pay":
            kw["dice"] = req.dice
        return Event("fee" if req.kind == "pay" else req.kind, **base, **kw)
    if req.kind == "build":
        top = rules_of(play).hotel_level
        levels = []
        for name, n in req.houses:
            n = str(n).strip().lower()
            if not (n.isdigit() and 1 <= int(n) < top or n == "hotel"):
                raise InputError(f"houses {name}={n}: expected 1-{top - 1} or hotel")
            levels.append((station_facts(play, name)[0], top if n == "hotel" else int(n)))
        if not levels:
            raise InputError("build: name the stations and their new totals (e.g. Aarau=2)")
        return Event("build", **base, levels=tuple(levels))
    if req.kind == "income":
        return Event("income", **base, bonus=_bonus(play, req))
    if req.kind == "parking":
        if not req.reason:
            raise InputError("parking: give the reason (a key of the game's ledger.parking_payments)")
        return Event("parking", **base, reason=req.reason)
    if req.kind == "parking_empty":
        return Event("parking_empty", **base, dice=req.dice)
    if req.kind == "card":
        return Event("card", **base, card=req.card)
    rolls = tuple((play.group(g).name, int(v)) for g, v in req.rolls)
    if not rolls:
        raise InputError("diceoff: give each group's roll (GROUP=SUM)")
    return Event("diceoff", rolls[0][0], req.time, req.reported, name=station_facts(play, req.station or "")[0],
                 rolls=rolls)


def _bonus(play: Play, req: LedgerRequest) -> bool:
    """§6: whether the full-hour income is the bonus fee, decided on the train (given, or the one the group's
    day has it in at that hour); a claim no known train backs is refused."""
    day = play.day
    trip = group_train(play, req.group, req.trip, req.time) if req.trip else train_at(play, req.group, req.time)
    if trip is None:
        if req.bonus:
            raise InputError(f"the bonus at {fmt_clock(req.time)} needs the train: name it (--trip), or report it "
                             "('planner group position --trip')")
        return False
    met = trip_meets_bonus(day.timetable, day.game, trip, req.time)
    if req.bonus and not met:
        raise InputError(f"{day.timetable.route_name[day.timetable.trip_route[trip]]} "
                         f"({day.timetable.trip_id[trip]}) neither arrives nor departs in the bonus minutes of "
                         f"{fmt_clock(req.time)}: no bonus")
    return met


def record_event(play: Play, req: LedgerRequest) -> LedgerResult:
    """Record a money event (see module docstring); a claim the group's day contradicts is refused (exit 2)."""
    event = event_of(play, req)
    group = play.group(req.group)
    rules = rules_of(play)
    check = None
    if event.kind in ("buy", "fee") and event.target == STATION:
        def check(state: LedgerState, events: list[Event]) -> None:
            if event.name not in state.visits.get(event.group, ()):  # a card's virtual visit needs no presence
                check_at_station(play, group.name, event, events)
    elif event.kind in ("buy", "fee") and event.target in (TOLL_LINE, TUNNEL):
        def check(state: LedgerState, events: list[Event]) -> None:
            check_crossing(play, group.name, event)
    elif event.kind == "parking" and event.reason == "jail":
        def check(state: LedgerState, events: list[Event]) -> None:
            check_jail_payment(play, group.name, event, events)
    return LedgerResult(play.state.ledger.record(rules, play.game, group, event, check=check,
                                                 event_id=req.event_id))


def void(play: Play, seq: int, reason: str, time: int) -> Recorded:
    """Void ledger event ``seq`` (organisers): it stays in the log, marked; capital and every later fee follow;
    every group is told. A later event that needs it is named, and the void refused."""
    reason = " ".join(str(reason).split())
    if not reason:
        raise InputError("--reason: say why the event is voided (every group is told)")
    rules = rules_of(play)

    def message(ev: Event, changes: list[tuple[int, int, int]]) -> str:
        what = f"#{seq} {ev.group} {ev.kind} {ev.name}".strip()
        text = f"{sms_time(time)} correction: {what} voided ({reason[:200]})"
        if changes:
            text += "; now " + ", ".join(f"#{s} {a} -> {b}" for s, a, b in changes)
        return text

    return play.state.ledger.void(rules, play.id, int(seq), reason, time, message)


def group_status(rules: LedgerRules, state: LedgerState, group: str) -> dict:
    """A group's cash, capital and holdings (with the fee each charges others now)."""
    c = cap.capital(rules, state, group)
    ok = cap.buildable(rules, state, group)

    def row(h) -> dict:
        due = fee_due(rules, state, "", h.kind, h.name) if h.owner == group else None
        d = {"name": h.name, "price": h.price, "value": cap.holding_value(rules, h), "mortgaged": h.mortgaged,
             "bought": fmt_clock(h.time)}
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
        "redeem_due": [h.name for h in mortgaged if rules.redeem_asap and cap.redeem_cost(rules, h) <= c["cash"]],
        "must_mortgage": c["cash"] < 0 and group not in state.out,
        "out": group in state.out, "out_since": fmt_clock(state.out[group]) if group in state.out else None,
        "free_stations": state.free_station.get(group, 0),
        "virtual_visits": list(state.visits.get(group, [])),
    }


def _groups(play: Play, state: LedgerState) -> list[str]:
    """The game's groups in their order (a created game's groups before their first event too)."""
    names = [g.name for g in play.refresh().game.groups]
    return names + sorted(g for g in state.cash if g not in names)


def status(play: Play, group: str | None = None) -> dict:
    """The ledger now: one group, or every group with the free parking and pending dice-offs. A group that has
    not recorded anything yet shows its start cash."""
    rules = rules_of(play)
    state = _with_everyone(play, rules, play.state.ledger.state(rules, play.id))
    if group is not None:
        return group_status(rules, state, play.group(group).name) | {"parking": state.parking}
    return {"groups": [group_status(rules, state, g) for g in _groups(play, state)], "parking": state.parking,
            "diceoffs": [{"name": d.name, "time": fmt_clock(d.time), "groups": [d.holder, *d.challengers]}
                         for d in state.disputes.values()]}


def _with_everyone(play: Play, rules: LedgerRules, state: LedgerState) -> LedgerState:
    """The state with every group of the game in it (one not joined yet holds its start cash)."""
    for name in _groups(play, state):
        if name not in state.cash:  # as its join will: the bank pays the start cash
            state.cash[name] = rules.start_cash
            state.bank -= rules.start_cash
    return state


def end(play: Play) -> dict:
    """§5: the capital table and ranking."""
    rules = rules_of(play)
    state = _with_everyone(play, rules, play.state.ledger.state(rules, play.id))
    rows = cap.ranking(rules, state)
    alive = [r for r in rows if not r["out"]]
    winner = alive[0]["group"] if alive and (len(alive) == 1 or alive[0]["rank"] != alive[1]["rank"]) else None
    return {"ranking": rows, "winner": winner, "parking": state.parking}


def feed(play: Play, group: str, since: int = 0) -> dict:
    """What ``group`` must be told of since event ``since`` (§13), corrections included: ``{group, since, events,
    last}``; the CLI's ``ledger feed`` and the phone's message list answer with this."""
    name = play.group(group).name
    rules = rules_of(play)
    rows = play.state.ledger.feed(rules, play.id, name, since)
    return {"group": name, "since": since,
            "events": [r.to_json() | {"time": fmt_clock(r.event.time)} for r in rows],
            "last": rows[-1].seq if rows else since}


def own_events(play: Play, group: str) -> list[dict]:
    """The group's own recorded events (what it did), newest last, voided ones marked."""
    name = play.group(group).name
    rules = rules_of(play)
    return [r.to_json() | {"time": fmt_clock(r.event.time)} for r in play.state.ledger.events(rules, play.id)
            if r.event.group == name and r.event.kind not in ("join", VOID)]
