"""A small workspace for recall tests, and the citation check every recall test applies.

"Now" is Wednesday 2025-12-03 10:00 (so "yesterday" is 12-02, "since Monday" 12-01..12-03,
"last week" 11-24..11-30).  One file has a byte-order mark, CRLF line ends and front matter,
so citations are checked against lines as an editor numbers them.  No fact is old enough
to decay into the archive, and no stated validity has ended by "now", so every fact is
active whatever the lifecycle rules.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from memfold.values import Hit

NOW = "2025-12-03T10:00:00"

FILES: dict[str, str] = {
    "memory/2025-10-20.md": """# 2025-10-20

## Retain
- W @Peter: Lives in Vienna. ^vienna01
- S @Peter: Tends to work late at night. ^latenite
- W @Anna: Attending the Lisbon residency (Nov 3–Dec 20, 2025). ^lisbon01
- W @Anna: Flew to Oslo for a week of meetings. ^oslo0001
""",
    "memory/2025-11-15.md": """# 2025-11-15

## Retain
- W @Kenji: Lives in 東京 now. ^tokyo001
- O @Anna: 🍣 sushi is the best food 🎉 ^sushi001
- W @Omar: يعيش في القاهرة منذ سنوات ^cairo001
- W: The manual says 'a:b' and NEAR(x y) and C++ -- AND/OR/NOT are keywords; """
    """DROP TABLE facts is SQL. ^syntax01
""",
    "memory/2025-11-20.md": """# 2025-11-20

Coffee tasting notes: the Ethiopian roast was fruity.

## Retain
- W @Anna: Lives in Hà Nội and works remotely. ^hanoi001
- B @Anna: Visited Đà Nẵng for a conference. ^danang01
- O(c=0.6) @Peter: Likes dark roast coffee. ^coffee01
- W @Anna: Plans a cruise in Ha Long Bay. ^halong01
- W @Anna: Met Linh at """ + unicodedata.normalize("NFD", "Hồ Hoàn Kiếm") + """. ^hoankiem
""",
    "memory/2025-11-24.md": (
        "\ufeff---\r\nmood: calm\r\n---\r\n# 2025-11-24\r\n\r\n## Retain\r\n"
        "- W @Hà-Nội: Capital of Vietnam, on the Red River. ^hanoicap\r\n"
        "- B: Reviewed the relay logs with Anna. ^relaylog\r\n"
    ),
    "memory/2025-11-27.md": """# 2025-11-27

Spent the morning debugging the WhatsApp relay. The Baileys socket kept crashing.

## Retain
- W @Peter: Currently in Marrakech (Nov 27–Dec 10, 2025) for Andy's birthday. ^marrak01
- B @warelay: Fixed the Baileys WS crash by wrapping the connection.update handler """
    """in try/catch. ^baileys1
- O(c=0.95) @Peter: Prefers concise replies (<1500 chars) on WhatsApp; long content """
    """goes into files. ^concise1
- W: Replies that are long and not concise get ignored. ^replies1
""",
    "memory/2025-11-28.md": """# 2025-11-28

```
- W: Inside a fence, not a fact: quarantined zebra.
```

## Retain
- W @warelay: Uses SQLite for its state. ^sqlite01
  - W @warelay: The state file lives in the home directory. ^statefil
""",
    "memory/2025-12-01.md": """# 2025-12-01

## Retain
- B @Peter: Booked train tickets to Zürich. ^zurich01
""",
    "memory/2025-12-02.md": """# 2025-12-02

## Retain
- B @warelay: Deployed version 2.3 to production. ^deploy01
- W @warelay: Runs on Node 22.
""",
    "bank/entities/Peter.md": """---
aliases: [Pete, Peter Steinberger]
---
# Peter

Peter is the maintainer of warelay.
""",
}

PETER_FACTS = {"vienna01", "latenite", "coffee01", "marrak01", "concise1", "zurich01"}


def build(root: Path) -> Path:
    """Write the corpus into an initialised workspace at `root`."""
    for rel, text in FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
    return root


def file_lines(root: Path, rel: str) -> list[str]:
    """The file's lines as an editor numbers them (BOM dropped, CR before LF ignored)."""
    text = (root / rel).read_bytes().decode("utf-8").removeprefix("\ufeff")
    return [line.removesuffix("\r") for line in text.split("\n")]


def _fields(hit: Hit | Mapping[str, Any]) -> tuple[str, str, str, str]:
    if isinstance(hit, Hit):
        f = hit.fact
        return f.source, f.content, f.kind, f.id
    return hit["source"], hit["content"], hit["kind"], hit["id"]


def check_sources(root: Path, hits: Iterable[Hit | Mapping[str, Any]]) -> int:
    """Every citation names the file and 1-based line that holds the result *now*: the fact's
    content is on that line (a chunk's first line is); returns how many were checked."""
    n = 0
    for hit in hits:
        source, content, kind, fact_id = _fields(hit)
        path, sep, line = source.rpartition("#L")
        assert sep and line.isdigit(), source
        lines = file_lines(root, path)
        number = int(line)
        assert 1 <= number <= len(lines), (source, len(lines))
        text = lines[number - 1]
        first = content.split("\n")[0].strip()
        assert first, source
        assert first in text, (source, content, text)
        if kind != "text":
            assert text.lstrip()[:2] in ("- ", "* ", "+ "), (source, text)
            if f"^{fact_id}" in "\n".join(lines):
                assert text.rstrip().endswith(f"^{fact_id}"), (source, fact_id, text)
        n += 1
    return n
