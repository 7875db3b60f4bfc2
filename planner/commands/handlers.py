"""Every command's handler as a function: the grammar names them (``handler=handlers.cmd_roll``), so a reader
goes from a command's options to its code in one step.

Each imports its command module when the command runs, not when the grammar is built: the command modules load
the routing kernels, pandas or folium (together about 2.5 s, measured with ``python -X importtime``), which
``planner --help`` and a usage error never need (tests/project/test_start_up.py)."""

from __future__ import annotations

from argparse import Namespace


def cmd_demo(args: Namespace) -> int:
    """``planner.commands.demo.cmd_demo``."""
    from planner.commands.demo import cmd_demo as run

    return run(args)


def cmd_export(args: Namespace) -> int:
    """``planner.commands.export.cmd_export``."""
    from planner.commands.export import cmd_export as run

    return run(args)


def cmd_download(args: Namespace) -> int:
    """``planner.commands.feed.cmd_download``."""
    from planner.commands.feed import cmd_download as run

    return run(args)


def cmd_feed_info(args: Namespace) -> int:
    """``planner.commands.feed.cmd_feed_info``."""
    from planner.commands.feed import cmd_feed_info as run

    return run(args)


def cmd_stations(args: Namespace) -> int:
    """``planner.commands.feed.cmd_stations``."""
    from planner.commands.feed import cmd_stations as run

    return run(args)


def cmd_group_list(args: Namespace) -> int:
    """``planner.commands.group.cmd_group_list``."""
    from planner.commands.group import cmd_group_list as run

    return run(args)


def cmd_group_position(args: Namespace) -> int:
    """``planner.commands.group.cmd_group_position``."""
    from planner.commands.group import cmd_group_position as run

    return run(args)


def cmd_group_status(args: Namespace) -> int:
    """``planner.commands.group.cmd_group_status``."""
    from planner.commands.group import cmd_group_status as run

    return run(args)


def cmd_group_undo(args: Namespace) -> int:
    """``planner.commands.group.cmd_group_undo``."""
    from planner.commands.group import cmd_group_undo as run

    return run(args)


def cmd_next(args: Namespace) -> int:
    """``planner.commands.group.cmd_next``."""
    from planner.commands.group import cmd_next as run

    return run(args)


def cmd_roll(args: Namespace) -> int:
    """``planner.commands.group.cmd_roll``."""
    from planner.commands.group import cmd_roll as run

    return run(args)


def cmd_advise(args: Namespace) -> int:
    """``planner.commands.lab.cmd_advise``."""
    from planner.commands.lab import cmd_advise as run

    return run(args)


def cmd_simulate(args: Namespace) -> int:
    """``planner.commands.lab.cmd_simulate``."""
    from planner.commands.lab import cmd_simulate as run

    return run(args)


def cmd_end(args: Namespace) -> int:
    """``planner.commands.ledger.cmd_end``."""
    from planner.commands.ledger import cmd_end as run

    return run(args)


def cmd_event(args: Namespace) -> int:
    """``planner.commands.ledger.cmd_event``."""
    from planner.commands.ledger import cmd_event as run

    return run(args)


def cmd_feed(args: Namespace) -> int:
    """``planner.commands.ledger.cmd_feed``."""
    from planner.commands.ledger import cmd_feed as run

    return run(args)


def cmd_now(args: Namespace) -> int:
    """``planner.commands.ledger.cmd_now``."""
    from planner.commands.ledger import cmd_now as run

    return run(args)


def cmd_status(args: Namespace) -> int:
    """``planner.commands.ledger.cmd_status``."""
    from planner.commands.ledger import cmd_status as run

    return run(args)


def cmd_check_area(args: Namespace) -> int:
    """``planner.commands.organiser.cmd_check_area``."""
    from planner.commands.organiser import cmd_check_area as run

    return run(args)


def cmd_handout(args: Namespace) -> int:
    """``planner.commands.organiser.cmd_handout``."""
    from planner.commands.organiser import cmd_handout as run

    return run(args)


def cmd_map(args: Namespace) -> int:
    """``planner.commands.organiser.cmd_map``."""
    from planner.commands.organiser import cmd_map as run

    return run(args)


def cmd_route(args: Namespace) -> int:
    """``planner.commands.route.cmd_route``."""
    from planner.commands.route import cmd_route as run

    return run(args)


def cmd_bonus(args: Namespace) -> int:
    """``planner.commands.questions.cmd_bonus``."""
    from planner.commands.questions import cmd_bonus as run

    return run(args)


def cmd_target(args: Namespace) -> int:
    """``planner.commands.questions.cmd_target``."""
    from planner.commands.questions import cmd_target as run

    return run(args)


def cmd_tolls(args: Namespace) -> int:
    """``planner.commands.questions.cmd_tolls``."""
    from planner.commands.questions import cmd_tolls as run

    return run(args)


def cmd_zugzwang(args: Namespace) -> int:
    """``planner.commands.questions.cmd_zugzwang``."""
    from planner.commands.questions import cmd_zugzwang as run

    return run(args)


def cmd_schema(args: Namespace) -> int:
    """``planner.commands.schema.cmd_schema``."""
    from planner.commands.schema import cmd_schema as run

    return run(args)


def cmd_game_new(args: Namespace) -> int:
    """``planner.commands.web.cmd_game_new``."""
    from planner.commands.web import cmd_game_new as run

    return run(args)


def cmd_serve(args: Namespace) -> int:
    """``planner.commands.web.cmd_serve``."""
    from planner.commands.web import cmd_serve as run

    return run(args)
