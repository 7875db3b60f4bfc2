"""The docs name only files that exist, and the README stays short.

Every relative link (``[x](path)``, ``<img src="path">``), every file or folder path written in backquotes or in a
fenced block (``planner/...``, ``tests/...``, ``tools/...``, ``bench/...``, ``docs/...``, ``.ci/...``, and a
package-relative ``service/answers/base.py`` as ARCHITECTURE.md writes them), every bare file name of code or docs
(``day.py``, ``rules.md``) and every dotted name of the repository's modules (``planner.service.answers.registry``,
``tests.support.nws_synthetic``, ``tools.bad_inputs``) in README.md, ARCHITECTURE.md, bench/RESULTS.md and
docs/*.md names something in the repository (tracked by git, or an output folder .gitignore keeps out of it).
Paths under ``../shared`` are checked only where that folder is present. A placeholder in capitals
(``docs/schema/NAME.json``) stands for any name.
"""

from __future__ import annotations

import ast
import re
import subprocess
from functools import cache
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
README_MAX_LINES = 150

# the top-level names of the repository a path may start with, and planner's packages (package-relative paths)
REPO_ROOTS = ("planner", "tests", "tools", "bench", "docs", ".ci", "feeds", "maps", "notebooks")
CODE_SUFFIXES = (".py", ".md", ".html", ".js", ".toml", ".png", ".json", ".csv", ".sh", ".css", ".po")
BARE_SUFFIXES = (".py", ".md", ".js")  # a bare name of code or docs must be a file of the repository (a bare
# report.html or game.toml is a file the user names)
MODULE_ROOTS = ("planner", "tests", "tools", "bench")


def docs() -> list[Path]:
    return [ROOT / "README.md", ROOT / "ARCHITECTURE.md", ROOT / "bench" / "RESULTS.md",
            *sorted((ROOT / "docs").glob("*.md"))]


@cache
def tracked() -> frozenset[str]:
    out = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=True).stdout
    files = {f for f in out.decode("utf-8").split("\0") if f}
    folders = {str(p) for f in files for p in PurePosixPath(f).parents if str(p) != "."}
    return frozenset(files | folders)


@cache
def basenames() -> frozenset[str]:
    return frozenset(PurePosixPath(f).name for f in tracked())


@cache
def ignored(rel: str) -> bool:
    """An output folder or file the repository keeps out by .gitignore (``bench/out/``, ``feeds/``)."""
    return subprocess.run(["git", "-C", str(ROOT), "check-ignore", "-q", "--no-index", rel]).returncode == 0


PLACEHOLDER = re.compile(r"(\b[A-Z][A-Z_]{2,}\b|\*)")


def placeholder_pattern(rel: str) -> re.Pattern[str] | None:
    """``docs/schema/NAME.json``, ``tests/robustness/test_faults_*.py`` -> a pattern where each capitalised placeholder or
    ``*`` matches any name."""
    if not PLACEHOLDER.search(rel):
        return None
    parts = PLACEHOLDER.split(rel)
    return re.compile("".join("[^/]+" if i % 2 else re.escape(p) for i, p in enumerate(parts)) + "$")


def exists_in_repo(rel: str) -> bool:
    rel = rel.strip("/")
    if rel in tracked():
        return True
    pattern = placeholder_pattern(rel)
    if pattern is not None:
        return any(pattern.match(f) for f in tracked())
    return ignored(rel) or ignored(rel + "/")


def path_exists(token: str, doc: Path) -> bool:
    """A path as a doc writes it: from the repository's root, or package-relative (ARCHITECTURE.md's
    ``service/answers/base.py``), or relative to the doc's folder."""
    if token.startswith("../shared/"):
        return not SHARED.is_dir() or (SHARED / token.removeprefix("../shared/")).exists()
    here = doc.parent.relative_to(ROOT).as_posix()
    candidates = [token, f"planner/{token}"]
    if here != ".":
        candidates.append(f"{here}/{token}")
    return any(exists_in_repo(c) for c in candidates)


FENCE = re.compile(r"^```.*?^```", re.S | re.M)
INLINE_CODE = re.compile(r"`([^`\n]+)`")
LINK = re.compile(r"\]\(([^)\s]+)\)|<img [^>]*src=\"([^\"]+)\"")
PIECE = re.compile(r"[^\s`'\"(),;:=<>\[\]{}|]+")
DOTTED = re.compile(r"(?<![\w./-])((?:planner|tests|tools|bench)(?:\.[A-Za-z_][A-Za-z0-9_]*)+)")


def path_like(piece: str) -> bool:
    """A piece of code that names a file or folder of the repository (not a URL, a placeholder folder of an
    example, an absolute path or a file the user names)."""
    piece = piece.rstrip(".")
    if "://" in piece or piece.startswith(("/", "~", "$", "-")):
        return False
    if piece.startswith("../shared/"):
        return True
    if "/" in piece:
        first = piece.split("/", 1)[0]
        packages = {p.name for p in (ROOT / "planner").iterdir() if p.is_dir()}
        return first in REPO_ROOTS or first in packages
    return piece.endswith(BARE_SUFFIXES) and not piece.startswith(".")


def named_paths(text: str) -> list[str]:
    """The path-like pieces of the doc's inline code and fenced blocks."""
    spans = [m.group(1) for m in INLINE_CODE.finditer(FENCE.sub("", text))]
    spans += [m.group(0) for m in FENCE.finditer(text)]
    found = []
    for span in spans:
        for piece in PIECE.findall(span):
            piece = piece.rstrip(".")
            if path_like(piece):
                found.append(piece)
    return found


def missing_in(doc: Path, text: str | None = None) -> list[str]:
    text = doc.read_text("utf-8") if text is None else text
    missing = []
    for m in LINK.finditer(text):
        target = (m.group(1) or m.group(2)).split("#", 1)[0]
        if not target or re.match(r"[a-z]+:", target):
            continue
        rel = (doc.parent / target).resolve()
        if not rel.is_relative_to(ROOT) or not exists_in_repo(rel.relative_to(ROOT).as_posix()):
            missing.append(f"link {target}")
    for piece in named_paths(text):
        if "/" not in piece:
            if piece not in basenames():
                missing.append(f"file name {piece}")
        elif not path_exists(piece, doc):
            missing.append(f"path {piece}")
    for m in DOTTED.finditer(text):
        if not module_exists(m.group(1)):
            missing.append(f"module {m.group(1)}")
    return missing


@cache
def defined_names(module: Path) -> frozenset[str]:
    """The names a module defines or imports at its top level."""
    names = set()
    for node in ast.parse(module.read_text("utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(n.id for target in targets for n in ast.walk(target) if isinstance(n, ast.Name))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return frozenset(names)


def module_exists(dotted: str) -> bool:
    """``planner.x.y`` is a module, or a module and a name defined in it (``...registry.ANSWERS``)."""
    parts = dotted.split(".")
    for n in range(len(parts), 0, -1):
        base = ROOT.joinpath(*parts[:n])
        for module in (base.with_suffix(".py"), base / "__init__.py"):
            if module.is_file():
                rest = parts[n:]
                if not rest:
                    return True
                return len(rest) <= 2 and rest[0] in defined_names(module)
    return False


def test_every_doc_names_only_files_that_exist() -> None:
    missing = {doc.relative_to(ROOT).as_posix(): found for doc in docs() if (found := missing_in(doc))}
    assert missing == {}


def test_the_readme_is_short() -> None:
    lines = (ROOT / "README.md").read_text("utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines; the rest belongs in docs/"


def test_the_checks_see_a_missing_file() -> None:
    """The checks are not vacuous: each kind of name is found, and a name that does not exist is reported."""
    text = ("[a](nope.md) `planner/web/usecases.py` `service/answers/nope.py` `nope_module.py` "
            "planner.web.usecases `planner/web/app.py` [b](rules.md) planner.service.answers.registry.ANSWERS "
            "`docs/schema/NAME.json` `bench/out/` `tests.support.nws_synthetic` `../shared/nope/RULES.md` "
            "<img src=\"phone-group.png\"> `feeds/` `answers.py` `tests/robustness/test_faults_*.py` `tests/test_nope_*.py` "
            "`report.html` planner.web.app.nope\n```\n  web/store.py\n```\n")
    missing = missing_in(ROOT / "docs" / "x.md", text)
    expected = ["link nope.md", "path planner/web/usecases.py", "path service/answers/nope.py",
                "file name nope_module.py", "path tests/test_nope_*.py", "path web/store.py",
                "module planner.web.usecases", "module planner.web.app.nope"]
    if SHARED.is_dir():
        expected.insert(4, "path ../shared/nope/RULES.md")
    assert missing == expected
