/* "Where are we?" in one tap: with the players' consent (the browser asks once), the phone's location goes to the
   game's own server in one request (never kept on the phone or the server), which proposes the station the group
   is at or the train it is in; one more tap confirms it as the group's position. */
import {ApiError, api} from "./api.js";
import {h} from "./dom.js";
import {distanceText} from "./format.js";
import {t} from "./i18n.js";

/** The proposal of the server's answer with its confirm and dismiss buttons (``confirm(body)``: the position
    request's body; ``dismiss()``), or the sentence that nothing of the game is near. */
export function proposalView(ans, confirm, dismiss) {
  let question;
  let body;
  if (ans.proposal === "station") {
    question = t("Are you at {station}? ({distance} from here)",
      {station: ans.station.name, distance: distanceText(ans.station.distance_m)});
    body = {at: ans.station.name, time: ans.time};
  } else if (ans.proposal === "train") {
    question = t("Are you in the {train}? Next stop {stop} {time}.",
      {train: ans.train.name, stop: ans.train.next_stop, time: ans.train.next_time});
    body = {trip: ans.train.trip, time: ans.time};
  } else {
    return h("p", {class: "proposal none"}, t("No station and no train of the game near you (nearest station: {station}, {distance}).",
      {station: ans.nearest.name, distance: distanceText(ans.nearest.distance_m)}));
  }
  const yes = h("button", {type: "button", id: "proposal-yes"}, ans.proposal === "station"
    ? t("Yes, we are at {station}", {station: ans.station.name}) : t("Yes, we are in this train"));
  const no = h("button", {type: "button", id: "proposal-no", class: "quiet"}, t("No"));
  yes.addEventListener("click", () => { yes.disabled = true; confirm(body); });
  no.addEventListener("click", () => dismiss());
  return h("div", {class: "proposal"}, h("p", {id: "proposal-text"}, question), h("p", {class: "buttons"}, yes, " ", no));
}

function geolocationRefusal(err) {
  return err && err.code === 1 ? t("The phone did not give its location: type the station or the train.")
    : t("The phone could not tell where it is: type the station or the train.");
}

/** The phone's location (a promise of {lat, lon}), asked only now, after a tap. */
export function phoneLocation(geolocation) {
  return new Promise((resolve, reject) => {
    if (!geolocation) { reject(new Error("no geolocation")); return; }
    geolocation.getCurrentPosition(
      (p) => resolve({lat: p.coords.latitude, lon: p.coords.longitude}),
      reject, {enableHighAccuracy: true, timeout: 20000, maximumAge: 30000});
  });
}

/** Wire the "Where are we?" button: ``base`` the group's API path, ``box`` where the proposal shows, ``time()``
    the group's time now, ``extra()`` more fields of the position request (since), ``done(result)`` after the
    position is set, ``say(text, isError)`` the status line. */
export function whereAreWe({button, box, base, time, extra, done, say}) {
  const close = () => { box.replaceChildren(); box.hidden = true; };
  const confirm = async (body) => {
    try {
      const st = await api(base + "/position", "POST", {...body, ...extra(body)});
      close();
      done(st);
    } catch (e) {
      say(e instanceof ApiError ? e.message : t("No connection: the position was not sent."), true);
      close();
    }
  };
  button.addEventListener("click", async () => {
    const now = time();
    if (!now) { say(t("Type the time as HH:MM (24-hour)."), true); return; }
    box.hidden = false;
    box.replaceChildren(h("p", {}, t("Asking the phone where it is...")));
    let place;
    try {
      place = await phoneLocation(navigator.geolocation);
    } catch (err) {
      box.replaceChildren(h("p", {class: "proposal none"}, geolocationRefusal(err)));
      return;
    }
    try {
      const ans = await api(base + "/whereabouts", "POST", {lat: place.lat, lon: place.lon, time: now});
      box.replaceChildren(proposalView(ans, confirm, close));
    } catch (e) {
      box.replaceChildren(h("p", {class: "proposal none error"},
        e instanceof ApiError ? e.message : t("No connection: ask again when the phone is online.")));
    }
  });
}
