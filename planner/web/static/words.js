/* The page's sentences about answers, in one place: what binds the group comes worded by the server (its
   obligation's text); the others are whole sentences of the catalog, one per case, never assembled from pieces. */
import {t, tn} from "./i18n.js";
import {chf} from "./format.js";

/** A text as the server words it (lower case, as inside a line) made a headline: a capital first letter. */
export function headline(text) {
  return text ? text.charAt(0).toLocaleUpperCase() + text.slice(1) : "";
}

/** A rule's text as the server words it made a sentence of its own: a capital first letter and a full stop. */
export function sentence(text) {
  const s = headline(text);
  return !s || /[.!?:]$/.test(s) ? s : `${s}.`;
}

/** What binds the group now, worded by the server in the page's language (planner/service/read/rule_words.py). */
export function obligationText(ob) {
  if (!ob || !ob.text) return null;
  return headline(typeof ob.text === "string" ? ob.text : ob.text.text);
}

/** A roll's answer in one sentence. */
export function answerText(ans) {
  if (ans.kind === "free") {  // (a roll stored before answers carried the rule's words: the history's label)
    return sentence(ans.free ? ans.free.text : t("free until {until}", {until: ans.free_until}));
  }
  if (ans.already_there) return t("Target {target}: you are there.", {target: ans.target});
  if (!ans.arrival) return t("Target {target}: not reachable from here today.", {target: ans.target});
  const at = {target: ans.target, departure: ans.departure, arrival: ans.arrival};
  if (!ans.changes) return t("Go to {target}: leave {departure}, arrive {arrival}, no change.", at);
  return tn("Go to {target}: leave {departure}, arrive {arrival}, {n} change.",
    "Go to {target}: leave {departure}, arrive {arrival}, {n} changes.", ans.changes, at);
}

/** The notes under an answer: full-hour bonus chances, toll lines and tunnels with their owners, the fees on
    the way, the server's warnings. */
export function answerNotes(ans) {
  const notes = [];
  for (const b of ans.bonus || []) {
    // the event is a key ("arrival", "departure"): one whole sentence each
    const params = {station: b.station, time: b.time, fee: b.fee};
    notes.push(b.event === "departure" ? t("full-hour bonus: departure from {station} {time} (fee {fee})", params)
      : t("full-hour bonus: arrival at {station} {time} (fee {fee})", params));
  }
  for (const c of ans.crossings || []) {
    const tunnel = c.kind === "tunnel";
    if (c.owner) {
      notes.push(tunnel ? t("tunnel: {name} (owner {owner})", c) : t("toll line: {name} (owner {owner})", c));
    } else {
      notes.push(tunnel ? t("tunnel: {name}", c) : t("toll line: {name}", c));
    }
  }
  if (ans.fees && ans.fees.length) notes.push(t("fees on the way: {total} in all (see Money)", {total: ans.fees_total}));
  for (const w of ans.warnings || []) notes.push(t("note: {warning}", {warning: w}));
  return notes;
}

/** Why another target of the rolled number was not chosen. */
export function candidateNote(c) {
  if (c.targeted) return t("targeted before");
  if (!c.available) return t("not served today");
  return c.arrival ? t("arrival {arrival}", {arrival: c.arrival}) : t("not reachable");
}

/** A way's changes (variant B's admissible ways). */
export function changesText(n, fastest) {
  if (!n) return fastest ? t("no change (fastest)") : t("no change");
  return fastest ? tn("{n} change (fastest)", "{n} changes (fastest)", n) : tn("{n} change", "{n} changes", n);
}

/** The change window's rule where the group is (the trains answer, planner zugzwang), as the server words it. */
export function trainsRuleText(z) {
  return sentence(z.text && z.text.text);
}

/** The board-by time of the trains answer when the group's day gives none. */
export function deadlineText(z) {
  return z.forced_next ? t("{deadline} (no train by then: take the next one)", {deadline: z.deadline}) : z.deadline;
}

/** The board-by line of a seated group. */
export function seatedText() {
  return t("seated: the clock starts when you get off");
}

/** The banner of ``serve --realtime`` when its data is missing, stale or failed ("" when fine). */
export function realtimeBanner(rt) {
  const minutes = rt.age_s === null || rt.age_s === undefined ? null : Math.round(rt.age_s / 60);
  if (!rt.available) {
    return rt.error ? t("No real-time data ({error}): timetable times only.", {error: rt.error})
      : t("No real-time data: timetable times only.");
  }
  if (rt.stale) {
    return minutes === null ? t("Real-time data is of unknown age: delays may have changed.")
      : t("Real-time data is {minutes} min old: delays may have changed.", {minutes});
  }
  if (rt.error) return t("Real-time data {minutes} min old (last fetch failed: {error}).", {minutes, error: rt.error});
  return "";
}

/** The way on re-planned on real times (planner next), with the jail when a train is late. */
export function liveText(nx) {
  const it = nx.itinerary;
  const advice = `${nx.advice}.`;
  if (!it.jail) return advice;
  return `${advice} ${sentence(it.jail.text && it.jail.text.text)}`;
}

/** The group's money in a few sentences: cash and capital, letter groups, what §10 and §6 ask of it now. */
export function moneyNotes(d) {
  const notes = [t("Cash {cash}, capital {capital}.", {cash: chf(d.cash), capital: chf(d.capital)})];
  if (d.letter_groups.length) {
    notes.push(t("Letter groups: {groups}.", {groups: d.letter_groups.map((g) => g.join(", ")).join("; ")}));
  }
  if (d.redeem_due.length) notes.push(t("Redeem now (§10): {names}.", {names: d.redeem_due.join(", ")}));
  if (d.must_mortgage) notes.push(t("Cash below zero: mortgage something."));
  if (d.out) notes.push(t("Out of the game (§6)."));
  return notes.join(" ");
}

/** A history row's result. */
export function rollResult(r) {
  return r.kind === "free" ? t("free until {until}", {until: r.free_until}) : r.target;
}

/** The question undo asks first, naming the latest entry (a roll or a position report), or null. In the same
    minute the server takes the one recorded last, which the state does not say: the roll is taken (a group
    reports, then rolls), and the answer of the undo names what was removed. */
export function undoQuestion(status) {
  const rolls = (status && status.rolls) || [];
  const positions = (status && status.positions) || [];
  const r = rolls.length ? rolls[rolls.length - 1] : null;
  const p = positions.reduce((a, b) => (!a || b.time >= a.time ? b : a), null);
  if (p && (!r || p.time > r.time)) {
    return t("Remove the position report \"{label}\" at {time}? Every phone of the group and the command line will no longer have it.",
      // a station's report in the page's language (its stored label is the command's English "at ..."); a train's
      // is the train's own name
      {label: p.trip_id ? (p.label || p.station) : t("at {station}", {station: p.station}), time: p.time});
  }
  if (r) {
    return t("Remove roll #{seq} ({dice} at {time}: {result})? Every phone of the group and the command line will no longer have it.",
      {seq: r.seq, dice: r.dice, time: r.time, result: r.kind === "free" ? t("free movement") : r.target});
  }
  return null;
}
