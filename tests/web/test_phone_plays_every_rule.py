"""Every money rule the command line plays, played from the group's phone page instead (issue 33), in Debian's
headless chromium at 390 x 844 against the real server over loopback:

* variant B on the SYNTHETIC Nordwestschweiz day (nordwestschweiz, 2026-06-13): a tax (§16), a Kanzlei card drawn
  (§14, the card the group's shuffled deck holds next, its text and effect shown), the free parking emptied by two
  dice at a change (§18.1), a dice-off rolled by each group on its own phone (§7.2), a station offered and the offer
  accepted (§7.3), a late train reported (§17, jail) and a kept Chance card played to leave it (§15), and kept
  Kanzlei cards played: a station bought for nothing, a roll made a 6;
* variant A on the Zug day (sbb-monopoly, 2021-09-11), where it differs: a message sent late (§13, its penalty) and
  paying out of jail (§17, variant B has no payment).

Each amount is checked against a hand computation from the game file and against the ledger's own answer
(``planner ledger status --json``); every group's cash and the free parking move by exactly the amounts the rule
says, so money is conserved but for what the bank pays.
"""

from __future__ import annotations

import json
import tomllib

import pytest
from playwright.sync_api import expect

from planner.ledger.cards import shuffled
from tests.support import ROOT
from tests.support.browser import joined_phone, page_width, tell_position, unfold
from tests.support.webserver import DAY, run_cli, web_game

pytestmark = [pytest.mark.long, pytest.mark.needs_shared]

WAIT = 15000  # ms: an answer, or a poll of the page (0.5 s on the shared server), shows within this


def shown(text: str | dict) -> str:
    """A game file's text as the suite's server shows it: English when the file gives it (a plain text as it is)."""
    return text.get("en", text.get("de", "")) if isinstance(text, dict) else text


def game_file(name: str) -> dict:
    return tomllib.loads((ROOT / "planner" / "games" / f"{name}.toml").read_text("utf-8"))


class Site:
    """A game on the shared server: the CLI on its state file, its phones, the ledger's answers."""

    def __init__(self, env: dict, game: dict, day: list[str]):
        self.env, self.game, self.day = env, game, day

    def cli(self, *argv: str) -> dict:
        p = run_cli(self.env, *argv, "--game-id", self.game["game"], *self.day, "--json")
        assert p.returncode == 0, p.stderr
        return json.loads(p.stdout)

    def money(self) -> dict:
        """Every group's cash and the free parking, as the ledger answers (``planner ledger status``)."""
        st = self.cli("ledger", "status")
        return {**{g["group"]: g["cash"] for g in st["groups"]}, "P": st["parking"]}

    def phone(self, browser, number: int, errors: list, failed: list):
        return joined_phone(browser, errors, self.game["groups"][number - 1]["url"], f"/groups/{number}", failed)


def moved(before: dict, after: dict, bank: int = 0, **deltas: int) -> None:
    """``after`` is ``before`` with ``deltas`` (a group's name, or P: the free parking) and nothing else; the
    total moved by ``bank`` (what the bank paid in), so no money was made or lost."""
    want = {k: v + deltas.get(k, 0) for k, v in before.items()}
    assert after == want, (before, after, deltas)
    assert sum(after.values()) - sum(before.values()) == bank


def recorded(p, text: str = "Recorded #") -> None:
    expect(p.locator("#money-message")).to_contain_text(text, timeout=WAIT)


def page_cash(p, cash: int) -> None:
    expect(p.locator("#cash")).to_have_text(f"{cash:,}".replace(",", "'"), timeout=WAIT)


def card_moves(card: dict, group: str, others: list[str]) -> dict:
    """What a drawn card moves, by hand from the game file (``moved``'s arguments; the groups own no houses)."""
    n = card.get("amount", 0)
    return {"bank_pays": {"bank": n, group: n}, "pay_parking": {group: -n, "P": n},
            "each_group_pays": {group: n * len(others), **{g: -n for g in others}},
            "pay_each_group": {group: -n * len(others), **{g: n for g in others}}}.get(card["effect"], {})


# ---- variant B: the SYNTHETIC Nordwestschweiz day ------------------------------------------------------------

# Rot's first Kanzlei card must leave the rest of the script as written: "Politisch beliebt" would pay Rot's
# Pratteln (and be gone when the script plays it), "Verhaftung" would jail Rot at its next stop
SCRIPTED_FIRST = {"free_station", "jail"}


@pytest.fixture(scope="module")
def nws(web_server, nws_feed, nws_date):
    """The game, created again (a new id, so new shuffles) until Rot's first Kanzlei card is not one of
    ``SCRIPTED_FIRST``: the deck's order follows the random game id, and the test must not depend on luck."""
    day = ["--feed", str(nws_feed), "--game", "nordwestschweiz", "--date", nws_date.isoformat()]
    cards = {c["key"]: c for c in game_file("nordwestschweiz")["ledger"]["cards"]}
    keys = tuple(k for k, c in cards.items() if c["deck"] == "Kanzlei")
    for _ in range(40):  # 2 cards in 10 are refused: 40 refusals in a row is a chance of 1e-28
        p = run_cli(web_server.env, "game", "new", "--name", "Alle Regeln", "--groups", "Rot,Blau,Gelb", *day,
                    "--base-url", web_server.url, "--json")
        assert p.returncode == 0, p.stderr
        game = json.loads(p.stdout)
        if cards[shuffled(game["game"], "Rot", "Kanzlei", 0, keys)[0]]["effect"] not in SCRIPTED_FIRST:
            return Site(web_server.env, game, day)
    raise AssertionError("no game id gave Rot a first Kanzlei card the script can play")


def at(p, station: str, time: str) -> None:
    tell_position(p, station, time)
    expect(p.locator("#position")).to_have_text(f"{station} {time}", timeout=WAIT)
    unfold(p, "money")


def test_variant_b_every_rule_from_the_phone(nws, browser):
    rules = game_file("nordwestschweiz")["ledger"]
    cards = {c["key"]: c for c in rules["cards"]}
    errors: list = []
    failed: list = []
    ctx1, rot = nws.phone(browser, 1, errors, failed)
    ctx2, blau = nws.phone(browser, 2, errors, failed)
    at(rot, "Liestal", "09:46")
    m0 = nws.money()
    assert m0 == {"Rot": 20000, "Blau": 20000, "Gelb": 20000, "P": 0}

    # §16: no free compartment, 2000 into the free parking (the game file's amount)
    tax = next(x for x in rules["taxes"] if x["key"] == "no_free_compartment")
    rot.click("#taxes button[data-tax=no_free_compartment]")
    recorded(rot)
    m1 = nws.money()
    moved(m0, m1, Rot=-tax["amount"], P=tax["amount"])
    page_cash(rot, m1["Rot"])

    # §14: the card Rot's shuffled Kanzlei deck holds first (the game's id shuffles it), its title and effect shown
    keys = tuple(k for k, c in cards.items() if c["deck"] == "Kanzlei")
    first = shuffled(nws.game["game"], "Rot", "Kanzlei", 0, keys)[0]
    card = cards[first]
    rot.click("#decks button[data-deck=Kanzlei]")
    expect(rot.locator("#card-drawn")).to_contain_text(f"Kanzlei {shown(card['title'])}", timeout=WAIT)
    m2 = nws.money()
    moved(m1, m2, **card_moves(card, "Rot", ["Blau", "Gelb"]))
    if card.get("amount") and card["effect"] != "per_building":
        expect(rot.locator("#card-drawn")).to_contain_text(f"{card['amount']:,}".replace(",", "'"))

    # §18.1: standing at Liestal after its change, two dice: the game's sum empties the free parking to Rot
    expect(rot.locator("#parking-form")).to_be_visible(timeout=WAIT)
    expect(rot.locator("#parking-rule")).to_contain_text(f"a sum of {rules['parking_empty_sum']}")
    a = min(rules["parking_empty_sum"] - 1, 6)
    rot.select_option("#parking-die1", str(a))
    rot.select_option("#parking-die2", str(rules["parking_empty_sum"] - a))
    rot.click("#parking-form button")
    recorded(rot, "P leer")
    m3 = nws.money()
    moved(m2, m3, Rot=m2["P"], P=-m2["P"])
    expect(rot.locator("#parking-form")).to_be_hidden(timeout=WAIT)  # once per change

    # §7.2: Rot and Blau, off the same train at Pratteln, buy it in the same minute; each rolls on its own phone
    price = game_file("nordwestschweiz")["prices"]["station"]  # a railway station not in the listed ones
    for g in ("Rot", "Blau"):
        nws.cli("group", "position", "--group", g, "--at", "Pratteln", "--time", "10:20")
    for p in (rot, blau):
        p.fill("#time", "10:21")
        unfold(p, "money")
        p.fill("#buy-name", "Pratteln")
        p.click("#buy-form button")
        recorded(p, "K 10.21 Pratteln")
    for p in (rot, blau):
        p.fill("#time", "10:25")
        expect(p.locator("#diceoffs li")).to_contain_text("Dice-off for Pratteln", timeout=WAIT)
    rot.locator("#diceoffs select").nth(0).select_option("6")
    rot.locator("#diceoffs select").nth(1).select_option("5")
    rot.click("#diceoffs button")
    recorded(rot, "rolled 11 in the dice-off for Pratteln")
    blau.locator("#diceoffs select").nth(0).select_option("1")
    blau.locator("#diceoffs select").nth(1).select_option("2")
    blau.click("#diceoffs button")
    recorded(blau, "Rot Pratteln Würfeln gewonnen")  # the last roll settles it
    holding = next(s for s in nws.cli("ledger", "status", "--group", "Rot")["stations"] if s["name"] == "Pratteln")
    assert holding["price"] == price
    # the higher roll, Rot, buys it for the price; Blau, who lost, pays nothing (whoever held it first is paid back)
    moved(m3, nws.money(), bank=-price, Rot=-price)
    m5 = nws.money()
    expect(rot.locator("#diceoff-box")).to_be_hidden(timeout=WAIT)

    # §7.3: Rot offers Pratteln to Blau for 2500; Blau's phone accepts it
    rot.select_option("#sell-station", "Pratteln")
    rot.select_option("#sell-to", "Blau")
    rot.fill("#sell-amount", "2500")
    rot.click("#sell-form button")
    recorded(rot)
    expect(rot.locator("#sale-offers li.sale-own")).to_contain_text("Pratteln to group Blau", timeout=WAIT)
    assert page_width(rot) <= 390  # the forms fit the phone
    expect(blau.locator("#sale-offers li.sale-offer")).to_contain_text("offers you Pratteln", timeout=WAIT)
    blau.click("#sale-offers li.sale-offer button")
    expect(blau.locator("#sale-offers li")).to_have_count(0, timeout=WAIT)  # accepted: the offer is gone
    m6 = nws.money()
    moved(m5, m6, Rot=2500, Blau=-2500)
    assert any(s["name"] == "Pratteln" for s in nws.cli("ledger", "status", "--group", "Blau")["stations"])
    page_cash(blau, m6["Blau"])

    # §17 without a live feed: Blau's train arrived 7 minutes late at Liestal: jail there for the game's minutes
    jail = game_file("nordwestschweiz")["jail"]
    at(blau, "Liestal", "11:02")
    expect(blau.locator("#late-form")).to_be_visible(timeout=WAIT)
    blau.fill("#late-minutes", "7")
    blau.click("#late-form button")
    until = f"11:{2 + jail['minutes']:02d}"
    expect(blau.locator("#jail-text")).to_contain_text(f"In jail at Liestal until {until}", timeout=WAIT)
    expect(blau.locator("#jail-pay-ledger")).to_be_hidden()  # variant B: no payment out of jail
    moved(m6, nws.money())
    # a kept card ends it: Blau draws its Chance deck on the phone (§15) until it holds "Sofort aus dem Gefängnis",
    # each card the one its shuffled pile holds next, each moving the money its effect says
    chance = tuple(k for k, c in cards.items() if c["deck"] == "Chance")
    order = shuffled(nws.game["game"], "Blau", "Chance", 0, chance)
    for i, key in enumerate(order[: order.index("chance-gefaengnis") + 1]):
        before = nws.money()
        blau.fill("#time", f"11:{5 + i:02d}")  # one card a minute: a second tap in a minute is the same draw
        blau.click("#decks button[data-deck=Chance]")
        expect(blau.locator("#card-drawn")).to_contain_text(f"Chance {shown(cards[key]['title'])}", timeout=WAIT)
        expect(blau.locator("#decks button[data-deck=Chance]")).to_be_enabled(timeout=WAIT)
        moved(before, nws.money(), **card_moves(cards[key], "Blau", ["Rot", "Gelb"]))
    blau.fill("#time", "11:20")
    play = blau.locator("#kept-cards li", has_text="Straight out of jail").locator("button")
    expect(play).to_be_enabled(timeout=WAIT)
    m7 = nws.money()
    play.click()
    recorded(blau)
    expect(blau.locator("#jail-text")).to_have_text("", timeout=WAIT)
    moved(m7, nws.money())
    assert not [s for s in nws.cli("ledger", "status", "--group", "Blau")["kept_cards"] if s == "chance-gefaengnis"]

    # Rot draws its Kanzlei deck on until it holds "Politisch beliebt" (a station for nothing) and "Freiheit vor dem
    # Würfelziel" (a roll made a 6), then plays both from the page
    order = shuffled(nws.game["game"], "Rot", "Kanzlei", 0, keys)
    for i, key in enumerate(order[1: max(order.index("kanzlei-politisch-beliebt"), order.index("kanzlei-freiheit"))
                                  + 1]):
        before = nws.money()
        rot.fill("#time", f"11:{30 + i:02d}")  # one card a minute
        rot.click("#decks button[data-deck=Kanzlei]")
        expect(rot.locator("#card-drawn")).to_contain_text(f"Kanzlei {shown(cards[key]['title'])}", timeout=WAIT)
        expect(rot.locator("#decks button[data-deck=Kanzlei]")).to_be_enabled(timeout=WAIT)
        moved(before, nws.money(), **card_moves(cards[key], "Rot", ["Blau", "Gelb"]))
    rot.fill("#time", "11:40")
    free = rot.locator("#kept-cards li", has_text="Politically popular")
    free.locator("input").fill("Sissach")  # a listed station: 4000, paid by the card
    before = nws.money()
    free.locator("button").click()
    recorded(rot, "Sissach")
    moved(before, nws.money())
    assert any(s["name"] == "Sissach" for s in nws.cli("ledger", "status", "--group", "Rot")["stations"])
    six = rot.locator("#kept-cards li", has_text="Freedom before the dice target")
    six.locator("select").nth(0).select_option("2")
    six.locator("select").nth(1).select_option("3")
    six.locator("button").click()
    recorded(rot, "made a 6 by Freedom before the dice target")
    expect(rot.locator("#free-until")).to_have_text("12:40", timeout=WAIT)  # the white die a 6: an hour free
    for title in ("Politically popular", "Freedom before the dice target"):  # played: no longer kept
        expect(rot.locator("#kept-cards li", has_text=title)).to_have_count(0, timeout=WAIT)

    # variant B sets no §13 deadline: the page asks no sending time
    expect(rot.locator("#sent-box")).to_be_hidden()
    assert page_width(rot) <= 390 and page_width(blau) <= 390
    assert errors == [] and failed == []
    ctx1.close()
    ctx2.close()


# ---- variant A: the Zug day, where it differs ---------------------------------------------------------------

@pytest.fixture(scope="module")
def zug(web_server):
    game = web_game(web_server.env, "Rot,Blau", name="Regeln A", base=web_server.url)
    return Site(web_server.env, game, DAY[:])


def test_variant_a_late_message_and_paying_out_of_jail(zug, browser):
    rules = game_file("sbb-monopoly")["ledger"]
    errors: list = []
    failed: list = []
    ctx, rot = zug.phone(browser, 1, errors, failed)
    zug.cli("group", "position", "--group", "Rot", "--at", "Zug", "--time", "09:05")
    buy = zug.cli("ledger", "buy", "--group", "Rot", "--station", "Zug", "--time", "09:10")
    m0 = zug.money()
    # §13: the purchase's message, sent at 09:25 (15 minutes after it: more than the game's 10)
    rot.fill("#time", "09:30")
    unfold(rot, "money")
    item = rot.locator("#unsent li", has_text=buy["message"])
    expect(item).to_be_visible(timeout=WAIT)
    expect(rot.locator("#sent-rule")).to_contain_text(f"more than {rules['late_minutes']} minutes")
    item.locator("input").fill("09:25")
    item.locator("button").click()
    recorded(rot, f"Message #{buy['seq']} sent at 09:25")
    penalty = buy["amount"] * rules["late_penalty_percent"] // 100
    assert penalty > 0
    moved(m0, zug.money(), Rot=-penalty, P=penalty)
    expect(rot.locator("#unsent li", has_text=buy["message"])).to_have_count(0, timeout=WAIT)

    # §17: the train arrived 6 minutes late at Zug: jail; variant A pays out of it into the free parking
    rot.fill("#time", "10:00")
    unfold(rot, "money")
    expect(rot.locator("#late-form")).to_be_visible(timeout=WAIT)
    rot.fill("#late-minutes", "6")
    rot.click("#late-form button")
    # (the position goes through the server's routing process: its first request of the day loads the day there)
    expect(rot.locator("#jail-text")).to_contain_text("In jail at Zug", timeout=6 * WAIT)
    pay = rot.locator("#jail-pay-ledger")
    expect(pay).to_have_text(f"Pay {rules['parking_payments']['jail']} into the free parking", timeout=WAIT)
    m1 = zug.money()
    jail_fee = rules["parking_payments"]["jail"]
    pay.click()
    recorded(rot, f"RotP {jail_fee}")
    moved(m1, zug.money(), Rot=-jail_fee, P=jail_fee)
    expect(rot.locator("#jail-text")).to_have_text("", timeout=WAIT)
    assert page_width(rot) <= 390
    assert errors == [] and failed == []
    ctx.close()
