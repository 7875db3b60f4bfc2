import assert from "node:assert/strict";
import {test} from "node:test";

import {all, text} from "./dom.js";
import {admissibleItems, answerSummary, answerTitle, candidateItems, changesOf, firstLegCard, legRow,
  routePoints, trainsView} from "../../planner/web/static/answer.js";

const LEG1 = {route: "S1", headsign: "Sursee", from: "Zug", from_platform: "4", departure: "12:52", to: "Rotkreuz",
  to_platform: "1", arrival: "13:07", trip_id: "t1"};
const LEG2 = {route: "S26", headsign: "Olten", from: "Rotkreuz", from_platform: "5", departure: "13:23",
  to: "Wohlen AG", to_platform: "3", arrival: "13:46", trip_id: "t2"};
const ANSWER = {seq: 1, roll: "2", rolled_at: "12:40", plan_from: "12:40", kind: "target", target: "Wohlen AG", departure: "12:52",
  arrival: "13:46", changes: 1, legs: [LEG1, LEG2], from: "Zug",
  candidates: [{name: "Wohlen AG", available: true, arrival: "13:46"}, {name: "Zürich Oerlikon", available: true,
    arrival: "13:51"}, {name: "Herzogenbuchsee", available: false}, {name: "Konolfingen", available: true,
    targeted: true}],
  crossings: [{kind: "toll_line", name: "Luzern–Rotkreuz", owner: "Blau"}], bonus: [], fees: [{}],
  fees_total: 500, warnings: ["the game ends on the way"]};

test("a leg row names the train, both stops with their platforms and both times", () => {
  const row = legRow(LEG1);
  assert.deepEqual(all(row, "td").map(text), ["S1 Sursee", "Zug Gl. 4", "12:52", "Rotkreuz Gl. 1", "13:07"]);
});

test("the first leg's card: the train, when and where it leaves, when and where it arrives", () => {
  assert.equal(text(firstLegCard(LEG1)), "S1 → Sursee 12:52 Zug Gl. 4 13:07 Rotkreuz Gl. 1");
  assert.equal(firstLegCard(null), null);
});

test("an answer's title, sentence and notes", () => {
  assert.equal(answerTitle(ANSWER), "roll 2 at 12:40 (#1)");
  const {text: sentence, notes} = answerSummary(ANSWER);
  assert.equal(sentence, "Go to Wohlen AG: leave 12:52, arrive 13:46, 1 change.");
  assert.deepEqual(notes.map(text), ["toll line: Luzern–Rotkreuz (owner Blau)",
    "fees on the way: 500 in all (see Money)", "note: the game ends on the way"]);
  assert.equal(answerSummary({...ANSWER, changes: 2}).text, "Go to Wohlen AG: leave 12:52, arrive 13:46, 2 changes.");
  assert.equal(answerSummary({kind: "free", free_until: "13:40", free: {key: "dice.free", params: {until: "13:40"},
    text: "free movement until 13:40"}}).text, "Free movement until 13:40.");  // the server's words, a sentence
  // a roll stored before answers carried the rule's words still reads as a sentence
  assert.equal(answerSummary({kind: "free", free_until: "13:40"}).text, "Free until 13:40.");
  assert.equal(answerSummary({kind: "target", target: "Zug", already_there: true}).text, "Target Zug: you are there.");
});

test("the other targets of the number say why they were not chosen; the target itself is not listed", () => {
  const items = candidateItems(ANSWER);
  assert.deepEqual(items.map(text), ["Zürich Oerlikon arrival 13:51", "Herzogenbuchsee not served today",
    "Konolfingen targeted before"]);
  assert.equal(items[1].className, "unavailable");
});

test("admissible ways: each with its times and changes, the fastest marked", () => {
  const ways = admissibleItems({...ANSWER, admissible: [
    {departure: "12:52", arrival: "13:46", changes: 1, legs: [LEG1, LEG2]},
    {departure: "12:55", arrival: "14:02", changes: 0, legs: []}]});
  assert.deepEqual(ways.map((w) => text(w.querySelector("b"))), ["12:52 → 13:46", "12:55 → 14:02"]);
  assert.equal(ways[0].className, "fastest");
  assert.match(text(ways[0]), /1 change \(fastest\)/);
  assert.match(text(ways[1]), /no change/);  // not "0 changes"
  assert.match(text(ways[0].querySelector("small")), /^S1 12:52 Zug → Rotkreuz 13:07, S26 13:23/);
});

test("the change window applies where the group changes trains, not where it stays seated", () => {
  assert.deepEqual(changesOf(ANSWER), [{index: 0, at: "Rotkreuz", time: "13:07", trip: "t1"}]);
  const seated = {legs: [LEG1, {...LEG2, trip_id: "t1"}]};
  assert.deepEqual(changesOf(seated), []);
});

test("the trains the rule allows: the forced one marked, those too soon greyed, the rule in one sentence", () => {
  const z = {station: "Zug", got_off: "12:31", applies: true, forced_next: false, rule: "29-minute rule",
    deadline: "13:00", departures: [{departure: "12:52", route: "S1", headsign: "Sursee", platform: "4", catchable: true},
      {departure: "12:32", route: "IR", headsign: "Luzern", platform: "1", catchable: false}]};
  // the rule as the server words it (planner/gamefile/rule_texts.py), shown as a sentence
  const said = (s) => ({key: "window.got_off", params: {}, text: s});
  const v = trainsView({...z, text: said("got off at Zug at 12:31: board a train leaving by 13:00 (29-minute rule)")});
  assert.equal(v.rule, "Got off at Zug at 12:31: board a train leaving by 13:00 (29-minute rule).");
  assert.deepEqual(v.rows.map((r) => r.className), ["", "too-soon"]);
  assert.match(text(v.rows[1]), /too soon/);
  const forced = trainsView({...z, forced_next: true, text: said("no train leaves Zug by 13:00: take the first one")});
  assert.equal(forced.rule, "No train leaves Zug by 13:00: take the first one.");
  assert.equal(forced.rows[0].className, "forced");
});

test("a train leaves the trains table once the time the group tells has passed its departure", () => {
  const z = {station: "Zug", applies: false, forced_next: false, text: {key: "k", params: {}, text: "free"},
    departures: [{departure: "12:32", route: "IR", catchable: true}, {departure: "12:52", route: "S1", catchable: true},
      {departure: "24:05", route: "SN1", catchable: true}]};
  const deps = (now) => trainsView(z, now).rows.map((r) => text(r).slice(0, 5));
  assert.deepEqual(deps("12:32"), ["12:32", "12:52", "24:05"]);  // leaving this minute: still there
  assert.deepEqual(deps("12:33"), ["12:52", "24:05"]);
  assert.deepEqual(deps("23:59"), ["24:05"]);  // after midnight, still the game's day
  assert.deepEqual(deps(null), ["12:32", "12:52", "24:05"]);  // no time told: every train
});

test("text from the server stays text: a station name with markup is no element", () => {
  const evil = "<img src=x onerror=alert(1)>";
  const row = legRow({...LEG1, from: evil, headsign: evil});
  assert.equal(row.querySelector("img"), null);
  assert.ok(text(row).includes(evil));
});

test("the route's points are the legs' ends in order, each station once in a row", () => {
  const coords = new Map([["Zug", [47.17, 8.51]], ["Rotkreuz", [47.14, 8.43]], ["Wohlen AG", [47.35, 8.27]]]);
  const {pts, names} = routePoints(ANSWER, coords);
  assert.deepEqual(names, ["Zug", "Rotkreuz", "Wohlen AG"]);
  assert.equal(pts.length, 3);
  assert.deepEqual(routePoints({legs: [], from: "Zug"}, coords).names, ["Zug"]);
});
