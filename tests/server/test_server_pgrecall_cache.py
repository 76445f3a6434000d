"""What a replica keeps of a bank between recalls from PostgreSQL (memfold.server.pgcache):
a bank version's statistics, counts, names, fact rows and neighbours are asked once, a write
or a repair is a new version, and the answers stay the ones a replica that kept nothing
gives."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from memfold_bench.pg_cluster import Provisioned
from server_support import app_client, bearer, counted_recall, make_tenant

BULLETS = ["W @Ann: Sails on the lake every Sunday.",
           "W @Ann: Sails to the island in June.",
           "B @Ben: Fixed the sail of the old boat.",
           "O @Ben: The lake is too cold for swimming in May.",
           "W @Ann: Keeps the boat in the harbour near the lake."]
# a word's count of rows, a phrase's
ASKED = ("SELECT term, rows FROM recall_terms", "SELECT count(*) FROM recall_facts")
MIXED = "\"old boat\" sail"  # a phrase and a word: the word's count read from recall_terms
QUERIES = ("who sails on the lake", "Ann boat", "swimming in May", MIXED)


@contextmanager
def _pool(db: Provisioned) -> Iterator[Any]:
    from memfold.server.db import connect_pool

    pool = connect_pool(db.app, size=1)
    try:
        yield pool
    finally:
        pool.close()


def _recall(pool: Any, tenant: str, query: str) -> tuple[list[tuple[Any, ...]], list[str]]:
    """The recall's hits (id, score) and the statements its ranking ran."""
    hits, statements = counted_recall(pool, tenant, query, now="2026-03-20T12:00:00")
    return [(h.fact.id, h.score) for h in hits], statements


_TOKENS: dict[str, str] = {}


def _retain(db: Provisioned, tenant: str, bullets: list[str]) -> None:
    """A write through a replica that answers recall from its copy."""
    with app_client(db) as client:
        made = client.post("/v1/banks/main/retain", headers=bearer(_TOKENS[tenant]),
                           json={"bullets": bullets, "date": "2026-03-10"})
        assert made.status_code == 200, made.text


def _tenant(db: Provisioned, name: str) -> None:
    _TOKENS[name] = make_tenant(db, name).tokens["agent"]
    _retain(db, name, BULLETS)


def test_a_bank_version_is_asked_once_and_a_write_is_a_new_version(
        pg_db: Provisioned) -> None:
    _tenant(pg_db, "kept")
    with _pool(pg_db) as pool:
        first = {q: _recall(pool, "kept", q) for q in QUERIES}
        again = {q: _recall(pool, "kept", q) for q in QUERIES}
        for q in QUERIES:
            assert again[q][0] == first[q][0]
            # the words' counts and the phrases' were asked by the first recall only
            assert not any(s.startswith(ASKED) for s in again[q][1]), q
            # nor the facts it ranked, nor their neighbours
            assert not any("WITH asked" in s for s in again[q][1]), q
            assert not any(s.endswith("f.rowid = ANY(%s) ") for s in again[q][1]), q
            assert len(again[q][1]) < len(first[q][1]) or not any(
                "recall_terms" in s for s in first[q][1])
        _retain(pg_db, "kept", ["W @Ann: Sails on the lake with Ben at dawn.",
                                "B @Ben: Sold the old boat and its old sail."])
        after = {q: _recall(pool, "kept", q)[0] for q in QUERIES}
        with _pool(pg_db) as fresh:  # a replica that kept nothing
            assert after == {q: _recall(fresh, "kept", q)[0] for q in QUERIES}
        assert after["\"old boat\" sail"] != first["\"old boat\" sail"][0]


def test_a_repair_is_a_new_version(pg_db: Provisioned) -> None:
    import psycopg

    from memfold.server import admin
    from memfold.server.db import connect_pool

    _tenant(pg_db, "mended")
    with psycopg.connect(pg_db.owner) as conn:  # a hand-edited table: no write, no new head
        conn.execute("SELECT set_config('memfold.tenant', 'mended', false)")
        conn.execute("UPDATE recall_terms SET rows = 1 WHERE term = 'sail'")
    with _pool(pg_db) as pool:
        edited = _recall(pool, "mended", MIXED)[0]
        owner = connect_pool(pg_db.owner, size=1)
        try:
            assert admin.check_rows(owner, "mended", "main", repair=True)["repaired"]
        finally:
            owner.close()
        repaired = _recall(pool, "mended", MIXED)[0]
        with _pool(pg_db) as fresh:
            assert repaired == _recall(fresh, "mended", MIXED)[0]
        assert repaired != edited  # the edited count was not kept past the repair


def test_a_serving_process_reads_the_word_knowledge_before_its_first_request() -> None:
    from importlib import resources

    from memfold import lexicon
    from memfold.server.serving import read_lexicon

    files = [e.name for e in resources.files("memfold.lexicon").joinpath(
        "data", "wordnet").iterdir() if e.name.endswith(".tsv.gz")]
    read_lexicon()
    assert lexicon._shard_text.cache_info().currsize >= len(files) > 500  # noqa: SLF001


def test_a_snapshot_is_begun_repeatable_read_and_the_pool_gets_its_default_back(
        pg_db: Provisioned) -> None:
    from memfold.server.db import tenant_tx

    with _pool(pg_db) as pool:  # one connection: each transaction below reuses it
        for snapshot in (True, False, True, False):
            with tenant_tx(pool, "nobody", snapshot=snapshot) as conn:
                level = conn.execute("SHOW transaction_isolation").fetchone()
            assert level == ("repeatable read" if snapshot else "read committed",)


def test_a_replaced_facts_current_one_is_asked_once_per_version(pg_db: Provisioned) -> None:
    """Recall brings a replaced fact's current one (recall.currency), read by id: asked by
    the first recall of a bank version only, and answered as a replica that kept nothing."""
    _TOKENS["moved"] = make_tenant(pg_db, "moved").tokens["agent"]
    with app_client(pg_db) as client:
        for bullets, day in ((["W @Peter: Lives in Vienna near the harbour."], "2026-03-02"),
                             (["W @Peter: Lives in Berlin now."], "2026-03-12")):
            made = client.post("/v1/banks/main/retain", headers=bearer(_TOKENS["moved"]),
                               json={"bullets": bullets, "date": day})
            assert made.status_code == 200, made.text
    query = "Vienna harbour"
    with _pool(pg_db) as pool:
        first, asked = _recall(pool, "moved", query)
        by_id = [s for s in asked if "f.fact_id = ANY" in s]
        assert by_id  # the replaced fact matched and brought its current one
        again, asked_again = _recall(pool, "moved", query)
        assert again == first
        assert not [s for s in asked_again if "f.fact_id = ANY" in s]
        with _pool(pg_db) as fresh:  # a replica that kept nothing
            assert _recall(fresh, "moved", query)[0] == first


def test_the_byte_budget_forgets_the_least_recently_used_bank_first(pg_db: Provisioned) -> None:
    """What a replica keeps is bounded by an estimate of its bytes over all banks: with room
    for one bank's answers, a second bank's push the first's out (read again when asked,
    and answered as before); a bank past the budget alone forgets its fact rows first; a
    budget of 0 keeps nothing between recalls."""
    from memfold.server.pgrecall import versions

    for name in ("lru-a", "lru-b"):
        _tenant(pg_db, name)
    with _pool(pg_db) as pool:
        kept = versions(pool)
        asked_first = {q: _recall(pool, "lru-a", q) for q in QUERIES}
        first = {q: hits for q, (hits, _) in asked_first.items()}
        one = kept.weight()
        assert len(kept) == 1 and one > 0
        kept.budget = one + one // 2  # room for one bank's answers, not two
        for q in QUERIES:
            _recall(pool, "lru-b", q)
        assert len(kept) == 1 and kept.weight() <= kept.budget  # bank lru-a's forgotten
        again, asked = _recall(pool, "lru-a", MIXED)
        assert again == first[MIXED]
        assert any(s.startswith(ASKED) for s in asked)  # its counts read again
        # lru-a's answers alone (the latest used) past the budget: its rows forgotten
        kept.budget = list(kept._found.values())[-1].weight() - 1  # noqa: SLF001
        again, asked = _recall(pool, "lru-a", MIXED)
        assert again == first[MIXED]
        assert not any(s.startswith(ASKED) for s in asked)  # its counts kept
        assert any(s.endswith("f.rowid = ANY(%s) ") for s in asked)  # its rows read again
        kept.budget = 0  # nothing kept between two recalls
        for _ in range(2):
            for q in QUERIES:
                hits, asked = _recall(pool, "lru-a", q)
                assert hits == first[q]
                # the neighbours of the facts it ranked read again, every time
                assert any("WITH asked" in s for s in asked) == bool(hits), q


def test_the_budget_is_read_from_the_environment(monkeypatch: Any) -> None:
    import pytest

    from memfold.errors import BadInput
    from memfold.server.pgcache import MB, Versions

    monkeypatch.setenv("MEMFOLD_SERVER_CACHE_MB", "3")
    assert Versions().budget == 3 * MB
    assert Versions(budget=MB).budget == MB  # `serve --cache-mb`'s: the variable not read
    monkeypatch.delenv("MEMFOLD_SERVER_CACHE_MB")
    assert Versions().budget == 16 * MB
    for bad in ("-1", "lots"):
        monkeypatch.setenv("MEMFOLD_SERVER_CACHE_MB", bad)
        with pytest.raises(BadInput, match="MEMFOLD_SERVER_CACHE_MB"):
            assert Versions().budget
