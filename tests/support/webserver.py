"""A real ``planner serve`` on a free loopback port, for the web tests and the load benchmark.

:func:`web_game` creates a game with ``planner game new --json`` in a fresh state file; :func:`serve` starts the
server as a subprocess (its own process, as in production) and waits until it answers.
"""

from __future__ import annotations

import io
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

from tests.support import ROOT, ZUG

DAY = ["--feed", str(ZUG), "--game", "sbb-monopoly", "--date", "2021-09-11"]


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on (now)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def planner(env: dict, *args: str) -> subprocess.CompletedProcess:
    """Run the CLI (``python -m planner``) with ``env``."""
    return subprocess.run([sys.executable, "-m", "planner", *args], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=300)


def run_cli(env: dict, *args: str) -> subprocess.CompletedProcess:
    """The CLI's ``main(argv)`` in this process with ``env`` as the whole environment for the call: what
    :func:`planner` answers (exit code, stdout, stderr), without a new interpreter."""
    from planner.cli import main

    out, err = io.StringIO(), io.StringIO()
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            rc = main(list(args))
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return subprocess.CompletedProcess(["planner", *args], rc, out.getvalue(), err.getvalue())


def web_env(folder: Path, cache: Path | None = None) -> dict:
    """Environment with a private state file under ``folder``; the timetable cache ``cache`` (a fixture set up
    before the test's own environment, e.g. a module's server, passes the session's), else the test's
    ``$PLANNER_CACHE``, else one under ``folder``."""
    env = dict(os.environ)
    env["PLANNER_STATE"] = str(folder / "state.sqlite")
    if cache is not None:
        env["PLANNER_CACHE"] = str(cache)
    env.setdefault("PLANNER_CACHE", str(folder / "cache"))
    return env


def web_game(env: dict, groups: str, name: str = "Test day", base: str | None = None,
             day: list[str] | None = None) -> dict:
    """``planner game new --json`` on the Zug day, or on ``day`` (its ``--feed``, ``--date`` and ``--game``: an
    inline day's :func:`~tests.support.inline_day.day_argv`), in this process (set-up, not a test of the process);
    returns its JSON."""
    extra = ["--base-url", base] if base else []
    p = run_cli(env, "game", "new", "--name", name, "--groups", groups, *(DAY if day is None else day), *extra,
                "--json")
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


@dataclass
class Server:
    """A running server: its base URL, process and environment (its state file and cache)."""

    url: str
    port: int
    proc: subprocess.Popen
    env: dict


@contextmanager
def serve(env: dict, *args: str, port: int | None = None):
    """Start ``planner serve`` on a free port; yield the :class:`Server`; stop it (by its own pid)."""
    port = port or free_port()
    log = open(Path(env["PLANNER_STATE"]).with_suffix(f".serve-{port}.log"), "w")  # noqa: SIM115
    proc = subprocess.Popen([sys.executable, "-m", "planner", "serve", "--port", str(port), *args],
                            env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180
        while True:
            if proc.poll() is not None:
                log.flush()
                raise RuntimeError("planner serve exited: " + Path(log.name).read_text())
            try:
                with urllib.request.urlopen(url + "/", timeout=2) as r:
                    if r.status == 200:
                        break
            except (urllib.error.URLError, OSError):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("planner serve did not answer within 180 s")
            time.sleep(0.2)
        yield Server(url, port, proc, env)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``, by their ``PPid`` (a thread's ``/proc/.../children`` misses a child
    that a thread since gone started)."""
    out = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            status = (proc / "status").read_text()
        except OSError:  # gone meanwhile
            continue
        if next((line.split()[1] for line in status.splitlines() if line.startswith("PPid:")), None) == str(pid):
            out.append(int(proc.name))
    return sorted(out)


def routing_child(pid: int) -> int:
    """The routing process of the server ``pid`` (multiprocessing's spawned child, not its resource tracker)."""
    for child in _children(pid):
        cmd = Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ")
        if b"spawn_main" in cmd and b"resource_tracker" not in cmd:
            return child
    raise AssertionError(f"no routing child under {pid}: {_children(pid)}")


def process_gone(pid: int) -> bool:
    """True once ``pid`` has exited (a zombie counts: it runs no more)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z"
    except (FileNotFoundError, ProcessLookupError):  # reaped before, or between opening /proc/PID/stat and reading it
        return True
