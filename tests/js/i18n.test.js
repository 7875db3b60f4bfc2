import assert from "node:assert/strict";
import {afterEach, test} from "node:test";

import "./dom.js";
import {languageSwitch, languages, t, tn, useCatalog} from "../../planner/web/static/i18n.js";

afterEach(() => { useCatalog({}); document.documentElement.lang = "en"; });

test("without a catalog the message id is shown with its parameters filled in", () => {
  assert.equal(t("Roll {dice} is queued.", {dice: 3}), "Roll 3 is queued.");
  assert.equal(t("Rolling..."), "Rolling...");
  assert.equal(t("{a} and {b}", {a: "<b>x</b>"}), "<b>x</b> and {b}");  // a missing parameter stays visible
});

test("the catalog's text replaces the message id, parameters filled in", () => {
  document.documentElement.lang = "de";
  useCatalog({"Roll {dice} is queued.": "Wurf {dice} wartet.", "empty": ""});
  assert.equal(t("Roll {dice} is queued.", {dice: 3}), "Wurf 3 wartet.");
  assert.equal(t("empty"), "empty");  // an untranslated entry shows the message id
  assert.equal(t("unknown {x}", {x: 1}), "unknown 1");
});

test("plurals follow the language's rule", () => {
  assert.equal(tn("{n} change", "{n} changes", 1), "1 change");
  assert.equal(tn("{n} change", "{n} changes", 0), "0 changes");
  document.documentElement.lang = "fr";
  // the server's forms for 0, 1 and 2 (/i18n/fr.json)
  useCatalog({"{n} change": ["{n} changement", "{n} changement", "{n} changements"]});
  assert.equal(tn("{n} change", "{n} changes", 0), "0 changement");  // French: 0 is singular
  assert.equal(tn("{n} change", "{n} changes", 2), "2 changements");
});

test("the switch offers one button per language the page names, the page's own pressed", () => {
  document.documentElement.lang = "fr";
  document.documentElement.dataset.languages = "de fr it";  // the server's list (planner/util/i18n.py)
  const nav = document.createElement("nav");
  languageSwitch(nav);
  assert.deepEqual([...nav.querySelectorAll("button")].map((b) => b.lang), ["de", "fr", "it"]);
  assert.deepEqual([...nav.querySelectorAll("button")].map((b) => b.getAttribute("aria-pressed")),
    ["false", "true", "false"]);
  delete document.documentElement.dataset.languages;
  assert.deepEqual(languages(), ["fr"]);  // a page that names none offers its own language alone
});
