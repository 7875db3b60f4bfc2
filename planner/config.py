"""Defaults for feed, game and date: command line > environment > config file > built-in demo."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from planner.errors import PlannerError

DEMO_FEED_NAME = "ch-zug-fp2021.zip"
DEMO_DATE = "2021-09-11"  # a Saturday inside the demo extract
DEFAULT_GAME = "sbb-monopoly"
RAIL_CSV_NAME = "sbb-linie-mit-betriebspunkten.csv"


def config_path() -> Path:
    """User config file: ``$PLANNER_CONFIG`` or ``~/.config/sbb-planner/config.toml``."""
    env = os.environ.get("PLANNER_CONFIG")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "sbb-planner" / "config.toml"


def user_config() -> dict:
    """The config file's content (keys ``feed``, ``game``, ``date``, ``cache``), or an empty dict."""
    p = config_path()
    if not p.is_file():
        return {}
    try:
        return tomllib.loads(p.read_text("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError) as exc:
        raise PlannerError(f"config file {p}: {exc}") from None


def cache_root() -> Path:
    """The cache folder: ``$PLANNER_CACHE``, else ``$XDG_CACHE_HOME/sbb-planner``, else ``~/.cache/sbb-planner``."""
    env = os.environ.get("PLANNER_CACHE")
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base).expanduser() / "sbb-planner"


def repo_root() -> Path:
    """The checkout this package runs from (for the default demo data beside it)."""
    return Path(__file__).resolve().parents[1]


def feeds_dir() -> Path:
    """Where ``planner feed download`` stores feeds: ``$PLANNER_FEEDS`` or ``<repo>/feeds``."""
    return Path(os.environ.get("PLANNER_FEEDS") or repo_root() / "feeds")


def default_rail_csv() -> Path:
    """The SBB line network's CSV: ``$PLANNER_RAIL_CSV``, else ``$PLANNER_SHARED/data/stations/...``, else
    ``<repo>/../shared/data/stations/...``."""
    env = os.environ.get("PLANNER_RAIL_CSV")
    if env:
        return Path(env)
    shared = os.environ.get("PLANNER_SHARED")
    base = Path(shared) if shared else repo_root().parent / "shared"
    return base / "data" / "stations" / RAIL_CSV_NAME


def _setting(env: str, key: str) -> str | None:
    """A setting from the environment variable ``env``, else the config file's ``key``."""
    val = os.environ.get(env) or user_config().get(key)
    return str(val) if val else None


def default_feed() -> str | None:
    """The feed to use when none is given: env, config, newest downloaded feed, else the demo extract."""
    explicit = _setting("PLANNER_FEED", "feed")
    if explicit:
        return explicit
    fd = feeds_dir()
    if fd.is_dir():
        zips = sorted(fd.glob("GTFS_*.zip"))
        if zips:
            return str(zips[-1])
    for base in (Path.cwd(), repo_root()):
        cand = base.parent / "shared" / "data" / "gtfs" / DEMO_FEED_NAME
        if cand.is_file():
            return str(cand)
    return None


def demo_fallback(feed: str) -> bool:
    """True when ``feed`` is the demo extract only because nothing else was set or downloaded (the demo game's
    timetable, not another game's)."""
    return _setting("PLANNER_FEED", "feed") is None and Path(feed).name == DEMO_FEED_NAME and \
        default_feed() == feed


def default_game() -> str:
    """Game when none is given."""
    return _setting("PLANNER_GAME", "game") or DEFAULT_GAME


def default_date(feed: str | None) -> str | None:
    """Date when none is given: env, config, the demo Saturday for the demo extract, else None (today)."""
    explicit = _setting("PLANNER_DATE", "date")
    if explicit:
        return explicit
    if feed and Path(feed).name == DEMO_FEED_NAME:
        return DEMO_DATE
    return None
