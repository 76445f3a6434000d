"""The SQLite index: `.memory/index.sqlite`, derived from the Markdown and always rebuildable."""
