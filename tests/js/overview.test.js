import assert from "node:assert/strict";
import {test} from "node:test";

import {all, text} from "./dom.js";
import {age, eventRows, groupRows, heading, mapItems, parkingText, rankingRows, where} from "../../planner/web/static/overview.js";

const EVIL = "<img src=x onerror=alert(1)>";
const DATA = {
  groups: [
    {group: {name: "Rot"}, cash: 18500, capital: 20500, status: {position: {station: "Zug", since: "12:31", seated: false}},
      last: {kind: "target", target: "Emmenbrücke", arrival: "13:32"}},
    {group: {name: EVIL}, cash: 20000, capital: 20000, status: {position: null}, last: {kind: "free", free_until: "14:10"}},
  ],
  ranking: {ranking: [{rank: 1, group: "Rot", cash: 18500, capital: 20500, out: false},
    {rank: 2, group: EVIL, cash: 20000, capital: 20000, out: true}], parking: 1000, winner: "Rot"},
  events: [{seq: 3, time: "09:12", message: "RotK 9.12 Zug", voided: false},
    {seq: 4, time: "09:40", message: "RotK 9.40 Baar", voided: true}],
};

test("one row per group: name, cash, capital, where, heading for; a group out says so, not where it goes", () => {
  const rows = groupRows(DATA);
  assert.deepEqual(all(rows[0], "td").map(text), ["Rot", "18'500", "20'500", "Zug 12:31", "Emmenbrücke 13:32"]);
  assert.deepEqual(all(rows[1], "td").map(text), [EVIL, "20'000", "20'000", "-", "out"]);  // out: on no way
  assert.equal(heading(DATA.groups[1]), "free until 14:10");
  assert.equal(rows[1].querySelector("img"), null);
  assert.equal(where(DATA.groups[1]), "-");
  assert.equal(heading({last: null}), "-");
});

test("the ranking puts out groups as out, and the free parking names the leader", () => {
  const rows = rankingRows(DATA);
  assert.deepEqual(rows.map((r) => text(r.firstChild)), ["1", "out"]);
  assert.equal(rows[1].className, "voided");
  assert.equal(parkingText(DATA), "Free parking: 1'000. Leading: Rot.");
  assert.equal(parkingText({ranking: {parking: 0, winner: null}}), "Free parking: 0.");
});

test("ledger events newest first; a tap on one not voided picks its number", () => {
  const picked = [];
  const rows = eventRows(DATA, (seq) => picked.push(seq));
  assert.deepEqual(rows.map((r) => text(r.firstChild)), ["4", "3"]);
  rows[0].dispatchEvent(new window.Event("click"));
  rows[1].dispatchEvent(new window.Event("click"));
  assert.deepEqual(picked, [3]);
  assert.equal(text(eventRows({events: []}, () => {})[0]), "no ledger events yet");
});

test("the map's labels name the group and its station, and the target", () => {
  const coords = new Map([["Zug", [47.17, 8.51]], ["Emmenbrücke", [47.08, 8.27]]]);
  assert.deepEqual(mapItems(DATA, coords), [
    {group: "Rot", here: [47.17, 8.51], hereLabel: "Rot: Zug", there: [47.08, 8.27], thereLabel: "Emmenbrücke"},
    {group: EVIL, here: null, hereLabel: null, there: null, thereLabel: null}]);
});

test("a position says how long ago the group told it, at the page's time", () => {
  const g = DATA.groups[0];  // Zug since 12:31
  assert.equal(age(g, 12 * 60 + 40), "9 min ago");
  assert.equal(age(g, 17 * 60 + 56), "5 h 25 min ago");
  assert.equal(age(g, 12 * 60), null);  // told for a time still to come: no age
  assert.equal(age(DATA.groups[1], 17 * 60), null);  // no position
  const row = groupRows(DATA, 17 * 60 + 56)[0];
  assert.equal(text(all(row, "td")[3]), "Zug 12:31 5 h 25 min ago");
});

test("a group that is out is on no way: not in the table's heading, not on the map", () => {
  const out = {...DATA, groups: [DATA.groups[0], {...DATA.groups[1], status: {position: {station: "Zug", since: "10:00"}},
    last: {kind: "target", target: "Emmenbrücke", arrival: "13:32"}}]};
  const rows = groupRows(out);
  assert.equal(text(all(rows[1], "td")[4]), "out");
  assert.equal(rows[1].className, "voided");
  const coords = new Map([["Zug", [47.17, 8.51]], ["Emmenbrücke", [47.08, 8.27]]]);
  const items = mapItems(out, coords);
  assert.equal(items[1].there, null);
  assert.deepEqual(items[1].here, [47.17, 8.51]);
  assert.deepEqual(items[0].there, [47.08, 8.27]);
});

test("a card drawn and later played is one row; a tap on it picks the play", () => {
  const card = {group: "1", card: "chance-freiheit", voided: false};
  const events = {events: [
    {...card, seq: 5, kind: "draw", time: "12:01", message: "1 Chance Freiheit vor dem Würfelziel "},
    {seq: 6, kind: "buy", group: "2", time: "12:10", message: "2K 12.10 Zug", voided: false},
    {...card, seq: 7, kind: "play", time: "12:30", message: "1 Chance Freiheit vor dem Würfelziel"}]};
  const picked = [];
  const rows = eventRows(events, (seq) => picked.push(seq));
  assert.deepEqual(rows.map((r) => text(r.firstChild)), ["5, 7", "6"]);  // where the play is, newest first
  assert.equal(text(all(rows[0], "td")[2]), "1 Chance Freiheit vor dem Würfelziel played at 12:30");
  rows[0].dispatchEvent(new window.Event("click"));
  assert.deepEqual(picked, [7]);
  // a card drawn and not played yet stays its own row
  assert.equal(eventRows({events: events.events.slice(0, 2)}, () => {}).length, 2);
});
