"""Babel's extractor for the page scripts (``babel.cfg``): their texts are marked ``t(message, params)`` and
``tn(singular, plural, n, params)`` (``planner/web/static/i18n.js``). These names are keywords of the scripts only,
never of the Python extraction, where ``t`` is a common variable name (``t["median"]`` is no text)."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

from babel.messages.extract import extract_javascript

# the scripts' marking functions, as the gettext keywords Babel's caller knows (``_``: one text; ``ngettext``: the
# singular and the plural, its default spec)
SCRIPT_KEYWORDS = {"t": "_", "tn": "ngettext"}


def extract(fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str],
            options: Mapping[str, Any]) -> Iterator[tuple]:
    """Every marked text of one page script, named by the gettext keyword it stands for."""
    for lineno, funcname, messages, comments in extract_javascript(
            fileobj, [*keywords, *SCRIPT_KEYWORDS], comment_tags, options):
        yield lineno, SCRIPT_KEYWORDS.get(funcname, funcname), messages, comments
