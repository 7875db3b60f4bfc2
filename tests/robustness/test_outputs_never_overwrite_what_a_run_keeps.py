"""No output option of any command writes onto the state file, the cache, the config file, an input of the same run
or another output of it: one line, exit 2, nothing touched, whether the output names the file itself, a symlink to
it, a hard link of it or a path through ``..``.

The table is generated from the parser itself (:func:`planner.cli.build_parser`): every command with an output
option, every output option of it, against every file the run keeps or reads, each through every alias; a command
that gains an output or an input option is fuzzed without a change here. Each refused run stops before the command
loads anything, so the few hundred runs take a few seconds.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
from pathlib import Path

import pytest

from planner.cli import build_parser, main
from planner.commands.outputs import guard
from tests.support import assert_one_line_error
from tests.support.inline_day import day_argv, inline_day, stop_times_txt, stops_txt

# values of the required options that are not files (the refusal comes before they are looked at)
REQUIRED = {"target": "Luzern", "roll": "2", "out": None}
INPUT_FILES = {"feed": "feed.zip", "game": "game.toml", "realtime": "rt.pb", "links": "links.json",
               "batch": "batch.csv", "check": "legs.csv", "owners": "owners.toml"}


def _commands() -> list[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """Every command (as its words) with at least one output option."""
    found = []

    def walk(words: tuple[str, ...], parser: argparse.ArgumentParser) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk((*words, name), sub)
        if parser.get_default("outputs"):
            found.append((words, parser))

    walk((), build_parser())
    return found


COMMANDS = _commands()


def _base_argv(words: tuple[str, ...], parser: argparse.ArgumentParser, tmp: Path) -> list[str]:
    """The command with its required options and every input option given a file in ``tmp``."""
    argv = list(words)
    for action in parser._actions:
        if action.required and action.option_strings and REQUIRED.get(action.dest, "") is not None:
            argv += [action.option_strings[0], REQUIRED[action.dest]]
    for dest, opt in parser.get_default("inputs"):
        argv += [opt, str(tmp / INPUT_FILES[dest])]
    return argv


def _targets(words: tuple[str, ...], parser: argparse.ArgumentParser) -> list[str]:
    """What an output of this command must never be written onto."""
    targets = ["state file", "state -wal file", "cache member", "new file in the cache", "config file"]
    targets += [f"input {opt}" for _dest, opt in parser.get_default("inputs")]
    if any(dest == "feed" for dest, _opt in parser.get_default("inputs")):
        targets.append("member of a feed folder")
    if len(parser.get_default("outputs")) > 1:
        targets.append("another output")
    return targets


ALIASES = ("itself", "symlink", "hard link", "through ..")
CASES = [(words, opt, target, alias)
         for words, parser in COMMANDS
         for _dest, opt, folder in parser.get_default("outputs") if not folder
         for target in _targets(words, parser)
         for alias in ALIASES]


@pytest.fixture
def world(tmp_path, monkeypatch) -> Path:
    """A state file, a cache with a member, a config file and every kind of input file, all in ``tmp_path``."""
    state, cache = tmp_path / "state" / "s.sqlite", tmp_path / "cache"
    state.parent.mkdir()
    state.write_bytes(b"SQLite format 3\0 every game, token and ledger")
    state.with_name("s.sqlite-wal").write_bytes(b"wal frames")
    (cache / "lab").mkdir(parents=True)
    (cache / "lab" / "rates.json").write_text('{"kept": "rates"}')
    (tmp_path / "config.toml").write_text('game = "sbb-monopoly"\n')
    for name in INPUT_FILES.values():
        (tmp_path / name).write_text(f"input {name}\n")
    (tmp_path / "feedfolder").mkdir()
    (tmp_path / "feedfolder" / "stops.txt").write_text("stop_id,stop_name\n")
    monkeypatch.setenv("PLANNER_STATE", str(state))
    monkeypatch.setenv("PLANNER_CACHE", str(cache))
    monkeypatch.setenv("PLANNER_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _target_path(tmp: Path, target: str) -> Path:
    fixed = {"state file": "state/s.sqlite", "state -wal file": "state/s.sqlite-wal",
             "cache member": "cache/lab/rates.json", "new file in the cache": "cache/timetables/new.html",
             "config file": "config.toml", "member of a feed folder": "feedfolder/stops.txt"}
    if target in fixed:
        return tmp / fixed[target]
    opt = target.removeprefix("input ")
    return tmp / INPUT_FILES[opt.removeprefix("--")]


def _alias(tmp: Path, path: Path, alias: str) -> Path:
    """A name of ``path`` as a user might pass it."""
    aliases = tmp / "aliases"
    aliases.mkdir(exist_ok=True)
    if alias == "symlink":
        (aliases / "link").symlink_to(path)
        return aliases / "link"
    if alias == "hard link":
        if not path.exists():
            return aliases / ".." / path.relative_to(tmp)
        os.link(path, aliases / "hard")
        return aliases / "hard"
    if alias == "through ..":
        return aliases / ".." / path.relative_to(tmp)
    return path


def _snapshot(tmp: Path) -> dict[str, bytes | str]:
    """Every file and link under ``tmp`` with its bytes (a link: where it points)."""
    out: dict[str, bytes | str] = {}
    for p in sorted(tmp.rglob("*")):
        if p.is_symlink():
            out[str(p)] = os.readlink(p)
        elif p.is_file():
            out[str(p)] = p.read_bytes()
    return out


@pytest.mark.parametrize(("words", "opt", "target", "alias"), CASES,
                         ids=[f"{' '.join(w)} {o} onto {t} ({a})" for w, o, t, a in CASES])
def test_an_output_onto_what_the_run_keeps_is_refused_and_nothing_is_touched(words, opt, target, alias, world,
                                                                               capsys):
    parser = dict(COMMANDS)[words]
    argv = _base_argv(words, parser, world)
    if target == "member of a feed folder":
        argv[argv.index("--feed") + 1] = str(world / "feedfolder")
    if target == "another output":
        other = next(o for _d, o, _f in parser.get_default("outputs") if o != opt)
        victim = world / "report.out"
        argv += [other, str(victim)]
    else:
        victim = _target_path(world, target)
    out = _alias(world, victim, alias)
    before = _snapshot(world)
    rc = main([*argv, opt, str(out)])
    assert_one_line_error(rc, capsys.readouterr().err, opt, "nothing written")
    assert _snapshot(world) == before


@pytest.mark.parametrize("words", [w for w, _p in COMMANDS], ids=[" ".join(w) for w, _p in COMMANDS])
def test_an_output_of_its_own_passes_the_guard(words, world):
    """Every output of the command on a path of its own passes and nothing is written; the same run with its first
    output moved onto the state file (a folder output: into the cache) is refused, so these very arguments reach the
    guard's checks."""
    from planner.errors import InputError

    parser = dict(COMMANDS)[words]
    argv = _base_argv(words, parser, world)
    outputs = []
    for i, (_dest, opt, folder) in enumerate(parser.get_default("outputs")):
        outputs += [opt, str(world / "out" / (f"folder{i}" if folder else f"file{i}.out"))]
    before = _snapshot(world)
    assert guard(build_parser().parse_args([*argv, *outputs])) is None
    assert _snapshot(world) == before and not (world / "out").exists()
    first_is_folder = parser.get_default("outputs")[0][2]
    kept = world / "cache" / "feeds" if first_is_folder else _target_path(world, "state file")
    with pytest.raises(InputError, match="nothing written"):
        guard(build_parser().parse_args([*argv, outputs[0], str(kept), *outputs[2:]]))


def test_the_handouts_pages_may_not_replace_an_input(world, capsys):
    (world / "h-p2.png").write_text("a page the organiser keeps as the --links file")
    rc = main(["handout", "--links", "h-p2.png", "--out", "h.pdf"])
    assert_one_line_error(rc, capsys.readouterr().err, "--out", "h-p*.png", "--links")
    assert (world / "h-p2.png").read_text().startswith("a page")


def test_a_download_folder_inside_the_cache_is_refused(world, capsys):
    rc = main(["feed", "download", "--out", str(world / "cache" / "feeds")])
    assert_one_line_error(rc, capsys.readouterr().err, "inside the cache folder")
    assert not (world / "cache" / "feeds").exists()


def test_every_command_that_writes_files_is_fuzzed():
    """The table covers the commands known to write files (a command losing its declared output would vanish
    from it silently)."""
    names = {" ".join(w) for w, _p in COMMANDS}
    assert {"simulate", "export", "check-area", "handout", "map area", "map route", "map target", "map reach",
            "feed download"} <= names
    assert len(CASES) >= 250



def test_a_lab_trace_onto_the_real_state_file_keeps_every_game(tmp_path, monkeypatch, capsys):
    """The case as it was met: ``simulate --trace "$PLANNER_STATE"`` replaced a real game's state with JSON lines."""
    state = tmp_path / "groups.sqlite"
    monkeypatch.setenv("PLANNER_STATE", str(state))
    # a day written here: from Zug, Wohlen AG (a 2's target) by S1 to Rotkreuz and S2
    day = day_argv(inline_day(
        tmp_path / "day", stops=stops_txt("Zug", "Rotkreuz", "Wohlen AG"),
        trips="route_id,service_id,trip_id\nS1,SA,s1\nS2,SA,s2\n",
        stop_times=stop_times_txt(("s1", [("Zug", "12:45", "12:45"), ("Rotkreuz", "13:00", "13:00")]),
                                  ("s2", [("Rotkreuz", "13:05", "13:05"), ("Wohlen AG", "13:30", "13:30")]))))
    assert main(["roll", *day, "--group", "Rot", "--dice", "2", "--at", "Zug", "--time", "12:40"]) == 0
    capsys.readouterr()
    gc.collect()  # the roll's connection closed (its last checkpoint written) before the file is read
    before = state.read_bytes()
    rc = main(["simulate", *day, "--days", "1", "--groups", "1", "--executor", "serial", "--trace", str(state)])
    assert_one_line_error(rc, capsys.readouterr().err, "--trace", "is the state file", "nothing written")
    assert state.read_bytes() == before
    assert main(["group", "status", *day, "--group", "Rot", "--json"]) == 0
    assert [r["target"] for r in json.loads(capsys.readouterr().out)["rolls"]] == ["Wohlen AG"]
