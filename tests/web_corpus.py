"""A small workspace for the web view's tests: a superseded fact, an opinion whose confidence
moved three times, an expired, an archived and a fading fact, and a hostile one."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from memfold import Memory

NOW = "2025-11-30"
HOSTILE = "Pays to <script>window.__pwned = 1</script> a\u202eb ledger."


@dataclass(frozen=True)
class Planted:
    vienna: str
    berlin: str
    walks: str
    walk_support: str
    walk_contradict: str
    lisbon: str
    archived: str
    fading: str
    hostile: str
    tea: str
    coffee: str


def retain(root: Path, day: str, *bullets: str, reflect: bool = False) -> list[str]:
    with Memory.open(root, now=day) as memory:
        ids = [f.id for f in memory.retain(list(bullets), date=day).facts]
        if reflect:
            memory.reflect(since="1d")
    return ids


def plant(root: Path) -> Planted:
    """Fill the workspace at `root` (initialised) as of NOW; explicit ids keep pages (and
    their screenshots) the same from run to run."""
    [archived] = retain(root, "2025-09-01",
                        "B @warelay: Investigated the flaky CI runner. ^ciflaky1")
    [fading] = retain(root, "2025-10-10",
                      "B @warelay: Debugging the Baileys reconnect loop. ^baileys1")
    [walks] = retain(root, "2025-11-01", "O(c=0.6) @Peter: Likes long walks outside. ^walks001")
    [support] = retain(root, "2025-11-05",
                       "B @Peter: Went on long walks outside all weekend. ^walks002",
                       reflect=True)
    [contradict] = retain(root, "2025-11-10",
                          "B @Peter: Said he does not like long walks outside. ^walks003",
                          reflect=True)
    retain(root, "2025-11-15", "B @Peter: Again said he doesn't like long walks outside. "
           "^walks004", reflect=True)
    vienna, tea, lisbon = retain(
        root, "2025-11-20", "W @Peter: Lives in Vienna. ^vienna01",
        "O(c=0.8) @Anna: Prefers green tea. ^greentea",
        "W(until=2025-11-22) @Peter: Visiting Lisbon for the conference. ^lisbon01")
    berlin, coffee, hostile = retain(
        root, "2025-11-25", "W @Peter: Moved to Berlin. ^berlin01",
        "O(c=0.7) @Anna: Prefers black coffee. ^coffee01", f"W @Mallory: {HOSTILE} ^mallory1")
    return Planted(vienna=vienna, berlin=berlin, walks=walks, walk_support=support,
                   walk_contradict=contradict, lisbon=lisbon, archived=archived, fading=fading,
                   hostile=hostile, tea=tea, coffee=coffee)
