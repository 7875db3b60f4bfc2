/* The ledger's other rules on the group's page, each shown only when the ledger's "now" (what the game file
   enables for the group at its time) offers it: draw a Kanzlei or Chance card and play a kept one (§14, §15), pay a
   tax (§16), roll for the free parking at a change (§18.1), roll in a dice-off (§7.2), offer a station to another
   group and accept an offer (§7.3), report a late train and leave jail (§17), and say when a message was sent
   (§13, where the game sets a deadline). The server computes every amount; the page only says what happened. The
   builders are pure (data in, elements out; a tap calls the function given). */
import {ApiError, api} from "./api.js";
import {byId, fill, h} from "./dom.js";
import {chf, normaliseClock} from "./format.js";
import {t} from "./i18n.js";
import {newId} from "./money.js";
import {sentence} from "./words.js";

function dieSelect() {
  return h("select", {class: "die", "aria-label": t("die")},
    ...[1, 2, 3, 4, 5, 6].map((i) => h("option", {value: String(i)}, i)));
}

function tapOnce(btn, act) {
  btn.addEventListener("click", () => {
    btn.disabled = true;
    Promise.resolve(act()).finally(() => { btn.disabled = false; });
  });
  return btn;
}

/** What a drawn (or played) card did, in one sentence, from the recorded event (``effect``, ``amount``, ``name``). */
export function cardEffectText(ev) {
  const amount = chf(ev.amount);
  switch (ev.effect) {
    case "bank_pays": return t("The bank pays you {amount}.", {amount});
    case "pay_parking": return t("You pay {amount} into the free parking.", {amount});
    case "per_building": return t("You pay {amount} into the free parking for your houses and hotels.", {amount});
    case "each_group_pays": return t("Every other group pays you {amount}.", {amount});
    case "pay_each_group": return t("You pay every other group {amount}.", {amount});
    case "virtual_visit": return t("You may buy the card's station, or pay its owner's fee, without going there (see Buy).");
    case "jail": return ev.name ? t("Go to jail at {station}.", {station: ev.name}) : t("Go to jail at the next stop.");
    case "out_of_jail": return t("Keep the card: play it to leave jail.");
    case "free_station": return t("Keep the card: play it to buy a station for nothing.");
    case "six": return t("Keep the card: play it with a roll to make the roll a 6.");
    default: return t("Keep the card.");
  }
}

/** One deck: what makes the group draw, how many cards its pile holds, and the draw button (``draw(deck)``). */
export function deckItem(deck, draw) {
  return h("p", {class: "deck"}, h("small", {}, deck.trigger), " ",
    tapOnce(h("button", {type: "button", class: "small draw", "data-deck": deck.name},
      t("Draw a {deck} card", {deck: deck.title || deck.name})), () => draw(deck.name)), " ",
    h("small", {}, t("({left} in the pile)", {left: deck.left})));
}

/** One kept card with what playing it asks: out of jail (only in jail), a station bought with it (its name), a
    roll made a 6 (the dice). ``act(kind, card, extra)`` plays it. */
export function keptCardItem(card, inJail, dice, act) {
  const li = h("li", {class: "kept-card"}, h("b", {}, `${card.deck_title || card.deck} ${card.title}`), " ");
  if (card.effect === "out_of_jail") {
    const b = h("button", {type: "button", class: "small play"}, t("Play it: out of jail"));
    b.disabled = !inJail;
    if (inJail) tapOnce(b, () => act("play", card, {}));
    li.append(b, inJail ? "" : h("small", {}, " ", t("(you are in no jail now)")));
  } else if (card.effect === "free_station") {
    const name = h("input", {class: "card-station", maxlength: "100", list: "stations",
      placeholder: t("the station you buy"), "aria-label": t("Station")});
    li.append(name, " ", tapOnce(h("button", {type: "button", class: "small play"}, t("Buy it with the card")),
      () => act("play", card, {station: name.value.trim()})));
  } else if (card.effect === "six") {
    const dies = Array.from({length: dice}, dieSelect);
    dies.forEach((d) => li.append(d, " "));
    li.append(tapOnce(h("button", {type: "button", class: "small play"}, t("Roll with the card (a 6)")),
      () => act("roll", card, {dice: dies.length === 2 ? Number(dies[0].value) * 10 + Number(dies[1].value)
        : Number(dies[0].value)})));
  } else {
    li.append(h("small", {}, cardEffectText(card)));
  }
  return li;
}

/** One tax that applies where the group is, with its pay button (``pay(tax)``). */
export function taxButton(tax, pay) {
  return tapOnce(h("button", {type: "button", class: "small tax", "data-tax": tax.key},
    t("Pay {title}: {amount}", {title: tax.title, amount: chf(tax.amount)})), () => pay(tax));
}

/** A pending dice-off: the groups in it, what each rolled this round, and the group's two dice and roll button
    when it rolls now (``roll(diceoff, dice)``). */
export function diceoffItem(d, group, roll) {
  const rolled = Object.entries(d.rolled || {}).map(([g, v]) => t("{group} rolled {sum}", {group: g, sum: v}));
  const li = h("li", {class: "diceoff"},
    t("Dice-off for {station} ({time}) between groups {groups}.", {station: d.name, time: d.time,
      groups: d.groups.join(", ")}), rolled.length ? h("small", {}, " ", rolled.join("; ")) : null, " ");
  if (d.rolling.includes(group) && !(group in (d.rolled || {}))) {
    const dies = [dieSelect(), dieSelect()];
    li.append(dies[0], " ", dies[1], " ", tapOnce(h("button", {type: "button", class: "small diceoff-roll"},
      t("Roll in the dice-off")), () => roll(d, dies.map((x) => Number(x.value)))));
  } else {
    const waiting = d.rolling.filter((g) => !(g in (d.rolled || {})));
    li.append(h("small", {}, t("Waiting for the roll of {groups}.", {groups: waiting.join(", ")})));
  }
  return li;
}

/** The sales offered to the group (each with its accept button, ``accept(sale)``) and its own open offers. */
export function saleItems(now, accept) {
  const out = (now.offers || []).map((s) => h("li", {class: "sale-offer"},
    t("Group {seller} offers you {station} for {amount} (offer #{offer}).",
      {seller: s.seller, station: s.station, amount: chf(s.amount), offer: s.offer}), " ",
    tapOnce(h("button", {type: "button", class: "small accept"}, t("Accept")), () => accept(s))));
  for (const s of now.selling || []) {
    out.push(h("li", {class: "sale-own"}, t("You offered {station} to group {buyer} for {amount} (offer #{offer}); it is open.",
      {station: s.station, buyer: s.buyer, amount: chf(s.amount), offer: s.offer})));
  }
  return out;
}

/** A message not known to be sent, with the time it was sent and its button (``sent(item, time)``). */
export function unsentItem(u, now, sent) {
  const time = h("input", {class: "sent-time", type: "text", inputmode: "numeric", maxlength: "5",
    placeholder: "HH:MM", "aria-label": t("Sent at"), value: now() || ""});
  return h("li", {class: "unsent"}, h("b", {}, `#${u.seq}`), " ", h("span", {class: "sms-text"}, u.message), " ",
    time, " ", tapOnce(h("button", {type: "button", class: "small sent"}, t("Sent at this time")),
      () => sent(u, normaliseClock(time.value))));
}

/** Wire the section: ``view`` holds the latest answers, ``now()`` the group's time, ``send(body, done)`` records a
    ledger event, ``say(text, isError)`` the money status line, ``fetchLedger()`` asks the ledger again. */
export function setUpRulesMore({base, view, now, send, say, fetchLedger}) {
  const dice = Number(document.body.dataset.dice || 1);
  const drawn = byId("card-drawn");

  async function post(path, body, done) {
    say(t("Sending..."));
    try {
      const out = await api(base + path, "POST", body);
      done(out);
      await fetchLedger();
      return out;
    } catch (e) {
      say(e instanceof ApiError ? t("Not recorded: {error}", {error: e.message})
        : t("No connection: not recorded; try again."), true);
      return null;
    }
  }

  function draw(deck) {
    const time = now();
    return send({event: "draw", deck, time, key: `${deck}|${time}`}, (ev) => {
      drawn.hidden = false;
      drawn.replaceChildren(h("b", {}, ev.title), " ", cardEffectText(ev));
    });
  }

  function play(kind, card, extra) {
    if (kind === "roll") {
      const body = {dice: extra.dice, time: now(), roll_id: newId(), card: card.key};
      return post("/rolls", body, (ans) => say(t("Recorded: roll {dice} at {time}, made a 6 by {card}.",
        {dice: extra.dice, time: ans.rolled_at, card: card.title})));
    }
    if (card.effect === "free_station" && !extra.station) {
      say(t("Name the station you buy with the card."), true);
      return null;
    }
    return send({event: "play", card: card.key, time: now(), ...extra});
  }

  const tax = (x) => send({event: "tax", reason: x.key, time: now()});
  const diceoff = (d, two) => send({event: "diceoff", station: d.name, dice: two, time: now(),
    key: `${d.name}|${d.time}|${d.rolling.join(",")}`});
  const accept = (s) => send({event: "accept", offer: s.offer, time: now(), key: `offer|${s.offer}`});

  function sent(u, time) {
    if (!time) { say(t("Type the time as HH:MM (24-hour)."), true); return null; }
    return post(`/messages/${u.seq}/sent`, {time}, (ev) => say(t("Message #{seq} sent at {time}: {message}",
      {seq: ev.seq, time: ev.sent || time, message: ev.message})));
  }

  const shown = new Map();  // list id -> the data it shows (a list is rebuilt only when it changes: dice and
  // fields in it keep what the players set)
  function fillKept(id, data, build) {
    const key = JSON.stringify(data);
    if (shown.get(id) === key) return;
    shown.set(id, key);
    fill(id, build());
  }

  function render() {  // (the page asks the ledger's "now" again with the group's state: fresh.js)
    const d = view.ledger;
    const n = d && d.now;
    if (!n) return;
    const out = d.out || n.out;
    // §14, §15
    byId("cards-box").hidden = out || (!n.decks.length && !n.cards.length);
    fillKept("decks", n.decks, () => n.decks.map((x) => deckItem(x, draw)));
    fillKept("kept-cards", [n.cards, !!n.jail], () => n.cards.map((c) => keptCardItem(c, !!n.jail, dice, play)));
    // §16
    byId("tax-box").hidden = out || !n.taxes.length;
    fillKept("taxes", n.taxes, () => n.taxes.map((x) => taxButton(x, tax)));
    // §18.1
    const p = n.parking;
    byId("parking-box").hidden = out;
    byId("parking-rule").textContent = p.possible && p.at
      ? t("Free parking: {amount}. Boarding at {station} after a change, roll two dice: a sum of {sum} empties it to you.",
        {amount: chf(p.total), station: p.at, sum: p.sum})
      : t("Free parking: {amount}. Roll for it with two dice when you board at a change (a sum of {sum} empties it).",
        {amount: chf(p.total), sum: p.sum});
    byId("parking-form").hidden = !p.possible;
    // §7.2
    byId("diceoff-box").hidden = !n.diceoffs.length;
    fillKept("diceoffs", n.diceoffs, () => n.diceoffs.map((x) => diceoffItem(x, n.group, diceoff)));
    // §7.3
    const sellable = d.owned.stations.filter((s) => !s.mortgaged);
    const buyers = n.buyers || [];
    const canSell = !out && sellable.length > 0 && buyers.length > 0;
    byId("sale-box").hidden = !canSell && !(n.offers || []).length && !(n.selling || []).length;
    byId("sell-form").hidden = !canSell;
    keepSelect("sell-station", sellable.map((s) => s.name));
    keepSelect("sell-to", buyers);
    fillKept("sale-offers", [n.offers, n.selling], () => saleItems(n, accept));
    // §17
    renderJail(n);
    // §13
    const late = n.late_minutes || 0;
    byId("sent-box").hidden = !late || !n.unsent.length;
    byId("sent-rule").firstElementChild.textContent = t("A message sent more than {minutes} minutes after its event costs {percent} % (§13): say when you sent each one.",
      {minutes: late, percent: n.late_penalty_percent || 0});
    if (!byId("unsent").contains(document.activeElement)) {
      fillKept("unsent", n.unsent, () => n.unsent.map((u) => unsentItem(u, now, sent)));
    }
  }

  function renderJail(n) {
    const st = view.state && view.state.status;
    const pos = st && st.position;
    const feed = view.state && view.state.realtime;  // a live feed sees the late trains itself
    const canReport = !feed && (n.jail_delay || 0) > 0 && !!pos && !n.jail && !n.out;
    byId("jail-box").hidden = !n.jail && !canReport;
    byId("late-form").hidden = !canReport;
    // the rule and the stay as the server words them (planner/service/read/rule_words.py)
    byId("late-rule").textContent = n.jail_rule ? sentence(n.jail_rule.text) : "";
    byId("jail-text").textContent = n.jail && n.jail.text ? sentence(n.jail.text.text) : "";
    const pay = byId("jail-pay-ledger");
    pay.hidden = !(n.jail && n.jail.pay);
    if (!pay.hidden) {
      pay.textContent = t("Pay {amount} into the free parking", {amount: n.jail.pay});
      pay.onclick = () => send({event: "parking", reason: "jail", time: now(),
        key: `jail|${n.jail.station}|${n.jail.since}`});
    }
  }

  function keepSelect(id, names) {
    const sel = byId(id);
    const keep = sel.value;
    sel.replaceChildren(...names.map((x) => h("option", {value: x}, x)));
    if (names.includes(keep)) sel.value = keep;
  }

  byId("parking-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const two = [Number(byId("parking-die1").value), Number(byId("parking-die2").value)];
    send({event: "parking", empty: true, dice: two, time: now()});
  });
  byId("sell-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const amount = Number(byId("sell-amount").value.replace(/[^\d]/g, ""));
    if (!byId("sell-amount").value.trim() || !Number.isFinite(amount)) {
      say(t("Type the amount the groups agreed."), true);
      return;
    }
    send({event: "sell", station: byId("sell-station").value, to: byId("sell-to").value, amount, time: now()},
      () => { byId("sell-amount").value = ""; });
  });
  byId("late-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const late = Number(byId("late-minutes").value.trim());
    const pos = view.state && view.state.status && view.state.status.position;
    if (!byId("late-minutes").value.trim() || !Number.isInteger(late) || late < 0) {
      say(t("Type how many minutes late the train arrived."), true);
      return;
    }
    if (!pos) { say(t("Set the position first."), true); return; }
    post("/position", {at: pos.station, time: now(), late}, (ans) => {
      byId("late-minutes").value = "";
      say(ans.late ? ans.late.why : t("Position: {station}", {station: pos.station}));
    });
  });

  return {render};
}
