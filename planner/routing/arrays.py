"""What the numba scans read, as three structures (named tuples of arrays and numbers, which numba passes as one
argument each): the day's (:class:`DayArrays`, fixed per network), the change-window rule's (:class:`RuleArrays`,
per network and window) and one scan's question (:class:`ScanSpec`, per query). The router
(:func:`planner.routing.query.reach`) builds the last from a :class:`~planner.routing.query.Query`."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class DayArrays(NamedTuple):
    """A network's connections, sorted by departure (``c_*``; ``zero_blocks``: where a block of zero-minute rides
    must be repeated), and its stations: platforms per station (``sta_off``/``sta_stops``), each platform's station
    and index in it, the change matrices (``mat_off``/``mat``) and the walking links (CSR by station)."""

    c_dep: np.ndarray
    c_arr: np.ndarray
    c_from: np.ndarray
    c_to: np.ndarray
    c_trip: np.ndarray
    c_row: np.ndarray
    c_pick: np.ndarray
    c_drop: np.ndarray
    zero_blocks: np.ndarray
    stop_station: np.ndarray
    sta_off: np.ndarray
    sta_stops: np.ndarray
    stop_local: np.ndarray
    mat_off: np.ndarray
    mat: np.ndarray
    link_off: np.ndarray
    link_to: np.ndarray
    link_sec: np.ndarray


class RuleArrays(NamedTuple):
    """The change-window rule's boarding groups (:attr:`TransitNetwork.station_boardings`: offsets, timetable
    departure, connection, uniform change time; per stop its group), each arrival event's precomputed interval for
    one window (``ev_k0``/``ev_k1``/``ev_h0``: :meth:`TransitNetwork.event_intervals`), each stop's shortest and
    longest change, and the predicted departures with their spans (:attr:`TransitNetwork.boarding_times`)."""

    sd_off: np.ndarray
    sd_time: np.ndarray
    sd_conn: np.ndarray
    sd_ct: np.ndarray
    stop_group: np.ndarray
    ev_k0: np.ndarray
    ev_k1: np.ndarray
    ev_h0: np.ndarray
    ct_lo: np.ndarray
    ct_hi: np.ndarray
    sd_real: np.ndarray
    sd_late: np.ndarray
    sd_early: np.ndarray


class ScanSpec(NamedTuple):
    """One scan's question in the kernels' terms: the last departure to scan (the first is the first departing at
    ``start_time``), the level cap ``K`` (trips), the origin (a station: ``origin_station >= 0``, standing there at ``start_time`` since
    ``since``; or a trip: ``origin_trip >= 0`` at row ``origin_row``, getting off at ``origin_stop`` at
    ``origin_arr`` when ``origin_drop``), the change window ``W`` (seconds; the rule scan only), the targets (station
    indexes and their mask; none: every station), their lower bounds ``lb`` (no rows: none) and ``arrive_by``."""

    end_time: int
    n_trips: int
    K: int
    origin_station: int
    start_time: int
    since: int
    W: int
    origin_trip: int
    origin_row: int
    origin_arr: int
    origin_stop: int
    origin_drop: bool
    targets: np.ndarray
    is_target: np.ndarray
    lb: np.ndarray
    arrive_by: int


def label_parts(n_stops: int, n_trips: int, K: int, n_parents: int, n_marks: int) -> tuple[int, ...]:
    """Where a scan's labels lie in the two buffers it returns (numba boxes each array a kernel returns on a slow
    path, about a microsecond each: so the labels come back as one int32 and one int8 buffer). The int32 one holds
    ``arr``, ``arr_conn`` (stop x level), ``board`` (trip x level), ``alo`` (stop x 2) and the parents (the plain
    scan's ``ready_from``, stop x level; the rule scan's ``mark_from``, one per connection); the int8 one
    ``arr_lvl`` (stop x level), ``lvl`` (per trip) and the rule scan's ``mark`` (per connection). Returns the end of
    each part in order, then the sizes of the two buffers' parts' ends for the int8 one."""
    sl = n_stops * (K + 1)
    e_arr = sl
    e_conn = 2 * sl
    e_board = e_conn + n_trips * (K + 1)
    e_alo = e_board + 2 * n_stops
    e_par = e_alo + n_parents
    b_lvl8 = sl
    b_trip = b_lvl8 + n_trips
    b_mark = b_trip + n_marks
    return e_arr, e_conn, e_board, e_alo, e_par, b_lvl8, b_trip, b_mark


def label_views(big: np.ndarray, small: np.ndarray, n_stops: int, n_trips: int, K: int, n_parents: int,
                n_marks: int, parents_per_stop: bool) -> tuple[np.ndarray, ...]:
    """The arrays in a scan's two buffers (:func:`label_parts`): ``arr, arr_conn, arr_lvl, board, alo, lvl,
    parents, mark``."""
    e_arr, e_conn, e_board, e_alo, e_par, b_lvl8, b_trip, b_mark = label_parts(n_stops, n_trips, K, n_parents,
                                                                              n_marks)
    L = K + 1
    parents = big[e_alo:e_par]
    return (big[:e_arr].reshape(n_stops, L), big[e_arr:e_conn].reshape(n_stops, L), small[:b_lvl8].reshape(n_stops, L),
            big[e_conn:e_board].reshape(n_trips, L), big[e_board:e_alo].reshape(n_stops, 2), small[b_lvl8:b_trip],
            parents.reshape(n_stops, L) if parents_per_stop else parents, small[b_trip:b_mark])


class Compiled:
    """A numba kernel called through its compiled entry point once numba's dispatcher has compiled (or loaded) it:
    the structures above are built with fixed types (the network's arrays by ``astype``, the query's from ints and
    the network's own arrays), so a kernel has one signature, and the dispatcher's typing of two named tuples of
    arrays on every call (about 10 us, a third of a small day's one-to-one query) buys nothing. With a second
    signature (some caller passing other types) every call goes through the dispatcher again."""

    __slots__ = ("dispatcher", "entry")

    def __init__(self, dispatcher):
        self.dispatcher = dispatcher
        self.entry = None

    def __call__(self, *args):
        """Run the kernel on ``args``."""
        entry = self.entry
        if entry is not None:
            return entry(*args)
        out = self.dispatcher(*args)
        overloads = self.dispatcher.overloads
        if len(overloads) == 1:
            self.entry = next(iter(overloads.values())).entry_point
        return out
