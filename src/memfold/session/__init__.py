"""What an agent sees in every session: core memory's blocks and the session-start context."""
