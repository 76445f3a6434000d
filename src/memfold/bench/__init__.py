"""Benchmarks and the seeded corpus generator: commands that print figures, not tests."""
