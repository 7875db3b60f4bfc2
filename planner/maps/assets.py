"""Offline map assets: Leaflet (JS/CSS/images) and a simplified Swiss base layer, vendored from npm.

``npm ci`` (``package.json`` / ``package-lock.json`` at the repository root) installs ``leaflet`` at the version
folium pins and ``swiss-maps`` (BSD-3-Clause, data FSO/swisstopo). ``python -m planner.maps.assets`` then
copies Leaflet's ``dist`` files into ``planner/maps/static/vendor/leaflet/`` and converts the newest
``swiss-maps`` TopoJSON (country, cantons, lakes) into a simplified GeoJSON ``basemap.json`` beside it. The
vendor folder is generated (gitignored): no map needs a CDN or a tile server afterwards.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import re
import shutil
import sys
import tempfile
from functools import lru_cache
from pathlib import Path

from planner.errors import PlannerError
from planner.util.atomic import atomic_write_text
from planner.util.i18n import N_, _

STATIC = Path(__file__).resolve().parent / "static"
VENDOR = STATIC / "vendor"
LEAFLET_DIR = VENDOR / "leaflet"
BASEMAP = VENDOR / "basemap.json"
VERSIONS = VENDOR / "versions.json"
LAYERS = ("country", "cantons", "lakes")
# Douglas-Peucker tolerance in degrees (~100 m / ~50 m): plenty for a map of a game area, keeps files small.
SIMPLIFY = {"country": 0.001, "cantons": 0.001, "lakes": 0.0005}
BASEMAP_CREDIT = N_("Base map: swiss-maps (FSO, swisstopo)")  # translated where shown
SETUP_HINT = N_("map assets missing: run 'make setup' (npm ci && python -m planner.maps.assets)")


class AssetsMissing(PlannerError):
    """The vendored Leaflet / base-map files are not there (setup not run)."""


def repo_root() -> Path:
    """The checkout (``node_modules`` lives beside ``package.json`` there)."""
    return Path(__file__).resolve().parents[2]


# ---- TopoJSON -> GeoJSON ---------------------------------------------------------------------------

def _decode_arcs(topo: dict) -> list[list[tuple[float, float]]]:
    """Absolute (lon, lat) coordinates of every arc (delta-decoded and transformed when quantized)."""
    tr = topo.get("transform")
    arcs = []
    for arc in topo["arcs"]:
        if tr:
            (sx, sy), (tx, ty) = tr["scale"], tr["translate"]
            x = y = 0
            pts = []
            for dx, dy in arc:
                x += dx
                y += dy
                pts.append((x * sx + tx, y * sy + ty))
        else:
            pts = [(float(p[0]), float(p[1])) for p in arc]
        arcs.append(pts)
    return arcs


def _ring(arcs: list[list[tuple[float, float]]], refs: list[int]) -> list[tuple[float, float]]:
    out: list[tuple[float, float]] = []
    for r in refs:
        pts = arcs[r] if r >= 0 else arcs[~r][::-1]
        out.extend(pts if not out else pts[1:])  # consecutive arcs share their end point
    return out


def topo_to_geojson(topo: dict, name: str) -> dict:
    """One TopoJSON object (``GeometryCollection`` of polygons) as a GeoJSON FeatureCollection."""
    arcs = _decode_arcs(topo)
    feats = []
    for g in topo["objects"][name]["geometries"]:
        t = g.get("type")
        if t == "Polygon":
            coords = [_ring(arcs, ring) for ring in g["arcs"]]
        elif t == "MultiPolygon":
            coords = [[_ring(arcs, ring) for ring in poly] for poly in g["arcs"]]
        else:
            continue
        feats.append({"type": "Feature", "id": g.get("id"), "properties": dict(g.get("properties") or {}),
                      "geometry": {"type": t, "coordinates": coords}})
    return {"type": "FeatureCollection", "features": feats}


def _simplify(fc: dict, tolerance: float) -> dict:
    # lazy: shapely adds about 0.5 s to `planner serve` and every map command, which import this module
    # for the vendored files; only vendoring (`python -m planner.maps.assets`) simplifies (measured)
    import shapely
    from shapely.geometry import mapping, shape

    feats = []
    for f in fc["features"]:
        geom = shape(f["geometry"]).simplify(tolerance, preserve_topology=True)
        if geom.is_empty:
            continue
        geom = shapely.set_precision(geom, 1e-5)  # 5 decimals: about 1 m
        feats.append({**f, "geometry": mapping(geom)})
    return {"type": "FeatureCollection", "features": feats}


# ---- vendoring ---------------------------------------------------------------------------------------

def _package_version(pkg: Path) -> str:
    return json.loads((pkg / "package.json").read_text("utf-8")).get("version", "?")


def build(node_modules: Path | None = None, out: Path = VENDOR) -> dict:
    """Copy Leaflet and convert the swiss-maps base layer from ``node_modules`` into ``out``; return versions."""
    nm = node_modules or repo_root() / "node_modules"
    leaflet, swiss = nm / "leaflet", nm / "swiss-maps"
    for pkg in (leaflet, swiss):
        if not (pkg / "package.json").is_file():
            raise AssetsMissing(_("{package} not installed: run 'npm ci' in {folder}").format(package=pkg,
                                                                                               folder=repo_root()))
    years = sorted(p.parent.name for p in swiss.glob("20*/ch-combined.json"))
    if not years:
        raise AssetsMissing(_("{folder}: no <year>/ch-combined.json").format(folder=swiss))
    topo = json.loads((swiss / years[-1] / "ch-combined.json").read_text("utf-8"))
    base = {name: _simplify(topo_to_geojson(topo, name), SIMPLIFY[name]) for name in LAYERS}
    out_leaflet = out / "leaflet"
    if out_leaflet.exists():
        shutil.rmtree(out_leaflet)
    out_leaflet.mkdir(parents=True)
    for f in ("leaflet.js", "leaflet.css"):
        shutil.copy2(leaflet / "dist" / f, out_leaflet / f)
    shutil.copytree(leaflet / "dist" / "images", out_leaflet / "images")
    for lic in ("LICENSE",):
        if (leaflet / lic).is_file():
            shutil.copy2(leaflet / lic, out_leaflet / lic)
        if (swiss / lic).is_file():
            shutil.copy2(swiss / lic, out / "swiss-maps-LICENSE")
    (out / "basemap.json").write_text(json.dumps(base, separators=(",", ":")), "utf-8")
    versions = {"leaflet": _package_version(leaflet), "swiss-maps": _package_version(swiss), "year": years[-1]}
    (out / "versions.json").write_text(json.dumps(versions, indent=1), "utf-8")
    load_basemap.cache_clear()
    return versions


def available() -> bool:
    """True when the vendored files are there."""
    return (LEAFLET_DIR / "leaflet.js").is_file() and (LEAFLET_DIR / "leaflet.css").is_file() and BASEMAP.is_file()


def require() -> None:
    """Raise :class:`AssetsMissing` (one line, with the fix) when the vendored files are missing."""
    if not available():
        raise AssetsMissing(_(SETUP_HINT))


def ensure() -> None:
    """Make the assets available: nothing to do when vendored, else build from ``node_modules`` if present."""
    if available():
        return
    if (repo_root() / "node_modules" / "leaflet").is_dir():
        build()
    require()


@lru_cache(maxsize=1)
def load_basemap() -> dict:
    """``{"country": FeatureCollection, "cantons": ..., "lakes": ...}`` in WGS84 (lon, lat)."""
    require()
    return json.loads(BASEMAP.read_text("utf-8"))


def leaflet_js() -> str:
    """Leaflet's JavaScript, safe to inline in a ``<script>`` element."""
    require()
    return (LEAFLET_DIR / "leaflet.js").read_text("utf-8").replace("</script", "<\\/script")


def leaflet_css(inline_images: bool) -> str:
    """Leaflet's CSS; with ``inline_images`` its ``url(images/...)`` become data URIs (one-file maps)."""
    require()
    css = (LEAFLET_DIR / "leaflet.css").read_text("utf-8")
    if not inline_images:
        return css

    def data_uri(m: re.Match) -> str:
        p = LEAFLET_DIR / "images" / m.group(1)
        if not p.is_file():
            return m.group(0)
        return f"url(data:image/png;base64,{base64.b64encode(p.read_bytes()).decode('ascii')})"

    return re.sub(r"url\(\s*['\"]?images/([^'\")]+)['\"]?\s*\)", data_uri, css)


def leaflet_icons_js() -> str:
    """JavaScript giving Leaflet's default marker its images as data URIs (for one-file maps). Leaflet finds them
    by a folder read from its CSS; an inlined CSS names none, so a default marker (folium makes one before it
    sets a label's ``DivIcon``) asked the page's own folder for ``marker-icon.png`` (404)."""
    require()

    def uri(name: str) -> str:
        return "data:image/png;base64," + base64.b64encode((LEAFLET_DIR / "images" / name).read_bytes()).decode()

    icons = {"iconUrl": uri("marker-icon.png"), "iconRetinaUrl": uri("marker-icon-2x.png"),
             "shadowUrl": uri("marker-shadow.png")}
    return f"L.Icon.Default.imagePath = '';L.Icon.Default.mergeOptions({json.dumps(icons)});"


def versions() -> dict:
    """Versions of the vendored packages (empty when not vendored)."""
    return json.loads(VERSIONS.read_text("utf-8")) if VERSIONS.is_file() else {}


# ---- Leaflet beside a linked map ------------------------------------------------------------------

ASSETS_DIR = "sbb-planner-assets"  # beside a map: the one folder the planner owns there
ASSETS_MARKER = ".sbb-planner-assets"  # proves the folder is the planner's (it then may replace its content)


def lib_dir() -> str:
    """Where a linked map finds Leaflet, relative to the HTML file: a folder per Leaflet version inside
    :data:`ASSETS_DIR`, so an update never rewrites files an older map uses."""
    return f"{ASSETS_DIR}/leaflet-{versions().get('leaflet', 'x')}"


def install_leaflet(folder: Path) -> None:
    """Copy Leaflet into ``folder``/:func:`lib_dir` unless it is there. Nothing outside the planner's own
    :data:`ASSETS_DIR` (with its marker file) is ever replaced or deleted."""
    own = folder / ASSETS_DIR
    if own.exists() and not (own / ASSETS_MARKER).is_file():
        raise PlannerError(_("{folder} exists but was not made by the planner: not touching it (move it, or use "
                             "--standalone)").format(folder=own))
    lib = folder / lib_dir()
    stamp = lib / ".version"
    want = json.dumps(versions())
    if stamp.is_file() and stamp.read_text("utf-8") == want and (lib / "leaflet.js").is_file():
        return
    created = not own.exists()
    try:
        own.mkdir(exist_ok=True)
        atomic_write_text(own / ASSETS_MARKER, "Leaflet copies written by sbb-planner for its maps; safe to delete.\n")
        # Copied complete into a temporary folder of ours, then renamed: a reader sees all of it or nothing.
        tmp = Path(tempfile.mkdtemp(prefix=".tmp-leaflet-", dir=own))
        try:
            shutil.copytree(LEAFLET_DIR, tmp / "leaflet")
            (tmp / "leaflet" / ".version").write_text(want, "utf-8")
            if lib.exists():  # an incomplete copy of ours (the marker says so): replaced
                shutil.rmtree(lib)
            os.rename(tmp / "leaflet", lib)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    except (OSError, shutil.Error) as exc:
        if created:  # nothing of ours left behind: the folder held only what this call began to write
            shutil.rmtree(own, ignore_errors=True)
        raise PlannerError(_("map assets {folder}: cannot be written ({why})").format(
            folder=own, why=_os_reason(exc))) from None


def _os_reason(exc: BaseException) -> str:
    """Why a write failed, in the system's words (copytree gathers its errors in a list: the first one)."""
    if isinstance(exc, shutil.Error) and exc.args and isinstance(exc.args[0], list) and exc.args[0]:
        why = str(exc.args[0][0][-1])  # "[Errno 28] No space left on device: 'src' -> 'dst'"
        return why.split("] ", 1)[-1].split(": '", 1)[0]
    return getattr(exc, "strerror", None) or str(exc) or type(exc).__name__


def main(argv: list[str] | None = None) -> int:
    """``python -m planner.maps.assets [--node-modules DIR]``: vendor the map assets."""
    p = argparse.ArgumentParser(prog="python -m planner.maps.assets", description=__doc__.splitlines()[0])
    p.add_argument("--node-modules", type=Path, help="node_modules folder (default: <repo>/node_modules)")
    args = p.parse_args(argv)
    try:
        v = build(args.node_modules)
    except PlannerError as exc:
        sys.stderr.write(f"planner.maps.assets: error: {exc}\n")
        return 2
    size = BASEMAP.stat().st_size // 1024
    sys.stdout.write(f"vendored leaflet {v['leaflet']}, swiss-maps {v['swiss-maps']} ({v['year']}, "
                     f"base map {size} KiB) into {VENDOR}\n")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
