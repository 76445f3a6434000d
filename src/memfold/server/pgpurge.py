"""`forget --purge` (and its dry run) answered from PostgreSQL itself (`memfold serve
--recall-from postgres`): the fact and every copy of its text removed from the bank's rows
with no copy of the bank.

In the write's transaction (memfold.server.pgwrite, the bank's lock held) the purge is
planned by local memfold's own code (`memfold.forget`: `the_fact`, `secret_tokens`,
`plan_docs`, `plan_journal`, `planned`) over the bank's rows instead of a workspace's disk:
every file row as the Markdown a scan would read, the journal as its lines in seq order.
The plan names the places a copy's plan names — the rewritten lines, the journal lines
scrubbed, and the derived index (here the bank's recall rows, derived again from the
rewritten files and journal in this very transaction).  A dry run answers the plan and
writes nothing.  A purge stores, as one bank version, the rewritten files, the rewritten
journal lines (the chain re-linked) and the `purge` line chained on the last of them
(`rows.store`: the facts and recall rows of the files derived again, the journal folded
again, the vectors of the removed texts deleted); the database's trigger on the purge line
tells every replica to drop its copies of the bank (memfold.server.notices).

On a replica with a model (`vectors`), the plan also names the vectors it drops, as a copy's
plan names those of its own store (`forget.vectors_place`): the texts whose vectors a copy
drops (the removed bullets' and the rewritten ones'), counted as the distinct keys of the
bank's `vectors` rows made of them.  The purge deletes those rows, and the judge's readings
of them, in its own transaction (`rows.store`, memfold.server.vectors.drop_purged), and
every replica forgets its matrices of the bank on the purge's notice.  (A copy counts the
vectors of its own store, which holds every fact's once a recall or a run embedded them;
these rows are the same ones, for every replica.)
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from memfold import forget
from memfold.embed.store import fact_text, text_key
from memfold.journal.log import JOURNAL_NAME
from memfold.server import pgreflect
from memfold.server.pgindex import PgRecallIndex
from memfold.server.pgwrite import BankWrite, chained, signed

if TYPE_CHECKING:
    from memfold.forget import PurgePlan

_FILES = ("SELECT path, content FROM files WHERE bank_id = %s AND content IS NOT NULL"
          " ORDER BY path")
_LINES = "SELECT seq, line FROM events WHERE bank_id = %s ORDER BY seq"
_VECTORS = "SELECT count(DISTINCT key) FROM vectors WHERE bank_id = %s AND key = ANY(%s)"


def purge(write: BankWrite, fact_id: str, *, dry_run: bool, ts: str,
          source: str | None, vectors: bool = False) -> PurgePlan:
    """Plan the purge of a fact over the bank's rows and, unless `dry_run`, store it;
    `vectors`: the replica has a model, and the plan names the vectors dropped."""
    fact = forget.the_fact(PgRecallIndex(write.conn, write.bank_id), fact_id)
    tokens = forget.secret_tokens(fact)
    files = {str(p): bytes(c) for p, c in write.conn.execute(_FILES, [write.bank_id])}
    docs, texts = forget.plan_docs(files, fact, tokens)  # (their vectors: `rows.store` drops)
    events = [(int(seq), str(line)) for seq, line in write.conn.execute(_LINES,
                                                                        [write.bank_id])]
    journal = forget.plan_journal(_journal_bytes(events), tokens, fact.content)
    rewrites = {**docs, **({JOURNAL_NAME: journal} if journal else {})}
    snapshot = pgreflect.stored(write.conn, write.bank_id) is not None
    dropped = _vectors(write, texts) if vectors else 0
    derived = [forget.index_place(), *([forget.vectors_place(dropped)] if dropped else []),
               *([forget.undo_place()] if snapshot else [])]
    plan = forget.planned(fact, tokens, rewrites, docs, derived, dry_run=dry_run)
    if dry_run:
        return plan
    lines = _rewritten(events, journal)
    seq, prev = write.tail() if not events else (events[-1][0], _hash(lines, events))
    record = signed([forget.purge_record(fact)], source or write.caller.name)
    added = chained(record, ts, seq, prev)
    write.store(files={rel: rw.after for rel, rw in docs.items()},
                lines=[*lines, *((e.seq, e.line()) for e in added)])
    if snapshot:  # reflect's undo manifest may hold the text
        pgreflect.keep(write.conn, write.caller.tenant, write.bank_id, write.version, None)
    return plan


def _vectors(write: BankWrite, texts: list[str]) -> int:
    """How many vectors of these texts the bank's rows hold (one a text, whichever model
    made it: a copy's store holds one a text)."""
    if not texts:
        return 0
    keys = sorted({text_key(fact_text(text)) for text in texts})
    row = write.conn.execute(_VECTORS, [write.bank_id, keys]).fetchone()
    return 0 if row is None else int(row[0])


def _journal_bytes(events: list[tuple[int, str]]) -> bytes | None:
    """The journal file a copy holds of these lines (None: it has none)."""
    if not events:
        return None
    return b"".join(line.encode("utf-8", "surrogatepass") + b"\n" for _, line in events)


def _rewritten(events: list[tuple[int, str]],
               journal: forget.Rewrite | None) -> list[tuple[int, str]]:
    """The journal lines the purge rewrote, as (seq, line)."""
    if journal is None:
        return []
    after = journal.after.decode("utf-8", "surrogatepass").split("\n")
    return [(seq, new) for (seq, old), new in zip(events, after, strict=False) if new != old]


def _hash(rewritten: list[tuple[int, str]], events: list[tuple[int, str]]) -> str:
    """The hash of the journal's last line as the purge leaves it."""
    last = dict(rewritten).get(events[-1][0], events[-1][1])
    return str(json.loads(last)["hash"])
