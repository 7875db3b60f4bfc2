"""The import architecture: packages of ``planner/`` form layers, every import points down, and no two
packages import each other (imports inside functions count). The order is written here once; ARCHITECTURE.md
shows the same chain, and a test below keeps the two equal."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Bottom to top. A package may import its own modules and any package to its left, never one to its right.
# web sits below commands because `planner serve` (an adapter of the command line) starts the web app.
LAYERS = ("errors", "util", "config", "gamefile", "timetable", "gtfs", "realtime", "routing", "rail", "game",
          "ledger", "store", "organiser", "maps", "service", "lab", "web", "commands", "cli", "__main__")
# The core never imports an adapter or the use cases, whatever the order above says.
CORE = ("timetable", "gtfs", "realtime", "routing", "game", "rail", "ledger")
ABOVE_CORE = ("service", "commands", "web", "maps")


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _targets(node: ast.AST, module: str, is_package: bool) -> list[str]:
    """Modules an import statement names, absolute (``from . import x`` resolved)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level:
        base = module.split(".")
        if not is_package:
            base = base[:-1]
        base = base[: len(base) - (node.level - 1)]
        start = ".".join(base + ([node.module] if node.module else []))
    else:
        start = node.module or ""
    return [start] + [f"{start}.{a.name}" for a in node.names]


def packages(root: Path) -> set[str]:
    """The packages of the tree ``root``: each folder below it that holds Python code (with an ``__init__.py`` or
    without: a folder without one is still imported as a namespace package, and its imports must count) and each
    module at its top level."""
    units = {p.name for p in root.iterdir() if p.is_dir() and p.name != "__pycache__" and any(p.rglob("*.py"))}
    return units | {p.stem for p in root.glob("*.py") if p.stem != "__init__"}


def import_edges(root: Path, *, modules: bool = False) -> dict[tuple[str, str], list[str]]:
    """``(package, imported package) -> ["file:line module", ...]`` for every import in the tree ``root``
    (a top-level package such as ``planner/``), at module level or inside a function alike. A package is a
    folder below ``root`` or a module at its top level. With ``modules``, the same between modules, where
    importing an enclosing package (its ``__init__``) does not count."""
    top = root.name
    units = packages(root)
    names = {_module_name(p, root) for p in root.rglob("*.py")}

    def unit(mod: str) -> str | None:
        if modules:
            while mod and mod not in names:
                mod = mod.rpartition(".")[0]
            return mod or None
        parts = mod.split(".")
        return parts[1] if parts[0] == top and len(parts) > 1 and parts[1] in units else None

    edges: dict[tuple[str, str], list[str]] = {}
    for path in sorted(root.rglob("*.py")):
        module = _module_name(path, root)
        src = unit(module)
        for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
            named: dict[str, str] = {}  # one entry per statement and package it reaches
            for target in _targets(node, module, path.name == "__init__.py"):
                dst = unit(target)
                if src and dst and dst != src and not src.startswith(dst + "."):
                    named.setdefault(dst, target)
            for dst, target in named.items():
                edges.setdefault((src, dst), []).append(f"{path.relative_to(root.parent)}:{node.lineno} {target}")
    return edges


def cycles(edges: dict[tuple[str, str], list[str]]) -> list[str]:
    """One line per group of packages that import each other, directly or through others: a cycle through
    the group's first package, e.g. ``a -> b -> c -> a``."""
    graph: dict[str, set[str]] = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)

    def path(a: str, b: str) -> list[str] | None:
        """A shortest import path from ``a`` to ``b`` (``a`` to itself: a cycle), None if there is none."""
        seen, todo = {a}, [[a]]
        while todo:
            nxt = []
            for p in todo:
                for n in sorted(graph.get(p[-1], ())):
                    if n == b:
                        return p + [n]
                    if n not in seen:
                        seen.add(n)
                        nxt.append(p + [n])
            todo = nxt
        return None

    out, done = [], set()
    for a in sorted(graph):
        loop = path(a, a)
        if a in done or loop is None:
            continue
        group = {n for n in graph if path(a, n) and path(n, a)}
        done |= group
        out.append(" -> ".join(loop))
    return out


def upward(edges: dict[tuple[str, str], list[str]], layers: tuple[str, ...]) -> list[str]:
    """Imports from a package to one at or above it in ``layers`` (unknown packages count as a finding)."""
    rank = {name: i for i, name in enumerate(layers)}
    out = []
    for (a, b), where in sorted(edges.items()):
        if a not in rank or b not in rank:
            out.append(f"{a} -> {b}: not in the layer order ({where[0]})")
        elif rank[b] >= rank[a]:
            out.append(f"{a} -> {b} runs upward ({len(where)}x, e.g. {where[0]})")
    return out


def test_no_package_cycle():
    assert cycles(import_edges(ROOT / "planner")) == []


def test_no_module_cycle_inside_a_package():
    assert cycles(import_edges(ROOT / "planner", modules=True)) == []


def test_every_import_points_down_the_layers():
    assert upward(import_edges(ROOT / "planner"), LAYERS) == []


def test_the_core_never_imports_use_cases_adapters_or_maps():
    edges = import_edges(ROOT / "planner")
    assert [f"{a} -> {b}: {w[0]}" for (a, b), w in edges.items() if a in CORE and b in ABOVE_CORE] == []


def test_every_package_has_a_place_in_the_layers():
    assert packages(ROOT / "planner") == set(LAYERS)


def test_every_code_folder_is_a_regular_package():
    """A folder without ``__init__.py`` imports in the work tree (a namespace package) but is left out of a
    built wheel (``packages.find``), so an installed planner would lack it."""
    root = ROOT / "planner"
    assert [str(d.relative_to(ROOT)) for d in sorted({p.parent for p in root.rglob("*.py")})
            if not (d / "__init__.py").exists()] == []


def test_architecture_md_shows_the_same_order():
    text = (ROOT / "ARCHITECTURE.md").read_text("utf-8")
    assert " < ".join(LAYERS) in text


# ---- the service's own floors ---------------------------------------------------------------------------------
# Bottom to top: the answers' types; what every use case works on; the read side; the use cases that change a
# game; the questions (they read what a change left). A module imports its own package and those to its left.
SERVICE_LAYERS = ("answers", "setup", "read", "change", "questions")


def service_edges() -> dict[tuple[str, str], list[str]]:
    """``(service package, imported service package) -> ["file:line module", ...]``, from the module edges."""
    def part(mod: str) -> str | None:
        parts = mod.split(".")
        return parts[2] if parts[:2] == ["planner", "service"] and len(parts) > 3 else None

    out: dict[tuple[str, str], list[str]] = {}
    for (a, b), where in import_edges(ROOT / "planner", modules=True).items():
        pa, pb = part(a), part(b)
        if pa and pb and pa != pb:
            out.setdefault((pa, pb), []).extend(where)
    return out


def test_every_service_module_lives_in_a_service_package():
    """planner/service/ holds packages only (and its face, ``__init__.py``): each module is on a floor."""
    root = ROOT / "planner" / "service"
    assert [p.name for p in root.glob("*.py") if p.name != "__init__.py"] == []
    assert {p.name for p in root.iterdir() if p.is_dir() and any(p.glob("*.py"))} == set(SERVICE_LAYERS)


def test_the_service_read_side_lies_below_its_use_cases():
    edges = service_edges()
    assert cycles(edges) == []
    assert upward(edges, SERVICE_LAYERS) == []


def test_no_two_modules_share_a_file_name_across_the_service_and_the_core():
    """A file name says what it holds: the service and the core never bear the same name twice (the adapters'
    modules are named after their command or page and may repeat a topic's name)."""
    seen: dict[str, list[str]] = {}
    for pkg in ("service", "ledger", "game", "gamefile", "store"):
        for p in (ROOT / "planner" / pkg).rglob("*.py"):
            if p.name != "__init__.py":
                seen.setdefault(p.name, []).append(str(p.relative_to(ROOT)))
    assert {name: paths for name, paths in seen.items() if len(paths) > 1} == {}


# ---- the check itself catches what it must (a planted tree, never the real code) -------------------------

def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "pkg"
    for name, text in files.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, "utf-8")
    for d in {p.parent for p in root.rglob("*.py")} | {root}:
        (d / "__init__.py").touch()
    return root


def test_a_cycle_through_an_import_inside_a_function_is_found(tmp_path):
    root = _tree(tmp_path, {
        "low/a.py": "def f():\n    from pkg.high.b import g\n    return g\n",
        "high/b.py": "from pkg.low import a\n\ndef g():\n    return a\n",
    })
    edges = import_edges(root)
    assert edges[("low", "high")] == ["pkg/low/a.py:2 pkg.high.b"]
    assert cycles(edges) == ["high -> low -> high"]
    assert upward(edges, ("low", "high")) == ["low -> high runs upward (1x, e.g. pkg/low/a.py:2 pkg.high.b)"]


def test_a_cycle_through_a_third_package_and_a_relative_import_is_found(tmp_path):
    root = _tree(tmp_path, {
        "a/x.py": "from ..b import y\n",
        "b/y.py": "import pkg.c.z\n",
        "c/z.py": "from pkg.a import x\n",
        "top.py": "from pkg.c import z\n",
    })
    edges = import_edges(root)
    assert set(edges) == {("a", "b"), ("b", "c"), ("c", "a"), ("top", "c")}
    assert cycles(edges) == ["a -> b -> c -> a"]
    assert upward(edges, ("a", "b", "c", "top")) == [
        "a -> b runs upward (1x, e.g. pkg/a/x.py:1 pkg.b)", "b -> c runs upward (1x, e.g. pkg/b/y.py:1 pkg.c.z)"]


def test_a_module_cycle_inside_a_package_is_found(tmp_path):
    root = _tree(tmp_path, {"web/app.py": "from pkg.web import worker\n",
                            "web/worker.py": "def run():\n    from pkg.web.app import x\n"})
    assert cycles(import_edges(root)) == []
    assert cycles(import_edges(root, modules=True)) == ["pkg.web.app -> pkg.web.worker -> pkg.web.app"]


def test_a_clean_tree_passes(tmp_path):
    root = _tree(tmp_path, {"low/a.py": "import os\n", "high/b.py": "from pkg.low.a import os\n"})
    edges = import_edges(root)
    assert cycles(edges) == [] and upward(edges, ("low", "high")) == []


def test_a_folder_without_an_init_file_is_a_package_too(tmp_path):
    root = _tree(tmp_path, {"low/a.py": "def f():\n    from pkg.high.b import g\n", "high/b.py": "import os\n"})
    (root / "low" / "__init__.py").unlink()
    assert upward(import_edges(root), ("low", "high")) == [
        "low -> high runs upward (1x, e.g. pkg/low/a.py:2 pkg.high.b)"]


@pytest.mark.parametrize("layers", [("high", "low"), ("low",)])
def test_a_tree_against_a_wrong_order_fails(tmp_path, layers):
    root = _tree(tmp_path, {"low/a.py": "import os\n", "high/b.py": "from pkg.low.a import os\n"})
    assert upward(import_edges(root), layers) != []
