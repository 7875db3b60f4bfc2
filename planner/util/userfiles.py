"""Reading files a user names (legs, batch, owners, game files): the one edge where such input enters.

Every read is bounded and checked: only regular files (a FIFO would block for ever, ``/dev/zero`` never
ends), at most :data:`MAX_BYTES`, UTF-8 (a BOM is allowed), CSV fields of at most :data:`MAX_FIELD`
characters, TOML nested at most :data:`MAX_DEPTH` deep. Errors are :class:`InputError` naming the file
(and the line), so every command reports them as one line.
"""

from __future__ import annotations

import csv
import io
import os
import re
import stat
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from planner.errors import InputError
from planner.util.i18n import _

MAX_BYTES = 16 << 20  # a day's legs or a batch of queries is kilobytes; a game file a few
MAX_FIELD = 10_000  # characters in one CSV field (a station name is under 50)
MAX_DEPTH = 32  # TOML nesting: the game files nest 3 deep


def regular_file(path: str | Path, kind: str) -> Path:
    """``path`` when it is an existing regular file (symlinks followed), else an :class:`InputError`."""
    p = Path(path)
    try:
        st = p.stat()
    except FileNotFoundError:
        raise InputError(_("{file}: not found").format(file=f"{kind} {path}")) from None
    except OSError as exc:
        raise InputError(_("{file}: cannot be read ({why})").format(
            file=f"{kind} {path}", why=exc.strerror or type(exc).__name__)) from None
    if stat.S_ISDIR(st.st_mode):
        raise InputError(_("{file}: is a folder, not a file").format(file=f"{kind} {path}"))
    if not stat.S_ISREG(st.st_mode):
        raise InputError(_("{file}: not a regular file (a pipe or device is not read)").format(
            file=f"{kind} {path}"))
    return p


def read_bytes(path: str | Path, kind: str, limit: int = MAX_BYTES) -> bytes:
    """The content of a regular file of at most ``limit`` bytes."""
    p = regular_file(path, kind)
    try:
        with open(p, "rb") as fh:
            data = fh.read(limit + 1)
    except OSError as exc:
        raise InputError(_("{file}: cannot be read ({why})").format(
            file=f"{kind} {path}", why=exc.strerror or type(exc).__name__)) from None
    if len(data) > limit:
        raise InputError(_("{file}: larger than {n} MiB").format(file=f"{kind} {path}", n=limit >> 20))
    return data


def read_text(path: str | Path, kind: str, limit: int = MAX_BYTES) -> str:
    """A UTF-8 text file (BOM allowed), bounded as :func:`read_bytes`."""
    data = read_bytes(path, kind, limit)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(_("{file} line {line}: not UTF-8 text (byte {byte})").format(
            file=f"{kind} {path}", line=line, byte=f"0x{data[exc.start]:02x}")) from None
    if "\0" in text:
        raise InputError(_("{file} line {line}: holds a NUL byte (binary, not text)").format(
            file=f"{kind} {path}", line=text[: text.index(chr(0))].count(chr(10)) + 1))
    return text


def read_csv(path: str | Path, kind: str, required: set[str]) -> Iterator[tuple[int, dict[str, str]]]:
    """Rows of a CSV file with a header as ``(line, {column: value})``; ``required`` columns must exist.

    Values are stripped of blanks; a short row has ``""`` for its missing columns.
    """
    text = read_text(path, kind)
    reader = csv.reader(io.StringIO(text, newline=""))
    line = 1
    try:
        header = [h.strip() for h in next(reader, [])]
        if any(len(h) > MAX_FIELD for h in header):
            raise InputError(_("{file} line {line}: a column name is longer than {n} characters").format(
                file=f"{kind} {path}", line=1, n=MAX_FIELD))
        missing = required - set(header)
        if missing:
            raise InputError(_("{file}: missing column(s) {columns}").format(
                file=f"{kind} {path}", columns=", ".join(sorted(missing))))
        for row in reader:
            line = reader.line_num
            if not any(v.strip() for v in row):
                continue
            if any(len(v) > MAX_FIELD for v in row):
                raise InputError(_("{file} line {line}: a field is longer than {n} characters").format(
                    file=f"{kind} {path}", line=line, n=MAX_FIELD))
            row = row + [""] * (len(header) - len(row))
            yield line, {h: v.strip() for h, v in zip(header, row, strict=False)}
    except csv.Error as exc:
        raise InputError(_("{file} line {line}: not valid CSV ({why})").format(
            file=f"{kind} {path}", line=reader.line_num, why=exc)) from None


def read_toml(path: str | Path, kind: str, limit: int = MAX_BYTES) -> dict[str, Any]:
    """A TOML file as a dict (bounded size and nesting depth)."""
    return parse_toml(read_text(path, kind, limit), f"{kind} {path}")


def parse_toml(text: str, label: str) -> dict[str, Any]:
    """Parse TOML ``text``; ``label`` ("game file x.toml") starts every error message."""
    depth = _bracket_depth(text)
    if depth > MAX_DEPTH:
        raise InputError(_("{file}: nested {depth} deep (at most {most})").format(
            file=label, depth=depth, most=MAX_DEPTH))
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        # tomllib words its reason in English: the position only, in the reader's language
        at = re.search(r"line (\d+), column (\d+)", str(exc))
        if at:
            raise InputError(_("{file}: not valid TOML (line {line}, column {column})").format(
                file=label, line=at[1], column=at[2])) from None
        raise InputError(_("{file}: not valid TOML (at its end)").format(file=label)) from None
    except RecursionError:  # a nesting the bracket count missed (inside strings it is harmless)
        raise InputError(_("{file}: nested too deeply").format(file=label)) from None


def _bracket_depth(text: str) -> int:
    """The deepest nesting of arrays and inline tables outside strings and comments (stops counting past
    :data:`MAX_DEPTH`: the bound is what keeps the recursive parser from overflowing)."""
    if "[" not in text and "{" not in text:
        return 0
    # Strings and comments removed first (their brackets are text); an unclosed string is left for the
    # parser to report.
    code = _STRINGS_AND_COMMENTS.sub("", text)
    depth = deepest = 0
    for ch in code:
        if ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > MAX_DEPTH:
                    break
        elif ch in "]}":
            depth = max(0, depth - 1)
    return deepest


_STRINGS_AND_COMMENTS = re.compile(r'''"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|'[^'\n]*'|#[^\n]*''')


def file_kind(path: str | Path) -> str:
    """``"folder"``, ``"file"``, ``"missing"``, ``"below-file"`` (a parent is a file) or ``"special"``
    (FIFO, device, socket, unreadable)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "missing"
    except NotADirectoryError:
        return "below-file"
    except OSError:
        return "special"
    if stat.S_ISDIR(mode):
        return "folder"
    return "file" if stat.S_ISREG(mode) else "special"
