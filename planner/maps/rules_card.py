"""The handout's rules card (one A4 portrait page a player keeps): times, dice table, toll lines and tunnels
with prices and fees, the full-hour rule and, where the game has it, the 29-minute rule.

Everything on it comes from the game file (variants are data); :func:`card` gives the text as plain data,
:func:`rules_page` draws it. The only timetable fact used is which dice targets this day's timetable lacks
(marked, so that organisers see it before printing).
"""

from __future__ import annotations

import functools
import textwrap
from dataclasses import dataclass, field

from matplotlib.figure import Figure

from planner.gamefile.game import Game
from planner.gamefile.rule_texts import free_rule, window_rule
from planner.ledger.money_rules import ledger_rules
from planner.maps.layers import category_label, station_points
from planner.timetable.model import Timetable
from planner.timetable.stations import exact_station
from planner.util.i18n import _, format_amount, format_long_date, ngettext
from planner.util.timefmt import fmt_clock

A4_PORTRAIT = (8.27, 11.69)
_WRAP = 108  # characters per line at 8.5 pt on the page's width
NOT_IN_TIMETABLE = "†"


@dataclass
class CardSection:
    """A heading, paragraphs (wrapped when drawn) and table rows (cells, drawn in columns)."""

    title: str
    paragraphs: list[str] = field(default_factory=list)
    header: tuple[str, ...] = ()
    rows: list[tuple[str, ...]] = field(default_factory=list)


def _money(v: int) -> str:
    return format_amount(int(v))



def _numbers(nums: list[int]) -> str:
    """``[61, 62, ..., 66]`` -> ``"61–66"``; ``[6]`` -> ``"6"``; gaps as commas."""
    nums = sorted(nums)
    if not nums:
        return ""
    runs, start, prev = [], nums[0], nums[0]
    for n in [*nums[1:], None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        runs.append(str(start) if start == prev else f"{start}–{prev}")
        if n is not None:
            start = prev = n
    return ", ".join(runs)


def _white_six(game: Game) -> bool:
    """Two dice, and every free number is a 6 on the white (tens) die."""
    return game.dice.count == 2 and bool(game.dice.free_numbers) and all(n // 10 == 6 for n in game.dice.free_numbers)


def _free_label(game: Game) -> str:
    """``"6"``, or ``"61–66 (white 6)"``."""
    nums = _numbers(sorted(game.dice.free_numbers))
    return _("{numbers} (white 6)").format(numbers=nums) if _white_six(game) else nums


def _dice_text(game: Game) -> list[str]:
    one = game.dice.count == 1
    at = {"start": fmt_clock(game.clock.dice_from), "rules": fmt_clock(game.clock.dice_forced_from)}
    if game.clock.dice_forced_from is not None:
        start = (_("The dice rules apply from {rules}. Roll one die for the first time at {start}.") if one else
                 _("The dice rules apply from {rules}. Roll two dice (white = tens, coloured = ones) for the first "
                   "time at {start}.")).format(**at)
    else:
        start = (_("Roll one die from {start}.") if one else
                 _("Roll two dice (white = tens, coloured = ones) from {start}.")).format(**at)
    extra = game.dice.admissible_extra_minutes
    several = any(len(e.stations) > 1 for e in game.dice.targets)
    if extra and not several:
        way = ngettext("A number sends the group at once, by the fastest way or any way at most {n} minute longer "
                       "(timetable), to its target.",
                       "A number sends the group at once, by the fastest way or any way at most {n} minutes longer "
                       "(timetable), to its target.", extra).format(n=extra)
    elif not several:
        way = _("A number sends the group at once, by the fastest way (timetable), to its target.")
    elif extra:
        way = ngettext("A number sends the group at once, by the fastest way or any way at most {n} minute longer "
                       "(timetable), to its target; where a number has several, to the one reached earliest.",
                       "A number sends the group at once, by the fastest way or any way at most {n} minutes longer "
                       "(timetable), to its target; where a number has several, to the one reached earliest.",
                       extra).format(n=extra)
    else:
        way = _("A number sends the group at once, by the fastest way (timetable), to its target; where a number has "
                "several, to the one reached earliest.")
    out = [f"{start} {way}"]
    if game.dice.skip_targeted:
        out.append(_("A target the group already had to head for is skipped (the next fastest one counts); when all "
                     "targets of a number were targeted, the number counts as {numbers}.").format(
            numbers=_numbers(sorted(game.dice.free_numbers))))
    if game.dice.reroll_before_minutes:
        out.append(ngettext("Roll again {n} minute before reaching the target.",
                            "Roll again {n} minutes before reaching the target.",
                            game.dice.reroll_before_minutes).format(n=game.dice.reroll_before_minutes))
    if game.dice.free_numbers:
        out.append(free_rule(game, _free_label(game)).text)
    return out


def _hour_text(game: Game) -> str:
    minutes = sorted(game.bonus.minutes) or [0]
    at = ":" + "/:".join(f"{m:02d}" for m in minutes)
    args = {"base": _money(game.bonus.base_fee), "bonus": _money(game.bonus.bonus_fee), "at": at}
    if game.bonus.effective and game.bonus.event == "seated":
        return _("Every full hour the group receives {base}; {bonus} instead when the train the group sits in arrives "
                 "at or departs from a station at {at} of that hour, by the timetable or in fact.").format(**args)
    if game.bonus.effective:
        return _("Every full hour the group receives {base}; {bonus} instead when the group has a departure or an "
                 "arrival at {at} of that hour, by the timetable or in fact.").format(**args)
    if game.bonus.event == "seated":
        return _("Every full hour the group receives {base}; {bonus} instead when the train the group sits in arrives "
                 "at or departs from a station at {at} of that hour (timetable).").format(**args)
    return _("Every full hour the group receives {base}; {bonus} instead when the group has a departure or an "
             "arrival at {at} of that hour (timetable).").format(**args)


def card(tt: Timetable, game: Game) -> list[CardSection]:
    """The rules card as sections of text and table rows."""
    at = {"start": fmt_clock(game.clock.start), "end": fmt_clock(game.clock.end), "date": format_long_date(tt.date),
          "dice": fmt_clock(game.clock.dice_from), "rules": fmt_clock(game.clock.dice_forced_from)}
    if game.clock.dice_forced_from is not None:
        times = [_("Game {start}–{end} on {date}; dice rules from {rules}, first roll at {dice}; the game ends at {end} "
                   "wherever the group is.").format(**at)]
    else:
        times = [_("Game {start}–{end} on {date}; dice from {dice}; the game ends at {end} wherever the group "
                   "is.").format(**at)]
    sections = [CardSection(_("Times"), times)]

    missing = False
    rows = []
    for entry in sorted(game.dice.targets, key=lambda e: e.number):
        if entry.toll_line or entry.tunnel:
            what = (_("toll line {name} (travel through it)") if entry.toll_line else
                    _("tunnel {name} (travel through it)")).format(name=entry.toll_line or entry.tunnel)
        else:
            names = []
            for n in entry.stations:
                absent = exact_station(tt, n) is None
                missing |= absent
                names.append(n + (NOT_IN_TIMETABLE if absent else ""))
            what = " · ".join(names)
        rows.append((str(entry.number), what))
    dice = CardSection(_("Dice"), _dice_text(game), (_("No."), _("Target")), rows)
    if game.dice.free_numbers:
        n = game.dice.free_minutes
        free = (ngettext("{n} minute free movement (white 6)", "{n} minutes free movement (white 6)", n)
                if _white_six(game) else ngettext("{n} minute free movement", "{n} minutes free movement", n))
        dice.rows.append((_numbers(sorted(game.dice.free_numbers)), free.format(n=n)))
    if missing:
        dice.paragraphs.append(_("{mark} not in this day's timetable.").format(mark=NOT_IN_TIMETABLE))
    sections.append(dice)

    owners = " / ".join(str(k) for k in range(1, len(game.toll_fees) + 1))
    if game.toll_lines:
        fee = " / ".join(_money(f) for f in game.toll_fees)
        sections.append(CardSection(
            _("Toll lines"), [_("Crossing one (travelling between its two stations, stops or not) costs the owner's "
                                "fee: {fees} when the owner has {owners} toll line(s).").format(fees=fee, owners=owners)],
            (_("Toll line"), _("Between"), _("Price to buy")),
            [(c.name, " – ".join(c.between), _money(c.price)) for c in game.toll_lines]))
    if game.tunnels:
        factors = [ngettext("{factor} (owner has {n} tunnel)", "{factor} (owner has {n} tunnels)", k).format(
            factor=format_amount(m), n=k) for k, m in enumerate(game.tunnel_multipliers, 1)]
        mult = functools.reduce(lambda a, b: _("{first} or {second}").format(first=a, second=b), factors)
        sections.append(CardSection(
            _("Tunnels"), [_("Travelling through one: roll two dice and pay the owner their sum times {factors}.").format(
                factors=mult)],
            (_("Tunnel"), _("Between"), _("Price to buy")),
            [(c.name, " – ".join(c.between), _money(c.price)) for c in game.tunnels]))
    sections.append(_stations_section(tt, game))
    sections.append(CardSection(_("Full hour"), [_hour_text(game)]))
    window = window_rule(game)
    if window is not None and game.window is not None:
        sections.append(CardSection(game.window.label, [window.text]))
    return sections


def _level_name(level: int, hotel: int) -> str:
    if level == 0:
        return _("unbuilt")
    if level == hotel:
        return _("hotel")
    return ngettext("{n} house", "{n} houses", level).format(n=level)


def _stations_section(tt: Timetable, game: Game) -> CardSection:
    """§8-§9: building groups, what a house and a hotel cost, and the fee by price and building level, for every
    price a station of this day has (the fees from the game file's multipliers, as the ledger charges them)."""
    rules = ledger_rules(game)
    hotel, size = rules.hotel_level, rules.group_size
    paragraphs = [
        ngettext("A group that owns {n} station of one initial letter (a building group) may build on it at any "
                 "time, from anywhere; a further station of that letter starts a new building group.",
                 "A group that owns {n} stations of one initial letter (a building group) may build on them at any "
                 "time, from anywhere; a further {n} of that letter form a new building group.", size).format(n=size),
        ngettext("A house costs the station's price, a hotel {n} house; each complete building group is worth "
                 "{bonus} at the end.", "A house costs the station's price, a hotel {n} houses; each complete "
                 "building group is worth {bonus} at the end.", hotel).format(n=hotel, bonus=_money(rules.group_bonus))]
    if not rules.buy_while_mortgaged:
        paragraphs.append(_("While one of its stations is mortgaged, a group may neither buy nor build."))
    paragraphs.append(_("At a station another group owns, the group pays the fee by what stands on it:"))
    kinds: dict[int, set[str]] = {}
    for p in station_points(tt, game):
        kinds.setdefault(int(p.price), set()).add(category_label(p.category))
    rows = [(_money(price), ", ".join(sorted(kinds[price])),
             *(_money(rules.station_fee(price, level)) for level in range(hotel + 1)))
            for price in sorted(kinds, reverse=True)]
    header = (_("Price"), _("Stations"), *(_level_name(level, hotel) for level in range(hotel + 1)))
    return CardSection(_("Stations: building and fees"), paragraphs, header, rows)


def rules_page(tt: Timetable, game: Game, source_credit: str, page: int) -> Figure:
    """The rules card as one A4 portrait page."""
    fig = Figure(figsize=A4_PORTRAIT)
    fig.text(0.06, 0.965, _("{title} – rules card").format(title=game.title), fontsize=15, fontweight="bold", va="top")
    fig.text(0.06, 0.937, _("Keep this page with you: what the dice, toll lines, tunnels and the clock ask of the "
                            "group."),
             fontsize=8.5, color="#444444", va="top")
    y = 0.905
    line = 0.0135
    for sec in card(tt, game):
        fig.text(0.06, y, sec.title, fontsize=10.5, fontweight="bold", color="#1f3a5f", va="top")
        y -= 0.02
        for par in sec.paragraphs:
            for ln in textwrap.wrap(par, _WRAP):
                fig.text(0.07, y, ln, fontsize=8.5, va="top")
                y -= line
        if sec.rows:
            y -= 0.004
            y = _table(fig, sec, y, line)
        y -= 0.012
    fig.text(0.94, 0.025, _("{source} · page {page}").format(source=source_credit, page=page), ha="right", fontsize=7.5, color="#444444")
    return fig


def _table(fig: Figure, sec: CardSection, y: float, line: float) -> float:
    """Rows in columns; a long dice table (variant B: 30 numbers) in two blocks side by side."""
    if len(sec.header) > 3:
        return _wide_table(fig, sec, y, line)
    blocks = 2 if len(sec.rows) > 12 and len(sec.header) == 2 else 1
    per = -(-len(sec.rows) // blocks)
    width = 0.88 / blocks
    cols = {1: (0.0,), 2: (0.0, 0.06), 3: (0.0, 0.30, 0.86)}[len(sec.header)]
    bottom = y
    for b in range(blocks):
        x = 0.07 + b * width
        yy = y
        for k, (c, h) in enumerate(zip(cols, sec.header, strict=True)):
            fig.text(x + (0.86 if k == 2 else c), yy, h, fontsize=8, color="#666666", fontweight="bold", va="top",
                     ha="right" if k == 2 else "left")
        yy -= line
        for row in sec.rows[b * per:(b + 1) * per]:
            for k, (c, cell) in enumerate(zip(cols, row, strict=True)):
                last = k == 2  # the price column, right-aligned
                fig.text(x + (0.86 if last else c), yy, cell, fontsize=8.5, va="top", ha="right" if last else "left",
                         fontweight="bold" if k == 0 else "normal")
            yy -= line
        bottom = min(bottom, yy)
    return bottom


def _wide_table(fig: Figure, sec: CardSection, y: float, line: float) -> float:
    """A table of many columns (the fees by building level): the first two left-aligned, the amounts right-aligned
    in even steps to the right edge."""
    n = len(sec.header)
    right = [0.30 + (0.86 - 0.30) * (k - 1) / (n - 2) for k in range(2, n)]
    for row in (sec.header, *sec.rows):
        head = row is sec.header
        style = {"fontsize": 8 if head else 8.5, "va": "top", "color": "#666666" if head else "black",
                 "fontweight": "bold" if head else "normal"}
        fig.text(0.07, y, row[0], **style)
        fig.text(0.15, y, row[1], **style)
        for x, cell in zip(right, row[2:], strict=True):
            fig.text(0.07 + x, y, cell, ha="right", **style)
        y -= line
    return y
