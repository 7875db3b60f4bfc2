"""Name normalisation for station lookup: case-, accent- and umlaut-spelling-insensitive."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_UMLAUT = {"ä": "a", "ö": "o", "ü": "u", "ae": "a", "oe": "o", "ue": "u"}


@lru_cache(maxsize=1 << 16)  # pure, and asked for the same few names all day
def fold(name: str) -> str:
    """Fold a station name for matching: lower case, no accents, ``ue``=``ü``, punctuation as spaces."""
    s = name.lower().strip()
    s = s.replace("ä", "a").replace("ö", "o").replace("ü", "u")
    s = unicodedata.normalize("NFKD", s)
    s = "".join(ch for ch in s if not unicodedata.combining(ch))
    # German transliteration: Zuerich == Zürich. Only fold "ue/ae/oe" when not part of a vowel pair
    # that is genuine in names (e.g. "Bauen"): we fold after a consonant only.
    s = re.sub(r"(?<=[^aeiou\W])(a|o|u)e", r"\1", s)
    s = re.sub(r"[^a-z0-9]+", " ", s)
    return " ".join(s.split())


def file_slug(*parts: object) -> str:
    """A file-name part made of ``parts``: folded, lower-case letters and digits joined by ``-`` (``map`` if empty)."""
    s = "-".join(fold(str(p)) for p in parts if p not in (None, ""))
    return re.sub(r"[^a-z0-9]+", "-", s).strip("-") or "map"
