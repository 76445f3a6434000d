"""Lifecycle decisions: the ledger that writes them, the judges that make them, the review queue."""
