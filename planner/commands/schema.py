"""``planner schema [NAME]``: the JSON Schema of the answers (an adapter of :mod:`planner.service.answers.registry`).

Without a name it lists the published answers; with one it prints that answer's schema; ``--all`` prints every
schema by name; ``--write FOLDER`` writes ``NAME.json`` for each (``docs/schema`` holds them, tested to be the
code's)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from planner.commands.outputs import refuse_existing
from planner.errors import InputError
from planner.service.answers.registry import ANSWERS, schema
from planner.util.atomic import atomic_write_text
from planner.util.i18n import _


def schema_text(name: str) -> str:
    """The schema of answer ``name`` as the committed files hold it (indented, keys in order, a final newline)."""
    return json.dumps(schema(name), indent=2, ensure_ascii=False) + "\n"


def cmd_schema(args: argparse.Namespace) -> int:
    """Print (or write) the schemas of the answers."""
    if args.name and args.name not in ANSWERS:
        raise InputError(_("no answer {name!r}: answers are {names}").format(name=args.name,
                                                                             names=", ".join(ANSWERS)))
    names = [args.name] if args.name else list(ANSWERS)
    if args.write:
        folder = Path(args.write)
        for n in names:  # all checked before one is written
            refuse_existing(args, "--write", folder / f"{n}.json")
        folder.mkdir(parents=True, exist_ok=True)
        for n in names:
            atomic_write_text(folder / f"{n}.json", schema_text(n))
        sys.stdout.write("\n".join(str(folder / f"{n}.json") for n in names) + "\n")
    elif args.name:
        sys.stdout.write(schema_text(args.name))
    elif args.all:
        sys.stdout.write(json.dumps({n: schema(n) for n in names}, indent=2, ensure_ascii=False) + "\n")
    else:
        width = max(map(len, names))
        for n in names:
            doc = " ".join((ANSWERS[n].__doc__ or "").split("\n\n")[0].split())
            sys.stdout.write(f"{n:<{width}}  {doc if len(doc) <= 96 else doc[:95] + '…'}\n")
    return 0
