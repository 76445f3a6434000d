"""`entities`: the entities facts name, with how many facts name each — as
`Memory.entities()`, the `entities` tool and `memfold entities`."""

from __future__ import annotations

import json

from conftest import Cli
from memfold import Memory
from memfold.agents import tools as at

BULLETS = ["W @Peter: Lives in Vienna.", "B @Peter @Dana: Met for lunch.",
           "W @dana: Works at Acme.", "O(c=0.7) @Peter: Prefers tea."]


def test_memory_lists_entities_most_named_first(memory: Memory) -> None:
    assert memory.entities() == []
    memory.retain(BULLETS)
    # one entity however it is spelled; the first spelling seen names it
    assert memory.entities() == [("Peter", 3), ("Dana", 2)]


def test_the_tool_lists_them_within_its_limit(memory: Memory) -> None:
    memory.retain(BULLETS)
    assert at.call(memory, "entities", {}) == {
        "entities": [{"name": "Peter", "facts": 3}, {"name": "Dana", "facts": 2}],
        "omitted": 0}
    assert at.call(memory, "entities", {"limit": 1}) == {
        "entities": [{"name": "Peter", "facts": 3}], "omitted": 1}
    assert at.tool("entities").read_only


def test_the_cli_prints_them(run: Cli) -> None:
    run("retain", *BULLETS)
    assert run("entities").stdout == "3\t@Peter\n2\t@Dana\n"
    printed = json.loads(run("entities", "--limit", "1", "--json").stdout)
    assert printed == {"entities": [{"name": "Peter", "facts": 3}], "omitted": 1}
    assert run("entities", "--limit", "0").exit_code == 2
