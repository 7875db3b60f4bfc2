"""Load the SBB physical line network (operating points by line and km) from its CSV.

The file is opentransportdata.swiss's ``linie-mit-betriebspunkten`` export: ``;``-separated, UTF-8
with BOM, columns ``Abkuerzung Bahnhof; Name Haltestelle; Linie; KM; Linien Text; Geoposition
("lat, lon"); Didok-Nummer; BPUIC; Name Haltestelle; lod; sloid``. The first ``Name Haltestelle`` is
the station, the second the operating point's own name (``Olten`` / ``Olten Nord (Abzw)``).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pandas as pd

from planner.config import default_rail_csv
from planner.errors import FeedError
from planner.rail.network import RailNetwork
from planner.util.i18n import _

_REQUIRED = ("Name Haltestelle", "Linie", "KM", "Geoposition", "BPUIC")


def load_rail_network(path: str | Path | None = None) -> RailNetwork:
    """The physical network from the CSV (default: ``default_rail_csv()``), cached in memory.

    Raises ``FeedError`` (one line, naming the file) when the file is missing or malformed.
    """
    p = Path(path) if path is not None else default_rail_csv()
    try:
        st = p.stat()
    except OSError:
        raise FeedError(_("rail network file {path}: not found (set PLANNER_RAIL_CSV)").format(path=p)) from None
    return _load_cached(str(p.resolve()), st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=4)
def _load_cached(path: str, _mtime_ns: int, _size: int) -> RailNetwork:
    # mtime and size are part of the key so an edited file is read again
    return RailNetwork(read_rail_points(path))


def read_rail_points(path: str | Path) -> pd.DataFrame:
    """The CSV as a DataFrame with columns uic, name, station, line, line_text, km, lat, lon."""
    try:
        raw = pd.read_csv(path, sep=";", encoding="utf-8-sig", dtype=str, keep_default_na=False)
    except (OSError, UnicodeDecodeError, pd.errors.ParserError, pd.errors.EmptyDataError) as exc:
        raise FeedError(_("rail network file {path}: cannot read: {error}").format(
            path=path, error=str(exc).splitlines()[0])) from None
    missing = [c for c in _REQUIRED if c not in raw.columns]
    if missing:
        raise FeedError(_("rail network file {path}: missing column(s) {columns}").format(
            path=path, columns=", ".join(missing)))
    # pandas names a repeated header "Name Haltestelle.1": the operating point's own name
    point_col = "Name Haltestelle.1" if "Name Haltestelle.1" in raw.columns else "Name Haltestelle"
    try:
        latlon = raw["Geoposition"].str.split(",", n=1, expand=True)
        if latlon.shape[1] != 2:
            raise ValueError("Geoposition is not 'lat, lon'")
        df = pd.DataFrame({
            "uic": raw["BPUIC"].str.strip(),
            "name": raw[point_col].str.strip(),
            "station": raw["Name Haltestelle"].str.strip(),
            "line": pd.to_numeric(raw["Linie"], errors="raise").astype(int),
            "line_text": raw["Linien Text"] if "Linien Text" in raw.columns else "",
            "km": pd.to_numeric(raw["KM"], errors="raise").astype(float),
            "lat": pd.to_numeric(latlon[0], errors="raise").astype(float),
            "lon": pd.to_numeric(latlon[1], errors="raise").astype(float),
        })
    except (ValueError, TypeError) as exc:
        first_line = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise FeedError(_("rail network file {path}: malformed value: {error}").format(path=path, error=first_line)) \
            from None
    if df.empty or (df["uic"] == "").any():
        raise FeedError(_("rail network file {path}: no operating points or an empty BPUIC").format(path=path))
    return df
