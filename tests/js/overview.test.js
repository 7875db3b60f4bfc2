import assert from "node:assert/strict";
import {test} from "node:test";

import {all, text} from "./dom.js";
import {eventRows, groupRows, heading, mapItems, parkingText, rankingRows, where} from "../../planner/web/static/overview.js";

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
  assert.deepEqual(all(rows[1], "td").map(text), [EVIL, "20'000", "20'000", "out", "-"]);  // out (§6)
  assert.equal(rows[1].className, "voided");
  const playing = groupRows({...DATA, ranking: {ranking: []}});
  assert.deepEqual(all(playing[1], "td").map(text), [EVIL, "20'000", "20'000", "-", "free until 14:10"]);
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
