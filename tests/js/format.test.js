import assert from "node:assert/strict";
import {test} from "node:test";

import {addMinutes, chf, clockOf, distanceText, minutesOf, normaliseClock} from "../../planner/web/static/format.js";

test("amounts are written as the Swiss write them, nothing known as a dash", () => {
  assert.equal(chf(18500), "18'500");
  assert.equal(chf(-500), "-500");
  assert.equal(chf(null), "-");
  assert.equal(chf(undefined), "-");
});

test("a clock is 24-hour HH:MM whatever the locale", () => {
  assert.equal(clockOf(new Date(2021, 8, 11, 13, 5)), "13:05");
  assert.equal(clockOf(new Date(2021, 8, 11, 0, 7)), "00:07");
});

test("times as players type them become HH:MM; anything else is none", () => {
  for (const [typed, want] of [["12:40", "12:40"], ["9:05", "09:05"], ["09.05", "09:05"], ["0905", "09:05"],
    ["905", "09:05"], ["13h05", "13:05"], [" 7:30 ", "07:30"], ["23:59", "23:59"]]) {
    assert.equal(normaliseClock(typed), want, typed);
  }
  for (const bad of ["", "noon", "24:00", "12:60", "1:2", "12:345", "01:19 PM", null]) {
    assert.equal(normaliseClock(bad), null, String(bad));
  }
});

test("minutes after midnight and shifted times stay within the day", () => {
  assert.equal(minutesOf("13:05"), 785);
  assert.equal(minutesOf("x"), null);
  assert.equal(addMinutes("13:02", -5), "12:57");
  assert.equal(addMinutes("00:03", -5), "00:00");
  assert.equal(addMinutes("23:58", 5), "23:59");
  assert.equal(addMinutes("x", 5), null);
});

test("distances for people", () => {
  assert.equal(distanceText(80.4), "80 m");
  assert.equal(distanceText(1234), "1.2 km");
  assert.equal(distanceText(null), "-");
});
