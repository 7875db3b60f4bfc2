/* The first screen: what binds the group now, the one action it most likely needs, and the first leg of the way
   on. Pure: the group's state (and next's answer, the trains answer, the ledger) in, a decision out. */
import {minutesOf} from "./format.js";
import {dueFee} from "./money.js";

/** The one action the group most likely needs at ``now`` (minutes after midnight, the phone's time):
    - ``position`` when the group's day does not know where it is, or its position is stale (it stood at a
      station past the change window's deadline: it must be in a train by now, or somewhere else);
    - ``roll`` when a roll is due (the dice ask for one now, or before the free movement ends);
    - ``fee`` when the ledger's answer lists a fee due (of a stop of its day it reached, not yet paid);
    - ``board`` when the change window binds a standing group (board a train by ``by``);
    none otherwise (seated, or nothing binds: the first screen's "Where are we?" button is there), and once the
    game is over. ``why`` says which case it is. */
export function chooseAction(view, now) {
  const st = view.state && view.state.status;
  if (!st) return {kind: "position", why: "unknown"};
  const ob = st.obligation || {};
  if (ob.kind === "ended") return {kind: null, why: "ended"};
  const pos = st.position;
  if (!pos) return {kind: "position", why: "unknown"};
  // a roll due binds now; a fee stays due until paid, at its stop's time, so it waits for the roll
  if (ob.kind === "roll" || ob.kind === "free") return {kind: "roll", why: ob.kind};
  const fee = dueFee(view);
  if (fee) return {kind: "fee", why: "due", fee};
  const by = !pos.seated && ob.board_by ? minutesOf(ob.board_by) : null;
  if (by !== null && now !== null && by < now) return {kind: "position", why: "stale"};
  if (by !== null) return {kind: "board", why: "window", by: ob.board_by};
  return {kind: null, why: pos.seated ? "seated" : "free"};
}

/** The first leg of the way on: next's itinerary from where the group is now (at the phone's time), else the
    last roll's answer; null without one. */
export function firstLeg(view) {
  const nxt = view.next && view.next.itinerary;
  if (nxt && nxt.legs && nxt.legs.length) return nxt.legs[0];
  const last = view.state && view.state.last;
  return last && last.legs && last.legs.length ? last.legs[0] : null;
}

/** The catchable departures of the trains answer that have not left by ``now`` (minutes after midnight; null: all),
    the first ``n`` (the forced one when nothing leaves in time). */
export function boardable(z, n, now) {
  return ((z && z.departures) || []).filter((d) => d.catchable
    && (now === null || now === undefined || minutesOf(d.departure) === null || minutesOf(d.departure) >= now))
    .slice(0, n);
}

/** Where the group's day has it, in a few words: its train, or the station and since when. */
export function positionText(pos) {
  if (!pos || !pos.station) return null;
  return pos.seated && pos.train ? pos.train : `${pos.station} ${pos.since}`;
}

/** A key of what the answers that depend on the group's place were asked for: its position and latest roll, the
    number of position reports, the real-time data's version. Next's answer and the trains are asked again only
    when it changes (one request per change, not per poll). */
export function placeKey(state) {
  const st = (state && state.status) || {};
  const rolls = st.rolls || [];
  return JSON.stringify([st.position || null, rolls.length ? rolls[rolls.length - 1].seq : null,
    (st.positions || []).length, state && state.realtime ? state.realtime.version : null]);
}
