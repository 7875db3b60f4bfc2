/* Talking to the server: JSON calls with the cookie, the poll interval, the day's stations. */

export class ApiError extends Error {
  /** ``data``: the answer's body (a refusal may carry more than its sentence: the trains a name fits). */
  constructor(status, message, data) { super(message); this.status = status; this.data = data || {}; }
}

/** The service worker answered from its cache: no network. ``data`` is the kept answer. */
export class OfflineCopy extends Error {
  constructor(data) { super("offline"); this.data = data; }
}

/** A JSON call with the cookie; POSTs carry the header the server's cross-site guard asks for.
    A network failure rejects with TypeError, the service worker's kept copy with OfflineCopy (both: offline),
    an answer other than 2xx with ApiError. */
export async function api(path, method, body) {
  const opts = {method: method || "GET", credentials: "same-origin", headers: {"Accept": "application/json"}};
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.headers["X-Planner"] = "1";
    opts.body = JSON.stringify(body);
  }
  const resp = await fetch(path, opts);
  let data = null;
  try { data = await resp.json(); } catch { data = null; }
  if (!resp.ok) throw new ApiError(resp.status, (data && data.error) || ("HTTP " + resp.status), data);
  if (resp.headers.get("X-Planner-Cached")) throw new OfflineCopy(data);
  return data;
}

/** An answer, or the service worker's kept copy of it when offline (other failures are thrown). */
export async function apiOrKept(path) {
  try {
    return await api(path);
  } catch (e) {
    if (e instanceof OfflineCopy) return e.data;
    throw e;
  }
}

/** How often a page asks for news: ``planner serve --poll-interval`` (the body's data-poll-ms), else ``fallback``. */
export function pollMs(fallback) {
  return Number(document.body.dataset.pollMs) || fallback;
}

let stationsCache = null;

/** The day's stations: name -> [lat, lon] (asked once; the list does not change during the day). */
export async function stations(game) {
  if (!stationsCache) {
    const list = await apiOrKept(`/api/games/${encodeURIComponent(game)}/stations`);
    stationsCache = new Map(list.map((s) => [s.name, [s.lat, s.lon]]));
  }
  return stationsCache;
}
