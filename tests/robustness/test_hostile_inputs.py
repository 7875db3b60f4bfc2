"""Hostile inputs: every case ends in exit 2 with one line, or in the right answer.

Each row of :data:`CASES` builds its hostile file(s) in a temporary folder (never committed) and names
the command line; :func:`test_hostile_input` runs it in this process. The cases that once crashed the
interpreter at exit run in fresh processes (:func:`test_csv_reader_never_crashes_at_exit`).
"""

from __future__ import annotations

import functools
import json
import os
import random
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from planner import config
from planner.cli import main
from planner.gtfs import cache, source
from tests.support import FIXTURES, ROOT, assert_one_line_error
from tests.support.play_day import RAIL_CSV

pytestmark = pytest.mark.long  # one worker runs a module (--dist loadfile); this one early

DAY: list[str] = []  # --feed and --date of the day written in tests/support/play_day.py (filled by ``_day``)
GAME_A = (ROOT / "planner" / "games" / "sbb-monopoly.toml").read_text("utf-8")
IR70 = "IR70-1229"  # Zug -> Luzern via Rotkreuz: crosses Luzern–Rotkreuz


@pytest.fixture(scope="module", autouse=True)
def _day(play_argv):
    DAY[:] = play_argv[:4]


@pytest.fixture
def rail_csv(tmp_path, monkeypatch) -> None:
    """The tolls' line network (the IR70's way), written for the test."""
    monkeypatch.setenv("PLANNER_RAIL_CSV", write(tmp_path, "rail.csv", RAIL_CSV))


def game_file(tmp: Path, old: str, new: str) -> str:
    """sbb-monopoly.toml with one edit, written into ``tmp``."""
    assert old in GAME_A, old
    p = tmp / "game.toml"
    p.write_text(GAME_A.replace(old, new, 1), "utf-8")
    return str(p)


def write(tmp: Path, name: str, data: bytes | str) -> str:
    p = tmp / name
    p.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return str(p)


def fifo(tmp: Path) -> str:
    p = tmp / "fifo"
    os.mkfifo(p)
    return str(p)


def flipped_stop_times(tmp: Path) -> Path:
    """The day's zip with one byte of stop_times.txt's data flipped (its directory CRCs unchanged)."""
    data = bytearray(Path(DAY[1]).read_bytes())
    with zipfile.ZipFile(DAY[1]) as zf:
        info = zf.getinfo("stop_times.txt")
    data[info.header_offset + 30 + len(info.filename) + len(info.extra) + info.compress_size // 2] ^= 0xFF
    p = tmp / "flipped.zip"
    p.write_bytes(bytes(data))
    return p


@functools.cache
def _noise() -> bytes:
    return random.Random(14).randbytes(12 << 20)


def random_stop_times(tmp: Path) -> Path:
    """The BLT fixture with 12 MiB of random bytes after stop_times.txt's header: several read blocks, so
    the old threaded reader was still reading ahead when the error ended the process (before the
    reader was made single-threaded this hung for more than 40 s or aborted in 4 of 4 cold runs)."""
    p = tmp / "random.zip"
    with zipfile.ZipFile(p, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        for f in (FIXTURES / "blt").iterdir():
            data = f.read_bytes()
            if f.name == "stop_times.txt":
                data = data.splitlines(keepends=True)[0] + _noise()
            zf.writestr(f.name, data)
    return p


def nested_zip(tmp: Path) -> str:
    inner = tmp / "inner.zip"
    with zipfile.ZipFile(inner, "w") as zf:
        for f in (FIXTURES / "blt").iterdir():
            zf.write(f, f.name)
    outer = tmp / "outer.zip"
    with zipfile.ZipFile(outer, "w") as zf:
        zf.write(inner, "GTFS.zip")
    return str(outer)


@dataclass(frozen=True)
class Case:
    """One hostile input: ``argv(tmp)`` builds files and the command line; ``needles`` must be in the one
    error line; ``check(tmp, rc, out)``, when given, replaces the error check (the right answer)."""

    argv: Callable[[Path], list[str]]
    needles: tuple[str, ...] = ()
    check: Callable[[Path, int, str], None] | None = None


def _g(old: str, new: str, *needles: str) -> Case:
    return Case(lambda t: ["stations", *DAY, "--game", game_file(t, old, new)], ("game file", *needles))


def _legs(data: bytes | str, *needles: str) -> Case:
    return Case(lambda t: ["zugzwang", *DAY, "--check", write(t, "legs.csv", data)], ("legs file", *needles))


def _batch(data: bytes | str, *needles: str) -> Case:
    return Case(lambda t: ["route", *DAY, "--batch", write(t, "batch.csv", data)], ("batch file", *needles))


def _owners(data: str, *needles: str) -> Case:
    return Case(lambda t: ["tolls", *DAY, "--trip", IR70, "--owners", write(t, "owners.toml", data)],
                ("owners file", *needles))


INCOME = 'income = "{group} Honorar {amount}"'


def _message(template: str, *needles: str, argv: tuple[str, ...] = ("ledger", "income", "--group", "1", "--time",
                                                                      "11:00")) -> Case:
    """The game's income message replaced by ``template`` (checked when the ledger rules are read)."""
    return Case(lambda t: [*argv, *DAY, "--game", game_file(t, INCOME, f'income = "{template}"')],
                ("game file", "ledger.messages.income", *needles))


def _links(make: Callable[[Path], str]) -> Case:
    return Case(lambda t: ["handout", *DAY, "--links", make(t), "--out", str(t / "out" / "h.pdf")], ("--links",))


def _feed_linking_out(tmp: Path) -> list[str]:
    (tmp / "secret.txt").write_text("root:SECRET:19000:0:99999:7:::\n")
    feed = tmp / "feed"
    shutil.copytree(FIXTURES / "blt", feed)
    (feed / "stops.txt").unlink()
    (feed / "stops.txt").symlink_to(tmp / "secret.txt")
    return ["stations", "--feed", str(feed), "--game", "none", "--date", "2026-05-02"]


def _route(*extra: str) -> list[str]:
    return ["route", *DAY, "--to", "Luzern", "--time", "10:00", *extra]


def _map_out(out: str) -> Case:
    return Case(lambda t: ["map", "area", *DAY, "--out", out], ("--out",))


def _keeps_user_files(tmp: Path, rc: int, out: str) -> None:
    assert rc == 0
    assert (tmp / "site" / "lib" / "leaflet" / "mine.js").read_text() == "my own file"
    assert (tmp / "site" / "index.html").stat().st_mode & 0o777 == 0o666 & ~_umask()  # not mkstemp's 0600
    assert (tmp / "site" / "sbb-planner-assets" / ".sbb-planner-assets").is_file()


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _user_site(tmp: Path) -> list[str]:
    (tmp / "site" / "lib" / "leaflet").mkdir(parents=True)
    (tmp / "site" / "lib" / "leaflet" / "mine.js").write_text("my own file")
    return ["map", "area", *DAY, "--out", str(tmp / "site" / "index.html")]


def _foreign_assets(tmp: Path) -> list[str]:
    (tmp / "site" / "sbb-planner-assets").mkdir(parents=True)
    (tmp / "site" / "sbb-planner-assets" / "notes.txt").write_text("mine")
    return ["map", "area", *DAY, "--out", str(tmp / "site" / "index.html")]


def _handout_fails(tmp: Path) -> list[str]:
    (tmp / "h-p1.png").mkdir()  # the first PNG page cannot be written (--force: what is there may be replaced)
    return ["handout", *DAY, "--out", str(tmp / "h.pdf"), "--dpi", "50", "--force"]


def _hyphen_owner(tmp: Path, rc: int, out: str) -> None:
    assert rc == 0
    crossings = json.loads(out)["crossings"]
    assert [(c["name"], c["owner"], c["fee"]) for c in crossings] == [("Luzern–Rotkreuz", "group 2", 500)]


def _ir70(owners: str) -> Callable[[Path], list[str]]:
    return lambda t: ["tolls", *DAY, "--trip", IR70, "--json", "--owners", write(t, "owners.toml", owners)]


CASES: dict[str, Case] = {
    # ---- feeds: hangs and memory
    "feed is a FIFO": Case(lambda t: ["stations", "--feed", fifo(t), "--date", "2021-09-11"],
                           ("not a regular file or folder",)),
    "feed is /dev/zero": Case(lambda t: ["feed-info", "--feed", "/dev/zero"], ("not a regular file or folder",)),
    "zip inside a zip over the limit": Case(lambda t: ["feed-info", "--feed", nested_zip(t)], ("inner zip", "MiB")),
    "random bytes in stop_times": Case(lambda t: ["stations", "--feed", str(random_stop_times(t)), "--game",
                                                  "none", "--date", "2026-05-02"], ("stop_times.txt",)),
    "flipped byte in stop_times": Case(lambda t: ["stations", "--feed", str(flipped_stop_times(t)), "--date",
                                                  "2021-09-11"], ("Bad CRC-32",)),
    # ---- game files
    "game: default_minutes = nan": _g("default_minutes = 2", "default_minutes = nan", "transfers.default_minutes",
                                      "finite"),
    "game: default_minutes = inf": _g("default_minutes = 2", "default_minutes = inf", "finite"),
    "game: free_minutes = -60": _g("free_minutes = 60", "free_minutes = -60", "dice.free_minutes"),
    "game: minutes = []": _g("minutes = [0]", "minutes = []", "bonus.minutes"),
    "game: via = [1, {x = 2}]": _g('via = ["Hauenstein Süd"]', "via = [1, {x = 2}]", "tunnels[0].via[0]"),
    "game: stations = [1, 2.5, true]": _g('stations = ["Sissach", "Biel/Bienne", "Wolhusen", "Sihlbrugg"]',
                                          "stations = [1, 2.5, true]", "dice.targets[0].stations[0]"),
    "game: IC = 'lots'": _g("IC = 4000", 'IC = "lots"', "prices.IC"),
    "game: overrides = 'Olten'": _g('overrides = { "Olten" = 1000 }', 'overrides = "Olten"', "prices.overrides"),
    "game: by_owner_count = ['a']": _g("by_owner_count = [500, 1000, 2000, 4000]", 'by_owner_count = ["a"]',
                                       "toll_fees.by_owner_count[0]"),
    "game: group_size = 0": _g("group_size = 3", "group_size = 0", "letters.group_size"),
    "game: dice = true": _g("dice = 1", "dice = true", "dice.dice"),
    "game: 100k-deep arrays": _g("group_size = 3", "group_size = " + "[" * 100_000, "nested"),
    "game: binary": Case(lambda t: ["stations", *DAY, "--game", write(t, "g.toml", b"\xff\xfe\x00garbage")],
                         ("game file", "UTF-8")),
    "game: category_overrides value": _g('overrides = { "Olten" = 1000 }',
                                         'category_overrides = { "Zug" = "slow" }', "prices.category_overrides"),
    "game: zugzwang minutes 0": _g("minutes = 29", "minutes = 0", "zugzwang.minutes"),
    # ---- command-line values
    "--within nan": Case(lambda t: _route("--from", "Zug", "--within", "nan"), ("--within", "minutes")),
    "--date ''": Case(lambda t: _route("--from", "Zug", "--date", ""), ("--date", "empty")),
    "--game ''": Case(lambda t: _route("--from", "Zug", "--game", ""), ("--game", "empty")),
    "--feed ''": Case(lambda t: ["stations", "--feed", ""], ("--feed", "empty")),
    "--group ''": Case(lambda t: ["roll", *DAY, "--group", "", "--dice", "2", "--at", "Zug", "--time", "13:00"],
                       ("--group", "empty")),
    "--url of 10k characters": Case(lambda t: ["feed", "download", "--url", "http://" + "a" * 10_000, "--out",
                                               str(t)], ("--url", "2048")),
    # ---- legs, batch, owners
    "legs in Latin-1": _legs("from,to,departure,arrival\nZürich HB,Zug,12:00,12:30\n".encode("latin-1"), "UTF-8"),
    "legs binary": _legs(bytes(range(256)) * 4, "line"),
    "legs field over 131072 chars": _legs("from,to,departure,arrival\n" + "Z" * 200_000 + ",Zug,12:00,12:30\n",
                                          "line 2"),
    "legs arrive before departing": _legs("from,to,departure,arrival\nZug,Luzern,12:25,12:03\n",
                                          "line 2", "before departure"),
    "batch in Latin-1": _batch("from,to,time\nZürich HB,Zug,12:00\n".encode("latin-1"), "UTF-8"),
    "batch binary": _batch(random.Random(4).randbytes(4096).replace(b"\n", b"") + b"\x00", "line"),
    "batch field over 131072 chars": _batch("from,to,time\nZug," + "L" * 200_000 + ",10:00\n", "line 2"),
    "batch is a FIFO": Case(lambda t: ["route", *DAY, "--batch", fifo(t)], ("batch file", "not a regular file")),
    "owners unknown line": _owners('[owners]\n"Olten-Arau" = "g1"\n"Lucerne-Rotkreuz" = "g2"\n', "Olten-Arau",
                                   "did you mean", "Olten–Aarau"),
    "owners owner true": _owners('[owners]\n"Luzern–Rotkreuz" = true\n', "must be text"),
    "owners deep nesting": _owners("[owners]\nx = " + "[" * 100_000 + "\n", "nested"),
    "owners hyphen for en dash": Case(_ir70('[owners]\n"luzern-rotkreuz" = "group 2"\n'), check=_hyphen_owner),
    # ---- stations
    "station '%s%n'": Case(lambda t: _route("--from", "%s%n"), ("unknown station",)),
    "station '-'": Case(lambda t: _route("--from", "-"), ("no letters or digits",)),
    "station '.'": Case(lambda t: _route("--from", "."), ("no letters or digits",)),
    "station zero-width spaces": Case(lambda t: _route("--from", "\u200b\u200b"), ("empty",)),
    # ---- outputs
    "--out below a file": Case(lambda t: ["map", "area", *DAY, "--out", write(t, "f", "x") + "/m.html"],
                               ("is a file",)),
    "--out /proc": _map_out("/proc/m.html"),
    "--out /sys": _map_out("/sys/m.html"),
    "--out /": _map_out("/"),
    "--out ''": _map_out(""),
    "--out onto a folder": Case(lambda t: ["handout", *DAY, "--out", str(t)], ("is a folder",)),
    "check-area --out /usr": Case(lambda t: ["check-area", *DAY, "--out", "/usr/lib/r.html"], ("system folder",)),
    "download --out a file": Case(lambda t: ["feed", "download", "--out", write(t, "f", "x")], ("not a folder",)),
    "download --out /dev/full": Case(lambda t: ["feed", "download", "--out", "/dev/full"], ("system folder",)),
    "download --out a FIFO": Case(lambda t: ["feed", "download", "--out", fifo(t)], ("pipe or device",)),
    "map keeps the user's lib/leaflet": Case(_user_site, check=_keeps_user_files),
    "map refuses a foreign assets folder": Case(_foreign_assets, ("not made by the planner",)),
    # ---- message templates (validated when the game file's ledger rules are read)
    "message {oops}": _message("{oops}", "unknown field {oops}"),
    "message {0}": _message("{0}", "unknown field {0}"),
    "message '{group K'": _message("{group K", "expected '}'"),
    "message {amount:zz}": _message("{amount:zz}", "Unknown format code"),
    "message {group.__class__}": _message("{group.__class__}", "unknown field {group.__class__}"),
    "message {amount:>900000000} x 20": _message("{amount:>900000000}" * 20, "at most 40 wide",
                                                 argv=("ledger", "status")),
    # ---- numbers, actions, names
    "ledger feed --since 10^20": Case(lambda t: ["ledger", "feed", *DAY, "--group", "1", "--since",
                                                 "99999999999999999999"], ("--since", "expected 0 to")),
    "planner without a command": Case(lambda t: [], ("give a command",)),
    "group without an action": Case(lambda t: ["group"], ("give an action", "status")),
    "ledger without an action": Case(lambda t: ["ledger"], ("give an action", "buy")),
    "map without an action": Case(lambda t: ["map"], ("give an action", "area")),
    "feed without an action": Case(lambda t: ["feed"], ("give an action", "download")),
    "game without an action": Case(lambda t: ["game"], ("give an action", "new")),
    "game new --name with ESC": Case(lambda t: ["game", "new", "--name", "a\x1bb", "--groups", "Rot"],
                                     ("--name", "control characters")),
    "game new --base-url with markup": Case(lambda t: ["game", "new", "--name", "x", "--groups", "Rot",
                                                       "--base-url", 'http://a b"><script>'], ("--base-url",)),
    "game new --feed missing": Case(lambda t: ["game", "new", "--name", "x", "--groups", "Rot", "--feed",
                                               str(t / "nope.zip")], ("nope.zip", "not found")),
    "batch where every row is bad": _batch("from,to,time\nZugg,Luzern,10:00\nZug,Luzern,99:00\n",
                                           "none of its 2 rows"),
    "feed folder linking out (stops.txt -> secret)": Case(_feed_linking_out, ("link out of the feed folder",)),
    # ---- --links of the handout (checked before anything is drawn)
    "--links 100k-deep JSON": _links(lambda t: write(t, "game.json", "[" * 100_000)),
    "--links with a 5,000-character URL": _links(lambda t: write(t, "game.json", json.dumps(
        {"game": "ab12", "groups": [{"name": "Rot", "url": "https://g.example/" + "a" * 5000}]}))),
    "--links /dev/zero": _links(lambda t: "/dev/zero"),
    "--links a FIFO": _links(fifo),
    # ---- feed summaries
    "feed-info without stop_times": Case(
        lambda t: ["feed-info", "--feed", str(_zip_without(t, "stop_times.txt"))], ("stop_times.txt missing",)),
    "feed-info with 25:61:00": Case(lambda t: ["feed-info", "--feed", str(_bad_time(t))],
                                    ("line 4 column arrival_time", "25:61:00")),
}


def _zip_without(tmp: Path, member: str) -> Path:
    p = tmp / "without.zip"
    with zipfile.ZipFile(p, "w") as zf:
        for f in (FIXTURES / "blt").iterdir():
            if f.name != member:
                zf.write(f, f.name)
    return p


def _bad_time(tmp: Path) -> Path:
    bad = tmp / "badtime"
    shutil.copytree(FIXTURES / "blt", bad)
    st = bad / "stop_times.txt"
    st.write_text(st.read_text().replace("10:05:00,10:05:00", "25:61:00,25:61:00"))
    return bad


@pytest.fixture(scope="module")
def shared_cache(tmp_path_factory) -> Path:
    """One cache for the table's cases: most ask about the same day (content-keyed, safe to share)."""
    return tmp_path_factory.mktemp("hostile-cache")


@pytest.mark.parametrize("name", list(CASES))
def test_hostile_input(name, tmp_path, capsys, monkeypatch, shared_cache, rail_csv):
    case = CASES[name]
    monkeypatch.setenv("PLANNER_CACHE", str(shared_cache))
    if name == "zip inside a zip over the limit":
        monkeypatch.setattr(source, "MAX_INNER", 1000)  # the real limit (2 GiB) is too big to build here
    argv = case.argv(tmp_path)
    rc = main(argv)
    cap = capsys.readouterr()
    if case.check is not None:
        case.check(tmp_path, rc, cap.out)
    else:
        assert_one_line_error(rc, cap.err, *case.needles)
    if name == "map refuses a foreign assets folder":
        assert [p.name for p in (tmp_path / "site" / "sbb-planner-assets").iterdir()] == ["notes.txt"]


def test_handout_failure_leaves_no_part(tmp_path, capsys):
    rc = main(_handout_fails(tmp_path))
    assert_one_line_error(rc, capsys.readouterr().err, "h-p1.png")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["h-p1.png", "h.pdf"]  # the PDF, complete; no .part


@pytest.mark.fresh_cache  # counts or edits the cache's own files
def test_nested_zip_is_extracted_once(tmp_path, capsys):
    outer = nested_zip(tmp_path)
    assert main(["feed-info", "--feed", outer, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["stops"] > 0
    assert len(list((config.cache_root() / "inner-zips").glob("*.zip"))) == 1


@pytest.mark.fresh_cache  # counts or edits the cache's own files
def test_damaged_copy_is_not_answered_from_the_good_cache(tmp_path, capsys):
    argv = ["stations", "--date", "2021-09-11", "--json"]
    assert main([*argv, "--feed", DAY[1]]) == 0  # the good feed's day is cached now
    capsys.readouterr()
    rc = main([*argv, "--feed", str(flipped_stop_times(tmp_path))])
    assert_one_line_error(rc, capsys.readouterr().err, "Bad CRC-32")


@pytest.mark.fresh_cache  # edits the one entry of its own cache
@pytest.mark.parametrize("edit", ["column type", "date", "feed_version"])
def test_edited_cache_meta_is_set_aside(edit, capsys):
    argv = ["feed-info", *DAY]
    tt_argv = ["stations", *DAY, "--json"]
    assert main(tt_argv) == 0
    good = capsys.readouterr().out
    (entry,) = cache.entries_dir().iterdir()
    meta = json.loads((entry / "meta.json").read_text())
    if edit == "column type":
        meta["columns"]["st_arr"] = "str"
    elif edit == "date":
        meta["date"] = "2021-09-12"
    else:
        meta["feed_version"] = "evil"
    (entry / "meta.json").write_text(json.dumps(meta))
    assert main(tt_argv) == 0
    assert capsys.readouterr().out == good  # rebuilt: the same answer
    assert json.loads((cache.entries_dir() / entry.name / "meta.json").read_text())["feed_version"] != "evil"
    assert main(argv) == 0


# ---- fresh processes: the CSV reader's threads must be gone before the interpreter exits ----------------

@pytest.mark.parametrize("kind", ["random", "flipped"])
def test_csv_reader_never_crashes_at_exit(kind, tmp_path):
    feed = random_stop_times(tmp_path) if kind == "random" else flipped_stop_times(tmp_path)
    date = "2026-05-02" if kind == "random" else "2021-09-11"
    for i in range(3):  # the crash was a race: several cold runs
        env = {**os.environ, "PLANNER_CACHE": str(tmp_path / f"cache{i}")}
        p = subprocess.run([sys.executable, "-m", "planner", "stations", "--feed", str(feed), "--game", "none",
                            "--date", date], capture_output=True, text=True, env=env, timeout=60)
        assert "Fatal Python error" not in p.stderr, p.stderr
        assert_one_line_error(p.returncode, p.stderr, "stop_times.txt")
