"""`reflect` answered from PostgreSQL itself (`memfold serve --recall-from postgres`): a run
planned over the bank's rows, and written to them, with no copy of the bank.

The run is planned by local memfold's own code (`memfold.reflect.plan.plan`) through its two
seams: the index is the bank's recall rows (`PgRecallIndex`, with the citations of the
generated pages read as `status` reads them, memfold.server.pgstatus) and the pages are the
bank's `files` rows (`pgreads.BankFiles`: the skeleton `memfold init` makes for a bank never
written, as its copy holds it).  A dry run reads them in the read's snapshot and answers the
plan, writing nothing.

A run (`pgretain.DatabaseWriter.reflect`) is planned the same way in the write's transaction
(memfold.server.pgwrite: the bank's lock and its `banks` row held, so nothing moves while it
plans) and stored as one bank version, as a copy sends it: the pages it rewrote and its
journal lines (chained on the bank's last line, signed with who writes), their facts and
recall rows derived and the journal folded (`rows.store`); then the facts its pages hold
that the bank never held (`new_facts`: consolidated ones) are judged against older ones, as
the sync after a local run judges them (the retain's own judging).  A run that decides
nothing and changes no page stores nothing.

On a replica with a model, consolidation also finds paraphrases by the facts' vectors
(`Draft.similar`: `recall.fusion.Calibration`), as a copy's run does after embedding every
fact that has none (`Embedding.mode(..., backlog=True)`): `paraphrases` reads every recall
row's vector from the bank's `vectors` rows (a dry run starts from the replica's matrix of
the bank version, memfold.server.pgvectors, when it holds one), embeds the rows with none,
however many, and tests them with recall's own vector search (`Semantic.paraphrases`).  What
it made is stored for every replica: by a run in its own transaction, by a dry run once its
snapshot is over (`BankVectors.store`, behind the bank's purge fence).  So the plan, the pages
and the `vectors` rows are the copy's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import date
from typing import TYPE_CHECKING, Any

from memfold import config
from memfold.embed.store import fact_text, text_key
from memfold.errors import EmbedUnavailable
from memfold.index.base import Candidate, Citation
from memfold.recall.fusion import LEXICAL
from memfold.recall.modes import default_mode
from memfold.reflect import plan as reflect_plan
from memfold.reflect.draft import StoredPages
from memfold.server import pgstatus
from memfold.server.pgindex import PgRecallIndex
from memfold.server.pgreads import BankFiles
from memfold.server.pgvectors import (
    ROWS_BY_ID,
    ROWS_SINCE,
    BankMatrix,
    BankRows,
    Rows,
    embed_texts,
    semantic,
)
from memfold.server.vectors import read_vectors, store_vectors, stored_name
from memfold.values import TEXT
from memfold.workspace.format import parse_document

if TYPE_CHECKING:
    import psycopg

    from memfold.embed.base import Embedder, Matrix
    from memfold.reflect.draft import Similar
    from memfold.reflect.plan import ReflectPlan
    from memfold.server.pgcache import BankFacts
    from memfold.server.pgvectors import BankVectors
    from memfold.server.pgwrite import BankWrite

# the verb (REST) and tool (MCP) answered this way: a dry run read, a run written
ANSWERED = frozenset({"reflect", "reflect_undo"})
_HELD = "SELECT DISTINCT fact_id FROM recall_facts WHERE bank_id = %s AND fact_id = ANY(%s)"
_SAVED = "SELECT manifest FROM reflect_undo WHERE bank_id = %s"
_KEEP = ("INSERT INTO reflect_undo (tenant_id, bank_id, version, manifest) VALUES (%s, %s, %s,"
         " %s) ON CONFLICT (tenant_id, bank_id) DO UPDATE SET version = excluded.version,"
         " manifest = excluded.manifest")
_DROP = "DELETE FROM reflect_undo WHERE bank_id = %s"

Judge = Callable[[list[str], str], object]  # (new fact ids, ts): judged, their word journaled


class ReflectRows(PgRecallIndex):
    """The bank's recall rows as reflect reads them: recall's index and the citations of
    the generated pages.  A run reads an entity's facts once per entity it names (tens of
    thousands of rows in a large bank, each read several times), and nothing is written
    while it plans: a row read before in this bank version is not made a fact again."""

    def citations(self) -> list[Citation]:
        return pgstatus.citations(self.conn, self.bank_id)

    def _candidate(self, row: Sequence[Any]) -> Candidate:
        kept = self._kept.get(row[0])
        return kept if kept is not None else super()._candidate(row)


def planned(conn: psycopg.Connection[Any], bank_id: int, head: int, *, since: str | date,
            now: Any = None, facts: BankFacts | None = None,
            similar: Similar | None = None) -> ReflectPlan:
    """A run planned over the bank's rows at version `head` (nothing written); `similar`:
    the paraphrase test of the bank's vectors (`paraphrases`), None without a model."""
    today = config.resolve_now(now).date()
    start = reflect_plan.window_start(since, today)
    pages = StoredPages(BankFiles(conn, bank_id, head).read)
    return reflect_plan.plan(pages, ReflectRows(conn, bank_id, facts=facts), since=start,
                             today=today, similar=similar)


def run(write: BankWrite, *, since: str | date, now: Any, ts: str, judge: Judge,
        similar: Similar | None = None) -> ReflectPlan:
    """Plan a run in the write's transaction and store it as this write's version: its
    pages and journal lines, the undo manifest, the judge's word on its new facts."""
    plan = planned(write.conn, write.bank_id, write.head, since=since, now=now,
                   similar=similar)
    if not (plan.records or plan.pages):
        return plan  # nothing to do: the last run stays the one an undo takes back
    files = {page.path: page.after for page in plan.pages}
    new_ids = new_facts(write.conn, write.bank_id, files)
    prior = reflect_plan.touched_states(plan.records, PgRecallIndex(write.conn, write.bank_id))
    events = write.journal(plan.records, ts=ts, files={**write.founding(), **files})
    keep(write.conn, write.caller.tenant, write.bank_id, write.version,
         reflect_plan.manifest_bytes(plan, events, prior))
    judge(new_ids, ts)
    return plan


def undo(write: BankWrite, *, ts: str, judge: Judge) -> list[str]:
    """`reflect --undo` in the write's transaction: the last run's pages written back and
    its decisions taken back (`reflect.plan.undo`'s steps over the bank's rows), its
    manifest dropped; the pages it wrote."""
    saved = reflect_plan.saved_run(stored(write.conn, write.bank_id))
    files = dict(reflect_plan.pages_back(saved, BankFiles(write.conn, write.bank_id,
                                                          write.head).read))
    states = PgRecallIndex(write.conn, write.bank_id).life(reflect_plan.undone_ids(saved))
    new_ids = new_facts(write.conn, write.bank_id,
                        {path: data for path, data in files.items() if data is not None})
    write.journal(reflect_plan.undo_records(saved, states), ts=ts, files=files)
    keep(write.conn, write.caller.tenant, write.bank_id, write.version, None)
    judge(new_ids, ts)
    return reflect_plan.undone_pages(saved)


def stored(conn: psycopg.Connection[Any], bank_id: int) -> bytes | None:
    """The undo manifest of the bank's last reflect run (None: nothing to undo)."""
    row = conn.execute(_SAVED, [bank_id]).fetchone()
    return None if row is None else bytes(row[0])


def keep(conn: psycopg.Connection[Any], tenant: str, bank_id: int, version: int,
         manifest: bytes | None) -> None:
    """Keep `manifest` as the bank's last run's, written by bank version `version` (None:
    drop it), in the caller's transaction."""
    if manifest is None:
        conn.execute(_DROP, [bank_id])
    else:
        conn.execute(_KEEP, [tenant, bank_id, version, manifest])


def new_facts(conn: psycopg.Connection[Any], bank_id: int,
              files: Mapping[str, bytes]) -> list[str]:
    """The typed facts these pages hold that the bank holds no row of, in the order a sync
    meets them (its new facts, which the judge weighs)."""
    ids = _typed_ids(files)
    if not ids:
        return []
    held = {r[0] for r in conn.execute(_HELD, [bank_id, ids]).fetchall()}
    return [i for i in dict.fromkeys(ids) if i not in held]


def _typed_ids(files: Mapping[str, bytes]) -> list[str]:
    """The ids of the typed facts these pages hold, in the order a sync meets them."""
    return [f.id for path in sorted(files) for f in parse_document(path, files[path]).facts
            if f.kind != TEXT]


class Paraphrases:
    """The paraphrase test of a run over every recall row's vector of one bank (`conn`'s
    snapshot or write), as a copy's run tests them once its vectors are current: each row's
    vector read from the bank's `vectors` rows, or made by `model` (kept in `made`, for the
    caller to store)."""

    def __init__(self, conn: psycopg.Connection[Any], bank_id: int, model: Embedder) -> None:
        self.conn = conn
        self.bank_id = bank_id
        self.model = model
        self.name = stored_name(model.identity)  # the embedder its `vectors` rows name
        self.made: dict[bytes, Matrix] = {}

    def similar(self, kept: BankMatrix | None = None) -> Similar:
        """`Semantic.paraphrases` over the bank's matrix: `kept` (a replica's matrix of this
        bank version) with the rows it left without a vector given one, or one made whole."""
        return semantic(self.complete(kept), self.model).paraphrases

    def complete(self, kept: BankMatrix | None) -> BankMatrix:
        """`kept` (None: nothing) with every row of the bank it lacks given its vector."""
        import numpy as np

        if kept is not None and not kept.waiting:
            return kept
        query, params = ((ROWS_SINCE, [self.bank_id, 0]) if kept is None
                         else (ROWS_BY_ID, [self.bank_id, list(kept.waiting)]))
        added = [(int(r), str(c)) for r, c in self.conn.execute(query, params)]
        matrix = Rows(self.model.identity.dims)
        if kept is not None:  # a copy: the replica's matrix is shared with other readers
            matrix.append(kept.matrix.keys[: len(kept.view)], kept.view)
        keys = [text_key(fact_text(content)) for _, content in added]
        self._fill(matrix, {k: fact_text(c) for k, (_, c) in zip(keys, added, strict=True)
                            if k not in matrix.position})
        have = [(rowid, matrix.position[key]) for (rowid, _), key in zip(added, keys,
                                                                        strict=True)
                if key in matrix.position]
        ids = np.asarray([r for r, _ in have], dtype=np.int64)
        rows = np.asarray([n for _, n in have], dtype=np.int64)
        if kept is not None:
            ids, rows = np.concatenate([kept.rowids, ids]), np.concatenate([kept.rows, rows])
        order = np.argsort(ids, kind="stable")
        return BankMatrix(
            version=kept.version if kept is not None else (0, ""),
            top=max([kept.top if kept is not None else 0, *(r for r, _ in added)]),
            rowids=ids[order], rows=rows[order], matrix=matrix,
            view=matrix.data[: matrix.used],
            waiting=tuple(r for (r, _), k in zip(added, keys, strict=True)
                          if k not in matrix.position))

    def _fill(self, matrix: Rows, todo: Mapping[bytes, str]) -> None:
        """Append these texts' vectors to `matrix`: those the bank's rows hold, the rest
        embedded (`pgvectors.embed_texts`, as a recall embeds them).  A model that fails
        leaves its texts without a vector, as a copy's run does."""
        import numpy as np

        if not todo:
            return
        dims = self.model.identity.dims
        found = read_vectors(self.conn, self.bank_id, self.name, list(todo), dims)
        if found:
            matrix.append(list(found), np.stack(list(found.values())))
        made = embed_texts(self.model, [(k, t) for k, t in todo.items() if k not in found], [])
        if made:
            matrix.append(list(made), np.stack(list(made.values())))
            self.made.update(made)


def _model(opener: Callable[[], Embedder]) -> Embedder | None:
    """The replica's model when a run weighs meaning (as a copy's: the recall mode is not
    lexical), None when not or when it cannot load (the run is then planned by words)."""
    if default_mode(True) == LEXICAL:
        return None
    try:
        return opener()
    except EmbedUnavailable:
        return None


def read_similar(vectors: BankVectors) -> Similar | None:
    """A dry run's paraphrase test on a replica with a model: the replica's matrix of the
    snapshot's bank version (pgvectors.VectorCache, made current as a recall makes it) with
    every row it left without a vector given one; what was made is left in `vectors.made`,
    stored for every replica once the snapshot is over (`BankVectors.store`)."""
    model = _model(vectors.opener)
    if model is None:
        return None
    bank = BankRows(vectors.conn, vectors.bank_id, model)
    kept = vectors.cache.matrix(bank, vectors.version, vectors.rows, vectors.since)
    found = Paraphrases(vectors.conn, vectors.bank_id, model)
    similar = found.similar(kept)
    made = {**bank.made, **found.made}
    if made:
        vectors.made = (found.name, made)
    return similar


def written_similar(write: BankWrite, opener: Callable[[], Embedder]) -> Similar | None:
    """A run's paraphrase test on a replica with a model, from every recall row's vector
    as the write's transaction reads them; those it made stored in that transaction (the
    bank's write lock held: no purge can commit meanwhile)."""
    model = _model(opener)
    if model is None:
        return None
    found = Paraphrases(write.conn, write.bank_id, model)
    similar = found.similar()
    if found.made:
        store_vectors(write.conn, write.caller.tenant, write.bank_id, found.name,
                      found.made.items(), seen=None)
    return similar
