import assert from "node:assert/strict";
import {test} from "node:test";

import "./dom.js";
import {labelSide, mapLabel} from "../../planner/web/static/map.js";

test("a label goes where the whole name fits: right, else left, else the roomier side", () => {
  assert.equal(labelSide(20, 160, 390), "right");
  assert.equal(labelSide(300, 160, 390), "left");  // cut at the right edge before ("Blau: Affoltern am All")
  assert.equal(labelSide(200, 300, 390), "left");
  assert.equal(labelSide(150, 300, 390), "right");
});

test("a map label holds the name as text, never markup", () => {
  const el = mapLabel("<img src=x onerror=alert(1)>: Zug");
  assert.equal(el.textContent, "<img src=x onerror=alert(1)>: Zug");
  assert.equal(el.querySelector("img"), null);
});
