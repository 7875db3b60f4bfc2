"""What the money rules offer a group now, and what the organiser follows (one answer each, for the phone pages).

For a group at a time: the fees it still owes for the stops of its day (each until it is paid, none before its
stop), what it may buy where it is (only what nobody owns), the decks it draws from and what makes it draw, the
taxes that apply where it is, the dice-offs it is in, sales offered to it and by it, its kept cards, whether it may
roll for the free parking, its jail, and its messages not sent yet. A group that is out (§6) is offered nothing.
"""

from __future__ import annotations

from planner.game.day import GroupDay
from planner.ledger.cards import pile
from planner.ledger.model import STATION, TUNNEL, LedgerState
from planner.ledger.model import Offer as SaleOffer
from planner.ledger.rules import LedgerRules
from planner.service.answers.ledger import (
    DeckNow,
    FeeDue,
    JailNow,
    KeptCard,
    LedgerNow,
    Offer,
    OrganiserLedger,
    ParkingNow,
    Sale,
    TaxNow,
    Unsent,
)
from planner.service.day_model import group_day
from planner.service.ledger import station_facts
from planner.service.ledger_stops import Stop, stops_of, tunnel_range
from planner.service.ledger_views import diceoffs, ledger_state, rules_of
from planner.service.messages import message
from planner.service.play import Play
from planner.timetable.model import Mode
from planner.util.timefmt import fmt_clock

RECENT = 10 * 60  # a toll line or tunnel crossed this long ago may still be bought (§13: the message's minutes)


def ledger_now(play: Play, group: str, time: int) -> LedgerNow:
    """What applies to ``group`` at ``time`` (see module docstring); ``time`` before its latest entry: then."""
    rules = rules_of(play)
    name = play.group(group).name
    model = group_day(play.day, play.state.groups.snapshot(play.id, play.group(group)))
    t = max(time, model.last_time or 0)
    state = ledger_state(play)
    unsent = unsent_messages(play, name)
    out_since = fmt_clock(state.out[name]) if name in state.out else None
    if name in state.out:  # §6: it plays no further
        return LedgerNow(group=name, time=fmt_clock(t), out=True, out_since=out_since, fees_due=[], buy_offers=[],
                         decks=[], taxes=[], diceoffs=[], offers=[], selling=[], cards=[],
                         parking=ParkingNow(total=state.parking, sum=rules.parking_empty_sum, possible=False,
                                            at=None), jail=None, unsent=unsent)
    stops = stops_of(play.day, model, t)
    jail = state.jail(name, t)
    return LedgerNow(
        group=name, time=fmt_clock(t), out=False, out_since=None, fees_due=fees_due(play, name, stops),
        buy_offers=_buy_offers(play, state, model, stops, name, t), decks=_decks(rules, state, name),
        taxes=_taxes(play, model, t), diceoffs=diceoffs(state, name),
        offers=[_sale(o) for o in state.offers.values() if o.buyer == name and _open(state, o)],
        selling=[_sale(o) for o in state.offers.values() if o.seller == name and _open(state, o)],
        cards=[_kept(rules, k) for k in state.held.get(name, [])],
        parking=_parking(play, state, model, stops, name, t),
        jail=None if jail is None else JailNow(
            station=jail.station, since=fmt_clock(jail.since), until=fmt_clock(jail.until),
            pay=rules.parking_payments.get("jail"),
            text=message("jail.stay", station=jail.station, until=fmt_clock(jail.until))),
        unsent=unsent, late_minutes=rules.late_minutes, late_penalty_percent=rules.late_penalty_percent,
        jail_delay=rules.jail_delay,
        jail_rule=message("jail.rule", delay=rules.jail_delay) if rules.jail_delay else None,
        buyers=[g.name for g in play.game.groups if g.name != name and g.name not in state.out])


def organiser_ledger(play: Play) -> OrganiserLedger:
    """Every sale (open and accepted), the pending dice-offs, and the messages no group has sent yet."""
    state = ledger_state(play)
    return OrganiserLedger(sales=[_sale(o) for o in state.offers.values()], diceoffs=diceoffs(state),
                           unsent=unsent_messages(play))


def fees_due(play: Play, group: str, stops: list[Stop]) -> list[FeeDue]:
    """The fees ``group`` owes for ``stops`` (the stops of its day so far) and has not paid: each at the ledger
    of its stop's time."""
    rules = rules_of(play)
    view = play.state.ledger.view(rules, play.id)
    owned = [s for s in stops if view.holding(s.kind, s.name) is not None]
    if not owned:
        return []
    tt = play.day.timetable
    out = []
    dues = play.state.ledger.owed(rules, play.id, group, [(s.kind, s.name, s.time) for s in owned])
    for s, due in zip(owned, dues, strict=True):
        if due is None:
            continue
        owner, amount, mult = due
        fee = FeeDue(kind=s.kind, name=s.name, owner=owner, time=fmt_clock(s.time), amount=amount,
                     train=tt.route_name[tt.trip_route[s.trip]] if s.trip >= 0 else None)
        if s.kind == TUNNEL:
            fee.min, fee.max = tunnel_range(mult)
        out.append(fee)
    return out


def unsent_messages(play: Play, group: str | None = None) -> list[Unsent]:
    """The standing events (of ``group``) with someone to tell whose message is not known to be sent (§13)."""
    rows = play.state.ledger.events(rules_of(play), play.id)
    return [Unsent(seq=r.seq, group=r.event.group, time=fmt_clock(r.event.time), message=r.message, tell=r.tell)
            for r in rows if r.tell and r.sent is None and not r.voided and not r.undone
            and r.event.kind not in ("join", "void") and (group is None or r.event.group == group)]


def _buy_offers(play: Play, state: LedgerState, model: GroupDay, stops: list[Stop], group: str,
                t: int) -> list[Offer]:
    """The station the group is at and the toll lines and tunnels it crossed lately, when nobody owns them (and
    the stations of its virtual visits)."""
    rules = rules_of(play)
    if not rules.buy_while_mortgaged and any(h.mortgaged for h in state.owned(group)):
        return []  # variant B §10: nothing is bought while anything is mortgaged
    tt = play.day.timetable
    pos = model.position_at(t)
    here: list[tuple[str, str]] = []
    if pos is not None and (not pos.seated or int(tt.st_arr[pos.row]) <= t <= int(tt.st_dep[pos.row])):
        here.append((STATION, tt.station_name[pos.station]))
    here += [(s.kind, s.name) for s in stops if s.kind != STATION and t - RECENT <= s.time <= t]
    here += [(STATION, v) for v in state.visits.get(group, [])]
    out: list[Offer] = []
    for kind, name in dict.fromkeys(here):
        if state.holding(kind, name) is None and name not in state.disputes:
            out.append(Offer(kind=kind, name=name, price=_price(play, rules, kind, name)))
    return out


def _price(play: Play, rules: LedgerRules, kind: str, name: str) -> int:
    if kind == STATION:
        return station_facts(play, name)[1]
    return (rules.tunnel_prices if kind == TUNNEL else rules.toll_prices).get(name, 0)


def _kept(rules: LedgerRules, key: str) -> KeptCard:
    """A kept card, its deck's name and its title in the reader's language."""
    card = rules.cards[key]
    deck = rules.decks.get(card.deck)
    return KeptCard(key=key, deck=card.deck, title=str(card.title), effect=card.effect,
                    deck_title=str(deck.shown) if deck is not None else card.deck)


def _decks(rules: LedgerRules, state: LedgerState, group: str) -> list[DeckNow]:
    out = []
    for d in rules.decks.values():
        left = len(pile(rules, state, group, d.name)) or len([k for k in d.cards if k not in state.held.get(group, ())])
        out.append(DeckNow(name=d.name, trigger=str(d.trigger), left=left, title=str(d.shown)))
    return out


def _taxes(play: Play, model: GroupDay, t: int) -> list[TaxNow]:
    """The taxes that apply where the group is (in a train: those of its mode)."""
    tt = play.day.timetable
    pos = model.position_at(t)
    mode = Mode(int(tt.route_mode[tt.trip_route[pos.trip]])).label if pos is not None and pos.seated else None
    return [TaxNow(key=x.key, title=str(x.title), amount=x.amount) for x in rules_of(play).taxes.values()
            if mode is None or not x.modes or mode in x.modes]


def _parking(play: Play, state: LedgerState, model: GroupDay, stops: list[Stop], group: str,
             t: int) -> ParkingNow:
    rules = rules_of(play)
    tt = play.day.timetable
    pos = model.position_at(t)
    at, possible = None, False
    if pos is not None and (not pos.seated or int(tt.st_arr[pos.row]) <= t <= int(tt.st_dep[pos.row])):
        at = tt.station_name[pos.station]
        stations = [s for s in stops if s.kind == STATION]
        since = stations[-1].time if stations and stations[-1].name == at else pos.since
        possible = (group, at, since // 60) not in state.parking_rolls
    return ParkingNow(total=state.parking, sum=rules.parking_empty_sum, possible=possible, at=at)


def _open(state: LedgerState, o: SaleOffer) -> bool:
    h = state.holding(STATION, o.name)
    return o.accepted is None and h is not None and h.owner == o.seller and not h.mortgaged


def _sale(o: SaleOffer) -> Sale:
    return Sale(offer=o.seq, station=o.name, seller=o.seller, buyer=o.buyer, amount=o.amount, time=fmt_clock(o.time),
                accepted=fmt_clock(o.accepted) if o.accepted is not None else None)
