"""Checks of the published answer contract: every answer a test produces can be validated against its JSON Schema
(``planner schema NAME``, generated from the answer types of :mod:`planner.service.answers`) with ``jsonschema``.

- :func:`plain` validates a typed answer and gives its JSON as plain values (for tests that call a use case);
- :func:`check_json` validates JSON a command or the web API printed, by the answer's name;
- :func:`checked_encode` is the encoder ``tests/conftest.py`` puts in place of the adapters' one, so every answer a
  command prints in the test process is validated; :func:`check_response` does the same for the web API's answers
  (``requests`` calls, by route).
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import jsonschema
import msgspec

from planner.service.answers import base, registry

_encode = base.encode  # the real encoder


@cache
def validator(name: str) -> jsonschema.Draft202012Validator:
    """The validator of answer ``name``'s published schema."""
    schema = registry.schema(name)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def check_json(name: str, data: Any) -> Any:
    """``data`` (parsed JSON) when it is a valid answer ``name``; else the schema error is raised."""
    errors = sorted(validator(name).iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:
        e = errors[0]
        raise AssertionError(f"answer {name!r} breaks its schema at {'/'.join(map(str, e.absolute_path)) or '.'}: "
                             f"{e.message} ({len(errors)} error(s))")
    return data


@cache
def part_validator(kind: type) -> jsonschema.Draft202012Validator:
    """The validator of an answer part's type (a part of a published answer, e.g. an itinerary)."""
    return jsonschema.Draft202012Validator(msgspec.json.schema(kind))


def plain(value: msgspec.Struct) -> Any:
    """A typed answer (or part of one) as plain JSON values, validated against the schema of its type."""
    data = msgspec.json.decode(_encode(value))
    name = registry.name_of(type(value))
    if name is not None:
        return check_json(name, data)
    part_validator(type(value)).validate(data)
    return data


def checked_encode(value: Any) -> bytes:
    """The adapters' encoder, validating every published answer it encodes."""
    raw = _encode(value)
    name = registry.name_of(type(value))
    if name is not None:
        check_json(name, msgspec.json.decode(raw))
        checked.append(name)
    return raw


checked: list[str] = []  # the names of the answers validated in this test process (a test reads it)

# the web API's answers by method and route (``/api/games/{game}/groups/{group}/...``)
ROUTES = [
    ("GET", re.compile(r"/api/games/[^/]+/groups/\d+$"), "group-page"),
    ("GET", re.compile(r"/api/games/[^/]+/groups/\d+/next$"), "next"),
    ("GET", re.compile(r"/api/games/[^/]+/groups/\d+/trains$"), "zugzwang"),
    ("POST", re.compile(r"/api/games/[^/]+/groups/\d+/position$"), "position"),
    ("POST", re.compile(r"/api/games/[^/]+/groups/\d+/rolls$"), "roll"),
    ("POST", re.compile(r"/api/games/[^/]+/groups/\d+/undo$"), "undo"),
    ("POST", re.compile(r"/api/games/[^/]+/groups/\d+/whereabouts$"), "whereabouts"),
    ("GET", re.compile(r"/api/games/[^/]+/groups/\d+/ledger$"), "ledger-page"),
    ("POST", re.compile(r"/api/games/[^/]+/groups/\d+/ledger$"), "ledger-event"),
    ("POST", re.compile(r"/api/games/[^/]+/groups/\d+/messages/\d+/sent$"), "ledger-event"),
    ("GET", re.compile(r"/api/games/[^/]+$"), "organiser"),
    ("POST", re.compile(r"/api/games/[^/]+/void$"), "ledger-event"),
]


def answer_of(method: str, path: str) -> str | None:
    """The answer a web API route gives (None: not a published one)."""
    return next((name for m, pattern, name in ROUTES if m == method and pattern.search(path)), None)


def check_response(method: str, path: str, status: int, content_type: str, body: bytes) -> None:
    """Validate a web API answer: a published answer by its route, any 4xx/5xx as the ``error`` answer."""
    if not content_type.startswith("application/json") or not path.startswith("/api/"):
        return
    data = msgspec.json.decode(body)
    name = "error" if status >= 400 else answer_of(method, path)
    if name is not None:
        check_json(name, data)
        checked.append(name)
