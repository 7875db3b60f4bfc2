"""The players' language: every text a user sees is looked up in one gettext catalog, in the language of the
command or request being answered.

Texts are written in English in the code as gettext message ids, marked with :func:`_` (:func:`ngettext` for
plurals, :func:`N_` where a text is only marked here and translated where it is shown) and filled with named
parameters: ``_("{station} belongs to {owner}: pay the fee").format(station=..., owner=...)``. A sentence is
never assembled from translated pieces. The adapter that talks to the user (a command, one web request) picks the
language with :func:`use_language`; everything below it translates in that language (a context variable, so
threads and asyncio tasks each keep their own). The catalogs live in ``planner/locale`` and are managed with
Babel (extract, update, compile).
"""

from __future__ import annotations

import gettext
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path

LANGUAGES = ("de", "fr", "en")
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "messages"

_language: ContextVar[str] = ContextVar("planner_language", default="en")


def normalise(tag: str | None) -> str | None:
    """The planner's language for a tag as users and systems write it (``de-CH``, ``fr_CH.UTF-8``, ``EN``), or
    None when it is none of :data:`LANGUAGES`."""
    if not tag:
        return None
    base = str(tag).strip().split(".")[0].replace("-", "_").split("_")[0].lower()
    return base if base in LANGUAGES else None


@lru_cache(maxsize=len(LANGUAGES))
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of ``lang`` (the message ids themselves where none is installed)."""
    return gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[lang], fallback=True)


def language() -> str:
    """The language texts are given in now."""
    return _language.get()


@contextmanager
def use_language(lang: str) -> Iterator[str]:
    """Give every text in ``lang`` inside the block (an unknown tag keeps the current language)."""
    token = _language.set(normalise(lang) or _language.get())
    try:
        yield _language.get()
    finally:
        _language.reset(token)


def _(message: str) -> str:
    """``message`` (an English message id) in the current language."""
    return translations(_language.get()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n`` in the current language (its plural rules)."""
    return translations(_language.get()).ngettext(singular, plural, n)


def N_(message: str) -> str:  # noqa: N802 - the gettext convention for a marked, untranslated text
    """Mark ``message`` for the catalog without translating it here (a constant translated where shown)."""
    return message
