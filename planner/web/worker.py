"""The routing process of ``planner serve``: rolls, positions and next trains are computed in one child process.

A dice answer is ~20 ms of routing that holds Python's GIL; in the server process it would make every state poll
arriving meanwhile wait. In a child process (its own copy of the game days, loaded once) the server process stays
free to answer polls from memory and SQLite. One child computes one request after the other, as one server
process did: a roll and the saving of its answer stay together, so a retried submit finds the full answer.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from planner.store.state import State
from planner.web.answers import Answers
from planner.web.days import Days

ROUTED = ("roll", "position", "undo", "next_step", "next_trains", "ledger_event")  # Answers methods the child computes

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


def _call(name: str, *args):
    return getattr(_answers, name)(*args)


class RoutingWorker:
    """The child process (started with ``spawn``: no threads or locks inherited from the server)."""

    def __init__(self, state: str | Path | None, *, feed: str | None, realtime: str | None = None):
        self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"), initializer=_start,
                                         initargs=(None if state is None else str(state), feed, realtime))
        self._pool.submit(_ready).result()  # loaded (or its error surfaces here, at start-up)

    async def call(self, name: str, *args):
        """``Answers.<name>(*args)`` computed in the child."""
        return await asyncio.get_running_loop().run_in_executor(self._pool, _call, name, *args)

    def close(self) -> None:
        """Stop the child."""
        self._pool.shutdown(cancel_futures=True)
