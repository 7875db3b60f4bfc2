"""The §13/§19 message texts of ledger events, in the game file's codes and the game's language (pure): every
group is sent the same message, whatever language each phone shows."""

from __future__ import annotations

from planner.ledger.money_rules import LedgerRules


def sms_time(t: int) -> str:
    """§19 time code: ``9.10`` for 09:10 (hour without leading zero, a dot, two-digit minutes)."""
    m = t // 60
    return f"{m // 60}.{m % 60:02d}"


def level_code(rules: LedgerRules, level: int) -> str:
    """§19 building code: ``H``..``HHHH`` for 1-4 houses, ``Hotel`` for the top level."""
    return "Hotel" if level >= rules.hotel_level else "H" * level


def build_items(rules: LedgerRules, levels: tuple[tuple[str, int], ...]) -> str:
    """``HH Aarau H Attiswil HHH Aesch``: the new totals per station, in the order built (§19)."""
    return " ".join(f"{level_code(rules, lv)} {name}" for name, lv in levels)


def render(rules: LedgerRules, kind: str, *, group: str, time: int, name: str = "", amount: int | str = 0,
           total: int = 0, items: str = "", title: str = "", other: str = "") -> str:
    """The message of one event from the game file's template for ``kind`` (``other``: the other group of a
    sale)."""
    template = rules.messages[kind].in_language(rules.language)
    return template.format(group=group, time=sms_time(time), name=name, amount=amount, total=total, items=items,
                           title=title, other=other).strip()


def note(rules: LedgerRules, kind: str, **fields: object) -> str:
    """A text every group is told besides an event's own message (the §7.2 note, a correction), from the game
    file's template for ``kind`` in the game's language."""
    return rules.messages[kind].in_language(rules.language).format(**fields)


def late_suffix(rules: LedgerRules, minutes: int, penalty: int, to: str) -> str:
    """§13: the mark on a late message: how late and the penalty it costs (to ``P`` or the owner)."""
    return rules.messages["late"].in_language(rules.language).format(minutes=minutes, penalty=penalty, to=to)
