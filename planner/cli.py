"""``planner`` command line: one-line errors (exit 2), JSON errors with ``--json``, never a traceback."""

from __future__ import annotations

import argparse
import functools
import json
import logging
import os
import re
import sys
from typing import NoReturn

from planner.commands.argtypes import apply_defaults
from planner.commands.grammar import register_all
from planner.commands.outputs import declare, guard
from planner.errors import PlannerError
from planner.util.i18n import N_, _, environment_language, languages, use_language

# argparse's own words in a help page, for the catalog (argparse asks its own gettext domain, which has none)
ARGPARSE_WORDS = (N_("usage: "), N_("options"), N_("positional arguments"), N_("show this help message and exit"))
# argparse's refusals, translated when argparse words them (its own "_" looks them up in the planner's catalog)
ARGPARSE_ERRORS = frozenset((
    N_("argument %(argument_name)s: %(message)s"), N_("unrecognized arguments: %s"), N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"), N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"), N_("expected one argument"), N_("expected at most one argument"),
    N_("expected at least one argument"), N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("invalid %(type)s value: %(value)r"), N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("unexpected option string: %s")))


def _argparse_text(message: str) -> str:
    """argparse's gettext: its refusals from the planner's catalog (its help words are translated by
    :class:`_Formatter`, when the page is written)."""
    return _(message) if message in ARGPARSE_ERRORS else message


argparse._ = _argparse_text  # argparse looks its words up through this module global when it words an error


class _Formatter(argparse.HelpFormatter):
    """A help page in the answers' language: the texts are marked with ``N_`` where the commands are declared and
    translated here, when the page is written (the language is known only then)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        return _(action.help) if action.help else action.help

    def add_text(self, text: str | None) -> None:
        super().add_text(_(text) if text and text is not argparse.SUPPRESS else text)

    def start_section(self, heading: str | None) -> None:
        super().start_section(_(heading) if heading else heading)

    def add_usage(self, usage, actions, groups, prefix: str | None = None) -> None:
        super().add_usage(usage, actions, groups, _("usage: ") if prefix is None else prefix)


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors as one line (JSON with --json) and exit code 2, and writes its help
    page in the answers' language."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        where = self.prog.removeprefix("planner").strip()
        sub = next((a for a in self._actions if isinstance(a, argparse._SubParsersAction)), None)
        required = _("the following arguments are required: %s").partition("%s")[0]
        if sub is not None and message.startswith(required) and str(sub.metavar) in message:
            message = (_("give a command: {choices}") if not where else _("give an action: {choices}")).format(
                choices=", ".join(sub.choices))
        raise PlannerError(_("{message} (see '{help}')").format(
            message=message, help=f"planner {where + ' ' if where else ''}--help"))


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with all commands (:mod:`planner.commands.grammar`)."""
    p = _Parser(prog="planner", description=N_("Timetable answers for SBB-Monopoly (Source: opentransportdata.swiss)"))
    sub = p.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")
    register_all(sub)
    apply_defaults(p)
    declare(p)
    _require_actions(p)
    _add_lang(p)
    return p


def _add_lang(parser: argparse.ArgumentParser) -> None:
    """``--lang`` on every command: the language of its answers (else $PLANNER_LANG, LC_ALL, LC_MESSAGES, LANG
    when they name one, else the game's)."""
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    for action in subs:
        for sub in set(action.choices.values()):
            _add_lang(sub)
    if not subs and parser.prog != "planner":
        parser.add_argument("--lang", choices=languages(), help=N_("language of the answers: %(choices)s (default: "
                                                              "$PLANNER_LANG, LC_ALL, LC_MESSAGES, LANG, else the "
                                                              "game's)"))


def _require_actions(parser: argparse.ArgumentParser) -> None:
    """Every command and action must be given: ``planner group`` alone is a one-line error, not the help."""
    for action in parser._actions:  # argparse has no public walk over its actions
        if isinstance(action, argparse._SubParsersAction):
            action.required = True
            for sub in set(action.choices.values()):
                _require_actions(sub)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; returns the exit code. Called without ``argv`` (as a program, not
    from Python code) it leaves the process itself once the command is done (:func:`_leave`)."""
    if argv is None:
        _leave(main(sys.argv[1:]), sys.argv[1:])
    want_json = "--json" in argv
    # the language of the answer, and already of a usage error or a refused output (before the arguments parse)
    with use_language(_asked_language(argv) or environment_language()):
        return _run(argv, want_json)


def _asked_language(argv: list[str]) -> str | None:
    """``--lang X`` (or ``--lang=X``) as given, read before the parser runs (its errors are answered in it)."""
    for i, a in enumerate(argv):
        if a == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if a.startswith("--lang="):
            return a.partition("=")[2]
    return None


def _parser() -> argparse.ArgumentParser:
    """The parser, built once per process and set of languages (14 ms of CPU): parsing never changes it, and its
    help texts are translated when printed, in the language of that call. A process that answers many commands (a
    test session) builds it once; the tests' pseudo-locale, when enabled, is one more choice of ``--lang``."""
    return _parser_for(languages())


@functools.cache
def _parser_for(langs: tuple[str, ...]) -> argparse.ArgumentParser:
    return build_parser()


def _run(argv: list[str], want_json: bool) -> int:
    try:
        parser = _parser()
        args = parser.parse_args(argv)
        if not getattr(args, "handler", None):
            parser.print_help()
            return 2
        guard(args)  # no output onto the state, the cache, an input or another output: before anything runs
        rc = args.handler(args)  # a command that loads its game uses the game's when none was chosen
        return int(rc or 0)
    except PlannerError as exc:
        _report(str(exc), want_json)
        return exc.exit_code
    except KeyboardInterrupt:
        _report(_("interrupted"), want_json)
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
        _report(_("internal error: {error} (set PLANNER_DEBUG=1 for details)").format(
            error=f"{type(exc).__name__}: {exc}"), want_json)
        return 3


def _leave(rc: int, argv: list[str]) -> NoReturn:
    """Exit with ``rc`` after flushing the output, without the interpreter's teardown once pyarrow ran: its
    thread pool can abort the process while it is torn down (apache/arrow#34314, open), which turned a
    right error line into exit 134. Nothing else is left to do then: files are written atomically and
    closed, transactions committed. ``serve`` keeps the normal exit (its routing child is stopped by it)."""
    try:
        sys.stdout.flush()
    except (BrokenPipeError, ValueError):  # the reader went away: the exit code still counts
        pass
    sys.stderr.flush()
    if "pyarrow" in sys.modules and "serve" not in argv[:1]:
        logging.shutdown()
        os._exit(rc)
    raise SystemExit(rc)


LONG_WORD = re.compile(r"\S{201,}")  # a value of over 200 characters without a blank: a path is shorter


def _report(message: str, want_json: bool) -> None:
    # a value typed wrong is echoed, but a 10,000-character one cut in the middle: the line stays one to read
    line = LONG_WORD.sub(lambda m: f"{m[0][:120]}…{m[0][-60:]}", " ".join(str(message).split()))
    if want_json:
        sys.stdout.write(json.dumps({"error": line}, ensure_ascii=False) + "\n")
    sys.stderr.write("planner: " + _("error: {error}").format(error=line) + "\n")


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
