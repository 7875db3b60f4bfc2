"""Game files (data, below the feed ingest): the declared schema, the parsed game, the area's geometry."""
