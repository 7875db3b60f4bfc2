"""Every command of the parser with each of its options, on the SYNTHETIC Nordwestschweiz day (nordwestschweiz,
2026-06-13, tests/support/nws_synthetic.py): the runs of :mod:`tests.support.every_option`, as on the Zug day
(tests/cli/test_every_command_and_option_zug.py), on variant B's rules (two dice, no change window, walks)."""

from __future__ import annotations

import pytest

from tests.support import IC1_2019
from tests.support import every_option as eo
from tests.support.download_server import RangeHandler, serving

pytestmark = [pytest.mark.long, pytest.mark.needs_shared]  # reads ../shared (tests/project/test_suite_without_shared.py)

CASES = [(words, name) for words, parser in eo.commands() for name, _ds in eo.cases(words, parser)]


@pytest.fixture(scope="module")
def day(tmp_path_factory, nws_feed, nws_date):
    tmp = tmp_path_factory.mktemp("every-option-nws")
    with pytest.MonkeyPatch.context() as mp, serving(tmp, RangeHandler, IC1_2019.read_bytes()) as url:
        mp.setenv("PLANNER_STATE", str(tmp / "state.sqlite"))
        d = eo.make_day(tmp, str(nws_feed), "nordwestschweiz", nws_date.isoformat(), "Basel SBB", "Liestal", "21",
                        toll_line="Zwingen–Grellingen", tunnel="Adlertunnel")
        d.url = url  # feed download: the small 2019 extract from a loopback server
        yield d
    d.files["_socket"].close()  # type: ignore[attr-defined]


@pytest.mark.parametrize(("words", "case"), CASES, ids=[f"{' '.join(w)}:{c}" for w, c in CASES])
def test_every_command_answers_each_option_on_the_nordwestschweiz_day(day, words, case, monkeypatch, tmp_path):
    monkeypatch.setenv("PLANNER_STATE", day.state)
    monkeypatch.setenv("PLANNER_MAPS_DIR", str(tmp_path))
    monkeypatch.setenv("PLANNER_EVERY_OPTION_KEY", "k")
    day.tmp = tmp_path  # outputs of this run go beside it (a file that exists would be refused)
    parser = dict(eo.commands())[words]
    argv = eo.argv(day, words, parser, dict(eo.cases(words, parser))[case])
    eo.check(words, argv, *eo.run(argv))
