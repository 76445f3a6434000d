"""memfold's benchmarks and the seeded corpus generator: commands that print figures, not tests.

A package beside `memfold`, not inside it: it builds on memfold, and memfold imports it only
when `memfold bench` is invoked (the `bench` group in `memfold.cli.main` loads
`memfold_bench.commands`), so the product's import graph never includes it.
"""
