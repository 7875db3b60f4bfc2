"""The money rules beyond buying and fees, on hand-written events (pure): each group's own decks (§14-§15) and its
kept cards, sales between groups (§7.3), dice-offs rolled per group (§7.2), a group that is out (§6), taxes and
jail (§16-§17), the free parking at a change (§18.1), and every refusal as one sentence."""

from __future__ import annotations

from collections import Counter

import pytest

from planner.gamefile.game import load_game
from planner.ledger.apply import Refused, apply, fee_due
from planner.ledger.cards import next_card, pile
from planner.ledger.model import Event, LedgerState
from planner.ledger.money_rules import ledger_rules
from planner.util.timefmt import parse_clock as T

A = ledger_rules(load_game("sbb-monopoly"))
B = ledger_rules(load_game("nordwestschweiz"))


def joined(rules, *groups: str) -> LedgerState:
    s = LedgerState()
    for g in groups:
        s = apply(rules, s, Event("join", g, rules.start)).state
    return s


def run(rules, s: LedgerState, *events: Event) -> LedgerState:
    for i, e in enumerate(events, start=100):
        s = apply(rules, s, e, seq=i).state
    return s


def buy(g, name, when="09:30", price=1000, letter=None):
    return Event("buy", g, T(when), target="station", name=name, price=price, letter=letter or name[0])


def draw_all(rules, s, group, deck, seed, n, start="10:00"):
    """Draw ``n`` cards in turn as the service does (the next card of the shuffled pile)."""
    keys = []
    for i in range(n):
        key = next_card(rules, s, group, deck, seed)
        s = apply(rules, s, Event("draw", group, T(start) + 60 * i, deck=deck, card=key)).state
        keys.append(key)
    return s, keys


def test_a_deck_is_drawn_card_by_card_and_reshuffled_when_empty():
    s = joined(B, "1", "2", "3")
    s, keys = draw_all(B, s, "1", "Kanzlei", "game-x", 10)
    kept = [k for k in keys if B.cards[k].kept]
    assert sorted(keys) == sorted(B.decks["Kanzlei"].cards)  # each card once
    assert s.held["1"] == kept and pile(B, s, "1", "Kanzlei") == []
    s, again = draw_all(B, s, "1", "Kanzlei", "game-x", 10 - len(kept), start="12:00")  # reshuffled
    assert sorted(again) == sorted(k for k in B.decks["Kanzlei"].cards if k not in kept)  # held cards stay out
    assert draw_all(B, joined(B, "1", "2", "3"), "1", "Kanzlei", "game-x", 10)[1] == keys  # reproducible
    orders = {tuple(draw_all(B, joined(B, "1"), "1", "Kanzlei", seed, 10)[1]) for seed in ("a", "b", "c", "d")}
    assert len(orders) > 1  # each game its own shuffle
    with pytest.raises(Refused, match="no deck 'Joker' in this game"):
        next_card(B, s, "1", "Joker", "game-x")
    with pytest.raises(Refused, match="not in the pile of Kanzlei"):
        apply(B, s, Event("draw", "1", T("13:00"), deck="Kanzlei", card=kept[0] if kept else keys[0]))


def test_a_card_drawn_moves_the_money_it_prints_from_every_group():
    s = joined(B, "1", "2", "3")  # 2 and 3 never acted: they pay all the same
    bday = apply(B, s, Event("draw", "1", T("10:00"), deck="Kanzlei", card="kanzlei-geburtstag"))
    assert bday.state.cash == {"1": 22000, "2": 19000, "3": 19000} and bday.tell == "*"
    assert bday.message == "1 Kanzlei Geburtstag 1000"


def test_kept_cards_are_held_until_played():
    s = joined(B, "1", "2")
    s = run(B, s, *(Event("draw", "1", T("10:00") + 60 * i, deck=d, card=c) for i, (d, c) in enumerate(
        [("Kanzlei", "kanzlei-gefaengnis"), ("Chance", "chance-freiheit"), ("Kanzlei", "kanzlei-politisch-beliebt")])))
    assert s.held["1"] == ["kanzlei-gefaengnis", "chance-freiheit", "kanzlei-politisch-beliebt"]
    with pytest.raises(Refused, match="is in no jail at 10:05: the card stays held"):
        apply(B, s, Event("play", "1", T("10:05"), card="kanzlei-gefaengnis"))
    jailed = apply(B, s, Event("jail", "1", T("10:10"), name="Liestal", trip="t1", minutes=7)).state
    assert jailed.jail("1", T("10:20")).until == T("10:40")
    out = apply(B, jailed, Event("play", "1", T("10:20"), card="kanzlei-gefaengnis")).state
    assert out.jail("1", T("10:20")) is None and "kanzlei-gefaengnis" not in out.held["1"]
    free = apply(B, out, Event("play", "1", T("10:30"), card="kanzlei-politisch-beliebt", target="station",
                               name="Sissach", price=4000, letter="S"))
    assert free.amount == 0 and free.state.holding("station", "Sissach").owner == "1"
    assert free.state.held["1"] == ["chance-freiheit"]
    with pytest.raises(Refused, match="group 2 holds no card 'chance-freiheit'"):
        apply(B, out, Event("play", "2", T("10:30"), card="chance-freiheit"))


def test_a_sale_moves_the_station_and_its_houses_count_only_in_a_complete_letter_group():
    s = joined(A, "1", "2", "3")
    s = run(A, s, buy("1", "Aarau"), buy("1", "Aesch"), buy("1", "Arth"),
            Event("build", "1", T("09:40"), levels=(("Aarau", 2),)))
    assert fee_due(A, s, "3", "station", "Aarau") == ("1", 2500, 0)
    offer = apply(A, s, Event("sell", "1", T("10:00"), target="station", name="Aarau", to="2", amount=3000), seq=7)
    assert offer.tell == "2" and offer.message == "1 Aarau an 2 3000"
    sold = apply(A, offer.state, Event("accept", "2", T("10:05"), ref=7))
    assert sold.tell == "*" and sold.message == "2K 10.05 Aarau von 1 3000"
    h = sold.state.holding("station", "Aarau")
    assert (h.owner, h.level, sold.state.cash["1"], sold.state.cash["2"]) == ("2", 2, 17000 - 2000 + 3000, 17000)
    assert fee_due(A, sold.state, "3", "station", "Aarau") == ("2", 250, 0)  # houses without effect for 2
    with pytest.raises(Refused, match="offer #7 was accepted already at 10:05"):
        apply(A, sold.state, Event("accept", "2", T("10:06"), ref=7))


@pytest.mark.parametrize(("event", "why"), [
    (Event("sell", "2", T("10:00"), target="station", name="Aarau", to="3", amount=1), "belongs to group 1, not group 2"),
    (Event("sell", "1", T("10:00"), target="station", name="Aarau", to="1", amount=1), "cannot sell Aarau to itself"),
    (Event("sell", "1", T("10:00"), target="station", name="Aarau", to="3", amount=1), "group 3 is out"),
    (Event("sell", "1", T("10:00"), target="station", name="Baar", to="2", amount=1), "Baar is mortgaged"),
    (Event("sell", "1", T("10:00"), target="toll_line", name="Olten–Aarau", to="2", amount=1), "only stations"),
    (Event("accept", "3", T("10:10"), ref=7), "group 3 is out"),
    (Event("accept", "1", T("10:10"), ref=7), "offer #7 is made to group 2, not to group 1"),
    (Event("accept", "2", T("10:10"), ref=8), "there is no sale offer #8"),
])
def test_a_sale_is_refused_in_one_sentence(event, why):
    s = joined(A, "1", "2", "3")
    s = run(A, s, buy("1", "Aarau"), buy("1", "Baar"), buy("3", "Cham", price=4000))
    s.cash["1"] = -1  # a fee it did not cover: it mortgages Baar
    s = run(A, s, Event("mortgage", "1", T("09:50"), target="station", name="Baar"))
    s = apply(A, s, Event("sell", "1", T("09:55"), target="station", name="Aarau", to="2", amount=500), seq=7).state
    s.cash["3"] = -50_000
    s.out["3"] = T("09:56")
    with pytest.raises(Refused, match=why):
        apply(A, s, event)


def test_a_diceoff_is_rolled_by_each_group_and_settled_when_all_rolled():
    s = joined(A, "1", "2", "3")
    s = run(A, s, buy("1", "Zug", "10:00"), buy("2", "Zug", "10:00"), buy("3", "Zug", "10:00"))
    assert s.disputes["Zug"].groups == ["1", "2", "3"]
    s = run(A, s, Event("diceoff", "1", T("10:02"), name="Zug", dice=(6, 5)))
    with pytest.raises(Refused, match="group 1 rolled 11 in the dice-off for Zug already"):
        apply(A, s, Event("diceoff", "1", T("10:03"), name="Zug", dice=(6, 6)))
    with pytest.raises(Refused, match="two dice, each 1-6"):
        apply(A, s, Event("diceoff", "2", T("10:03"), name="Zug", dice=(7, 1)))
    s = run(A, s, Event("diceoff", "2", T("10:03"), name="Zug", dice=(5, 6)))
    tie = apply(A, s, Event("diceoff", "3", T("10:04"), name="Zug", dice=(1, 1)))
    assert "tie: 1, 2 roll again" in tie.message and tie.state.disputes["Zug"].rolling == ["1", "2"]
    with pytest.raises(Refused, match="rolled again by groups 1, 2 only"):
        apply(A, tie.state, Event("diceoff", "3", T("10:05"), name="Zug", dice=(6, 6)))
    s = run(A, tie.state, Event("diceoff", "1", T("10:05"), name="Zug", dice=(1, 2)))
    won = apply(A, s, Event("diceoff", "2", T("10:06"), name="Zug", dice=(4, 4)))
    assert won.message == "2 Zug Würfeln gewonnen" and won.state.holding("station", "Zug").owner == "2"
    assert won.state.cash == {"1": 20000, "2": 19000, "3": 20000} and "Zug" not in won.state.disputes


def test_a_group_that_bought_with_a_kept_card_and_lost_the_diceoff_gets_the_card_back():
    # the "next station free" card pays the first purchase; the dice-off gives the station to group 2, which pays
    # in cash, and group 1 holds its card again (not its cash: it paid none), so nothing is lost
    s = run(B, joined(B, "1", "2"), Event("draw", "1", T("09:30"), deck="Kanzlei", card="kanzlei-politisch-beliebt"))
    s = run(B, s, buy("1", "Zug", "10:00"), buy("2", "Zug", "10:00"))
    assert s.held["1"] == [] and s.cash == {"1": 20000, "2": 20000}
    s = run(B, s, Event("diceoff", "1", T("10:02"), name="Zug", dice=(1, 1)),
            Event("diceoff", "2", T("10:02"), name="Zug", dice=(6, 6)))
    assert s.holding("station", "Zug").owner == "2" and s.holding("station", "Zug").paid == 1000
    assert s.cash == {"1": 20000, "2": 19000} and s.held["1"] == ["kanzlei-politisch-beliebt"]
    # the winner that bought first with its card keeps the station and has used the card
    w = run(B, joined(B, "1", "2"), Event("draw", "1", T("09:30"), deck="Kanzlei", card="kanzlei-politisch-beliebt"),
            buy("1", "Zug", "10:00"), buy("2", "Zug", "10:00"),
            Event("diceoff", "1", T("10:02"), name="Zug", dice=(6, 6)),
            Event("diceoff", "2", T("10:02"), name="Zug", dice=(1, 1)))
    assert w.holding("station", "Zug").owner == "1" and w.cash == {"1": 20000, "2": 20000} and w.held["1"] == []


def test_a_diceoff_sum_is_the_sum_of_two_dice():
    s = run(A, joined(A, "1", "2"), buy("1", "Zug", "10:00"), buy("2", "Zug", "10:00"))
    with pytest.raises(Refused, match=r"dice-off roll 1=42: two dice sum 2 to 12"):
        apply(A, s, Event("diceoff", "1", T("10:05"), name="Zug", rolls=(("1", 42), ("2", 3))))


def test_the_loser_of_a_variant_b_diceoff_owes_no_fee_for_that_stop():
    for rules, owes in ((A, True), (B, False)):
        s = run(rules, joined(rules, "1", "2"), buy("1", "Zug", "10:00"), buy("2", "Zug", "10:00"),
                Event("diceoff", "1", T("10:02"), name="Zug", dice=(6, 6)),
                Event("diceoff", "2", T("10:02"), name="Zug", dice=(1, 1)))
        assert (fee_due(rules, s, "2", "station", "Zug", time=T("10:00")) is not None) == owes
        assert fee_due(rules, s, "2", "station", "Zug", time=T("12:00")) is not None  # a later stop costs
        if not owes:
            with pytest.raises(Refused, match="lost the dice-off for Zug: no fee for that stop"):
                apply(rules, s, Event("fee", "2", T("10:00"), target="station", name="Zug"))


def test_an_out_groups_holdings_ask_no_fees():
    s = run(A, joined(A, "1", "2"), buy("1", "Zug", "09:10", 4000))
    s.cash["1"], s.out["1"] = -15500, T("11:00")  # went out
    assert fee_due(A, s, "2", "station", "Zug") is None
    with pytest.raises(Refused, match="owned by group 1, which is out"):
        apply(A, s, Event("fee", "2", T("11:10"), target="station", name="Zug"))
    fest = apply(A, s, Event("card", "2", T("11:20"), card="chance-fest"))
    assert fest.state.cash["1"] == -15500  # it receives nothing


def test_a_stops_fee_is_paid_once():
    s = run(A, joined(A, "1", "2"), buy("1", "Zug", "09:10", 4000))
    s = run(A, s, Event("fee", "2", T("10:00"), target="station", name="Zug"))
    with pytest.raises(Refused, match="paid the fee of Zug at 10:00:30 already: a stop's fee is paid once"):
        apply(A, s, Event("fee", "2", T("10:00") + 30, target="station", name="Zug"))
    assert apply(A, s, Event("fee", "2", T("10:40"), target="station", name="Zug")).amount == 1000  # another stop


def test_taxes_jail_and_the_free_parking():
    s = joined(A, "1", "2")
    s = run(A, s, Event("parking", "1", T("10:00"), reason="unscheduled_stop"),
            Event("parking", "1", T("10:10"), reason="no_free_compartment"),
            Event("jail", "1", T("10:20"), name="Zug", trip="t9", minutes=6))
    assert s.parking == 6000 and s.jail("1", T("10:30")).station == "Zug"
    with pytest.raises(Refused, match="once per train"):
        apply(A, s, Event("jail", "1", T("11:20"), name="Baar", trip="t9", minutes=9))
    with pytest.raises(Refused, match="4 minutes late is no jail: it takes 5 minutes"):
        apply(A, s, Event("jail", "1", T("11:20"), name="Baar", trip="t8", minutes=4))
    paid = run(A, s, Event("parking", "1", T("10:25"), reason="jail"))
    assert paid.jail("1", T("10:30")) is None and paid.parking == 7000
    miss = apply(A, paid, Event("parking_empty", "2", T("10:40"), dice=(2, 2), name="Baar", ref=640))
    assert (miss.amount, miss.tell, miss.state.parking) == (0, "", 7000)
    with pytest.raises(Refused, match="rolled for the free parking at Baar .* already: once per change"):
        apply(A, miss.state, Event("parking_empty", "2", T("10:41"), dice=(2, 3), name="Baar", ref=640))
    hit = apply(A, miss.state, Event("parking_empty", "2", T("11:00"), dice=(2, 3), name="Cham", ref=655))
    assert hit.amount == 7000 and hit.state.cash["2"] == 27000 and hit.message == "2 P leer 7000"
    with pytest.raises(Refused, match="no free-parking payment 'jail'"):
        apply(B, joined(B, "1"), Event("parking", "1", T("10:00"), reason="jail"))  # variant B: no payment


def test_variant_a_plays_with_variant_b_s_printed_deck():
    assert Counter(c.deck for c in A.cards.values()) == Counter({"Kanzlei": 10, "Chance": 10})
    assert {k: (c.effect, c.amount) for k, c in A.cards.items()} == \
        {k: (c.effect, c.amount) for k, c in B.cards.items()}
    assert "Kontrolleur" in A.decks["Kanzlei"].trigger.in_language("de")
    assert "Kinderwagen" in B.decks["Kanzlei"].trigger.in_language("de")
    assert B.taxes["unscheduled_stop"].modes == ("rail",) and A.taxes["unscheduled_stop"].modes == ()
