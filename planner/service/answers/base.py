"""What every answer type shares: the Struct base and the absent-key marker."""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec import UNSET, UnsetType

__all__ = ["UNSET", "Answer", "Message", "Opt", "UnsetType", "encode"]

Opt = UnsetType  # a key left out of the JSON when not set: ``x: int | Opt = UNSET``


class Answer(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Base of every answer part: keyword fields, no unknown keys (the published schema says
    ``additionalProperties: false``, so a key added without its type fails the schema test)."""


class Message(Answer, kw_only=True):
    """A text of an answer as one catalog entry: ``key`` (stable, for scripts), ``params`` (from the game file and
    the group's day) and ``text``, rendered in the answer's language."""

    key: str
    params: dict[str, Any]
    text: str


def encode(value: Any) -> bytes:
    """An answer (a Struct, or lists and dicts holding them) as JSON: UTF-8, compact, keys in the types' order. The
    one encoder of every adapter (the command line's ``--json``, the web API, the stored roll answers)."""
    return msgspec.json.encode(value)
