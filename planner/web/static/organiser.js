/* The organiser's page: every group's position, last roll and target in one table and on one map. */
"use strict";

const GAME = document.body.dataset.game;
let map = null;
let layer = null;

async function refresh() {
  let data;
  try {
    data = await api(`/api/games/${encodeURIComponent(GAME)}`);
    netStatus("");
  } catch (e) {
    netStatus(e instanceof ApiError ? e.message : "Offline.");
    return;
  }
  document.querySelector("#groups tbody").replaceChildren(...data.groups.map((g) => {
    const last = g.last;
    const pos = g.status.position;
    return h("tr", {},
      h("td", {}, g.group.name),
      h("td", {}, pos ? `${pos.station} ${pos.since}` : "-"),
      h("td", {}, last ? `${last.roll} at ${last.time}` : "-"),
      h("td", {}, last ? (last.kind === "free" ? `free until ${last.free_until}` : last.target) : "-"),
      h("td", {}, last && last.arrival ? last.arrival : "-"),
      h("td", {}, g.status.rolls.length));
  }));
  if (!map) map = makeMap("map");
  if (!map) return;
  let coords;
  try { coords = await stations(GAME); } catch (e) { return; }
  if (layer) layer.remove();
  layer = L.layerGroup().addTo(map);
  for (const g of data.groups) {
    const here = g.status.position && coords.get(g.status.position.station);
    const there = g.last && g.last.target && coords.get(g.last.target);
    // a DOM node, not a string: Leaflet inserts a string as HTML (a group's name is the organiser's text)
    if (here) L.circleMarker(here, {radius: 7, color: "#c60018"}).bindTooltip(h("span", {}, g.group.name)).addTo(layer);
    if (here && there) L.polyline([here, there], {color: "#c60018", dashArray: "4 6"}).addTo(layer);
  }
}

refresh();
setInterval(refresh, 5000);
