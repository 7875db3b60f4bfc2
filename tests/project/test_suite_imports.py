"""The test suite's own imports: fixtures come from conftest.py (never imported), plain helpers from the one
helper package ``tests.support`` under that one name, and no test module imports another."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def _imports(path: Path) -> list[tuple[int, str]]:
    out = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            out.append((node.lineno, "." * node.level + (node.module or "")))
    return out


@cache
def _own() -> frozenset[str]:
    """The names the tests' own modules and folders could be imported by (listed once, not once per import)."""
    return frozenset({p.stem for p in TESTS.rglob("*.py")} | {p.name for p in TESTS.iterdir() if p.is_dir()})


def _local(name: str) -> bool:
    """Whether ``name`` is one of the tests' own modules, under any name it could be imported by."""
    head = name.split(".")[0]
    return name.startswith(".") or head == "tests" or head in _own()


def test_tests_import_only_the_support_package_of_their_own():
    bad = [f"{p.name}:{line} {name}" for p in sorted(TESTS.rglob("*.py")) for line, name in _imports(p)
           if _local(name) and not (name == "tests.support" or name.startswith("tests.support."))]
    assert bad == []


def test_the_support_package_is_no_test():
    support = TESTS / "support"
    assert not [p.name for p in support.rglob("*.py") if p.name.startswith("test_") or "def test_" in p.read_text()]
