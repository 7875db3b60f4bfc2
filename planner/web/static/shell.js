/* The service worker keeps the app for a tunnel. The page that registered it was loaded before it ran, so the
   page puts itself into the worker's cache (same name as in sw.js) to be there offline, too. */

const PAGE_CACHE = "planner-data-v1";

/** Register the service worker once the page has loaded; the page is marked data-offline-ready when kept. */
export function keepForOffline() {
  if (!("serviceWorker" in navigator)) return;
  const register = () => navigator.serviceWorker.register("/sw.js", {scope: "/"})
    .then(() => navigator.serviceWorker.ready)
    .then(() => caches.open(PAGE_CACHE))
    .then((c) => c.add(location.pathname))
    .then(() => document.documentElement.setAttribute("data-offline-ready", "1"))
    .catch(() => {});
  // a module that awaited (the catalog) may run after the load event: then at once
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register);
}
