"""What the money rules offer a group now, and what the organiser follows (one answer each, for the phone pages).

For a group at a time: the fees it still owes for the stops of its day (each until it is paid, none before its
stop), what it may buy where it is (only what nobody owns), the decks it draws from and what makes it draw, the
taxes that apply where it is, the dice-offs it is in, sales offered to it and by it, its kept cards, whether it may
roll for the free parking, its jail, and its messages not sent yet. A group that is out (§6) is offered nothing.
"""

from __future__ import annotations

from planner.errors import InputError
from planner.game.bonus import trip_meets_bonus
from planner.game.day import GroupDay, GroupState
from planner.ledger.capital import buildable
from planner.ledger.cards import pile
from planner.ledger.model import STATION, TUNNEL, Event, JailStay, LedgerState
from planner.ledger.model import Offer as SaleOffer
from planner.ledger.money_rules import LedgerRules
from planner.service.answers.money import (
    DeckNow,
    FeeDue,
    IncomeNow,
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
from planner.service.change.group_day import status
from planner.service.change.ledger_events import station_facts
from planner.service.questions.group_states import state_fields
from planner.service.read.fee_stops import DAY_END, Stop, stops_of, tunnel_range
from planner.service.read.ledger_views import diceoffs, ledger_state, rules_of
from planner.service.read.recorded_day import group_day
from planner.service.read.rule_words import message
from planner.service.read.whereabouts import check_place, train_at
from planner.service.setup.playing import Play
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
    held = state.owned(name)
    now = status(play, group, t).state
    return LedgerNow(
        group=name, time=fmt_clock(t), out=False, out_since=None, fees_due=fees_due(play, name, stops),
        buy_offers=buy_offers(play, state, model, stops, name, t), decks=_decks(rules, state, name),
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
        buyers=[g.name for g in play.game.groups if g.name != name and g.name not in state.out],
        **_binds(play, name, now), income=_income(play, state, name, t),
        mortgageable=state.cash.get(name, 0) < 0 and any(not h.mortgaged for h in held),
        buildable=_buildable(rules, state, name), next_change=_next_change(play, model, now, stops, jail, t))


def _binds(play: Play, group: str, now: GroupState) -> dict:
    """Where the group's day has it and what binds it (the fields ``group status`` gives them)."""
    fields = state_fields(play.day, group, now)
    return {"position": fields["position"], "obligation": fields["obligation"]}


def _income(play: Play, state: LedgerState, group: str, t: int) -> list[IncomeNow]:
    """§6: each full hour of the game up to ``t`` whose income the group has not recorded, with the train of its
    day at that hour when that train earns the bonus (its arrival or departure in the bonus minutes)."""
    rules = rules_of(play)
    tt = play.day.timetable
    out = []
    for hour in range((rules.start // 3600 + 1) * 3600, min(t, rules.end) + 1, 3600):
        if (group, hour) in state.incomes:
            continue
        trip = train_at(play, group, hour)
        bonus = trip is not None and trip_meets_bonus(tt, play.day.game, trip, hour)
        out.append(IncomeNow(hour=fmt_clock(hour), amount=rules.income_bonus if bonus else rules.income_base,
                             bonus=bonus, train=tt.route_name[tt.trip_route[trip]] if bonus else None))
    return out


def _buildable(rules: LedgerRules, state: LedgerState, group: str) -> list[str]:
    """§8: the group's stations it may build on now (in a complete letter group, not mortgaged nor disputed, below
    a hotel; variant B §10: nothing while anything is mortgaged)."""
    held = state.owned(group, STATION)
    if not rules.buy_while_mortgaged and any(h.mortgaged for h in state.owned(group)):
        return []
    ok = buildable(rules, state, group)
    return [h.name for h in held if h.name in ok and not h.mortgaged and h.name not in state.disputes
            and h.level < rules.hotel_level]


def _next_change(play: Play, model: GroupDay, now: GroupState, stops: list[Stop], jail: JailStay | None,
                 t: int) -> str | None:
    """The next minute after ``t`` at which the answer changes by the clock alone: the next stop of the group's
    day (a fee appears, it stands elsewhere), its train leaving the station it is at, a crossing no longer on
    offer, the jail's end, the next full hour (income), what binds it ending; None after the game's end."""
    rules = rules_of(play)
    tt = play.day.timetable
    whole = stops_of(play.day, model, DAY_END)
    times = [s.time for s in whole[len(stops):len(stops) + 1]]
    times += [s.time + RECENT + 60 for s in stops if s.kind != STATION and t < s.time + RECENT]
    pos = model.position_at(t)
    if pos is not None and pos.seated:
        times.append(int(tt.st_dep[pos.row]) + 60)
    if jail is not None:
        times.append(jail.until)
    times.append((t // 3600 + 1) * 3600)
    ob = now.obligation
    times += [x for x in (ob.until, ob.board_by, now.next_roll_at) if x is not None]
    later = [x // 60 * 60 for x in times if x // 60 > t // 60 and x <= rules.end]
    return fmt_clock(min(later)) if later else None


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


def buy_offers(play: Play, state: LedgerState, model: GroupDay, stops: list[Stop], group: str,
               t: int) -> list[Offer]:
    """The station the group is at and the toll lines and tunnels it crossed lately, when nobody owns them (and
    the stations of its virtual visits), each where the ledger's own rule of what may be bought where
    (:func:`planner.service.read.whereabouts.check_place`) lets it buy."""
    rules = rules_of(play)
    if not rules.buy_while_mortgaged and any(h.mortgaged for h in state.owned(group)):
        return []  # variant B §10: nothing is bought while anything is mortgaged
    tt = play.day.timetable
    pos = model.position_at(t)
    here: list[tuple[str, str]] = []
    if pos is not None and (not pos.seated or int(tt.st_arr[pos.row]) <= t <= int(tt.st_dep[pos.row])):
        here.append((STATION, tt.station_name[pos.station]))
    here += [(s.kind, s.name) for s in stops if s.kind != STATION and t - RECENT <= s.time <= t]
    visits = [(STATION, v) for v in state.visits.get(group, [])]  # a card's virtual visit needs no presence
    events: list[Event] | None = None
    out: list[Offer] = []
    for kind, name in dict.fromkeys(here + visits):
        if state.holding(kind, name) is not None or name in state.disputes:
            continue
        if (kind, name) not in visits:
            if events is None:
                events = play.state.ledger.standing(rules, play.id)
            try:
                check_place(play, group, Event("buy", group, t, target=kind, name=name), events)
            except InputError:
                continue  # the group's day cannot put it there then: the ledger would refuse it
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
