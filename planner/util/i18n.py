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
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path

from planner.util import pseudo as _pseudo

# The languages, the one list (docs/contributing.md "A language"): the CLI's --lang, a game file's [game] language,
# the page's switch (the server names them on the page), the Makefile's catalogs (it reads this line) follow it.
LANGUAGES = ("de", "fr", "en")
FALLBACK = "en"  # the message ids' language: what a text is when nothing chose another
# Babel's locale data for numbers and dates (GLOSSARY.md); the tests' pseudo-locale counts as English there
LOCALES = {"de": "de_CH", "fr": "fr_CH", "en": "en", _pseudo.PSEUDO: "en"}
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
LOCALE_DIR_ENV = "PLANNER_LOCALE_DIR"  # another catalog folder (the tests' damaged copies), else LOCALE_DIR
DOMAIN = "messages"
LANG_ENV = "PLANNER_LANG"  # the planner's own choice, before the system's locale (a server, a test suite)
MAX_CATALOG = 8 << 20  # bytes: a larger catalog is refused unread (the real ones are about 0.2 MB)

_language: ContextVar[str | None] = ContextVar("planner_language", default=None)


def languages() -> tuple[str, ...]:
    """The languages one may choose: :data:`LANGUAGES`, and the tests' pseudo-locale when they enable it
    (:mod:`planner.util.pseudo`; never offered to users)."""
    return (*LANGUAGES, _pseudo.PSEUDO) if _pseudo.enabled() else LANGUAGES


def normalise(tag: str | None) -> str | None:
    """The planner's language for a tag as users and systems write it (``de-CH``, ``fr_CH.UTF-8``, ``EN``), or
    None when it is none of :func:`languages`."""
    if not tag:
        return None
    base = str(tag).strip().split(".")[0].replace("-", "_").split("_")[0].lower()
    return base if base in languages() else None


def catalog_file(lang: str, suffix: str) -> Path:
    """The catalog of ``lang`` (``.po``, the translations; ``.mo``, compiled by ``make setup``)."""
    folder = Path(os.environ[LOCALE_DIR_ENV]) if os.environ.get(LOCALE_DIR_ENV) else LOCALE_DIR
    return folder / lang / "LC_MESSAGES" / f"{DOMAIN}{suffix}"


def read_catalog_bytes(path: Path) -> bytes:
    """A catalog file's bytes; one over :data:`MAX_CATALOG` is refused unread (ValueError), so that a huge file
    cannot hold up a command or a page."""
    with path.open("rb") as f:
        data = f.read(MAX_CATALOG + 1)
    if len(data) > MAX_CATALOG:
        raise ValueError(f"larger than {MAX_CATALOG >> 20} MB")
    return data


def _compiled(path: Path) -> gettext.GNUTranslations:
    return gettext.GNUTranslations(io.BytesIO(read_catalog_bytes(path)))


def _from_po(path: Path, lang: str) -> gettext.GNUTranslations:
    from babel.messages.mofile import write_mo  # only without a usable .mo (compiled by make setup)
    from babel.messages.pofile import read_po

    catalog = read_po(io.BytesIO(read_catalog_bytes(path)), locale=lang, abort_invalid=True)
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    return gettext.GNUTranslations(buf)


@lru_cache(maxsize=len(LANGUAGES) + 1)
def translations(lang: str) -> gettext.NullTranslations:
    """The catalog of ``lang``: its compiled ``.mo``; when that is missing or older than the ``.po`` (a fresh
    clone before ``make setup``, a catalog just edited), the ``.po`` compiled in memory; the message ids themselves
    (English, the next language) where there is neither. A damaged or huge catalog never stops play: the one that
    can be read is used, else the message ids, and one line on stderr says so (once per language and process)."""
    if lang == _pseudo.PSEUDO:
        return _pseudo.PseudoTranslations()
    po, mo = catalog_file(lang, ".po"), catalog_file(lang, ".mo")
    tries = [(mo, _compiled), (po, lambda p: _from_po(p, lang))]
    if mo.is_file() and po.is_file() and mo.stat().st_mtime < po.stat().st_mtime:
        tries.reverse()  # a catalog just edited: its .po before the older .mo
    damaged = []
    for path, read in tries:
        if not path.is_file():
            continue
        try:
            found = read(path)
        except Exception as exc:  # noqa: BLE001 - any damage (struct.error, UnicodeDecodeError, a parse error)
            why = str(exc).splitlines()[0][:80] if str(exc) else type(exc).__name__
            damaged.append(f"{path} cannot be read ({why})")
            continue
        if damaged:
            _warn(f"planner: catalog {damaged[0]}; using {path.name}")
        return found
    if damaged:
        _warn(f"planner: catalog {damaged[0]}; answers in English")
    return gettext.NullTranslations()


def _warn(line: str) -> None:
    """One line on stderr (a catalog cannot be read: no catalog to word it in, so in English)."""
    print(" ".join(line.split()), file=sys.stderr)


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


LONG_DATES = {"de": "full", "fr": "EEEE d MMMM y", "en": "full", _pseudo.PSEUDO: "full"}  # "Samstag, 11. September 2021", "samedi 11 ..."


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
    text = format_date(day, LONG_DATES[lang], locale=LOCALES[lang])
    return _pseudo.pseudo(text) if lang == _pseudo.PSEUDO else text  # the locale's words too, in the tests' one


def format_clock(seconds: int | None) -> str | None:
    """A time of day, 24-hour ``HH:MM`` in every language (service-day times past 24:00 as ``25:10``; seconds,
    when not zero, as ``HH:MM:SS``)."""
    if seconds is None:
        return None
    h, rem = divmod(int(seconds), 3600)
    m, s = divmod(rem, 60)
    return f"{h:02d}:{m:02d}" if s == 0 else f"{h:02d}:{m:02d}:{s:02d}"
