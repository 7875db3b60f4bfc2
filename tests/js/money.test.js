import assert from "node:assert/strict";
import {test} from "node:test";

import {all, text} from "./dom.js";
import {buyButton, buyOffers, dueFee, feeItem, feesDue, incomeItem, nextChange, ownMessageItems, ownedRows,
  shareLinks, toldItems} from "../../planner/web/static/money.js";

const FEE = {name: "Rotkreuz", owner: "Blau", amount: 500, time: "13:07", kind: "station"};
const TUNNEL = {name: "Heitersberg", owner: "Gelb", amount: null, min: 160, max: 960, time: "13:30", kind: "tunnel"};
const now = () => "13:10";

test("a fee is paid with one tap at its stop's time, never the tap's", async () => {
  const sent = [];
  const li = feeItem(FEE, (body) => { sent.push(body); });
  assert.equal(text(li), "Rotkreuz to Blau: 500 at 13:07 Pay");
  li.querySelector("button.pay").dispatchEvent(new window.Event("click"));
  assert.deepEqual(sent, [{event: "pay", station: "Rotkreuz", time: "13:07"}]);
});

test("a tunnel's fee asks for the two dice and sends them", () => {
  const sent = [];
  const li = feeItem(TUNNEL, (body) => { sent.push(body); });
  assert.match(text(li), /^Heitersberg to Gelb: 160-960 \(two dice\) at 13:30/);
  const [d1, d2] = all(li, "select");
  all(d1, "option")[2].selected = true;  // (linkedom's select has no value setter)
  all(d2, "option")[4].selected = true;
  li.querySelector("button.pay").dispatchEvent(new window.Event("click"));
  assert.deepEqual(sent, [{event: "pay", tunnel: "Heitersberg", time: "13:30", dice: [3, 5]}]);
});

test("the fees due are the ledger's answer's only, never an itinerary's; the first is the one due here", () => {
  const later = {...FEE, name: "Emmenbrücke", time: "13:40"};
  const view = {next: {itinerary: {fees: [later]}}, ledger: {now: {fees_due: [FEE], next_change: "13:40"}}};
  assert.deepEqual(feesDue(view), [FEE]);
  assert.equal(dueFee(view), FEE);
  assert.equal(nextChange(view), 13 * 60 + 40);  // the page asks again when the train reaches Emmenbrücke
  assert.equal(dueFee({...view, ledger: null}), null);
  assert.deepEqual(feesDue({next: view.next, ledger: {now: {fees_due: []}}}), []);
});

test("what may be bought is what the server offers where the group stands, nothing of the page's own", () => {
  const state = {status: {position: {station: "Zug", seated: false}}, last: null};
  const next = {itinerary: {crossings: [{kind: "toll_line", name: "Luzern–Rotkreuz", owner: null}]}};
  assert.deepEqual(buyOffers({state, next, ledger: {now: {buy_offers: []}}}), []);  // Zug is another group's
  assert.deepEqual(buyOffers({state, next, ledger: {now: {buy_offers: [{kind: "station", name: "Baar", price: 2000}]}}}),
    [{kind: "station", name: "Baar"}]);
  assert.deepEqual(buyOffers({state, next, ledger: null}), []);
});

test("an income due is recorded with one tap at its hour, with the bonus its train earned", () => {
  const sent = [];
  const li = incomeItem({hour: "10:00", amount: 8000, bonus: true, train: "IR75"}, (body) => { sent.push(body); });
  assert.equal(text(li), "Record the income of 10:00: 8'000 (bonus: IR75)");
  li.querySelector("button").dispatchEvent(new window.Event("click"));
  assert.deepEqual(sent, [{event: "income", time: "10:00", bonus: true}]);
});

test("a purchase button names what it buys and sends it at the group's time", () => {
  const sent = [];
  const b = buyButton({kind: "toll_line", name: "Luzern–Rotkreuz"}, (body) => { sent.push(body); }, now);
  assert.equal(text(b), "Buy toll line Luzern–Rotkreuz");
  b.dispatchEvent(new window.Event("click"));
  assert.deepEqual(sent, [{event: "buy", toll_line: "Luzern–Rotkreuz", time: "13:10"}]);
});

test("what the group owns: value, fee, redeem; mortgage only when §10 allows it", () => {
  const sent = [];
  const ledger = {owned: {stations: [{name: "Zug", code: "Z1", value: 4000, fee: 1000, mortgaged: false}],
    toll_lines: [{name: "Olten–Aarau", value: 4000, fee: 500, mortgaged: true}], tunnels: []},
  now: {mortgageable: false}};
  const rows = ownedRows(ledger, (body) => { sent.push(body); }, now);
  assert.deepEqual(rows.map((r) => all(r, "td").slice(0, 3).map(text)),
    [["Zug (Z1)", "4'000", "1'000"], ["Toll line Olten–Aarau mortgaged", "4'000", "500"]]);
  rows[1].querySelector("button").dispatchEvent(new window.Event("click"));
  assert.deepEqual(sent, [{event: "redeem", toll_line: "Olten–Aarau", time: "13:10"}]);
  assert.equal(rows[0].querySelector("button"), null);  // the cash covers what it paid: no mortgage
  const short = ownedRows({...ledger, now: {mortgageable: true}}, () => {}, now);
  assert.equal(text(short[0].querySelector("button")), "Mortgage");
  assert.equal(text(ownedRows({owned: {stations: [], toll_lines: [], tunnels: []}}, () => {}, now)[0]), "nothing yet");
});

test("a message to send: its §19 text in SMS and WhatsApp links, the share sheet when the phone has one", () => {
  const links = shareLinks("RotK 9.12 Zug", null);
  assert.deepEqual(all(links, "a").map((a) => a.getAttribute("href")),
    ["sms:?body=RotK%209.12%20Zug", "https://wa.me/?text=RotK%209.12%20Zug"]);
  assert.equal(links.querySelector("button"), null);
  const shared = [];
  const withSheet = shareLinks("RotK 9.12 Zug", (data) => { shared.push(data); return Promise.resolve(); });
  withSheet.querySelector("button").dispatchEvent(new window.Event("click"));
  assert.deepEqual(shared, [{text: "RotK 9.12 Zug"}]);
});

test("the group's own messages, newest first, voided ones marked and not offered for sending", () => {
  const items = ownMessageItems({messages: [{seq: 2, message: "RotK 9.12 Zug", tell: "*", voided: false},
    {seq: 5, message: "RotK 9.40 Baar", tell: "*", voided: true}]}, null);
  assert.deepEqual(items.map((li) => li.className), ["voided", ""]);
  assert.match(text(items[1]), /^#2 RotK 9.12 Zug to all groups SMS WhatsApp$/);
  assert.equal(items[0].querySelector("a"), null);
  assert.equal(text(ownMessageItems({messages: []}, null)[0]), "none yet");
});

test("what the group was told, newest first, as text", () => {
  const items = toldItems([{time: "09:12", message: "<b>RotK</b> 9.12 Zug"}, {time: "09:40", message: "x", voided: true}]);
  assert.equal(text(items[1]), "09:12 <b>RotK</b> 9.12 Zug");
  assert.equal(items[1].querySelector("b").textContent, "09:12");  // the only element: the time
  assert.match(text(items[0]), /\(voided\)$/);
});
