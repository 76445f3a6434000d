"""`memfold bench server-scale --verbs`: a fresh replica per verb, its first request, the warm
median and the bytes written under that replica's cache."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from memfold_bench import server_verbs


def test_each_verb_gets_a_fresh_replica_and_its_cache_is_measured(tmp_path: Path) -> None:
    started: list[str] = []
    sent: list[tuple[str, str, Any]] = []

    @contextlib.contextmanager
    def start(name: str) -> Iterator[str]:
        started.append(name)
        yield name

    def call(served: str, token: str, bank: str, verb: str, body: Any) -> Any:
        sent.append((served, verb, body))
        if verb == "status" and not (tmp_path / served).exists():  # the copy a verb builds
            (tmp_path / served / "1").mkdir(parents=True)
            (tmp_path / served / "1" / "memory.md").write_bytes(b"x" * 1234)
        return {}

    recall = {"results": [{"id": "f1", "entities": []}, {"id": "f2", "entities": ["Ann"]}]}
    args = server_verbs.bodies(recall, {"query": "q"})
    found = server_verbs.first_by_verb(start, lambda name: tmp_path / name, call, "t", "large",
                                       args, lambda action: (action(), 0.01)[1])
    assert started == [f"verb-{verb}" for verb in server_verbs.VERBS]
    assert args["about"] == {"name": "Ann"} and args["history"] == {"id": "f2"}
    assert [verb for _, verb, _ in sent] == [v for v in server_verbs.VERBS
                                             for _ in range(1 + server_verbs.WARM)]
    assert {verb: row["cache_bytes"] for verb, row in found.items()} == {
        verb: 1234 if verb == "status" else 0 for verb in server_verbs.VERBS}
    assert found["about"]["first_ms"] == 10.0
    assert "first status of a fresh replica: 10 ms, warm p50 10.0 ms, 1,234 bytes" in "\n".join(
        server_verbs.table(found))
