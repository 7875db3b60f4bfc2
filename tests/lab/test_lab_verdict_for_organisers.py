"""The lab's verdict is one an organiser can use, in the organiser's language: at most five findings, each with its
evidence and what to do, the variant's own rules named (variant B has no 29-minute rule), the feed's cut named as
the cause of targets it lacks, the payback ranking and start regions up front and the rest folded; a German report
holds no English sentence (the same run in English shares no run of four words with it, names aside). The days are
written in tests/support/play_day.py (variant A's lacks 15 of its 20 targets; variant B's is small)."""

from __future__ import annotations

import re

import pytest

from planner.cli import main

RUN = ["--groups", "4", "--days", "2", "--seed", "1", "--executor", "serial"]
FINDING = re.compile(r"^(\d)\. (.+)\n   -> (.+)$", re.M)


def _simulate(capsys, lang: str, day: list[str], out) -> str:
    rc = main(["simulate", *day, *RUN, "--lang", lang, "--out", str(out)])
    text = capsys.readouterr().out
    assert rc == 0, text
    return text


def _runs(words: str, names: set[str]) -> set[str]:
    """Every run of four words of a text, names (stations, targets, strategies) blanked first."""
    for name in sorted(names, key=len, reverse=True):
        words = words.replace(name, "§")
    runs = set()
    for piece in re.split(r"[^A-Za-zÀ-ÿ'’ ]+", words):  # a number or a sign ends a run
        w = piece.split()
        runs |= {" ".join(w[i:i + 4]) for i in range(len(w) - 3)}
    return runs


def _english_left(de: str, en: str, names: set[str]) -> set[str]:
    return _runs(de, names) & _runs(en, names)


@pytest.fixture(scope="module")
def reports(play_argv, variant_b_argv):
    return {"A": play_argv, "B": variant_b_argv}


@pytest.mark.parametrize("variant", ["A", "B"])
def test_the_german_verdict_is_at_most_five_findings_each_with_evidence_and_action(variant, reports, capsys, tmp_path,
                                                                                   sbb_game, nws_game):
    de = _simulate(capsys, "de", reports[variant], tmp_path / "de.html")
    en = _simulate(capsys, "en", reports[variant], tmp_path / "en.html")
    found = FINDING.findall(de)
    assert 1 <= len(found) <= 5 and [int(n) for n, _, _ in found] == list(range(1, len(found) + 1)), de
    assert all(len(evidence) > 40 and len(action) > 30 for _, evidence, action in found)
    game = sbb_game if variant == "A" else nws_game
    names = {n for t in game.dice.targets for n in (*t.stations, t.toll_line or "", t.tunnel or "") if n}
    names |= {"random", "greedy", "fast", "ic", "planner simulate", "planner check-area", "planner feed download"}
    names |= set(re.findall(r"^\d+\s+(\S.*?\S)\s{2,}", de, re.M))  # the station table's names
    assert _english_left(de, en, names) == set()
    page = (tmp_path / "de.html").read_text("utf-8")
    head, folded = page.split('<details id="details">')
    assert 1 <= head.count('<p class="evidence">') == head.count('<p class="action">') <= 5
    assert 'class="payback"' in head and 'class="start-regions"' in head  # up front
    assert 'id="lab-map"' in folded and 'class="stations"' in folded  # the rest folded


def test_variant_b_is_never_said_to_be_played_with_the_29_minute_rule(reports, capsys, tmp_path):
    de = _simulate(capsys, "de", reports["B"], tmp_path / "b.html")
    en = _simulate(capsys, "en", reports["B"], tmp_path / "b-en.html")
    assert "29" not in de.splitlines()[1] and "keinen Zugzwang" in de.splitlines()[1]
    assert "29-minute" not in en and "no change window" in en
    assert "29" not in re.search(r'<p id="lab-mode"[^>]*>(.*?)</p>', (tmp_path / "b.html").read_text("utf-8"))[1]


def test_variant_a_on_a_cut_feed_names_the_feeds_cut_as_the_cause(reports, capsys, tmp_path):
    en = _simulate(capsys, "en", reports["A"], tmp_path / "a.html")
    (first, evidence, action) = FINDING.findall(en)[0]
    assert evidence.startswith("15 of the 20 dice targets are not in the feed's timetable")
    assert "covers only part of the game's area" in evidence and "and 9 more" in evidence  # 6 named
    assert "Dice number 5 has no target on this feed." in evidence
    assert "planner feed download" in action
    assert "29-minute rule on every change" in en.splitlines()[1]


def test_the_report_page_fits_a_screen_or_two_with_its_details_folded(reports, capsys, tmp_path, browser):
    _simulate(capsys, "de", reports["B"], tmp_path / "b.html")
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    page.goto((tmp_path / "b.html").as_uri())
    folded = page.evaluate("document.documentElement.scrollHeight")
    page.locator("#details summary").click()
    opened = page.evaluate("document.documentElement.scrollHeight")
    page.close()
    assert folded <= 1800 < opened, (folded, opened)
