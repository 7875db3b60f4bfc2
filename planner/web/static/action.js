/* The first screen's action slot: the one action the group most likely needs (now.js decides which) with its form
   or its list (a fee due with its pay button, the trains to board). Redrawn only when the action changes, and not
   while the players type in it or have just touched it. */
import {byId, h} from "./dom.js";
import {minutesOf} from "./format.js";
import {t} from "./i18n.js";
import {boardable, chooseAction, firstLeg} from "./now.js";

const HOLD_MS = 6000;  // a form the players just touched stays where it is this long (it does not jump away)

/** Wire the slot: ``view`` holds the latest answers, ``now()`` the group's time (HH:MM), ``money`` the Money
    section (its fee item and paid key). */
export function setUpAction({view, now, money}) {
  let shown = null;  // what the slot shows (redrawn only when it changes)
  let holdUntil = 0;
  const hold = () => { holdUntil = Date.now() + HOLD_MS; };
  for (const id of ["action", "where-box", "roll-box"]) {
    for (const type of ["pointerdown", "keydown", "input"]) byId(id).addEventListener(type, hold);
  }

  function render() {
    const minute = minutesOf(now());
    const action = chooseAction(view, minute);
    const trains = action.kind === "board" ? boardable(view.trains, 3, minute) : [];
    const key = JSON.stringify([action.kind, action.fee || null, action.by || null, trains.map((d) => d.trip_id),
      action.kind === "fee" ? money.paidKey() : null]);
    if (key === shown) return;
    const slot = byId("action");
    const focus = document.activeElement;
    const typing = focus && focus.matches("input, select, textarea") && focus.closest("#action, #where-box, #roll-box");
    if (shown !== null && (typing || Date.now() < holdUntil)) return;
    shown = key;
    const forms = {roll: [byId("roll-form"), byId("home-roll"), byId("roll-box")],
      position: [byId("position-form"), byId("home-position"), byId("where-box")]};
    for (const [kind, [form, home, box]] of Object.entries(forms)) {
      if (kind === action.kind) { slot.append(form); box.hidden = true; } else { home.append(form); box.hidden = false; }
    }
    for (const el of [...slot.children]) if (!Object.values(forms).some(([f]) => f === el)) el.remove();
    byId("fact-deadline").classList.toggle("in-action", action.kind === "board");
    slot.dataset.action = action.kind || "none";
    if (action.kind === "fee") {
      slot.append(h("div", {class: "due-fee"}, h("p", {class: "action-title"}, t("A fee is due here")),
        h("ul", {id: "due-fee"}, money.feeItem(action.fee))));
    } else if (action.kind === "board") {
      const plan = firstLeg(view);  // the train of the way on, marked among those the window allows
      slot.append(h("div", {class: "board"}, h("p", {class: "action-title"},
        t("Board a train by {time}", {time: action.by})), h("table", {id: "board-trains", class: "compact"},
        h("tbody", {}, trains.map((d) => h("tr", {class: plan && d.trip_id === plan.trip_id ? "plan" : ""},
          h("td", {}, h("b", {}, d.departure)), h("td", {}, d.route), h("td", {}, d.headsign || ""),
          h("td", {}, d.platform ? t("Gl. {platform}", {platform: d.platform}) : "")))))));
    }
  }

  /** After a form was sent: the slot may move at once. */
  const release = () => { holdUntil = 0; };
  return {render, release};
}
