/* Service worker: keeps the app shell (scripts, styles, Leaflet, the base map) and the group's last pages and
   answers, so a phone in a tunnel still shows the itinerary. Pages and API answers: network first, the cached
   copy when offline. Join links (tokens) and state changes are never cached. */
"use strict";

const SHELL = "planner-shell-__VERSION__";  // the server puts a hash of the static files here: new files, new cache
const DATA = "planner-data-v1";
// The server puts every file of /static/ in place of the first entry (the style, the icon and each script module
// the pages import), so a phone that loaded the page once has all of them in a tunnel.
const ASSETS = ["__STATIC_FILES__", "/manifest.webmanifest", "/vendor/leaflet/leaflet.js",
  "/vendor/leaflet/leaflet.css", "/vendor/basemap.json"];

self.addEventListener("install", (ev) => {
  ev.waitUntil(caches.open(SHELL).then((c) => Promise.all(ASSETS.map((a) => c.add(a).catch(() => null))))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (ev) => {
  ev.waitUntil(caches.keys().then((keys) => Promise.all(
    keys.filter((k) => k !== SHELL && k !== DATA).map((k) => caches.delete(k)))).then(() => self.clients.claim()));
});

async function cacheFirst(req) {
  const hit = await caches.match(req);
  if (hit) return hit;
  const resp = await fetch(req);
  if (resp.ok) (await caches.open(SHELL)).put(req, resp.clone());
  return resp;
}

async function networkFirst(req) {
  try {
    const resp = await fetch(req);
    if (resp.ok) (await caches.open(DATA)).put(req, resp.clone());
    return resp;
  } catch (e) {
    const hit = await caches.match(req, {ignoreSearch: false});
    if (!hit) throw e;
    // Tell the page this is the kept copy, so it can say that it is offline.
    const headers = new Headers(hit.headers);
    headers.set("X-Planner-Cached", "1");
    return new Response(await hit.blob(), {status: hit.status, statusText: hit.statusText, headers});
  }
}

self.addEventListener("fetch", (ev) => {
  const req = ev.request;
  const url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== self.location.origin || url.pathname === "/join") return;
  if (url.pathname.endsWith("/changes")) return;  // a long poll: nothing to keep for a tunnel
  if (url.pathname.startsWith("/static/") || url.pathname.startsWith("/vendor/")) {
    ev.respondWith(cacheFirst(req));
  } else if (url.pathname.startsWith("/api/") || url.pathname.startsWith("/games/") ||
             url.pathname.startsWith("/i18n/")) {
    ev.respondWith(networkFirst(req));
  }
});
