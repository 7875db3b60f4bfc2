/* Money and time as the pages write them: one place for each. */

/** An amount in francs as the Swiss write it (18'500); nothing known is "-". */
export function chf(n) {
  return n === null || n === undefined ? "-" : Number(n).toLocaleString("de-CH");
}

/** "HH:MM" of a Date, 24-hour whatever the browser's locale. */
export function clockOf(date) {
  return `${String(date.getHours()).padStart(2, "0")}:${String(date.getMinutes()).padStart(2, "0")}`;
}

/** The phone's clock now, "HH:MM". */
export function nowClock() {
  return clockOf(new Date());
}

/** A time as players type it ("9:05", "09.05", "0905", "905", "13h05") as "HH:MM", or null when it is none. */
export function normaliseClock(text) {
  const s = String(text || "").trim();
  const m = /^(\d{1,2})\s*[:.h]\s*(\d{2})$/.exec(s) || /^(\d{1,2})(\d{2})$/.exec(s);
  if (!m) return null;
  const hours = Number(m[1]);
  const minutes = Number(m[2]);
  if (hours > 23 || minutes > 59) return null;
  return `${String(hours).padStart(2, "0")}:${m[2]}`;
}

/** Minutes after midnight of "HH:MM" (null when it is not a time). */
export function minutesOf(clock) {
  const c = normaliseClock(clock);
  return c === null ? null : Number(c.slice(0, 2)) * 60 + Number(c.slice(3));
}

/** "HH:MM" ``delta`` minutes later (earlier when negative), within the day (00:00-23:59). */
export function addMinutes(clock, delta) {
  const m = minutesOf(clock);
  if (m === null) return null;
  const t = Math.min(23 * 60 + 59, Math.max(0, m + delta));
  return `${String(Math.floor(t / 60)).padStart(2, "0")}:${String(t % 60).padStart(2, "0")}`;
}

/** A distance for people: "80 m", "1.2 km". */
export function distanceText(metres) {
  if (metres === null || metres === undefined) return "-";
  return metres < 1000 ? `${Math.round(metres)} m` : `${(metres / 1000).toFixed(1)} km`;
}
