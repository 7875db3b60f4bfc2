"""The money side of the game (pure: no I/O; its events are stored by :mod:`planner.store.ledger`).

* :mod:`planner.ledger.model`: events, holdings and the state they add up to; :mod:`planner.ledger.money_rules`: the
  money rules read from the game file;
* :mod:`planner.ledger.apply`: one event checked against the state and applied, with one module per kind of rule
  (:mod:`~planner.ledger.purchase`, :mod:`~planner.ledger.dues`, :mod:`~planner.ledger.cards`,
  :mod:`~planner.ledger.sales`, :mod:`~planner.ledger.diceoff`, :mod:`~planner.ledger.reported_jail`) and what they share
  (:mod:`~planner.ledger.moves`); :mod:`planner.ledger.position`: whether a claim fits the group's whereabouts;
* :mod:`planner.ledger.corrections`: the day replayed in decision-time order, voided events;
  :mod:`planner.ledger.capital`: capital, debts and the end ranking; :mod:`planner.ledger.messages`: the §13/§19
  messages;
* :mod:`planner.ledger.fees`, :mod:`planner.ledger.crossing_fees`: the fees of an itinerary and of a crossing;
  :mod:`planner.ledger.owed`: what a group still owes for the stops of its day.
"""
