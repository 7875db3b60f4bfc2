"""The pseudo-locale of the tests: every catalog text accented and bracketed, so that a text which did not pass
through the catalog stands out as plain Latin letters (docs/i18n.md, tests/languages/test_pseudo_locale.py).

Offered only when ``$PLANNER_PSEUDO_LOCALE`` is set (a test suite): then ``--lang qps``, ``PLANNER_LANG=qps`` and
``?lang=qps`` choose it like a language; users never see it. Its texts are made from the message ids when they
are looked up: nothing is committed. ``{placeholders}``, ``%(name)s``, option names (``--at``) and commands in
quotes (``'planner group position'``) are kept as they are, since code fills or names them.
"""

from __future__ import annotations

import gettext
import os
import re

PSEUDO = "qps"  # the code of the pseudo-locale (an ISO 639 code reserved for local use)
PSEUDO_ENV = "PLANNER_PSEUDO_LOCALE"
OPEN, CLOSE = "⟦", "⟧"

# every ASCII letter to a look-alike outside ASCII: what is left in plain letters did not come from the catalog
_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_ACCENTED = "áƀçďéƒĝĥíĵķĺɱñóƥǫŕšţúʋŵẋýžÁƁÇĎÉƑĜĤÍĴĶĹṀÑÓƤǪŔŠŢÚṼŴẊÝŽ"
_TABLE = str.maketrans(_LETTERS, _ACCENTED)
# kept as written: placeholders, printf-style names, option names, a command quoted for the reader, markup
_KEEP = re.compile(r"\{[^{}]*\}|%\([a-z_]+\)[sdr]|%[sdr%]|--[a-z][a-z0-9-]*|'planner[^']*'|<[^<>]*>|&[a-z]+;")


def enabled() -> bool:
    """Whether the pseudo-locale is offered (``$PLANNER_PSEUDO_LOCALE`` set to a non-empty value other than 0)."""
    return os.environ.get(PSEUDO_ENV, "") not in ("", "0")


def pseudo(text: str) -> str:
    """``text`` accented and bracketed, its placeholders, option names and markup kept."""
    if not text:
        return text
    out, at = [], 0
    for m in _KEEP.finditer(text):
        out.append(text[at:m.start()].translate(_TABLE))
        out.append(m.group())
        at = m.end()
    out.append(text[at:].translate(_TABLE))
    return OPEN + "".join(out) + CLOSE


class PseudoTranslations(gettext.NullTranslations):
    """The pseudo-locale's catalog: every message id (singular or plural) transformed by :func:`pseudo`."""

    def gettext(self, message: str) -> str:
        return pseudo(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return pseudo(message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2)
