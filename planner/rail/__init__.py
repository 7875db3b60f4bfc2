"""The SBB physical line network and the toll lines / tunnels trains cross on it (docs/rules.md §2 §11-§12, §3);
what a crossing costs is the ledger's (:mod:`planner.ledger.crossing_fees`).

One job a module:

* :mod:`planner.rail.loader`: reads the ``linie-mit-betriebspunkten`` CSV;
* :mod:`planner.rail.network`: the graph of operating points, names, shortest physical paths;
* :mod:`planner.rail.crossings`: which crossings a stop sequence travels (on the path, or on the stops);
* :mod:`planner.rail.trips`: the same for the trips of a ``Timetable`` (rides given in stop-time rows);
* :mod:`planner.rail.index`: the day's crossings per trip, kept in a file beside the cached day (it and the
  loader are the package's only I/O).

Nothing is imported here: a query that reads the kept index must not load pandas and networkx (about 0.2 s
of every command's start, ``python -X importtime``) with the modules that build it.
"""
