"""Import: existing memory stores into the workspace (`Memory.import_source`), and the
facts out again for people who leave (`Memory.export_facts`).

The package owns the path from a source to memfold's own verbs: `sources` (what an importer
reads and returns, the reader contract, block ids for foreign ids), `vault` (Obsidian and
basic-memory notes), `facts` (generic JSONL and Mem0), `chats` (the capture engine's
formats), `registry` (the built-ins and the `memfold.importers` plugins, detection),
`pipeline` (one import from start to end), `run` (facts through retain, chats through
capture), `notes` (bank pages and entity pages), `export` (JSONL and Mem0 out) and `facade`
(the methods `Memory` inherits).  Nothing is imported here, so opening `Memory` loads none
of it.

Invariants: importing the same source twice adds nothing; a dry run writes nothing; what
could not be read is listed and the rest imported; every file is written whole.
"""

