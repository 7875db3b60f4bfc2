import assert from "node:assert/strict";
import {test} from "node:test";

import "./dom.js";
import {askAgain} from "../../planner/web/static/fresh.js";

test("the page asks again when the clock reaches the answer's next change, not before, not twice", () => {
  assert.equal(askAgain(600, null, null), true);  // never asked
  assert.equal(askAgain(601, 600, 602), false);  // nothing changes before 10:02
  assert.equal(askAgain(602, 600, 602), true);  // the stop at 10:02: a fee may be due
  assert.equal(askAgain(603, 602, 602), false);  // asked at 10:02 already (the new answer not in yet)
  assert.equal(askAgain(700, 600, null), false);  // nothing changes by the clock alone
  assert.equal(askAgain(595, 600, 602), true);  // the time was set back
  assert.equal(askAgain(null, 600, 602), false);  // no time in the field
});
