"""The Anthropic memory tool (`memory_20250818`) on a workspace: recorded `tool_use` blocks
answered through `dispatch` (what `memfold call` runs), refusals in the tool's own shape with
nothing written, and the anthropic SDK's memory-tool class and tool runner (no network: the
HTTP client answers from a script)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import Cli
from memfold.agents.memtool import MemoryTool, MemoryToolError, anthropic_memory_tool
from memfold.agents.tools import dispatch
from memfold.memory import Memory
from memfold.workspace.format import begin_marker, end_marker

NOW = "2026-12-05T10:00:00+00:00"
DAY_LOG = "/memories/memory/2026-12-05.md"
SESSION = Path(__file__).parent / "data" / "memory_tool_session.jsonl"


@pytest.fixture
def mem(workspace: Path) -> Iterator[Memory]:
    with Memory.open(workspace, now=NOW) as memory:
        yield memory


def _use(command: str, **fields: Any) -> dict[str, Any]:
    return {"type": "tool_use", "id": "toolu_test", "name": "memory",
            "input": {"command": command, **fields}}


def _tree(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and ".memory" not in p.parts}


def _journal(root: Path) -> list[dict[str, Any]]:
    path = root / "journal.jsonl"
    lines = path.read_text().splitlines() if path.exists() else []
    return [json.loads(line) for line in lines]


def test_a_recorded_session_is_answered_in_the_tool_result_shape(mem: Memory) -> None:
    calls = [json.loads(line) for line in SESSION.read_text().splitlines()]
    answers = [dispatch(mem, call) for call in calls]
    for call, answer in zip(calls, answers, strict=True):
        assert answer["type"] == "tool_result" and answer["tool_use_id"] == call["id"]
        assert isinstance(answer["content"], str) and "is_error" not in answer, answer
    listing, created, viewed, replaced, inserted = (a["content"] for a in answers[:5])
    assert listing.startswith("Here're the files and directories up to 2 levels deep in "
                              "/memories, excluding hidden items:\n")
    assert "\t/memories/memory.md" in listing and "\t/memories/bank/world.md" in listing
    assert ".memory" not in listing and "journal.jsonl" not in listing
    assert created.startswith(f"File created successfully at: {DAY_LOG}")
    assert "2 new fact(s)" in created
    assert viewed.startswith(f"Here's the content of {DAY_LOG} with line numbers:\n"
                             "     1\t# 2026-12-05\n")
    assert "she starts there on January 12." in replaced
    assert replaced.startswith("The memory file has been edited.")
    assert inserted.startswith(f"The file {DAY_LOG} has been edited.")
    assert answers[6]["content"] == ("Successfully renamed /memories/bank/entities/Dana.md to "
                                     "/memories/bank/entities/Dana-Ito.md")
    assert "/memories/bank/entities/Dana-Ito.md" in answers[7]["content"]
    assert answers[8]["content"] == "Successfully deleted /memories/bank/entities/Dana-Ito.md"
    assert answers[9]["content"].startswith(f"Here's the content of {DAY_LOG} with line "
                                            "numbers:\n     5\t## Retain\n")


def test_new_retain_bullets_go_through_retain(mem: Memory, workspace: Path) -> None:
    for call in map(json.loads, SESSION.read_text().splitlines()):
        dispatch(mem, call)
    retained = [e for e in _journal(workspace) if e["event"] == "retain"]
    assert [e["by"] for e in retained] == ["memory-tool", "memory-tool"]
    assert sum(len(e["ids"]) for e in retained) == 3
    text = (workspace / "memory" / "2026-12-05.md").read_text()
    ids = [i for e in retained for i in e["ids"]]
    for fact_id in ids:  # each bullet got its block id, as retain writes one
        assert text.count(f"^{fact_id}") == 1
    hits = mem.recall("Dana Lisbon office").hits
    assert hits and hits[0].fact.id in ids and hits[0].origin == "memory-tool"
    assert "on January 12." in text and not (workspace / "bank/entities/Dana.md").exists()


def test_a_fact_edited_in_place_is_a_revision_keeping_its_id(mem: Memory,
                                                             workspace: Path) -> None:
    dispatch(mem, _use("create", path=DAY_LOG,
                       file_text="## Retain\n- W @Dana: Dana lives in Porto.\n"))
    answer = dispatch(mem, _use("str_replace", path=DAY_LOG, old_str="in Porto",
                                new_str="in Lisbon"))
    assert "is_error" not in answer, answer
    events = _journal(workspace)
    assert [e["event"] for e in events] == ["retain", "revise"]
    assert events[1]["id"] == events[0]["id"]
    assert mem.get(events[0]["id"]).fact.content == "Dana lives in Lisbon."


def test_a_bullet_written_into_a_bank_page_is_retained_into_todays_log(
        mem: Memory, workspace: Path) -> None:
    answer = dispatch(mem, _use("str_replace", path="/memories/bank/world.md",
                                old_str="# World", new_str="# World\n\n## Retain\n"
                                "- W @Porto: Porto lies on the Douro river."))
    assert f"in {DAY_LOG} under '## Retain'" in answer["content"]
    assert "Douro" in (workspace / "memory/2026-12-05.md").read_text()
    assert "Douro" not in (workspace / "bank/world.md").read_text()


REFUSED = [
    (_use("view", path="/memories/../../etc/passwd"),
     "Path /memories/../../etc/passwd would escape /memories directory"),
    (_use("create", path="/memories/bank/../../outside.md", file_text="x"),
     "Path /memories/bank/../../outside.md would escape /memories directory"),
    (_use("view", path="/etc/passwd"), "Path must start with /memories, got: /etc/passwd"),
    (_use("view", path="/memoriesX/a.md"), "Path must start with /memories, got: /memoriesX"),
    (_use("view", path="/memories/.memory/index.sqlite"), "hidden files and directories"),
    (_use("create", path="/memories/.memory/x.md", file_text="x"), "hidden files"),
    (_use("view", path="/memories/journal.jsonl"), "is not a memory file"),
    (_use("create", path="/memories/notes.txt", file_text="x"), "is not a memory file"),
    (_use("create", path="/memories/bank/keys.md", file_text="# Keys\n\nopenai key "
          "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0f\n"), "looks like it holds a secret"),
    (_use("create", path="/memories/bank/world.md", file_text="x"),
     "File /memories/bank/world.md already exists"),
    (_use("view", path="/memories/bank/nothing.md"),
     "The path /memories/bank/nothing.md does not exist. Please provide a valid path."),
    (_use("str_replace", path="/memories/memory.md", old_str="no such words", new_str="x"),
     "No replacement was performed, old_str `no such words` did not appear verbatim in "
     "/memories/memory.md."),
    (_use("str_replace", path="/memories/memory.md", old_str="##", new_str="#"),
     "Multiple occurrences of old_str `##` in lines:"),
    (_use("insert", path="/memories/memory.md", insert_line=999, insert_text="x"),
     "Invalid `insert_line` parameter: 999."),
    (_use("delete", path="/memories"), "Cannot delete the /memories directory itself"),
    (_use("delete", path="/memories/bank"), "one of the workspace's own directories"),
    (_use("rename", old_path="/memories/bank/world.md", new_path="/memories/bank/opinions.md"),
     "The destination /memories/bank/opinions.md already exists"),
    (_use("undo", path="/memories"), "Unknown command 'undo'"),
    (_use("view"), "The view command needs `path` as a string"),
]


@pytest.mark.parametrize(("call", "message"), REFUSED)
def test_refusals_are_error_results_and_write_nothing(mem: Memory, workspace: Path,
                                                      call: dict[str, Any],
                                                      message: str) -> None:
    before = _tree(workspace)
    answer = dispatch(mem, call)
    assert answer["is_error"] is True and message in answer["content"], answer
    assert _tree(workspace) == before


def test_symlinks_are_refused(mem: Memory, workspace: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("# not memory\n")
    (workspace / "bank" / "linked").symlink_to(outside)
    (workspace / "bank" / "link.md").symlink_to(outside / "secret.md")
    before = _tree(outside)
    for call in (_use("view", path="/memories/bank/linked/secret.md"),
                 _use("view", path="/memories/bank/link.md"),
                 _use("create", path="/memories/bank/linked/new.md", file_text="# x\n"),
                 _use("str_replace", path="/memories/bank/link.md", old_str="not",
                      new_str="now"),
                 _use("delete", path="/memories/bank/link.md")):
        answer = dispatch(mem, call)
        assert answer["is_error"] is True and "symlink" in answer["content"], answer
    assert _tree(outside) == before and (workspace / "bank" / "link.md").is_symlink()
    assert "linked" not in dispatch(mem, _use("view", path="/memories/bank"))["content"]


def _fact_day(mem: Memory) -> None:
    dispatch(mem, _use("create", path=DAY_LOG, file_text="# Notes\n\n## Retain\n"
                       "- W @Dana: Dana lives in Porto.\n"))


def test_facts_are_never_removed(mem: Memory, workspace: Path) -> None:
    _fact_day(mem)
    before = _tree(workspace)
    bullet = (workspace / "memory/2026-12-05.md").read_text().splitlines()[-1]
    for call in (_use("str_replace", path=DAY_LOG, old_str=bullet, new_str=""),
                 _use("str_replace", path=DAY_LOG, old_str=bullet,
                      new_str="- W @Dana: Dana lives in Faro."),
                 _use("delete", path=DAY_LOG),
                 _use("delete", path="/memories/memory"),
                 _use("rename", old_path=DAY_LOG, new_path="/memories/memory/2026-12-04.md")):
        answer = dispatch(mem, call)
        assert answer["is_error"] is True, answer
        assert "fact" in answer["content"] or "own directories" in answer["content"]
    assert _tree(workspace) == before


def test_reflects_generated_regions_stay_memfolds(mem: Memory, workspace: Path) -> None:
    page = workspace / "bank" / "entities" / "Dana.md"
    page.write_text(f"# Dana\n\nMet at the offsite.\n\n{begin_marker('summary')}\n"
                    f"- Dana lives in Porto.\n{end_marker('summary')}\n")
    path = "/memories/bank/entities/Dana.md"
    inside = dispatch(mem, _use("str_replace", path=path, old_str="lives in Porto",
                                new_str="lives in Faro"))
    assert inside["is_error"] is True and "written by reflect" in inside["content"]
    assert "lives in Porto" in page.read_text()
    outside = dispatch(mem, _use("str_replace", path=path, old_str="Met at the offsite.",
                                 new_str="Met at the Lisbon offsite."))
    assert "is_error" not in outside and "Lisbon offsite" in page.read_text()
    assert dispatch(mem, _use("delete", path=path))["is_error"] is True


def test_prose_written_is_indexed_and_a_moved_file_is_refused(mem: Memory,
                                                              workspace: Path) -> None:
    dispatch(mem, _use("create", path="/memories/bank/projects.md",
                       file_text="# Projects\n\nThe Lisbon launch ships in March.\n"))
    assert any("Lisbon launch" in h.fact.content for h in mem.recall("Lisbon launch").hits)
    files = mem.files
    (workspace / "bank/projects.md").write_text("# Projects\n\nchanged by an editor\n")
    with pytest.raises(Exception, match="changed while it was edited"):
        files.write("bank/projects.md", "# Projects\n", expect="# Projects\n\nold\n")
    assert "changed by an editor" in (workspace / "bank/projects.md").read_text()


def test_the_backend_class_runs_sdk_command_objects(mem: Memory) -> None:
    types = pytest.importorskip("anthropic.types.beta")
    command = types.BetaMemoryTool20250818ViewCommand(command="view", path="/memories")
    assert MemoryTool(mem).run(command).startswith("Here're the files")
    with pytest.raises(MemoryToolError, match="would escape"):
        MemoryTool(mem).run({"command": "view", "path": "/memories/.."})


def test_the_sdk_memory_tool(mem: Memory) -> None:
    tools = pytest.importorskip("anthropic.lib.tools")
    tool = anthropic_memory_tool(mem)
    assert isinstance(tool, tools.BetaAbstractMemoryTool)
    assert tool.to_dict() == {"type": "memory_20250818", "name": "memory"}
    assert tool.call({"command": "view", "path": DAY_LOG.rsplit("/", 1)[0]}).startswith(
        "Here're the files")
    with pytest.raises(tools.ToolError, match="would escape"):
        tool.call({"command": "view", "path": "/memories/../x"})


def _message(content: list[dict[str, Any]], stop: str) -> dict[str, Any]:
    return {"id": "msg_01", "type": "message", "role": "assistant", "model": "claude-test",
            "content": content, "stop_reason": stop, "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 10}}


def test_the_sdk_tool_runner_runs_the_memory_tool(mem: Memory, workspace: Path) -> None:
    """The anthropic SDK's own tool runner, over an HTTP client that answers from a script:
    Claude creates a day's log with a Retain bullet, then tries `..`; the runner sends both
    answers back as tool results (the second is_error), and the fact is retained."""
    anthropic = pytest.importorskip("anthropic")
    import importlib.util  # the SDK's HTTP client: httpx, or its fork httpx2 in later SDKs

    httpx = pytest.importorskip("httpx2" if importlib.util.find_spec("httpx2") else "httpx")
    turns = [
        _message([_use("create", path=DAY_LOG, file_text="## Retain\n"
                       "- W @Dana: Dana joined the Lisbon team.\n")], "tool_use"),
        _message([{**_use("view", path="/memories/../x"), "id": "toolu_02"}], "tool_use"),
        _message([{"type": "text", "text": "Noted."}], "end_turn"),
    ]
    sent: list[dict[str, Any]] = []

    def reply(request: Any) -> Any:
        sent.append(json.loads(request.content))
        return httpx.Response(200, json=turns[len(sent) - 1])

    client = anthropic.Anthropic(api_key="test", http_client=httpx.Client(
        transport=httpx.MockTransport(reply)))
    runner = client.beta.messages.tool_runner(
        model="claude-test", max_tokens=256, tools=[anthropic_memory_tool(mem)],
        messages=[{"role": "user", "content": "Remember that Dana joined the Lisbon team."}])
    final = runner.until_done()
    assert final.content[0].text == "Noted." and len(sent) == 3
    assert sent[0]["tools"] == [{"type": "memory_20250818", "name": "memory"}]
    created, escaped = (request["messages"][-1]["content"][0] for request in sent[1:])
    assert created["tool_use_id"] == "toolu_test" and not created.get("is_error")
    assert "1 new fact(s)" in json.dumps(created["content"])
    assert escaped["is_error"] is True
    assert "would escape /memories directory" in json.dumps(escaped["content"])
    assert [e["by"] for e in _journal(workspace)] == ["memory-tool"]


def test_memfold_call_answers_the_recorded_session(run: Cli, workspace: Path) -> None:
    calls = [json.loads(line) for line in SESSION.read_text().splitlines()]
    result = run("call", input=json.dumps(calls), env={"MEMFOLD_NOW": NOW})
    assert result.exit_code == 0, result.stderr
    answers = json.loads(result.stdout)
    assert [a["tool_use_id"] for a in answers] == [c["id"] for c in calls]
    assert not any(a.get("is_error") for a in answers)
    assert answers[1]["content"].startswith(f"File created successfully at: {DAY_LOG}")
    refused = run("call", input=json.dumps(_use("view", path="/memories/../x")))
    assert refused.exit_code == 0 and json.loads(refused.stdout) == {
        "type": "tool_result", "tool_use_id": "toolu_test", "is_error": True,
        "content": "Path /memories/../x would escape /memories directory"}


def test_a_core_block_edited_in_memory_md_is_a_journaled_core_edit(mem: Memory,
                                                                     workspace: Path) -> None:
    core = workspace / "memory.md"
    lines = core.read_text().split("\n")
    human = lines.index("## Human") + 1
    answer = dispatch(mem, _use("insert", path="/memories/memory.md", insert_line=human,
                                insert_text="Dana: prefers written summaries."))
    assert "is_error" not in answer, answer
    assert mem.core().blocks[1].text == "Dana: prefers written summaries."
    edits = [e for e in _journal(workspace) if e["event"] == "core"]
    assert [(e["block"], e["op"]) for e in edits] == [("Human", "append")]
    dispatch(mem, _use("str_replace", path="/memories/memory.md", old_str="written summaries",
                       new_str="short written summaries"))
    edits = [e for e in _journal(workspace) if e["event"] == "core"]
    assert [(e["block"], e["op"]) for e in edits] == [("Human", "append"), ("Human", "replace")]
    before = _tree(workspace)
    too_long = dispatch(mem, _use("str_replace", path="/memories/memory.md",
                                  old_str="short written summaries", new_str="x" * 1200))
    assert too_long["is_error"] is True and "limit" in too_long["content"]
    assert _tree(workspace) == before
    preamble = dispatch(mem, _use("str_replace", path="/memories/memory.md",
                                  old_str="# Core memory", new_str="# Core memory of Ada"))
    assert "is_error" not in preamble and "# Core memory of Ada" in core.read_text()
    assert len([e for e in _journal(workspace) if e["event"] == "core"]) == 2
