"""The dependencies pyproject.toml declares are exactly the third-party packages ``planner/`` imports."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from pathlib import Path

from tests.support import ROOT


def test_declared_dependencies_match_imports():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    declared = {re.split(r"[<>=\[; ]", d)[0].lower().replace("-", "_") for d in project["dependencies"]}
    imported: set[str] = set()
    for path in Path(ROOT / "planner").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                imported |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module.split(".")[0])
    third_party = {m.lower() for m in imported if m not in sys.stdlib_module_names and m != "planner"}
    data_only = {"tzdata"}  # zoneinfo's time-zone data on systems without one: never imported by name
    # optional extras: the module planner imports (guarded: a one-line error without it) -> its extra's package
    optional = {"dask": ("lab", "distributed")}
    assert third_party - set(optional) == declared - data_only
    for module, (extra, package) in optional.items():
        assert module in third_party
        assert package in {re.split(r"[<>=\[; ]", d)[0] for d in project["optional-dependencies"][extra]}
