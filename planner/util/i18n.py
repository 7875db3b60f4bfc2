"""The players' language: every text a user sees is looked up in one gettext catalog, in the language of the
command or request being answered.

Texts are written in English in the code as gettext message ids, marked with :func:`_` (:func:`ngettext` for
plurals, :func:`N_` where a text is only marked here and translated where it is shown) and filled with named
parameters: ``_("{station} belongs to {owner}: pay the fee").format(station=..., owner=...)``. A sentence is
never assembled from translated pieces. The adapter that talks to the user (a command, one web request) picks the
language with :func:`use_language` (and :func:`default_language`, the game's, when nothing more explicit chose);
everything below it translates in that language (a context variable, so threads and asyncio tasks each keep their
own). The catalogs live in ``planner/locale`` and are managed with Babel (``make i18n-extract``, ``i18n-update``,
``i18n-compile``; docs/i18n.md). Numbers, dates and times follow the locale's conventions (:func:`format_amount`,
:func:`format_long_date`, :func:`format_clock`).
"""

from __future__ import annotations

import datetime as dt
import gettext
import io
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path

from planner.util.timefmt import fmt_clock

# The languages, the one list (docs/contributing.md "A language"): the CLI's --lang, a game file's [game] language,
# the page's switch (the server names them on the page), the Makefile's catalogs (it reads this line) follow it.
LANGUAGES = ("de", "fr", "en")
FALLBACK = "en"  # the message ids' language: what a text is when nothing chose another
LOCALES = {"de": "de_CH", "fr": "fr_CH", "en": "en"}  # Babel's locale data for numbers and dates (GLOSSARY.md)
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "messages"
LANG_ENV = "PLANNER_LANG"  # the planner's own choice, before the system's locale (a server, a test suite)

_language: ContextVar[str | None] = ContextVar("planner_language", default=None)


def normalise(tag: str | None) -> str | None:
    """The planner's language for a tag as users and systems write it (``de-CH``, ``fr_CH.UTF-8``, ``EN``), or
    None when it is none of :data:`LANGUAGES`."""
    if not tag:
        return None
    base = str(tag).strip().split(".")[0].replace("-", "_").split("_")[0].lower()
    return base if base in LANGUAGES else None


def catalog_file(lang: str, suffix: str) -> Path:
    """The catalog of ``lang`` (``.po``, the translations; ``.mo``, compiled by ``make setup``)."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}{suffix}"


@lru_cache(maxsize=len(LANGUAGES))
def translations(lang: str) -> gettext.NullTranslations:
    """The catalog of ``lang``: its compiled ``.mo``; when that is missing or older than the ``.po`` (a fresh
    clone before ``make setup``, a catalog just edited), the ``.po`` compiled in memory; the message ids themselves
    where there is neither."""
    po, mo = catalog_file(lang, ".po"), catalog_file(lang, ".mo")
    if mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as f:
            return gettext.GNUTranslations(f)
    if po.is_file():
        from babel.messages.mofile import write_mo  # only without a compiled catalog (compiled by make setup)
        from babel.messages.pofile import read_po

        with po.open("rb") as f:
            catalog = read_po(f, locale=lang)
        buf = io.BytesIO()
        write_mo(buf, catalog)
        buf.seek(0)
        return gettext.GNUTranslations(buf)
    return gettext.NullTranslations()


def language() -> str:
    """The language texts are given in now."""
    return _language.get() or FALLBACK


def chosen() -> str | None:
    """The language an adapter chose for the current command or request (None: nothing chose one yet)."""
    return _language.get()


@contextmanager
def use_language(lang: str | None) -> Iterator[str]:
    """Give every text in ``lang`` inside the block (None or an unknown tag keeps the current choice)."""
    token = _language.set(normalise(lang) or _language.get())
    try:
        yield language()
    finally:
        _language.reset(token)


def default_language(lang: str | None) -> None:
    """Use ``lang`` (the game's) for the rest of the enclosing :func:`use_language` block when nothing chose a
    language there yet."""
    if _language.get() is None and normalise(lang):
        _language.set(normalise(lang))


def environment_language(env: Mapping[str, str] | None = None) -> str | None:
    """The language the environment asks for: ``$PLANNER_LANG``, else the first of ``LC_ALL``, ``LC_MESSAGES``,
    ``LANG`` that is set, when it names one of :data:`LANGUAGES` (``C.UTF-8`` names none); else None."""
    env = os.environ if env is None else env
    if normalise(env.get(LANG_ENV)):
        return normalise(env.get(LANG_ENV))
    for key in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if env.get(key):
            return normalise(env[key])  # the first one set decides, as for every program
    return None


def accepted_language(header: str | None) -> str | None:
    """The first of :data:`LANGUAGES` a browser's ``Accept-Language`` header asks for (by its q values)."""
    if not header:
        return None
    wanted = []
    for i, part in enumerate(header.split(",")[:20]):
        tag, _sep, q = part.strip().partition(";q=")
        try:
            weight = float(q) if q else 1.0
        except ValueError:
            continue
        if normalise(tag):
            wanted.append((-weight, i, normalise(tag)))
    return min(wanted)[2] if wanted else None


def _(message: str) -> str:
    """``message`` (an English message id) in the current language."""
    return translations(language()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n`` in the current language (its plural rules)."""
    return translations(language()).ngettext(singular, plural, n)


def N_(message: str) -> str:  # noqa: N802 - the gettext convention for a marked, untranslated text
    """Mark ``message`` for the catalog without translating it here (a constant translated where shown)."""
    return message


def format_amount(amount: int | float) -> str:
    """An amount of money (CHF) as the current language's locale groups it: ``1'000`` (de_CH), ``1,000`` (en)."""
    from babel.numbers import format_decimal  # Babel's locale data loads on first use (not on every command)

    return format_decimal(amount, locale=LOCALES[language()])


LONG_DATES = {"de": "full", "fr": "EEEE d MMMM y", "en": "full"}  # "Samstag, 11. September 2021", "samedi 11 ..."


def format_long_date(day: dt.date | str) -> str:
    """A game day in words: "Samstag, 11. September 2021", "samedi 11 septembre 2021". ``day`` may be the
    ``YYYY-MM-DD`` text the timetable and the answers carry; text that is no such date is returned as it is."""
    from babel.dates import format_date

    if isinstance(day, str):
        try:
            day = dt.date.fromisoformat(day)
        except ValueError:
            return day
    lang = language()
    return format_date(day, LONG_DATES[lang], locale=LOCALES[lang])


def format_clock(seconds: int | None) -> str | None:
    """A time of day, 24-hour ``HH:MM`` in every language (service-day times past 24:00 as ``25:10``)."""
    return fmt_clock(seconds)
