"""`memfold serve` answers from PostgreSQL by default (`--recall-from postgres`, issue 36
item 1: a replica holds no bank state): started with no `--recall-from`, a replica answers a
recall, a retain and a reflect of a bank it never held as a copy answers them, and writes
nothing under its cache directory; `--recall-from copy` stays, asked for by name."""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_server_pgreflect import DAYS, LATER, NOW

from memfold_bench.pg_cluster import Provisioned
from server_support import app_client, bearer, make_tenant, post_verb, serve

Post = Callable[[str, dict[str, Any]], Any]


def _asked(post: Post) -> list[Any]:
    """What the test asks of a bank its first retains wrote: recalls, a retain, a reflect's
    dry run and a run, and what they changed."""
    return [post("recall", {"query": "Marta short replies Signal", "k": 10}),
            post("retain", LATER),
            post("recall", {"query": "Tomas bakery Veldstraat mornings", "k": 10}),
            post("reflect", {"dry_run": True, "since": "30d"}),
            post("reflect", {"dry_run": False, "since": "30d"}),
            post("history", {"id": "msig0001"}),
            post("about", {"name": "Marta"})]


def test_a_replica_started_without_recall_from_answers_from_postgres_with_no_copy(
        pg_db: Provisioned, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MEMFOLD_NOW", NOW)
    tokens = {name: make_tenant(pg_db, name).tokens["agent"]
              for name in ("bycopy", "bydefault")}
    with app_client(pg_db, recall_from="copy") as writer:  # the banks' first days
        for token in tokens.values():
            for body in DAYS:
                answer = writer.post("/v1/banks/main/retain", headers=bearer(token), json=body)
                assert answer.status_code == 200
    with app_client(pg_db, recall_from="copy") as copy:
        def through_copy(verb: str, body: dict[str, Any]) -> Any:
            answer = copy.post(f"/v1/banks/main/{verb}", headers=bearer(tokens["bycopy"]),
                               json=body)
            assert answer.status_code == 200, answer.text
            return answer.json()
        wanted = _asked(through_copy)
    cache = tmp_path / "cache"
    cache.mkdir()
    served = serve(pg_db, extra=("--cache", str(cache), "--no-vectors"))  # no --recall-from
    try:
        got = _asked(lambda verb, body: post_verb(served.url, "main", verb, body,
                                                  tokens["bydefault"]))
        assert sorted(cache.rglob("*")) == []  # no copy of the bank, nothing at all
    finally:
        served.stop()
    assert got == wanted
    assert got[0]["results"] and got[4]["pages"] and not got[4]["dry_run"]
    assert any(hit["id"] == "tbakery2" for hit in got[2]["results"])  # its own retain


def test_the_default_is_postgres_everywhere_it_is_read(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from memfold.cli.server import serve as serve_command
    from memfold.server.replica import Replica
    from memfold.server.serving import ENV, Settings
    from memfold_bench.server_bench import server_command
    from memfold_bench.server_scale import server_scale_command

    def option(command: Any) -> Any:
        return next(p for p in command.params if p.name == "recall_from")

    assert Settings(db="postgresql://x/y").recall_from == "postgres"
    assert inspect.signature(Replica).parameters["recall_from"].default == "postgres"
    assert option(serve_command).default == "postgres"
    assert option(server_command).default == option(server_scale_command).default == "postgres"
    assert set(option(serve_command).type.choices) == {"postgres", "copy"}
    older = Settings(db="postgresql://x/y", recall_from="copy")  # as --workers N passes it
    monkeypatch.setenv(ENV, older.to_env())
    assert Settings.from_env().recall_from == "copy"


def test_a_blank_note_is_refused_from_the_rows_with_no_copy(pg_db: Provisioned,
                                                            tmp_path: Path) -> None:
    """A note with no text is refused in `Memory.note`'s words by the rows themselves: the
    replica builds no copy of the bank to say them."""
    import urllib.error

    token = make_tenant(pg_db, "blanknote").tokens["agent"]
    cache = tmp_path / "cache"
    cache.mkdir()
    served = serve(pg_db, extra=("--cache", str(cache), "--no-vectors"))
    try:
        [fact] = post_verb(served.url, "main", "retain",
                           {"bullets": ["W @Ada: Ada lives in Leeds."]}, token)["ids"]
        with pytest.raises(urllib.error.HTTPError) as refused:
            post_verb(served.url, "main", "note", {"id": fact, "text": "   ", "rev": 0}, token)
        said = json.loads(refused.value.read())
        assert sorted(cache.rglob("*")) == []  # no copy of the bank, nothing at all
    finally:
        served.stop()
    assert refused.value.code == 400 and said["error"].startswith("a note needs text")
