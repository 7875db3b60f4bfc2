"""A game file's own text in the languages it gives (deck names and triggers, card and tax titles, message
templates): ``title = "Geburtstag"`` or ``title = {de = "Geburtstag", fr = "Anniversaire", en = "Birthday"}``.

Shown in the reader's language (:func:`planner.util.i18n.language`) when the file gives it, else in the game's
language (``[game] language``), else in the first language the file gives. ``str(text)`` and ``f"{text}"`` give
the reader's; :meth:`LocalText.in_language` a chosen one (the §19 messages, always in the game's language).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from planner.util.i18n import language


@dataclass(frozen=True)
class LocalText:
    """One text of a game file in each language it gives; ``fallback``: the game's language."""

    texts: tuple[tuple[str, str], ...]
    fallback: str | None = None

    def in_language(self, lang: str | None) -> str:
        """The text in ``lang``, else in the game's language, else the first one given."""
        given = dict(self.texts)
        for want in (lang, self.fallback):
            if want in given:
                return given[want]
        return self.texts[0][1] if self.texts else ""

    def __str__(self) -> str:
        return self.in_language(language())

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __bool__(self) -> bool:
        return any(v for _k, v in self.texts)


def local_text(value: str | Mapping[str, str] | LocalText, fallback: str | None) -> LocalText:
    """A game file's value (a plain text: the game's language; a table: one text per language) as a
    :class:`LocalText`."""
    if isinstance(value, LocalText):
        return value
    if isinstance(value, str):
        return LocalText(((fallback or "", value),), fallback)
    return LocalText(tuple(value.items()), fallback)
