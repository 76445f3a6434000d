"""Every verb an agent needs is a tool, recall mode is chosen per call, and writes say who
made them (issue 16, items 3-5)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from memfold import BadInput, Memory
from memfold.agents import tools as at


def test_forget_restore_history_trace_status_index_and_core_undo(workspace: Path) -> None:
    with Memory.open(workspace, now="2025-12-01") as memory:
        [old] = at.call(memory, "retain", {"bullets": ["W @Ada: Lives in Leeds."],
                                           "date": "2025-11-01"})["ids"]
        [new] = at.call(memory, "retain", {"bullets": ["W @Ada: Lives in York."],
                                           "date": "2025-11-20"})["ids"]
        events = at.call(memory, "history", {"id": old})["events"]
        supersede = [e for e in events if e["event"] == "supersede"][0]
        assert supersede["by"] == new and supersede["judge"] == "rules"
        assert at.call(memory, "trace", {"id": old})["superseded_by"][0]["id"] == new
        assert at.call(memory, "restore", {"id": old, "reason": "both true"})["result"] \
            == "restored"
        assert memory.get(old, use=False).status == "active"
        assert at.call(memory, "status", {})["facts"] == 2
        assert at.call(memory, "index", {"full": True})["full"] is True
        at.call(memory, "core_append", {"block": "Human", "text": "Ada, in York."})
        assert at.call(memory, "core_undo", {})["op"] == "undo"
        assert "Ada" not in at.call(memory, "core_view", {})["blocks"][0].get("text", "")


def test_recall_mode_is_chosen_per_call(workspace: Path) -> None:
    with Memory.open(workspace, now="2025-12-01") as memory:
        at.call(memory, "retain", {"bullets": ["W @Ada: Lives in Leeds."],
                                   "date": "2025-11-01"})
        hits = at.call(memory, "recall", {"query": "Leeds", "mode": "lexical"})["results"]
        assert [h["content"] for h in hits] == ["Lives in Leeds."]
        with pytest.raises(BadInput, match="mode"):
            at.call(memory, "recall", {"query": "Leeds", "mode": "psychic"})


def test_a_retain_says_who_wrote_it(workspace: Path) -> None:
    with Memory.open(workspace, now="2025-12-01", source="mcp:team-server") as memory:
        [mine] = at.call(memory, "retain", {"bullets": ["W @Ada: Lives in Leeds."]})["ids"]
        [theirs] = at.call(memory, "retain", {"bullets": ["W @Bo: Lives in Hull."],
                                              "source": "agent:planner"})["ids"]
        [forged] = at.call(memory, "retain", {"bullets": ["W @Cy: Lives in York."],
                                              "source": "admin"})["ids"]
        assert memory.get(mine, use=False).origin == "mcp:team-server"
        # a call's source is a label after the server's identity, never in its place
        assert memory.get(theirs, use=False).origin == "mcp:team-server/agent:planner"
        assert memory.get(forged, use=False).origin == "mcp:team-server/admin"
        retained = [e for e in at.call(memory, "history", {"id": theirs})["events"]
                    if e["event"] == "retain"]
        assert retained[0]["by"] == "mcp:team-server/agent:planner"
        with pytest.raises(BadInput, match="at most 48 characters here"):
            at.call(memory, "retain", {"bullets": ["W @Cy: Lives in Ely."],
                                       "source": "two words"})


def test_memfold_call_records_memfold_source(workspace: Path) -> None:
    call = {"name": "retain", "arguments": {"bullets": ["W @Ada: Lives in Leeds."]}}
    result = subprocess.run(
        [sys.executable, "-m", "memfold", "--workspace", str(workspace), "call"],
        input=json.dumps(call), capture_output=True, text=True, timeout=60,
        env={**__import__("os").environ, "MEMFOLD_SOURCE": "agent:cron"})
    assert result.returncode == 0, result.stderr
    [fact_id] = json.loads(result.stdout)["result"]["ids"]
    with Memory.open(workspace) as memory:
        assert memory.get(fact_id, use=False).origin == "agent:cron"
