/* What a phone keeps for a tunnel, in localStorage under the group's key: its last state (readable offline) and
   the rolls tried offline (sent once, with the same roll id, when the phone is back online). */

export class Kept {
  constructor(key) { this.key = key; }

  /** Keep the state with the time it came. */
  saveState(state) {
    try { localStorage.setItem(this.key + ":state", JSON.stringify({state, at: Date.now()})); } catch { /* full */ }
  }

  /** The kept {state, at} or null. */
  state() {
    try { return JSON.parse(localStorage.getItem(this.key + ":state") || "null"); } catch { return null; }
  }

  /** The rolls waiting to be sent, oldest first. */
  queue() {
    try { return JSON.parse(localStorage.getItem(this.key + ":queue") || "[]"); } catch { return []; }
  }

  setQueue(q) { localStorage.setItem(this.key + ":queue", JSON.stringify(q)); }

  /** Add a roll to the queue. */
  enqueue(body) { this.setQueue([...this.queue(), body]); }

  /** Take the roll with this id off the queue. */
  done(rollId) { this.setQueue(this.queue().filter((b) => b.roll_id !== rollId)); }
}
