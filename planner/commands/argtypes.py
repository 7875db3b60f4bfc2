"""Command-line values checked where they enter: one argparse type per kind of value.

:func:`apply_defaults` gives every text option without a type :func:`text` (an empty value is an error,
never a silent fall-back to the default). Output paths are refused when they are empty, a folder, below
a file, a pipe or device, or inside a system folder, before anything is computed or written.
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable
from pathlib import Path

from planner.util.atomic import system_path
from planner.util.i18n import _
from planner.util.userfiles import file_kind

MAX_URL = 2048
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"), None)


def text(value: str) -> str:
    """A non-empty text value (blanks and zero-width characters alone are empty)."""
    if not value.translate(_INVISIBLE).strip():
        raise argparse.ArgumentTypeError(_("empty value"))
    return value


def minutes(lo: float, hi: float) -> Callable[[str], float]:
    """A finite number of minutes in ``lo..hi``."""

    def parse(value: str) -> float:
        try:
            x = float(value)
        except ValueError:
            raise argparse.ArgumentTypeError(_("{value!r} is not a number of minutes").format(value=value)) from None
        if not math.isfinite(x) or not lo <= x <= hi:
            raise argparse.ArgumentTypeError(_("{value}: expected {lo} to {hi} minutes").format(value=value, lo=f"{lo:g}",
                                                                                                   hi=f"{hi:g}"))
        return x

    return parse


def integer(lo: int, hi: int, what: str) -> Callable[[str], int]:
    """A whole number in ``lo..hi`` (``what`` names the unit in the message)."""

    def parse(value: str) -> int:
        try:
            x = int(value)
        except ValueError:
            raise argparse.ArgumentTypeError(_("{value!r} is not a whole number").format(value=value)) from None
        if not lo <= x <= hi:
            raise argparse.ArgumentTypeError(_("{value}: expected {lo} to {hi} {what}").format(value=value, lo=lo, hi=hi,
                                                                                                   what=_(what)))
        return x

    return parse


def url(value: str) -> str:
    """An http(s) URL of sane length without blanks or control characters."""
    text(value)
    if len(value) > MAX_URL:
        raise argparse.ArgumentTypeError(_("URL of {n} characters (at most {limit})").format(n=len(value), limit=MAX_URL))
    if not value.startswith(("http://", "https://")) or any(c.isspace() or not c.isprintable() for c in value):
        raise argparse.ArgumentTypeError(_("{value!r} is not an http(s) URL").format(value=value[:80]))
    return value


def in_file(value: str) -> str:
    """A file the command reads (checked when read); declared as an input, so no output of the run may replace it
    (:mod:`planner.commands.outputs`)."""
    return text(value)


def feed(value: str) -> str:
    """A feed: a path (checked when opened) or an http(s) URL."""
    text(value)
    return url(value) if value.startswith(("http://", "https://")) else value


def out_file(value: str) -> str:
    """A path a file may be written to (created with its folders); never a folder or a system path."""
    p = _out_path(value)
    if value.endswith(("/", os.sep)) or file_kind(p) == "folder":
        raise argparse.ArgumentTypeError(_("{value}: is a folder (give a file name)").format(value=value))
    if file_kind(p) == "special":
        raise argparse.ArgumentTypeError(_("{value}: is a pipe or device, not a file").format(value=value))
    return str(p)


def out_folder(value: str) -> str:
    """A folder files may be written into (created when missing); never a file or a system path."""
    p = _out_path(value)
    kind = file_kind(p)
    if kind in ("file", "special"):
        raise argparse.ArgumentTypeError((_("{value}: is a file, not a folder") if kind == "file" else
                                          _("{value}: is a pipe or device, not a folder")).format(value=value))
    return str(p)


def _out_path(value: str) -> Path:
    text(value)
    p = Path(value).expanduser()
    if system_path(p):
        raise argparse.ArgumentTypeError(_("{value}: refusing to write into a system folder").format(value=value))
    for parent in p.absolute().parents:
        kind = file_kind(parent)
        if kind in ("missing", "below-file"):
            continue
        if kind != "folder":
            raise argparse.ArgumentTypeError(_("{value}: {parent} is a file, not a folder").format(value=value,
                                                                                                    parent=parent))
        if not os.access(parent, os.W_OK | os.X_OK):
            raise argparse.ArgumentTypeError(_("{value}: folder {parent} is not writable").format(value=value, parent=parent))
        break
    return p


def apply_defaults(parser: argparse.ArgumentParser) -> None:
    """Give every text option of ``parser`` and its subcommands :func:`text` unless it has a type."""
    for action in parser._actions:  # argparse has no public walk over its actions
        if isinstance(action, argparse._SubParsersAction):
            for sub in set(action.choices.values()):
                apply_defaults(sub)
        elif (action.option_strings and isinstance(action, argparse._StoreAction) and action.type is None
              and action.default != ""):
            action.type = text
