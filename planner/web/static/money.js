/* The group's money: the fees it owes (each paid with one tap at its stop's time), what it may buy now, what it
   owns, each event's §19 message with share links (SMS, WhatsApp, the phone's share sheet); and the ledger
   events sent to the server. The server computes every amount and checks every claim against the group's day:
   the page only says what happened, and shows a refusal as the server words it. The builders are pure (data in,
   elements out; a tap calls the function given). */
import {ApiError, api} from "./api.js";
import {h} from "./dom.js";
import {chf, minutesOf} from "./format.js";
import {t} from "./i18n.js";

/** What the money rules say of the group now: the ledger's ``now`` answer (fees due, what it may buy, income
    due, ...), or null before it is known. The page shows only this: the server works out every fee from the stops
    of the group's day, from its stop until it is paid, also in free movement and without any roll. */
export function ledgerNow(view) {
  return (view.ledger && view.ledger.now) || null;
}

/** The fees the group owes now, oldest stop first (none before its stop; a paid one is gone). */
export function feesDue(view) {
  const now = ledgerNow(view);
  return (now && now.fees_due) || [];
}

/** The fee due now: the oldest unpaid stop's, or null (none, or the ledger not known yet). */
export function dueFee(view) {
  const fees = feesDue(view);
  return fees.length ? fees[0] : null;
}

/** The minute (after midnight) at which the answer changes by the clock alone, or null. */
export function nextChange(view) {
  const now = ledgerNow(view);
  return now && now.next_change ? minutesOf(now.next_change) : null;
}

function thingKey(kind) { return kind === "toll_line" ? "toll_line" : kind === "tunnel" ? "tunnel" : "station"; }

function diceSelect(cls) {
  return h("select", {class: cls, "aria-label": t("die")}, ...[1, 2, 3, 4, 5, 6].map((i) => h("option", {value: String(i)}, i)));
}

/** One fee due: to whom, how much, at which stop's time, and its pay button (two dice for a tunnel). The tap
    calls ``pay(body)`` with the ledger event at the fee's stop's time: a fee paid late counts as paid at its stop
    (never the tap's time, never a stop ahead). */
export function feeItem(fee, pay) {
  const amount = fee.amount !== null && fee.amount !== undefined ? chf(fee.amount)
    : t("{min}-{max} (two dice)", {min: chf(fee.min), max: chf(fee.max)});
  const li = h("li", {class: "fee"}, h("b", {}, fee.name), " ", t("to {owner}: {amount}", {owner: fee.owner, amount}),
    h("small", {}, " ", t("at {time}", {time: fee.time})), " ");
  const dice = fee.kind === "tunnel" ? [diceSelect("die1"), diceSelect("die2")] : [];
  dice.forEach((d) => li.append(d, " "));
  const btn = h("button", {type: "button", class: "small pay"}, t("Pay"));
  btn.addEventListener("click", () => {
    const body = {event: "pay", [thingKey(fee.kind)]: fee.name, time: fee.time};
    if (dice.length) body.dice = dice.map((d) => Number(d.value));
    btn.disabled = true;
    Promise.resolve(pay(body)).finally(() => { btn.disabled = false; });
  });
  li.append(btn);
  return li;
}

/** What the group may buy where it stands, as the server offers it (free, allowed, nobody's). */
export function buyOffers(view) {
  const now = ledgerNow(view);
  return ((now && now.buy_offers) || []).map((o) => ({kind: o.kind, name: o.name}));
}

/** A one-tap purchase; the tap calls ``buy(body)``. */
export function buyButton(offer, buy, now) {
  const label = offer.kind === "station" ? t("Buy {name}", offer)
    : offer.kind === "tunnel" ? t("Buy tunnel {name}", offer) : t("Buy toll line {name}", offer);
  const btn = h("button", {type: "button", class: "small buy"}, label);
  btn.addEventListener("click", () => {
    btn.disabled = true;
    Promise.resolve(buy({event: "buy", [thingKey(offer.kind)]: offer.name, time: now()}))
      .finally(() => { btn.disabled = false; });
  });
  return btn;
}

/** A full hour's income not recorded yet (§6), with the bonus when the group's train earned it: one tap records
    it at its hour (``record(body)``). */
export function incomeItem(income, record) {
  const args = {hour: income.hour, amount: chf(income.amount), train: income.train || ""};
  const btn = h("button", {type: "button", class: "small income"},
    income.bonus ? t("Record the income of {hour}: {amount} (bonus: {train})", args)
      : t("Record the income of {hour}: {amount}", args));
  btn.addEventListener("click", () => {
    btn.disabled = true;
    Promise.resolve(record({event: "income", time: income.hour, bonus: Boolean(income.bonus)}))
      .finally(() => { btn.disabled = false; });
  });
  return h("li", {}, btn);
}

function ownedRow(kind, x, act, now, mortgageable) {
  const what = kind === "station" ? x.name + (x.code ? ` (${x.code})` : "")
    : kind === "tunnel" ? t("Tunnel {name}", x) : t("Toll line {name}", x);
  const fee = kind === "tunnel" ? (x.fee_multiplier ? t("{n} x dice", {n: x.fee_multiplier}) : "-") : chf(x.fee);
  const btn = x.mortgaged || mortgageable
    ? h("button", {type: "button", class: "small quiet"}, x.mortgaged ? t("Redeem") : t("Mortgage")) : null;
  if (btn) btn.addEventListener("click", () => {
    btn.disabled = true;
    Promise.resolve(act({event: x.mortgaged ? "redeem" : "mortgage", [kind]: x.name, time: now()}))
      .finally(() => { btn.disabled = false; });
  });
  return h("tr", {class: x.mortgaged ? "mortgaged" : ""},
    h("td", {}, what, x.mortgaged ? h("small", {}, " ", t("mortgaged")) : null),
    h("td", {}, chf(x.value)), h("td", {}, fee), h("td", {}, btn));
}

/** What the group owns, one row each with its value, fee and redeem button, or mortgage button when §10 lets
    it mortgage now (``ledger.now.mortgageable``: its cash does not cover what it paid); ``act(body)``. */
export function ownedRows(ledger, act, now) {
  const rows = [];
  const mortgageable = Boolean(ledger.now && ledger.now.mortgageable);
  for (const kind of ["station", "toll_line", "tunnel"]) {
    for (const x of ledger.owned[kind === "station" ? "stations" : kind + "s"]) {
      rows.push(ownedRow(kind, x, act, now, mortgageable));
    }
  }
  return rows.length ? rows : [h("tr", {}, h("td", {colspan: "4"}, t("nothing yet")))];
}

/** §19: a message goes out by SMS or WhatsApp in two taps (the link opens the app with the text filled in), or
    by the phone's share sheet when it has one. */
export function shareLinks(text, share) {
  const enc = encodeURIComponent(text);
  const box = h("span", {class: "share"},
    h("a", {href: `sms:?body=${enc}`, class: "sms"}, "SMS"), " ",
    h("a", {href: `https://wa.me/?text=${enc}`, class: "whatsapp", target: "_blank", rel: "noopener"}, "WhatsApp"));
  if (share) {
    const b = h("button", {type: "button", class: "small quiet share-native"}, t("Share"));
    b.addEventListener("click", () => share({text}).catch(() => {}));
    box.append(" ", b);
  }
  return box;
}

function tellText(tell) { return tell === "*" ? t("to all groups") : t("to {groups}", {groups: tell}); }

/** The group's own events, newest first, each with its §19 message and whom to send it to. */
export function ownMessageItems(ledger, share) {
  const own = ((ledger && ledger.messages) || []).slice().reverse();
  if (!own.length) return [h("li", {}, t("none yet"))];
  return own.map((e) => h("li", {class: e.voided ? "voided" : ""}, h("b", {}, `#${e.seq}`), " ",
    h("span", {class: "sms-text"}, e.message), " ",
    e.voided ? h("small", {}, t("voided")) : h("small", {}, e.tell ? tellText(e.tell) : t("(nobody to tell)")), " ",
    e.voided || !e.tell ? null : shareLinks(e.message, share)));
}

/** What the other groups did that this group must be told of (§13), newest first. */
export function toldItems(events) {
  const items = events.slice().reverse().map((e) => h("li", {class: e.voided ? "voided" : ""},
    h("b", {}, e.time), " ", e.message, e.voided ? h("small", {}, " ", t("(voided)")) : null));
  return items.length ? items : [h("li", {}, t("none yet"))];
}

/** A random id (hex): a roll's or a ledger event's, so that a retry is recorded once. */
export function newId() {
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);  // available without a secure context, unlike crypto.randomUUID
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

/** Ledger events sent to the server. Each tap is one event with an id of its own (a nonce), kept by what the
    event is until the server has answered: a second tap while it is on its way, or a tap again after "No
    connection" (or a 5xx/429), sends the same id and is recorded once. Once answered, the next tap is a new event
    with a new id: a fee paid again after an organiser voided the first payment (the server refuses a retry of a
    voided event's id). ``body.key`` (not sent) names the event instead of its fields, when a field such as the
    time may move between the taps of one event. */
export class Ledger {
  /** ``base``: the group's API path; ``say(text, isError)``: the money status line; ``recorded(event)``: called
      after each recorded event (the page fetches the ledger again). */
  constructor(base, say, recorded) {
    this.base = base;
    this.say = say;
    this.recorded = recorded;
    this.unanswered = new Map();  // what an event is -> the id of its tap the server has not answered yet
  }

  static eventKey(body) {
    if (body.key) return `${body.event}|${body.key}`;
    return [body.event, body.station || body.toll_line || body.tunnel || "", body.time,
      JSON.stringify(body.houses || {}), (body.dice || []).join(","), body.trip || "", body.bonus ? "b" : "",
      body.reason || ""].join("|");
  }

  /** Send one event (``done(event)`` once recorded); the recorded event, or null (the status line says why). */
  async send(body, done) {
    const {key: _key, ...payload} = body;
    const what = Ledger.eventKey(body);
    payload.event_id = this.unanswered.get(what) || `${body.event}-${newId()}`;
    this.unanswered.set(what, payload.event_id);
    this.say(t("Sending..."));
    try {
      const ev = await api(this.base + "/ledger", "POST", payload);
      this.unanswered.delete(what);
      this.say(t("Recorded #{seq}: {message}", {seq: ev.seq, message: ev.message}));
      if (done) done(ev);
      await this.recorded(ev);  // the paid fee shows as paid before its button can be tapped again
      return ev;
    } catch (e) {
      const answered = e instanceof ApiError && e.status < 500 && e.status !== 429;
      if (answered) this.unanswered.delete(what);
      this.say(e instanceof ApiError ? t("Not recorded: {error}", {error: e.message})
        : t("No connection: not recorded; try again."), true);
      return null;
    }
  }
}
