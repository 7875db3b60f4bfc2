"""The latest first departure a standing group may take under the change window (variant A §4.2): the origin
case of :func:`planner.routing.rule_scan._event`, for :meth:`planner.routing.origin.Origin.first_departure_limit`
(the later-departure search and the plain shortcut's test), on timetable and on predicted times."""

from __future__ import annotations

import numba as nb

from planner.routing.csa import INF
from planner.routing.rule_scan import _lower


@nb.njit(cache=True, nogil=True)
def first_departure_limit(s, t, w_end, sd_off, sd_time, link_off, link_to, link_sec):
    """Latest first departure a group standing at ``s`` at ``t`` may take (the origin case of ``_event``):
    ``w_end`` when anything (here or after a walk) leaves in the window, else the last second of the forced
    minute; ``t`` when nothing leaves at all."""
    forced = INF
    k = _lower(sd_time, sd_off[s], sd_off[s + 1], t)
    if k < sd_off[s + 1]:
        if sd_time[k] <= w_end:
            return w_end
        forced = sd_time[k]
    for li in range(link_off[s], link_off[s + 1]):
        s2 = link_to[li]
        k = _lower(sd_time, sd_off[s2], sd_off[s2 + 1], t + link_sec[li])
        if k < sd_off[s2 + 1]:
            if sd_time[k] <= w_end:
                return w_end
            forced = min(forced, sd_time[k])
    return t if forced == INF else (forced // 60) * 60 + 59


@nb.njit(cache=True, nogil=True)
def first_departure_limit_real(s, t, w_end, sd_off, sd_time, sd_real, sd_late, link_off, link_to, link_sec):
    """:func:`first_departure_limit` on predicted times: the latest *predicted* departure among the trains a
    group standing at ``s`` at ``t`` may take (caught by predicted time, held by the window by timetable time,
    else the forced minute's); ``t`` when there is none."""
    best = -1
    found = False
    forced = INF
    for li in range(-1, link_off[s + 1] - link_off[s]):
        s2 = s if li < 0 else link_to[link_off[s] + li]
        need = t if li < 0 else t + link_sec[link_off[s] + li]
        k = _lower(sd_time, sd_off[s2], sd_off[s2 + 1], need - sd_late[s2])
        while k < sd_off[s2 + 1]:
            if sd_real[k] >= need:
                if sd_time[k] <= w_end:
                    found = True
                    best = max(best, sd_real[k])
                else:
                    forced = min(forced, sd_time[k])
                    break
            k += 1
    if found:
        return best
    if forced == INF:
        return t
    last = (forced // 60) * 60 + 59
    for li in range(-1, link_off[s + 1] - link_off[s]):
        s2 = s if li < 0 else link_to[link_off[s] + li]
        need = t if li < 0 else t + link_sec[link_off[s] + li]
        k = _lower(sd_time, sd_off[s2], sd_off[s2 + 1], need - sd_late[s2])
        while k < sd_off[s2 + 1] and sd_time[k] <= last:
            if sd_real[k] >= need and sd_time[k] >= forced:
                best = max(best, sd_real[k])
            k += 1
    return best if best >= 0 else t
