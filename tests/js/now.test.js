import assert from "node:assert/strict";
import {test} from "node:test";

import "./dom.js";
import {boardable, chooseAction, firstLeg, placeKey, positionText} from "../../planner/web/static/now.js";

function state(obligation, position, extra) {
  return {status: {obligation, position, rolls: [], positions: []}, last: null, ...extra};
}
const ZUG = {station: "Zug", since: "12:31", seated: false, train: null};
const IN_S1 = {station: "Rotkreuz", since: "13:07", seated: true, train: "in S1 12:52 Zug → Sursee, next stop Rotkreuz 13:07"};
const FEE = {name: "Rotkreuz", owner: "Blau", amount: 500, time: "13:07", kind: "station"};
const minutes = (hhmm) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));

test("without a known position the action is to say where the group is", () => {
  assert.deepEqual(chooseAction({state: null}, 600), {kind: "position", why: "unknown"});
  assert.equal(chooseAction({state: state({kind: "roll"}, null)}, 600).kind, "position");
});

test("a roll due (now, or before the free movement ends) is the action", () => {
  assert.equal(chooseAction({state: state({kind: "roll", board_by: "13:00"}, ZUG)}, minutes("12:40")).kind, "roll");
  assert.equal(chooseAction({state: state({kind: "free", until: "13:40"}, ZUG)}, minutes("12:40")).kind, "roll");
});

test("the change window binding a standing group: board by its deadline", () => {
  const a = chooseAction({state: state({kind: "heading", target: "Wohlen AG", board_by: "13:00"}, ZUG)}, minutes("12:40"));
  assert.deepEqual(a, {kind: "board", why: "window", by: "13:00"});
});

test("a position past the change window's deadline is stale: say where the group is", () => {
  const a = chooseAction({state: state({kind: "heading", target: "Wohlen AG", board_by: "13:00"}, ZUG)}, minutes("13:20"));
  assert.deepEqual(a, {kind: "position", why: "stale"});
});

test("a fee the ledger's answer lists as due is the action, with or without any roll; none listed, none", () => {
  const due = (fees) => ({state: state({kind: "heading", target: "X"}, IN_S1), ledger: {now: {fees_due: fees}}});
  assert.deepEqual(chooseAction(due([FEE]), minutes("13:15")), {kind: "fee", why: "due", fee: FEE});
  assert.equal(chooseAction(due([]), minutes("13:15")).kind, null);  // paid: gone from the answer
  const rolling = {...due([FEE]), state: state({kind: "roll"}, IN_S1)};
  assert.equal(chooseAction(rolling, minutes("13:15")).kind, "roll");  // the roll binds now; the fee waits
  // an itinerary's fee ahead is not due: the page does not assemble fees of its own
  const ahead = {state: state({kind: "heading", target: "X"}, IN_S1), next: {itinerary: {fees: [FEE]}},
    ledger: {now: {fees_due: []}}};
  assert.equal(chooseAction(ahead, minutes("13:15")).kind, null);
  assert.equal(chooseAction({...ahead, ledger: null}, minutes("13:15")).kind, null);  // not known yet
});

test("seated, nothing binds: no action (the first leg shows); the game over: none", () => {
  assert.deepEqual(chooseAction({state: state({kind: "heading", target: "X"}, IN_S1)}, 800), {kind: null, why: "seated"});
  assert.equal(chooseAction({state: state({kind: "ended"}, ZUG)}, 800).kind, null);
});

test("the first leg is next's from where the group is now, else the last answer's", () => {
  const a = {route: "S1"};
  const b = {route: "S26"};
  assert.equal(firstLeg({next: {itinerary: {legs: [b]}}, state: {last: {legs: [a]}}}), b);
  assert.equal(firstLeg({next: {itinerary: null}, state: {last: {legs: [a]}}}), a);
  assert.equal(firstLeg({next: null, state: {last: null}}), null);
});

test("the boardable trains are the catchable ones not yet left, the first few", () => {
  const z = {departures: [{catchable: false, trip_id: "a", departure: "12:40"},
    {catchable: true, trip_id: "b", departure: "12:41"}, {catchable: true, trip_id: "c", departure: "12:50"},
    {catchable: true, trip_id: "d", departure: "12:55"}]};
  assert.deepEqual(boardable(z, 2).map((d) => d.trip_id), ["b", "c"]);
  assert.deepEqual(boardable(z, 2, minutes("12:45")).map((d) => d.trip_id), ["c", "d"]);  // b left at 12:41
  assert.deepEqual(boardable(null, 2), []);
});

test("where the group is, in a few words", () => {
  assert.equal(positionText(ZUG), "Zug 12:31");
  assert.equal(positionText(IN_S1), IN_S1.train);
  assert.equal(positionText(null), null);
});

test("next and the trains are asked again only when the group's place, roll or real-time data changed", () => {
  const s = state({kind: "roll"}, ZUG);
  assert.equal(placeKey(s), placeKey(structuredClone(s)));
  assert.notEqual(placeKey(s), placeKey({...s, status: {...s.status, position: {...ZUG, since: "12:40"}}}));
  assert.notEqual(placeKey(s), placeKey({...s, status: {...s.status, rolls: [{seq: 1}]}}));
  assert.notEqual(placeKey(s), placeKey({...s, realtime: {version: 3}}));
  assert.notEqual(placeKey(s), placeKey({...s, status: {...s.status, obligation: {kind: "x"}, positions: [{}]}}));
});
