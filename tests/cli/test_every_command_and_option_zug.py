"""Every command of the parser with each of its options, on the Zug day (sbb-monopoly, 2021-09-11): generated
from :func:`planner.cli.build_parser` by :mod:`tests.support.every_option` (a new option without a value recipe
fails here, naming it). Each run answers 0, 1 (INVALID) or a refusal in one line (2); every ``--json`` answer is
checked against its published schema."""

from __future__ import annotations

import pytest

from tests.support import DEMO_DATE, ZUG
from tests.support import every_option as eo

pytestmark = [pytest.mark.long, pytest.mark.needs_shared]  # reads ../shared (tests/project/test_suite_without_shared.py)

CASES = [(words, name) for words, parser in eo.commands() for name, _ds in eo.cases(words, parser)]


@pytest.fixture(scope="module")
def day(tmp_path_factory):
    with eo.served_day(tmp_path_factory.mktemp("every-option-zug"), str(ZUG), "sbb-monopoly", DEMO_DATE.isoformat(),
                       "Zug", "Wohlen AG", "2", toll_line="Luzern–Rotkreuz", tunnel="Heitersberg") as d:
        yield d


@pytest.mark.parametrize(("words", "case"), CASES, ids=[f"{' '.join(w)}:{c}" for w, c in CASES])
def test_every_command_answers_each_option_on_the_zug_day(day, words, case, monkeypatch, tmp_path):
    eo.run_case(day, words, case, monkeypatch, tmp_path)


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
