import assert from "node:assert/strict";
import {test} from "node:test";

import "./dom.js";
import {answerNotes, liveText, moneyNotes, obligationText, realtimeBanner, undoQuestion} from
  "../../planner/web/static/words.js";

test("the obligation is the server's words, in the page's language", () => {
  const text = {key: "obligation.roll", params: {}, text: "Jetzt würfeln"};
  assert.equal(obligationText({kind: "roll", text}), "Jetzt würfeln");
  assert.equal(obligationText({kind: "roll", text: "Würfeln!"}), "Würfeln!");
  // a headline: the server's lower-case text capitalised (French "lancez le dé" too)
  assert.equal(obligationText({kind: "roll", text: {text: "lancez le dé maintenant"}}), "Lancez le dé maintenant");
  assert.equal(obligationText({kind: "roll"}), null);  // the page never words a rule itself
  assert.equal(obligationText(null), null);
});

test("a full-hour bonus is one whole sentence for an arrival and one for a departure (no English key shown)", () => {
  const bonus = [{event: "arrival", station: "Hünenberg Zythus", time: "13:00", fee: 8000},
    {event: "departure", station: "Hünenberg Zythus", time: "13:00", fee: 8000}];
  assert.deepEqual(answerNotes({bonus}), ["full-hour bonus: arrival at Hünenberg Zythus 13:00 (fee 8000)",
    "full-hour bonus: departure from Hünenberg Zythus 13:00 (fee 8000)"]);
});

test("undo names the latest entry: a position report later than the last roll, else the roll", () => {
  const status = {rolls: [{seq: 1, dice: "1", time: "13:00", kind: "target", target: "Sissach"}],
    positions: [{time: "12:50", label: "at Baar", station: "Baar"}]};
  assert.match(undoQuestion(status), /^Remove roll #1 \(1 at 13:00: Sissach\)\?/);
  status.positions.push({time: "15:00", label: "at Baar", station: "Baar"});
  assert.match(undoQuestion(status), /^Remove the position report "at Baar" at 15:00\?/);
  status.positions.push({time: "16:00", label: "in S1 15:58 Baar → Sursee, next stop Zug 16:03", station: "Zug",
    trip_id: "t1"});
  assert.match(undoQuestion(status), /^Remove the position report "in S1 15:58 Baar → Sursee, next stop Zug 16:03"/);
  assert.equal(undoQuestion({rolls: [], positions: []}), null);
});

test("the money's notes: cash and capital, then what §10 and §6 ask now", () => {
  assert.equal(moneyNotes({cash: 500, capital: 4500, letter_groups: [["Zug", "Zürich HB", "Zollikofen"]],
    redeem_due: ["Baar"], must_mortgage: false, out: false}),
  "Cash 500, capital 4'500. Letter groups: Zug, Zürich HB, Zollikofen. Redeem now (§10): Baar.");
});

test("real-time banners and the jail on the way", () => {
  assert.equal(realtimeBanner({available: true, stale: false, error: null, age_s: 30}), "");
  assert.equal(realtimeBanner({available: true, stale: true, age_s: 600}),
    "Real-time data is 10 min old: delays may have changed.");
  assert.equal(realtimeBanner({available: false, error: "timeout"}), "No real-time data (timeout): timetable times only.");
  const nx = {advice: "go to Zug, arrival 13:40", itinerary: {jail: {station: "Baar", from: "13:10", until: "13:40",
    route: "S1", delay_min: 6, pay: {amount: 1000, arrival: "13:25"}, text: {key: "jail.late_pay", params: {},
      text: "jail at Baar 13:10-13:40 (the S1 is 6 min late); or pay 1'000 into the free parking and arrive 13:25"}}}};
  assert.equal(liveText(nx), "go to Zug, arrival 13:40. Jail at Baar 13:10-13:40 (the S1 is 6 min late); " +
    "or pay 1'000 into the free parking and arrive 13:25.");
});
