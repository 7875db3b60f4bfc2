/* The organiser's overview as page elements: every group's cash, capital, position and target, the ranking and
   the free parking, the game's ledger events. Pure: the overview's JSON in, elements out. */
import {h} from "./dom.js";
import {chf} from "./format.js";
import {t} from "./i18n.js";
import {positionText} from "./now.js";

/** Where a group is, in a few words ("-" when unknown). */
export function where(g) {
  return positionText(g.status.position) || "-";
}

/** Where a group is heading: its target and arrival, or its free movement. */
export function heading(g) {
  const last = g.last;
  if (!last) return "-";
  if (last.kind === "free") return t("free until {until}", {until: last.free_until});
  return last.arrival ? `${last.target} ${last.arrival}` : last.target;
}

/** One row per group: name, cash, capital, where, heading for; a group out of the game (§6) says so instead. */
export function groupRows(data) {
  const out = new Set(((data.ranking && data.ranking.ranking) || []).filter((x) => x.out).map((x) => x.group));
  return data.groups.map((g) => h("tr", {class: out.has(g.group.name) ? "voided" : ""},
    h("td", {}, g.group.name), h("td", {class: "num"}, chf(g.cash)), h("td", {class: "num"}, chf(g.capital)),
    h("td", {}, out.has(g.group.name) ? t("out") : where(g)), h("td", {}, out.has(g.group.name) ? "-" : heading(g))));
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

/** The game's latest ledger events, newest first; a tap on one not voided calls ``pick(seq)``. */
export function eventRows(data, pick) {
  const rows = (data.events || []).slice().reverse().map((e) => {
    const tr = h("tr", {class: e.voided ? "voided" : "pick"}, h("td", {}, e.seq), h("td", {}, e.time),
      h("td", {}, h("span", {class: "sms-text"}, e.message), e.voided ? h("small", {}, " ", t("voided")) : null));
    if (!e.voided) tr.addEventListener("click", () => pick(e.seq));
    return tr;
  });
  return rows.length ? rows : [h("tr", {}, h("td", {colspan: "3"}, t("no ledger events yet")))];
}

/** What the organiser's map shows: per group its label ("Rot: Zug") at its station and its target's name there. */
export function mapItems(data, coords) {
  const out = [];
  for (const g of data.groups) {
    const pos = g.status.position;
    const here = pos && coords.get(pos.station);
    const target = g.last && g.last.target;
    const there = target && coords.get(target);
    out.push({group: g.group.name, here: here || null, hereLabel: here ? `${g.group.name}: ${pos.station}` : null,
      there: there || null, thereLabel: there ? target : null});
  }
  return out;
}
