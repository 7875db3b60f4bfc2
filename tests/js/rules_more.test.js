import assert from "node:assert/strict";
import {test} from "node:test";

import {all, text} from "./dom.js";
import {cardEffectText, deckItem, diceoffItem, keptCardItem, saleItems, taxButton,
  unsentItem} from "../../planner/web/static/rules_more.js";

const click = (el) => el.dispatchEvent(new window.Event("click"));

test("a drawn card's effect is one sentence with its amount", () => {
  assert.match(cardEffectText({effect: "bank_pays", amount: 2000}), /^The bank pays you 2.000\.$/);
  assert.match(cardEffectText({effect: "each_group_pays", amount: 1000}), /^Every other group pays you 1.000\.$/);
  assert.equal(cardEffectText({effect: "jail", amount: 0, name: "Liestal"}), "Go to jail at Liestal.");
  assert.equal(cardEffectText({effect: "out_of_jail"}), "Keep the card: play it to leave jail.");
});

test("a deck says what makes the group draw and its button draws from it", () => {
  const drawn = [];
  const p = deckItem({name: "Chance", trigger: "Ein Hund", left: 7}, (d) => { drawn.push(d); });
  assert.equal(text(p), "Ein Hund Draw a Chance card (7 in the pile)");
  click(p.querySelector("button"));
  assert.deepEqual(drawn, ["Chance"]);
});

test("the out-of-jail card is played only in jail; a six card rolls with the dice", () => {
  const played = [];
  const act = (kind, card, extra) => { played.push([kind, card.key, extra]); };
  const jailCard = {key: "chance-gefaengnis", deck: "Chance", title: "Sofort aus dem Gefängnis", effect: "out_of_jail"};
  const free = keptCardItem(jailCard, false, 2, act);
  assert.ok(free.querySelector("button").disabled);
  assert.match(text(free), /you are in no jail now/);
  click(keptCardItem(jailCard, true, 2, act).querySelector("button"));
  const six = keptCardItem({key: "chance-freiheit", deck: "Chance", title: "Freiheit", effect: "six"}, false, 2, act);
  const [white, colour] = all(six, "select");
  all(white, "option")[1].selected = true;
  all(colour, "option")[3].selected = true;
  click(six.querySelector("button"));
  assert.deepEqual(played, [["play", "chance-gefaengnis", {}], ["roll", "chance-freiheit", {dice: 24}]]);
});

test("a tax's button names it and its amount", () => {
  const paid = [];
  const b = taxButton({key: "no_free_compartment", title: "Kein Abteil", amount: 2000}, (x) => { paid.push(x.key); });
  assert.match(text(b), /^Pay Kein Abteil: 2.000$/);
  click(b);
  assert.deepEqual(paid, ["no_free_compartment"]);
});

test("a dice-off asks the dice of a group that rolls, and says whom the others wait for", () => {
  const d = {name: "Pratteln", time: "10:21", groups: ["Rot", "Blau"], rolled: {Rot: 11}, rolling: ["Rot", "Blau"]};
  const rolls = [];
  const blau = diceoffItem(d, "Blau", (x, dice) => { rolls.push([x.name, dice]); });
  assert.match(text(blau), /^Dice-off for Pratteln \(10:21\) between groups Rot, Blau\. Rot rolled 11/);
  all(blau, "select").forEach((sel) => { all(sel, "option")[0].selected = true; });
  click(blau.querySelector("button"));
  assert.deepEqual(rolls, [["Pratteln", [1, 1]]]);
  const rot = diceoffItem(d, "Rot", () => {});
  assert.equal(rot.querySelector("button"), null);
  assert.match(text(rot), /Waiting for the roll of Blau\.$/);
});

test("a sale offered is accepted by its number; the group's own offer is listed open", () => {
  const accepted = [];
  const now = {offers: [{offer: 9, station: "Aesch", seller: "Rot", buyer: "Blau", amount: 2500}],
    selling: [{offer: 12, station: "Laufen", seller: "Blau", buyer: "Gelb", amount: 3000}]};
  const [offer, own] = saleItems(now, (s) => { accepted.push(s.offer); });
  assert.match(text(offer), /^Group Rot offers you Aesch for 2.500 \(offer #9\)\. Accept$/);
  assert.match(text(own), /^You offered Laufen to group Gelb for 3.000 \(offer #12\); it is open\.$/);
  click(offer.querySelector("button"));
  assert.deepEqual(accepted, [9]);
});

test("a message not sent yet is marked sent at the time typed", () => {
  const marks = [];
  const li = unsentItem({seq: 4, message: "1K 9.10 Zug"}, () => "09:30", (u, time) => { marks.push([u.seq, time]); });
  li.querySelector("input").value = "9.25";
  click(li.querySelector("button"));
  assert.deepEqual(marks, [[4, "09:25"]]);
});
