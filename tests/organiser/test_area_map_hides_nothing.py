"""``planner map area`` in Chromium: no two labels overlap and the legend covers no station marker (before,
Bretzwil and Reigoldswil, Zwingen–Grellingen and Grellingen were drawn over each other and the legend hid
Laufenburg), on a desktop window and on a phone, on both variants' days."""

from __future__ import annotations

import pytest

from planner.cli import main
from tests.support import ZUG
from tests.support.browser import PHONE

pytestmark = pytest.mark.needs_shared  # reads ../shared (tests/project/test_suite_without_shared.py)

FACTS = """() => {
  const el = document.querySelector(".folium-map"), map = window[el.id], c = el.getBoundingClientRect();
  const box = r => [r.left, r.top, r.right, r.bottom];
  const markers = [];
  map.eachLayer(l => { if (l instanceof L.CircleMarker) {
    const p = map.latLngToContainerPoint(l.getLatLng()), r = l.options.radius;
    markers.push([c.left + p.x - r, c.top + p.y - r, c.left + p.x + r, c.top + p.y + r]); } });
  document.querySelectorAll(".pl-badge").forEach(b => markers.push(box(b.getBoundingClientRect())));
  const labels = [...document.querySelectorAll(".pl-label, .pl-name")]
    .filter(e => getComputedStyle(e).display !== "none" && getComputedStyle(e).visibility !== "hidden")
    .map(e => [e.textContent, ...box(e.getBoundingClientRect())]);
  const legend = document.querySelector(".pl-legend");
  return {labels, markers, legend: box(legend.getBoundingClientRect()), open: legend.open};
}"""


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.fixture(scope="module")
def maps(tmp_path_factory, nws_feed, nws_date) -> dict:
    out = tmp_path_factory.mktemp("area-maps")
    days = {"A": ["--feed", str(ZUG), "--date", "2021-09-11"],
            "B": ["--game", "nordwestschweiz", "--feed", str(nws_feed), "--date", nws_date.isoformat()]}
    for variant, day in days.items():
        assert main(["map", "area", *day, "--lang", "de", "--standalone", "--out", str(out / f"{variant}.html")]) == 0
    return {v: out / f"{v}.html" for v in days}


def _facts(browser, path, viewport: dict) -> dict:
    ctx = browser.new_context(**viewport)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri())
    page.wait_for_timeout(400)  # the placement runs once Leaflet has drawn
    facts = page.evaluate(FACTS)
    ctx.close()
    assert errors == []
    return facts


@pytest.mark.parametrize("variant", ["A", "B"])
@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_no_label_overlaps_another_and_the_legend_covers_no_station(maps, browser, variant, screen):
    viewport = PHONE if screen == "phone" else {"viewport": {"width": 1280, "height": 900}}
    f = _facts(browser, maps[variant], viewport)
    labels = f["labels"]
    assert len(labels) >= 10
    assert [(a[0], b[0]) for i, a in enumerate(labels) for b in labels[i + 1:] if _overlap(a[1:], b[1:])] == []
    assert [m for m in f["markers"] if _overlap(m, f["legend"])] == []
    assert [a[0] for a in labels if _overlap(a[1:], f["legend"])] == []
    if screen == "desktop":
        assert f["open"]  # a corner free of stations was found: the legend stays open
    if variant == "B" and screen == "desktop":
        shown = {a[0] for a in labels}
        assert {"Bretzwil, Dorf", "Reigoldswil, Dorfplatz", "Zwingen–Grellingen", "Grellingen", "Laufenburg"} <= shown
