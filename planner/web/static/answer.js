/* The group page's answers: a roll's target and itinerary (with the other candidates, variant B's admissible
   ways and the map with station names), and the trains the change window lets the group take next.
   Uses common.js and, at call time, group.js's BASE, GAME and the map variables. */
"use strict";

let map = null;
let routeLayer = null;
let shownSeq = null;

function legRow(l) {
  return h("tr", {},
    h("td", {}, l.route, h("br"), h("small", {}, l.headsign || "")),
    h("td", {}, l.from, l.from_platform ? h("small", {}, ` Gl. ${l.from_platform}`) : null),
    h("td", {}, l.departure),
    h("td", {}, l.to, l.to_platform ? h("small", {}, ` Gl. ${l.to_platform}`) : null),
    h("td", {}, l.arrival));
}

function answerText(ans) {
  if (ans.kind === "free") return `Free movement until ${ans.free_until}.`;
  if (ans.already_there) return `Target ${ans.target}: you are there.`;
  if (!ans.arrival) return `Target ${ans.target}: not reachable from here today.`;
  return `Go to ${ans.target}: leave ${ans.departure}, arrive ${ans.arrival}, ${ans.changes} change(s).`;
}

function renderAnswer(ans) {
  shownSeq = ans.seq;
  document.getElementById("answer").hidden = false;
  setText("answer-roll", `roll ${ans.roll} at ${ans.time} (#${ans.seq})`);
  document.getElementById("answer-text").textContent = answerText(ans);
  document.querySelector("#legs tbody").replaceChildren(...(ans.legs || []).map(legRow));
  changeDeadlines(ans);
  const extras = [];
  for (const b of ans.bonus || []) extras.push(`full-hour bonus: ${b.event} at ${b.station} ${b.time} (fee ${b.fee})`);
  for (const c of ans.crossings || []) {
    extras.push(`${c.kind === "tunnel" ? "tunnel" : "toll line"}: ${c.name}${c.owner ? " (owner " + c.owner + ")" : ""}`);
  }
  if (ans.fees && ans.fees.length) extras.push(`fees on the way: ${ans.fees_total} in all (see Money)`);
  for (const w of ans.warnings || []) extras.push(`note: ${w}`);
  document.getElementById("extras").replaceChildren(...extras.map((t) => h("li", {}, t)));
  renderCandidates(ans);
  renderAdmissible(ans);
  drawRoute(ans);
}

/* The other targets of the rolled number: their arrivals, which were targeted before, which are not served. */
function renderCandidates(ans) {
  const others = (ans.candidates || []).filter((c) => c.name !== ans.target);
  document.getElementById("candidates-box").hidden = !others.length;
  document.getElementById("candidates").replaceChildren(...others.map((c) => h("li", {
    class: c.available ? "" : "unavailable"}, c.name, " ",
  h("small", {}, c.targeted ? "targeted before" : !c.available ? "not served today" : c.arrival ? `arrival ${c.arrival}`
    : "not reachable"))));
}

/* Variant B: every way at most N minutes longer than the fastest is allowed (the fastest marked). */
function renderAdmissible(ans) {
  const ways = ans.admissible || [];
  document.getElementById("admissible-box").hidden = !ways.length;
  setText("admissible-minutes", document.body.dataset.extra || "20");
  document.getElementById("admissible").replaceChildren(...ways.map((w) => {
    const reached = w.reached || w.arrival;  // a toll line or tunnel: when the train has passed it
    const fastest = w.departure === ans.departure && reached === ans.arrival;
    const via = (w.legs || []).map((l) => `${l.route} ${l.departure} ${l.from} → ${l.to} ${l.arrival}`).join(", ");
    return h("li", {class: fastest ? "fastest" : ""}, h("b", {}, `${w.departure} → ${reached}`),
      ` ${w.changes} change(s)${fastest ? " (fastest)" : ""}`, h("br"), h("small", {}, via));
  }));
}

/* The 29-minute rule at each change: what the trains endpoint (planner zugzwang) answers for getting off there. */
async function changeDeadlines(ans) {
  const legs = ans.legs || [];
  const rows = document.querySelectorAll("#legs tbody tr");
  for (let i = 0; i < legs.length - 1; i++) {
    const l = legs[i];
    if (l.trip_id && legs[i + 1].trip_id === l.trip_id) continue;  // staying seated: no change there
    const q = new URLSearchParams({at: l.to, time: l.arrival});
    if (l.trip_id) q.set("trip", l.trip_id);
    let z;
    try { z = await api(`${BASE}/trains?${q}`); } catch (e) {
      if (!(e instanceof OfflineCopy)) continue;
      z = e.data;
    }
    if (rows[i] && z.deadline) {
      rows[i].lastElementChild.append(h("br"), h("small", {class: "deadline"}, `next train by ${z.deadline}`));
    }
  }
}

async function drawRoute(ans) {
  if (!map) map = makeMap("map");
  if (!map) return;
  let coords;
  try { coords = await stations(GAME); } catch (e) { return; }
  const pts = [];
  const names = [];
  for (const l of ans.legs || []) {
    for (const name of [l.from, l.to]) {
      const c = coords.get(name);
      if (c && !(pts.length && pts[pts.length - 1] === c)) { pts.push(c); names.push(name); }
    }
  }
  if (!pts.length && ans.from && coords.get(ans.from)) { pts.push(coords.get(ans.from)); names.push(ans.from); }
  if (routeLayer) routeLayer.remove();
  routeLayer = L.layerGroup().addTo(map);
  if (pts.length) {
    if (pts.length > 1) L.polyline(pts, {color: "#c60018", weight: 4, className: "route"}).addTo(routeLayer);
    pts.forEach((p, i) => L.circleMarker(p, {radius: 4, color: "#333"})
      .bindTooltip(mapLabel(names[i]), {permanent: true, direction: i % 2 ? "left" : "right", className: "stop-name"})
      .addTo(routeLayer));
    map.fitBounds(L.latLngBounds(pts).pad(0.25));
  }
}

/* The trains the change window lets the group take next (planner zugzwang from its position): the forced one
   marked, those leaving before the change time greyed. */
function renderTrains(z) {
  const rule = document.getElementById("trains-rule");
  if (!z) { rule.replaceChildren(h("small", {}, "Set the position to see them.")); return; }
  let text;
  if (z.seated && z.station) text = `Seated: nothing binds until you get off. Getting off at ${z.station}:`;
  else text = `At ${z.station || "-"}${z.got_off ? " since " + z.got_off : ""}:`;
  if (!z.applies) text += (z.departures || []).length ? " no change window in this game, any train; the next ones:"
    : " no change window in this game, any train (none leaves in the next half hour).";
  else if (z.forced_next) text += ` no train by ${z.deadline}: you must take the first one after (marked).`;
  else text += ` ${z.rule || "change window"}, board by ${z.deadline}.`;
  rule.textContent = text;
  document.querySelector("#trains tbody").replaceChildren(...(z.departures || []).map((d) => {
    const forced = z.forced_next && d.catchable;
    return h("tr", {class: !d.catchable ? "too-soon" : forced ? "forced" : ""},
      h("td", {}, d.departure), h("td", {}, d.route, forced ? h("b", {class: "tag"}, " forced") : null,
        !d.catchable ? h("small", {}, " too soon") : null),
      h("td", {}, d.headsign || ""), h("td", {}, d.platform || ""));
  }));
}
