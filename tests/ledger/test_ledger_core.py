"""Ledger rules on hand-written station lists: the seeds' worked examples, §19 messages, conflicts."""

from __future__ import annotations

import pytest

from planner.gamefile.game import load_game
from planner.ledger.apply import Refused, apply, fee_due, replay
from planner.ledger.capital import capital, letter_groups, ranking
from planner.ledger.model import Event, LedgerState
from planner.ledger.money_rules import ledger_rules
from planner.util.timefmt import parse_clock

A = ledger_rules(load_game("sbb-monopoly"))
B = ledger_rules(load_game("nordwestschweiz"))


def t(s: str) -> int:
    return parse_clock(s)


def run(rules, events):
    """Apply events one by one; return the last outcome and the state."""
    state, out = LedgerState(), None
    for e in events:
        out = apply(rules, state, e)
        state = out.state
    return out, state


def join(*groups):
    return [Event("join", g, t("09:00")) for g in groups]


def buy(g, name, price, when="09:30", letter=None, **kw):
    return Event("buy", g, t(when), target="station", name=name, price=price, letter=letter or name[0], **kw)


def test_unbuilt_regional_station_fee_is_250_and_fast_train_with_two_houses_5000():
    stations = [("Attiswil", 1000), ("Aesch", 1000), ("Aarburg", 2000)]
    ev = join("1", "2") + [buy("1", n, p) for n, p in stations]
    _, s = run(A, ev)
    assert fee_due(A, s, "2", "station", "Attiswil") == ("1", 250, 0)
    out, s = run(A, ev + [Event("build", "1", t("10:00"), levels=(("Aarburg", 2),))])
    assert out.amount == 2 * 2000
    assert fee_due(A, s, "2", "station", "Aarburg") == ("1", 5000, 0)
    # §9.1 of variant A: on an IC station a house costs 4000, a hotel 20000
    ic = run(A, join("1") + [buy("1", n, 4000, letter="B") for n in ("Basel SBB", "Bern", "Biel/Bienne")]
             + [Event("income", "1", t(f"{h}:00"), bonus=True) for h in (10, 11)])[1]
    assert apply(A, ic, Event("build", "1", t("11:05"), levels=(("Bern", 1),))).amount == 4000
    assert apply(A, ic, Event("build", "1", t("11:05"), levels=(("Bern", 5),))).amount == 20000


def test_variant_b_building_costs_and_ir_fee():
    # Sissach IR 4000, Aesch "other station" 2000, Gempen Dorf bus stop 1000 (§9.1 of variant B)
    s_group = [("Sissach", 4000), ("Seltisberg", 2000), ("Sissach Bahnhof Bus", 1000)]
    a_group = [("Aesch", 2000), ("Arlesheim", 2000), ("Allschwil", 1000)]
    g_group = [("Gempen Dorf", 1000), ("Gelterkinden", 4000), ("Grellingen", 2000)]
    ev = [Event("join", g, t("09:01")) for g in ("1", "2")]
    ev += [buy("1", n, p, letter=n[0]) for n, p in s_group + a_group + g_group]
    ev += [Event("income", "1", t(f"{h}:00"), bonus=True) for h in (10, 11, 12)]  # 3 x 8000
    _, s = run(B, ev)
    assert len(letter_groups(B, s, "1")) == 3
    house = apply(B, s, Event("build", "1", t("10:00"), levels=(("Sissach", 1),)))
    hotel = apply(B, s, Event("build", "1", t("10:00"), levels=(("Aesch", 5),)))
    three = apply(B, s, Event("build", "1", t("10:00"), levels=(("Gempen Dorf", 3),)))
    assert (house.amount, hotel.amount, three.amount) == (4000, 10000, 3000)
    two = apply(B, s, Event("build", "1", t("10:00"), levels=(("Gelterkinden", 2),)))
    assert fee_due(B, two.state, "2", "station", "Gelterkinden") == ("1", 10000, 0)
    assert fee_due(B, s, "2", "station", "Gempen Dorf") == ("1", 250, 0)


def test_toll_fees_by_count_and_tunnel_dice():
    lines = ["Delémont–Laufen", "Olten–Aarau", "Brugg–Baden", "Luzern–Rotkreuz"]
    state = run(A, join("1", "2"))[1]
    fees = []
    for i, name in enumerate(lines):
        state = apply(A, state, Event("income", "1", t(f"{10 + i}:00"))).state  # enough cash
        state = apply(A, state, Event("buy", "1", t(f"{10 + i}:05"), target="toll_line", name=name)).state
        fees.append(fee_due(A, state, "2", "toll_line", lines[0])[1])
    assert fees == [500, 1000, 2000, 4000]
    state = apply(A, state, Event("buy", "2", t("14:10"), target="tunnel", name="Hauenstein")).state
    one = apply(A, state, Event("fee", "1", t("14:20"), target="tunnel", name="Hauenstein", dice=(3, 4)))
    assert one.amount == 80 * 7 and one.message == "1 Hauenstein B 560"
    state = apply(A, one.state, Event("buy", "2", t("14:30"), target="tunnel", name="Heitersberg")).state
    two = apply(A, state, Event("fee", "1", t("14:40"), target="tunnel", name="Hauenstein", dice=(6, 6)))
    assert two.amount == 200 * 12
    assert fee_due(A, state, "1", "tunnel", "Hauenstein") == ("2", None, 200)


def test_the_four_section_19_messages():
    ev = join("1", "2", "3", "4")
    k = Event("buy", "2", t("09:10"), target="station", name="Aarau", price=4000, letter="A")
    out, s = run(A, ev + [k])
    assert out.message == "2K 9.10 Aarau" and out.amount == 4000 and s.cash["2"] == 16000
    assert out.tell == "*"
    fee = apply(A, s, Event("fee", "4", t("09:40"), target="station", name="Aarau"))
    assert fee.message == "4 Aarau B 1000" and fee.tell == "2"
    s = fee.state
    for n in ("Attiswil", "Aesch"):
        s = apply(A, s, buy("2", n, 1000, "09:50")).state
    b = apply(A, s, Event("build", "2", t("10:32"), levels=(("Aarau", 2), ("Attiswil", 1), ("Aesch", 3))))
    assert b.message == "2 10.32 HH Aarau H Attiswil HHH Aesch"
    assert b.amount == 2 * 4000 + 1000 + 3 * 1000
    s = b.state
    s.parking = 4500  # as if paid earlier by others
    p = apply(A, s, Event("parking", "3", t("11:00"), reason="jail"))
    assert p.message == "3P 1000 P total 5500"


def test_owned_station_refused_with_owner_named_and_same_minute_is_a_dice_off():
    _, s = run(A, join("1", "2", "3") + [buy("2", "Aarau", 4000, "09:10")])
    with pytest.raises(Refused, match="belongs to group 2 \\(bought 09:10\\)"):
        apply(A, s, buy("1", "Aarau", 4000, "09:11"))
    out = apply(A, s, buy("1", "Aarau", 4000, "09:10"))
    assert out.pending and not out.transfers and out.state.holding("station", "Aarau").owner == "2"
    assert fee_due(A, out.state, "3", "station", "Aarau") is None  # no fee while the dice decide
    with pytest.raises(Refused, match="tie"):
        apply(A, out.state, Event("diceoff", "1", t("09:12"), name="Aarau", rolls=(("1", 8), ("2", 8))))
    won = apply(A, out.state, Event("diceoff", "1", t("09:12"), name="Aarau", rolls=(("1", 9), ("2", 4))))
    st = won.state
    assert st.holding("station", "Aarau").owner == "1"
    assert (st.cash["1"], st.cash["2"]) == (16000, 20000)


def test_late_purchase_message_costs_ten_percent_into_parking_and_early_one_is_invalid():
    _, s = run(A, join("1"))
    late = apply(A, s, buy("1", "Aarau", 4000, "09:10", reported=t("09:25")))
    assert late.penalty == 400 and late.state.parking == 400
    assert late.message == "1K 9.10 Aarau (verspätet 15 Min.: +400 P)"
    with pytest.raises(Refused, match="early"):
        apply(A, s, buy("1", "Aarau", 4000, "09:30", reported=t("09:15")))
    # variant B sets no deadline
    _, sb = run(B, [Event("join", "1", t("09:01"))])
    ok = apply(B, sb, buy("1", "Aarau", 4000, "09:10", reported=t("09:55")))
    assert ok.penalty == 0 and ok.state.parking == 0


def test_building_needs_a_complete_letter_group_and_a_fourth_starts_a_new_one():
    ev = join("1") + [buy("1", n, 1000) for n in ("Aarau", "Aesch", "Attiswil", "Arth")]
    _, s = run(A, ev)
    assert [h.name for h in letter_groups(A, s, "1")[0]] == ["Aarau", "Aesch", "Attiswil"]
    with pytest.raises(Refused, match="complete letter group"):
        apply(A, s, Event("build", "1", t("10:00"), levels=(("Arth", 1),)))
    assert capital(A, s, "1") == {"cash": 16000, "holdings_value": 4000, "letter_groups": 1, "group_bonus": 2000,
                                  "capital": 22000}


def in_debt(s: LedgerState, group: str, cash: int = -1) -> LedgerState:
    """``s`` after a payment the group's cash did not cover (what a fee, a tax or a card does)."""
    s = s.fork()
    s.cash[group] = cash
    return s


def test_mortgage_keeps_capital_and_variant_b_forbids_buying_while_mortgaged():
    for rules, start in ((A, "09:00"), (B, "09:01")):
        _, s = run(rules, [Event("join", "1", t(start)), buy("1", "Aarau", 4000, "09:10")])
        s = in_debt(s, "1")
        before = capital(rules, s, "1")["capital"]
        m = apply(rules, s, Event("mortgage", "1", t("09:20"), target="station", name="Aarau"))
        assert m.amount == 2000 and capital(rules, m.state, "1")["capital"] == before
        paid = apply(rules, m.state, Event("income", "1", t("10:00"))).state
        nxt = buy("1", "Baden", 2000, "10:05")
        if rules.buy_while_mortgaged:
            assert apply(rules, paid, nxt).state.holding("station", "Baden").owner == "1"
        else:
            with pytest.raises(Refused, match="mortgaged"):
                apply(rules, paid, nxt)
        r = apply(rules, paid, Event("redeem", "1", t("10:10"), target="station", name="Aarau"))
        assert r.amount == 2000 and capital(rules, r.state, "1")["capital"] == before + 4000


def test_a_group_with_cash_mortgages_nothing():
    _, s = run(A, [Event("join", "1", t("09:00")), buy("1", "Aarau", 4000, "09:10")])
    with pytest.raises(Refused, match=r"16,000 in cash: a holding is mortgaged only when the cash does not cover"):
        apply(A, s, Event("mortgage", "1", t("09:20"), target="station", name="Aarau"))
    with pytest.raises(Refused, match="0 in cash"):
        apply(A, in_debt(s, "1", 0), Event("mortgage", "1", t("09:20"), target="station", name="Aarau"))


def test_a_group_whose_debts_exceed_everything_mortgageable_is_out_and_ranks_last():
    ev = join("1", "2") + [buy("1", n, 1000, "09:10", letter="A") for n in ("Aarau", "Aesch", "Arth")]
    ev += [Event("build", "1", t("09:20"), levels=(("Aarau", 5),))]  # hotel: 5 x 1000, fee 5 x 1000
    ev += [buy("2", "Baden", 1000, "09:21"), buy("2", "Bern", 4000, "09:22"), Event("income", "2", t("10:00"))]
    _, s = run(A, ev)
    assert s.cash["2"] == 20000 - 5000 + 4000
    for minute in range(10, 14):
        s = apply(A, s, Event("fee", "2", t(f"10:{minute}"), target="station", name="Aarau")).state
    assert s.cash["2"] == -1000 and "2" not in s.out  # mortgaging Baden and Bern gives 2500
    s = apply(A, s, Event("fee", "2", t("10:30"), target="station", name="Aarau")).state
    assert s.out == {"2": t("10:30")}
    rows = ranking(A, s)
    assert [(r["group"], r["rank"], r["out"]) for r in rows] == [("1", 1, False), ("2", 2, True)]
    assert rows[0]["capital"] == 17000 - 5000 + 25000 + (1000 * 6 + 1000 + 1000) + 2000
    with pytest.raises(Refused, match="out since 10:30"):
        apply(A, s, Event("income", "2", t("11:00")))


def test_variant_b_cards_move_money_as_printed():
    _, s = run(B, [Event("join", g, t("09:01")) for g in ("1", "2", "3")])
    bday = apply(B, s, Event("card", "1", t("10:00"), card="kanzlei-geburtstag"))
    assert bday.state.cash == {"1": 22000, "2": 19000, "3": 19000} and bday.tell == "*"
    free = apply(B, s, Event("card", "1", t("10:00"), card="kanzlei-politisch-beliebt")).state
    got = apply(B, free, buy("1", "Sissach", 4000, "10:10"))
    assert got.amount == 0 and got.state.cash["1"] == 20000
    dividend = apply(B, s, Event("card", "2", t("10:00"), card="chance-dividenden"))
    assert dividend.state.cash["2"] == 21000 and dividend.tell == ""


def test_replay_gives_the_same_state():
    ev = join("1", "2") + [buy("1", "Aarau", 4000), Event("fee", "2", t("09:40"), target="station", name="Aarau")]
    _, s = run(A, ev)
    assert replay(A, ev).cash == s.cash == {"1": 17000, "2": 19000}
    assert [Event.from_json(e.to_json()) for e in ev] == ev


def test_variant_b_status_says_what_to_redeem_and_the_olten_card_is_a_visit():
    from planner.service.change.ledger_events import group_status

    _, s = run(B, [Event("join", "1", t("09:01")), buy("1", "Aarau", 4000, "09:10")])
    s = apply(B, in_debt(s, "1"), Event("mortgage", "1", t("09:20"), target="station", name="Aarau")).state
    assert group_status(B, s, "1").redeem_due == []  # 1999 in cash: not yet
    s = apply(B, s, Event("income", "1", t("10:00"))).state
    st = group_status(B, s, "1")
    assert st.redeem_due == ["Aarau"] and st.stations[0].value == 2000 and st.cash == 5999
    visit = apply(B, s, Event("card", "1", t("10:30"), card="chance-olten")).state
    assert group_status(B, visit, "1").virtual_visits == ["Olten"]
    redeemed = apply(B, visit, Event("redeem", "1", t("10:31"), target="station", name="Aarau")).state
    used = apply(B, redeemed, buy("1", "Olten", 2000, "10:32")).state
    assert used.visits["1"] == [] and used.holding("station", "Olten").owner == "1"
