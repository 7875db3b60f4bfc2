/* Time fields in 24-hour HH:MM in every browser: text fields (an <input type=time> follows the browser's locale
   and shows "01:19 PM" in some), each time normalised as typed ("1240", "12.40" -> "12:40"). */
import {addMinutes, clockOf, normaliseClock} from "./format.js";

/** A time field: its HH:MM, or null when empty; a time that is none is marked invalid (and null). */
export function clockValue(input) {
  const raw = input.value.trim();
  if (!raw) { input.setCustomValidity(""); return null; }
  const c = normaliseClock(raw);
  input.setCustomValidity(c ? "" : "HH:MM");
  input.classList.toggle("invalid", !c);
  return c;
}

/** Normalise a time field when the players leave it ("905" -> "09:05"). */
export function tidyOnChange(input) {
  input.addEventListener("change", () => {
    const c = clockValue(input);
    if (c) input.value = c;
  });
}

/** The time the group's requests carry: the time field, prefilled with the phone's clock, which it follows until
    the players change it to tell a time that has passed; a typed time survives a reload. */
export class PhoneClock {
  /** ``gameDate`` (YYYY-MM-DD): the game's day, on which the phone's clock is the game's (see ``settle``). */
  constructor(input, storeKey, clockNow, gameDate) {
    this.gameDate = gameDate || null;
    this.input = input;
    this.storeKey = storeKey;
    this.clockNow = clockNow || (() => clockOf(new Date()));
    this.edited = false;
    const kept = localStorage.getItem(storeKey);
    if (kept) { input.value = kept; this.edited = true; }
    input.addEventListener("input", () => this.typed(input.value));
    tidyOnChange(input);
  }

  typed(value) {
    this.edited = Boolean(value.trim());
    if (this.edited) localStorage.setItem(this.storeKey, value.trim()); else localStorage.removeItem(this.storeKey);
  }

  /** Back to the phone's clock. */
  follow() {
    this.input.value = "";
    this.typed("");
    return this.now();
  }

  /** After an event was recorded: the field follows the phone's clock again, so that a time typed for one event
      is not kept unseen for the next. Only on the game's day: on another day (a rehearsal) the phone's clock is
      not the game's, and the typed time stays. */
  settle() {
    const d = new Date();
    const today = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
    if (!this.gameDate || today === this.gameDate) this.follow();
  }

  /** ``delta`` minutes earlier or later than the time shown (a time that has passed: "we got off 5 min ago"). */
  shift(delta) {
    const c = addMinutes(this.now() || this.clockNow(), delta);
    this.input.value = c;
    this.typed(c);
    return c;
  }

  /** The time now as the group tells it (HH:MM), or null when the field holds no time. */
  now() {
    if (!this.edited || !this.input.value.trim()) this.input.value = this.clockNow();
    return clockValue(this.input);
  }
}
