"""Who wrote what: every write can say who is writing, and the journal keeps it.

A handle opened with `source` (the MCP server's `--source`, `MEMFOLD_SOURCE`) signs every
journal record it writes with it (`"source"`, the line's last key); a write may name its own
(`source=`); a retain says it as `by`.  Over HTTP, named tokens (`memfold mcp --tokens FILE`)
sign each caller's writes with its token's name.  A handle with no source writes lines
exactly as before.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from memfold import Memory
from memfold.errors import BadInput
from memfold.journal.log import JOURNAL_NAME

NOW = "2025-11-27T09:00:00+00:00"


def journal(root: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (root / JOURNAL_NAME).read_text().splitlines()]


def test_every_write_of_a_named_handle_is_signed(workspace: Path) -> None:
    with Memory.open(workspace, now=NOW, source="agent:planner") as memory:
        old, new = (f.id for f in memory.retain(["W @Pat: Lives in Vienna.",
                                                 "W @Pat: Works at Acme."]).facts)
        memory.note(old, "checked", rev=0)
        memory.use(old)
        memory.supersede(old, new)
        memory.restore(old)
        memory.forget(new)
        memory.core_append("Human", "Pat, in Vienna.")
        memory.core_undo()
    lines = journal(workspace)
    assert lines[0]["event"] == "retain" and lines[0]["by"] == "agent:planner"
    assert "source" not in lines[0]  # a retain says who as `by`
    rest = lines[1:]
    assert [e["event"] for e in rest] == ["note", "use", "supersede", "restore", "archive",
                                          "core", "core"]
    for event in rest:
        assert event["source"] == "agent:planner", event
        keys = list(event)
        assert keys.index("source") == len(keys) - 3  # last, before the chain's prev and hash


def test_a_write_may_name_its_own_source(workspace: Path) -> None:
    with Memory.open(workspace, now=NOW) as memory:
        fact = memory.retain(["W @Pat: Lives in Vienna."]).facts[0].id
        memory.note(fact, "from the phone call", rev=0, source="agent:callbot")
        memory.use(fact)
        with pytest.raises(BadInput, match="--source"):
            memory.use(fact, source="no spaces allowed")
        history = memory.history(fact)
    by_kind = {e.event: e.to_dict() for e in history}
    assert by_kind["note"]["source"] == "agent:callbot"
    assert "source" not in by_kind["use"]  # no source given: the line is as it always was
    assert memory.source is None  # a call's source is lent for the call only


def test_history_shows_who(workspace: Path, run: Any) -> None:
    with Memory.open(workspace, now=NOW, source="agent:a") as memory:
        fact = memory.retain(["W @Pat: Lives in Vienna."]).facts[0].id
        memory.note(fact, "checked", rev=0)
    shown = run("history", fact)
    assert shown.exit_code == 0
    assert "by=agent:a" in shown.output and "source=agent:a" in shown.output


# -- over HTTP: named tokens -------------------------------------------------------------------

import anyio  # noqa: E402 - the SDK's dependency
from mcp import ClientSession  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402
from mcp.shared._httpx_utils import create_mcp_http_client  # noqa: E402
from test_mcp import MEMFOLD, TIMEOUT, free_port, post, server_env  # noqa: E402

PLANNER, WRITER, READER = "a" * 64, "b" * 64, "Rd_" + "x" * 40  # 32 bytes: hex, base64


def refused_tool(url: str, token: str, name: str, arguments: dict[str, Any]) -> str:
    async def go() -> str:
        client = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
        with anyio.fail_after(TIMEOUT):
            async with client, streamable_http_client(url, http_client=client) as (
                    r, w, *_), ClientSession(r, w) as session:
                await session.initialize()
                done = await session.call_tool(name, arguments)
                assert done.is_error, done
                return str(done.content[0].text)  # type: ignore[union-attr]
    return anyio.run(go)


async def as_caller(url: str, token: str, fact: str | None) -> str:
    client = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
    with anyio.fail_after(TIMEOUT):
        async with client, streamable_http_client(url, http_client=client) as (r, w, *_), \
                ClientSession(r, w) as session:
            await session.initialize()
            if fact is None:
                done = await session.call_tool("retain", {"bullets": ["W @Pat: Lives in Rome."],
                                                          "source": "claude"})
                return str(done.structured_content["ids"][0])
            done = await session.call_tool("note", {"id": fact, "text": "seen", "rev": 0})
            assert not done.is_error, done
            return fact


def test_named_tokens_sign_each_callers_writes(workspace: Path, tmp_path: Path) -> None:
    tokens = tmp_path / "tokens"
    tokens.write_text(f"# who may call\nplanner {PLANNER}\nwriter  {WRITER}  # the drafts\n"
                      f"reader {READER} read\n")
    port = free_port()
    proc = subprocess.Popen(
        [*MEMFOLD, "--workspace", str(workspace), "mcp", "--http", f"127.0.0.1:{port}",
         "--tokens", str(tokens)],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
        env={**os.environ, **server_env()})
    try:
        assert proc.stderr is not None
        first = proc.stderr.readline()
        assert "bearer token required" in first, first
        url = f"http://127.0.0.1:{port}/mcp"
        assert post(url, {"Authorization": "Bearer " + "c" * 32})[0] == 401
        fact = anyio.run(as_caller, url, PLANNER, None)
        anyio.run(as_caller, url, WRITER, fact)
        said = refused_tool(url, READER, "retain", {"bullets": ["W @Pat: Lives in Oslo."]})
        assert said.startswith("retain changes memory and this token may only read"), said
    finally:
        proc.terminate()
        proc.wait(10)
    lines = journal(workspace)
    assert [(e["event"], e.get("by") or e.get("source")) for e in lines] == [
        ("retain", "planner/claude"), ("note", "writer")]


@pytest.mark.parametrize("content, message", [
    ("planner short\n", "at least 32 random bytes"),
    (f"planner {'a' * 63}\n", "64 or more hex digits, not 63"),
    (f"planner {READER} admin\n", "write read, write or read,write"),
    (f"planner {PLANNER}\nplanner {WRITER}\n", "listed twice"),
    ("# nobody\n", "no tokens"),
    (f"plan,ner {PLANNER}\n", "must be 1-64 letters"),
])
def test_a_tokens_file_that_cannot_be_used_is_refused(workspace: Path, tmp_path: Path,
                                                      content: str, message: str) -> None:
    tokens = tmp_path / "tokens"
    tokens.write_text(content)
    result = subprocess.run(
        [*MEMFOLD, "--workspace", str(workspace), "mcp", "--http", "127.0.0.1:1",
         "--tokens", str(tokens)],
        capture_output=True, text=True, timeout=TIMEOUT, env={**os.environ, **server_env()})
    assert result.returncode == 2 and message in result.stderr
    assert "Traceback" not in result.stderr
