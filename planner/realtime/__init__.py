"""Real-time data on a fixed game day (GTFS-RT trip updates): ``wire`` decodes the protobuf bytes, ``feed`` reads
a file or URL and checks the message, ``match`` finds the feed's trips in the day's timetable, ``overlay`` applies
delays, cancellations and skipped stops as an overlay that never changes the timetable, ``load`` does all of that
for one game day, and ``live`` keeps one fetched feed fresh for a running server."""
