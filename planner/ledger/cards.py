"""Kanzlei and Chance cards (§14-§15; pure): each group's own shuffled deck of each kind, drawn card by card and
reshuffled when empty; a card's effect applies at the draw, a kept card is held until it is played.

The shuffle is reproducible: the order of a deck is a permutation drawn from ``(seed, group, deck, reshuffles)``
(the service gives the game's id as the seed), so a replay never depends on chance; the drawn card is recorded in
the event and checked against the pile.
"""

from __future__ import annotations

import hashlib
import random

from planner.ledger import reported_jail as jails
from planner.ledger.messages import render
from planner.ledger.model import BANK, PARKING, STATION, Event, LedgerState
from planner.ledger.money_rules import Card, LedgerRules
from planner.ledger.moves import Outcome, Refused, move, tell_of
from planner.ledger.purchase import buy
from planner.util.i18n import _
from planner.util.timefmt import fmt_clock


class NotInPile(Refused):
    """The card a draw names is not in the group's pile (another phone of the group drew it meanwhile)."""


def pile(rules: LedgerRules, s: LedgerState, group: str, deck: str) -> list[str]:
    """The cards of ``deck`` still in the group's pile: neither drawn since the last shuffle nor held."""
    drawn = s.drawn.get((group, deck), [])
    kept = s.held.get(group, [])
    return [k for k in rules.decks[deck].cards if k not in drawn and k not in kept]


def shuffled(seed: str, group: str, deck: str, shuffles: int, keys: tuple[str, ...]) -> list[str]:
    """The order of a deck after its ``shuffles``-th shuffle for one group (reproducible)."""
    digest = hashlib.sha256(f"{seed}\x1f{group}\x1f{deck}\x1f{shuffles}".encode()).digest()
    order = list(keys)
    random.Random(int.from_bytes(digest[:8], "big")).shuffle(order)
    return order


def deck_of(rules: LedgerRules, deck: str) -> str:
    """The deck's name as the game file spells it (refused for an unknown deck)."""
    match = next((d for d in rules.decks if d.casefold() == deck.strip().casefold()), None)
    if match is None:
        raise Refused(_("no deck {deck!r} in this game (decks: {decks})").format(
            deck=deck, decks=", ".join(rules.decks) or "-"))
    return match


def next_card(rules: LedgerRules, s: LedgerState, group: str, deck: str, seed: str) -> str:
    """The card the group draws next from ``deck`` (a new shuffle when its pile is empty)."""
    deck = deck_of(rules, deck)
    left = pile(rules, s, group, deck)
    shuffles = s.shuffles.get((group, deck), 0)
    if not left:
        shuffles += 1
        kept = s.held.get(group, [])
        left = [k for k in rules.decks[deck].cards if k not in kept]
    if not left:
        raise Refused(_("the deck {deck} has no card left to draw (all are held)").format(deck=deck))
    return next(k for k in shuffled(seed, group, deck, shuffles, rules.decks[deck].cards) if k in left)


def draw(rules: LedgerRules, s: LedgerState, e: Event, out: Outcome) -> None:
    """Draw ``e.card`` from the group's pile of ``e.deck`` (reshuffled when empty) and apply it."""
    deck = deck_of(rules, e.deck)
    once = (e.group, deck, e.time // 60)  # §14-§15: a pram, a dog seen is one draw, whichever phone taps it
    if once in s.draws and out.strict:
        raise Refused(_("group {group} drew a card of {deck} at {time} already: one card each time").format(
            group=e.group, deck=deck, time=fmt_clock(e.time)))
    s.draws.add(once)
    key = (e.group, deck)
    if not pile(rules, s, e.group, deck):
        s.shuffles[key] = s.shuffles.get(key, 0) + 1
        s.drawn[key] = []
    if e.card not in pile(rules, s, e.group, deck):
        raise NotInPile(_("card {card!r} is not in the pile of {deck} of group {group}").format(
            card=e.card, deck=deck, group=e.group))
    s.drawn.setdefault(key, []).append(e.card)
    effect(rules, s, e, out, rules.cards[e.card], drawn=True)


def effect(rules: LedgerRules, s: LedgerState, e: Event, out: Outcome, card: Card, *, drawn: bool = False) -> None:
    """What a card does when it is drawn (``drawn``) or, for the old ``card`` event, named by the group."""
    others = [g for g in sorted(s.cash) if g != e.group and g not in s.out]
    if card.effect == "bank_pays":
        out.amount = card.amount
        move(s, out, BANK, e.group, card.amount)
    elif card.effect == "pay_parking":
        out.amount = card.amount
        move(s, out, e.group, PARKING, card.amount)
    elif card.effect == "per_building":
        held = s.owned(e.group, STATION)
        houses = sum(h.level for h in held if h.level < rules.hotel_level)
        hotels = sum(1 for h in held if h.level >= rules.hotel_level)
        out.amount = houses * card.per_house + hotels * card.per_hotel
        move(s, out, e.group, PARKING, out.amount)
    elif card.effect == "each_group_pays":
        out.amount = card.amount
        for g in others:
            move(s, out, g, e.group, card.amount)
    elif card.effect == "pay_each_group":
        out.amount = card.amount
        for g in others:
            move(s, out, e.group, g, card.amount)
    elif card.effect == "virtual_visit":
        s.visits.setdefault(e.group, []).append(card.station)
    elif card.effect == "jail":
        jails.enter(rules, s, e.group, e.name, e.time)
    elif drawn and card.kept:
        s.held.setdefault(e.group, []).append(card.key)
    elif card.effect == "free_station":
        s.free_station[e.group] = s.free_station.get(e.group, 0) + 1
    out.tell = "*" if card.tell == "all" else ""
    title = f"{card.deck} {card.title.in_language(rules.language)}"  # every group is sent the game's language
    text = render(rules, "card", group=e.group, time=e.time, title=title, amount=out.amount or "")
    out.message = text + (f" P total {s.parking}" if card.effect in ("pay_parking", "per_building") else "")


def card_event(rules: LedgerRules, s: LedgerState, e: Event, out: Outcome) -> None:
    """The old ``card`` event: the group names the card it drew (no deck kept)."""
    card = rules.cards.get(e.card)
    if card is None:
        raise Refused(_("no card {card!r} in this game (known: {known})").format(card=e.card,
                                                                                  known=", ".join(rules.cards) or "-"))
    effect(rules, s, e, out, card)


def play(rules: LedgerRules, s: LedgerState, e: Event, out: Outcome) -> None:
    """Play a kept card: out of jail, a roll turned into a 6 (the roll is the service's), the next station free
    (``e`` names the station, bought with it)."""
    card = rules.cards.get(e.card)
    if card is None or e.card not in s.held.get(e.group, []):
        raise Refused(_("group {group} holds no card {card!r} (kept cards: {held})").format(
            group=e.group, card=e.card, held=", ".join(map(repr, s.held.get(e.group, []))) or "-"))
    if card.effect == "free_station":
        if e.target != STATION or not e.name:
            raise Refused(_("the card {title} buys a station: name it").format(title=card.title))
        buy(rules, s, e, out, card=e.card)
        if out.pending:
            raise Refused(_("{name} is in a dice-off (§7.2): the card cannot buy it now").format(name=e.name))
        out.tell = tell_of(rules.audience.get("buy", "none"))
        return
    if card.effect == "out_of_jail":
        if jails.leave(s, e.group, e.time, card.key) is None:
            raise Refused(_("group {group} is in no jail at {time}: the card stays held").format(
                group=e.group, time=fmt_clock(e.time)))
    s.held[e.group].remove(e.card)
    out.message = render(rules, "play", group=e.group, time=e.time,
                         title=f"{card.deck} {card.title.in_language(rules.language)}")
