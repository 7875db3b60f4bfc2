"""Game use cases: create a game for phones and the command line (``planner game new``), list the games."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from planner.errors import InputError
from planner.gamefile.game import load_game
from planner.gtfs.source import FeedSource
from planner.ledger.money_rules import ledger_rules
from planner.organiser.area_check import area_problems
from planner.service.setup.playing import GameDay
from planner.store.games import NewGame, check_name, parse_group_names
from planner.store.state import State
from planner.util.i18n import _, format_long_date, ngettext
from planner.util.timefmt import parse_date

DEFAULT_BASE = "http://127.0.0.1:8000"


@dataclass(frozen=True)
class Links:
    """A created game's links: the organiser's and one join link per group (shown once: tokens are not kept)."""

    game: str
    organiser: dict
    groups: list[dict]
    name: str = ""  # the name the organisers gave it (the join codes' heading)
    played_on: dict | None = None  # {feed, game, date}: the handout of the saved links draws this game's day

    def to_json(self) -> dict:
        """``{game, name, played_on: {feed, game, date}, organiser: {url, token}, groups: [{name, url, token}]}``."""
        return {"game": self.game, "name": self.name, "played_on": self.played_on or {}, "organiser": self.organiser,
                "groups": self.groups}


def base_url(url: str) -> str:
    """The server's public address (http or https, a host, no spaces, quotes or control characters), no
    trailing slash."""
    url = url.strip().rstrip("/")
    parts = urlsplit(url)
    bad = any(c.isspace() or c in "\"'<>`\\{}|^" or ord(c) < 32 for c in url)
    if parts.scheme not in ("http", "https") or not parts.hostname or bad or parts.query or parts.fragment:
        raise InputError(_("--base-url {url!r}: expected http://HOST[:PORT] or https://HOST[/PATH]").format(url=url[:80]))
    return url


def create_game(state: State, name: str, groups: str, *, feed: str | None, game: str, date: str,
                base: str) -> Links:
    """Create a game on ``feed`` (a path or URL; checked to exist when a path), game file ``game`` and ``date``,
    with the groups named in ``groups`` (``"Rot,Blau,Gelb"``); returns its links."""
    names = parse_group_names(groups)
    check_name(str(name).strip(), "--name")
    ledger_rules(load_game(game))  # a misspelt game file (or message template) is an error now, not when played
    parse_date(date)
    if feed and not feed.startswith(("http://", "https://")):
        FeedSource(feed)  # a feed that is not there (or not a feed) is an error now, too
    base = base_url(base)
    new: NewGame = state.games.create(name, names, feed=feed, game=game, date=date)
    return Links(new.game.id, {"url": f"{base}/join?t={new.organiser_token}", "token": new.organiser_token},
                 [{"name": g.name, "url": f"{base}/join?t={t}", "token": t}
                  for g, t in zip(new.game.groups, new.group_tokens, strict=True)], new.game.name,
                 {"feed": new.game.feed, "game": new.game.game, "date": new.game.date})


def area_warning(day: GameDay) -> str | None:
    """One line when ``planner check-area`` finds the game area INVALID on the day (None when valid, or when the
    feed is a URL: nothing is downloaded for a warning): what ``game new``, ``handout`` and the organiser's page
    say, so that nobody plays an area the check refuses without a word."""
    if day.feed.startswith(("http://", "https://")):
        return None
    problems = area_problems(day.timetable, day.game, FeedSource(day.feed))
    if not problems:
        return None
    return ngettext("check-area: {title} on {date} is INVALID ({n} problem: {first}); run 'planner check-area' "
                    "before the game day",
                    "check-area: {title} on {date} is INVALID ({n} problems, the first: {first}); run "
                    "'planner check-area' for all of them before the game day", len(problems)).format(
        title=day.game.title, date=format_long_date(day.date), n=len(problems), first=problems[0])
