"""``planner ledger ...``: purchases, building, mortgages, fees, income, free parking, taxes, cards, sales, dice-offs,
voids, messages sent; status, what applies now, end, feed (adapters of :mod:`planner.service.change.ledger_events`: the phone
sends the same requests)."""

from __future__ import annotations

import argparse

import msgspec

from planner.commands.base import Context, emit
from planner.errors import InputError
from planner.ledger.kinds import told
from planner.ledger.model import BANK, PARKING
from planner.service.change.ledger_events import (
    LedgerRequest,
    end,
    feed,
    mark_sent,
    record_event,
    status,
    void,
)
from planner.service.questions.ledger_now import ledger_now, organiser_ledger
from planner.service.read.ledger_views import recorded_event
from planner.util.i18n import _, format_amount
from planner.util.table import format_table
from planner.util.timefmt import parse_clock


def _dice(text: str | None, what: str) -> tuple[int, ...]:
    if not text:
        return ()
    try:
        dice = tuple(int(x) for x in text.replace("+", ",").split(","))
    except ValueError:
        raise InputError(_("{option} {value!r}: expected two dice like 3,4").format(option=what, value=text)) from None
    if len(dice) != 2 or not all(1 <= d <= 6 for d in dice):
        raise InputError(_("{option} {value!r}: two dice, each 1-6").format(option=what, value=text))
    return dice


def _houses(text: str) -> tuple[tuple[str, str], ...]:
    out = []
    for item in (x.strip() for x in text.split(";")):
        if not item:
            continue
        name, _sep, n = item.rpartition("=")
        if not name.strip() or not n.strip():
            raise InputError(_("--houses {value!r}: expected STATION=N or STATION=hotel").format(value=item))
        out.append((name.strip(), n.strip()))
    return tuple(out)


def _rolls(items: list[str]) -> tuple[tuple[str, int], ...]:
    out = []
    for r in items:
        g, _sep, v = r.partition("=")
        if not g.strip() or not v.strip().isdigit() or not 2 <= int(v) <= 12:
            raise InputError(_("--roll {value!r}: expected GROUP=SUM, the sum of two dice (2-12)").format(value=r))
        out.append((g.strip(), int(v)))
    return tuple(out)


def _kind(args: argparse.Namespace) -> str:
    kind = told(args.event, empty=bool(getattr(args, "empty", False)))
    if kind == "parking_empty":
        if not args.dice:
            raise InputError(_("--empty needs --dice (the two dice rolled)"))
        return kind
    if kind == "parking" and not args.reason:
        raise InputError(_("give --reason (a payment) or --empty --dice D,D"))
    if kind == "diceoff" and not (args.roll or args.group and args.dice):
        raise InputError(_("diceoff: give --group and its --dice, or every group's --roll GROUP=SUM"))
    return kind


def cmd_event(args: argparse.Namespace) -> int:
    """Record one money event (``args.event`` says which; amounts are computed, never typed, but a sale's)."""
    ctx = Context(args, game_scope=True)
    t = ctx.clock(args.time)
    if args.event == "void":
        rec = void(ctx.play, args.event_seq, args.reason, t)
        emit(args, recorded_event(rec), rec.message)
        return 0
    if args.event == "sent":
        ev = mark_sent(ctx.play, args.group, args.event_seq, t)
        emit(args, ev, _("#{seq} {message}: sent at {time}").format(seq=ev.seq, message=ev.message, time=ev.sent))
        return 0
    reported = parse_clock(args.reported) if args.reported else ctx.day.now()
    kind = _kind(args)
    rolls = _rolls(getattr(args, "roll", None) or [])
    req = LedgerRequest(
        group=getattr(args, "group", None) or (rolls[0][0] if rolls else ""),
        kind=kind, time=t, reported=reported, station=getattr(args, "station", None),
        toll_line=getattr(args, "toll_line", None), tunnel=getattr(args, "tunnel", None),
        dice=_dice(getattr(args, "dice", None), "--dice"), houses=_houses(getattr(args, "houses", "") or ""),
        bonus=bool(getattr(args, "bonus", False)), trip=getattr(args, "trip", None),
        reason=getattr(args, "reason", None) or "", card=getattr(args, "card", None) or "", rolls=rolls,
        event_id=getattr(args, "event_id", None), deck=getattr(args, "deck", None) or "",
        to=getattr(args, "to", None) or "", amount=getattr(args, "amount", None),
        offer=getattr(args, "offer", None) or 0, now=ctx.day.now())
    res = record_event(ctx.play, req)
    ans = res.answer()
    said = _("{message} (pending dice-off)") if ans.pending else "{message}"
    text = (f"{ans.title}: " if ans.title else "") + said.format(message=ans.message)
    text += "".join(f"\n  {_party(a)} -> {_party(b)}: {format_amount(n)}" for a, b, n in ans.transfers)
    if ans.undoes:
        text += "\n  " + _("undoes {events} (decided later, recorded earlier)").format(
            events=", ".join(f"#{s}" for s in ans.undoes))
    emit(args, ans, text)
    return 0


def _party(name: str) -> str:
    """Who money moves from or to: a group's name, the bank or the free parking in the reader's words."""
    return {BANK: _("bank"), PARKING: _("free parking")}.get(name, name)


def _out(rows: list[dict]) -> list[dict]:
    """The table's rows with ``out`` (§6) said as players say it: "out" or nothing."""
    return [{**r, "out": _("out") if r.get("out") else ""} for r in rows]


def cmd_status(args: argparse.Namespace) -> int:
    """Cash, capital, holdings."""
    ctx = Context(args, game_scope=True)
    answer = status(ctx.play, args.group)
    out = msgspec.to_builtins(answer)
    groups = [out] if args.group else out["groups"]
    table = format_table(_out([{**g, "stations": ", ".join(f"{s['name']}{' ' + s['code'] if s['code'] else ''}"
                                                      f"{' (V)' if s['mortgaged'] else ''}" for s in g["stations"]),
                           "lines": ", ".join(h["name"] for h in g["toll_lines"] + g["tunnels"]),
                           "cash": format_amount(g["cash"]), "capital": format_amount(g["capital"])}
                          for g in groups]),
                         ["group", "cash", "capital", "stations", "lines", "out"],
                         [_("group"), _("cash"), _("capital"), _("stations"), _("lines"), _("out")])
    emit(args, answer, table + "\n" + _("free parking: {amount}").format(amount=format_amount(out["parking"])))
    return 0


def cmd_now(args: argparse.Namespace) -> int:
    """What applies to a group now (or, without a group, what the organiser follows)."""
    ctx = Context(args, game_scope=True)
    if not args.group:
        answer = organiser_ledger(ctx.play)
        org = msgspec.to_builtins(answer)
        lines = [(_("sale #{offer}: {station} {seller} -> {buyer} {amount} (accepted {time})") if s["accepted"]
                  else _("sale #{offer}: {station} {seller} -> {buyer} {amount} (open)")).format(
            offer=s["offer"], station=s["station"], seller=s["seller"], buyer=s["buyer"], amount=format_amount(s["amount"]),
            time=s["accepted"]) for s in org["sales"]]
        lines += [_("dice-off {station} ({time}): {groups}").format(station=d["name"], time=d["time"],
                                                                    groups=", ".join(d["groups"]))
                  for d in org["diceoffs"]]
        lines += [_("not sent: #{seq} {group}: {message}").format(seq=u["seq"], group=u["group"],
                                                                  message=u["message"]) for u in org["unsent"]]
        emit(args, answer, "\n".join(lines) or _("no sales, dice-offs or messages not sent"))
        return 0
    answer = ledger_now(ctx.play, args.group, ctx.day.status_time(args.time))
    emit(args, answer, "\n".join(_now_lines(msgspec.to_builtins(answer))))
    return 0


def _now_lines(now: dict) -> list[str]:
    lines = [_("{group} at {time}: out since {since}").format(group=now["group"], time=now["time"],
                                                               since=now["out_since"]) if now["out"]
             else _("{group} at {time}").format(group=now["group"], time=now["time"])]
    if now.get("obligation"):
        lines.append(now["obligation"]["text"]["text"])
    for f in now["fees_due"]:
        amount = format_amount(f["amount"]) if f["amount"] is not None else _("{least}-{most} (two dice)").format(
            least=format_amount(f["min"]), most=format_amount(f["max"]))
        lines.append(_("fee due: {name} ({time}) to {owner}: {amount}").format(
            name=f["name"], time=f["time"], owner=f["owner"], amount=amount))
    lines += [_("may buy: {name} ({price})").format(name=o["name"], price=format_amount(o["price"]))
              for o in now["buy_offers"]]
    lines += [_("sale #{offer} offered: {station} from {seller} for {amount}").format(
        offer=s["offer"], station=s["station"], seller=s["seller"], amount=format_amount(s["amount"]))
        for s in now["offers"]]
    lines += [_("dice-off {station}: rolled {rolled}, rolling {groups}").format(
        station=d["name"], rolled=d["rolled"], groups=", ".join(d["rolling"])) for d in now["diceoffs"]]
    lines += [_("kept card: {key} ({title})").format(key=c["key"], title=c["title"]) for c in now["cards"]]
    p = now["parking"]
    if p["possible"]:
        lines.append(_("free parking {total}: roll two dice at {station} (sum {sum})").format(
            total=format_amount(p["total"]), station=p["at"], sum=p["sum"]))
    if now["jail"]:
        lines.append(now["jail"]["text"]["text"])
    for i in now.get("income", []):
        lines.append(_("income due for {hour}: {amount} (bonus: {train})").format(**i) if i["bonus"]
                     else _("income due for {hour}: {amount}").format(**i))
    if now.get("next_change"):
        lines.append(_("changes next at {time}").format(time=now["next_change"]))
    return lines


def cmd_end(args: argparse.Namespace) -> int:
    """Ranking."""
    answer = end(Context(args, game_scope=True).play)
    out = msgspec.to_builtins(answer)
    table = format_table(_out(out["ranking"]), ["rank", "group", "cash", "holdings_value", "group_bonus", "capital", "out"],
                         [_("rank"), _("group"), _("cash"), _("holdings value"), _("group bonus"), _("capital"),
                          _("out")])
    emit(args, answer, table + "\n" + _("winner: {group}").format(group=out["winner"] or "-"))
    return 0


def cmd_feed(args: argparse.Namespace) -> int:
    """Events to tell a group of."""
    answer = feed(Context(args, game_scope=True).play, args.group, args.since)
    out = msgspec.to_builtins(answer)
    emit(args, answer, "\n".join((_("#{seq} {message} (undone)") if e["undone"] else "#{seq} {message}").format(
        seq=e["seq"], message=e["message"]) for e in out["events"]) or _("nothing new"))
    return 0
