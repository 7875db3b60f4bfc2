/* The group's money on its phone: cash, capital, what it owns; buy, pay a fee, full-hour income, build, mortgage,
   redeem; each event's §19 message with share links (SMS, WhatsApp, the phone's share sheet).
   The server computes every amount and checks every claim against the group's day: the page only says what
   happened, and shows a refusal as the server words it. Uses common.js and, at call time, group.js's BASE,
   currentTime(), newRollId() and view (the latest state and next answer). */
"use strict";

let ledgerData = null;

function moneyMessage(text, isError) {
  const el = document.getElementById("money-message");
  el.textContent = text || "";
  el.className = isError ? "error" : "";
}

function chf(n) { return n === null || n === undefined ? "-" : Number(n).toLocaleString("de-CH"); }

/* Each tap is one event with an id of its own (a nonce), kept by what the event is until the server has answered:
   a second tap while it is on its way, or a tap again after "No connection" (or a 5xx/429), sends the same id and
   is recorded once. Once answered, the next tap is a new event with a new id: a fee paid again after an organiser
   voided the first payment (the server refuses a retry of a voided event's id). ``body.key`` (not sent) names the
   event instead of its fields, when a field such as the time may move between the taps of one event. */
const unanswered = new Map();  // what an event is -> the id of its tap the server has not answered yet

function eventKey(body) {
  if (body.key) return `${body.event}|${body.key}`;
  return [body.event, body.station || body.toll_line || body.tunnel || "", body.time,
    JSON.stringify(body.houses || {}), (body.dice || []).join(","), body.trip || "", body.bonus ? "b" : "",
    body.reason || ""].join("|");
}

async function sendLedger(body, done) {
  const {key: _key, ...payload} = body;
  const what = eventKey(body);
  payload.event_id = unanswered.get(what) || `${body.event}-${newRollId()}`;
  unanswered.set(what, payload.event_id);
  moneyMessage("Sending...");
  try {
    const ev = await api(BASE + "/ledger", "POST", payload);
    unanswered.delete(what);
    moneyMessage(`Recorded #${ev.seq}: ${ev.message}`);
    if (done) done(ev);
    await refreshMoney();  // the paid fee shows as paid before its button can be tapped again
    return ev;
  } catch (e) {
    const answered = e instanceof ApiError && e.status < 500 && e.status !== 429;
    if (answered) unanswered.delete(what);
    moneyMessage(e instanceof ApiError ? `Not recorded: ${e.message}` : "No connection: not recorded; try again.",
      true);
    return null;
  }
}

async function refreshMoney() {
  try {
    ledgerData = await api(BASE + "/ledger");
  } catch (e) {
    if (!(e instanceof OfflineCopy)) return;
    ledgerData = e.data;
  }
  renderMoney();
}

/* The fees of the itinerary the group rides (next's, else the last answer's), each with its pay button. */
function itineraryFees() {
  const nxt = view.next && view.next.itinerary;
  if (nxt && nxt.fees) return nxt.fees;
  return (view.state && view.state.last && view.state.last.fees) || [];
}

function itineraryCrossings() {
  const nxt = view.next && view.next.itinerary;
  const src = nxt || (view.state && view.state.last) || {};
  const seen = new Map();
  for (const c of src.crossings || []) seen.set(c.name, c);
  for (const l of src.legs || []) for (const c of l.crossings || []) if (!seen.has(c.name)) seen.set(c.name, c);
  return [...seen.values()];
}

function paidFee(fee) {
  const own = (ledgerData && ledgerData.messages) || [];
  return own.find((e) => e.kind === "fee" && !e.voided && e.name === fee.name && (!fee.time || e.time === fee.time));
}

function thingKey(kind) { return kind === "toll_line" ? "toll_line" : kind === "tunnel" ? "tunnel" : "station"; }

function diceSelect(cls) {
  return h("select", {class: cls}, ...[1, 2, 3, 4, 5, 6].map((i) => h("option", {}, i)));
}

function feeItem(fee) {
  const amount = fee.amount !== null && fee.amount !== undefined ? chf(fee.amount)
    : `${chf(fee.min)}-${chf(fee.max)} (two dice)`;
  const li = h("li", {class: "fee"}, h("b", {}, fee.name), ` to ${fee.owner}: ${amount}`,
    fee.time ? h("small", {}, ` at ${fee.time}`) : null, " ");
  const paid = paidFee(fee);
  if (paid) { li.append(h("span", {class: "done"}, `paid (#${paid.seq})`)); return li; }
  const dice = fee.kind === "tunnel" ? [diceSelect("die1"), diceSelect("die2")] : [];
  dice.forEach((d) => li.append(d, " "));
  const btn = h("button", {type: "button", class: "small pay"}, "Pay");
  btn.addEventListener("click", () => {
    const body = {event: "pay", [thingKey(fee.kind)]: fee.name, time: fee.time || currentTime()};
    if (dice.length) body.dice = dice.map((d) => Number(d.value));
    btn.disabled = true;
    sendLedger(body).finally(() => { btn.disabled = false; });
  });
  li.append(btn);
  return li;
}

/* What the group may buy now: the station it stands at, and the toll lines and tunnels of the itinerary it rides
   that nobody owns (the server checks that it is there, or crossing it, at that time). */
function buyOffers() {
  const out = [];
  const pos = view.state && view.state.status && view.state.status.position;
  const owned = (ledgerData && ledgerData.owned) || {stations: [], toll_lines: [], tunnels: []};
  const mine = new Set([...owned.stations, ...owned.toll_lines, ...owned.tunnels].map((x) => x.name));
  if (pos && pos.station && !pos.seated && !mine.has(pos.station)) out.push({kind: "station", name: pos.station});
  for (const c of itineraryCrossings()) if (!c.owner && !mine.has(c.name)) out.push({kind: c.kind, name: c.name});
  return out;
}

function buyButton(offer) {
  const label = offer.kind === "station" ? offer.name : `${offer.kind === "tunnel" ? "tunnel" : "toll line"} ${offer.name}`;
  const btn = h("button", {type: "button", class: "small buy"}, `Buy ${label}`);
  btn.addEventListener("click", () => {
    btn.disabled = true;
    sendLedger({event: "buy", [thingKey(offer.kind)]: offer.name, time: currentTime()})
      .finally(() => { btn.disabled = false; });
  });
  return btn;
}

function ownedRow(kind, x) {
  const what = kind === "station" ? x.name + (x.code ? ` (${x.code})` : "") : `${kind === "tunnel" ? "Tunnel" : "Toll line"} ${x.name}`;
  const fee = kind === "tunnel" ? (x.fee_multiplier ? `${x.fee_multiplier} x dice` : "-") : chf(x.fee);
  const act = h("button", {type: "button", class: "small quiet"}, x.mortgaged ? "Redeem" : "Mortgage");
  act.addEventListener("click", () => {
    act.disabled = true;
    sendLedger({event: x.mortgaged ? "redeem" : "mortgage", [kind]: x.name, time: currentTime()})
      .finally(() => { act.disabled = false; });
  });
  return h("tr", {class: x.mortgaged ? "mortgaged" : ""}, h("td", {}, what, x.mortgaged ? h("small", {}, " mortgaged") : null),
    h("td", {}, chf(x.value)), h("td", {}, fee), h("td", {}, act));
}

/* §19: a message goes out by SMS or WhatsApp in two taps (the link opens the app with the text filled in). */
function shareLinks(text) {
  const enc = encodeURIComponent(text);
  const box = h("span", {class: "share"},
    h("a", {href: `sms:?body=${enc}`, class: "sms"}, "SMS"), " ",
    h("a", {href: `https://wa.me/?text=${enc}`, class: "whatsapp", target: "_blank", rel: "noopener"}, "WhatsApp"));
  if (navigator.share) {
    const b = h("button", {type: "button", class: "small quiet share-native"}, "Share");
    b.addEventListener("click", () => navigator.share({text}).catch(() => {}));
    box.append(" ", b);
  }
  return box;
}

function tellText(tell) { return tell === "*" ? "all groups" : tell; }

function renderOwnMessages() {
  const own = ((ledgerData && ledgerData.messages) || []).slice().reverse();
  document.getElementById("own-messages").replaceChildren(...(own.length ? own.map((e) => h("li", {
    class: e.voided ? "voided" : ""}, h("b", {}, `#${e.seq}`), " ", h("span", {class: "sms-text"}, e.message),
  e.voided ? h("small", {}, " voided") : h("small", {}, e.tell ? ` to ${tellText(e.tell)} ` : " (nobody to tell)"),
  e.voided || !e.tell ? null : shareLinks(e.message))) : [h("li", {}, "none yet")]));
}

function renderMoney() {
  const d = ledgerData;
  if (!d) return;
  setText("cash", chf(d.cash));
  setText("capital", chf(d.capital));
  const notes = [`Cash ${chf(d.cash)}, capital ${chf(d.capital)}.`];
  if (d.letter_groups.length) notes.push(`Letter groups: ${d.letter_groups.map((g) => g.join(", ")).join("; ")}.`);
  if (d.redeem_due.length) notes.push(`Redeem now (§10): ${d.redeem_due.join(", ")}.`);
  if (d.must_mortgage) notes.push("Cash below zero: mortgage something.");
  if (d.out) notes.push("Out of the game (§6).");
  document.getElementById("money-summary").textContent = notes.join(" ");
  const fees = itineraryFees();
  document.getElementById("fees").replaceChildren(...(fees.length ? fees.map(feeItem) : [h("li", {}, "none")]));
  const offers = buyOffers();
  document.getElementById("buy-offers").replaceChildren(...offers.map(buyButton));
  const rows = [];
  for (const kind of ["station", "toll_line", "tunnel"]) {
    for (const x of d.owned[kind === "station" ? "stations" : kind + "s"]) rows.push(ownedRow(kind, x));
  }
  document.querySelector("#owned tbody").replaceChildren(...(rows.length ? rows
    : [h("tr", {}, h("td", {colspan: "4"}, "nothing yet"))]));
  const sel = document.getElementById("build-station");
  const keep = sel.value;
  sel.replaceChildren(...d.owned.stations.filter((s) => !s.mortgaged).map((s) => h("option", {value: s.name}, s.name)));
  if (keep) sel.value = keep;
  document.getElementById("build-form").hidden = !d.owned.stations.length;
  renderOwnMessages();
}

function fullHour() {
  const t = currentTime();
  return t ? `${t.slice(0, 2)}:00` : "";
}

function onPay(ev) {
  ev.preventDefault();
  const kind = document.getElementById("pay-kind").value;
  const name = document.getElementById("pay-name").value.trim();
  if (!name) { moneyMessage("Name the station, toll line or tunnel whose fee you pay.", true); return; }
  const body = {event: "pay", [kind]: name, time: currentTime()};
  if (kind === "tunnel") {
    body.dice = [Number(document.getElementById("pay-die1").value), Number(document.getElementById("pay-die2").value)];
  }
  sendLedger(body);
}

function onBuy(ev) {
  ev.preventDefault();
  const kind = document.getElementById("buy-kind").value;
  const name = document.getElementById("buy-name").value.trim();
  if (!name) { moneyMessage("Name what you buy.", true); return; }
  sendLedger({event: "buy", [kind]: name, time: currentTime()});
}

function onIncome(ev) {
  ev.preventDefault();
  const hour = document.getElementById("income-hour").value || fullHour();
  const trip = document.getElementById("income-trip").value.trim();
  const body = {event: "income", time: hour, bonus: document.getElementById("income-bonus").checked};
  if (trip) body.trip = trip;
  sendLedger(body, () => { document.getElementById("income-bonus").checked = false; });
}

function onBuild(ev) {
  ev.preventDefault();
  const station = document.getElementById("build-station").value;
  const level = document.getElementById("build-level").value;
  if (!station) { moneyMessage("You own no station to build on.", true); return; }
  sendLedger({event: "build", houses: {[station]: level === "hotel" ? "hotel" : Number(level)}, time: currentTime()});
}

document.getElementById("pay-form").addEventListener("submit", onPay);
document.getElementById("buy-form").addEventListener("submit", onBuy);
document.getElementById("income-form").addEventListener("submit", onIncome);
document.getElementById("build-form").addEventListener("submit", onBuild);
document.getElementById("pay-kind").addEventListener("change", (ev) => {
  document.getElementById("pay-dice").hidden = ev.target.value !== "tunnel";
});
document.getElementById("income-hour").addEventListener("focus", (ev) => { if (!ev.target.value) ev.target.value = fullHour(); });
