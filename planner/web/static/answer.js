/* A roll's answer as page elements: the target and itinerary (with platforms), its notes, the other targets of
   the number, variant B's admissible ways, the route on a map with the stations' names; and the trains the
   change window lets the group take next. Pure: data in, elements out (the map drawing needs Leaflet). */
import {h} from "./dom.js";
import {t} from "./i18n.js";
import {mapLabel, placeLabels} from "./map.js";
import {answerNotes, answerText, candidateNote, changesText, trainsRuleText} from "./words.js";

function platform(p) {
  // the space outside the unbreakable platform: a narrow cell puts it under the station's name
  return p ? [" ", h("small", {class: "pl"}, t("Gl. {platform}", {platform: p}))] : null;
}

/** One leg as a table row: train (and where it goes), from (platform), departure, to (platform), arrival. */
export function legRow(l) {
  return h("tr", {},
    h("td", {}, legRoute(l), h("br"), h("small", {}, l.headsign || "")),
    h("td", {}, l.from, platform(l.from_platform)),
    h("td", {}, l.departure),
    h("td", {}, l.to, platform(l.to_platform)),
    h("td", {}, l.arrival));
}

/** A leg's line as players read it: the train's name, or "on foot" for a walk between stations. */
export function legRoute(leg) {
  return leg.route === "walk" && !leg.trip_id ? t("on foot") : leg.route;
}

/** The first leg of the way on, for the first screen: the train, when and where it leaves (platform), where it
    arrives when; null without one. */
export function firstLegCard(leg) {
  if (!leg) return null;
  return h("div", {class: "leg-card"},
    h("div", {class: "leg-train"}, h("b", {}, legRoute(leg)), leg.headsign ? h("small", {}, " → ", leg.headsign) : null),
    h("div", {class: "leg-stop"}, h("b", {class: "leg-time"}, leg.departure), " ", leg.from, platform(leg.from_platform)),
    h("div", {class: "leg-stop"}, h("b", {class: "leg-time"}, leg.arrival), " ", leg.to, platform(leg.to_platform)));
}

/** "roll 3 at 12:45 (#1)": which roll an answer is. */
export function answerTitle(ans) {
  return t("roll {roll} at {time} (#{seq})", {roll: ans.roll, time: ans.rolled_at, seq: ans.seq});
}

/** The answer's sentence and notes. */
export function answerSummary(ans) {
  return {text: answerText(ans), notes: answerNotes(ans).map((n) => h("li", {}, n))};
}

/** The other targets of the rolled number: their arrivals, which were targeted before, which are not served. */
export function candidateItems(ans) {
  return (ans.candidates || []).filter((c) => c.name !== ans.target).map((c) => h("li", {
    class: c.available ? "" : "unavailable"}, c.name, " ", h("small", {}, candidateNote(c))));
}

/** Variant B: every way at most N minutes longer than the fastest is allowed (the fastest marked). */
export function admissibleItems(ans) {
  return (ans.admissible || []).map((w) => {
    const reached = w.reached || w.arrival;  // a toll line or tunnel: when the train has passed it
    const fastest = w.departure === ans.departure && reached === ans.arrival;
    const via = (w.legs || []).map((l) => `${legRoute(l)} ${l.departure} ${l.from} → ${l.to} ${l.arrival}`).join(", ");
    return h("li", {class: fastest ? "fastest" : ""}, h("b", {}, `${w.departure} → ${reached}`), " ",
      changesText(w.changes, fastest), h("br"), h("small", {}, via));
  });
}

/** The changes of an answer where the change window applies: (leg index, station, arrival, train) of each
    leg after which the group gets off and boards another train. */
export function changesOf(ans) {
  const legs = ans.legs || [];
  const out = [];
  for (let i = 0; i < legs.length - 1; i++) {
    const l = legs[i];
    if (l.trip_id && legs[i + 1].trip_id === l.trip_id) continue;  // staying seated: no change there
    out.push({index: i, at: l.to, time: l.arrival, trip: l.trip_id || null});
  }
  return out;
}

/** The trains the change window lets the group take next (planner zugzwang): the rule's sentence and one row per
    departure, the forced one marked, those leaving before the change time greyed. */
export function trainsView(z, now) {
  // a train that left before the time the group tells (HH:MM, "24:10" after midnight) is off the table
  const rows = (z.departures || []).filter((d) => !now || d.departure >= now).map((d) => {
    const forced = z.forced_next && d.catchable;
    return h("tr", {class: !d.catchable ? "too-soon" : forced ? "forced" : ""},
      h("td", {}, d.departure), h("td", {}, d.route, forced ? h("b", {class: "tag"}, " ", t("forced")) : null,
        !d.catchable ? h("small", {}, " ", t("too soon")) : null),
      h("td", {}, d.headsign || ""), h("td", {}, d.platform || ""));
  });
  return {rule: trainsRuleText(z), rows};
}

/** The stations an answer passes on a map: its legs' ends in order (the start alone when it has no legs). */
export function routePoints(ans, coords) {
  const pts = [];
  const names = [];
  for (const l of ans.legs || []) {
    for (const name of [l.from, l.to]) {
      const c = coords.get(name);
      if (c && !(pts.length && pts[pts.length - 1] === c)) { pts.push(c); names.push(name); }
    }
  }
  if (!pts.length && ans.from && coords.get(ans.from)) { pts.push(coords.get(ans.from)); names.push(ans.from); }
  return {pts, names};
}

/** Draw the route on ``map`` in a new layer (returned; the caller removes the old one). */
export function drawRoute(map, ans, coords) {
  const {pts, names} = routePoints(ans, coords);
  const layer = L.layerGroup().addTo(map);
  if (!pts.length) return layer;
  if (pts.length > 1) L.polyline(pts, {color: "#c60018", weight: 4, className: "route"}).addTo(layer);
  const markers = pts.map((p, i) => L.circleMarker(p, {radius: 4, color: "#333"})
    .bindTooltip(mapLabel(names[i]), {permanent: true, direction: "right", className: "stop-name"})
    .addTo(layer));
  map.fitBounds(L.latLngBounds(pts).pad(0.25), {animate: false});
  placeLabels(map, markers);
  return layer;
}
