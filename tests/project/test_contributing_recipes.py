"""Each recipe of docs/contributing.md holds: what it says to add in one place is all a change needs, because
everything else derives from that place (one declaration of each list; issue 44)."""

from __future__ import annotations

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
