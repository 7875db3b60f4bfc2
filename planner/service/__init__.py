"""The service layer: one use case per question or change of a game, shared by every interface.

Use cases take typed requests (seconds, names as typed), return typed results, never print. The CLI
(``planner/commands``) and the web app call the same functions with a :class:`Play` (a game being played:
its loaded :class:`GameDay`, its record and the state).
"""

from planner.service.gameday import GameDay
from planner.service.group import (
    GroupStatus,
    RollRequest,
    RollResult,
    UndoResult,
    list_groups,
    report_position,
    roll,
    set_position,
    status,
    undo,
)
from planner.service.next import NextAnswer, group_origin, next_json, next_step, state_json, status_json
from planner.service.play import Play, chosen_game, implicit_record
from planner.service.positions import Place, PlaceRequest, resolve_place

__all__ = [
    "GameDay", "GroupStatus", "NextAnswer", "Place", "PlaceRequest", "Play", "RollRequest", "RollResult",
    "UndoResult", "chosen_game", "group_origin", "implicit_record", "list_groups", "next_json", "next_step",
    "report_position", "resolve_place", "roll", "set_position", "state_json", "status", "status_json", "undo",
]
