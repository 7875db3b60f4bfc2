"""The routing process of ``planner serve``: rolls, positions and next trains are computed in one child process.

A dice answer is ~20 ms of routing that holds Python's GIL; in the server process it would make every state poll
arriving meanwhile wait. In a child process (its own copy of the game days, loaded once) the server process stays
free to answer polls from memory and SQLite. One child computes one request after the other, as one server
process did: a roll and the saving of its answer stay together, so a retried submit finds the full answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import secrets
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from planner.store.state import State
from planner.util.i18n import N_, use_language
from planner.web.answers import Answers
from planner.web.days import Days
from planner.web.security import HttpError

# The Answers methods the child computes, as functions (a renamed method fails here, at import, instead of
# silently leaving the child).
ROUTED = frozenset({Answers.roll, Answers.position, Answers.undo, Answers.next_step, Answers.next_trains,
                    Answers.ledger_event})
# sent again after a crash, as they record nothing twice: reads, rolls (under their roll id) and ledger events
# that carry an event id
RESENDABLE = frozenset({Answers.roll, Answers.next_step, Answers.next_trains})


def routed(method) -> bool:
    """Whether a bound ``Answers`` method is one the routing child computes (``ROUTED``)."""
    return getattr(method, "__func__", None) in ROUTED
CLOSE_GRACE = 2.0  # seconds the child has to finish its request once uvicorn let requests end, then it is killed

_answers = None  # the child's Answers


def _start(state: str | None, feed: str | None, realtime: str | None = None) -> None:
    global _answers

    parent = os.getppid()
    threading.Thread(target=_exit_with, args=(parent,), daemon=True).start()
    days = Days(feed, realtime)
    with State(state) as st:
        days.warm(st.games.games())  # the games present now; later ones load on their first request
    _answers = Answers(state, days)


def _exit_with(parent: int) -> None:
    # A server killed without its shutdown (SIGKILL, or a signal re-raised after it) must not leave the child.
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)


def _ready() -> bool:
    return _answers is not None


def _call(name: str, lang: str | None, *args):
    with use_language(lang):  # the request's language (planner/web/language.py)
        return getattr(_answers, name)(*args)


class WorkerFailed(Exception):
    """The routing child died and a new one could not be started: the server must stop (exit non-zero)."""


class RoutingWorker:
    """The child process (started with ``spawn``: no threads or locks inherited from the server).

    A child that dies (``kill -9``, the OOM killer) is replaced by a new one on the next request. A request that
    never reached the dead child is sent to the new one; one that may have been running in it is sent again
    only when that cannot record anything twice (reads; rolls, each carrying a roll id, so a second send replays
    the first; ledger events that carry an event id), else it is answered 503 "send it again". When no new child starts, :attr:`failed`
    says why, :attr:`on_failed` is called and :class:`WorkerFailed` is raised (the server then stops, exit 1).
    """

    def __init__(self, state: str | Path | None, *, feed: str | None, realtime: str | None = None):
        self._initargs = (None if state is None else str(state), feed, realtime)
        self._lock = threading.Lock()
        self.restarts = 0
        self.failed: str | None = None
        self.on_failed: Callable[[], None] | None = None  # called once when no new child starts (stop the server)
        self._pool = self._new_pool()  # loaded (or its error surfaces here, at start-up)

    def _new_pool(self) -> ProcessPoolExecutor:
        pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"), initializer=_start,
                                   initargs=self._initargs)
        try:
            pool.submit(_ready).result()
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        return pool

    def _replace(self, broken: ProcessPoolExecutor) -> ProcessPoolExecutor:
        """The pool after ``broken``: a new child, started once whoever notices first (blocking: a thread)."""
        with self._lock:
            if self.failed is not None:
                raise WorkerFailed(self.failed)
            if self._pool is broken:
                broken.shutdown(wait=False, cancel_futures=True)
                try:
                    self._pool = self._new_pool()
                except Exception as exc:  # noqa: BLE001 - whatever stops the child from loading the days
                    self.failed = f"the routing process died and could not be restarted ({type(exc).__name__}: {exc})"
                    if self.on_failed is not None:
                        self.on_failed()
                    raise WorkerFailed(self.failed) from None
                self.restarts += 1
            return self._pool

    async def call(self, method, *args, lang: str | None = None):
        """``method(*args)``, one of ``ROUTED``, computed by the child's own Answers (see the class docstring), its
        texts in ``lang``; a group's request has its input last."""
        fn = getattr(method, "__func__", method)
        if fn not in ROUTED:
            raise ValueError(f"{fn.__name__} is not computed by the routing child")
        name = fn.__name__
        inp = args[-1] if args and isinstance(args[-1], dict) else {}
        if fn is Answers.roll and not inp.get("roll_id"):  # a second send replays the first
            args = (*args[:-1], {**inp, "roll_id": "srv-" + secrets.token_urlsafe(12)})
        resend = fn in RESENDABLE or (fn is Answers.ledger_event and bool(inp.get("event_id")))
        loop = asyncio.get_running_loop()
        pool = self._pool
        try:
            fut = loop.run_in_executor(pool, _call, name, lang, *args)
        except (BrokenProcessPool, RuntimeError):  # broken (or shut down) before this request: it never ran
            pool = await asyncio.to_thread(self._replace, pool)
            return await loop.run_in_executor(pool, _call, name, lang, *args)
        try:
            return await fut
        except BrokenProcessPool:
            pool = await asyncio.to_thread(self._replace, pool)
            if not resend:
                raise HttpError(503, N_("the routing process restarted while this was computed; send it again"),
                                {"Retry-After": "1"}) from None
            return await loop.run_in_executor(pool, _call, name, lang, *args)

    async def ping(self) -> None:
        """Return once the child answers (a dead one is replaced first)."""
        loop = asyncio.get_running_loop()
        pool = self._pool
        try:
            await loop.run_in_executor(pool, _ready)
        except (BrokenProcessPool, RuntimeError):
            pool = await asyncio.to_thread(self._replace, pool)
            await loop.run_in_executor(pool, _ready)

    def close(self, grace: float | None = None) -> None:
        """Stop the child: it finishes the request it computes within ``grace`` seconds (default
        :data:`CLOSE_GRACE`), else it is killed (a read hung for good must not keep the server from stopping)."""
        pool = self._pool
        children = list(getattr(pool, "_processes", None) or {})  # pids: the executor lists its processes nowhere else
        pool.shutdown(wait=False, cancel_futures=True)
        deadline = time.monotonic() + (CLOSE_GRACE if grace is None else grace)
        for pid in children:
            while _running(pid) and time.monotonic() < deadline:
                time.sleep(0.05)
            if _running(pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)


def _running(pid: int) -> bool:
    """True while the child ``pid`` runs (an exited child not yet reaped runs no more)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    except OSError:  # no /proc (not Linux): ask the kernel; a zombie counts as running there
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
