"""Benchmarks (``make bench``); each writes its results as JSON under ``bench/out/``."""

from __future__ import annotations

import json
from pathlib import Path

from planner.util.atomic import atomic_write_text

OUT = Path(__file__).resolve().parent / "out"


def write_results(name: str, results: object, *, indent: int = 2) -> Path:
    """Write ``results`` to ``bench/out/<name>.json`` atomically (a killed run leaves the last good file); a dict
    gets the machine's pace read now (``machine_pace_ms``, :mod:`bench.pace`), to compare figures across phases."""
    # imported here: `python -m bench.pace` runs that module as __main__, and a package that imported it first
    # makes runpy warn of two copies
    from bench.pace import pace_ms

    if isinstance(results, dict):
        results = {**results, "machine_pace_ms": pace_ms()}
    path = OUT / f"{name}.json"
    atomic_write_text(path, json.dumps(results, indent=indent))
    return path
