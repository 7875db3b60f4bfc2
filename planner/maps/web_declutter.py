"""Labels and legend of a web map that hide nothing: placed in the browser, where the map's pixels are known.

A Leaflet map's labels sit at a fixed offset from their point, so at some zooms two of them overlap (Bretzwil,
Dorf and Reigoldswil, Dorfplatz) and the legend box covers stations (Laufenburg, at the area's corner). The
script below, run when the map is drawn and after each zoom, move or resize:

* puts the legend into the corner where it covers no station marker nor dice-number badge (folds it once, at the start, when every
  corner would cover one: its summary line is small);
* places each label (dice targets first, then toll lines and tunnels, then station names) at the first of
  several positions around its point, near first, whose box overlaps no label placed before, no station marker,
  no dice-number badge, no control and not the legend; a label with no free position is hidden (its marker's
  tooltip still names it), as the printed map leaves it out (:mod:`planner.maps.labels`).

Every label carries where its point lies in its icon (``data-ax``, ``data-ay``: the icon's anchor), the radius
to keep clear (``data-r``) and its rank (``data-rank``): :func:`label_attrs`.
"""

from __future__ import annotations

import json

from branca.element import MacroElement
from jinja2 import Template

RANKS = {"target": 0, "crossing": 1, "major": 2, "minor": 3}


def label_attrs(anchor: tuple[int, int], clear: int, kind: str) -> str:
    """The data attributes of a label's ``div`` (see module docstring): ``icon_anchor`` as the DivIcon has it."""
    return f'data-ax="{anchor[0]}" data-ay="{anchor[1]}" data-r="{clear}" data-rank="{RANKS[kind]}"'


class Declutter(MacroElement):
    """The script of the module docstring, given the stations' ``(lat, lon, radius in px)``."""

    _template = Template("""
{% macro script(this, kwargs) %}
(function (map, stations) {
    const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const rect = el => el.getBoundingClientRect();
    const legend = document.querySelector(".pl-legend");
    const corners = [{top: "10px", right: "10px"}, {bottom: "30px", right: "10px"}, {bottom: "40px", left: "10px"},
                     {top: "90px", left: "10px"}];
    function dots() {
        const c = rect(map.getContainer());
        return stations.map(([lat, lon, r]) => {
            const p = map.latLngToContainerPoint([lat, lon]);
            return {left: c.left + p.x - r, right: c.left + p.x + r, top: c.top + p.y - r, bottom: c.top + p.y + r};
        });
    }
    function corner(points) {
        let best = null;
        for (const at of corners) {
            Object.assign(legend.style, {top: "auto", right: "auto", bottom: "auto", left: "auto"}, at);
            const n = points.filter(d => hit(d, rect(legend))).length;
            if (best === null || n < best.n) best = {n, at};
            if (!n) break;
        }
        Object.assign(legend.style, {top: "auto", right: "auto", bottom: "auto", left: "auto"}, best.at);
        return best.n;
    }
    function labels(points) {
        const c = rect(map.getContainer());
        const fixed = [...document.querySelectorAll(".leaflet-control")].map(rect).concat(points);
        if (legend) fixed.push(rect(legend));
        const els = [...document.querySelectorAll(".pl-label, .pl-name")]
            .filter(el => getComputedStyle(el).display !== "none")
            .sort((a, b) => a.dataset.rank - b.dataset.rank);
        const placed = [];
        for (const el of els) {
            el.style.transform = "";
            el.style.visibility = "";
            const own = rect(el), icon = rect(el.parentElement);
            const px = icon.left + Number(el.dataset.ax), py = icon.top + Number(el.dataset.ay);
            const r = Number(el.dataset.r), w = own.width, h = own.height;
            let spot = null;
            for (const k of [1, 1.8, 2.8]) {
                const d = k * r + 2;
                for (const [x, y] of [[px + d, py - h / 2], [px - d - w, py - h / 2], [px - w / 2, py - d - h],
                                      [px - w / 2, py + d], [px + d * 0.7, py - d * 0.7 - h], [px + d * 0.7, py + d * 0.7],
                                      [px - d * 0.7 - w, py - d * 0.7 - h], [px - d * 0.7 - w, py + d * 0.7]]) {
                    const b = {left: x, right: x + w, top: y, bottom: y + h};
                    if (b.left < c.left || b.right > c.right || b.top < c.top || b.bottom > c.bottom) continue;
                    if (placed.some(o => hit(o, b)) || fixed.some(o => hit(o, b))) continue;
                    spot = b;
                    break;
                }
                if (spot) break;
            }
            if (spot) {
                el.style.transform = `translate(${spot.left - own.left}px, ${spot.top - own.top}px)`;
                placed.push(spot);
            } else {
                el.style.visibility = "hidden";
            }
        }
    }
    let first = true;
    function run() {
        const points = dots().concat([...document.querySelectorAll(".pl-badge")].map(rect));
        if (legend) {
            const covered = corner(points);
            if (covered && first && legend.open) {
                legend.open = false;
                corner(points);
            }
        }
        first = false;
        labels(points);
    }
    map.on("zoomend moveend resize", () => setTimeout(run, 0));
    if (legend) legend.addEventListener("toggle", () => setTimeout(run, 0));
    setTimeout(run, 0);
})({{this._parent.get_name()}}, {{this.stations}});
{% endmacro %}
""")

    def __init__(self, stations: list[tuple[float, float, float]]):
        super().__init__()
        self._name = "Declutter"
        self.stations = json.dumps([[round(a, 6), round(b, 6), r] for a, b, r in stations])
