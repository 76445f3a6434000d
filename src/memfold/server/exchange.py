"""Files in and out: a server bank as an ordinary workspace, and a workspace into a bank.

Export (`GET /v1/banks/{bank}/export`, read scope) sends every live file byte for byte
(base64) and every journal line, read in one REPEATABLE READ transaction so they belong to
one bank version.  `memfold export --server URL --bank B DIR` writes them: the daily logs with
their Retain sections and block ids, memory.md, bank/ pages and journal.jsonl, which local
memfold opens with the same facts, statuses, notes and recall.

Import (`POST /v1/banks/{bank}/import`, write scope) is idempotent by block id:
- into an empty bank, the workspace is stored as it is — files byte for byte and the journal
  line for line — as the bank's first version; when that journal holds no decision yet, the
  import judges the facts in the order written and stores the judge's lines in the same
  version (`BankWorkspace.import_whole`), so no later write has to;
- into a bank that holds facts already, each Retain bullet whose block id the bank lacks is
  retained on its own day (signed with the token's name); bullets it has are skipped, so
  importing the same workspace again adds nothing.  A bullet written without `^blockid`
  is known by the id derived from its file and text, and is retained with that id written
  out.  The journal of a non-empty bank is its own: the imported journal is replayed only
  into an empty bank.

An import that stored anything ends by gathering the statistics of the tables it filled
(`memfold_analyze()`, schema 0012, in a transaction of its own right after the import's),
so the recalls that follow are planned on the tables as they are now: without them, until
autovacuum came by (a minute or more), a recall from PostgreSQL was planned on the tables as
they were before the import.  An import stored from PostgreSQL also gathers them inside
its transaction before it judges (memfold.server.pgimport).  The import has committed by
then; a failure to gather them is logged, and autovacuum gathers them later.
"""

from __future__ import annotations

import base64
import json
import logging
from functools import partial
from typing import TYPE_CHECKING, Any

from memfold.errors import BadInput, Unavailable, UnknownBank
from memfold.server import pgimport, pgretain
from memfold.server.admin import Refused, check_bank
from memfold.server.db import NeedsCopy, one_line, tenant_tx
from memfold.server.replica import Replica
from memfold.server.rows import store
from memfold.workspace.format import parse_document
from memfold.workspace.layout import Workspace

if TYPE_CHECKING:
    from psycopg_pool import ConnectionPool

    from memfold.memory import Memory
    from memfold.server.admin import Caller
    from memfold.values import RetainResult

log = logging.getLogger("memfold.server")


def export_bank(pool: ConnectionPool, caller: Caller, bank: str) -> dict[str, Any]:
    if not caller.may("read", bank):
        raise Refused(403, "forbidden: export needs the read scope")
    check_bank(bank)
    with tenant_tx(pool, caller.tenant, snapshot=True) as conn:
        row = conn.execute("SELECT bank_id, head FROM banks WHERE name = %s",
                           [bank]).fetchone()
        if row is None:
            raise UnknownBank(f"no bank {bank!r}")
        files = conn.execute("SELECT path, content FROM files WHERE bank_id = %s AND "
                             "content IS NOT NULL ORDER BY path", [row[0]]).fetchall()
        lines = conn.execute("SELECT line FROM events WHERE bank_id = %s ORDER BY seq",
                             [row[0]]).fetchall()
    return {"bank": bank, "head": row[1],
            "files": [{"path": path, "content": base64.b64encode(bytes(data)).decode()}
                      for path, data in files],
            "journal": [line for (line,) in lines]}


def _checked(body: Any) -> tuple[dict[str, bytes], list[str]]:
    if not isinstance(body, dict) or not isinstance(body.get("files"), list) or \
            not isinstance(body.get("journal", []), list):
        raise BadInput("import: send {\"files\": [{\"path\", \"content\" (base64)}], "
                       "\"journal\": [lines]}")
    files: dict[str, bytes] = {}
    for item in body["files"]:
        path = item.get("path") if isinstance(item, dict) else None
        if not isinstance(path, str) or ".." in path.split("/") or path.startswith("/") \
                or not Workspace.is_tracked(path):
            raise BadInput(f"import: {path!r} is not a workspace Markdown file")
        try:
            files[path] = base64.b64decode(str(item.get("content", "")), validate=True)
        except ValueError:
            raise BadInput(f"import: the content of {path} is not base64") from None
    journal = [str(line) for line in body.get("journal", [])]
    for number, line in enumerate(journal, 1):
        try:
            int(json.loads(line)["seq"])
        except (ValueError, KeyError, TypeError):
            raise BadInput(f"import: journal line {number} is not a journal event") from None
    return files, journal


def import_bank(replica: Replica, caller: Caller, bank: str, body: Any) -> dict[str, Any]:
    if not caller.may("write", bank):
        raise Refused(403, "forbidden: import needs the write scope")
    files, journal = _checked(body)
    known: set[str] = set()
    judged = _whole_from_rows(replica, caller, bank, files, journal, known)
    if judged is None and not known:
        judged = _whole_through_copy(replica, caller, bank, files, journal, known)
    if judged is not None:
        gather_statistics(replica.pool)
        return {"bank": bank, "stored": "whole", "files": len(files),
                "journal": len(journal), "judged": judged, "added": [], "skipped": 0}
    missing: dict[str, list[str]] = {}
    skipped = 0
    for path, data in sorted(files.items()):
        doc = parse_document(path, data)
        if doc.role != "daily" or doc.day is None:
            continue
        lines = data.decode("utf-8", "replace").splitlines()
        for fact in doc.facts:
            if fact.kind == "text":
                continue
            if fact.id in known:
                skipped += 1
                continue
            bullet = lines[fact.line - 1].strip().removeprefix("- ")
            if not fact.explicit_id:  # keep the id it is known by: a second import skips it
                bullet = f"{bullet} ^{fact.id}"
            missing.setdefault(doc.day.isoformat(), []).append(bullet)
    added: list[str] = []
    for day, bullets in missing.items():  # each a retain (from PostgreSQL where it may be)
        result = replica.run(caller, bank, "write", partial(_retain, bullets=bullets, day=day),
                             what="retain")
        added.extend(fact.id for fact in result.facts)
    if added:
        gather_statistics(replica.pool)
    return {"bank": bank, "stored": "merged", "files": len(files), "journal": 0,
            "added": added, "skipped": skipped}


def gather_statistics(pool: ConnectionPool) -> None:
    """`ANALYZE` the tables an import fills, as their owner (`memfold_analyze()`, schema
    0012), in a transaction of its own; a failure is logged (autovacuum gathers them
    later), never raised: the import it follows has committed."""
    import psycopg

    try:
        with tenant_tx(pool, None) as conn:
            conn.execute(pgimport.ANALYZE)
    except (Unavailable, psycopg.Error) as exc:
        log.warning("import: statistics not gathered now (%s); autovacuum will",
                    one_line(exc))


def _whole_from_rows(replica: Replica, caller: Caller, bank: str, files: dict[str, bytes],
                     journal: list[str], known: set[str]) -> int | None:
    """An import into an empty bank stored and judged from PostgreSQL with no copy
    (memfold.server.pgimport): how many lines the judge added; None when the bank holds
    files (their ids put in `known`) or a copy must store it (not serving from
    PostgreSQL, a judge told to load a model the replica lacks, a text that moved from
    its journaled hash)."""
    if replica.recall_from != "postgres" or not pgretain.answerable(replica.embedder):
        return None
    check_bank(bank)
    try:
        return pgimport.into_empty(replica.pool, caller, bank, files, journal, known,
                                   embedder=replica.embedder)
    except NeedsCopy:
        return None


def _whole_through_copy(replica: Replica, caller: Caller, bank: str, files: dict[str, bytes],
                        journal: list[str], known: set[str]) -> int | None:
    """An import into an empty bank stored and judged through the replica's copy (how many
    lines the judge added); None when the bank holds files (their ids put in `known`)."""
    workspace = replica.bank(caller, bank)

    def into_empty(conn: Any, version: int) -> bool:
        """Store the workspace whole when the bank holds no file; else read its facts' ids."""
        empty = conn.execute("SELECT count(*) FROM files WHERE bank_id = %s",
                             [workspace.bank_id]).fetchone()
        if empty is None or empty[0] != 0:
            known.update(row[0] for row in conn.execute(
                "SELECT fact_id FROM facts WHERE bank_id = %s", [workspace.bank_id]))
            return False
        _store_whole(conn, caller.tenant, workspace.bank_id, version, files, journal)
        return True

    return workspace.import_whole(caller, into_empty)


def _retain(memory: Memory, *, bullets: list[str], day: str) -> RetainResult:
    return memory.retain(bullets, date=day, allow_secret=True, future=True)


def _store_whole(conn: Any, tenant: str, bank_id: int, version: int, files: dict[str, bytes],
                 journal: list[str]) -> None:
    with conn.cursor() as cur:
        store(cur, tenant, bank_id, version, files=files,
              lines=[(int(json.loads(line)["seq"]), line) for line in journal])
        cur.execute("UPDATE banks SET head = %s WHERE bank_id = %s", [version, bank_id])
