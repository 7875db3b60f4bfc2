"""Reading the ledger: a group's money, every group's, the end ranking, what a group must be told of, its own events
(typed answers, :mod:`planner.service.answers.money`)."""

from __future__ import annotations

from msgspec import UNSET

from planner.game.day import GroupState, in_jail
from planner.ledger import capital as cap
from planner.ledger.apply import check_playing, fee_due
from planner.ledger.corrections import VOID
from planner.ledger.messages import level_code
from planner.ledger.model import STATION, TOLL_LINE, TUNNEL, Holding, LedgerState
from planner.ledger.money_rules import LedgerRules
from planner.service.answers.money import (
    Diceoff,
    Feed,
    GameLedger,
    GroupLedger,
    HoldingRow,
    Ranking,
    RankRow,
    RecordedEvent,
)
from planner.service.setup.playing import Play
from planner.store.ledger_rows import Recorded
from planner.util.timefmt import fmt_clock


def rules_of(play: Play) -> LedgerRules:
    """The money rules of the game in force."""
    return play.day.ledger_rules


def recorded_event(rec: Recorded, **extra) -> RecordedEvent:
    """A recorded event as the answers give it (times as ``HH:MM``)."""
    d = rec.to_json()
    d["time"] = fmt_clock(rec.event.time)
    d["sent"] = fmt_clock(rec.sent) if rec.sent is not None else None
    d["reported"] = d.get("reported", UNSET)
    d["levels"] = [tuple(x) for x in d.get("levels", [])]
    d["rolls"] = [tuple(x) for x in d.get("rolls", [])]
    d["transfers"] = [tuple(x) for x in d["transfers"]]
    return RecordedEvent(**(d | extra))


def group_status(rules: LedgerRules, state: LedgerState, group: str) -> GroupLedger:
    """A group's cash, capital and holdings (with the fee each charges others now)."""
    c = cap.capital(rules, state, group)
    ok = cap.buildable(rules, state, group)

    def row(h: Holding) -> HoldingRow:
        due = fee_due(rules, state, "", h.kind, h.name) if h.owner == group else None
        r = HoldingRow(name=h.name, price=h.price, value=cap.holding_value(rules, h), mortgaged=h.mortgaged,
                       bought=fmt_clock(h.time))
        if h.kind == STATION:
            r.letter, r.houses, r.in_letter_group = h.letter, h.level, h.name in ok
            r.code = level_code(rules, h.level) if h.level else ""
        if h.kind == TUNNEL:
            r.fee_multiplier = None if due is None else due[2]
        else:
            r.fee = None if due is None else due[1]
        return r

    held = state.owned(group)
    mortgaged = [h for h in held if h.mortgaged]
    return GroupLedger(
        group=group, cash=c["cash"], capital=c["capital"], holdings_value=c["holdings_value"],
        group_bonus=c["group_bonus"],
        letter_groups=[[h.name for h in run] for run in cap.letter_groups(rules, state, group)],
        stations=[row(h) for h in held if h.kind == STATION],
        toll_lines=[row(h) for h in held if h.kind == TOLL_LINE],
        tunnels=[row(h) for h in held if h.kind == TUNNEL],
        redeem_due=[h.name for h in mortgaged if rules.redeem_asap and cap.redeem_cost(rules, h) <= c["cash"]],
        must_mortgage=c["cash"] < 0 and group not in state.out,
        out=group in state.out, out_since=fmt_clock(state.out[group]) if group in state.out else None,
        free_stations=state.free_station.get(group, 0) + sum(
            1 for k in state.held.get(group, ()) if rules.cards[k].effect == "free_station"),
        virtual_visits=list(state.visits.get(group, [])), kept_cards=list(state.held.get(group, [])))


def game_groups(play: Play, state: LedgerState) -> list[str]:
    """The game's groups in their order (a created game's groups before their first event too)."""
    names = [g.name for g in play.refresh().game.groups]
    return names + sorted(g for g in state.cash if g not in names)


def ledger_state(play: Play) -> LedgerState:
    """The ledger now, with every group of the game in it (one not joined yet holds its start cash): a copy."""
    rules = rules_of(play)
    state = play.state.ledger.state(rules, play.id)
    for name in game_groups(play, state):
        if name not in state.cash:  # as its join will: the bank pays the start cash
            state.cash[name] = rules.start_cash
            state.bank -= rules.start_cash
    return state


def diceoffs(state: LedgerState, group: str | None = None) -> list[Diceoff]:
    """The pending dice-offs (those ``group`` is in)."""
    return [Diceoff(name=d.name, time=fmt_clock(d.time), groups=d.groups, rolled=dict(d.rolls), rolling=d.rolling)
            for d in state.disputes.values() if group is None or group in d.groups]


def status(play: Play, group: str | None = None) -> GroupLedger | GameLedger:
    """The ledger now: one group (with the free parking), or every group with the free parking and the pending
    dice-offs. A group that has not recorded anything yet shows its start cash."""
    rules = rules_of(play)
    state = ledger_state(play)
    if group is not None:
        out = group_status(rules, state, play.group(group).name)
        out.parking = state.parking
        return out
    return GameLedger(groups=[group_status(rules, state, g) for g in game_groups(play, state)],
                      parking=state.parking, diceoffs=diceoffs(state))


def end(play: Play) -> Ranking:
    """§5: the capital table and ranking."""
    rules = rules_of(play)
    rows = cap.ranking(rules, ledger_state(play))
    alive = [r for r in rows if not r["out"]]
    winner = alive[0]["group"] if alive and (len(alive) == 1 or alive[0]["rank"] != alive[1]["rank"]) else None
    return Ranking(ranking=[RankRow(**r) for r in rows], winner=winner, parking=ledger_state(play).parking)


def feed(play: Play, group: str, since: int = 0) -> Feed:
    """What ``group`` must be told of since event ``since`` (§13), corrections included: ``{group, since, events,
    last}``; the CLI's ``ledger feed`` and the phone's message list answer with this."""
    name = play.group(group).name
    rows = play.state.ledger.feed(rules_of(play), play.id, name, since)
    return Feed(group=name, since=since, events=[recorded_event(r) for r in rows],
                last=rows[-1].seq if rows else since)


def own_events(play: Play, group: str) -> list[RecordedEvent]:
    """The group's own recorded events (what it did), newest last, voided and undone ones marked."""
    name = play.group(group).name
    return [recorded_event(r) for r in play.state.ledger.events(rules_of(play), play.id)
            if r.event.group == name and r.event.kind not in ("join", VOID)]


def jailed(play: Play, group: str, state: GroupState) -> GroupState:
    """``state`` of a group the ledger holds in jail at its time (reported late, a card), else as it is."""
    rules = rules_of(play)
    stay = play.state.ledger.view(rules, play.id).jail(group, state.time)
    if stay is None or not stay.station:
        return state
    return in_jail(state, play.day.station(stay.station), stay.since, stay.until)


def playing(play: Play, group: str) -> None:
    """Refuse a roll, a report or a plan of a group that is out (§6: it plays no further), as the ledger refuses
    its events."""
    check_playing(play.state.ledger.view(rules_of(play), play.id), group)
