// A small DOM (linkedom) for the render functions' unit tests: the page modules build elements with the global
// document, as in the browser.
import {parseHTML} from "linkedom";

const {window, document} = parseHTML("<!doctype html><html lang=\"en\"><head></head><body></body></html>");
globalThis.window = window;
globalThis.document = document;

const BREAKS = new Set(["BR", "DIV", "P", "LI", "TD", "TH", "TR", "UL", "OL", "TABLE", "TBODY"]);

function pieces(node) {
  if (node.nodeType === 3) return node.data;
  const inner = [...node.childNodes].map(pieces).join("");
  return BREAKS.has(node.nodeName) ? ` ${inner} ` : inner;
}

/** The text of an element as a reader sees it (a line break or a block between words is a space). */
export function text(el) {
  return pieces(el).replace(/\s+/g, " ").trim();
}

/** Every element below ``el`` with the tag ``tag`` (lower case). */
export function all(el, selector) {
  return [...el.querySelectorAll(selector)];
}
