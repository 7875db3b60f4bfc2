"""Seeded fuzzing of feed ingest on the hand-written fixture feed (``tests/fixtures/robust_feed``): mutated small
feeds either load into a valid timetable or fail in one line (the machinery: tests/support/feed_fuzz.py; the cases
on a slice of the real extract: tests/ingest/test_fuzz_feeds_real.py).

Each case applies one to three seeded mutations (rows dropped / duplicated / shuffled, columns dropped / swapped /
renamed, values corrupted, quotes, encodings, line ends, truncation, files deleted, zip damage) and calls
``build_timetable``. Allowed outcomes: a :class:`PlannerError` whose message is one line, or a timetable that passes
``validate()`` and the invariants. Anything else (any other exception) fails the case; the case number reproduces
it: ``pytest tests/ingest/test_fuzz_feeds.py -k "case_124]"``.
"""

from __future__ import annotations

import pytest

from tests.support.feed_fuzz import CASES, FIXTURE_DATE, fixture_feed, fuzz_case, load_cleanly, real_case


def test_the_fixture_feed_loads_cleanly(tmp_path):
    load_cleanly(tmp_path / "fixture", fixture_feed, FIXTURE_DATE)


@pytest.mark.parametrize("case", [c for c in range(CASES) if not real_case(c)], ids=lambda c: f"case_{c}")
def test_fuzzed_feed(tmp_path, case):
    """One mutated fixture feed: a one-line PlannerError or a timetable whose invariants hold."""
    fuzz_case(tmp_path, case, "fixture", fixture_feed, FIXTURE_DATE)
