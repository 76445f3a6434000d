"""Reflect: pages, opinions and consolidation planned from the daily facts, and their undo.

`plan` coordinates a run (and `--undo`); `draft` holds the run being planned; its jobs are
`consolidate`, `opinions`, `pages` (entity pages) and `sweep` (and core-memory proposals);
`write` writes the pages as one set; `undo` keeps what `--undo` needs; `text` the words.
"""
