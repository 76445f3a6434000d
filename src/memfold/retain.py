"""Retain: new bullets appended to the day's log, journaled and indexed — the write path.

This module owns what a retain checks and the order in which it writes; `Memory.retain` only
resolves who writes and when.

Retain protocol (several processes may retain at once):
 1. validate every bullet (syntax, length, control characters, likely secrets); on any
    error raise BadInput and write nothing;
 2. take the workspace write lock (flock on `.memory/write.lock`), once, for steps 3-6;
 3. check the block ids the caller gave against the index: every retain indexes its file
    before it lets go of the lock, so the index knows every id retained so far.  An id
    already used raises BadInput and nothing is written — of two callers racing with the
    same id, exactly one wins;
 4. read the day's file and append the bullets in one write to its last Retain section
    (a new file is created atomically); fsync — the bullets are now durable in Markdown;
 5. journal who retained them (one `retain` event); if that fails the bullets stay stored
    and the caller gets a notice.  A retain with an idempotency key first looks the key
    up (the journal replayed into the index, under the lock): a key seen before writes
    nothing and answers the facts that retain stored (`repeated`); else the `retain`
    event records the key;
 6. index the file (`BEGIN IMMEDIATE`), still under the lock, so a slower writer can never
    index an older version of the file over a newer one.  If this fails the facts are still
    stored, and the next sync indexes them;
 7. release the lock: the bullets are acknowledged.
 8. Then, as a separate step, `Ledger.after_sync` judges the new facts against older ones:
    the judge weighs outside the lock (a model judge may take seconds), and a ledger
    transaction takes the lock again to journal the supersedes still valid then (and
    revisions of facts edited by hand in the same file).  A failure here leaves the bullets
    stored, with a notice.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from typing import Protocol

from memfold.errors import BadInput, IndexDamaged, MemfoldError
from memfold.index.base import DocChange, IndexBackend
from memfold.index.sync import sync, sync_appended
from memfold.journal.events import Retain
from memfold.journal.log import Event
from memfold.lifecycle.ledger import Ledger, content_sha
from memfold.screening import check_secrets, hidden_note, refuse_undecodable, valid_source
from memfold.values import (
    Fact,
    FileStamp,
    Judgement,
    ParsedDoc,
    ParseWarning,
    RetainResult,
    SyncReport,
)
from memfold.workspace.files import append_durably, replace_atomically
from memfold.workspace.format import (
    Bullet,
    FactSyntaxError,
    decode,
    parse_appended,
    parse_bullet,
    parse_document,
    prepare_append,
    render_bullet,
)
from memfold.workspace.layout import Workspace

MAX_BULLET_CHARS = 20_000
MAX_KEY_CHARS = 200  # an idempotency key's length at most
FUTURE_DAYS = 1  # a --date further ahead is refused unless `future` (a typo, most likely)
ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
# C0 and C1 controls (tab aside) and the Unicode line and paragraph separators
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")
_ID_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"

Notify = Callable[[str], None]


@dataclass(frozen=True)
class _Written:
    """What the locked step wrote: the file as parsed after it, the first line appended,
    and the index sync (None if the index could not be updated)."""

    doc: ParsedDoc
    first_line: int
    report: SyncReport | None
    revised: tuple[str, ...]  # files to check for facts edited by hand (none: only appended)


def new_block_id() -> str:
    """A fresh random block id: 8 characters of [a-z0-9] (about 41 bits)."""
    return "".join(secrets.choice(_ID_ALPHABET) for _ in range(8))


def parse_day(value: date | str, *, what: str = "date") -> date:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    text = value.strip()
    if ISO_DAY.fullmatch(text):
        try:
            return date.fromisoformat(text)
        except ValueError:
            pass
    raise BadInput(f"{what} {value!r} is not a calendar date in the form YYYY-MM-DD")


def validate_bullet(text: str, label: str = "bullet") -> Bullet:
    """A bullet as a caller gave it, checked strictly: any problem raises BadInput."""
    refuse_undecodable(text, label)
    if "\n" in text or "\r" in text:
        raise BadInput(f"{label} has a newline inside its content; give one bullet per line")
    stripped = text.strip()
    if stripped[:2] in ("- ", "* ", "+ "):
        stripped = stripped[2:].lstrip()
    if not stripped:
        raise BadInput(f"{label} is empty")
    if _CONTROL.search(stripped):
        raise BadInput(f"{label} contains a control character; only printable text is kept")
    if len(stripped) > MAX_BULLET_CHARS:
        raise BadInput(f"{label} is {len(stripped)} characters; the limit is {MAX_BULLET_CHARS}")
    try:
        bullet = parse_bullet(stripped)
    except FactSyntaxError as exc:
        raise BadInput(f"{label}: {exc}") from None
    if bullet.errors:
        raise BadInput(f"{label}: {bullet.errors[0]}")
    return bullet


@dataclass(frozen=True)
class RetainPlan:
    """Bullets checked and rendered, ready to write: nothing is written yet."""

    day: date
    origin: str
    lines: tuple[str, ...]  # rendered, each ending with its block id
    given: tuple[str, ...]  # block ids the caller gave, checked against the index when written
    checked: tuple[Bullet, ...]
    flagged: tuple[str, ...]  # allowed secrets and hidden text, for the caller's warnings
    key: str | None = None  # the caller's idempotency key


class _Repeated(Exception):  # noqa: N818 - control flow inside this module, never raised out
    """A retain with this idempotency key was journaled before (`event`)."""

    def __init__(self, event: Event) -> None:
        super().__init__(event.data.get("idempotency_key"))
        self.event = event


def prepare(bullets: str | Sequence[str], *, date: date | str | None,
            clock: Callable[[], datetime], origin: str,
            allow_secret: bool = False, future: bool = False,
            idempotency_key: str | None = None) -> RetainPlan:
    """Step 1 of the protocol: check every bullet and give each a block id.

    `date` is the day's log (default: `clock()`'s day); `origin` who retains them.  Raises
    BadInput for any invalid bullet, a likely secret (unless `allow_secret`), a block id
    given twice, a date more than a day after `clock()`'s (unless `future`), or an idempotency
    key that is empty, longer than 200 characters or holds a control character.
    """
    items = [bullets] if isinstance(bullets, str) else list(bullets)
    if not items:
        raise BadInput("nothing to retain: give at least one bullet")
    day = parse_day(date) if date is not None else clock().date()
    if not future and day > clock().date() + timedelta(days=FUTURE_DAYS):
        raise BadInput(f"--date {day.isoformat()} is more than a day after today "
                       f"({clock().date().isoformat()}): a typo? pass --future (future=True) "
                       "to write to a later day's log")
    origin = valid_source(origin)
    many = len(items) > 1
    labels = [f"bullet {n}" if many else "bullet" for n in range(1, len(items) + 1)]
    checked = [validate_bullet(text, label) for text, label in zip(items, labels, strict=True)]
    flagged = [note for b, label in zip(checked, labels, strict=True)
               for note in (check_secrets(b.content, label, allow=allow_secret),
                            hidden_note(b.content, label)) if note]
    given = [b.block_id for b in checked if b.block_id]
    if len(given) != len(set(given)):
        raise BadInput("the same block id is given to two bullets")
    lines = [render_bullet(replace(b, block_id=b.block_id or new_block_id())) for b in checked]
    return RetainPlan(day=day, origin=origin, lines=tuple(lines), given=tuple(given),
                      checked=tuple(checked), flagged=tuple(flagged),
                      key=_checked_key(idempotency_key))


def _checked_key(key: str | None) -> str | None:
    if key is None:
        return None
    if not key.strip() or len(key) > MAX_KEY_CHARS or _CONTROL.search(key) or "\t" in key:
        raise BadInput(f"--idempotency-key: give 1-{MAX_KEY_CHARS} characters without "
                       "control characters (e.g. a UUID per retain you may retry)")
    return key


def write(plan: RetainPlan, *, workspace: Workspace, backend: IndexBackend, ledger: Ledger,
          clock: Callable[[], datetime], notify: Notify) -> RetainResult:
    """Steps 2-8 of the protocol: write a prepared retain into `workspace`, index it in
    `backend`, journal who retained it and judge it (`ledger`).

    `notify` takes notices for the caller (journal or judge trouble after the bullets are
    stored).  Raises BadInput, writing nothing, when a given block id is already used.
    """
    rel = workspace.daily_path(plan.day)
    target = _Target(workspace, backend, ledger)
    try:
        written = _append(target, rel, plan, ts=_stamp(clock), notify=notify)
    except _Repeated as seen:
        return _repeated(seen.event, target)
    judged: list[Judgement] = []
    if written.report is not None:
        new_ids, revised = written.report.new_ids, list(written.revised)
        try:  # contradictions are judged after the bullets are stored and acknowledged
            try:
                judged = ledger.after_sync(new_ids, revised, ts=_stamp(clock))
            except IndexDamaged as exc:  # rebuilt from the files and the journal, then judged
                ledger.rebuild(exc)
                judged = ledger.after_sync(new_ids, [], ts=_stamp(clock))
        except (MemfoldError, OSError) as exc:
            notify(f"stored, but not yet checked for contradictions ({exc})")
    return _result(rel, written, plan, judged)


def _stamp(clock: Callable[[], datetime]) -> str:
    return clock().isoformat(timespec="seconds")


@dataclass(frozen=True)
class _Target:
    """Where a retain writes: the files, their index, and the journal (through the ledger)."""

    workspace: Workspace
    backend: IndexBackend
    ledger: Ledger


class Locating(Protocol):
    """Where a block id is held (an index, or a server bank's rows)."""

    def locate(self, fact_id: str) -> list[str]: ...


def check_ids_free(backend: Locating, given: Sequence[str]) -> None:
    """Raise BadInput for a block id the index already holds (called under the lock)."""
    for block_id in given:
        where = backend.locate(block_id)
        if where:
            raise BadInput(f"block id ^{block_id} is already used at {where[0]}")


def _append(target: _Target, rel: str, plan: RetainPlan, *, ts: str,
            notify: Notify) -> _Written:
    """Steps 2-7 of the protocol: check the given ids, append, journal who retained the
    bullets and index the file, all under one hold of the write lock."""
    workspace = target.workspace
    path = workspace.abspath(rel)
    try:
        workspace.require_real_dir(path.parent)
        path.parent.mkdir(parents=True, exist_ok=True)
        with workspace.write_lock.held() as held:
            if held.recovered:
                notify(held.recovered)
            _check_key_new(target, plan.key)
            check_ids_free(target.backend, plan.given)
            try:
                before = path.read_bytes()
            except FileNotFoundError:
                before = None
            existing, problems = decode(before) if before is not None else (None, [])
            planned = prepare_append(existing, plan.day.isoformat(), list(plan.lines))
            addition = planned.text.encode()
            if before is None:
                replace_atomically(path, addition)
            else:  # recorded first, so that a power loss mid-append leaves no half bullet
                held.intend_append(path, len(before), addition)
                append_durably(path, addition)
                held.appended()
            after = (before or b"") + addition
            digest = hashlib.sha256(before or b"")  # one pass: the file before, then after
            held_sha = digest.hexdigest()
            digest.update(addition)
            st = path.stat()
            stamp = FileStamp(st.st_size, st.st_mtime_ns, digest.hexdigest(), time.time_ns())
            # only the new lines are parsed and indexed when the index holds the file as it
            # was: a retain's cost then does not grow with the day's log
            tail = None if problems else parse_appended(rel, planned)
            doc = tail or parse_document(rel, after)
            _journal_origin(target.ledger, doc, plan, ts=ts, notify=notify)
            indexed = _index_appended(target, (tail, stamp), held_sha) if tail else None
            revised: tuple[str, ...] = ()  # the index held exactly the lines before
            if indexed is None:  # it holds another version, or none: sync the whole file
                doc, revised = (parse_document(rel, after) if tail else doc), (rel,)
                indexed = _index_quietly(target, rel, doc, stamp)
    except OSError as exc:
        raise MemfoldError(f"could not write {rel}: {exc.strerror or exc}; "
                           "nothing was retained") from exc
    return _Written(doc, planned.first_line, indexed, revised)


def _check_key_new(target: _Target, key: str | None) -> None:
    """Raise _Repeated when a retain journaled `key` before (called under the lock, after
    replaying the journal, so a retain whose process died before replaying counts)."""
    if key is None:
        return
    target.ledger.replay_or_rebuild()
    earlier = target.backend.retained_with_key(key)
    if earlier is not None:
        raise _Repeated(earlier)


def _repeated(event: Event, target: _Target) -> RetainResult:
    """The answer to a retain whose key was seen: the facts the first one stored, as they
    are now (its file synced first if the index lacks them; a fact purged since is left
    out)."""
    ids, path = retained_ids(event)
    found = {c.fact.id: c.fact for c in target.backend.by_ids(ids)}
    if len(found) < len(ids) and path:
        with contextlib.suppress(MemfoldError, OSError):  # else: what the index holds
            sync(target.workspace, target.backend, only=[path])
        found = {c.fact.id: c.fact for c in target.backend.by_ids(ids)}
    return repeated_result(event, found)


def retained_ids(event: Event) -> tuple[list[str], str]:
    """The ids a `retain` event stored, and the file it stored them in."""
    return [str(i) for i in event.data.get("ids", [event.id])], str(event.data.get("path") or "")


def repeated_result(event: Event, found: Mapping[str, Fact]) -> RetainResult:
    """The answer to a retain whose key was seen (`event`): of the facts it stored, those
    still held (`found`, by id)."""
    ids, path = retained_ids(event)
    return RetainResult(path=path, facts=tuple(found[i] for i in ids if i in found),
                        repeated=True)


def _journal_origin(ledger: Ledger, doc: ParsedDoc, plan: RetainPlan, *, ts: str,
                    notify: Notify) -> None:
    """Journal who retained the bullets (the caller holds the lock)."""
    record = retain_record(plan, doc)
    try:  # the bullets are stored: a failure here must not report otherwise
        ledger.append([record], ts=ts, locked=True)
    except (MemfoldError, OSError) as exc:
        notify(f"stored, but who retained it was not journaled "
               f"({exc}); the facts show as written by hand")


def _index_quietly(target: _Target, rel: str, doc: ParsedDoc,
                   stamp: FileStamp) -> SyncReport | None:
    """Index a file just written; a failure leaves the Markdown as the record."""
    try:
        return sync(target.workspace, target.backend, only=[rel], parsed=[(doc, stamp)])
    except (MemfoldError, OSError):
        return None


def _index_appended(target: _Target, tail: DocChange, held: str) -> SyncReport | None:
    """Index only the appended lines, when the index holds the file as it was (sha256
    `held`); None when it does not, or fails (the caller then syncs the whole file)."""
    try:
        return sync_appended(target.workspace, target.backend, tail, held=held)
    except (MemfoldError, OSError):
        return None


def retain_record(plan: RetainPlan, doc: ParsedDoc) -> Retain:
    """The journal record of who retained the plan's bullets, written to `doc` (the file
    after the append, or its appended lines)."""
    ids = [line.rsplit("^", 1)[1] for line in plan.lines]
    text = {f.id: f.content for f in doc.facts if f.id in ids}
    return Retain(id=ids[0], ids=tuple(ids), by=plan.origin,
                  shas=tuple(content_sha(text.get(i, "")) for i in ids), path=doc.path,
                  idempotency_key=plan.key)


def _result(rel: str, written: _Written, plan: RetainPlan,
            judged: Sequence[Judgement]) -> RetainResult:
    return result(rel, written.doc, written.first_line, plan, judged,
                  indexed=written.report is not None)


def result(rel: str, doc: ParsedDoc, first_line: int, plan: RetainPlan,
           judged: Sequence[Judgement], *, indexed: bool = True) -> RetainResult:
    """What the caller is told: the facts appended (those of `doc` from `first_line` on),
    with their warnings and the judge's word."""
    ids = {line.rsplit("^", 1)[1] for line in plan.lines}
    facts = tuple(f for f in doc.facts if f.line >= first_line and f.id in ids)
    warnings = [ParseWarning(rel, f.line, note) for f, b in zip(facts, plan.checked, strict=False)
                for note in b.notes]
    warnings += [ParseWarning(rel, first_line, note) for note in plan.flagged]
    if not indexed:
        warnings.append(ParseWarning(rel, first_line, "stored, but the index was not "
                                     "updated; the next recall or `memfold index` will"))
    return RetainResult(path=rel, facts=facts, warnings=tuple(warnings), indexed=indexed,
                        judged=tuple(judged))
