"""Reflect: pages, opinions and consolidation planned from the daily facts, and their undo."""
