"""Benchmarks (``make bench``); each writes its results as JSON under ``bench/out/``."""

from __future__ import annotations

import json
from pathlib import Path

from planner.util.atomic import atomic_write_text

OUT = Path(__file__).resolve().parent / "out"


def write_results(name: str, results: object, *, indent: int = 2) -> Path:
    """Write ``results`` to ``bench/out/<name>.json`` atomically (a killed run leaves the last good file)."""
    path = OUT / f"{name}.json"
    atomic_write_text(path, json.dumps(results, indent=indent))
    return path
