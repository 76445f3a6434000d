"""The journal: `journal.jsonl`, the append-only record of everything Markdown does not hold.

The Markdown files say what a fact is (content, kind, entities, written params).  What the
machine decides or a person records outside them — a fact superseded and why, a note and its
revision, a use, a status change — is one JSON line here, appended and never rewritten.  The
index replays this file, so deleting `.memory/` loses nothing.

Each line is one event:

    {"seq": 7, "ts": "2025-11-30T09:00:00+00:00", "event": "note", "id": "k3x9q2ma",
     "rev": 2, "note": "checked with Peter", "prev": "<hash of line 6>", "hash": "<...>"}

`hash` is SHA-256 (first 16 hex digits) of the previous line's hash and this event's canonical
JSON, so the lines form a chain: an edited, reordered or deleted line breaks it, and
`verify()` names the first line that does not follow.  A torn last line (a crash in the middle
of an append) is skipped with a warning, never fatal; the next append cuts it off first (its
writer died before acknowledging anything), so it never stays inside the file.

Appends happen under the workspace write lock, in one write, followed by fsync; the ledger
is their only caller.  What a line records from `event` on is a typed record (events.py); an
`Event` adds its place in the chain.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memfold.journal.events import Record, from_dict
from memfold.workspace.files import WriteLock, append_durably

JOURNAL_NAME = "journal.jsonl"
TAIL_BYTES = 64 * 1024
GENESIS = "0" * 16


@dataclass(frozen=True)
class Event:
    """One journal line: its place in the chain (seq, ts, prev, hash) and its typed record."""

    seq: int
    ts: str
    record: Record
    hash: str = ""
    prev: str = ""

    @classmethod
    def of(cls, *, seq: int, ts: str, event: str, id: str, data: Mapping[str, Any]) -> Event:
        """An event from its parts as the index stores them (the record's kind, id, keys)."""
        return cls(seq=seq, ts=ts, record=from_dict({"event": event, "id": id, **data}))

    @property
    def event(self) -> str:
        return self.record.kind

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def data(self) -> dict[str, Any]:
        """The record's keys after `event` and `id`, as written."""
        return {k: v for k, v in self.record.to_dict().items() if k not in ("event", "id")}

    def to_dict(self) -> dict[str, Any]:
        """The body the chain hash covers: the line without `prev` and `hash`."""
        return {"seq": self.seq, "ts": self.ts, **self.record.to_dict()}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Event:
        """An event from `to_dict` (or a whole line, `prev` and `hash` included)."""
        return parse(d)

    def line(self) -> str:
        """The journal line, without its newline."""
        return json.dumps({**self.to_dict(), "prev": self.prev, "hash": self.hash},
                          ensure_ascii=False)


@dataclass(frozen=True)
class ReadResult:
    events: list[Event]
    offset: int  # bytes consumed: the next read starts here
    last_hash: str
    last_seq: int
    warnings: list[str]


def chain_hash(prev: str, body: Mapping[str, Any]) -> str:
    """The hash that links an event (its body without prev/hash) to the line before."""
    canonical = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(f"{prev}\n{canonical}".encode()).hexdigest()[:16]


def parse(obj: Mapping[str, Any]) -> Event:
    """The event of a line's JSON object; raises KeyError, TypeError or ValueError when it
    is not one (no seq, ts, event or id)."""
    if not isinstance(obj, Mapping):
        raise TypeError("a journal line is a JSON object")
    record = from_dict({k: v for k, v in obj.items() if k not in ("seq", "ts", "hash", "prev")})
    return Event(seq=int(obj["seq"]), ts=str(obj["ts"]), record=record,
                 hash=str(obj.get("hash", "")), prev=str(obj.get("prev", "")))


class Journal:
    """Append and read `journal.jsonl` in a workspace."""

    def __init__(self, root: Path, lock: WriteLock) -> None:
        self.path = root / JOURNAL_NAME
        self.lock = lock

    def size(self) -> int:
        try:
            return self.path.stat().st_size
        except FileNotFoundError:
            return 0

    def read(self, offset: int = 0, *, last_hash: str = GENESIS,
             last_seq: int = 0) -> ReadResult:
        """Events from byte `offset` on.  A line that does not parse is skipped with a
        warning; an incomplete last line is left unread (a writer may still be finishing)."""
        try:
            with open(self.path, "rb") as handle:
                handle.seek(offset)
                data = handle.read()
        except FileNotFoundError:
            return ReadResult([], 0, last_hash, last_seq, [])
        events: list[Event] = []
        warnings: list[str] = []
        consumed = 0
        for raw in data.splitlines(keepends=True):
            complete = raw.endswith(b"\n")
            line_no = offset + consumed
            if not complete:
                if raw.strip():
                    warnings.append(f"{JOURNAL_NAME}: byte {line_no}: incomplete last line "
                                    "skipped (a crash during an append?)")
                break
            consumed += len(raw)
            if not raw.strip():
                continue
            try:
                obj = json.loads(raw)
                event = parse(obj)
            except (ValueError, KeyError, TypeError):
                warnings.append(f"{JOURNAL_NAME}: byte {line_no}: unreadable line skipped")
                continue
            events.append(event)
            last_hash, last_seq = event.hash or last_hash, max(last_seq, event.seq)
        return ReadResult(events, offset + consumed, last_hash, last_seq, warnings)

    def append(self, records: Iterable[Record], *, ts: str,
               locked: bool = False) -> list[Event]:
        """Append records as events (numbered, stamped `ts`, chained) in one durable write.

        Pass `locked=True` when the caller already holds the workspace write lock.  Only the
        ledger calls this (`Ledger.append`, `Ledger.transact`).
        """
        if locked:
            return self._append(list(records), ts)
        with self.lock.held():
            return self._append(list(records), ts)

    def _append(self, records: list[Record], ts: str) -> list[Event]:
        if not records:
            return []
        prev, seq, torn = self._tail()
        if torn:  # a writer died mid-append, before it acknowledged anything: cut it off
            with open(self.path, "r+b") as handle:
                handle.truncate(self.size() - torn)
                os.fsync(handle.fileno())
        lines: list[str] = []
        events: list[Event] = []
        for record in records:
            seq += 1
            digest = chain_hash(prev, {"seq": seq, "ts": ts, **record.to_dict()})
            events.append(Event(seq=seq, ts=ts, record=record, hash=digest, prev=prev))
            lines.append(events[-1].line())
            prev = digest
        append_durably(self.path, ("\n".join(lines) + "\n").encode())
        return events

    def _tail(self) -> tuple[str, int, int]:
        """(hash of the last complete line, its seq, bytes of a torn line after it)."""
        size = self.size()
        if size == 0:
            return GENESIS, 0, 0
        with open(self.path, "rb") as handle:
            start = max(0, size - TAIL_BYTES)
            handle.seek(start)
            data = handle.read()
        if b"\n" not in data and start:  # one line longer than the window: read it all
            with open(self.path, "rb") as handle:
                whole = handle.read()
            torn = len(whole) - (whole.rfind(b"\n") + 1)
        else:
            torn = len(data) - (data.rfind(b"\n") + 1)
        if start and b"\n" in data:
            data = data[data.index(b"\n") + 1 :]
        for raw in reversed(data.splitlines()):
            try:
                obj = json.loads(raw)
                return str(obj["hash"]), int(obj["seq"]), torn
            except (ValueError, KeyError, TypeError):
                continue
        if start:  # the tail holds no complete event: read everything
            result = self.read()
            return result.last_hash, result.last_seq, torn
        return GENESIS, 0, torn

    def verify(self) -> tuple[int, str | None]:
        """(events checked, None) when the chain holds, else the first problem."""
        result = self.read()
        if result.warnings:
            return len(result.events), result.warnings[0]
        prev = GENESIS
        for n, event in enumerate(result.events, 1):
            if event.prev != prev or chain_hash(prev, event.to_dict()) != event.hash:
                return n - 1, f"{JOURNAL_NAME}: event {n} (seq {event.seq}) breaks the chain"
            prev = event.hash
        return len(result.events), None

