"""Recall: the query read, the index searched, expanded and ranked, and what is current now."""
