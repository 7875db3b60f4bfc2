"""Ledger use cases: record a money event, void one, mark a message sent; the readings are re-exported from
:mod:`planner.service.read.ledger_views`.

The command line and the phone send the same typed request (:class:`LedgerRequest`: facts only, never amounts but a
sale's agreed one); this module resolves names on the game day, fills in a station's price and letter, the card a
group draws, the stop a fee is for (:mod:`planner.service.read.fee_stops`), checks the claim against the group's day
(:mod:`planner.service.read.whereabouts`), and records through the state's ledger, which replays the day in decision-time
order.
"""

from __future__ import annotations

from dataclasses import dataclass

import msgspec

from planner.errors import InputError
from planner.game.bonus import trip_meets_bonus
from planner.game.prices import initial_letter, station_price
from planner.ledger.cards import NotInPile, deck_of, next_card
from planner.ledger.kinds import KINDS as EVENT_KINDS_TOLD
from planner.ledger.kinds import recorded_as
from planner.ledger.messages import note, sms_time
from planner.ledger.model import STATION, TOLL_LINE, TUNNEL, Event, LedgerState
from planner.service.answers.money import RecordedEvent
from planner.service.read.fee_stops import fee_stop, is_stop, stops_of
from planner.service.read.jail_plans import check_jail_payment
from planner.service.read.ledger_views import (
    end,
    feed,
    group_status,
    own_events,
    recorded_event,
    rules_of,
    status,
)
from planner.service.read.recorded_day import group_day
from planner.service.read.whereabouts import (
    check_place,
    group_train,
    train_at,
)
from planner.service.setup.playing import Play
from planner.store.games import GameGroup
from planner.store.ledger_rows import Recorded
from planner.timetable.model import Mode
from planner.util.i18n import _, format_amount
from planner.util.text import fold
from planner.util.timefmt import fmt_clock

__all__ = ["KINDS", "LedgerRequest", "LedgerResult", "end", "event_of", "feed", "group_status", "mark_sent",
           "own_events", "play_card", "record_event", "rules_of", "station_facts", "status", "void"]

KINDS = tuple(k.name for k in EVENT_KINDS_TOLD)  # the one declaration: planner/ledger/kinds.py
DRAW_TRIES = 3  # a draw that lost its card to the same group's other phone draws the next
BOARDING = 5 * 60  # a group in a train that left its stop this long ago is still boarding it (§18.1)


@dataclass(frozen=True)
class LedgerRequest:
    """A money event as a group tells it: what (``kind``), when (``time``; ``reported``: when the message was
    sent, §13; ``now``: when it is recorded, if known: a fee is not paid before its stop), on what (one of
    ``station``/``toll_line``/``tunnel``), and the kind's own facts. ``event_id`` makes a retry idempotent (it
    belongs to the group)."""

    group: str
    kind: str
    time: int
    reported: int | None = None
    station: str | None = None
    toll_line: str | None = None
    tunnel: str | None = None
    dice: tuple[int, ...] = ()  # a tunnel fee, emptying the free parking, a dice-off roll
    houses: tuple[tuple[str, str], ...] = ()  # build: (station, "1".."4" | "hotel") each
    bonus: bool = False  # income: the group says the bonus rule is met
    trip: str | None = None  # income: the train it sat in (the planner checks the bonus rule itself)
    reason: str = ""  # parking: which payment; tax: which tax
    card: str = ""  # card: the card drawn (named); play: the kept card
    rolls: tuple[tuple[str, int], ...] = ()  # diceoff (every group at once): (group, dice sum) each
    event_id: str | None = None
    deck: str = ""  # draw: the deck
    to: str = ""  # sell: the buying group
    amount: int | None = None  # sell: the agreed amount
    offer: int = 0  # accept: the sale's number
    now: int | None = None


@dataclass(frozen=True)
class LedgerResult:
    """What was recorded: the rows written (a first event of a game also records the joining of its groups), the
    event last; a drawn card's title and effect."""

    rows: tuple[Recorded, ...]
    title: str | None = None
    effect: str | None = None

    def answer(self) -> RecordedEvent:
        """The recorded event (``planner ledger ... --json``) with ``joined``."""
        extra = {"joined": len(self.rows) > 1}
        if self.title is not None:
            extra |= {"title": self.title, "effect": self.effect}
        return recorded_event(self.rows[-1], **extra)

    def to_json(self) -> dict:
        """:meth:`answer` as plain JSON."""
        return msgspec.to_builtins(self.answer())


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
        raise InputError(_("give exactly one of --station, --toll-line, --tunnel"),
                         phone=_("choose exactly one: a station, a toll line or a tunnel"))
    kind, name = given[0]
    if kind == STATION:
        return kind, station_facts(play, name)[0]
    game = play.day.game
    known = [c.name for c in (game.toll_lines if kind == TOLL_LINE else game.tunnels)]
    match = [k for k in known if fold(k) == fold(name)]
    if not match:
        raise InputError((_("unknown toll line {name!r}: one of {known}") if kind == TOLL_LINE else
                          _("unknown tunnel {name!r}: one of {known}")).format(name=name,
                                                                              known=", ".join(known) or _("none")))
    return kind, match[0]


def event_of(play: Play, req: LedgerRequest, card: str | None = None) -> Event:
    """The ledger event of a request (names resolved, a station's price and letter, a fee's stop, the card drawn
    filled in; ``card``: the card a draw already recorded under the request's event id drew)."""
    if req.kind not in KINDS:
        raise InputError(_("unknown ledger event {kind!r} (one of {kinds})").format(kind=req.kind, kinds=", ".join(KINDS)))
    group = play.group(req.group).name
    base = {"group": group, "time": req.time, "reported": req.reported}
    if req.kind in ("buy", "mortgage", "redeem", "pay", "sell") or req.kind == "play" and req.station:
        target, name = resolve_target(play, req.station, req.toll_line, req.tunnel)
        kw: dict = {"target": target, "name": name}
        if target == STATION and req.kind in ("buy", "play"):
            _name, kw["price"], kw["letter"] = station_facts(play, name)
        if req.kind == "pay":
            kw["dice"] = req.dice
            base["time"] = fee_stop(play, group, target, name, req.time, req.now)
        if req.kind == "sell":
            if req.amount is None:
                raise InputError(_("a sale names its amount (what the groups agreed)"))
            kw |= {"to": play.group(req.to).name if req.to else "", "amount": int(req.amount)}
        if req.kind == "play":
            kw["card"] = req.card
        return Event(recorded_as(req.kind), **base, **kw)
    return _other_event(play, req, base, card)


def _other_event(play: Play, req: LedgerRequest, base: dict, card: str | None) -> Event:
    """The events that name no station, toll line or tunnel of their own (see :func:`event_of`)."""
    kind = req.kind
    if kind == "build":
        return Event("build", **base, levels=_levels(play, req))
    if kind == "income":
        return Event("income", **base, bonus=_bonus(play, req))
    if kind == "parking":
        if not req.reason:
            raise InputError(_("parking: give the reason (a key of the game's ledger.parking_payments)"))
        return Event("parking", **base, reason=req.reason)
    if kind == "tax":
        reason, trip = _tax(play, req)
        return Event(recorded_as("tax"), **base, reason=reason, trip=trip)
    if kind == "parking_empty":
        return Event("parking_empty", **base, dice=req.dice, **_change(play, base["group"], req.time))
    if kind == "card":
        return Event("card", **base, card=req.card)
    if kind == "play":
        return Event("play", **base, card=req.card)
    if kind == "draw":
        return _draw(play, req, base, card)
    if kind == "accept":
        return Event("accept", **base, ref=int(req.offer))
    if req.rolls:  # diceoff, every group's sum at once
        rolls = tuple((play.group(g).name, int(v)) for g, v in req.rolls)
        return Event("diceoff", rolls[0][0], req.time, req.reported, name=station_facts(play, req.station or "")[0],
                     rolls=rolls)
    if not req.station:
        raise InputError(_("a dice-off roll names the station (--station) and the two dice (--dice)"),
                         phone=_("a dice-off roll names the station and the two dice"))
    return Event("diceoff", **base, name=station_facts(play, req.station)[0], dice=req.dice)


def _levels(play: Play, req: LedgerRequest) -> tuple[tuple[str, int], ...]:
    top = rules_of(play).hotel_level
    levels = []
    for name, n in req.houses:
        n = str(n).strip().lower()
        if not (n.isdigit() and 1 <= int(n) < top or n == "hotel"):
            raise InputError(_("houses {name}={n}: expected 1-{most} or hotel").format(name=name, n=n, most=top - 1))
        levels.append((station_facts(play, name)[0], top if n == "hotel" else int(n)))
    if not levels:
        raise InputError(_("build: name the stations and their new totals (e.g. Aarau=2)"))
    return tuple(levels)


def _tax(play: Play, req: LedgerRequest) -> tuple[str, str]:
    """§16: the tax named and the train the group's day has it in ("" unknown; a tax is paid once per train and
    minute), refused where it does not apply (variant B: no unscheduled-stop tax in a bus or tram)."""
    taxes = rules_of(play).taxes
    tax = taxes.get(req.reason)
    if tax is None:
        raise InputError(_("no tax {reason!r} in this game (taxes: {known})").format(
            reason=req.reason, known=", ".join(map(repr, taxes)) or "-"))
    trip = train_at(play, req.group, req.time)
    if trip is None:
        return tax.key, ""
    tt = play.day.timetable
    mode = Mode(int(tt.route_mode[tt.trip_route[trip]])).label
    if tax.modes and mode not in tax.modes:
        raise InputError(_("{title} does not apply in a {mode} (the group's {train}): only in {modes}").format(
            title=tax.title, mode=mode, train=tt.route_name[tt.trip_route[trip]], modes=", ".join(tax.modes)))
    return tax.key, str(tt.trip_id[trip])


def _change(play: Play, group: str, t: int) -> dict:
    """§18.1: where the group rolls for the free parking, as its day has it: the station it stands at (or boards a
    train at), and since when it is there (one roll per change); nothing known: its word."""
    day = play.day
    model = group_day(day, play.state.groups.snapshot(play.id, play.group(group)))
    pos = model.position_at(t)
    if pos is None:
        return {}
    tt = day.timetable
    here = tt.station_name[pos.station]
    if pos.seated and (int(tt.st_arr[pos.row]) > t or int(tt.st_dep[pos.row]) < t - BOARDING):
        raise InputError(_("the free parking is rolled for on boarding at a change (§18.1): the group's day has it "
                           "in a train between two stops at {time}").format(time=fmt_clock(t)))
    stations = [s for s in stops_of(day, model, t) if s.kind == STATION]
    since = stations[-1].time if stations and stations[-1].name == here else pos.since
    return {"name": here, "ref": since // 60}


def _draw(play: Play, req: LedgerRequest, base: dict, card: str | None) -> Event:
    """A card drawn from the group's pile of ``req.deck`` (the game's id shuffles it); a card sending the group to
    jail names where its day has it (the stop its train is at or nearing)."""
    rules = rules_of(play)
    deck = deck_of(rules, req.deck)
    if card is None:
        card = next_card(rules, play.state.ledger.view(rules, play.id), base["group"], deck, play.id)
    where = ""
    if rules.cards[card].effect == "jail":
        pos = group_day(play.day, play.state.groups.snapshot(play.id, play.group(req.group))).position_at(req.time)
        where = play.day.timetable.station_name[pos.station] if pos is not None else ""
    return Event("draw", **base, deck=deck, card=card, name=where)


def _bonus(play: Play, req: LedgerRequest) -> bool:
    """§6: whether the full-hour income is the bonus fee, decided on the train (given, or the one the group's
    day has it in at that hour); a claim no known train backs is refused."""
    day = play.day
    trip = group_train(play, req.group, req.trip, req.time) if req.trip else train_at(play, req.group, req.time)
    if trip is None:
        if req.bonus:
            raise InputError(_("the bonus at {time} needs the train: name it (--trip), or report it ('planner group "
                               "position --trip')").format(time=fmt_clock(req.time)),
                             phone=_("the bonus at {time} needs the train: name it, or first tell the train you are "
                                     "in").format(time=fmt_clock(req.time)))
        return False
    met = trip_meets_bonus(day.timetable, day.game, trip, req.time)
    if req.bonus and not met:
        raise InputError(_("{route} ({trip}) neither arrives nor departs in the bonus minutes of {time}: no "
                           "bonus").format(route=day.timetable.route_name[day.timetable.trip_route[trip]],
                                           trip=day.timetable.trip_id[trip], time=fmt_clock(req.time)))
    return met


def _check(play: Play, group: str, event: Event):
    """What the group's day must not contradict before ``event`` is recorded (None: nothing to check)."""
    if event.kind == "fee" and is_stop(play, group, event.target, event.name, event.time):
        return None  # a stop of the group's own day: nothing to contradict
    if event.kind in ("buy", "fee") and event.target in (STATION, TOLL_LINE, TUNNEL):
        def check(state: LedgerState, events: list[Event]) -> None:
            if event.name not in state.visits.get(event.group, ()):  # a card's virtual visit needs no presence
                check_place(play, group, event, events)
        return check
    if event.kind == "parking" and event.reason == "jail":
        return lambda state, events: check_jail_payment(play, group, event, events)
    return None


def record_event(play: Play, req: LedgerRequest) -> LedgerResult:
    """Record a money event (see module docstring); a claim the group's day contradicts is refused (exit 2)."""
    group = play.group(req.group)
    rules = rules_of(play)
    first = None
    if req.kind == "draw" and req.event_id is not None:  # a retried draw draws nothing new
        first = play.state.ledger.by_event_id(play.id, group.key, req.event_id)
    for attempt in range(DRAW_TRIES):
        event = event_of(play, req, first.event.card if first is not None and first.event.kind == "draw" else None)
        try:
            rows = play.state.ledger.record(rules, play.game, group, event, check=_check(play, group.name, event),
                                            event_id=req.event_id)
        except NotInPile:
            if attempt + 1 == DRAW_TRIES:
                raise
            continue
        last = rows[-1].event
        if last.kind == "draw":
            card = rules.cards[last.card]
            deck = rules.decks.get(card.deck)
            return LedgerResult(rows, f"{deck.shown if deck is not None else card.deck} {card.title}", card.effect)
        return LedgerResult(rows)
    raise AssertionError("unreachable")  # the last try returns or raises


def play_card(play: Play, group: GameGroup, time: int, card: str, event_id: str | None = None) -> LedgerResult:
    """A kept card played at ``time`` on no station (with a roll): nothing of the group's day to resolve or check,
    so it goes straight to the ledger, which refuses a card the group does not hold (as :func:`record_event`
    records a ``play`` request without a station)."""
    return LedgerResult(play.state.ledger.record(rules_of(play), play.game, group, Event("play", group.name, time,
                                                                                         card=card),
                                                 event_id=event_id))


def void(play: Play, seq: int, reason: str, time: int) -> Recorded:
    """Void ledger event ``seq`` (organisers): it stays in the log, marked; capital and every later fee follow;
    every group is told. A later event that needs it is named, and the void refused."""
    reason = " ".join(str(reason).split())
    if not reason:
        raise InputError(_("--reason: say why the event is voided (every group is told)"),
                         phone=_("say why the event is voided (every group is told)"))
    rules = rules_of(play)

    # the voided event named by its own message (in the game's language, as every group was sent it)
    original = next((r for r in play.state.ledger.events(rules, play.id, max(0, int(seq) - 1)) if r.seq == seq),
                    None)

    def message(ev: Event, changes: list[tuple[int, int, int]]) -> str:
        what = original.message if original is not None and original.message else f"{ev.group} {ev.name}".strip()
        said = {"time": sms_time(time), "seq": seq, "what": what, "reason": reason[:200]}
        if changes:
            return note(rules, "void_changes", **said, changes=", ".join(f"#{s} {format_amount(a)} -> {format_amount(b)}" for s, a, b in changes))
        return note(rules, "void", **said)

    return play.state.ledger.void(rules, play.id, int(seq), reason, time, message)


def mark_sent(play: Play, group: str, seq: int, time: int) -> RecordedEvent:
    """§13: the group sent the message of its event ``seq`` at ``time`` (the phone shared it): a message sent more
    than the game's minutes after its event costs the penalty, and a purchase then counts from it. The first time
    a message is marked sent stays."""
    g = play.group(group)
    return recorded_event(play.state.ledger.mark_sent(rules_of(play), play.id, g, int(seq), time))
