"""Every command of the parser with each of its options, on the SYNTHETIC Nordwestschweiz day (nordwestschweiz,
2026-06-13, tests/support/nws_synthetic.py): the runs of :mod:`tests.support.every_option`, as on the Zug day
(tests/cli/test_every_command_and_option_zug.py), on variant B's rules (two dice, no change window, walks)."""

from __future__ import annotations

import pytest

from tests.support import every_option as eo

pytestmark = [pytest.mark.long, pytest.mark.needs_shared]  # reads ../shared (tests/project/test_suite_without_shared.py)

CASES = [(words, name) for words, parser in eo.commands() for name, _ds in eo.cases(words, parser)]


@pytest.fixture(scope="module")
def day(tmp_path_factory, nws_feed, nws_date):
    with eo.served_day(tmp_path_factory.mktemp("every-option-nws"), str(nws_feed), "nordwestschweiz",
                       nws_date.isoformat(), "Basel SBB", "Liestal", "21", toll_line="Zwingen–Grellingen",
                       tunnel="Adlertunnel") as d:
        yield d


@pytest.mark.parametrize(("words", "case"), CASES, ids=[f"{' '.join(w)}:{c}" for w, c in CASES])
def test_every_command_answers_each_option_on_the_nordwestschweiz_day(day, words, case, monkeypatch, tmp_path):
    eo.run_case(day, words, case, monkeypatch, tmp_path)
