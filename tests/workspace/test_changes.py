"""What a whole-file edit changes (workspace.format.changes): the lines of Retain sections,
reflect's generated regions, and lines dropped with every other byte kept."""

from __future__ import annotations

from memfold.workspace.format import (
    begin_marker,
    end_marker,
    generated_regions,
    retain_lines,
    without_lines,
)

PAGE = f"""# Day
- not a fact: no Retain heading yet

## Retain
- W @Dana: Dana lives in Porto. ^dana0001
  not a bullet, still under Retain
```
- W @Fake: inside a fence ^fake0001
```
<!-- - W @Hidden: inside a comment -->
* O(c=0.8) @Dana: Prefers tea.

## Notes
- W @Later: under another heading
{begin_marker("summary")}
- Dana lives in Porto.
{end_marker("summary")}
"""


def test_retain_lines_are_those_memfold_reads_as_retain() -> None:
    found = retain_lines(PAGE)
    assert [(ln.number, ln.text, ln.bullet, ln.block_id) for ln in found] == [
        (5, "W @Dana: Dana lives in Porto. ^dana0001", True, "dana0001"),
        (6, "not a bullet, still under Retain", False, None),
        (11, "O(c=0.8) @Dana: Prefers tea.", True, None),
    ]


def test_generated_regions_are_whole_with_their_markers() -> None:
    regions = generated_regions(PAGE)
    assert len(regions) == 1
    assert regions[0].splitlines() == [begin_marker("summary"), "- Dana lives in Porto.",
                                       end_marker("summary")]
    assert generated_regions(PAGE.replace("Porto.\n<!-- memfold:end", "Faro.\n<!-- memfold:end")
                             ) != regions


def test_without_lines_keeps_every_other_byte() -> None:
    text = "a\r\nb\n\nc\n"
    assert without_lines(text, {2}) == "a\r\n\nc\n"
    assert without_lines(text, set()) is text
    assert without_lines("x\ny", {2}) == "x"
