/* Building the page from data: elements with text only (never HTML), so everything a user typed reaches the
   page through text nodes. */

/** An element ``tag`` with attributes and children (strings become text nodes; null and undefined are skipped). */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v; else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === "object" ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** The element with that id (null when the page has none). */
export function byId(id) {
  return document.getElementById(id);
}

/** Put ``text`` into the element ``id`` as text; nothing to show is "-". */
export function setText(id, text) {
  const el = byId(id);
  if (el) el.textContent = (text === null || text === undefined || text === "") ? "-" : String(text);
}

/** Replace the children of the element ``id`` (a list of nodes). */
export function fill(id, nodes) {
  const el = byId(id);
  if (el) el.replaceChildren(...nodes);
}

/** A status line: the text, marked as an error or not. */
export function say(id, text, isError) {
  const el = byId(id);
  if (!el) return;
  el.textContent = text || "";
  el.className = isError ? "error" : "";
}

/** The page's banner line ``id`` (the network's state): shown with ``text``, hidden without. */
export function banner(id, text) {
  const el = byId(id);
  if (!el) return;
  el.hidden = !text;
  el.textContent = text || "";
}
