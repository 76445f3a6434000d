"""Scanners over text: likely secrets (shapes, typed phrases, values) and hidden text."""
