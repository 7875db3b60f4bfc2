"""What the server's routing child computes is a table of functions, not of names: a renamed method cannot
silently leave the child, and a method not in it is never sent there."""

from __future__ import annotations

import pytest

from planner.web.answers import Answers
from planner.web.worker import ROUTED, RoutingWorker, routed


def test_the_table_holds_the_answers_that_route_and_nothing_else():
    assert all(getattr(Answers, f.__name__) is f for f in ROUTED)
    assert {f.__name__ for f in ROUTED} >= {"roll", "next_step", "ledger_event"}


def test_a_bound_method_is_routed_by_what_it_is_not_by_its_name():
    answers = Answers.__new__(Answers)
    assert routed(answers.roll) and routed(answers.next_step)
    assert not routed(answers.group_state)

    def roll():  # same name, another function
        return None

    assert not routed(roll)


def test_the_child_refuses_a_method_outside_the_table():
    worker = RoutingWorker.__new__(RoutingWorker)
    answers = Answers.__new__(Answers)
    call = worker.call(answers.group_state, "g", "Rot", {})  # refused before its first await: no event loop needed
    with pytest.raises(ValueError, match="group_state is not computed by the routing child"):
        call.send(None)
