"""Every command with each of its options, generated from the parser (:func:`planner.cli.build_parser`).

:func:`commands` walks the parser: every command (its words) and every option and positional argument of it. Each
one gets a value from :data:`RECIPES` (by its ``dest``; a command's own value by ``(words, dest)`` first), made for
the game day in hand (:class:`Day`: feed, game, date, two stations, a train, a roll, the game's toll line and
tunnel, files to read). An option without a recipe fails the test that asks for it, naming it: a new option is run
as soon as it has one. :func:`cases` makes a command's runs: all its options at once (``--json``; each answer is
checked against its schema by the suite's encoder), the options that exclude each other (:data:`ALONE`) one run
each, and the required ones alone as text.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from planner.cli import build_parser

Words = tuple[str, ...]


@dataclass
class Day:
    """A game day and what its options' values are made of."""

    feed: str
    game: str
    date: str
    here: str  # a station of the area
    there: str  # another one, reached from ``here``
    trip: str  # a train leaving ``here`` at ``dep``
    dep: str
    roll: str  # a valid roll of the game's dice
    card: str  # a card key of the game file
    deck: str
    toll_line: str
    tunnel: str
    tax: str
    tmp: Path
    files: dict[str, str] = field(default_factory=dict)  # made by the test: batch, legs, owners, links, realtime
    game_id: str = ""
    port: int = 0  # a port in use (serve refuses it in one line: it would serve for ever)
    url: str = ""  # a feed download served on loopback
    state: str = ""  # the state file holding the created game


def _out(suffix: str) -> Callable[[Day, Words], str]:
    return lambda d, w: str(d.tmp / f"{'-'.join(w)}{suffix}")


Recipe = Callable[[Day, Words], str | None] | str | None  # None: a flag (given without a value)

RECIPES: dict[str | tuple[Words, str], Recipe] = {
    "feed": lambda d, w: d.feed, "game": lambda d, w: d.game, "date": lambda d, w: d.date,
    "json": None, "progress": None, "force": None, "no_zugzwang": None, "standalone": None, "tiles": None,
    "no_png": None, "bonus": None, "empty": None, "all": None, "https": None, "replace_rates": None,
    "lang": "de",
    "origin": lambda d, w: d.here, "at": lambda d, w: d.here, "target": lambda d, w: d.there,
    "time": "11:00", "since": "10:50", "trip": lambda d, w: d.trip, "within": "20", "group": "Rot",
    "batch": lambda d, w: d.files["batch"], "check": lambda d, w: d.files["legs"],
    "owners": lambda d, w: d.files["owners"], "links": lambda d, w: d.files["links"],
    "realtime": lambda d, w: d.files["realtime"], "realtime_key_env": "PLANNER_EVERY_OPTION_KEY",
    "game_id": lambda d, w: d.game_id, "min_transfer": "3", "roll": lambda d, w: d.roll, "visited": "",
    "tunnel_dice": "7", "dice": lambda d, w: d.roll, "roll_id": "every-option", "card": lambda d, w: d.card,
    "late": "6", "bands": "20,40", "dpi": "60", "url": lambda d, w: d.url,
    "out": _out(".html"), "trace": _out(".jsonl"), "write": lambda d, w: str(d.tmp / "schemas"),
    "reported": lambda d, w: None, "event_id": "every-option-1", "station": lambda d, w: d.here,
    "toll_line": lambda d, w: d.toll_line, "tunnel": lambda d, w: d.tunnel, "houses": lambda d, w: f"{d.here}=1",
    "reason": lambda d, w: d.tax, "deck": lambda d, w: d.deck, "to": "Blau", "amount": "1000", "offer": "1",
    "event_seq": "1", "groups": "2", "days": "1", "seed": "1", "strategy": "random", "executor": "serial",
    "workers": "1", "scheduler": "127.0.0.1:1", "top": "3", "no_map": None, "name": "Every option",
    "base_url": "http://127.0.0.1:8000", "host": "127.0.0.1", "port": lambda d, w: str(d.port),
    "rate_limit": "10", "poll_interval": "4", "realtime_interval": "30", "trusted_proxy": "127.0.0.1",
    # a command's own value where the same dest means another thing
    (("export",), "out"): _out(".zip"), (("handout",), "out"): _out(".pdf"), (("feed", "download"), "out"):
        lambda d, w: str(d.tmp / "downloads"),
    (("ledger", "feed"), "since"): "0", (("ledger", "income"), "time"): "13:00",
    (("ledger", "diceoff"), "roll"): "Rot=7", (("ledger", "diceoff"), "dice"): "3,4",
    (("ledger", "pay"), "dice"): "3,4", (("ledger", "parking"), "dice"): "2,3", (("ledger", "parking"), "reason"): "jail",
    (("ledger", "void"), "reason"): "typed wrong", (("ledger", "play"), "card"): "kanzlei-gefaengnis",
    (("game", "new"), "groups"): "Gelb,Grün", (("schema",), "name"): "next",
    (("map", "route"), "time"): "11:00", (("roll",), "time"): "12:40", (("roll",), "since"): "12:35",
}
# the reported time: the decision's (no lateness); the same value as --time of the command
RECIPES["reported"] = lambda d, w: value(d, w, "time")

# options that exclude others of their command (or change what it does): one run each, without the others
ALONE: dict[Words | None, tuple[tuple[str, ...], ...]] = {
    None: (("trip", "at"), ("realtime", "realtime_key_env")),
    ("route",): (("batch",), ("trip", "origin")),
    ("zugzwang",): (("check",),),
    ("schema",): (("name",), ("all",), ("write", "force")),
    ("ledger", "buy"): (("toll_line",), ("tunnel",)), ("ledger", "mortgage"): (("toll_line",), ("tunnel",)),
    ("ledger", "redeem"): (("toll_line",), ("tunnel",)), ("ledger", "pay"): (("toll_line",), ("tunnel", "dice")),
    ("ledger", "play"): (("toll_line",), ("tunnel",)), ("ledger", "sell"): (("toll_line",), ("tunnel",)),
    ("ledger", "diceoff"): (("roll",),), ("ledger", "parking"): (("empty", "dice"),),
    ("simulate",): (("scheduler",),),
}

# options given in every run of a command (the defaults would play 100 days on a process pool: minutes, not seconds;
# serve on its default port, free, would serve for ever: every run names the port in use)
ALWAYS: dict[Words, tuple[str, ...]] = {
    ("simulate",): ("days", "groups", "executor"),
    ("serve",): ("host", "port"),
    ("handout",): ("no_png", "dpi"),
}


def commands() -> list[tuple[Words, argparse.ArgumentParser]]:
    """Every command of the parser (its words) with its parser."""
    found: list[tuple[Words, argparse.ArgumentParser]] = []

    def walk(words: Words, parser: argparse.ArgumentParser) -> None:
        for action in parser._actions:  # argparse has no public walk over its actions
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk((*words, name), sub)
        if parser.get_default("handler"):
            found.append((words, parser))

    walk((), build_parser())
    return found


def options(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """The options and positional arguments of a command (not --help)."""
    return [a for a in parser._actions if not isinstance(a, argparse._HelpAction | argparse._SubParsersAction)]


def recipe(words: Words, dest: str) -> Recipe:
    """The recipe of option ``dest`` of command ``words``; a missing one fails, naming the option."""
    for key in ((words, dest), dest):
        if key in RECIPES:
            return RECIPES[key]
    raise AssertionError(f"planner {' '.join(words)}: option {dest!r} has no value recipe in "
                         "tests/support/every_option.py RECIPES: add one, so that the new option is run")


def value(day: Day, words: Words, dest: str) -> str | None:
    r = recipe(words, dest)
    return r(day, words) if callable(r) else r


def argv(day: Day, words: Words, parser: argparse.ArgumentParser, dests: list[str]) -> list[str]:
    """The command line giving ``dests`` their values (positional arguments first; a flag without a value)."""
    by = {a.dest: a for a in options(parser)}
    out: list[str] = list(words)
    for dest in dests:
        a = by[dest]
        v = value(day, words, dest)
        if not a.option_strings:
            out.append(str(v))
        elif isinstance(a, argparse._StoreTrueAction | argparse._StoreFalseAction):
            out.append(a.option_strings[0])
        elif v is not None:
            out += [a.option_strings[0], str(v)]
    return out


def cases(words: Words, parser: argparse.ArgumentParser) -> list[tuple[str, list[str]]]:
    """A command's runs as (name, dests): all options but the excluding ones; each excluding set alone with the
    required ones; the required ones alone (text answers)."""
    acts = options(parser)
    dests = [a.dest for a in acts]
    for d in dests:
        recipe(words, d)  # every option has a recipe, or the test names it
    required = [a.dest for a in acts if a.required or (not a.option_strings and a.nargs is None)]
    day_opts = [d for d in ("feed", "game", "date") if d in dests]
    sets = [s for s in (*ALONE.get(None, ()), *ALONE.get(words, ())) if set(s) & set(dests)]
    excluded = {d for s in sets for d in s}
    all_in = [d for d in dests if d not in excluded and d != "lang"]
    always = list(ALWAYS.get(words, ()))
    out = [("all", [*all_in, "lang"])]
    for s in sets:
        keep = [d for d in s if d in dests]
        out.append(("+".join(keep), list(dict.fromkeys([*required, *day_opts, *always, *keep,
                                                         *(["json"] if "json" in dests else [])]))))
    out.append(("required", list(dict.fromkeys([*required, *day_opts, *always]))))
    return out


def covered(words: Words, parser: argparse.ArgumentParser) -> set[str]:
    """The options the runs of a command give (every one, by construction: checked by the test)."""
    return {d for _name, ds in cases(words, parser) for d in ds}


def run(argv: list[str]) -> tuple[int, str, str]:
    """``planner ARGV`` in this process: (exit code, stdout, stderr)."""
    import io
    from contextlib import redirect_stderr, redirect_stdout

    from planner.cli import main

    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        rc = main(argv)
    return rc, out.getvalue(), err.getvalue()


def make_day(tmp: Path, feed: str, game: str, date: str, here: str, there: str, roll: str, *, toll_line: str,
             tunnel: str) -> Day:
    """The day's values: a train from ``here`` found by routing to ``there``, the files the options read, a
    created game with groups Rot and Blau (in the state ``$PLANNER_STATE`` names), a port in use."""
    import json
    import os
    import socket

    from tests.support.rt_fixtures import feed_message

    common = ["--feed", feed, "--game", game, "--date", date]
    rc, out, err = run(["route", *common, "--from", here, "--to", there, "--time", "11:00", "--json"])
    assert rc == 0, err
    leg = json.loads(out)["legs"][0]
    d = Day(feed, game, date, leg["from"], there, leg["trip_id"], leg["departure"], roll, "kanzlei-gefaengnis",
            "Kanzlei", toll_line, tunnel, "unscheduled_stop", tmp)
    files = {"batch": ("batch.csv", f"from,to,time\n{here},{there},11:00\n"),
             "legs": ("legs.csv", f"from,to,departure,arrival\n{leg['from']},{leg['to']},{leg['departure']},"
                                  f"{leg['arrival']}\n"),
             "owners": ("owners.toml", f'[owners]\n"{toll_line}" = "Rot"\n')}
    for key, (name, text) in files.items():
        (tmp / name).write_text(text, "utf-8")
        d.files[key] = str(tmp / name)
    (tmp / "rt.pb").write_bytes(feed_message(0, []))
    d.files["realtime"] = str(tmp / "rt.pb")
    rc, out, err = run(["game", "new", *common, "--name", "Every option", "--groups", "Rot,Blau", "--json"])
    assert rc == 0, err
    (tmp / "game.json").write_text(out, "utf-8")
    d.files["links"] = str(tmp / "game.json")
    d.state = os.environ["PLANNER_STATE"]
    d.game_id = json.loads(out)["game"]
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    d.port = taken.getsockname()[1]
    d.files["_socket"] = taken  # type: ignore[assignment] - kept open while the day is used
    return d


def check(words: Words, argv_: list[str], rc: int, out: str, err: str) -> None:
    """An answer the contract allows: 0, 1 (INVALID) or a refusal in one line (2); JSON with ``--json`` (checked
    against its schema on the way out by the suite's encoder)."""
    import json

    from tests.support import cli_line_starts

    shown = "planner " + " ".join(argv_)
    assert "Traceback" not in err, f"{shown}\n{err}"
    assert rc in (0, 1, 2), f"{shown}: exit {rc}\n{err[-2000:]}"
    if rc == 2:
        lines = [ln for ln in err.splitlines() if ln.strip() and not ln.startswith(cli_line_starts("warning"))]
        assert len(lines) == 1 and lines[0].startswith(cli_line_starts()), f"{shown}: not one line\n{err}"
    elif "--json" in argv_ and out.strip():
        for line in out.strip().splitlines() if "--batch" in argv_ else [out]:
            json.loads(line)


@contextmanager
def served_day(tmp: Path, feed: str, game: str, date: str, here: str, there: str, roll: str, *, toll_line: str,
               tunnel: str) -> Iterator[Day]:
    """:func:`make_day` with the small 2019 extract served on loopback for ``feed download``, the port in use
    closed afterwards (a module fixture of each day's module)."""
    import pytest

    from tests.support import IC1_2019
    from tests.support.download_server import RangeHandler, serving

    with pytest.MonkeyPatch.context() as mp, serving(tmp, RangeHandler, IC1_2019.read_bytes()) as url:
        mp.setenv("PLANNER_STATE", str(tmp / "state.sqlite"))
        d = make_day(tmp, feed, game, date, here, there, roll, toll_line=toll_line, tunnel=tunnel)
        d.url = url
        yield d
    d.files["_socket"].close()  # type: ignore[attr-defined]


def run_case(day: Day, words: Words, case: str, monkeypatch, tmp_path: Path) -> None:
    """Run one case of a command on ``day`` (its outputs beside ``tmp_path``) and check its answer."""
    monkeypatch.setenv("PLANNER_STATE", day.state)
    monkeypatch.setenv("PLANNER_MAPS_DIR", str(tmp_path))
    monkeypatch.setenv("PLANNER_EVERY_OPTION_KEY", "k")
    day.tmp = tmp_path  # outputs of this run go beside it (a file that exists would be refused)
    parser = dict(commands())[words]
    line = argv(day, words, parser, dict(cases(words, parser))[case])
    check(words, line, *run(line))
