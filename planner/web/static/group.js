/* The group's phone page: state now, set position, roll, the answer with its map, history with undo.
   Polls the group's state every 4 s (a roll on another phone shows within 10 s), keeps the last state in
   localStorage (readable offline) and queues a roll tried offline, sent once (same roll_id) when back online. */
"use strict";

const GAME = document.body.dataset.game;
const GROUP = document.body.dataset.group;
const DICE = Number(document.body.dataset.dice || 1);
const BASE = `/api/games/${encodeURIComponent(GAME)}/groups/${encodeURIComponent(GROUP)}`;
const KEY = `planner:${GAME}:${GROUP}`;
const POLL_MS = 4000;

let map = null;
let routeLayer = null;
let shownSeq = null;

function newRollId() {
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);  // available without a secure context, unlike crypto.randomUUID
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

function message(text, isError) {
  const el = document.getElementById("message");
  el.textContent = text || "";
  el.className = isError ? "error" : "";
}

// ---- rendering --------------------------------------------------------------------------------

/* What binds the group now, in words: the group model's obligation (planner group status --json). */
function obligationText(ob) {
  if (!ob) return null;
  switch (ob.kind) {
    case "before_dice": return `free until dice start at ${ob.until}`;
    case "dice_soon": return `first roll at ${ob.until}`;
    case "roll": return "roll now";
    case "heading": return `heading for ${ob.target}${ob.until ? ", arrival " + ob.until : ""}`;
    case "free": return `free movement until ${ob.until}: roll before it ends`;
    case "ended": return "the game is over";
    default: return ob.kind;
  }
}

/* The time the group's requests carry: the time field (prefilled with the phone's clock, which it follows until
   the players change it to tell a time that has passed). */
let timeEdited = false;
function restoreTime() {
  const kept = localStorage.getItem(KEY + ":time");  // a time the players typed survives a reload
  if (kept) { document.getElementById("time").value = kept; timeEdited = true; }
}
function nowHHMM() {
  const d = new Date();
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
}
function currentTime() {
  const el = document.getElementById("time");
  if (!timeEdited || !el.value) el.value = nowHHMM();
  return el.value;
}

function renderState(state) {
  // where the group's day has it (it moves along its itinerary): the one place a group's position is kept
  const modelPos = state.status && state.status.position;
  setText("position", modelPos && modelPos.station
    ? (modelPos.seated && modelPos.train ? modelPos.train : `${modelPos.station} ${modelPos.since}`) : null);
  const ob = state.status && state.status.obligation;
  setText("obligation", obligationText(ob));
  setText("next-roll", state.status ? state.status.next_roll_at : null);
  if (ob && ob.board_by && !(modelPos && modelPos.seated)) boardBy = ob.board_by;
  else if (modelPos && modelPos.seated) boardBy = "seated: nothing binds until you get off";
  else boardBy = null;
  if (boardBy) setText("deadline", boardBy);
  const last = state.last;
  setText("target", last ? (last.kind === "free" ? "free movement" : last.target) : null);
  setText("arrival", last ? last.arrival : null);
  setText("free-until", last ? last.free_until : null);
  setText("reroll", last ? last.reroll_at : null);
  const tbody = document.querySelector("#history tbody");
  tbody.replaceChildren(...state.status.rolls.slice().reverse().map((r) => h("tr", {},
    h("td", {}, r.seq), h("td", {}, r.time), h("td", {}, r.dice),
    h("td", {}, r.kind === "free" ? `free until ${r.free_until}` : r.target))));
  document.getElementById("undo").disabled = state.status.rolls.length === 0
    && (state.status.positions || []).length === 0;
  const lastSeq = state.status.rolls.length ? state.status.rolls[state.status.rolls.length - 1].seq : null;
  if (last && lastSeq !== shownSeq) renderAnswer(last);
  if (!last) { document.getElementById("answer").hidden = true; shownSeq = null; }
  renderMessages(state.messages || []);
}

function renderMessages(events) {
  const items = events.slice().reverse().map((e) => h("li", {}, h("b", {}, e.time), " ", e.message));
  document.getElementById("messages").replaceChildren(...(items.length ? items : [h("li", {}, "none yet")]));
}

function renderAnswer(ans) {
  shownSeq = ans.seq;
  document.getElementById("answer").hidden = false;
  setText("answer-roll", `roll ${ans.roll} (#${ans.seq})`);
  let text;
  if (ans.kind === "free") text = `Free movement until ${ans.free_until}.`;
  else if (!ans.arrival) text = `Target ${ans.target}: not reachable from here today.`;
  else text = `Go to ${ans.target}: leave ${ans.departure}, arrive ${ans.arrival}, ${ans.changes} change(s).`;
  document.getElementById("answer-text").textContent = text;
  document.querySelector("#legs tbody").replaceChildren(...(ans.legs || []).map((l) => h("tr", {},
    h("td", {}, l.route, h("br"), h("small", {}, l.headsign || "")),
    h("td", {}, l.from, l.from_platform ? h("small", {}, ` Gl. ${l.from_platform}`) : null),
    h("td", {}, l.departure),
    h("td", {}, l.to, l.to_platform ? h("small", {}, ` Gl. ${l.to_platform}`) : null),
    h("td", {}, l.arrival))));
  changeDeadlines(ans);
  const extras = [];
  for (const b of ans.bonus || []) extras.push(`full-hour bonus: ${b.event} at ${b.station} ${b.time} (fee ${b.fee})`);
  for (const c of ans.crossings || []) extras.push(`toll/tunnel: ${c.name}${c.fee_text ? " - " + c.fee_text : ""}`);
  for (const w of ans.warnings || []) extras.push(`note: ${w}`);
  document.getElementById("extras").replaceChildren(...extras.map((t) => h("li", {}, t)));
  drawRoute(ans);
}

/* The 29-minute rule at each change: what the trains endpoint (planner zugzwang) answers for getting off there. */
async function changeDeadlines(ans) {
  const legs = ans.legs || [];
  const rows = document.querySelectorAll("#legs tbody tr");
  for (let i = 0; i < legs.length - 1; i++) {
    const l = legs[i];
    const q = new URLSearchParams({at: l.to, time: l.arrival});
    if (l.trip_id) q.set("trip", l.trip_id);
    let z;
    try { z = await api(`${BASE}/trains?${q}`); } catch (e) {
      if (!(e instanceof OfflineCopy)) continue;
      z = e.data;
    }
    if (rows[i]) rows[i].lastElementChild.append(h("br"), h("small", {class: "deadline"}, `next train by ${z.deadline}`));
  }
}

async function drawRoute(ans) {
  if (!map) map = makeMap("map");
  if (!map) return;
  let coords;
  try { coords = await stations(GAME); } catch (e) { return; }
  const pts = [];
  for (const l of ans.legs || []) {
    for (const name of [l.from, l.to]) {
      const c = coords.get(name);
      if (c && !(pts.length && pts[pts.length - 1] === c)) pts.push(c);
    }
  }
  if (routeLayer) routeLayer.remove();
  routeLayer = L.layerGroup().addTo(map);
  if (pts.length) {
    L.polyline(pts, {color: "#c60018", weight: 4, className: "route"}).addTo(routeLayer);
    for (const p of pts) L.circleMarker(p, {radius: 4, color: "#333"}).addTo(routeLayer);
    map.fitBounds(L.latLngBounds(pts).pad(0.2));
  }
}

// ---- state, polling, offline ------------------------------------------------------------------

function saveState(state) {
  try { localStorage.setItem(KEY + ":state", JSON.stringify({state, at: Date.now()})); } catch (e) { /* full */ }
}

function cachedState() {
  try { return JSON.parse(localStorage.getItem(KEY + ":state") || "null"); } catch (e) { return null; }
}

async function refresh() {
  try {
    const state = await api(`${BASE}?time=${encodeURIComponent(currentTime())}`);
    netStatus("");
    saveState(state);
    renderState(state);
    const where = state.status.position ? JSON.stringify(state.status.position) : null;
    if (where && where !== nextFor) refreshNext(where);  // only when the position changed: it is routed
    await flushQueue();
  } catch (e) {
    if (e instanceof ApiError) { netStatus(e.message); return; }
    const c = cachedState();
    netStatus(`Offline: showing the last answer${c ? " from " + new Date(c.at).toLocaleTimeString() : ""}.`);
  }
}

let nextFor = null;
let boardBy = null;  // the group model's board-by time wins over the trains answer for the set position

async function refreshNext(where) {
  try {
    const z = await api(BASE + "/trains");
    nextFor = where;
    if (!boardBy) setText("deadline", z.forced_next ? `${z.deadline} (no train by then: take the next one)` : z.deadline);
  } catch (e) { /* keeps the last value */ }
}

function queue() {
  try { return JSON.parse(localStorage.getItem(KEY + ":queue") || "[]"); } catch (e) { return []; }
}

function setQueue(q) { localStorage.setItem(KEY + ":queue", JSON.stringify(q)); }

async function flushQueue() {
  let q = queue();
  while (q.length) {
    const body = q[0];
    try {
      const ans = await api(BASE + "/rolls", "POST", body);
      message(`The queued roll ${body.dice} was sent.`);
      renderAnswer(ans);
    } catch (e) {
      if (!(e instanceof ApiError)) return;  // still offline: keep it for later
      message(`The queued roll ${body.dice} was NOT sent: ${e.message}`, true);
    }
    q = queue().filter((b) => b.roll_id !== body.roll_id);
    setQueue(q);
  }
}

async function submitRoll(ev) {
  ev.preventDefault();
  const dice = DICE === 2
    ? Number(document.getElementById("die-white").value) * 10 + Number(document.getElementById("die-colour").value)
    : Number(document.getElementById("die").value);
  const body = {dice, time: currentTime(), roll_id: newRollId()};
  const queueIt = () => {
    setQueue([...queue(), body]);
    message(`No connection: roll ${dice} is queued and will be sent once when the phone is back online.`);
  };
  if (!navigator.onLine) { queueIt(); return; }
  message("Rolling...");
  try {
    const ans = await api(BASE + "/rolls", "POST", body);
    message("");
    renderAnswer(ans);
    refresh();
  } catch (e) {
    if (e instanceof ApiError) message(`Not recorded: ${e.message}`, true); else queueIt();
  }
}

async function submitPosition(ev) {
  ev.preventDefault();
  const at = document.getElementById("at").value.trim();
  const time = currentTime();
  const trip = document.getElementById("trip").value.trim();
  if (!at && !trip) { message("Type the station, or the train you are in (e.g. IR75 12:25).", true); return; }
  const body = {};
  if (at) body.at = at;
  if (time) body.time = time;
  if (trip) body.trip = trip;
  try {
    const st = await api(BASE + "/position", "POST", body);
    const pos = st.position;
    message(st.train ? `Position: ${st.train}` : `Position: ${pos.station} since ${pos.since}`);
    refresh();
  } catch (e) {
    message(e instanceof ApiError ? e.message : "No connection: the position was not sent.", true);
  }
}

async function undo() {
  try {
    const out = await api(BASE + "/undo", "POST", {});
    // undo removes the latest entry, a roll or a position report: say which
    message(out.removed ? `Roll #${out.removed} removed.`
      : out.removed_position ? `Position ${out.removed_position} removed.` : "Nothing to undo.");
    shownSeq = null;
    refresh();
  } catch (e) {
    message(e instanceof ApiError ? e.message : "No connection: nothing was undone.", true);
  }
}

async function fillStations() {
  try {
    const coords = await stations(GAME);
    document.getElementById("stations").replaceChildren(...[...coords.keys()].map((n) => h("option", {value: n})));
  } catch (e) { /* offline: the field still takes any name */ }
}

document.getElementById("roll-form").addEventListener("submit", submitRoll);
document.getElementById("position-form").addEventListener("submit", submitPosition);
document.getElementById("undo").addEventListener("click", undo);
document.getElementById("time").addEventListener("input", (ev) => {
  timeEdited = Boolean(ev.target.value);
  if (timeEdited) localStorage.setItem(KEY + ":time", ev.target.value); else localStorage.removeItem(KEY + ":time");
});
restoreTime();
window.addEventListener("online", () => { netStatus(""); refresh(); });
window.addEventListener("offline", () => netStatus("Offline: showing the last answer."));

const cached = cachedState();
if (cached) renderState(cached.state);
fillStations();
refresh();
setInterval(refresh, POLL_MS);
