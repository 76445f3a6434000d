"""Generated regions: the parts of a bank page `memfold reflect` writes, between markers

    <!-- memfold:generated KIND: written by `memfold reflect`; edits inside are replaced, ... -->
    ...
    <!-- memfold:end KIND -->

and the lines written inside them: summary lines citing a fact with the hash of its text
(`<!-- h:... -->`), opinion lines, consolidated bullets.  Everything outside a region is kept
byte for byte.  The markers are built from one pair of constants, here only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memfold.values import Fact

GENERATED_OPEN = "<!-- memfold:generated "
GENERATED_CLOSE = "<!-- memfold:end "
SUMMARY, FACTS = "summary", "facts"  # the kinds of region reflect writes

# a line opening a region, and a line closing one, as the document scanner reads them
GENERATED = re.compile(r"[ \t]*" + re.escape(GENERATED_OPEN) + r"(\w+)")
END_MARK = re.compile(r"[ \t]*" + re.escape(GENERATED_CLOSE) + r"(\w+) -->")
# in a generated summary: "[memory/2025-11-27.md#L12](...) <!-- h:9f2c01ab77d3e410 -->"
CITED = re.compile(r"\[([^\]#]+)#L(\d+)\]\([^)]*\)[^<]*<!-- h:([0-9a-f]+) -->")


def begin_marker(kind: str) -> str:
    return (f"{GENERATED_OPEN}{kind}: written by `memfold reflect`; edits inside "
            "are replaced, edit outside -->")


def end_marker(kind: str) -> str:
    return f"{GENERATED_CLOSE}{kind} -->"


def find_region(lines: Sequence[str], kind: str) -> int | None:
    """The index of the line opening the region of `kind`, if the page has one."""
    opening = f"{GENERATED_OPEN}{kind}"
    return next((i for i, ln in enumerate(lines) if ln.lstrip().startswith(opening)), None)


def replace_region(text: str, kind: str, body: list[str]) -> str:
    """`text` with its generated region of `kind` replaced by `body` (added at the end when
    the page has none — a facts region before any summary, so a summary growing never moves
    the lines facts are cited by).  Everything outside the region is kept as it was."""
    lines = text.splitlines(keepends=True)
    start = find_region(lines, kind)
    region = [begin_marker(kind) + "\n", *(f"{b}\n" for b in body), end_marker(kind) + "\n"]
    if start is None and not body:
        return text
    summary = find_region(lines, SUMMARY)
    if start is None and kind == FACTS and summary is not None:
        return "".join(lines[:summary] + region + ["\n"] + lines[summary:])
    if start is None:
        prefix = text if not text or text.endswith("\n") else text + "\n"
        gap = "\n" if prefix.strip() and not prefix.endswith("\n\n") else ""
        return prefix + gap + "".join(region)
    end = next((i for i in range(start, len(lines))
                if lines[i].strip() == end_marker(kind)), len(lines) - 1)
    return "".join(lines[:start] + region + lines[end + 1:])


def region_lines(text: str, kind: str) -> list[str]:
    """The lines inside the region of `kind` (none when the page has no such region)."""
    lines = text.splitlines()
    start = find_region(lines, kind)
    if start is None:
        return []
    out = []
    for line in lines[start + 1:]:
        if line.strip() == end_marker(kind):
            break
        out.append(line)
    return out


def add_to_region(text: str, kind: str, line: str, *, heading: str) -> tuple[str, int]:
    """`text` with `line` added at the end of its region of `kind` (a new region starts
    with `heading`), unless it is there already; and the line's 1-based number."""
    body = region_lines(text, kind) or [heading]
    if line not in body:
        body = [*body, line]
    new = replace_region(text, kind, body)
    return new, new.splitlines().index(line) + 1


def citation(fact: Fact, page: str, sha: str) -> str:
    """A link from `page` to the line of `fact`, with `sha`, the hash of the text it cites."""
    depth = page.count("/")
    link = "../" * depth + f"{fact.path}#L{fact.line}"
    return f"[{fact.path}#L{fact.line}]({link}) <!-- h:{sha} -->"


def summary_line(fact: Fact, page: str, confidence: float, sha: str) -> str:
    """A fact's line in an entity page's summary: its day, its text, its citation."""
    when = f"{fact.day.isoformat()}: " if fact.day else ""
    c = f" (c={confidence:.2f})" if fact.kind == "opinion" else ""
    return f"- {when}{' '.join(fact.content.split())}{c} — {citation(fact, page, sha)}"


def opinion_line(fact: Fact, page: str, confidence: float, moved: str, sha: str) -> str:
    """An opinion's line on bank/opinions.md: text, entities, confidence, when it moved."""
    names = " ".join(f"@{e}" for e in fact.entities)
    return (f"- {' '.join(fact.content.split())} {names} — c={confidence:.2f}, "
            f"updated {moved} — {citation(fact, page, sha)}").replace("  ", " ")


def evidence_line(support: Sequence[str], contradict: Sequence[str]) -> str:
    """The line under an opinion naming the facts that supported and contradicted it."""
    return f"  - evidence: supports {_ids(support)}; contradicts {_ids(contradict)}"


def _ids(ids: Sequence[str]) -> str:
    return ", ".join(f"^{i}" for i in ids) or "none"
