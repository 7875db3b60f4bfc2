"""Every command of the parser with each of its options, on the Zug day (sbb-monopoly, 2021-09-11): generated
from :func:`planner.cli.build_parser` by :mod:`tests.support.every_option` (a new option without a value recipe
fails here, naming it). Each run answers 0, 1 (INVALID) or a refusal in one line (2); every ``--json`` answer is
checked against its published schema."""

from __future__ import annotations

import pytest

from tests.support import DEMO_DATE, IC1_2019, ZUG
from tests.support import every_option as eo
from tests.support.download_server import RangeHandler, serving

pytestmark = [pytest.mark.long, pytest.mark.needs_shared]  # reads ../shared (tests/project/test_suite_without_shared.py)

CASES = [(words, name) for words, parser in eo.commands() for name, _ds in eo.cases(words, parser)]


@pytest.fixture(scope="module")
def day(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("every-option-zug")
    with pytest.MonkeyPatch.context() as mp, serving(tmp, RangeHandler, IC1_2019.read_bytes()) as url:
        mp.setenv("PLANNER_STATE", str(tmp / "state.sqlite"))
        d = eo.make_day(tmp, str(ZUG), "sbb-monopoly", DEMO_DATE.isoformat(), "Zug", "Wohlen AG", "2",
                        toll_line="Luzern–Rotkreuz", tunnel="Heitersberg")
        d.url = url  # feed download: the small 2019 extract from a loopback server
        yield d
    d.files["_socket"].close()  # type: ignore[attr-defined]


@pytest.mark.parametrize(("words", "case"), CASES, ids=[f"{' '.join(w)}:{c}" for w, c in CASES])
def test_every_command_answers_each_option_on_the_zug_day(day, words, case, monkeypatch, tmp_path):
    monkeypatch.setenv("PLANNER_STATE", day.state)
    monkeypatch.setenv("PLANNER_MAPS_DIR", str(tmp_path))
    monkeypatch.setenv("PLANNER_EVERY_OPTION_KEY", "k")
    day.tmp = tmp_path  # outputs of this run go beside it (a file that exists would be refused)
    parser = dict(eo.commands())[words]
    argv = eo.argv(day, words, parser, dict(eo.cases(words, parser))[case])
    eo.check(words, argv, *eo.run(argv))


def test_every_option_of_every_command_is_run():
    for words, parser in eo.commands():
        missing = {a.dest for a in eo.options(parser)} - eo.covered(words, parser)
        assert not missing, f"planner {' '.join(words)}: options never run: {sorted(missing)}"


def test_an_option_without_a_value_recipe_fails_naming_it():
    import argparse

    parser = argparse.ArgumentParser(prog="planner stations")
    parser.add_argument("--brand-new-option")
    with pytest.raises(AssertionError, match="planner stations: option 'brand_new_option' has no value recipe"):
        eo.cases(("stations",), parser)
