/* The page's language. Every text a script shows goes through t(msgid, params): the message id is the English
   text with named parameters ("Roll {dice} is queued."), looked up in the catalog the server serves for the
   page's language (<html lang data-catalog>), the message id itself where there is none. The language is chosen
   on the page (de, fr, en), remembered in localStorage and in the cookie ``lang`` that goes with every request. */

export const LANGUAGES = ["de", "fr", "en"];
const STORE_KEY = "planner:lang";
let catalog = {};

/** The page's language (the server rendered it in this one). */
export function language() {
  return (typeof document !== "undefined" && document.documentElement.lang) || "en";
}

function fillIn(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (params && name in params ? String(params[name]) : whole));
}

function entry(msgid) {
  return Object.prototype.hasOwnProperty.call(catalog, msgid) ? catalog[msgid] : null;
}

/** ``msgid`` in the page's language with ``{name}`` parameters filled in. */
export function t(msgid, params) {
  const found = entry(msgid);
  return fillIn(typeof found === "string" && found ? found : msgid, params);
}

/** The singular or plural form for ``n`` (``{n}`` is filled in with the others); a catalog entry of a plural is
    the list of the language's forms, keyed by the singular. */
export function tn(singular, plural, n, params) {
  const found = entry(singular);
  const index = language() === "fr" ? (n > 1 ? 1 : 0) : (n === 1 ? 0 : 1);
  const forms = Array.isArray(found) && found.length > index ? found : [singular, plural];
  return fillIn(forms[index], {n, ...params});
}

/** Use ``messages`` ({msgid: text or [forms]}) as the catalog. */
export function useCatalog(messages) {
  catalog = messages && typeof messages === "object" ? messages : {};
}

/** Load the catalog of the page's language from where the page says (none: the message ids are shown). */
export async function loadCatalog(fetchJson) {
  const url = typeof document !== "undefined" ? document.documentElement.dataset.catalog : null;
  if (!url) return;
  try {
    useCatalog(await fetchJson(url));
  } catch {
    /* offline and not kept: the message ids are shown */
  }
}

/** Remember ``lang`` for the next pages and requests (localStorage and the cookie ``lang``). */
export function rememberLanguage(lang) {
  if (!LANGUAGES.includes(lang)) return;
  try { localStorage.setItem(STORE_KEY, lang); } catch { /* private mode: the cookie still holds it */ }
  document.cookie = `lang=${lang}; path=/; max-age=31536000; SameSite=Strict`;
}

/** The language switch: one button per language in ``container``; a tap remembers it and reloads the page. */
export function languageSwitch(container) {
  if (!container) return;
  const stored = (() => { try { return localStorage.getItem(STORE_KEY); } catch { return null; } })();
  if (stored && !document.cookie.split("; ").some((c) => c.startsWith("lang="))) rememberLanguage(stored);
  container.replaceChildren(...LANGUAGES.map((lang) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "lang" + (lang === language() ? " current" : "");
    b.lang = lang;
    b.textContent = lang.toUpperCase();
    b.setAttribute("aria-pressed", String(lang === language()));
    b.addEventListener("click", () => {
      rememberLanguage(lang);
      location.reload();
    });
    return b;
  }));
}
