/* The organiser's page: every group's cash, capital, position and target in one table and on one map (station
   names as labels, each shown whole), the ranking, and the game's ledger events with a way to void one. */
import {ApiError, api, pollMs, stations} from "./api.js";
import {clockValue, tidyOnChange} from "./clock.js";
import {banner, byId, say} from "./dom.js";
import {minutesOf, nowClock} from "./format.js";
import {watchChanges} from "./fresh.js";
import {languageSwitch, loadCatalog, t} from "./i18n.js";
import {makeMap, mapLabel, placeLabels} from "./map.js";
import {eventRows, groupRows, mapItems, parkingText, rankingRows} from "./overview.js";
import {keepForOffline} from "./shell.js";

const GAME = document.body.dataset.game;
const API = `/api/games/${encodeURIComponent(GAME)}`;
let map = null;
let layer = null;
let fittedTo = "";  // the points the map was last fitted to: refitted when a group moves
let drawn = "";  // what the map shows (names, places, targets): redrawn only when it changes
let drawing = 0;  // the latest draw: an older one still waiting for the stations gives way

async function drawMap(data) {
  if (!map) map = makeMap("map");
  if (!map) return;
  const shown = JSON.stringify(data.groups.map((g) => [g.group.name, g.status.position && g.status.position.station,
    g.last && g.last.target]));
  if (shown === drawn) return;  // a poll with nothing new: the labels stay as they are (no flicker, no churn)
  const mine = ++drawing;
  let coords;
  try { coords = await stations(GAME); } catch { return; }
  if (mine !== drawing) return;
  drawn = shown;
  if (layer) map.removeLayer(layer);
  layer = L.layerGroup().addTo(map);
  const pts = [];
  const markers = [];
  for (const item of mapItems(data, coords)) {
    if (item.here) {
      pts.push(item.here);
      markers.push(L.circleMarker(item.here, {radius: 7, color: "#c60018", className: "group-dot"})
        .bindTooltip(mapLabel(item.hereLabel), {permanent: true, direction: "right", className: "group-name"})
        .addTo(layer));
    }
    if (item.there) {
      pts.push(item.there);
      markers.push(L.circleMarker(item.there, {radius: 4, color: "#333"})
        .bindTooltip(mapLabel(item.thereLabel), {permanent: true, direction: "left", className: "stop-name"})
        .addTo(layer));
    }
    if (item.here && item.there) L.polyline([item.here, item.there], {color: "#c60018", dashArray: "4 6"}).addTo(layer);
  }
  const key = JSON.stringify(pts);
  if (pts.length && key !== fittedTo) {
    map.fitBounds(L.latLngBounds(pts).pad(0.3), {maxZoom: 12, animate: false});
    fittedTo = key;
  }
  placeLabels(map, markers);
}

let latest = null;  // the last answer: the positions' ages are redrawn from it as the clock moves

function renderGroups() {
  if (latest) byId("groups").querySelector("tbody").replaceChildren(...groupRows(latest, minutesOf(nowClock())));
}

async function refresh() {
  let data;
  try {
    data = await api(API);
    banner("net", "");
  } catch (e) {
    banner("net", e instanceof ApiError ? e.message : t("Offline."));
    return;
  }
  latest = data;
  renderGroups();
  byId("ranking").querySelector("tbody").replaceChildren(...rankingRows(data));
  byId("parking").textContent = parkingText(data);
  byId("events").querySelector("tbody").replaceChildren(...eventRows(data, (seq) => { byId("void-seq").value = seq; }));
  drawMap(data);
}

async function submitVoid(ev) {
  ev.preventDefault();
  const seq = Number(byId("void-seq").value);
  const reason = byId("void-reason").value.trim();
  const timeEl = byId("void-time");
  if (!timeEl.value.trim()) timeEl.value = nowClock();
  const time = clockValue(timeEl);
  if (!time) { say("void-message", t("Type the time as HH:MM (24-hour)."), true); return; }
  if (!seq || !reason) { say("void-message", t("Give the event's number and the reason."), true); return; }
  try {
    const rec = await api(API + "/void", "POST", {seq, reason, time});
    say("void-message", t("Voided #{seq}: {message}", {seq, message: rec.message}));
    byId("void-seq").value = "";
    byId("void-reason").value = "";
    refresh();
  } catch (e) {
    say("void-message", e instanceof ApiError ? t("Not voided: {error}", {error: e.message})
      : t("No connection: nothing was voided."), true);
  }
}

await loadCatalog((url) => api(url));
languageSwitch(byId("languages"));
keepForOffline();
tidyOnChange(byId("void-time"));
byId("void-form").addEventListener("submit", submitVoid);
refresh();
// asked again when anything of the game changes (a long poll of its change mark: fresh.js), not on a timer; the
// positions' ages ("5 min ago") follow the clock without a request
watchChanges(GAME, refresh);
window.addEventListener("online", refresh);
window.addEventListener("offline", () => banner("net", t("Offline.")));
setInterval(renderGroups, Math.min(pollMs(30000), 30000));
document.body.dataset.ready = "1";  // every control listens now (what a test waits for before it taps)
