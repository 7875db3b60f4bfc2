"""The players' phone app (`planner serve`): Starlette pages and JSON API over planner.web.usecases."""
