/* The group's phone page. The first screen says where the group is, what binds it now and offers the one action
   it most likely needs (now.js decides which) with the answer's first leg right below; the rest folds away.
   Asks the group's state and the ledger's answer for the group now again when the game changed or the clock
   reaches the answer's next change (fresh.js), and the answers that depend on its place (next, the trains) once
   per change of it; keeps the last state for a tunnel and queues a roll tried offline, sent once (same roll_id)
   when back online. */
import {ApiError, api, apiOrKept, pollMs, stations} from "./api.js";
import {admissibleItems, answerSummary, answerTitle, candidateItems, changesOf, drawRoute, firstLegCard, legRow,
  trainsView} from "./answer.js";
import {PhoneClock, clockValue, tidyOnChange} from "./clock.js";
import {banner, byId, fill, h, say, setText} from "./dom.js";
import {chf, clockOf, minutesOf} from "./format.js";
import {languageSwitch, loadCatalog, t} from "./i18n.js";
import {whereAreWe} from "./locate.js";
import {makeMap} from "./map.js";
import {setUpMoney} from "./money_page.js";
import {firstLeg, placeKey, positionText} from "./now.js";
import {setUpAction} from "./action.js";
import {watchChanges, watchClock} from "./fresh.js";
import {Kept} from "./offline.js";
import {newId, nextChange} from "./money.js";
import {keepForOffline} from "./shell.js";
import {deadlineText, liveText, obligationText, realtimeBanner, rollResult, seatedText,
  undoQuestion} from "./words.js";

const DATA = document.body.dataset;
const GAME = DATA.game;
const DICE = Number(DATA.dice || 1);
const BASE = `/api/games/${encodeURIComponent(GAME)}/groups/${encodeURIComponent(DATA.group)}`;
const kept = new Kept(`planner:${GAME}:${DATA.group}`);
const clock = new PhoneClock(byId("time"), `planner:${GAME}:${DATA.group}:time`, null, DATA.date);

const view = {state: null, next: null, trains: null, ledger: null};  // the latest answers of each kind
const asked = {place: null, minute: null};  // what next/trains were asked for (now.js key); the answers' minute
let shownSeq = null;  // the roll whose answer the page shows
let map = null;
let routeLayer = null;

function message(text, isError) { say("message", text, isError); }

const money = setUpMoney({base: BASE, view, now: () => clock.now(), settle: () => clock.settle(), fetchLedger,
  said: message});
const action = setUpAction({view, now: () => clock.now(), money});

// ---- the first screen -----------------------------------------------------------------------------------

function setFact(id, value) {
  setText(id, value);
  const box = byId(id).parentElement;
  if (!box.classList.contains("always")) box.hidden = value === null || value === undefined || value === "";
}

function renderNow() {
  const st = view.state.status;
  const pos = st.position;
  const ob = st.obligation;
  setText("position", positionText(pos));
  setText("obligation", obligationText(ob));
  setFact("next-roll", st.next_roll_at);
  let boardBy = null;
  if (pos && pos.seated) boardBy = seatedText();
  else if (ob && ob.board_by) boardBy = ob.board_by;
  else if (view.trains && view.trains.deadline && pos) boardBy = deadlineText(view.trains);
  setFact("deadline", boardBy);
  const last = view.state.last;
  setFact("target", last ? (last.kind === "free" ? t("free movement") : last.target) : null);
  setFact("arrival", last ? last.arrival : null);
  setFact("free-until", last ? last.free_until : null);
  setFact("reroll", last ? last.reroll_at : null);
  const cash = view.ledger ? view.ledger : view.state;
  setFact("cash", chf(cash.cash));
  setFact("capital", chf(cash.capital));
  action.render();
  fill("first-leg", [firstLegCard(firstLeg(view))].filter(Boolean));
}

// ---- the answer, the trains, the day's history ------------------------------------------------------------

function renderAnswer(ans) {
  shownSeq = ans.seq;
  byId("answer").hidden = false;
  setText("answer-roll", answerTitle(ans));
  const {text, notes} = answerSummary(ans);
  byId("answer-text").textContent = text;
  byId("legs").querySelector("tbody").replaceChildren(...(ans.legs || []).map(legRow));
  changeDeadlines(ans);
  fill("extras", notes);
  const others = candidateItems(ans);
  byId("candidates-box").hidden = !others.length;
  fill("candidates", others);
  const ways = admissibleItems(ans);
  byId("admissible-box").hidden = !ways.length;
  fill("admissible", ways);
  drawAnswerRoute(ans);
}

/* The 29-minute rule at each change: what the trains endpoint (planner zugzwang) answers for getting off there. */
async function changeDeadlines(ans) {
  const rows = byId("legs").querySelectorAll("tbody tr");
  for (const c of changesOf(ans)) {
    const q = new URLSearchParams({at: c.at, time: c.time});
    if (c.trip) q.set("trip", c.trip);
    let z;
    try { z = await apiOrKept(`${BASE}/trains?${q}`); } catch { continue; }
    if (rows[c.index] && z.deadline) {
      rows[c.index].lastElementChild.append(h("br"),
        h("small", {class: "deadline"}, t("next train by {deadline}", {deadline: z.deadline})));
    }
  }
}

async function drawAnswerRoute(ans) {
  if (!map) map = makeMap("map");
  if (!map) return;
  let coords;
  try { coords = await stations(GAME); } catch { return; }
  if (routeLayer) routeLayer.remove();
  routeLayer = drawRoute(map, ans, coords);
}

function renderTrains() {
  const z = view.trains;
  if (!z) return;
  const {rule, rows} = trainsView(z, clock.now());
  byId("trains-rule").textContent = rule;
  byId("trains").querySelector("tbody").replaceChildren(...rows);
}

function renderHistory(st) {
  byId("history").querySelector("tbody").replaceChildren(...st.rolls.slice().reverse().map((r) => h("tr", {},
    h("td", {}, r.seq), h("td", {}, r.time), h("td", {}, r.dice), h("td", {}, rollResult(r)))));
  byId("undo").disabled = !undoQuestion(st);
}

/* serve --realtime: a banner when the data is stale or missing, and the way on re-planned on real times
   (planner next: a missed change, a cancelled train or a jail changes it). */
function renderLive() {
  const rt = view.state.realtime;
  banner("realtime", rt ? realtimeBanner(rt) : "");
  const sec = byId("live");
  const nx = view.next;
  const it = nx && nx.itinerary;
  sec.hidden = !rt || !it || !it.legs || !it.legs.length;
  if (sec.hidden) return;
  byId("live-text").textContent = liveText(nx);
  const pay = byId("jail-pay");
  pay.hidden = !(it.jail && it.jail.pay);
  if (!pay.hidden) {
    pay.textContent = t("Pay {amount} into the free parking", {amount: it.jail.pay.amount});
    // the jail is named by its train and station (the predicted time may move between the taps of one payment);
    // once paid the jail is gone from the plan (and the button with it); voided, it is back, and a tap pays anew
    pay.onclick = () => money.send({event: "parking", reason: "jail", time: it.jail.from,
      key: `jail|${it.jail.trip_id}|${it.jail.station}`}, () => fetchPlace(true));
  }
  const late = (min) => (min ? (min > 0 ? ` +${min}'` : ` ${min}'`) : "");
  byId("live-legs").querySelector("tbody").replaceChildren(...it.legs.map((l) => h("tr", {},
    h("td", {}, l.route), h("td", {}, l.from), h("td", {}, l.departure + late(l.departure_delay_min)),
    h("td", {}, l.to), h("td", {}, l.arrival + late(l.arrival_delay_min)))));
}

function renderAll() {
  if (!view.state) return;
  renderNow();
  renderTrains();
  renderLive();
  money.render();
}

function renderState(state) {
  view.state = state;
  const st = state.status;
  renderHistory(st);
  const lastSeq = st.rolls.length ? st.rolls[st.rolls.length - 1].seq : null;
  if (state.last && lastSeq !== shownSeq) renderAnswer(state.last);
  if (!state.last) { byId("answer").hidden = true; shownSeq = null; }
  const told = state.messages || [];
  fill("messages", money.toldItems(told));
  byId("messages-count").textContent = told.length ? `(${told.length})` : "";
  renderAll();
}

// ---- asking the server ------------------------------------------------------------------------------------

/* Next's answer and the trains, once per change of the group's place (or when ``force``d: a jail paid). */
async function fetchPlace(force) {
  const key = placeKey(view.state);
  if (!force && key === asked.place) return;
  asked.place = key;
  const time = encodeURIComponent(clock.now() || clockOf(new Date()));
  if (view.state.status.position) {
    try { view.trains = await apiOrKept(`${BASE}/trains?time=${time}`); } catch { view.trains = null; }
    try { view.next = await apiOrKept(`${BASE}/next?time=${time}`); } catch { view.next = null; }
  } else {
    view.trains = null;
    view.next = null;
  }
  renderAll();
}

async function fetchLedger() {
  const time = encodeURIComponent(clock.now() || clockOf(new Date()));  // what applies now is the phone's time's
  try { view.ledger = await apiOrKept(`${BASE}/ledger?time=${time}`); } catch { return; }
  renderAll();
}

let asking = 0;  // the latest state asked for: an older answer arriving after it is not shown

async function refresh() {
  const mine = ++asking;
  const now = clock.now() || clockOf(new Date());
  asked.minute = minutesOf(now);  // the clock asks again at the answers' next change after this minute
  try {
    const state = await api(`${BASE}?time=${encodeURIComponent(now)}`);
    if (mine !== asking) return;
    banner("net", "");
    kept.saveState(state);
    renderState(state);
    fetchPlace(false);
    await fetchLedger();  // the group now (fees due, what it may buy, when it changes next): a 304 when unchanged
    await flushQueue();
  } catch (e) {
    if (e instanceof ApiError) { banner("net", e.message); return; }
    const c = kept.state();
    banner("net", c ? t("Offline: showing the last answer from {time}.", {time: clockOf(new Date(c.at))})
      : t("Offline: showing the last answer."));
  }
}

async function flushQueue() {
  for (const body of kept.queue()) {
    try {
      const ans = await api(BASE + "/rolls", "POST", body);
      message(t("The queued roll {dice} was sent.", {dice: body.dice}));
      renderAnswer(ans);
    } catch (e) {
      if (!(e instanceof ApiError)) return;  // still offline: keep it for later
      message(t("The queued roll {dice} was NOT sent: {error}", {dice: body.dice, error: e.message}), true);
    }
    kept.done(body.roll_id);
  }
}

// ---- what the players do -----------------------------------------------------------------------------------

/* "We have stood here since": optional, sent with a position or a roll (the 29-minute rule counts from it);
   undefined when the field holds something that is no time. */
function sinceValue() {
  const el = byId("since");
  const c = clockValue(el);
  if (el.value.trim() && !c) return undefined;
  return c;
}

function timesOrSay() {
  const time = clock.now();
  const since = sinceValue();
  if (!time || since === undefined) { message(t("Type the time as HH:MM (24-hour)."), true); return null; }
  return since ? {time, since} : {time};
}

async function submitRoll(ev) {
  ev.preventDefault();
  const times = timesOrSay();
  if (!times) return;
  const dice = DICE === 2 ? Number(byId("die-white").value) * 10 + Number(byId("die-colour").value)
    : Number(byId("die").value);
  const body = {dice, ...times, roll_id: newId()};
  const queueIt = () => {
    kept.enqueue(body);
    message(t("No connection: roll {dice} is queued and will be sent once when the phone is back online.", {dice}));
  };
  if (!navigator.onLine) { queueIt(); return; }
  message(t("Rolling..."));
  try {
    const ans = await api(BASE + "/rolls", "POST", body);
    action.release();
    clock.settle();  // the time field shows the clock again: a typed time is not kept unseen for the next event
    message(t("Recorded: roll {dice} at {time}.", {dice, time: ans.rolled_at}));
    renderAnswer(ans);
    refresh();
  } catch (e) {
    if (e instanceof ApiError) message(t("Not recorded: {error}", {error: e.message}), true); else queueIt();
  }
}

function positionSet(st) {
  action.release();
  clock.settle();
  message(st.train ? t("Position: {train}", {train: st.train})
    : t("Position: {station} since {since}", {station: st.position.station, since: st.position.since}));
  refresh();
}

async function submitPosition(ev) {
  ev.preventDefault();
  const at = byId("at").value.trim();
  const trip = byId("trip").value.trim();
  if (!at && !trip) { message(t("Type the station, or the train you are in (e.g. IR75 12:25)."), true); return; }
  const times = timesOrSay();
  if (!times) return;
  const body = {...times};
  if (at) body.at = at;
  if (trip) body.trip = trip;
  await sendPosition(body);
}

async function sendPosition(body) {
  try {
    positionSet(await api(BASE + "/position", "POST", body));
  } catch (e) {
    if (e instanceof ApiError && e.status === 409 && e.data.candidates) { askTrain(e.data.candidates, body); return; }
    message(e instanceof ApiError ? e.message : t("No connection: the position was not sent."), true);
  }
}

/* A train named by its time fits several trains at the group's station: ask which one, and send its id. */
function askTrain(candidates, body) {
  byId("train-question").textContent = t("Which train is \"{train}\"?", {train: body.trip});
  fill("train-options", candidates.map((c) => {
    const b = h("button", {type: "button", class: "small train-option"}, c.train);
    b.addEventListener("click", () => { byId("train-choice").hidden = true; sendPosition({...body, trip: c.trip_id}); });
    return b;
  }));
  byId("train-choice").hidden = false;
  message("");
}

/* Undo asks first: one tap never deletes a roll. */
function askUndo() {
  const question = undoQuestion(view.state && view.state.status);
  if (!question) { message(t("Nothing to undo.")); return; }
  byId("undo-question").textContent = question;
  byId("undo-confirm").hidden = false;
  byId("undo").hidden = true;
}

function closeUndo() {
  byId("undo-confirm").hidden = true;
  byId("undo").hidden = false;
}

async function undo() {
  closeUndo();
  try {
    const out = await api(BASE + "/undo", "POST", {});
    // undo removes the latest entry, a roll or a position report: say which
    message(out.removed ? t("Roll #{seq} removed.", {seq: out.removed})
      : out.removed_position ? t("Position {position} removed.", {position: out.removed_position}) : t("Nothing to undo."));
    shownSeq = null;
    refresh();
  } catch (e) {
    message(e instanceof ApiError ? e.message : t("No connection: nothing was undone."), true);
  }
}

async function fillStations() {
  try {
    const coords = await stations(GAME);
    fill("stations", [...coords.keys()].map((n) => h("option", {value: n})));
  } catch { /* offline: the field still takes any name */ }
}

// ---- start ------------------------------------------------------------------------------------------------

await loadCatalog(apiOrKept);
languageSwitch(byId("languages"));
keepForOffline();
byId("roll-form").addEventListener("submit", submitRoll);
byId("position-form").addEventListener("submit", submitPosition);
byId("undo").addEventListener("click", askUndo);
byId("train-none").addEventListener("click", () => {
  byId("train-choice").hidden = true;
  message(t("Add the destination to the train (e.g. S3 12:09 Laufen), or its trip id."), true);
});
byId("undo-yes").addEventListener("click", undo);
byId("undo-no").addEventListener("click", closeUndo);
let timeTyped = null;  // a time typed: the page asks for the group's state then, once the typing pauses
byId("time").addEventListener("input", () => {
  clearTimeout(timeTyped);
  timeTyped = setTimeout(() => { if (clockValue(byId("time"))) refresh(); }, 400);
});
byId("time-now").addEventListener("click", () => { clock.follow(); refresh(); });
byId("time-back").addEventListener("click", () => { clock.shift(-5); refresh(); });
tidyOnChange(byId("since"));
whereAreWe({button: byId("locate"), box: byId("proposal"), base: BASE, time: () => clock.now(),
  extra: (body) => (body.at && sinceValue() ? {since: sinceValue()} : {}), done: positionSet, say: message});
window.addEventListener("online", () => { banner("net", ""); refresh(); });
window.addEventListener("offline", () => banner("net", t("Offline: showing the last answer.")));

const cached = kept.state();
if (cached) renderState(cached.state);
fillStations();
refresh();
watchChanges(GAME, refresh);
// following the phone's clock, each new minute redraws the facts and the trains (a departed one leaves the table)
watchClock({minute: () => minutesOf(clock.now()), asked: () => asked.minute, next: () => nextChange(view), refresh,
  redraw: () => { if (view.state && !clock.edited) { renderNow(); renderTrains(); } }}, Math.min(pollMs(1000), 1000));
document.body.dataset.ready = "1";  // every control listens now (what a test waits for before it taps)
