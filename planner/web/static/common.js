/* Shared by the group and organiser pages: DOM helper (text only, never HTML), API calls, the map.
   Plain JS, no build step. Everything a user typed reaches the page through textContent. */
"use strict";

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") el.className = v; else el.setAttribute(k, v);
  }
  for (const c of children) {
    if (c === null || c === undefined) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/* How often a page asks for news: ``planner serve --poll-interval`` (the body's data-poll-ms), else ``fallback``. */
function pollMs(fallback) {
  return Number(document.body.dataset.pollMs) || fallback;
}

/* A station's name as a Leaflet tooltip: a DOM node with the name as text (Leaflet puts strings in as HTML). */
function mapLabel(text) {
  return h("span", {class: "map-label"}, text);
}

function setText(id, text) {
  const el = document.getElementById(id);
  if (el) el.textContent = (text === null || text === undefined || text === "") ? "-" : String(text);
}

class ApiError extends Error {
  constructor(status, message, data) { super(message); this.status = status; this.data = data || {}; }
}

/* The service worker answered from its cache: no network. ``data`` is the kept answer. */
class OfflineCopy extends Error {
  constructor(data) { super("offline"); this.data = data; }
}

/* A JSON call with the cookie; POSTs carry the header the server's cross-site guard asks for.
   A network failure rejects with TypeError, the service worker's kept copy with OfflineCopy (both: offline),
   an answer other than 2xx with ApiError. */
async function api(path, method, body) {
  const opts = {method: method || "GET", credentials: "same-origin", headers: {"Accept": "application/json"}};
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.headers["X-Planner"] = "1";
    opts.body = JSON.stringify(body);
  }
  const resp = await fetch(path, opts);
  let data = null;
  try { data = await resp.json(); } catch (e) { data = null; }
  if (!resp.ok) throw new ApiError(resp.status, (data && data.error) || ("HTTP " + resp.status), data);
  if (resp.headers.get("X-Planner-Cached")) throw new OfflineCopy(data);
  return data;
}

function netStatus(text) {
  const el = document.getElementById("net");
  if (!el) return;
  el.hidden = !text;
  el.textContent = text || "";
}

let stationsCache = null;
async function stations(game) {
  if (stationsCache) return stationsCache;
  let list;
  try { list = await api(`/api/games/${encodeURIComponent(game)}/stations`); } catch (e) {
    if (!(e instanceof OfflineCopy)) throw e;
    list = e.data;  // the station list does not change during the day: the kept copy is as good
  }
  stationsCache = new Map(list.map((s) => [s.name, [s.lat, s.lon]]));
  return stationsCache;
}

/* A Leaflet map on the vendored Swiss base layer (no tile server: works offline). */
function makeMap(id) {
  if (typeof L === "undefined") return null;
  const map = L.map(id, {zoomControl: true, attributionControl: true}).setView([47.17, 8.5], 10);
  map.attributionControl.addAttribution("Base map: swiss-maps (FSO, swisstopo)");
  // The base layer arrives after the route may have been drawn: its own pane keeps it underneath.
  map.createPane("base").style.zIndex = 250;
  const opts = (style) => ({pane: "base", interactive: false, style});
  fetch("/vendor/basemap.json").then((r) => r.json()).then((base) => {
    L.geoJSON(base.country, opts({color: "#999", weight: 1, fillColor: "#f4f1ea", fillOpacity: 1})).addTo(map);
    L.geoJSON(base.lakes, opts({color: "#9cc3e6", weight: 1, fillColor: "#cfe3f5", fillOpacity: 1})).addTo(map);
    L.geoJSON(base.cantons, opts({color: "#bbb", weight: 0.5, fill: false})).addTo(map);
  }).catch(() => {});
  return map;
}

/* The service worker keeps the app for a tunnel. The page that registered it was loaded before it ran, so the
   page puts itself into the worker's cache (same name as in sw.js) to be there offline, too. */
const PAGE_CACHE = "planner-data-v1";
if ("serviceWorker" in navigator) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js", {scope: "/"})
      .then(() => navigator.serviceWorker.ready)
      .then(() => caches.open(PAGE_CACHE))
      .then((c) => c.add(location.pathname))
      .then(() => document.documentElement.setAttribute("data-offline-ready", "1"))
      .catch(() => {});
  });
}
