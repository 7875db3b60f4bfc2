"""``planner`` command line: one-line errors (exit 2), JSON errors with ``--json``, never a traceback."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from collections.abc import Callable

from planner.commands.argtypes import apply_defaults
from planner.commands.grammar import register_all
from planner.errors import PlannerError


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors as one line (JSON with --json) and exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        where = self.prog.removeprefix("planner").strip()
        raise PlannerError(f"{message} (see 'planner {where + ' ' if where else ''}--help')")


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with all commands (:mod:`planner.commands.grammar`)."""
    p = _Parser(prog="planner", description="Timetable answers for SBB-Monopoly (Source: opentransportdata.swiss)")
    sub = p.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")
    register_all(sub)
    apply_defaults(p)
    return p


def handler(ref: str) -> Callable[[argparse.Namespace], int]:
    """The function ``"module:function"`` of :mod:`planner.commands`. Imported here, when its command runs: the
    handlers load the routing kernels, pandas or folium (together about 2.5 s), which ``--help`` and a usage
    error never need (measured with ``python -X importtime``)."""
    module, _, name = ref.partition(":")
    return getattr(importlib.import_module(f"planner.commands.{module}"), name)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; returns the exit code."""
    argv = sys.argv[1:] if argv is None else argv
    want_json = "--json" in argv
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if not getattr(args, "handler", None):
            parser.print_help()
            return 2
        rc = handler(args.handler)(args)
        return int(rc or 0)
    except PlannerError as exc:
        _report(str(exc), want_json)
        return exc.exit_code
    except KeyboardInterrupt:
        _report("interrupted", want_json)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:  # the machine refused a read or write (disk full, busy, permissions): not a bug
        where = f"{exc.filename}: " if exc.filename else ""
        _report(f"{where}{exc.strerror or type(exc).__name__}", want_json)
        return 2
    except Exception as exc:  # noqa: BLE001 - last line of defence: never a traceback for users
        if os.environ.get("PLANNER_DEBUG"):
            raise
        _report(f"internal error: {type(exc).__name__}: {exc} (set PLANNER_DEBUG=1 for details)", want_json)
        return 3


def _report(message: str, want_json: bool) -> None:
    line = " ".join(str(message).split())
    if want_json:
        sys.stdout.write(json.dumps({"error": line}, ensure_ascii=False) + "\n")
    sys.stderr.write(f"planner: error: {line}\n")


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
