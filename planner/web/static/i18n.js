/* The page's language. Every text a script shows goes through t(msgid, params): the message id is the English
   text with named parameters ("Roll {dice} is queued."), looked up in the catalog the server serves for the
   page's language (<html lang data-catalog>), the message id itself where there is none. The language is chosen
   on the page (among those the server names), remembered in localStorage and in the cookie ``planner_lang`` that
   goes with every request. */

const STORE_KEY = "planner:lang";
let catalog = {};

/** The page's language (the server rendered it in this one). */
export function language() {
  return (typeof document !== "undefined" && document.documentElement.lang) || "en";
}

/** The languages the server speaks, as the page names them (<html data-languages="de fr en">: the server's one
    list, LANGUAGES of planner/util/i18n.py); a page that names none offers its own language alone. */
export function languages() {
  const named = typeof document !== "undefined" ? document.documentElement.dataset.languages : "";
  return named ? named.split(" ") : [language()];
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
  // the server gives a plural as its forms for 0, 1 and 2 (de, fr and en use the last for every larger number)
  const text = Array.isArray(found) && found.length === 3 ? found[Math.min(Math.max(n, 0), 2)]
    : (n === 1 ? singular : plural);
  return fillIn(text, {n, ...params});
}

/** Use ``messages`` ({msgid: text or [forms for 0, 1, 2]}) as the catalog. */
export function useCatalog(messages) {
  catalog = messages && typeof messages === "object" ? messages : {};
}

/** Load the catalog of the page's language from where the page says (none: the message ids are shown). */
export async function loadCatalog(fetchJson) {
  const url = typeof document !== "undefined" ? document.documentElement.dataset.catalog : null;
  if (!url) return;
  try {
    const served = await fetchJson(url);  // {language, messages}: /i18n/{lang}.json
    useCatalog(served && served.messages);
  } catch {
    /* offline and not kept: the message ids are shown */
  }
}

/** Remember ``lang`` for the next pages and requests (localStorage and the cookie ``planner_lang``). */
export function rememberLanguage(lang) {
  if (!languages().includes(lang)) return;
  try { localStorage.setItem(STORE_KEY, lang); } catch { /* private mode: the cookie still holds it */ }
  document.cookie = `planner_lang=${lang}; path=/; max-age=31536000; SameSite=Lax`;
}

/** The language switch: one button per language in ``container``; a tap remembers it and reloads the page. */
export function languageSwitch(container) {
  if (!container) return;
  const stored = (() => { try { return localStorage.getItem(STORE_KEY); } catch { return null; } })();
  if (stored && !document.cookie.split("; ").some((c) => c.startsWith("planner_lang="))) rememberLanguage(stored);
  container.replaceChildren(...languages().map((lang) => {
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
