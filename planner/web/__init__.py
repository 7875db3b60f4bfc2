"""The players' phone app (``planner serve``): Starlette pages and a JSON API over the service layer.

* :mod:`planner.web.app`: the ASGI app, its routes and pages; :mod:`planner.web.answers`: its one door into the
  use cases (the game and day of a request, the answer exactly as the command line's);
* :mod:`planner.web.days`: the game days, each loaded once; :mod:`planner.web.worker`: the child process that
  routes (rolls, positions, next trains);
* :mod:`planner.web.security`: tokens, rate limits, same-site checks, request bodies;
  :mod:`planner.web.responses`: headers, JSON, the service worker; :mod:`planner.web.language`: a request's
  language and the scripts' catalog; :mod:`planner.web.documents`: the organiser's report and area map.
"""
