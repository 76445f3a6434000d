#!/bin/sh
# memfold quickstart: a demo workspace, a few facts, the index, its status, recall, a
# superseded fact, and a reflect that writes an entity page.
# Usage: sh examples/quickstart.sh [WORKSPACE_DIR]   (needs `memfold` on PATH)
set -eu
MEMFOLD_WORKSPACE="${1:-$(mktemp -d)/demo}"
MEMFOLD_NOW="2025-11-30T09:00"       # a fixed "now", so the demo is reproducible
export MEMFOLD_WORKSPACE MEMFOLD_NOW

echo "== memfold init $MEMFOLD_WORKSPACE"
memfold init

echo "== memfold retain (three facts into the 2025-11-27 log)"
memfold retain --date 2025-11-27 \
  "W @Peter: Currently in Marrakech (Nov 27–Dec 1, 2025) for Andy's birthday." \
  "B @warelay: Fixed the Baileys WS crash by wrapping the connection.update handler in try/catch." \
  "O(c=0.95) @Peter: Prefers concise replies (<1500 chars) on WhatsApp; long content goes into files."

echo "== memfold retain (from stdin, into today's log)"
printf '%s\n' \
  "W @warelay: The gateway runs on Node 22 in production." \
  "B @Hà-Nội: Booked the team offsite in Hà Nội for March." | memfold retain

echo "== the daily log, as a person reads it"
cat "$MEMFOLD_WORKSPACE/memory/2025-11-27.md"

echo "== memfold index"
memfold index

echo "== memfold status"
memfold status

echo "== memfold recall \"what does Peter prefer\""
memfold recall "what does Peter prefer" --k 3

echo "== memfold recall \"where was Peter around Nov 28\""
memfold recall "where was Peter around Nov 28" --k 3

echo "== memfold recall \"ha noi offsite\" --json (accents optional; every result cites file#line)"
memfold recall "ha noi offsite" --k 1 --json

echo "== memfold about Peter"
memfold about Peter

echo "== a change of mind: the older fact is superseded, not deleted"
memfold retain "W @warelay: Switched the gateway from Node 22 to Bun in production."
memfold recall "what does the gateway run on" --k 2
memfold recall "what does the gateway run on" --k 2 --all

echo "== memfold reflect: entity pages and opinions, written as reviewable Markdown"
memfold reflect --since 30d
echo "== the entity page it wrote: bank/entities/Peter.md"
cat "$MEMFOLD_WORKSPACE/bank/entities/Peter.md"
