"""Each rule is worded once (planner/gamefile/rule_texts.py): the command line, the phone's scripts and pages, the
printed rules card, the lab and the organiser's outputs show the service's sentence and never word the change
window, free movement or the jail themselves, so the doors cannot drift apart and each translation is made once."""

from __future__ import annotations

import json
import re
from pathlib import Path

from planner.cli import main
from planner.gamefile.rule_texts import TEXTS
from tests.support.inline_day import day_argv, demo_day

ROOT = Path(__file__).resolve().parents[2] / "planner"
ONE_PLACE = ROOT / "gamefile" / "rule_texts.py"
DOORS = [p for p in sorted(ROOT.rglob("*")) if p.suffix in (".py", ".js", ".html") and p != ONE_PLACE
         and "vendor" not in p.parts and "locale" not in p.parts]
# how a door words one of these rules when it does so itself (each of these was once in a door)
RULE_WORDS = re.compile(r"free movement until|^in jail (?:here |at )|^jail at \{station\}|minutes late or more"
                        r"|take a train depart|board a train leaving|board by \{deadline\}|nothing binds until"
                        r"|no change window in this game|must take the (?:next|first) one", re.I)


def _shown(path: Path) -> list[str]:
    """The texts a source gives the catalog (what a door shows): ``_("...")``, ``N_``, ``ngettext`` in Python,
    ``t("...")``, ``tn`` in scripts, ``_("...")`` and ``{% trans %}`` in templates (their first line)."""
    text = path.read_text("utf-8")
    return (re.findall(r'\b(?:_|N_|ngettext|t|tn)\(\s*"((?:[^"\\\n]|\\.)*)"', text)
            + re.findall(r"\b_\(\s*'((?:[^'\\\n]|\\.)*)'", text)
            + re.findall(r"{% trans[^%]*%}(.*?){% endtrans %}", text, re.S))


def test_no_door_words_a_rule_itself():
    worded = []
    for path in DOORS:
        for said in _shown(path):
            if RULE_WORDS.search(said) or said in TEXTS.values():
                worded.append(f"{path.relative_to(ROOT.parent)}: {said[:70]}")
    assert not worded, "a door words a rule itself (use planner/gamefile/rule_texts.py):\n" + "\n".join(worded)


def test_the_command_line_shows_the_services_sentence_of_the_change_window(capsys, tmp_path):
    """The same situation, asked as text and as JSON (the page shows the JSON's text): one sentence (on the demo
    day written in tests/support/inline_day.py)."""
    day = day_argv(demo_day(tmp_path))
    assert main(["zugzwang", *day, "--at", "Zug", "--time", "12:35", "--lang", "fr", "--json"]) == 0
    said = json.loads(capsys.readouterr().out)["text"]
    assert said["key"] == "window.got_off" and said["text"].startswith("descendus à Zug à 12:35 : prenez un train")
    assert main(["zugzwang", *day, "--at", "Zug", "--time", "12:35", "--lang", "fr"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == said["text"]
