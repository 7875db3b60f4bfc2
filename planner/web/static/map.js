/* A Leaflet map on the vendored Swiss base layer (no tile server: it works offline). Leaflet is the one classic
   script of the pages (the global L). */
import {h} from "./dom.js";
import {t} from "./i18n.js";

/** A station's name as a Leaflet tooltip: a DOM node with the name as text (Leaflet puts strings in as HTML). */
export function mapLabel(text) {
  return h("span", {class: "map-label"}, text);
}

/** A map in the element ``id`` with the base layer (country, lakes, cantons) underneath; null without Leaflet. */
export function makeMap(id) {
  if (typeof L === "undefined") return null;
  const map = L.map(id, {zoomControl: false, attributionControl: true}).setView([47.17, 8.5], 10);
  L.control.zoom({zoomInTitle: t("Zoom in"), zoomOutTitle: t("Zoom out")}).addTo(map);
  map.attributionControl.addAttribution(t("Base map: swiss-maps (FSO, swisstopo)"));
  const leaflet = document.createElement("a");  // Leaflet's credit, its English title in the page's language
  leaflet.href = "https://leafletjs.com";
  leaflet.title = t("A JavaScript library for interactive maps");
  leaflet.textContent = "Leaflet";
  map.attributionControl.setPrefix(leaflet.outerHTML);
  // The base layer arrives after the route may have been drawn: its own pane keeps it underneath.
  map.createPane("base").style.zIndex = 250;
  const opts = (style) => ({pane: "base", interactive: false, style});
  fetch("/vendor/basemap.json").then((r) => r.json()).then((base) => {
    L.geoJSON(base.country, opts({color: "#999", weight: 1, fillColor: "#f4f1ea", fillOpacity: 1})).addTo(map);
    L.geoJSON(base.lakes, opts({color: "#9cc3e6", weight: 1, fillColor: "#cfe3f5", fillOpacity: 1})).addTo(map);
    L.geoJSON(base.cantons, opts({color: "#bbb", weight: 0.5, fill: false})).addTo(map);
  }).catch(() => {});
  return map;
}

const LABEL_GAP = 12;  // pixels between a point and its label (Leaflet's tooltip offset and arrow)

/** The side of its point a label of ``width`` pixels goes to so that it stays whole inside a map ``mapWidth``
    pixels wide: right when it fits there, else left when it fits there, else the side with more room. */
export function labelSide(x, width, mapWidth) {
  if (x + LABEL_GAP + width <= mapWidth) return "right";
  if (x - LABEL_GAP - width >= 0) return "left";
  return mapWidth - x >= x ? "right" : "left";
}

/** Put each marker's permanent label on the side of its point where the whole name shows (a name at the map's
    edge was cut: "Blau: Affoltern am All"), again whenever the map moves or zooms. */
const placing = new WeakMap();  // map -> its label handler (one per map: a redraw replaces the last one)

export function placeLabels(map, markers) {
  if (placing.has(map)) map.off("zoomend moveend", placing.get(map));
  const place = () => {
    const width = map.getSize().x;
    for (const m of markers) {
      const tip = m.getTooltip();
      const el = tip && tip.getElement();
      if (!el || !map.hasLayer(m)) continue;
      const x = map.latLngToContainerPoint(m.getLatLng()).x;
      const side = labelSide(x, el.offsetWidth, width);
      if (tip.options.direction !== side) {
        tip.options.direction = side;
        tip.update();
      }
    }
  };
  place();
  placing.set(map, place);
  map.on("zoomend moveend", place);
}
