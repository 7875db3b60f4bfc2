"""Maps for players and organisers: offline web maps (Folium/Leaflet) and the print handout (matplotlib).

* :mod:`planner.maps.assets`: vendored Leaflet and the swiss-maps base layer (``python -m planner.maps.assets``);
* :mod:`planner.maps.layers`: what is drawn, as plain data (shared by both outputs);
* :mod:`planner.maps.web`: area, itinerary and reach maps that need no CDN and no tile server, drawn with
  the Leaflet layers of :mod:`planner.maps.web_layers`;
* :mod:`planner.maps.handout`: A4 PDF and 300 dpi PNG pages in EPSG:2056, its labels placed by
  :mod:`planner.maps.labels`, its rules card by :mod:`planner.maps.rules_card`.
"""
