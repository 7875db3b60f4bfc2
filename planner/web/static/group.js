/* The group's phone page: state now, set position, roll, history with undo (answer.js draws the answers and the
   trains the rule allows, money.js the ledger). Polls the group's state every 4 s (or serve's --poll-interval: a
   roll on another phone shows within 10 s), keeps the last state in localStorage (readable offline) and queues a roll tried offline, sent
   once (same roll_id) when back online. */
"use strict";

const GAME = document.body.dataset.game;
const GROUP = document.body.dataset.group;
const DICE = Number(document.body.dataset.dice || 1);
const BASE = `/api/games/${encodeURIComponent(GAME)}/groups/${encodeURIComponent(GROUP)}`;
const KEY = `planner:${GAME}:${GROUP}`;
const POLL_MS = pollMs(4000);

const view = {state: null, next: null};  // the latest state and next answer (money.js reads them)

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
    case "jail": return `in jail until ${ob.until} (your train was 5+ minutes late)${ob.target ? ", then on to " + ob.target : ""}`;
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
  view.state = state;
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
  if (state.cash !== undefined) { setText("cash", chf(state.cash)); setText("capital", chf(state.capital)); }
  const last = state.last;
  setText("target", last ? (last.kind === "free" ? "free movement" : last.target) : null);
  setText("arrival", last ? last.arrival : null);
  setText("free-until", last ? last.free_until : null);
  setText("reroll", last ? last.reroll_at : null);
  const tbody = document.querySelector("#history tbody");
  tbody.replaceChildren(...state.status.rolls.slice().reverse().map((r) => h("tr", {},
    h("td", {}, r.seq), h("td", {}, r.time), h("td", {}, r.dice),
    h("td", {}, r.kind === "free" ? `free until ${r.free_until}` : r.target))));
  document.getElementById("undo").disabled = !latestEntry(state);
  const lastSeq = state.status.rolls.length ? state.status.rolls[state.status.rolls.length - 1].seq : null;
  if (last && lastSeq !== shownSeq) renderAnswer(last);
  if (!last) { document.getElementById("answer").hidden = true; shownSeq = null; }
  renderRealtime(state.realtime, `${lastSeq}:${(state.status.positions || []).length}`);
  renderMessages(state.messages || []);
}

/* serve --realtime: a banner when the data is stale or missing, and the way on re-planned on real times
   (planner next: a missed change, a cancelled train or a jail changes it) whenever the data or the day changed. */
let liveFor = null;

function late(min) {
  return min ? (min > 0 ? ` +${min}'` : ` ${min}'`) : "";
}

function renderRealtime(rt, lastSeq) {
  const el = document.getElementById("realtime");
  if (!rt) { el.hidden = true; return; }
  let text = "";
  if (!rt.available) text = `No real-time data${rt.error ? " (" + rt.error + ")" : ""}: timetable times only.`;
  else if (rt.stale) text = `Real-time data is ${rt.age_s === null ? "of unknown age" : Math.round(rt.age_s / 60) + " min old"}: delays may have changed.`;
  else if (rt.error) text = `Real-time data ${Math.round(rt.age_s / 60)} min old (last fetch failed: ${rt.error}).`;
  el.textContent = text;
  el.hidden = !text;
  const key = `${rt.version}:${lastSeq}`;
  if (key !== liveFor) { liveFor = key; refreshLive(); }
}

async function refreshLive() {
  let nx;
  try { nx = await api(`${BASE}/next?time=${encodeURIComponent(currentTime())}`); } catch (e) { return; }
  const sec = document.getElementById("live");
  const it = nx.itinerary;
  if (!it || !it.legs || !it.legs.length) { sec.hidden = true; return; }
  sec.hidden = false;
  let text = `${nx.advice}.`;
  if (it.jail) text += ` Jail at ${it.jail.station} ${it.jail.from}-${it.jail.until} (the ${it.jail.route} is ${it.jail.delay_min} min late)` +
    (it.jail.pay ? `; or pay ${it.jail.pay.amount} into the free parking and arrive ${it.jail.pay.arrival}.` : ".");
  document.getElementById("live-text").textContent = text;
  const pay = document.getElementById("jail-pay");
  pay.hidden = !(it.jail && it.jail.pay);
  if (!pay.hidden) {
    pay.textContent = `Pay ${it.jail.pay.amount} into the free parking`;
    // the jail is named by its train and station (the predicted time may move between the taps of one payment);
    // once paid the jail is gone from the plan (and the button with it); voided, it is back, and a tap pays anew
    pay.onclick = () => sendLedger({event: "parking", reason: "jail", time: it.jail.from,
      key: `jail|${it.jail.trip_id}|${it.jail.station}`}, () => refreshLive());
  }
  document.querySelector("#live-legs tbody").replaceChildren(...it.legs.map((l) => h("tr", {},
    h("td", {}, l.route), h("td", {}, l.from), h("td", {}, l.departure + late(l.departure_delay_min)),
    h("td", {}, l.to), h("td", {}, l.arrival + late(l.arrival_delay_min)))));
}

function renderMessages(events) {
  const items = events.slice().reverse().map((e) => h("li", {class: e.voided ? "voided" : ""},
    h("b", {}, e.time), " ", e.message, e.voided ? h("small", {}, " (voided)") : null));
  document.getElementById("messages").replaceChildren(...(items.length ? items : [h("li", {}, "none yet")]));
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
    const rolls = state.status.rolls;
    const where = JSON.stringify([state.status.position, rolls.length ? rolls[rolls.length - 1].seq : null]);
    if (state.status.position && where !== nextFor) refreshNext(where);  // routed: only when something moved
    refreshMoney();
    await flushQueue();
  } catch (e) {
    if (e instanceof ApiError) { netStatus(e.message); return; }
    const c = cachedState();
    netStatus(`Offline: showing the last answer${c ? " from " + new Date(c.at).toLocaleTimeString() : ""}.`);
  }
}

let nextFor = null;
let boardBy = null;  // the group model's board-by time wins over the trains answer for the set position

/* The trains the rule allows from the group's position, and what next (the itinerary's fees, for money.js). */
async function refreshNext(where) {
  try {
    const z = await api(`${BASE}/trains?time=${encodeURIComponent(currentTime())}`);
    nextFor = where;
    renderTrains(z);
    if (!boardBy) setText("deadline", z.forced_next ? `${z.deadline} (no train by then: take the next one)` : z.deadline);
  } catch (e) {
    if (e instanceof OfflineCopy) renderTrains(e.data);
  }
  try {
    view.next = await api(`${BASE}/next?time=${encodeURIComponent(currentTime())}`);
  } catch (e) {
    if (e instanceof OfflineCopy) view.next = e.data;
  }
  renderMoney();
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

/* "We have stood here since": optional, sent with a position or a roll (the 29-minute rule counts from it). */
function sinceValue() {
  return document.getElementById("since").value || null;
}

async function submitRoll(ev) {
  ev.preventDefault();
  const dice = DICE === 2
    ? Number(document.getElementById("die-white").value) * 10 + Number(document.getElementById("die-colour").value)
    : Number(document.getElementById("die").value);
  const body = {dice, time: currentTime(), roll_id: newRollId()};
  if (sinceValue()) body.since = sinceValue();
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
  if (sinceValue()) body.since = sinceValue();
  await sendPosition(body);
}

async function sendPosition(body) {
  try {
    const st = await api(BASE + "/position", "POST", body);
    const pos = st.position;
    message(st.train ? `Position: ${st.train}` : `Position: ${pos.station} since ${pos.since}`);
    refresh();
  } catch (e) {
    if (e instanceof ApiError && e.status === 409 && e.data.candidates) { askTrain(e, body); return; }
    message(e instanceof ApiError ? e.message : "No connection: the position was not sent.", true);
  }
}

/* A train named by its time fits several trains at the group's station: ask which one, and send its id. */
function askTrain(e, body) {
  const box = document.getElementById("train-choice");
  document.getElementById("train-question").textContent = `Which train is "${body.trip}"?`;
  document.getElementById("train-options").replaceChildren(...e.data.candidates.map((c) => {
    const b = h("button", {type: "button", class: "small train-option"}, c.train);
    b.addEventListener("click", () => { box.hidden = true; sendPosition({...body, trip: c.trip_id}); });
    return b;
  }));
  box.hidden = false;
  message("");
}

/* The entry undo would remove: the latest roll or position report. In the same minute the server takes the one
   recorded last, which the state does not say: the roll is taken (a group reports, then rolls), and the answer
   of the undo names what was removed. */
function latestEntry(state) {
  const rolls = (state && state.status && state.status.rolls) || [];
  const positions = (state && state.status && state.status.positions) || [];
  const r = rolls.length ? rolls[rolls.length - 1] : null;
  const p = positions.reduce((a, b) => (!a || b.time >= a.time ? b : a), null);
  if (p && (!r || p.time > r.time)) return `the position report "${p.label || p.station}" at ${p.time}`;
  if (r) return `roll #${r.seq} (${r.dice} at ${r.time}: ${r.kind === "free" ? "free movement" : r.target})`;
  return null;
}

/* Undo asks first: one tap never deletes a roll. */
function askUndo() {
  const what = latestEntry(view.state);
  if (!what) { message("Nothing to undo."); return; }
  document.getElementById("undo-question").textContent = `Remove ${what}? Every phone of the group and the command line will no longer have it.`;
  document.getElementById("undo-confirm").hidden = false;
  document.getElementById("undo").hidden = true;
}

function closeUndo() {
  document.getElementById("undo-confirm").hidden = true;
  document.getElementById("undo").hidden = false;
}

async function undo() {
  closeUndo();
  try {
    const out = await api(BASE + "/undo", "POST", {});
    // undo removes the latest entry, a roll or a position report: say which
    message(out.removed ? `Roll #${out.removed} removed.`
      : out.removed_position ? `Position ${out.removed_position} removed.` : "Nothing to undo.");
    shownSeq = null;
    nextFor = null;
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
document.getElementById("undo").addEventListener("click", askUndo);
document.getElementById("undo-yes").addEventListener("click", undo);
document.getElementById("undo-no").addEventListener("click", closeUndo);
document.getElementById("train-none").addEventListener("click", () => {
  document.getElementById("train-choice").hidden = true;
  message("Add the destination to the train (e.g. S3 12:09 Laufen), or its trip id.", true);
});
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
