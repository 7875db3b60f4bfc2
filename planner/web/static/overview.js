/* The organiser's overview as page elements: every group's cash, capital, position and target, the ranking and
   the free parking, the game's ledger events. Pure: the overview's JSON in, elements out. */
import {h} from "./dom.js";
import {chf, minutesOf} from "./format.js";
import {t} from "./i18n.js";
import {positionText} from "./now.js";

/** Where a group is, in a few words ("-" when unknown). */
export function where(g) {
  return positionText(g.status.position) || "-";
}

/** How long ago a group said where it is, at ``now`` (minutes after midnight): "5 min ago", "5 h 5 min ago";
    null without a time, or when the time lies after ``now`` (a time told ahead, or another day's page). */
export function age(g, now) {
  const pos = g.status.position;
  const since = pos && minutesOf(pos.since);
  if (since === null || since === undefined || now === null || now === undefined || now < since) return null;
  const m = now - since;
  return m < 60 ? t("{minutes} min ago", {minutes: m})
    : t("{hours} h {minutes} min ago", {hours: Math.floor(m / 60), minutes: m % 60});
}

/** The groups that are out (§6), by name. */
function outGroups(data) {
  return new Set(((data.ranking && data.ranking.ranking) || []).filter((x) => x.out).map((x) => x.group));
}

/** Where a group is heading: its target and arrival, or its free movement; an out group heads nowhere. */
export function heading(g, out = false) {
  if (out) return t("out");
  const last = g.last;
  if (!last) return "-";
  if (last.kind === "free") return t("free until {until}", {until: last.free_until});
  return last.arrival ? `${last.target} ${last.arrival}` : last.target;
}

/** One row per group: name, cash, capital, where (and how long ago it said so, at ``now``), heading for. */
export function groupRows(data, now = null) {
  const out = outGroups(data);
  return data.groups.map((g) => {
    const ago = age(g, now);
    return h("tr", {class: out.has(g.group.name) ? "voided" : ""},
      h("td", {}, g.group.name), h("td", {class: "num"}, chf(g.cash)), h("td", {class: "num"}, chf(g.capital)),
      h("td", {class: "where"}, where(g), ago ? h("small", {class: "age"}, " ", ago) : null),
      h("td", {class: "where"}, heading(g, out.has(g.group.name))));
  });
}

/** The ranking (§5: capital, out groups last). */
export function rankingRows(data) {
  return data.ranking.ranking.map((x) => h("tr", {class: x.out ? "voided" : ""},
    h("td", {}, x.out ? t("out") : x.rank), h("td", {}, x.group), h("td", {class: "num"}, chf(x.cash)),
    h("td", {class: "num"}, chf(x.capital))));
}

/** The free parking and who leads. */
export function parkingText(data) {
  const r = data.ranking;
  return r.winner ? t("Free parking: {amount}. Leading: {group}.", {amount: chf(r.parking), group: r.winner})
    : t("Free parking: {amount}.", {amount: chf(r.parking)});
}

/** The card a ``play`` event played, paired with the ``draw`` event that drew it (same group and card, the latest
    draw before it): a map of play's seq to draw's event. */
function drawsPlayed(events) {
  const paired = new Map();
  const used = new Set();
  for (const e of events) {
    if (e.kind !== "play" || e.voided || !e.card) continue;
    const d = events.filter((x) => x.kind === "draw" && !x.voided && x.group === e.group && x.card === e.card &&
      x.seq < e.seq && !used.has(x.seq)).pop();
    if (d) { paired.set(e.seq, d); used.add(d.seq); }
  }
  return paired;
}

/** The game's latest ledger events, newest first; a tap on one not voided calls ``pick(seq)``. A card drawn and
    later played is one row (its numbers, the draw's message, when it was played); a tap on it picks the play. */
export function eventRows(data, pick) {
  const events = data.events || [];
  const paired = drawsPlayed(events);
  const merged = new Set([...paired.values()].map((d) => d.seq));
  const rows = events.slice().reverse().filter((e) => !merged.has(e.seq)).map((e) => {
    const d = paired.get(e.seq);
    const tr = d
      ? h("tr", {class: "pick"}, h("td", {}, `${d.seq}, ${e.seq}`), h("td", {}, d.time),
        h("td", {}, h("span", {class: "sms-text"}, d.message), h("small", {}, " ", t("played at {time}", {time: e.time}))))
      : h("tr", {class: e.voided ? "voided" : "pick"}, h("td", {}, e.seq), h("td", {}, e.time),
        h("td", {}, h("span", {class: "sms-text"}, e.message), e.voided ? h("small", {}, " ", t("voided")) : null));
    if (!e.voided) tr.addEventListener("click", () => pick(e.seq));
    return tr;
  });
  return rows.length ? rows : [h("tr", {}, h("td", {colspan: "3"}, t("no ledger events yet")))];
}

/** What the organiser's map shows: per group its label ("Rot: Zug") at its station and its target's name there
    (none for a group that is out). */
export function mapItems(data, coords) {
  const out = [];
  const gone = outGroups(data);
  for (const g of data.groups) {
    const pos = g.status.position;
    const here = pos && coords.get(pos.station);
    const target = !gone.has(g.group.name) && g.last && g.last.target;  // an out group is on no way
    const there = target && coords.get(target);
    out.push({group: g.group.name, here: here || null, hereLabel: here ? `${g.group.name}: ${pos.station}` : null,
      there: there || null, thereLabel: there ? target : null});
  }
  return out;
}
