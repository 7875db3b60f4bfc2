"""The game lab: whole game days simulated through the service layer, the report on the game they give, and the
advice which stations pay (issue 21).

A simulated group plays by the same use cases as a real one (:mod:`planner.service`): its rolls, positions and
money events are recorded in a state of its own day (``State(":memory:")``), so no rule has a second
implementation here. ``strategies`` decides what a group does where the rules leave it a choice, ``day`` plays
one day, ``run`` plays many (an executor), ``report`` turns them into numbers, ``render`` into a page, ``advise``
uses the numbers during a real game.
"""
