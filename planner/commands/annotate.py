"""Per-leg annotations for commands (delegates to the service's views, the one place they are made)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from planner.commands.base import Context

if TYPE_CHECKING:
    from planner.routing.journey import Journey


def annotate(ctx: Context, journey: Journey, d: dict) -> None:
    """Add ``crossings`` and ``bonus`` lists to each leg dict of ``d`` (in place)."""
    from planner.service.views import annotate as annotate_day

    annotate_day(ctx.day, journey, d)


def crossing_index(ctx: Context):
    """The day's crossing index (computed once per cached game day), or None without line data."""
    return ctx.day.crossing_index
