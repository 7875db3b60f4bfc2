import assert from "node:assert/strict";
import {test} from "node:test";

import {text} from "./dom.js";
import {proposalView} from "../../planner/web/static/locate.js";

const STATION = {time: "13:00", proposal: "station", station: {name: "Zug", distance_m: 80}, train: null,
  distance_m: 80, nearest: {name: "Zug", distance_m: 80}};
const TRAIN = {time: "13:15", proposal: "train", station: null, distance_m: 120,
  train: {trip: "t42", name: "S1 13:06 Zug → Luzern", next_stop: "Rotkreuz", next_time: "13:20", distance_m: 120},
  nearest: {name: "Hünenberg Chämleten", distance_m: 900}};

function click(view, id) {
  view.querySelector(`#${id}`).dispatchEvent(new window.Event("click"));
}

test("a station proposed: one tap sets the group at it at the time asked", () => {
  const sent = [];
  const view = proposalView(STATION, (body) => sent.push(body), () => {});
  assert.equal(text(view.querySelector("#proposal-text")), "Are you at Zug? (80 m from here)");
  click(view, "proposal-yes");
  assert.deepEqual(sent, [{at: "Zug", time: "13:00"}]);
});

test("a train proposed: one tap sets the group in it (by its trip id) at the time asked", () => {
  const sent = [];
  const view = proposalView(TRAIN, (body) => sent.push(body), () => {});
  assert.equal(text(view.querySelector("#proposal-text")), "Are you in the S1 13:06 Zug → Luzern? Next stop Rotkreuz 13:20.");
  click(view, "proposal-yes");
  assert.deepEqual(sent, [{trip: "t42", time: "13:15"}]);
});

test("no: the proposal goes away without a request", () => {
  let dismissed = 0;
  const sent = [];
  click(proposalView(STATION, (body) => sent.push(body), () => { dismissed += 1; }), "proposal-no");
  assert.equal(dismissed, 1);
  assert.deepEqual(sent, []);
});

test("nothing near: the nearest station and how far, and nothing to confirm", () => {
  const view = proposalView({time: "13:00", proposal: null, station: null, train: null, distance_m: null,
    nearest: {name: "Zug", distance_m: 3200}}, () => {}, () => {});
  assert.equal(text(view), "No station and no train of the game near you (nearest station: Zug, 3.2 km).");
  assert.equal(view.querySelector("button"), null);
});
