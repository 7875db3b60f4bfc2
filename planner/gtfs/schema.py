"""The GTFS files the planner reads and writes: one declarative table of files, columns, kinds and converters.

Models: gtfs-kit's one ``DTYPES`` table (every column's type in one place) and partridge's declared pruning
(a reader names the columns it needs; nothing else is parsed). Every reader asks :mod:`planner.gtfs.csvio`
for a file of this table and a subset of its columns; a column's ``required`` flag decides whether a feed
without it is an error; its ``kind`` names the converter (:func:`convert`) that turns the strings into
numbers with errors naming file, line and column. The export (:mod:`planner.gtfs.export`) writes the same
columns, in this order.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from planner.errors import FeedError
from planner.gtfs.times import parse_times

TEXT = "text"  # kept as a (blank-trimmed) string
INT = "int"  # a whole number; empty = 0 unless the column is required
FLOAT = "float"  # a decimal number; empty = NaN
TIME = "time"  # H:MM:SS, past 24:00 allowed; empty = -1
DATE = "date"  # YYYYMMDD
CHOICE = "choice"  # one of ``Column.values``; empty = ``Column.default`` (None: an error)


@dataclass(frozen=True)
class Column:
    """One column of a GTFS file: its name, kind (converter) and whether a feed must have it."""

    name: str
    kind: str = TEXT
    required: bool = False
    values: tuple[str, ...] = ()  # CHOICE only: the allowed values
    what: str = ""  # CHOICE only: the allowed values as an error message says them ("0 or 1")
    default: str | None = None  # CHOICE only: what an empty value means (None: empty is an error)


@dataclass(frozen=True)
class GtfsFile:
    """One file of the feed and the columns the planner reads or writes."""

    name: str
    columns: tuple[Column, ...]
    streamed: bool = False  # read in blocks, never whole (the large ones of the national feed)

    def column(self, name: str) -> Column:
        """The column ``name`` (a name this table does not declare is a programming error)."""
        for c in self.columns:
            if c.name == name:
                return c
        raise KeyError(f"{self.name} declares no column {name!r}")

    def names(self) -> list[str]:
        """All declared column names, in file order."""
        return [c.name for c in self.columns]

    def required(self, wanted: list[str]) -> list[str]:
        """Which of ``wanted`` a feed must have."""
        return [n for n in wanted if self.column(n).required]


def _flag(name: str) -> Column:
    return Column(name, CHOICE, required=True, values=("0", "1"), what="0 or 1")


DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")

FILES: dict[str, GtfsFile] = {f.name: f for f in (
    GtfsFile("agency.txt", (Column("agency_id"), Column("agency_name", required=True), Column("agency_url"),
                            Column("agency_timezone"))),
    GtfsFile("stops.txt", (
        Column("stop_id", required=True), Column("stop_name", required=True), Column("stop_lat", FLOAT),
        Column("stop_lon", FLOAT), Column("location_type"), Column("parent_station"), Column("platform_code"),
        Column("didok"),  # the Swiss feed's UIC number (from 2026-06)
    )),
    GtfsFile("routes.txt", (
        Column("route_id", required=True), Column("agency_id"), Column("route_short_name"),
        Column("route_long_name"), Column("route_desc"), Column("route_type", INT, required=True),
    )),
    GtfsFile("trips.txt", (
        Column("route_id", required=True), Column("service_id", required=True), Column("trip_id", required=True),
        Column("trip_headsign"), Column("trip_short_name"),
    )),
    GtfsFile("stop_times.txt", (
        Column("trip_id", required=True), Column("arrival_time", TIME, required=True),
        Column("departure_time", TIME, required=True), Column("stop_id", required=True),
        Column("stop_sequence", INT, required=True), Column("pickup_type", INT), Column("drop_off_type", INT),
    ), streamed=True),
    GtfsFile("calendar.txt", (Column("service_id", required=True), *(_flag(d) for d in DAYS),
                              Column("start_date", DATE, required=True), Column("end_date", DATE, required=True))),
    GtfsFile("calendar_dates.txt", (
        Column("service_id", required=True), Column("date", DATE, required=True),
        Column("exception_type", CHOICE, required=True, values=("1", "2"), what="1 or 2"),
    ), streamed=True),
    GtfsFile("transfers.txt", (
        Column("from_stop_id", required=True), Column("to_stop_id", required=True),
        Column("transfer_type", CHOICE, required=True, values=tuple("012345"), what="0-5",
               default="0"),
        Column("min_transfer_time", FLOAT),
    )),
    GtfsFile("feed_info.txt", (
        Column("feed_publisher_name"), Column("feed_publisher_url"), Column("feed_lang"),
        Column("feed_start_date", DATE), Column("feed_end_date", DATE), Column("feed_version"),
    )),
)}


@dataclass(frozen=True)
class Where:
    """Where values come from, for error messages: ``feed LABEL: FILE line N column C: ...``."""

    label: str
    file: str
    lines: np.ndarray  # the file line of each value

    def error(self, i: int, column: str, text: str) -> FeedError:
        """A :class:`FeedError` about the ``i``-th value."""
        return FeedError(f"feed {self.label}: {self.file} line {int(self.lines[i])} column {column}: {text}")


def convert(col: pa.Array | pa.ChunkedArray, spec: GtfsFile, name: str, where: Where) -> np.ndarray:
    """The values of column ``name`` of ``spec`` as numbers by its declared kind (TEXT: trimmed strings).

    INT -> int64 (empty 0, an error if the column is required), FLOAT -> float64 (empty NaN), TIME -> int32
    seconds (empty -1), CHOICE -> the trimmed strings, each one of the allowed values, DATE -> the trimmed
    strings, each YYYYMMDD (empty allowed unless required). The first bad value raises :class:`FeedError`
    naming line and column.
    """
    column = spec.column(name)
    if isinstance(col, pa.ChunkedArray):
        col = col.combine_chunks()
    if column.kind == INT:
        return _whole(col, name, where, column.required)
    if column.kind == TIME:
        return parse_times(col, file=where.file, column=name, lines=where.lines, label=where.label)
    if column.kind == FLOAT:
        return _decimal(col, name, where)
    text = np.array([(v or "").strip() for v in col.to_pylist()], dtype=object)
    if column.kind == CHOICE:
        if column.default is not None:
            text[text == ""] = column.default
        bad = np.flatnonzero(~np.isin(text, column.values))
        if len(bad):
            raise where.error(int(bad[0]), name, f"{text[bad[0]]!r} is not {column.what}")
    elif column.kind == DATE:
        for i, v in enumerate(text):
            if (v or column.required) and not (len(v) == 8 and v.isdigit()):
                raise where.error(i, name, f"{v!r} is not a date YYYYMMDD")
    return text


def _whole(col: pa.Array, name: str, where: Where, required: bool) -> np.ndarray:
    """Whole numbers, worked out on the column's distinct values (few: sequence numbers, flags, types)."""
    enc = pc.dictionary_encode(col)
    ix = enc.indices.fill_null(len(enc.dictionary)).to_numpy(zero_copy_only=False)
    s = pc.utf8_trim_whitespace(pa.concat_arrays([enc.dictionary, pa.array([""], enc.dictionary.type)]))
    empty = pc.equal(pc.utf8_length(s), 0).to_numpy(zero_copy_only=False)
    if required and empty[ix].any():
        raise where.error(int(np.flatnonzero(empty[ix])[0]), name, "empty")
    s = pc.if_else(pc.equal(pc.utf8_length(s), 0), "0", s)
    ok = pc.match_substring_regex(s, r"^-?\d{1,18}$").to_numpy(zero_copy_only=False)
    if not ok[ix].all():
        j = int(np.flatnonzero(~ok[ix])[0])
        why = "is out of range" if pc.match_substring_regex(s[int(ix[j])], r"^-?\d+$").as_py() else \
            "is not a whole number"
        raise where.error(j, name, f"{col[j].as_py()!r} {why}")
    return pc.cast(s, pa.int64()).to_numpy(zero_copy_only=False)[ix]


def _decimal(col: pa.Array, name: str, where: Where) -> np.ndarray:
    vals = col.to_pylist()
    out = np.full(len(vals), np.nan)
    for i, v in enumerate(vals):
        if v is None or not v.strip():
            continue
        try:
            out[i] = float(v)
        except ValueError:
            raise where.error(i, name, f"{v!r} is not a number") from None
    return out
