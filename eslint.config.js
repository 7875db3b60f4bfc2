// eslint (flat config) for the pages' script modules, the service worker and the scripts' unit tests.
// `make lint` and `make test` run it from node_modules (npm ci): no network at run time.
import js from "@eslint/js";
import globals from "globals";

// Everything a user typed reaches the pages as text: no HTML strings into the DOM.
const NO_HTML = [
  {selector: "AssignmentExpression[left.property.name=/^(innerHTML|outerHTML)$/]",
    message: "build elements with h() (text nodes): never HTML strings"},
  {selector: "CallExpression[callee.property.name=/^(insertAdjacentHTML|write|writeln)$/]",
    message: "build elements with h() (text nodes): never HTML strings"},
];

export default [
  {ignores: ["node_modules/", ".venv/", "planner/maps/static/vendor/", "feeds/", "maps/", "bench/out/"]},
  js.configs.recommended,
  {
    files: ["planner/web/static/**/*.js"],
    languageOptions: {ecmaVersion: 2022, sourceType: "module", globals: {...globals.browser, L: "readonly"}},
    rules: {
      "no-unused-vars": ["error", {argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none"}],
      "eqeqeq": "error",
      "no-var": "error",
      "prefer-const": "error",
      "no-restricted-syntax": ["error", ...NO_HTML],
    },
  },
  {
    files: ["planner/web/static/sw.js"],
    languageOptions: {sourceType: "script", globals: {...globals.serviceworker}},
  },
  {
    files: ["eslint.config.js"],
    languageOptions: {ecmaVersion: 2022, sourceType: "module", globals: {...globals.node}},
  },
  {
    // the unit tests run the pages' modules in Node on a small DOM (tests/js/dom.js sets window and document)
    files: ["tests/js/**/*.js"],
    languageOptions: {ecmaVersion: 2022, sourceType: "module", globals: {...globals.node, ...globals.browser}},
  },
];
