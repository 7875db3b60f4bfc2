"""Many simulated days: each day is one unit of work, independent of the others, run through a pluggable executor.

* ``serial``: one after another in this process;
* ``process`` (default): a pool of worker processes (``workers``, default the CPU count); on Linux the workers are
  forked from a process that has the day loaded already, elsewhere each loads it once from the cache;
* ``dask``: a Dask distributed cluster (``scheduler`` address, else a ``LocalCluster`` of ``workers`` processes), for
  organisers comparing many game designs; each worker loads the day once (the optional extra ``lab``).

Results come back in day order whatever the executor, so a run's output depends on its inputs only.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import gc
import hashlib
import multiprocessing as mp
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from planner.errors import InputError
from planner.gamefile.game import load_game
from planner.gtfs.source import FeedSource
from planner.lab.day import DayConfig, DayResult, simulate_day
from planner.lab.moves import Board
from planner.service.setup.playing import GameDay, open_game_day
from planner.util.i18n import _

EXECUTORS = ("process", "serial", "dask")
SCHEDULER_DEADLINE = 20  # seconds a given Dask scheduler has to answer and show a worker, in all


@dataclass(frozen=True)
class RunSpec:
    """What a worker needs to play a day anywhere: the game day (feed path, game file, date, uniform change
    time, plain routing, the real-time feed's file) and the days' config. Plain values: it is pickled to the
    workers, and every worker that loads the day itself (a Dask worker, a spawned process) loads it from these,
    so that all of them play on the same data as the process that started the run."""

    feed: str
    game: str
    date: str
    min_transfer: float | None
    config: DayConfig
    plain: bool = False  # --no-zugzwang: plain timetable routing
    realtime: str | None = None  # --realtime: a GTFS-RT file every worker reads (a URL is fetched once, saved)
    # what the files held when the run started (:meth:`identified`; "" unchecked): a worker that lives on between
    # runs (a Dask worker of a --scheduler) must not play a day it loaded from an older feed, game or real-time file
    identity: str = ""

    def load(self, progress: bool | None = False, *, check: bool = False) -> GameDay:
        """The game day of this spec, loaded and warm (not kept: :meth:`day` keeps it). ``check`` (a worker
        loading the day itself): a day whose files no longer (or, on another machine, do not) match the spec's
        identity is refused."""
        game = load_game(self.game)
        if check and self.identity and self._identity(game.digest) != self.identity:
            raise InputError(_("the feed, game file or real-time file of this run changed since it started (or "
                               "differs where this worker runs: {feed}, {game}): nothing simulated").format(
                feed=self.feed, game=self.game))
        return open_game_day(self.feed, game, dt.date.fromisoformat(self.date), warm=True,
                             min_transfer_minutes=self.min_transfer, progress=progress, plain_timetable=self.plain,
                             realtime=self.realtime)

    def identified(self) -> RunSpec:
        """This spec with absolute paths (a worker may run in another folder) and the identity of what its files
        hold now."""
        spec = dataclasses.replace(self, feed=os.path.abspath(self.feed), game=_absolute_if_file(self.game),
                                   realtime=os.path.abspath(self.realtime) if self.realtime else None)
        return dataclasses.replace(spec, identity=spec._identity(load_game(spec.game).digest))

    def _identity(self, game_digest: str) -> str:
        h = hashlib.sha256(f"{FeedSource(self.feed).fingerprint()}\0{game_digest}\0".encode())
        if self.realtime:
            h.update(Path(self.realtime).read_bytes())
        return h.hexdigest()[:24]

    def day(self) -> tuple[GameDay, Board]:
        """This process's loaded day (loaded on first use, then kept)."""
        key = self.key
        if key not in _LOADED:
            keep(self, self.load(check=True))
        return _LOADED[key]

    @property
    def key(self) -> tuple:
        """What identifies the loaded day."""
        return (self.feed, self.game, self.date, self.min_transfer, self.plain, self.realtime, self.identity)


def _absolute_if_file(game: str) -> str:
    """A game named by a file's path as an absolute path; a shipped game's name as it is."""
    return os.path.abspath(game) if os.path.isfile(game) else game


_LOADED: dict[tuple, tuple[GameDay, Board]] = {}


def keep(spec: RunSpec, day: GameDay) -> Board:
    """Remember ``day`` as this process's day of ``spec`` (a forked worker finds it there)."""
    board = Board(day)
    _ = board.starts, board.region  # built before a fork, so that no worker builds them again
    _LOADED[spec.key] = (day, board)
    # the day stays loaded for the process's life: the collector need not walk its objects again (a full
    # collection took ~0.1 s), and forked workers then do not copy the pages it would touch
    gc.freeze()
    return board


def play_day(spec: RunSpec, index: int) -> DayResult:
    """Play day ``index`` of the run (the unit of work every executor runs).

    The collector does not run during the day; after it, one collection of the young generations frees the
    day's reference cycles (a few thousand objects), and what survives (answers the network remembers) is
    frozen with the loaded day. Left automatic, full collections walked the growing memos again and again: a
    tenth of a day's CPU, more as a long run goes on."""
    day, board = spec.day()
    enabled = gc.isenabled()
    gc.disable()
    try:
        return simulate_day(day, board, spec.config, index)
    finally:
        gc.collect(1)
        gc.freeze()
        if enabled:
            gc.enable()


def run_days(spec: RunSpec, days: int, *, executor: str = "process", workers: int | None = None,
             scheduler: str | None = None, progress: Callable[[Iterable], Iterable] | None = None) -> list[DayResult]:
    """Play days ``0 .. days-1`` and return their results in day order (``progress`` wraps the results as
    they come, e.g. a tqdm bar)."""
    check_executor(executor, scheduler)
    wrap = progress or (lambda it: it)
    if executor == "dask":  # even for one day: the organiser asked for that cluster (and learns if it answers)
        return _dask(spec, days, workers, scheduler, wrap)
    if executor == "serial" or days <= 1:
        return list(wrap(play_day(spec, i) for i in range(days)))
    return list(wrap(_pool(spec, days, workers)))


def check_executor(executor: str, scheduler: str | None) -> None:
    """Refuse an unknown executor, and a scheduler for another executor than Dask (before any day is loaded)."""
    if executor not in EXECUTORS:
        raise InputError(_("unknown executor {executor!r}: one of {known}").format(executor=executor,
                                                                                   known=", ".join(EXECUTORS)))
    if scheduler and executor != "dask":
        raise InputError(_("--scheduler {scheduler}: a scheduler is for --executor dask (not {executor})").format(
            scheduler=scheduler, executor=executor))


def _pool(spec: RunSpec, days: int, workers: int | None) -> Iterator[DayResult]:
    n = max(1, min(workers or os.cpu_count() or 1, days))
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context("spawn")
    if ctx.get_start_method() == "fork":
        spec.day()  # loaded here once, inherited by every worker
    with ProcessPoolExecutor(n, mp_context=ctx) as pool:
        # small chunks keep the workers evenly loaded (days differ in length) and the bar moving
        yield from pool.map(play_day, [spec] * days, range(days), chunksize=max(1, min(8, days // (4 * n))))


def _reach(scheduler: str, client_class: type):
    """A client of the Dask scheduler at ``scheduler`` with a worker, within :data:`SCHEDULER_DEADLINE` seconds in
    all. Dask's own timeout covers opening the connection only: an address where something else listens (an HTTP
    port) keeps its handshake waiting for good, so the client is made in a thread of its own that is given up on
    (left to end when that peer hangs up) once the deadline passes."""
    deadline = time.monotonic() + SCHEDULER_DEADLINE
    made: dict = {}

    def connect() -> None:
        try:
            # Dask's timeout (connecting: a refused port is retried until it passes) inside the deadline, so that a
            # refusal is said as one
            made["client"] = client_class(scheduler, timeout=f"{SCHEDULER_DEADLINE * 0.75:g}s")
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread, which reports it
            made["error"] = exc

    thread = threading.Thread(target=connect, name="dask-connect", daemon=True)
    thread.start()
    thread.join(SCHEDULER_DEADLINE)
    late = InputError(_("the Dask scheduler {address} did not answer within {seconds} s (is a Dask scheduler "
                        "listening there?): nothing simulated").format(address=repr(scheduler),
                                                                       seconds=SCHEDULER_DEADLINE))
    if thread.is_alive():
        raise late
    exc = made.get("error")
    if isinstance(exc, ValueError):  # not an address
        raise InputError(f"--scheduler {scheduler!r}: {' '.join(str(exc).split())[:160]}") from None
    if isinstance(exc, OSError | TimeoutError):  # refused or unreachable
        why = " ".join(str(exc).split())[:160] or type(exc).__name__
        raise InputError(_("cannot reach the Dask scheduler {address} within {seconds} s: {why}").format(
            address=repr(scheduler), seconds=SCHEDULER_DEADLINE, why=why)) from None
    if exc is not None:
        raise exc
    client = made["client"]
    try:  # a scheduler without workers would take the days and never answer
        client.wait_for_workers(1, timeout=max(0.1, deadline - time.monotonic()))
    except (OSError, TimeoutError):
        client.close()
        raise InputError(_("the Dask scheduler {address} has no workers (none came within {seconds} s): nothing "
                           "simulated").format(address=repr(scheduler), seconds=SCHEDULER_DEADLINE)) from None
    return client


def _dask(spec: RunSpec, days: int, workers: int | None, scheduler: str | None,
          wrap: Callable[[Iterable], Iterable]) -> list[DayResult]:
    try:  # an optional extra ('lab'): imported only when asked for, and said so when missing
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise InputError("the dask executor needs Dask distributed: pip install 'sbb-planner[lab]'") from None
    cluster = None
    if scheduler:
        client = _reach(scheduler, Client)
    else:
        cluster = LocalCluster(n_workers=max(1, workers or 1), threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    try:
        futures = client.map(play_day, [spec] * days, range(days), pure=False)
        out = {r.index: r for r in wrap(f.result() for f in as_completed(futures))}
        return [out[i] for i in range(days)]
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
