"""Many simulated days, and every group's day in them legal: its log of rides passes the check ``planner zugzwang
--check`` makes (the same use case, :func:`planner.service.read.decisions.check_log`), at the feed's change times and at a
slow group's 5 minutes. Rules meet here: a roll while seated at a stop (staying seated is no change), a free roll
after getting off (the change time from the platform still applies), the 29-minute window, the game's end."""

from __future__ import annotations

import pytest

from planner.lab.day import DayConfig
from planner.lab.run import RunSpec, keep, run_days
from planner.service import GameDay
from planner.service.read.decisions import LogLeg, check_log
from planner.util.timefmt import parse_clock
from tests.support import DEMO_DATE, ZUG
from tests.support.answers import plain

pytestmark = [pytest.mark.long, pytest.mark.needs_shared]  # one worker runs a module (--dist loadfile); this one early

DAYS, GROUPS, SEED = 20, 6, 3  # before the fixes 2 of these 120 group-days broke a rule, 4 at 5 minutes


@pytest.mark.parametrize("min_transfer", [None, 5.0])
def test_every_simulated_group_day_is_legal(sbb_game, min_transfer):
    spec = RunSpec(str(ZUG), "sbb-monopoly", DEMO_DATE.isoformat(), min_transfer,
                   DayConfig(GROUPS, "mix", SEED, trace=True))
    day = GameDay(str(ZUG), sbb_game, DEMO_DATE, min_transfer_minutes=min_transfer).warm()
    keep(spec, day)
    broken, checked = [], 0
    for r in run_days(spec, DAYS, executor="serial"):
        assert r.errors == [] and r.conserved
        for line in (x for x in r.trace if x["type"] == "legs" and x["legs"]):
            legs = [LogLeg(i + 1, leg["from"], leg["to"], parse_clock(leg["departure"]), parse_clock(leg["arrival"]),
                           leg.get("from_platform"), leg.get("to_platform")) for i, leg in enumerate(line["legs"])]
            res = plain(check_log(day, legs))
            checked += 1
            if not res["ok"]:
                broken.append((r.index, line["group"], res["violations"][:2]))
    assert checked >= DAYS * GROUPS * 0.9  # nearly every group rides (a group out of money may not)
    assert broken == []
