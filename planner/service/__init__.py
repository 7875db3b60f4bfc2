"""The service layer: one use case per question or change of a game, shared by every interface.

Use cases take typed requests (seconds, names as typed), return typed results, never print. The CLI
(``planner/commands``) and the web app call the same functions with a :class:`Play` (a game being played:
its loaded :class:`GameDay`, its record and the state).
"""

from planner.service.change.group_day import (
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
from planner.service.questions.group_states import (
    groups_answer,
    position_answer,
    state_fields,
    status_answer,
    status_json,
    undo_answer,
)
from planner.service.questions.next_step import NextStep, group_origin, next_json, next_step
from planner.service.read.positions import Place, PlaceRequest, resolve_place
from planner.service.setup.playing import GameDay, Play, chosen_game, implicit_record

__all__ = [
    "GameDay", "GroupStatus", "NextStep", "Place", "PlaceRequest", "Play", "RollRequest", "RollResult",
    "UndoResult", "chosen_game", "group_origin", "groups_answer", "implicit_record", "list_groups", "next_json",
    "next_step", "position_answer", "report_position", "resolve_place", "roll", "set_position", "state_fields",
    "status", "status_answer", "status_json", "undo", "undo_answer",
]
