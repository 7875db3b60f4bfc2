"""The code stays readable by size: every module of ``planner/`` under 400 lines, every function under 80,
unless a ``# long: why`` comment right above it says why not (the numba kernels); the page's scripts
(``planner/web/static/*.js``, vendored libraries aside) under 400 lines too."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.support import ROOT

MAX_MODULE = 400
MAX_FUNCTION = 80


def _modules() -> list[Path]:
    return sorted((ROOT / "planner").rglob("*.py"))


def test_every_module_is_under_400_lines():
    long = {str(p.relative_to(ROOT)): n for p in _modules() if (n := p.read_text("utf-8").count("\n")) >= MAX_MODULE}
    assert long == {}


def test_every_page_script_is_under_400_lines():
    """A page script is read as a module is: one concern a file (the page's own, not a vendored library)."""
    scripts = sorted(p for p in (ROOT / "planner" / "web" / "static").glob("*.js") if ".min." not in p.name)
    assert scripts, "the page's scripts moved: point this test at them"
    long = {str(p.relative_to(ROOT)): n for p in scripts if (n := p.read_text("utf-8").count("\n")) >= MAX_MODULE}
    assert long == {}


def test_every_function_is_under_80_lines_or_says_why():
    long = []
    for p in _modules():
        lines = p.read_text("utf-8").splitlines()
        for node in ast.walk(ast.parse("\n".join(lines))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                size = node.end_lineno - node.lineno + 1
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                above = " ".join(lines[max(first - 3, 0): first - 1])
                if size >= MAX_FUNCTION and "# long:" not in above:
                    long.append(f"{p.relative_to(ROOT)}:{node.lineno} {node.name} {size} lines")
    assert long == []
