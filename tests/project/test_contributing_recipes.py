"""Each recipe of docs/contributing.md holds: what it says to add in one place is all a change needs, because
everything else derives from that place (one declaration of each list; issue 44)."""

from __future__ import annotations

import argparse
import ast
import inspect
import re
import subprocess
from typing import get_args, get_type_hints

from planner.gamefile.schema import GameSection
from planner.util.i18n import LANGUAGES
from tests.support import ROOT


def test_every_catalog_is_a_language_and_every_language_has_a_catalog():
    """``planner/locale/XX`` and ``LANGUAGES`` name the same languages: a catalog nobody can choose, or a
    language without a catalog, is a recipe half done."""
    catalogs = {p.parent.parent.name for p in (ROOT / "planner" / "locale").glob("*/LC_MESSAGES/messages.po")}
    assert catalogs == set(LANGUAGES)


def test_the_page_names_every_language_for_its_switch(tmp_path):
    """The page's switch makes one button per language the page names (tests/js/i18n.test.js), and the page
    names the server's list."""
    from planner.service.answers.group_status import GameInfo
    from planner.web.answers import Answers
    from planner.web.app import WebApp
    from planner.web.days import Days

    app = WebApp(Answers(tmp_path / "s.sqlite", Days(None)))
    info = GameInfo(id="g", name="G", game="x", title="X", date="2021-09-11", dice=1, dice_from="12:30",
                    end="17:55", rule=None, admissible_extra_minutes=None, language="de")
    page = app.page("group.html", {"game": {"id": "g", "name": "G"}, "number": 1, "name": "Rot", "info": info,
                                   "poll_ms": None}, lang="fr").body.decode()
    assert f'data-languages="{" ".join(LANGUAGES)}"' in page
    assert 'id="languages"' in page


def test_the_makefile_compiles_the_catalog_of_every_language():
    out = subprocess.run(["make", "-s", "--no-print-directory", "-f", "Makefile", "-f", "-", "langs"], cwd=ROOT,
                         input="langs:\n\t@echo $(LANGS)\n", capture_output=True, text=True, check=True).stdout
    assert tuple(out.split()) == LANGUAGES


def test_a_game_file_may_choose_every_language_and_no_other():
    hint = get_type_hints(GameSection)["language"]
    assert set(get_args(get_args(hint)[0])) == set(LANGUAGES)


def _commands(parser=None, path=()) -> dict[tuple[str, ...], object]:
    """Every command the parser knows (``("ledger", "buy")``) -> its handler."""

    from planner.cli import build_parser

    parser = parser or build_parser()
    out = {}
    for action in parser._actions:  # argparse has no public walk over its commands
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                out |= _commands(sub, (*path, name))
    if not out and path:
        out[path] = parser.get_default("handler")
    return out


def test_every_command_runs_a_handler_function_that_names_its_code():
    """A command's handler is a function (go to definition leads to it), and the command function it imports
    exists in its module (read, not imported: the start-up stays light)."""

    from planner.commands import handlers

    commands = _commands()
    assert len(commands) >= 29
    wrong = [c for c, h in commands.items() if not (inspect.isfunction(h) and h.__module__ == handlers.__name__)]
    assert wrong == []
    for fn in {h for h in commands.values()}:
        node = next(n for n in ast.walk(ast.parse(inspect.getsource(fn))) if isinstance(n, ast.ImportFrom))
        module = ROOT / (node.module.replace(".", "/") + ".py")
        defined = {d.name for d in ast.parse(module.read_text("utf-8")).body if isinstance(d, ast.FunctionDef)}
        assert node.names[0].name in defined, f"{fn.__name__}: {node.module}.{node.names[0].name} is gone"


def test_every_command_is_in_the_command_reference():
    """docs/commands.md names each command as a user types it (``planner ledger buy``, in code: ``ledger end``, or
    its alternatives written together: ``map route|target|reach``)."""

    text = (ROOT / "docs" / "commands.md").read_text("utf-8")
    named = set()
    for m in re.finditer(r"(?:planner|`)((?: ?[a-z][a-z-]*(?:\|[a-z-]+)*)+)", text):
        words = m[1].split()
        words = words[1:] if words[:1] == ["planner"] else words
        for i in range(1, len(words) + 1):
            *head, last = words[:i]
            named |= {(*head, alt) for alt in last.split("|")}
    assert sorted(c for c in _commands() if c not in named) == []


def test_every_event_kind_has_its_command_and_its_phone_fields():
    """A kind of ledger event is declared once (planner/ledger/kinds.py): the command line has an action with an
    option for each of its facts, the phone's ledger request accepts it and its fields, the ledger records it."""

    from planner.cli import build_parser
    from planner.ledger.kinds import CLI, KINDS, WEB, recorded_as, told, told_by
    from planner.ledger.money_rules import EVENT_KINDS
    from planner.service.change.ledger_events import KINDS as REQUESTS
    from planner.util.i18n import _, use_language
    from planner.web.answers import LEDGER_EVENTS, Answers

    fields = set(Answers.ledger_event.fields)

    def subparsers(p: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
        return next(a for a in p._actions if isinstance(a, argparse._SubParsersAction)).choices

    actions = subparsers(subparsers(build_parser())["ledger"])
    # the command line's ledger actions are the kinds it may tell, then the organiser's and the reading ones
    assert list(actions) == [*told_by(CLI), "sent", "void", "status", "now", "end", "feed"]
    for kind in KINDS:
        assert kind.name in REQUESTS and recorded_as(kind.name) in EVENT_KINDS
        if CLI in kind.doors:
            options = {o: a for a in actions[kind.name]._actions for o in a.option_strings}
            assert {f"--{f.replace('_', '-')}" for f in kind.fields} <= set(options), kind.name
            required = {o for o, a in options.items() if a.required} - {"--group"}
            assert required == {f"--{f.replace('_', '-')}" for f in kind.required}, kind.name
            for lang in ("de", "fr"):  # a kind's line in --help comes from the catalog, translated
                with use_language(lang):
                    assert kind.help and _(kind.help) != kind.help, (lang, kind.name)
        assert (kind.name in LEDGER_EVENTS) == (WEB in kind.doors)
        if WEB in kind.doors:
            assert set(kind.fields) <= fields, kind.name
    assert told("parking", empty=True) == "parking_empty" and recorded_as("pay") == "fee"


def _read_keys(fn, functions: dict) -> set[str]:
    """The keys a function of planner/web/answers.py reads from ``body``: ``text_field(body, "at")``,
    ``self._time(play, body, "time")``, ``body.get("dice")``, and those of the module's helpers it hands ``body``."""

    keys: set[str] = set()
    for node in ast.walk(fn):
        if not isinstance(node, ast.Call):
            continue
        args = node.args
        on_body = isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) \
            and node.func.value.id == "body"
        at = next((i for i, a in enumerate(args) if isinstance(a, ast.Name) and a.id == "body"), None)
        if on_body and args and isinstance(args[0], ast.Constant):
            keys.add(args[0].value)
        elif at is not None and at + 1 < len(args) and isinstance(args[at + 1], ast.Constant):
            keys.add(args[at + 1].value)
        elif at is not None and isinstance(node.func, ast.Name) and node.func.id in functions:
            keys |= _read_keys(functions[node.func.id], functions)
    return keys


def test_every_phone_request_accepts_exactly_the_fields_its_answer_reads():
    """A request's fields are named once, where its answer parses them (``@reads`` in planner/web/answers.py):
    the app accepts those and no other, and the answer reads no field it did not declare."""

    from planner.web.answers import Answers

    tree = ast.parse((ROOT / "planner" / "web" / "answers.py").read_text("utf-8"))
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    methods = {n.name: n for c in tree.body if isinstance(c, ast.ClassDef) and c.name == "Answers"
               for n in c.body if isinstance(n, ast.FunctionDef)}
    declared = {name: {*getattr(Answers, name).fields, *getattr(Answers, name).path} for name in methods
                if hasattr(getattr(Answers, name), "fields")}
    assert len(declared) >= 7
    read = {name: _read_keys(methods[name], functions) - {"lang"} for name in declared}
    assert read == declared


def test_every_shipped_game_variant_loads_with_its_money_rules():
    """A variant is a TOML file in planner/games/ (data, never ``if variant ==``): each one the planner ships parses
    against the schema and yields its money rules, and its [game] language is one of the languages."""
    from planner.gamefile.game import builtin_games, load_game
    from planner.ledger.money_rules import ledger_rules

    names = builtin_games()
    assert {"sbb-monopoly", "nordwestschweiz"} <= set(names)
    for name in names:
        game = load_game(name)
        assert ledger_rules(game).start_cash > 0, name
        assert game.language in (*LANGUAGES, None), name


def test_every_card_effect_of_the_schema_has_its_rule_in_the_ledger():
    """A card effect is named in the game file's schema (``CardEntry.effect``), done in planner/ledger/cards.py (or
    kept until played: ``KEPT_EFFECTS``) and said on the page (planner/web/static/rules_more.js, ``cardEffectText``;
    ``keep`` is its default): none is declared without its rule and its sentence."""


    from planner.gamefile.schema import CardEntry
    from planner.ledger.money_rules import KEPT_EFFECTS

    effects = set(get_args(get_type_hints(CardEntry)["effect"]))
    code = ast.parse((ROOT / "planner" / "ledger" / "cards.py").read_text("utf-8"))
    named = {n.value for n in ast.walk(code) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    assert effects - named - set(KEPT_EFFECTS) == set()
    said = set(re.findall(r'case "(\w+)"', (ROOT / "planner" / "web" / "static" / "rules_more.js").read_text("utf-8")))
    assert effects - said == {"keep"}
