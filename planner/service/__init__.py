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
from planner.service.next import NextStep, group_origin, next_json, next_step
from planner.service.play import Play, chosen_game, implicit_record
from planner.service.positions import Place, PlaceRequest, resolve_place
from planner.service.states import (
    groups_answer,
    position_answer,
    state_fields,
    status_answer,
    status_json,
    undo_answer,
)

__all__ = [
    "GameDay", "GroupStatus", "NextStep", "Place", "PlaceRequest", "Play", "RollRequest", "RollResult",
    "UndoResult", "chosen_game", "group_origin", "groups_answer", "implicit_record", "list_groups", "next_json",
    "next_step", "position_answer", "report_position", "resolve_place", "roll", "set_position", "state_fields",
    "status", "status_answer", "status_json", "undo", "undo_answer",
]
