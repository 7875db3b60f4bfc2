"""Set-up on a fresh machine: which Debian packages `make system-deps` asks for, the feeds/ folder, numba
compiled during set-up, and the file modes of what the planner writes (on the real-time demo's day, written in
tests/support/inline_day.py)."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from planner.cli import main
from tests.support import ROOT
from tests.support.inline_day import demo_day, write_lines

DAY: list[str] = []  # the demo day's --feed and --date (the fixture below)


@pytest.fixture(autouse=True)
def _day(tmp_path, monkeypatch):
    monkeypatch.setenv("PLANNER_RAIL_CSV", str(write_lines(tmp_path / "lines")))
    day = demo_day(tmp_path / "day")
    monkeypatch.setattr(f"{__name__}.DAY", ["--feed", day.feed, "--date", day.date.isoformat()])

# A recording apt-get that "installs" a package by putting its command on PATH. With APT_STALE set it plays a
# package dpkg still lists whose binary is gone: a plain install writes nothing, only --reinstall does.
FAKE_APT = """#!/bin/sh
echo "$@" >> "$APT_LOG"
[ "$1" = install ] || exit 0
for pkg; do :; done
case "$pkg" in poppler-utils) cmd=pdftoppm;; *) cmd=$pkg;; esac
if [ -n "$APT_STALE" ]; then case " $* " in *" --reinstall "*) ;; *) exit 0;; esac; fi
printf '#!/bin/sh\\nexit 0\\n' > "$APT_BIN/$cmd"
chmod 755 "$APT_BIN/$cmd"
"""


def _fake_path(tmp_path: Path, *, present: tuple[str, ...]) -> tuple[dict[str, str], Path]:
    """A PATH with only bash, sh, make, a recording apt-get and fake commands named in ``present``."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    for tool in ("bash", "sh", "make", "chmod", "timeout"):
        os.symlink(shutil.which(tool), bindir / tool)
    for tool in ("apt-get", *present):
        p = bindir / tool
        p.write_text(FAKE_APT if tool == "apt-get" else "#!/bin/sh\nexit 0\n")
        p.chmod(0o755)
    log = tmp_path / "apt.log"
    env = {"PATH": str(bindir), "APT_LOG": str(log), "APT_BIN": str(bindir), "HOME": str(tmp_path)}
    return env, log


def _system_deps(tmp_path: Path, present: tuple[str, ...], **extra: str) -> list[list[str]]:
    env, log = _fake_path(tmp_path, present=present)
    env |= extra
    r = subprocess.run(["make", "-s", "-B", "-C", str(ROOT), "system-deps"], env=env, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return [line.split() for line in log.read_text().splitlines()] if log.exists() else []


def _installed(calls: list[list[str]]) -> list[str]:
    return [c[-1] for c in calls if c and c[0] == "install"]


def test_system_deps_keeps_a_foreign_npm(tmp_path):
    """npm on PATH (e.g. from NodeSource): only chromium and poppler-utils are asked for, one at a time."""
    calls = _system_deps(tmp_path, present=("npm",))
    assert _installed(calls) == ["chromium", "poppler-utils"]
    assert all(len([a for a in c if not a.startswith("-")]) == 2 for c in calls if c[0] == "install")


def test_system_deps_installs_npm_when_missing(tmp_path):
    calls = _system_deps(tmp_path, present=())
    assert _installed(calls) == ["chromium", "poppler-utils", "npm"]
    assert calls[0][0] == "update"


def test_system_deps_reinstalls_a_package_whose_command_is_gone(tmp_path):
    """dpkg lists chromium but /usr/bin/chromium is gone: a plain install does nothing ("already the newest
    version"), so the command is checked afterwards and the package reinstalled."""
    calls = _system_deps(tmp_path, present=("npm", "pdftoppm"), APT_STALE="1")
    installs = [c for c in calls if c[0] == "install"]
    assert [c[-1] for c in installs] == ["chromium", "chromium"] and "--reinstall" in installs[1]
    assert (tmp_path / "bin" / "chromium").exists()


def test_system_deps_reinstalls_a_package_whose_command_does_not_run(tmp_path):
    """/usr/bin/chromium is there but fails (its real binary under /usr/lib/chromium is gone): it counts as
    missing, and the reinstall (the fake writes a working one) is checked by running it."""
    env, log = _fake_path(tmp_path, present=("npm", "pdftoppm"))
    broken = Path(env["APT_BIN"]) / "chromium"
    broken.write_text("#!/bin/sh\nexit 127\n")
    broken.chmod(0o755)
    r = subprocess.run(["make", "-s", "-B", "-C", str(ROOT), "system-deps"], env=env | {"APT_STALE": "1"},
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    installs = [line.split() for line in log.read_text().splitlines() if line.startswith("install")]
    assert [c[-1] for c in installs] == ["chromium", "chromium"] and "--reinstall" in installs[1]
    assert subprocess.run([str(broken), "--version"]).returncode == 0


def test_system_deps_waits_for_the_apt_lock(tmp_path):
    calls = _system_deps(tmp_path, present=("npm", "pdftoppm"))
    assert calls and all("-oDPkg::Lock::Timeout=300" in c for c in calls)


def test_system_deps_installs_nothing_when_all_present(tmp_path):
    assert _system_deps(tmp_path, present=("npm", "chromium", "pdftoppm")) == []


def test_system_deps_one_failure_does_not_stop_the_others(tmp_path):
    env, log = _fake_path(tmp_path, present=("npm",))
    apt = Path(env["PATH"]) / "apt-get"
    apt.write_text(FAKE_APT.replace("for pkg;", 'case "$*" in *chromium*) exit 100;; esac\nfor pkg;'))
    r = subprocess.run(["make", "-s", "-B", "-C", str(ROOT), "system-deps"], env=env, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode != 0 and "could not install: chromium" in r.stderr
    assert "poppler-utils" in log.read_text()


def test_feeds_folder_is_in_the_checkout():
    readme = ROOT / "feeds" / "README.md"
    tracked = subprocess.run(["git", "-C", str(ROOT), "ls-files", "feeds/README.md"], capture_output=True,
                             text=True).stdout.strip()
    assert tracked == "feeds/README.md"
    assert "planner feed download" in readme.read_text()


def test_setup_compiles_the_routing_kernels():
    dry = subprocess.run(["make", "-n", "-B", "-C", str(ROOT), "setup"], capture_output=True, text=True,
                         timeout=60).stdout
    assert "planner.routing.warmup" in dry


@pytest.fixture(scope="module")
def warmed_numba_cache() -> None:
    """The project's numba cache (where ``make setup`` compiles the kernels) after the set-up's own warm-up: it
    loads what is cached and compiles what is not (after a change of the routing code), as ``make setup`` does."""
    subprocess.run([sys.executable, "-m", "planner.routing.warmup"], check=True, capture_output=True, timeout=900)


PROBE = """
import datetime as dt, json
from planner.gamefile.game import load_game
from planner.gtfs.ingest import build_timetable
from planner.gtfs.source import FeedSource
from planner.routing import csa, query, rule_scan, static_graph
from planner.routing.network import TransitNetwork
from planner.timetable.stations import find_station
from numba.core.registry import CPUDispatcher
tt = build_timetable(FeedSource(ZUG), load_game("sbb-monopoly"), dt.date(2021, 9, 11), progress=False)
net = TransitNetwork(tt)
zug, luzern, baar = (find_station(tt, n) for n in ("Zug", "Luzern", "Baar"))
for window in (None, 29 * 60):  # plain; bound by the 29-minute rule with its lower bounds
    o = query.station_origin(zug, 12 * 3600, window=window)
    j = query.best_journey(net, o, luzern)
    query.journeys_within(net, o, luzern, 20, fastest=j)
    if window is not None:  # the rule-aware scans best_journey falls back on: arrive-by, several targets
        query.reach(net, query.Query(o, target=luzern, arrive_by=14 * 3600))
        query.reach(net, query.Query(o, target=[luzern, baar]))
def stats(mod, kind):
    return sum(sum(getattr(f.stats, kind).values()) for f in vars(mod).values() if isinstance(f, CPUDispatcher))
print(json.dumps({m.__name__.rsplit(".", 1)[1]: [stats(m, "cache_misses"), stats(m, "cache_hits")]
                  for m in (csa, rule_scan, static_graph)}))
"""


def test_warm_up_covers_a_real_query(warmed_numba_cache):
    """After the warm-up, real queries in a new process compile nothing (no cache miss): the plain scan, and the
    change-window scan for a group bound by the 29-minute rule with its lower bounds."""
    out = subprocess.run([sys.executable, "-c", f"ZUG = {DAY[1]!r}\n" + PROBE], check=True,
                         capture_output=True, text=True, timeout=300).stdout
    counts = json.loads(out.splitlines()[-1])
    assert {k: v[0] for k, v in counts.items()} == {"csa": 0, "rule_scan": 0, "static_graph": 0}  # no misses
    assert all(hits >= 1 for _, hits in counts.values())


@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    yield
    os.umask(old)


def _mode(p: Path) -> int:
    return stat.S_IMODE(p.stat().st_mode)


def test_outputs_for_people_honour_the_umask(tmp_path, umask_022, capsys):
    html = tmp_path / "report.html"
    main(["check-area", *DAY, "--game", "sbb-monopoly", "--out", str(html)])
    assert _mode(html) == 0o644
    m = tmp_path / "area.html"
    assert main(["map", "area", *DAY, "--out", str(m), "--standalone"]) == 0
    assert _mode(m) == 0o644
    z = tmp_path / "day.zip"
    assert main(["export", *DAY, "--out", str(z)]) == 0
    assert _mode(z) == 0o644
    capsys.readouterr()


def test_state_database_stays_private(tmp_path, umask_022, monkeypatch, capsys):
    db = tmp_path / "groups.sqlite"
    monkeypatch.setenv("PLANNER_STATE", str(db))
    assert main(["roll", *DAY, "--group", "Rot", "--dice", "2", "--at", "Zug", "--time", "12:40", "--json"]) == 0
    capsys.readouterr()
    assert _mode(db) == 0o600
    for side in (db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
        if side.exists():
            assert _mode(side) == 0o600
