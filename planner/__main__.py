"""Allow ``python -m planner``."""

from planner.cli import main

raise SystemExit(main())
