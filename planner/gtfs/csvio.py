"""Streaming, column-pruned CSV reading with pyarrow (partridge-style: prune while reading).

Files and columns come from the one schema table (:mod:`planner.gtfs.schema`): a reader names a file and
the columns it needs, the table says which of them a feed must have. All columns are read as strings;
:func:`planner.gtfs.schema.convert` turns them into numbers. Errors name the file, the line and the column.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from planner.errors import FeedError
from planner.gtfs.schema import FILES
from planner.gtfs.source import FeedSource

BLOCK = 4 << 20  # 4 MiB blocks: peak memory grows with the block size, throughput hardly does
MAX_LINE = 4 << 20  # no GTFS row is near this long
MAX_TABLE = 512 << 20  # bytes of a member read whole (national trips.txt: about 150 MB; memory is ~5x this)


_WIDE_BOMS = {b"\xff\xfe\x00\x00": "UTF-32", b"\x00\x00\xfe\xff": "UTF-32", b"\xff\xfe": "UTF-16",
              b"\xfe\xff": "UTF-16"}


def _header(src: FeedSource, name: str) -> list[str]:
    with src.open(name) as fh:
        first = fh.readline(1 << 20)
    for bom, enc in _WIDE_BOMS.items():
        if first.startswith(bom):
            raise FeedError(f"feed {src.label}: {name} is {enc} encoded (GTFS files must be UTF-8)")
    text = first.decode("utf-8-sig", errors="replace").strip("\r\n")
    cols = [c.strip().strip('"').strip() for c in text.split(",")]
    return cols


def is_empty(src: FeedSource, name: str) -> bool:
    """True when a member is missing or has not even a header (a 0-byte optional file means "no rows")."""
    return not src.has(name) or _header(src, name) == [""]


def printable(text: str, limit: int = 200) -> str:
    """``text`` for a one-line message: control characters escaped, cut to ``limit`` characters."""
    out = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text[: limit + 1])
    return out if len(out) <= limit else out[:limit] + "..."


def iter_batches(src: FeedSource, name: str, columns: list[str] | None = None,
                 progress=None) -> Iterator[tuple[int, pa.RecordBatch]]:
    """Yield ``(first_line_number, batch)`` of the wanted ``columns`` of the schema's file ``name`` (all
    its columns by default; missing optional ones are null, a missing required one is a :class:`FeedError`).

    ``first_line_number`` is the file line of the batch's first row (header = line 1).
    """
    spec = FILES[name]
    columns = spec.names() if columns is None else list(columns)
    cols = _header(src, name)
    for c in spec.required(columns):
        if c not in cols:
            raise FeedError(f"feed {src.label}: {name} has no column '{c}' (header: {printable(','.join(cols))})")
    present = [c for c in columns if c in cols]
    # The header line is consumed by hand (handles a BOM); pyarrow parses the rest with our names.
    read_opts = pacsv.ReadOptions(column_names=cols, encoding="utf8")
    conv = pacsv.ConvertOptions(
        include_columns=present, column_types={c: pa.string() for c in present},
        strings_can_be_null=False, quoted_strings_can_be_null=False,
    )
    parse = pacsv.ParseOptions(newlines_in_values=False)
    line = 2
    with src.open(name) as fh:
        fh.readline(1 << 20)  # header already parsed (handles BOM)
        for data in _line_blocks(src, name, fh, progress):
            try:
                table = pacsv.read_csv(pa.py_buffer(data), read_options=read_opts, parse_options=parse,
                                       convert_options=conv)
            except pa.ArrowInvalid as exc:
                # Damaged compressed data shows as a parse error first; reading on to the member's end
                # lets its CRC check name the real cause (FeedSource.open reports it as corrupt).
                while fh.read(BLOCK):
                    pass
                raise FeedError(f"feed {src.label}: {name} near line {line}: {_clean(exc)}") from None
            for batch in table.to_batches():
                n = batch.num_rows
                if len(present) < len(columns):
                    arrays = [batch.column(c) if c in present else pa.nulls(n, pa.string()) for c in columns]
                    batch = pa.RecordBatch.from_arrays(arrays, names=columns)
                yield line, batch
                line += n


def _line_blocks(src: FeedSource, name: str, fh, progress) -> Iterator[bytes]:
    """The member after its header in blocks of whole lines, read in this thread.

    Why not ``pyarrow.csv.open_csv`` on the file: its read-ahead threads call back into Python, and a
    read error (a bad CRC, random bytes) left them running while the process exited, which crashed it
    (``Fatal Python error: PyGILState_Release``). Here pyarrow only ever parses bytes in memory.
    """
    rest = b""
    while True:
        data = fh.read(BLOCK)
        if progress is not None:
            progress.update(len(data))
        if not data:
            if rest.strip():
                yield rest
            return
        buf = rest + data
        cut = buf.rfind(b"\n")
        if cut < 0:
            if len(buf) > MAX_LINE:
                raise FeedError(f"feed {src.label}: {name} has a line longer than {MAX_LINE >> 20} MiB "
                                "(not a CSV file?)")
            rest = buf
            continue
        block, rest = buf[: cut + 1], buf[cut + 1:]
        if block.strip():
            yield block


def read_table(src: FeedSource, name: str, columns: list[str] | None = None,
               optional_file: bool = False) -> pa.Table:
    """Read a whole (small) member of the schema into a table of string columns, with a ``_line`` column.

    ``columns`` as for :func:`iter_batches`; ``optional_file``: a missing member reads as no rows."""
    columns = FILES[name].names() if columns is None else list(columns)
    if FILES[name].streamed:
        raise ValueError(f"{name} is read in blocks (iter_batches), never whole")
    if optional_file and not src.has(name):
        return pa.table({c: pa.array([], pa.string()) for c in columns} | {"_line": pa.array([], pa.int64())})
    if src.has(name) and src.size(name) > MAX_TABLE:  # kept whole in memory: a zip bomb must not be
        raise FeedError(f"feed {src.label}: {name} is {src.size(name) >> 20} MiB uncompressed "
                        f"(at most {MAX_TABLE >> 20} MiB)")
    parts = []
    for line, batch in iter_batches(src, name, columns):
        t = pa.Table.from_batches([batch])
        t = t.append_column("_line", pa.array(range(line, line + batch.num_rows), pa.int64()))
        parts.append(t)
    if not parts:
        return pa.table({c: pa.array([], pa.string()) for c in columns} | {"_line": pa.array([], pa.int64())})
    return pa.concat_tables(parts)


def strip(arr: pa.Array) -> pa.Array:
    """Trim blanks around string values."""
    return pc.utf8_trim_whitespace(arr)


def _clean(exc: Exception) -> str:
    # pyarrow quotes the offending row: cut it short, and show undecodable bytes as "?"
    text = " ".join(str(exc).split()).replace("\ufffd", "?")
    m = re.match(r"(.*?got \d+: )(.*)", text)
    if m:
        text = m.group(1) + printable(m.group(2), 60)
    return printable(text, 300)
