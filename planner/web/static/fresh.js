/* Fresh answers at few bytes: the page asks its answers again only when they can have changed, never on a timer
   alone. (1) Anything of the game changed (a roll, a report, a ledger event on any phone or the command line): a
   long poll of the game's change mark, answered by the server at once on a change, else after 50 s (one small
   request a minute while nothing happens). (2) The clock reached the minute the ledger's answer names as its next
   change (``next_change``: the next stop of the group's day, a departure, the jail's end, the full hour), or moved
   back before the minute asked for. The answers carry an ETag: asked again unchanged, they cost a 304. */
import {api} from "./api.js";

export const RETRY_MS = 5000;  // after a failed long poll (offline), the next try

/** Whether the page must ask again at ``now`` (minutes after midnight): never asked, the clock moved back before
    ``asked`` (the minute the answers are for), or reached ``next``, the answers' next change after ``asked`` (null:
    none; one not after ``asked`` is an older answer's, already asked for). */
export function askAgain(now, asked, next) {
  if (now === null || now === undefined) return false;
  if (asked === null || asked === undefined) return true;
  return now < asked || (next !== null && next !== undefined && next > asked && now >= next);
}

/** Watch the game's change mark (``/api/games/{game}/changes``) and call ``changed()`` each time it moves; keeps
    going until the page closes (a failure waits ``RETRY_MS`` and tries again). */
export async function watchChanges(game, changed, sleep) {
  const pause = sleep || ((ms) => new Promise((r) => { setTimeout(r, ms); }));
  let mark = null;
  let lost = false;  // the last try failed (offline): back online, the page asks again whatever the mark says
  for (;;) {
    try {
      const q = mark === null ? "" : `?since=${encodeURIComponent(mark)}`;
      const out = await api(`/api/games/${encodeURIComponent(game)}/changes${q}`);
      const moved = (mark !== null && out.changes !== mark) || lost;
      mark = out.changes;
      lost = false;
      if (moved) await changed();
    } catch {
      lost = true;
      await pause(RETRY_MS);
    }
  }
}

/** Every ``ms``: ``refresh()`` when the clock (``minute()``) reaches the answers' next change (``next()``) after
    the minute they were asked for (``asked()``), see ``askAgain``; else ``redraw()`` once a minute (what binds the
    group, the trains still to board, as the clock moves). */
export function watchClock({minute, asked, next, refresh, redraw}, ms) {
  let shown = null;
  return setInterval(() => {
    const m = minute();
    if (askAgain(m, asked(), next())) refresh(); else if (m !== shown) redraw();
    shown = m;
  }, ms);
}
