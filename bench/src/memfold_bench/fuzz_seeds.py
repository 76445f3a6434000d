"""The built-in seed corpus and dictionary of `memfold bench fuzz`, generated here in code.

Seeds are what the fuzzer mutates first: real-looking day files, bank and entity pages, core
memory, queries, time specs and tool arguments, each behind the selector byte its target
reads first (see `memfold_bench.fuzz_targets`).  The dictionary holds the tokens memfold's
grammar is made of, which random mutation would rarely spell.
"""

from __future__ import annotations

import json
from datetime import date
from typing import Any

DAY = "memory/2025-11-27.md"
PATHS = ("memory.md", DAY, "bank/entities/peter.md", "bank/world.md", "notes/trip.md")
TODAYS = (date(2025, 11, 27), date(2025, 1, 1), date(2024, 2, 29), date.min, date.max,
          date(1, 1, 7), date(9999, 12, 25))

DAY_FILE = """# 2025-11-27

Met Peter at the station; the train was late again.

## Retain
- W @Peter: Currently in Marrakech (Nov 27–Dec 1, 2025) for Andy's birthday. ^a1b2c3d4
- B @warelay: Fixed the WS crash by wrapping the handler in try/catch (see memory/2025-11-27.md).
- O(c=0.95,i=7) @Peter: Prefers concise replies (<1500 chars) on WhatsApp.
- S(until=2025-12-31,supersedes=^abcdef12,by=agent) @Hà-Nội @Zürich: trip 27 Nov – 1 Dec 2025
  - W: a nested bullet about @alice.smith, 2025-11-27..2025-12-01
* X: an unknown kind
+ W(c=1.5, i=0, until=2025-13-01, colour=red):
not a bullet at all
- W: Dec 28 – Jan 3 holidays; steps 1-2 may need sudo ^zz9yx8w7

```python
- W: inside a fence, not a fact
## Retain
```
<!-- hidden
- W: inside a comment -->
### Notes
- W: under a level-3 heading, text
"""

ENTITY_PAGE = """---
aliases: [Pete, Peter Steinberger]
title: Peter
---
# Peter

Lives in Vienna. Likes tea.

<!-- memfold:generated summary: written by `memfold reflect`; edits inside are replaced -->
## Summary (generated)
### World
- 2025-11-25: Lives in Vienna. — [memory/2025-11-25.md#L5](../../m.md#L5) <!-- h:90bb2e7e -->
<!-- memfold:end summary -->

## Retain
- W @Peter: Moved to Berlin in March 2025. ^p0e1t2e3
"""

BANK_PAGE = """# World

<!-- memfold:generated facts -->
## Retain
- W(c=0.8) @Vienna: The office is in Vienna (2025-01-01..2025-06-30). ^w0r1l2d3
<!-- memfold:end facts -->
~~~
unclosed fence
"""

CORE = """---
limits: {Persona: 1000, Human: 1000, Project: 2000}
---
# Core memory

## Persona
Helpful, brief.

## Human
Peter, in Berlin.

## Project
memfold: offline memory.
"""

QUERIES = (
    "what does Peter prefer?", "tell me about @Hà-Nội", "who is Peter Steinberger",
    '"exact phrase" -x NEAR(a b) AND OR NOT ^id: col:word *', "around Nov 27 in Vienna",
    "since last week", "in the summer of 2024", "last spring", "past 3 months", "before 2025-11",
    "what happened on Monday", "नमस्ते Hà Nội", "🍣 *", "x@example.com @alice.smith",
)
SPECS = (
    "30d", "2w", "6m", "1y", "2025-11-27", "2025-11", "2025", "today", "yesterday",
    "this week", "last week", "this month", "last month", "this year", "last year", "monday",
    "last spring", "summer 2025", "99999d", "since Nov 27", "Dec 28 – Jan 3",
    "Nov 27–Dec 1, 2025", "27 Nov – 1 Dec 2025", "2025-11-27..2025-12-01",
)


SAMPLES = {"string": "Peter", "integer": 10, "number": 0.5, "boolean": True,
           "array": ["W", "Peter"], "object": {}, "null": None}


def _sample(schema: dict[str, Any]) -> Any:
    kind = schema.get("type", "string")
    if "enum" in schema:
        return schema["enum"][0]
    return SAMPLES.get(kind if isinstance(kind, str) else kind[0], "x")


def _tool_args() -> list[bytes]:
    """For each tool (the first byte picks it): every argument given, only the required
    ones, a nearly valid call (2.0 for an integer, a null, an unknown key), and numbers at
    the edges JSON can carry (an integer past the largest float: libFuzzer's dictionary
    tokens stop at 64 bytes, so mutation alone would not spell one)."""
    from memfold.agents.tools import tools

    found = []
    for n, tool in enumerate(tools()):
        properties = tool.schema.get("properties", {})
        full = {key: _sample(sub) for key, sub in properties.items()}
        required = {key: full[key] for key in tool.schema.get("required", ())}
        near = {**required, **{k: 2.0 if v == 10 else None for k, v in full.items()
                               if k not in required}, "extra": [1, {"a": "b"}]}
        edge = {**full, **{k: 10**400 if v == 10 else -1e308 for k, v in full.items()
                           if v in (10, 0.5)}}
        found += [bytes([n]) + json.dumps(call, ensure_ascii=False).encode()
                  for call in (full, required, near, edge)]
    return found


def seeds(target: str) -> list[bytes]:
    """The seed inputs of a target, selector byte first."""
    if target == "markdown":
        docs = (CORE, DAY_FILE, ENTITY_PAGE, BANK_PAGE, DAY_FILE)
        found = [bytes([n]) + doc.encode() for n, doc in enumerate(docs)]
        found += [bytes([len(PATHS)]) + DAY_FILE.encode()]
        lines = DAY_FILE.splitlines()[5:12]
        return found + [bytes([len(PATHS) + 1]) + line[2:].encode() for line in lines]
    if target == "query":
        return [bytes([n]) + q.encode() for n, q in enumerate(QUERIES)]
    if target == "timeparse":
        return [bytes([n % 3 + 3 * (n % 5)]) + s.encode() for n, s in enumerate(SPECS)]
    if target == "tool-args":
        return _tool_args()
    return [b"f", b"hello"]


DICTIONARY = (
    "## Retain", "# ", "### ", "- ", "* ", "+ ", "  - ", "W", "B", "O", "S", "(c=0.9)",
    "(i=7)", "until=2025-12-31", "supersedes=^", ",by=", "@", ": ", " ^abcdefgh", "```", "~~~",
    "<!--", "-->", "<!-- memfold:generated summary", "<!-- memfold:end summary -->",
    "<!-- memfold:generated facts -->", "<!-- h:0123abcd -->", "](x)", "#L12", "---\n",
    "...\n", "aliases: [", "\r\n", "\ufeff", "\x00", "\xff", "\u0301", "\u202e",
    "2025-11-27", "..", "–", " to ", "Nov 27", "Dec 1, 2025", "last ", "this ", "week",
    "month", "year", "since ", "around ", "before ", "until ", "summer", "winter", "past ",
    " days", '"', "tell me about ", "who is ", "prefers", "9999", "0001", "{", "}", "[", "]",
    '"query"', '"k"', "null", "1e999", "-0", "2.0", "true", "9223372036854775808",
)


def dictionary_text() -> str:
    """The dictionary in libFuzzer's format: one quoted token a line, bytes escaped."""
    lines = []
    for token in DICTIONARY:
        raw = token.encode("utf-8", "surrogatepass") if token != "\xff" else b"\xff"
        escaped = "".join(chr(b) if 32 <= b < 127 and b not in b'"\\' else f"\\x{b:02x}"
                          for b in raw)
        lines.append(f'"{escaped}"')
    return "\n".join(lines) + "\n"
