/* The organiser's page: every group's cash, capital, position and target in one table and on one map (station
   names as labels), the ranking, and the game's ledger events with a way to void one. */
"use strict";

const GAME = document.body.dataset.game;
const API = `/api/games/${encodeURIComponent(GAME)}`;
let map = null;
let layer = null;
let fittedTo = "";  // the points the map was last fitted to: refitted when a group moves
let drawn = "";  // what the map shows (names, places, targets): redrawn only when it changes
let drawing = 0;  // the latest draw: an older one still waiting for the stations gives way

function chf(n) { return n === null || n === undefined ? "-" : Number(n).toLocaleString("de-CH"); }

function where(g) {
  const pos = g.status.position;
  if (!pos || !pos.station) return "-";
  return pos.seated && pos.train ? pos.train : `${pos.station} ${pos.since}`;
}

function heading(g) {
  const last = g.last;
  if (!last) return "-";
  if (last.kind === "free") return `free until ${last.free_until}`;
  return last.arrival ? `${last.target} ${last.arrival}` : last.target;
}

function renderGroups(data) {
  document.querySelector("#groups tbody").replaceChildren(...data.groups.map((g) => h("tr", {},
    h("td", {}, g.group.name), h("td", {class: "num"}, chf(g.cash)), h("td", {class: "num"}, chf(g.capital)),
    h("td", {}, where(g)), h("td", {}, heading(g)))));
}

function renderRanking(data) {
  const r = data.ranking;
  document.querySelector("#ranking tbody").replaceChildren(...r.ranking.map((x) => h("tr", {class: x.out ? "voided" : ""},
    h("td", {}, x.out ? "out" : x.rank), h("td", {}, x.group), h("td", {class: "num"}, chf(x.cash)),
    h("td", {class: "num"}, chf(x.capital)))));
  document.getElementById("parking").textContent = `Free parking: ${chf(r.parking)}` +
    (r.winner ? `. Leading: ${r.winner}.` : ".");
}

function renderEvents(data) {
  const rows = (data.events || []).slice().reverse().map((e) => {
    const tr = h("tr", {class: e.voided ? "voided" : "pick"}, h("td", {}, e.seq), h("td", {}, e.time),
      h("td", {}, h("span", {class: "sms-text"}, e.message), e.voided ? h("small", {}, " voided") : null));
    if (!e.voided) tr.addEventListener("click", () => { document.getElementById("void-seq").value = e.seq; });
    return tr;
  });
  document.querySelector("#events tbody").replaceChildren(...(rows.length ? rows
    : [h("tr", {}, h("td", {colspan: "3"}, "no ledger events yet"))]));
}

async function drawMap(data) {
  if (!map) map = makeMap("map");
  if (!map) return;
  const shown = JSON.stringify(data.groups.map((g) => [g.group.name, g.status.position && g.status.position.station,
    g.last && g.last.target]));
  if (shown === drawn) return;  // a poll with nothing new: the labels stay as they are (no flicker, no churn)
  const mine = ++drawing;
  let coords;
  try { coords = await stations(GAME); } catch (e) { return; }
  if (mine !== drawing) return;
  drawn = shown;
  if (layer) map.removeLayer(layer);
  layer = L.layerGroup().addTo(map);
  const pts = [];
  for (const g of data.groups) {
    const pos = g.status.position;
    const here = pos && coords.get(pos.station);
    const there = g.last && g.last.target && coords.get(g.last.target);
    if (here) {
      pts.push(here);
      L.circleMarker(here, {radius: 7, color: "#c60018", className: "group-dot"})
        .bindTooltip(mapLabel(`${g.group.name}: ${pos.station}`), {permanent: true, direction: "right",
          className: "group-name"}).addTo(layer);
    }
    if (there) {
      pts.push(there);
      L.circleMarker(there, {radius: 4, color: "#333"})
        .bindTooltip(mapLabel(g.last.target), {permanent: true, direction: "left", className: "stop-name"})
        .addTo(layer);
    }
    if (here && there) L.polyline([here, there], {color: "#c60018", dashArray: "4 6"}).addTo(layer);
  }
  const key = JSON.stringify(pts);
  if (pts.length && key !== fittedTo) { map.fitBounds(L.latLngBounds(pts).pad(0.3), {maxZoom: 12}); fittedTo = key; }
}

async function refresh() {
  let data;
  try {
    data = await api(API);
    netStatus("");
  } catch (e) {
    netStatus(e instanceof ApiError ? e.message : "Offline.");
    return;
  }
  renderGroups(data);
  renderRanking(data);
  renderEvents(data);
  drawMap(data);
}

function nowHHMM() {
  const d = new Date();
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
}

async function submitVoid(ev) {
  ev.preventDefault();
  const out = document.getElementById("void-message");
  const seq = Number(document.getElementById("void-seq").value);
  const reason = document.getElementById("void-reason").value.trim();
  const timeEl = document.getElementById("void-time");
  if (!timeEl.value) timeEl.value = nowHHMM();
  if (!seq || !reason) { out.className = "error"; out.textContent = "Give the event's number and the reason."; return; }
  try {
    const rec = await api(API + "/void", "POST", {seq, reason, time: timeEl.value});
    out.className = "";
    out.textContent = `Voided #${seq}: ${rec.message}`;
    document.getElementById("void-seq").value = "";
    document.getElementById("void-reason").value = "";
    refresh();
  } catch (e) {
    out.className = "error";
    out.textContent = e instanceof ApiError ? `Not voided: ${e.message}` : "No connection: nothing was voided.";
  }
}

document.getElementById("void-form").addEventListener("submit", submitVoid);
refresh();
setInterval(refresh, pollMs(5000));
