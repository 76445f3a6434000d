"""A retain with an idempotency key stores once: the same key again writes nothing and
answers the facts the first retain stored (`repeated`), across processes and an index
rebuilt from the files and the journal — as `Memory.retain(idempotency_key=)`, the retain
tool's `idempotency_key` and `memfold retain --idempotency-key`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import Cli
from memfold import Memory
from memfold.agents import tools as at
from memfold.errors import BadInput
from memfold.journal.log import JOURNAL_NAME

NOW = "2025-11-27T09:00:00+00:00"


def retains(root: Path) -> list[dict[str, object]]:
    lines = (root / JOURNAL_NAME).read_text().splitlines()
    return [e for e in map(json.loads, lines) if e["event"] == "retain"]


def test_the_same_key_stores_once_and_answers_the_first_result(workspace: Path) -> None:
    with Memory.open(workspace, now=NOW) as memory:
        first = memory.retain(["W @Pat: Lives in Vienna.", "W @Pat: Works at Acme."],
                              idempotency_key="call-1")
        again = memory.retain(["W @Pat: Lives in Vienna.", "W @Pat: Works at Acme."],
                              idempotency_key="call-1")
        other = memory.retain("W @Pat: Lives in Vienna.", idempotency_key="call-2")
    assert not first.to_dict().get("repeated") and again.repeated
    assert [f.id for f in again.facts] == [f.id for f in first.facts]
    assert again.path == first.path and again.to_dict()["ids"] == first.to_dict()["ids"]
    assert other.facts[0].id not in {f.id for f in first.facts}  # another key, another fact
    log = (workspace / first.path).read_text()
    assert log.count("Works at Acme.") == 1 and log.count("Lives in Vienna.") == 2
    assert [e.get("idempotency_key") for e in retains(workspace)] == ["call-1", "call-2"]


def test_the_key_survives_a_restart_and_a_lost_index(workspace: Path) -> None:
    with Memory.open(workspace, now=NOW) as memory:
        [fact] = memory.retain("W @Pat: Lives in Rome.", idempotency_key="k").facts
    for index in (workspace / ".memory").glob("index.sqlite*"):
        index.unlink()  # rebuilt from the files and the journal on opening
    with Memory.open(workspace, now=NOW) as memory:
        again = memory.retain("W @Pat: Lives in Rome.", idempotency_key="k")
    assert again.repeated and [f.id for f in again.facts] == [fact.id]
    assert len(retains(workspace)) == 1


def test_the_tool_and_the_cli_take_the_key(workspace: Path, run: Cli) -> None:
    call = {"bullets": ["W @Pat: Lives in Oslo."], "idempotency_key": "tool-1"}
    with Memory.open(workspace, now=NOW) as memory:
        first, second = (at.call(memory, "retain", call) for _ in range(2))
        with pytest.raises(BadInput, match="^idempotency_key: give 1-200 characters"):
            at.call(memory, "retain", {"bullets": ["W: x."], "idempotency_key": "a\x00b"})
    assert second["ids"] == first["ids"] and second["repeated"] is True
    args = ("retain", "--idempotency-key", "cli-1", "W @Pat: Lives in Bergen.")
    printed = [run(*args, "--json") for _ in range(2)]
    assert [p.exit_code for p in printed] == [0, 0]
    one, two = (json.loads(p.stdout) for p in printed)
    assert two["ids"] == one["ids"] and two["repeated"] and "repeated" not in one
    assert run("retain", "--idempotency-key", " ", "W: x.").exit_code == 2
