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
    """One scan's question in the kernels' terms: the first connection and the last departure to scan, the level
    cap ``K`` (trips), the origin (a station: ``origin_station >= 0``, standing there at ``start_time`` since
    ``since``; or a trip: ``origin_trip >= 0`` at row ``origin_row``, getting off at ``origin_stop`` at
    ``origin_arr`` when ``origin_drop``), the change window ``W`` (seconds; the rule scan only), the targets (station
    indexes and their mask; none: every station), their lower bounds ``lb`` (no rows: none) and ``arrive_by``."""

    start_idx: int
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
