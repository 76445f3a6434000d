"""The JSON edits install and uninstall make: an entry added in the file's own layout and cut
out again to the byte, whatever the file looks like."""

from __future__ import annotations

import json

import pytest

from memfold.hosts import jsonedit

ENTRY = {"command": "/usr/bin/memfold", "args": ["mcp"]}
PATH = ("mcpServers", "memfold")

FILES = {
    "two-spaces": '{\n  "mcpServers": {\n    "a": {"command": "x"}\n  }\n}\n',
    "tabs": ('{\n\t"theme": "dark",\n\t"mcpServers": {\n\t\t"a": {\n'
             '\t\t\t"command": "x"\n\t\t}\n\t}\n}\n'),
    "one-line": '{"mcpServers": {"a": {"command": "x"}}, "z": [1, 2]}',
    "no-servers": '{\n    "theme": "dark"\n}\n',
    "empty-servers-among-others": '{\n  "x": 1,\n  "mcpServers": {},\n  "y": 2\n}\n',
    "crlf": '{\r\n  "mcpServers": {\r\n    "a": {"command": "x"}\r\n  }\r\n}\r\n',
    "unicode-and-escapes": '{\n  "name": "Zoë \\"quoted\\" \\u00e9",\n  "mcpServers": {"a": {}}\n}',
}


@pytest.mark.parametrize("name", list(FILES))
def test_add_then_remove_gives_the_text_back(name: str) -> None:
    text = FILES[name]
    added = jsonedit.add(text, PATH, ENTRY)
    loaded = json.loads(added)
    assert loaded["mcpServers"]["memfold"] == ENTRY
    without = {k: v for k, v in loaded["mcpServers"].items() if k != "memfold"}
    assert without == json.loads(text).get("mcpServers", {})
    restored = jsonedit.remove(added, PATH)
    if name == "empty-servers-among-others":  # the emptied object goes (docs/hosts.md)
        assert json.loads(restored) == {"x": 1, "y": 2}
    else:
        assert restored == text


def test_an_entry_follows_the_files_indentation() -> None:
    added = jsonedit.add(FILES["tabs"], PATH, ENTRY)
    assert '\n\t\t"memfold": {\n\t\t\t"command": "/usr/bin/memfold",' in added


@pytest.mark.parametrize("text, problem", [
    ("  \n", "the file is empty"),
    ("{,}", "not valid JSON"),
    ("null", "the top level is not a JSON object"),
])
def test_parse_names_the_problem(text: str, problem: str) -> None:
    with pytest.raises(Exception, match=problem):
        jsonedit.parse(text, "f.json")
