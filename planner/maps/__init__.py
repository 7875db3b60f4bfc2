"""Maps for players and organisers: offline web maps (Folium/Leaflet) and the print handout (matplotlib).

* :mod:`planner.maps.assets`: vendored Leaflet and the swiss-maps base layer (``python -m planner.maps.assets``);
* :mod:`planner.maps.layers`: what is drawn, as plain data (shared by both outputs);
* :mod:`planner.maps.web`: area, itinerary and reach maps that need no CDN and no tile server;
* :mod:`planner.maps.handout`: A4 PDF and 300 dpi PNG pages in EPSG:2056.
"""
