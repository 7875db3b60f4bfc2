"""The service layer: one use case per question or change of a group's day, shared by every interface.

Use cases take typed requests (seconds, names as typed), return typed results, never print. The CLI
(``planner/commands``) and the web app call the same functions with a :class:`GameDay` loaded once.
"""

from planner.service.gameday import GameDay
from planner.service.group import (
    GroupStatus,
    RollRequest,
    RollResult,
    UndoResult,
    group_day,
    list_groups,
    roll,
    set_position,
    status,
    undo,
)
from planner.service.next import NextAnswer, group_origin, next_json, next_step, state_json, status_json
from planner.service.positions import Place, PlaceRequest, resolve_place

__all__ = [
    "GameDay", "GroupStatus", "NextAnswer", "Place", "PlaceRequest", "RollRequest", "RollResult", "UndoResult",
    "group_day", "group_origin", "list_groups", "next_json", "next_step", "resolve_place", "roll", "set_position", "state_json",
    "status", "status_json", "undo",
]
