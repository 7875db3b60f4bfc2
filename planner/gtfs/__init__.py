"""Feed ingest edge: read the Swiss GTFS feed (zip, folder or URL), prune it while reading."""
