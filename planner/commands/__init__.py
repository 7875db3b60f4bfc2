"""CLI subcommands (thin edges over the core). Each module has ``register(subparsers)``."""
