"""The work one recall from PostgreSQL does (issue 36): a search asked again in a bank version
reads nothing, a search of single terms reads one row per match (its terms' hits from the
postings), a phrase's candidate rows come from its rarest word's postings alone, and a
search's words are tokenized once per process — each answering as before (the local
index's answer, a replica that kept nothing)."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from memfold.memory import Memory
from memfold_bench.pg_cluster import Provisioned
from server_support import app_client, bearer, counted_recall, make_tenant

QUERIES = ("who sails on the lake", "Ann boat", "\"old boat\" sail", "past shop 3x1")


def _workspace(root: Path) -> Path:
    """Three hundred rows: the same two words in most, one word in one, a phrase in two."""
    Memory.init(root)
    with Memory.open(root, watch=False, now="2026-03-20T12:00:00") as memory:
        for day in range(1, 21):
            memory.retain([f"W: Walked past shop {day}x{n} on the way home." for n in range(14)]
                          + [f"W @Ann: Sails on the lake on day {day}.",
                             f"B @Ben: Fixed the sail of the old boat on day {day}."
                             if day % 9 == 0 else f"O: The lake was calm on day {day}."],
                          date=f"2026-02-{day:02d}")
    return root


@contextmanager
def _bank(db: Provisioned, tenant: str) -> Iterator[tuple[Any, Path, dict[str, str]]]:
    """The tenant's bank "main" holding `_workspace`, imported; a pool on it, the
    workspace, the agent's headers."""
    from memfold.client.files import read_workspace
    from memfold.server.db import connect_pool

    token = bearer(make_tenant(db, tenant).tokens["agent"])
    with tempfile.TemporaryDirectory() as tmp:
        root = _workspace(Path(tmp) / "ws")
        with app_client(db) as client:
            assert client.post("/v1/banks/main/import", headers=token,
                               json=read_workspace(root)).status_code == 200
        pool = connect_pool(db.app, size=1)
        try:
            yield pool, root, token
        finally:
            pool.close()


def _hits(pool: Any, tenant: str, query: str) -> tuple[list[tuple[Any, ...]], list[str]]:
    hits, statements = counted_recall(pool, tenant, query, now="2026-03-20T12:00:00")
    return [(h.fact.id, h.score) for h in hits], statements


def test_a_search_asked_again_in_a_bank_version_reads_nothing(pg_db: Provisioned) -> None:
    """The second asking of a question in a bank version runs no statement of its ranking
    (every search it makes was kept with the version, server.pgcache); a write is a new
    version, searched again, and the answers are those of a replica that kept nothing."""
    with _bank(pg_db, "again") as (pool, _, token):
        first = {q: _hits(pool, "again", q) for q in QUERIES}
        for query in QUERIES:
            hits, statements = _hits(pool, "again", query)
            assert hits == first[query][0]
            assert any(s.lstrip().startswith("WITH k AS") for s in first[query][1]), query
            assert statements == [], (query, statements)
        with app_client(pg_db) as client:
            made = client.post("/v1/banks/main/retain", headers=token, json={
                "bullets": ["W @Ann: Sails on the lake past the old boat shed."],
                "date": "2026-03-10"})
            assert made.status_code == 200, made.text
        after = {q: _hits(pool, "again", q) for q in QUERIES}
        assert all(after[q][1] for q in QUERIES)  # a new version: searched again
        from memfold.server.db import connect_pool

        fresh = connect_pool(pg_db.app, size=1)  # a replica that kept nothing
        try:
            assert {q: after[q][0] for q in QUERIES} == {
                q: _hits(fresh, "again", q)[0] for q in QUERIES}
        finally:
            fresh.close()
        assert after["who sails on the lake"][0] != first["who sails on the lake"][0]


class _Reading:
    """A connection that records each statement and the rows it handed back."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.read: list[tuple[str, list[tuple[Any, ...]]]] = []

    def execute(self, sql: Any, *args: Any, **kwargs: Any) -> Any:
        rows = self.conn.execute(sql, *args, **kwargs).fetchall()
        self.read.append((str(sql), rows))
        return _Rows(rows)


class _Rows(list[tuple[Any, ...]]):
    def fetchall(self) -> list[tuple[Any, ...]]:
        return list(self)

    def fetchone(self) -> tuple[Any, ...] | None:
        return self[0] if self else None


def test_a_search_of_single_terms_reads_one_row_per_match(pg_db: Provisioned) -> None:
    """Ranked from the postings, a search of two words most rows hold hands back one row
    per match that can rank (its terms' hits), not one per match and term (each term's
    places in the row's tsvector); its answer is the local index's."""
    from memfold.index.base import Filters, Terms
    from memfold.server.db import tenant_tx
    from memfold.server.pgcache import BankFacts
    from memfold.server.pgindex import PgRecallIndex

    with _bank(pg_db, "single") as (pool, root, _), Memory.open(root, watch=False) as memory, \
            tenant_tx(pool, "single") as conn:
        bank = conn.execute("SELECT bank_id FROM banks WHERE name = 'main'").fetchone()
        reading = _Reading(conn)
        index = PgRecallIndex(reading, int(bank[0]))  # type: ignore[arg-type]
        terms = Terms(words=("walked", "shop"))
        for limit in (3, 40):
            got = index.lexical(terms, Filters(), limit)
            assert [(c.fact.id, c.bm25) for c in got] == [
                (c.fact.id, c.bm25) for c in memory.index_backend.lexical(
                    terms, Filters(), limit)]
            ranked = [rows for sql, rows in reading.read if sql.lstrip().startswith("WITH k")]
            rowids = [row[0] for row in ranked[-1]]
            assert len(rowids) == len(set(rowids)) >= limit, (limit, len(rowids))
        # kept by a bank version, and asked as it comes when its words are a list
        kept = PgRecallIndex(conn, int(bank[0]), facts=BankFacts(int(bank[0]), (1, ""),
                                                                 token="t"))
        for words in (("walked", "shop"), ["walked", "shop"]):
            got = kept.lexical(Terms(words=words), Filters(), 3)  # type: ignore[arg-type]
            assert [(c.fact.id, c.bm25) for c in got] == [
                (c.fact.id, c.bm25) for c in index.lexical(terms, Filters(), 3)]


def _postings_read(conn: Any, sql: str, params: list[Any]) -> int:
    """The rows of recall_postings the statement read (EXPLAIN ANALYZE)."""
    plan = conn.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) {sql}", params).fetchone()[0]
    found = 0
    nodes = [plan[0]["Plan"] if isinstance(plan, list) else json.loads(plan)[0]["Plan"]]
    while nodes:
        node = nodes.pop()
        if node.get("Relation Name") == "recall_postings":
            found += int(node["Actual Rows"]) * int(node["Actual Loops"])
        nodes += node.get("Plans", [])
    return found


def test_a_phrase_reads_the_postings_of_its_rarest_word(pg_db: Provisioned) -> None:
    """A phrase of two words held by most rows and one held by one row reads that word's
    postings alone to find the rows its tsquery is tested on (it read every posting of
    all three), and its count and matches are the local index's."""
    from memfold.index.base import Filters, Terms
    from memfold.server import bm25
    from memfold.server.db import tenant_tx
    from memfold.server.pgindex import PgRecallIndex
    from memfold.server.pgsearch import holders

    with _bank(pg_db, "phrase") as (pool, root, _), Memory.open(root, watch=False) as memory, \
            tenant_tx(pool, "phrase") as conn:
        bank = conn.execute("SELECT bank_id FROM banks WHERE name = 'main'").fetchone()
        reading = _Reading(conn)
        index = PgRecallIndex(reading, int(bank[0]))  # type: ignore[arg-type]
        assert index.statistics()[0] > 280
        assert index.word_counts(["past shop 3x1", "past shop"], 500) == {
            "past shop 3x1": 1, "past shop": 280}
        phrase = Terms(phrases=("past shop 3x1",))
        got = index.lexical(phrase, Filters(), 10)
        assert [(c.fact.id, c.bm25) for c in got] == [
            (c.fact.id, c.bm25) for c in memory.index_backend.lexical(phrase, Filters(), 10)]
        assert [c.fact.content for c in got] == ["Walked past shop 3x1 on the way home."]
        # the rows the tsquery is tested on: those holding "3x1" (one posting read)
        near, params = holders(bm25.phrases(phrase), int(bank[0]))
        sql = f"SELECT count(*) FROM recall_facts f WHERE f.bank_id = %s{near}"  # noqa: S608
        assert _postings_read(conn, sql, [int(bank[0]), *params]) <= 2  # of 561 holding them


def test_a_searchs_words_are_tokenized_once_per_process(monkeypatch: Any) -> None:
    """The tokenizer (a round through an SQLite table) reads a text the first time a
    search asks it; the same words later are read from what the process kept."""
    from memfold.index.base import Terms
    from memfold.server import bm25

    read: list[list[str]] = []
    tokenize = bm25.tokenize

    def counting(texts: list[str]) -> list[list[str]]:
        read.append(list(texts))
        return tokenize(texts)

    monkeypatch.setattr(bm25, "tokenize", counting)
    monkeypatch.setattr(bm25, "_words", {})
    first = bm25.phrases(Terms(words=("sailing", "boats"), phrases=("old harbour",)))
    again = bm25.phrases(Terms(words=("boats", "sailing"), phrases=("old harbour",)))
    more = bm25.phrases(Terms(words=("sailing", "lakes")))
    assert [p.terms for p in first] == [("old", "harbour"), ("sail",), ("boat",)]
    assert [p.terms for p in again] == [("old", "harbour"), ("boat",), ("sail",)]
    assert [p.terms for p in more] == [("sail",), ("lake",)]
    assert read == [["old harbour", "sailing", "boats"], ["lakes"]]


MOVES = ("Vienna near the harbour", "Berlin", "Paris", "Rome", "Oslo", "Lisbon")


def test_a_chain_of_replacements_is_walked_in_one_statement(pg_db: Provisioned) -> None:
    """A replaced fact that matches brings its chain's current fact (recall.currency): the
    chain's links are read in one statement (`successions`), then its facts in one, not a
    statement a link; asked again in the version, neither; the answer is the copy's."""
    token = bearer(make_tenant(pg_db, "moves").tokens["agent"])
    with app_client(pg_db, recall_from="copy") as copy:
        for n, place in enumerate(MOVES):
            made = copy.post("/v1/banks/main/retain", headers=token, json={
                "bullets": [f"W @Peter: Lives in {place} now."], "date": f"2026-03-{n + 2:02d}"})
            assert made.status_code == 200, made.text
        wanted = copy.post("/v1/banks/main/recall", headers=token,
                           json={"query": "Vienna harbour"}).json()["results"]
    assert "Lisbon" in wanted[0]["content"]  # the chain's end, brought by the first fact
    from memfold.server.db import connect_pool

    pool = connect_pool(pg_db.app, size=1)
    try:
        hits, statements = counted_recall(pool, "moves", "Vienna harbour",
                                          now="2026-03-20T12:00:00")
        assert [h.fact.id for h in hits] == [h["id"] for h in wanted]
        chains = [s for s in statements if "WITH RECURSIVE walk" in s]
        by_id = [s for s in statements if "f.fact_id = ANY" in s]
        assert len(chains) == 1 and len(by_id) <= 2, statements  # 5 links: 5 by_ids before
        _, again = counted_recall(pool, "moves", "Vienna harbour", now="2026-03-20T12:00:00")
        assert not [s for s in again if "WITH RECURSIVE walk" in s or "f.fact_id" in s]
    finally:
        pool.close()
