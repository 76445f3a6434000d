"""The journal: the append-only log, its typed events, and the lifecycle state folded from them."""
