"""Every text a user can meet passes through the catalog, proven in the tests' pseudo-locale (``qps``,
:mod:`planner.util.pseudo`): every catalog text there is accented and bracketed, so a plain Latin word left in an
answer, once the data (stations, lines, groups, options, paths, numbers, times) is set aside, is a text the code
wrote itself (:func:`tests.support.pseudo_check.untranslated`). Checked: the command line's refusals (a table of bad
invocations), the phone's refusals (422 bodies of a real server on loopback, for every API endpoint; none names a
command-line option), the ledger's messages and a correction, the organiser's report (text and HTML), the
handout's text (pdftotext), the page scripts' catalog and the group's page itself in Chromium (every section open).
A damaged or huge catalog is said in one line and never stops play (the last tests). A new refusal in English is caught (the first test)."""

from __future__ import annotations

import json
import re
import shlex

import pytest
import requests

from planner.cli import main
from planner.errors import InputError
from planner.ledger.money_rules import DEFAULT_MESSAGES
from planner.util.i18n import _, use_language
from planner.util.pseudo import PSEUDO, PSEUDO_ENV, pseudo
from tests.support import pseudo_check
from tests.support.play_day import rail_csv
from tests.support.webserver import free_port, serve, web_env, web_game

# one worker runs a module (--dist loadfile); this one early (80 s with a server)
pytestmark = pytest.mark.long

DAY: list[str] = []  # the day written in tests/support/play_day.py: --feed, --date, --game (filled by ``_day``)


@pytest.fixture(scope="module", autouse=True)
def _day(play_argv):
    DAY[:] = play_argv


@pytest.fixture(autouse=True)
def _rail(tmp_path, monkeypatch):
    """The day's line network (its toll line), written for the test: none is read from ../shared."""
    monkeypatch.setenv("PLANNER_RAIL_CSV", rail_csv(tmp_path))


def untranslated(text: str, allowed: frozenset[str] | set[str] = frozenset()) -> list[str]:
    """:func:`tests.support.pseudo_check.untranslated`, the names of the day's feed being data."""
    return pseudo_check.untranslated(text, allowed, feed=DAY[1])

OPTION = re.compile(r"(?<![\w-])--[a-z][a-z-]*|'planner ")


@pytest.fixture
def pseudo_env(monkeypatch):
    """The pseudo-locale offered and chosen (as a test suite enables it)."""
    monkeypatch.setenv(PSEUDO_ENV, "1")
    monkeypatch.setenv("PLANNER_LANG", PSEUDO)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main([*argv, "--lang", PSEUDO])
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


def test_the_check_catches_a_refusal_that_bypassed_the_catalog(pseudo_env):
    """A refusal worded in the code (a new English text) is reported; the same refusal through the catalog is not."""
    with use_language(PSEUDO):
        english = InputError(f"unknown station {'Zugg'!r}; did you mean: Zug?")
        marked = InputError(_("unknown station {station}; did you mean: {names}?").format(station="'Zugg'",
                                                                                          names="Zug"))
    assert untranslated(str(english), {"Zugg"}) == ["unknown", "station", "did", "you", "mean"]
    assert untranslated(str(marked), {"Zugg"}) == []
    assert pseudo("{n} trains from --at") == "⟦{n} ţŕáíñš ƒŕóɱ --at⟧"  # placeholders and options kept


# bad invocations of many commands: each must be refused in one line of catalog text (DAY: the day to play on)
REFUSALS = """
route DAY --from Zugg --to Baar --time 12:00
route DAY --from Zug --to Baar --time 99:99
route DAY --from Zug --to Baar --time 12h61x
route DAY --from Zug --to Baar --time 12:00 --bogus
route DAY --from Zug --time 12:00
route DAY --trip IR75 --to Baar --time 12:00
route DAY --trip 'S99 12:00' --to Baar --time 12:00
route DAY --trip 'S1 03:00' --to Baar --time 12:00
route DAY --from Zug --to Baar --within soon --time 12:00
target DAY --time 12:00 --roll 3
target DAY --at Zug --time 12:00 --roll 13
zugzwang DAY --time 12:00
bonus DAY --at Zug --time 12:00 --within x
tolls DAY --trip nope --time 12:00
roll DAY --group Blau --dice 9 --at Zug --time 12:00
roll DAY --group Blau --dice 2 --at Zugg --time 12:00
group position DAY --group Blau --at Zug --time 25:00
group position DAY --group Blau --time 12:00
ledger buy DAY --group Blau --station Zugg --time 12:00
ledger pay DAY --group Blau --time 12:00
ledger sell DAY --group Blau --station Zug --to Rot --amount -5 --time 12:00
ledger void DAY --seq 99 --reason oops --time 12:00
ledger tunnel DAY --group Blau --time 12:00
next DAY --group Blau --time 12:00 --from Zugg
advise DAY --group Blau --time 12:61
map DAY --reach Zugg --time 12:00
game new --name Test --groups '' DAY
simulate DAY --days 0
route DAY --batch TMP/missing.csv
route DAY --batch TMP/columns.csv
route DAY --batch TMP/binary.csv
route DAY --batch TMP
tolls DAY --trip 'S1 12:00' --owners TMP/columns.csv
route --feed FEED --game TMP/broken.toml --date 2021-09-11 --from Zug --to Baar --time 12:00
route --feed /nonexistent/feed.zip --game sbb-monopoly --date 2021-09-11 --from Zug --to Baar --time 12:00
route --feed FEED --game sbb-monopoly --date 2030-01-01 --from Zug --to Baar --time 12:00
route --feed FEED --game sbb-monopoly --date 2021-13-45 --from Zug --to Baar --time 12:00
route --feed FEED --game nosuchgame --date 2021-09-11 --from Zug --to Baar --time 12:00
"""


@pytest.mark.parametrize("line", [ln for ln in REFUSALS.strip().splitlines()])
def test_a_command_line_refusal_is_catalog_text(pseudo_env, capsys, tmp_path, line):
    (tmp_path / "columns.csv").write_text("from,to\nZug,Baar\n")  # TMP: files an organiser may get wrong
    (tmp_path / "binary.csv").write_bytes(b"\xff\xfe")
    (tmp_path / "broken.toml").write_text("x = [[[[\n")
    argv = shlex.split(line.replace("DAY", shlex.join(DAY)).replace("FEED", shlex.quote(DAY[1]))
                       .replace("TMP", str(tmp_path)))
    rc, _out, err = run(capsys, *argv)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert rc == 2 and len(lines) == 1 and "Traceback" not in err, err
    given = {w for a in argv for w in re.findall(r"[^\W\d_]+", a)}
    assert untranslated(lines[0], given) == [], lines[0]


def test_the_ledgers_messages_and_corrections_are_catalog_text(pseudo_env, capsys):
    day = DAY
    shown = []
    for argv in (["group", "position", *day, "--group", "Blau", "--at", "Zug", "--time", "12:00"],
                 ["ledger", "buy", *day, "--group", "Blau", "--station", "Zug", "--time", "12:01"],
                 ["ledger", "buy", *day, "--group", "Rot", "--station", "Baar", "--time", "12:02"],
                 ["ledger", "pay", *day, "--group", "Rot", "--station", "Zug", "--time", "12:25"],
                 ["ledger", "income", *day, "--group", "Rot", "--time", "13:00"],
                 ["ledger", "void", *day, "5", "--reason", "Rot war nicht dort", "--time", "13:30"],
                 ["ledger", "status", *day], ["ledger", "feed", *day, "--group", "Rot"]):
        rc, out, err = run(capsys, *argv)
        shown.append((argv, rc, out + err))
    # the §19 message codes ("BlauK 12.01 Zug": group and event letter) are the game file's, as its groups
    codes = {g + c for g in ("Rot", "Blau") for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"}
    # what every group is told (the §19 messages, a correction) is the game file's template in the game's language:
    # data, like a station's name, the same on every phone whatever language it reads
    told = set(re.findall(r"[^\W\d_]+", " ".join(DEFAULT_MESSAGES.values())))
    for argv, _rc, text in shown:
        assert "Traceback" not in text
        assert untranslated(text, {"Rot", "Blau", "war", "nicht", "dort"} | codes | told) == [], (argv, text)
    assert [rc for _a, rc, _t in shown] == [0] * len(shown), [(a[:2], rc, t) for a, rc, t in shown]
    assert "Korrektur: #5" in shown[5][2]  # the correction every group is told, in the game's language


def test_the_organisers_report_is_catalog_text(pseudo_env, capsys, tmp_path):
    report = tmp_path / "report.html"
    rc, out, err = run(capsys, "check-area", *DAY,
                       "--out", str(report))
    assert rc in (0, 1), err
    assert untranslated(out) == [], out
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", report.read_text(encoding="utf-8"), flags=re.S)
    text = re.sub(r"<[^>]+>", " ", html)
    assert untranslated(text, {"lang", "qps"}) == [], text


def test_the_handouts_text_is_catalog_text(pseudo_env, capsys, tmp_path):
    import subprocess

    pdf = tmp_path / "handout.pdf"
    rc, _out, err = run(capsys, "handout", *DAY,
                        "--out", str(pdf), "--no-png")
    assert rc == 0, err
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert "⟦" in text
    assert untranslated(text, {"km"}) == [], text  # km: the scale bar's unit


# the phone's refusals: (method, path after the game, body or query); every answer a 4xx with catalog text only
# words of the API itself a refusal may show unquoted (a header, an example of a field's value); the fields and
# their values are quoted ('dice'), and so stripped as data
API_FIELDS = {"Rot", "Blau", "Bearer", "TOKEN", "Authorization", "Content", "Type", "application", "json", "Station", "hotel", "Zugg",
              "nope"}
PHONE = [
    ("GET", "/groups/1", {"time": "99:99"}),
    ("GET", "/groups/1/next", {"time": "12:61"}),
    ("GET", "/groups/1/trains", {"at": "Zugg", "time": "12:00"}),
    ("POST", "/groups/1/position", {"at": "Zugg", "time": "12:00"}),
    ("POST", "/groups/1/position", {"trip": "IR75", "time": "12:00"}),
    ("POST", "/groups/1/position", {"trip": "S99 12:00", "time": "12:00"}),
    ("POST", "/groups/1/position", {"time": "12:00"}),
    ("POST", "/groups/1/position", {"at": "Zug", "time": "1200"}),
    ("POST", "/groups/1/position", {"at": "Zug", "time": "12:00", "bogus": 1}),
    ("POST", "/groups/1/rolls", {"dice": [9], "at": "Zug", "time": "12:00"}),
    ("POST", "/groups/1/rolls", {"dice": [3, 4], "at": "Zug", "time": "12:00", "roll_id": "x"}),
    ("POST", "/groups/1/ledger", {"event": "nope", "time": "12:00"}),
    ("POST", "/groups/1/ledger", {"event": "buy", "time": "12:00"}),
    ("POST", "/groups/1/ledger", {"event": "buy", "station": "Zugg", "time": "12:00"}),
    ("POST", "/groups/1/ledger", {"event": "pay", "tunnel": "nope", "time": "12:00"}),
    ("POST", "/groups/1/ledger", {"event": "diceoff", "time": "12:00"}),
    ("POST", "/groups/1/ledger", {"event": "buy", "station": "Zug", "time": "12:00", "houses": [1]}),
    ("POST", "/groups/1/ledger", {"event": "income", "bonus": True, "time": "12:00"}),
    ("POST", "/groups/1/ledger", {"event": "parking", "time": "12:00", "empty": "x"}),
    ("POST", "/groups/1/whereabouts", {"lat": "x", "lon": 8.5}),
    ("POST", "/groups/1/messages/999/sent", {"time": "12:00"}),
    ("POST", "/groups/1/messages/abc/sent", {"time": "12:00"}),
    ("POST", "/groups/1/position", {"at": "!!!", "time": "12:00"}),
    ("POST", "/groups/1/rolls", {"dice": 2, "time": "12:40"}),
    ("GET", "/groups/1/ledger", {"time": "7"}),
    ("POST", "/groups/1/ledger", {"event": "buy", "toll_line": "nope", "time": "12:00"}),
    ("POST", "/groups/1/ledger", {"event": "pay", "station": "Zug", "time": "12:00"}),
    ("POST", "/groups/1/ledger", {"event": "build", "houses": {"Zug": 9}, "time": "12:00"}),
    ("POST", "/groups/1/ledger", {"event": "mortgage", "station": "Zug", "time": "12:00"}),
    ("POST", "/groups/1/ledger", {"event": "redeem", "station": "Zug", "time": "12:00"}),
    ("POST", "/groups/1/ledger", {"event": "tax", "reason": "nope", "time": "12:00"}),
    ("POST", "/groups/1/ledger", {"event": "draw", "deck": "nope", "time": "12:00"}),
    ("POST", "/groups/1/ledger", {"event": "play", "card": "nope", "time": "12:00"}),
    ("POST", "/groups/1/ledger", {"event": "sell", "station": "Zug", "to": "Blau", "amount": 5, "time": "12:00"}),
    ("POST", "/groups/1/ledger", {"event": "accept", "offer": 99, "time": "12:00"}),
    ("POST", "/groups/1/ledger", {"event": "parking", "time": "12:00"}),
    ("GET", "/groups/abc", {}),
    ("POST", "/void", {"seq": 999, "reason": "x", "time": "12:00"}),
    ("POST", "/void", {"seq": 1}),
]


@pytest.fixture(scope="module")
def pseudo_site(tmp_path_factory, session_cache, play_argv):
    """A real server whose answers are in the pseudo-locale, and a game on it (Rot, Blau)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(PSEUDO_ENV, "1")
        env = web_env(tmp_path_factory.mktemp("pseudo-web"), cache=session_cache)
        env["PLANNER_LANG"] = PSEUDO
        with serve(env) as srv:
            game = web_game(env, "Rot,Blau", name="Samstag", base=srv.url, day=play_argv)
            yield {"url": srv.url, "game": game}


def test_the_phones_refusals_are_catalog_text_without_options(pseudo_site):
    game = pseudo_site["game"]
    base = f"{pseudo_site['url']}/api/games/{game['game']}"
    group = {"Authorization": f"Bearer {game['groups'][0]['token']}"}
    organiser = {"Authorization": f"Bearer {game['organiser']['token']}"}
    found = []
    for method, path, data in PHONE:
        who = organiser if path == "/void" else group
        if method == "GET":
            r = requests.get(base + path, params={**data, "lang": PSEUDO}, headers=who, timeout=120)
        else:
            r = requests.post(base + path + f"?lang={PSEUDO}", json=data, headers=who, timeout=120)
        assert 400 <= r.status_code < 500, (path, data, r.status_code, r.text)
        error = r.json()["error"]
        words = untranslated(error, API_FIELDS)
        if words or OPTION.search(error):
            found.append(f"{method} {path} {json.dumps(data)}: {error}")
    raw = requests.post(base + "/groups/1/position", data="{", timeout=60,
                        headers={**group, "Content-Type": "application/json"})
    plain = requests.post(base + "/groups/1/position", data="x", timeout=60, headers={**group, "Content-Type": "text/plain"})
    for r in (raw, plain):
        assert 400 <= r.status_code < 500 and untranslated(r.json()["error"], API_FIELDS) == [], r.text
    assert found == [], "refusals not from the catalog, or naming command-line options:\n" + "\n".join(found)


def test_the_page_scripts_catalog_is_the_pseudo_locales(pseudo_site):
    r = requests.get(f"{pseudo_site['url']}/i18n/{PSEUDO}.json", timeout=60)
    assert r.status_code == 200
    messages = r.json()["messages"]
    assert len(messages) > 50
    for msgid, text in messages.items():
        for form in text if isinstance(text, list) else [text]:
            # the script fills the {placeholders}
            assert form.startswith("⟦") and untranslated(re.sub(r"\{\w+\}", " ", form)) == [], (msgid, form)


def test_the_pseudo_locale_is_not_offered_to_users(monkeypatch, capsys):
    from planner.util.i18n import languages, normalise

    monkeypatch.delenv(PSEUDO_ENV, raising=False)
    rc = main(["route", "--from", "Zug", "--to", "Baar", "--lang", PSEUDO])
    assert rc == 2 and "invalid choice" in capsys.readouterr().err
    assert normalise(PSEUDO) is None and PSEUDO not in languages()  # ?lang=qps and PLANNER_LANG=qps: ignored
    monkeypatch.setenv(PSEUDO_ENV, "1")
    assert normalise(PSEUDO) == PSEUDO


# a damaged or huge catalog: a copy of the catalogs (never the package's own), chosen with $PLANNER_LOCALE_DIR


def damaged_catalogs(tmp_path, *, mo: bytes | None = None, po: bytes | None = None, po_size: int = 0):
    """A copy of planner/locale whose German ``.mo`` is replaced by ``mo`` and whose ``.po`` (written after it,
    so newer) by ``po``, then grown to ``po_size`` bytes."""
    import os
    import shutil
    import time

    from planner.util.i18n import LOCALE_DIR

    folder = tmp_path / "locale"
    shutil.copytree(LOCALE_DIR, folder, ignore=shutil.ignore_patterns("*.pot"))
    de = folder / "de" / "LC_MESSAGES"
    if mo is not None:
        (de / "messages.mo").write_bytes(mo)
    if po is not None or po_size:
        path = de / "messages.po"
        if po is not None:
            path.write_bytes(po)
        if po_size:
            with path.open("r+b") as f:
                f.truncate(po_size)  # a huge catalog (mostly NUL bytes past the real entries)
        later = time.time() + 5
        os.utime(path, (later, later))
    return folder


def cli_in(folder, *args: str):
    from tests.support.webserver import planner

    env = {k: v for k, v in __import__("os").environ.items() if k != "PLANNER_LANG"}
    return planner({**env, "PLANNER_LOCALE_DIR": str(folder)}, *args, "--lang", "de")


def route() -> tuple[str, ...]:
    """Zug -> Baar at 12:40 on the day."""
    return ("route", *DAY, "--from", "Zug", "--to", "Baar", "--time", "12:40")


def test_an_empty_compiled_catalog_is_said_in_one_line_and_its_po_used(tmp_path):
    p = cli_in(damaged_catalogs(tmp_path, mo=b""), *route())
    assert p.returncode == 0 and "Traceback" not in p.stderr
    lines = p.stderr.splitlines()
    assert len(lines) == 1 and "messages.mo cannot be read" in lines[0] and "using messages.po" in lines[0], p.stderr
    assert ": aussteigen" in p.stdout and "get off" not in p.stdout  # German still: read from the .po


def test_a_truncated_mo_and_a_damaged_newer_po_answer_in_english(tmp_path):
    real = (tmp_path / "real.mo")
    from planner.util.i18n import LOCALE_DIR

    real.write_bytes((LOCALE_DIR / "de" / "LC_MESSAGES" / "messages.mo").read_bytes()[:300])
    p = cli_in(damaged_catalogs(tmp_path, mo=real.read_bytes(), po=b'msgid "x"\nmsgstr "\xff\xfe\x00 broken'), *route())
    assert p.returncode == 0 and "Traceback" not in p.stderr
    lines = p.stderr.splitlines()
    assert len(lines) == 1 and "answers in English" in lines[0], p.stderr
    assert "Zug → Baar: dep " in p.stdout  # the message ids: English, the next language
    bad = cli_in(damaged_catalogs(tmp_path / "2", mo=b"\x00" * 10), "route", "--from", "Zugg", "--time", "99:99")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and len(bad.stderr.splitlines()) == 2, bad.stderr


def test_a_huge_catalog_is_refused_unread_and_the_web_never_fails(tmp_path, session_cache, play_argv):
    folder = damaged_catalogs(tmp_path, mo=b"", po_size=50 << 20)
    (tmp_path / "web").mkdir()
    env = web_env(tmp_path / "web", cache=session_cache)
    env.pop("PLANNER_LANG", None)
    port = free_port()
    # the game made in this process before the damaged catalogs are chosen: this process keeps the catalog it read
    # first (once per language and process), and the German of the worker's later tests is the real one
    game = web_game(env, "Rot", name="Samstag", base=f"http://127.0.0.1:{port}", day=play_argv)
    env["PLANNER_LOCALE_DIR"] = str(folder)
    with serve(env, port=port) as srv:
        tok = {"Authorization": f"Bearer {game['groups'][0]['token']}"}
        api = f"{srv.url}/api/games/{game['game']}/groups/1"
        catalog = requests.get(f"{srv.url}/i18n/de.json", timeout=60)
        assert catalog.status_code == 200 and len(catalog.json()["messages"]) > 50
        assert requests.get(api + "?lang=de", headers=tok, timeout=120).status_code == 200
        refused = requests.post(api + "/position?lang=de", json={"at": "Zugg", "time": "12:00"}, headers=tok,
                                timeout=120)
        assert refused.status_code == 422 and "Zugg" in refused.json()["error"]
        page = requests.get(f"{srv.url}/games/{game['game']}/groups/1?lang=de", headers=tok, timeout=60)
        assert page.status_code == 200
    log = next((tmp_path / "web").glob("*.serve-*.log")).read_text()
    assert "Traceback" not in log and "messages.po" in log and "larger than" in log, log


SHOWN = """() => {
  const out = [document.body.innerText];
  for (const el of document.querySelectorAll("[placeholder], [title], [aria-label]")) {
    for (const a of ["placeholder", "title", "aria-label"]) if (el.getAttribute(a)) out.push(el.getAttribute(a));
  }
  return out.join("\\n");
}"""


def test_the_group_and_organiser_pages_show_catalog_text_only(pseudo_site, browser):
    """The phone's page in the pseudo-locale, after a position and with every section open, and the organiser's:
    the page's scripts and templates word nothing themselves (what a list of strings cannot find)."""
    from playwright.sync_api import expect

    from tests.support.browser import phone, tell_position

    errors: list = []
    ctx, p = phone(browser, errors)
    p.goto(pseudo_site["game"]["groups"][1]["url"])
    p.wait_for_url(re.compile(r"/groups/2$"))
    tell_position(p, "Zug", "12:40")
    expect(p.locator("#position")).to_contain_text("12:40", timeout=120000)
    p.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    shown = p.evaluate(SHOWN)
    org = ctx.new_page()
    org.goto(pseudo_site["game"]["organiser"]["url"])
    org.wait_for_url(re.compile(r"/games/[^/]+$"))
    expect(org.locator("body")).to_contain_text("Zug", timeout=120000)  # the group's position, on the table
    org.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    shown += "\n" + org.evaluate(SHOWN)
    ctx.close()
    named = API_FIELDS | {"Samstag", "Leaflet"}  # the game's name as its organiser gave it; the map's library
    lines = [f"{ln.strip()} -> {untranslated(ln, named)}" for ln in shown.splitlines() if untranslated(ln, named)]
    assert lines == [], "\n".join(lines)
    assert errors == []
