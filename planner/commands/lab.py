"""The game lab's commands: ``simulate`` (whole simulated game days, the report on the game) and ``advise``
(which stations a group of a real game should buy now). Adapters of :mod:`planner.lab`."""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import urllib.parse
from pathlib import Path

import msgspec
from tqdm import tqdm

from planner import config
from planner.commands.base import Context, emit
from planner.game.prices import category_label
from planner.lab import report
from planner.lab.advise import advise, advise_json
from planner.lab.day import DayConfig
from planner.lab.findings import region_name
from planner.lab.rates import save_rates
from planner.lab.render import render_html
from planner.lab.run import RunSpec, check_executor, keep, run_days
from planner.lab.strategies import assign
from planner.realtime.feed import RealtimeError, RealtimeUnavailable, api_key, fetch_url, is_url
from planner.util.atomic import atomic_write_bytes, atomic_write_text
from planner.util.i18n import N_, _, format_amount
from planner.util.table import format_table


def cmd_simulate(args: argparse.Namespace) -> int:
    """Play ``--days`` simulated days of ``--groups`` groups and print (or write) the report."""
    ctx = Context(args)
    assign(args.strategy, args.groups)  # an unknown strategy or executor fails before the day is loaded
    check_executor(args.executor, args.scheduler)
    cfg = DayConfig(args.groups, args.strategy, args.seed, trace=bool(args.trace))
    spec = RunSpec(ctx.feed, ctx.game_spec, ctx.date.isoformat(), args.min_transfer, cfg, bool(args.no_zugzwang),
                   _realtime_file(args)).identified()
    day = spec.load(ctx.progress)  # the very day every worker loads from the spec
    board = keep(spec, day)
    results = run_days(spec, args.days, executor=args.executor, workers=args.workers, scheduler=args.scheduler,
                       progress=_bar(ctx, args.days))
    rep = report.build(results, board, cfg)
    if args.realtime and is_url(args.realtime):  # where the data came from, not the cache file it was saved to
        rep["meta"]["realtime"] = _shown_url(args.realtime)
    if args.trace:
        lines = [json.dumps(line, ensure_ascii=False, sort_keys=True) for r in results for line in r.trace]
        atomic_write_text(Path(args.trace), "".join(line + "\n" for line in lines))
    if args.out:
        atomic_write_text(Path(args.out), render_html(rep, board))
    # what advise expects of this day, once the run's files are written: a run that failed (a full disk) keeps
    # the rates advise had
    kept = save_rates(day, rep, replace=bool(args.replace_rates))
    emit(args, rep | {"advise_rates": kept.to_json()}, _text(rep, args) + "\n" + kept.describe())
    return 0


def _realtime_file(args: argparse.Namespace) -> str | None:
    """``--realtime`` as the file every worker of the run reads: a file by its absolute path (a worker may run in
    another folder); a URL fetched once, now, and saved in the cache (workers fetching it each would play on
    feeds of different moments). A URL that does not answer is a one-line error: a report on real-time data
    must be on real-time data."""
    src = getattr(args, "realtime", None)
    if not src:
        return None
    if not is_url(src):
        return os.path.abspath(src)
    try:
        data = fetch_url(src, key=api_key(args.realtime_key_env)).body or b""
    except RealtimeUnavailable as exc:
        raise RealtimeError(_("{error}: nothing simulated (a lab run on real-time data needs the feed)").format(
            error=exc)) from None
    path = config.cache_root() / "realtime" / f"lab-{hashlib.sha256(data).hexdigest()[:16]}.pb"
    atomic_write_bytes(path, data)
    return str(path)


def _shown_url(url: str) -> str:
    """A feed's URL as a report may show it: without user, password, query or fragment (a key may hide there)."""
    u = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit((u.scheme, u.hostname + (f":{u.port}" if u.port else "") if u.hostname else "",
                                    u.path, "", ""))


def _bar(ctx: Context, days: int):
    progress = ctx.progress

    def wrap(it):
        if progress is False:
            return it
        return tqdm(it, total=days, desc="days", unit="day", file=sys.stderr, leave=False,
                    disable=None if progress is None else False)

    return wrap


def _text(rep: dict, args: argparse.Namespace) -> str:
    """The verdict first (what to change, each finding with its evidence), the payback ranking and the start
    regions, then the dice numbers; the rest is in the JSON and the page."""
    m, v = rep["meta"], rep["verdict"]
    lines = [_("{title} {date} (feed {feed}): {days} simulated days, {groups} groups ({strategies}), seed {seed}: "
               "{rolls} rolls, {events} ledger events, money conserved: {conserved}").format(
                 title=m["title"], date=m["date"], feed=m.get("feed_version", ""), days=m["days"], groups=m["groups"],
                 strategies=", ".join(m["strategies"]), seed=m["seed"], rolls=m["rolls"], events=m["ledger_events"],
                 conserved=_("yes") if m["money_conserved"] else _("NO")), report.routing_note(m), ""]
    lines.append(_("The dice table is fair.") if v["fair"] else _("The dice table is not fair."))
    if v["findings"]:
        lines.append(_("What to change:"))
        for i, f in enumerate(v["findings"], 1):
            lines += [f"{i}. {f['evidence']}", "   -> " + f["action"]]
    else:
        lines.append(_("Nothing to change: every finding is within its threshold."))
    lines += ["", _("stations that pay back best (fee income per day if owned, against the price):")]
    rows = [[s["rank"], s["name"], category_label(s["category"]), format_amount(s["price"]), s["stops_per_day"],
             format_amount(s["fee_income_per_day"]),
             s["payback_minutes"] if s["payback_minutes"] is not None else "-"] for s in rep["stations"][:8]]
    lines.append(_table(["#", _("station"), _("class"), _("price"), _("stops/day"), _("fees/day"), _("payback min")],
                        rows))
    c = rep["capital"]
    rows = [[region_name(k), x["n"], format_amount(x["mean"]), f"{x['wins']:.0%}"] for k, x in c["by_region"].items()]
    lines += ["", _("final capital by start region:"),
              _table([_("start region"), _("groups"), _("mean"), _("wins")], rows), _start_text(c), "",
              _("dice numbers (travel minutes to the target: median, p90; share not reached by the end):")]
    rows = [[n, d["rolls"], d["travel"]["median"], d["travel"]["p90"], d["travel"]["unreached"], d["as_free"]]
            for n, d in rep["dice"]["numbers"].items()]
    lines.append(_table([_("no."), _("rolls"), _("median"), _("p90"), _("unreached"), _("as free")], rows))
    lines += ["", _("final capital by strategy: {strategies}").format(strategies="; ".join(
        _("{strategy} {mean} (wins {wins})").format(strategy=k, mean=format_amount(x["mean"]), wins=f"{x['wins']:.0%}")
        for k, x in c["by_strategy"].items()))]
    if args.out:
        lines.append(_("report: {path}").format(path=args.out))
    if args.trace:
        lines.append(_("trace: {path}").format(path=args.trace))
    return "\n".join(lines)


def _start_text(c: dict) -> str:
    if c["start_z"] is None:
        return _("is the start decisive? too few groups per start region to tell")
    return (_("is the start decisive? yes (best vs worst region: z = {z})") if c["start_decisive"] else
            _("is the start decisive? no (best vs worst region: z = {z})")).format(z=c["start_z"])


def _table(head: list[str], rows: list[list]) -> str:
    return format_table([dict(zip(head, r, strict=True)) for r in rows], head, width=120)


def cmd_advise(args: argparse.Namespace) -> int:
    """The stations to buy for ``--group`` in its real game, best first (at ``--time`` as ``next`` reads it)."""
    ctx = Context(args, game_scope=True)
    out = advise_json(advise(ctx.play, str(args.group), ctx.day.status_time(args.time), top=args.top))
    emit(args, out, _advice_text(msgspec.to_builtins(out)))
    return 0


WHERE = {"way": N_("nothing to buy where it is or on its way: owned, too dear, or no fees expected before the end"),
         "free": N_("nothing to buy where it is or on a train it may take now: owned, too dear, or no fees expected "
                    "before the end"),
         "here": N_("nothing to buy where it is: owned, too dear, or no fees expected before the end"),
         "unknown": N_("where the group is is not known: report its position first ('planner group position')")}


def _advice_text(out: dict) -> str:
    """``advise``'s text: the group, the basis of the rates, the stations with a heading that says whether they
    pay back their price; one line when the game is over."""
    if out["over"]:
        return _("group {group} at {time}: the game is over").format(group=out["group"], time=out["time"])
    lines = [_("group {group} at {time}: cash {cash}; fees expected from {basis}").format(
        group=out["group"], time=out["time"], cash=format_amount(out["cash"]), basis=out["rates"]["summary"])]
    n, k = len(out["stations"]), out["paying_back"]
    if not n:
        lines.append(_(WHERE[out["scope"]]))
        return "\n".join(lines)
    if k == n:
        lines.append(_("worth buying now (each pays back its price before the end):"))
    elif k:
        lines.append(_("best buys now ({k} of {n} pay back their price before the end):").format(k=k, n=n))
    else:
        lines.append(_("best buys now, none pays back its price before the end:"))
    rows = [[i, s["name"], s["price"], s["expected_income"], s["net"], s["why"]]
            for i, s in enumerate(out["stations"], 1)]
    lines.append(_table(["#", _("station"), _("price"), _("expected income"), _("net"), _("why")], rows))
    return "\n".join(lines)
