/* The Money section of the group's page: the fees the server says it owes with their pay buttons, what it may buy
   where it stands, the income due, the forms (pay, buy, full-hour income, build), what it owns, the messages to
   send. After each event sent, the time field follows the phone's clock again (no typed time kept unseen). */
import {byId, fill, h, say} from "./dom.js";
import {clockValue, tidyOnChange} from "./clock.js";
import {t} from "./i18n.js";
import {Ledger, buyButton, buyOffers, feeItem, feesDue, incomeItem, ledgerNow, ownMessageItems, ownedRows,
  toldItems} from "./money.js";
import {moneyNotes} from "./words.js";
import {setUpRulesMore} from "./rules_more.js";

/** Wire the Money section: ``view`` holds the latest answers (state, next, ledger), ``now()`` the group's time,
    ``settle()`` sets the time field back to the phone's clock (on the game's day), ``fetchLedger()`` asks the ledger again,
    ``said(text, isError)`` repeats the status on the first screen. */
export function setUpMoney({base, view, now, settle, fetchLedger, said}) {
  const status = (text, isError) => {
    say("money-message", text, isError);
    said(text, isError);
  };
  const ledger = new Ledger(base, status, () => fetchLedger());
  const send = (body, done) => ledger.send(body, (ev) => {
    settle();
    if (done) done(ev);
  });
  const share = navigator.share ? (data) => navigator.share(data) : null;
  const more = setUpRulesMore({base, view, now, send, say: status, fetchLedger});

  function render() {
    const d = view.ledger;
    if (!d) return;
    byId("money-summary").textContent = moneyNotes(d);
    const fees = feesDue(view);
    fill("fees", fees.length ? fees.map((f) => feeItem(f, send)) : [h("li", {}, t("none"))]);
    fill("buy-offers", buyOffers(view).map((o) => buyButton(o, send, now)));
    const nw = ledgerNow(view) || {};
    fill("income-due", (nw.income || []).map((i) => incomeItem(i, send)));
    byId("owned").querySelector("tbody").replaceChildren(...ownedRows(d, send, now));
    const sel = byId("build-station");
    const keep = sel.value;
    sel.replaceChildren(...(nw.buildable || []).map((name) => h("option", {value: name}, name)));
    if (keep) sel.value = keep;
    byId("build-form").hidden = !(nw.buildable || []).length;  // §8: only on a complete letter group
    fill("own-messages", ownMessageItems(d, share));
    more.render();
  }

  const fullHour = () => {
    const c = now();
    return c ? `${c.slice(0, 2)}:00` : "";
  };

  byId("pay-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const kind = byId("pay-kind").value;
    const name = byId("pay-name").value.trim();
    if (!name) { status(t("Name the station, toll line or tunnel whose fee you pay."), true); return; }
    const body = {event: "pay", [kind]: name, time: now()};
    if (kind === "tunnel") body.dice = [Number(byId("pay-die1").value), Number(byId("pay-die2").value)];
    send(body);
  });
  byId("buy-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const kind = byId("buy-kind").value;
    const name = byId("buy-name").value.trim();
    if (!name) { status(t("Name what you buy."), true); return; }
    send({event: "buy", [kind]: name, time: now()});
  });
  const hour = byId("income-hour");
  tidyOnChange(hour);
  byId("income-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const time = hour.value.trim() ? clockValue(hour) : fullHour();
    if (!time) { status(t("Type the hour as HH:00 (24-hour)."), true); return; }
    const trip = byId("income-trip").value.trim();
    const body = {event: "income", time, bonus: byId("income-bonus").checked};
    if (trip) body.trip = trip;
    send(body, () => { byId("income-bonus").checked = false; hour.value = ""; });
  });
  byId("build-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const station = byId("build-station").value;
    const level = byId("build-level").value;
    if (!station) { status(t("You own no station to build on."), true); return; }
    send({event: "build", houses: {[station]: level === "hotel" ? "hotel" : Number(level)}, time: now()});
  });
  byId("pay-kind").addEventListener("change", (ev) => { byId("pay-dice").hidden = ev.target.value !== "tunnel"; });
  hour.placeholder = "HH:00";  // empty: the full hour of the group's time (it follows the clock)

  return {
    render,
    send,
    toldItems,
    /** One fee with its pay button (the first screen's, when a fee is due here). */
    feeItem: (fee) => feeItem(fee, send),
    /** The fees paid so far (the action slot is redrawn when one more is paid). */
    paidKey: () => ((view.ledger && view.ledger.messages) || []).filter((e) => e.kind === "fee" && !e.voided)
      .map((e) => e.seq).join(","),
  };
}
