"""A bank on a memfold server, with the methods of `Memory`: `memfold.connect(...)`.

`connect(server, token=..., bank=...)` (else MEMFOLD_SERVER, MEMFOLD_TOKEN and MEMFOLD_BANK,
default bank "main") gives a `RemoteMemory`.  Its methods take the arguments Memory's take
and return the same types, rebuilt from the server's JSON by each type's `from_dict`, so the
CLI (`memfold --server URL ...`), `memfold call` and `memfold mcp` run on it unchanged.  Each
call is one request to `POST /v1/banks/{bank}/{verb}` (memfold.client.http: the standard
library only); the server's refusals come back as memfold's own errors — UnknownId,
StaleRevision with `.current`, AccessDenied, Unavailable.

Where a server differs from a local workspace, by design:

- the server signs every write with the token's name, so a `source` is not sent and
  `signed()` changes nothing;
- the server's clock is the time: `now=` is refused (as `memfold --as-of` is);
- the server redacts likely secrets in every answer and refuses them on retain:
  `show_secrets=True` and `allow_secret=True` are refused;
- `get` counts as a use, as locally, when the token may write; with a read-only token it is
  a plain read, and `notices` says so;
- recall's `budget` is packed here, as Memory packs it, on the whole results the server sent
  (their redacted text is what is measured);
- `review` lists at most 500 items a call (the verb's bound; `total` counts them all), and
  `limit=None` asks for that many;
- local-only, refused with BadInput: `index` (the server keeps each bank's index up to date
  itself), `warnings` (one by one; status counts them), `views` and `workspace` (files on
  this machine).

`RemoteMemory` satisfies `memfold.api.MemoryAPI`, as `Memory` does: mypy holds both to it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from datetime import date, datetime
from types import TracebackType
from typing import TYPE_CHECKING, Any, NoReturn

from memfold import config, names
from memfold.client.http import bank_path, request, server_settings
from memfold.errors import AccessDenied, BadInput, StaleRevision
from memfold.recall.search import check_budget, within_budget
from memfold.values import (
    AboutResult,
    Hit,
    ParseWarning,
    RecallResult,
    RetainResult,
    StatusReport,
    SyncReport,
)

if TYPE_CHECKING:
    from memfold.api import MemoryAPI
    from memfold.forget import PurgePlan
    from memfold.index.base import Progress
    from memfold.journal.log import Event
    from memfold.lifecycle.review import ReviewOutcome, ReviewQueue
    from memfold.recall.search import Trace
    from memfold.reflect.plan import ReflectPlan
    from memfold.session.context import SessionContext
    from memfold.session.core import CoreEdit, CoreMemory

DEFAULT_BANK = "main"


def connect(server: str | None = None, *, token: str | None = None,
            bank: str | None = None) -> RemoteMemory:
    """A handle on `bank` of the memfold server at `server` (else MEMFOLD_SERVER), with
    `token` (else MEMFOLD_TOKEN); the bank defaults to MEMFOLD_BANK, else "main".  Nothing is
    sent until the first call.

    >>> with memfold.connect("http://127.0.0.1:8700", bank="main") as memory:  # doctest: +SKIP
    ...     memory.retain("W @Peter: Lives in Vienna.")
    """
    url, secret = server_settings(server, token)
    return RemoteMemory(url, secret, bank or config.text("MEMFOLD_BANK"))


def _local_only(what: str, why: str) -> NoReturn:
    raise BadInput(f"{what} is not available against a server: {why}")


def _no_clock(now: datetime | str | None) -> None:
    if now is not None:
        _local_only("now (--as-of)", "a server answers as of its own clock")


def _redacting(show_secrets: bool) -> None:
    if show_secrets:
        _local_only("show_secrets (--show-secrets)",
                    "a server redacts likely secrets in every answer")


REVIEW_MOST = 500  # the review verb's bound on `limit` (agents.tools: the review tool's)


def _day(value: date | str | None) -> str | None:
    return value.isoformat() if isinstance(value, date) else value


def _id(fact_id: str) -> str:
    return names.fact_id(fact_id)


def _names(entity: str | Sequence[str]) -> list[str] | None:
    """Entity names as the review verbs take them (None, left out, for none)."""
    listed = [entity] if isinstance(entity, str) else list(entity)
    return [name for name in listed if name.strip()] or None


class RemoteMemory:
    """One bank of a memfold server, answering Memory's verbs over its REST API."""

    def __init__(self, url: str, token: str, bank: str = DEFAULT_BANK) -> None:
        if not bank.strip():
            raise BadInput("give a bank name, e.g. --bank main")
        self.url = url.rstrip("/")
        self.bank = bank
        self._token = token
        self._notices: list[str] = []

    def __repr__(self) -> str:
        return f"RemoteMemory({self.url!r}, bank={self.bank!r})"

    def _call(self, verb: str, args: Mapping[str, Any]) -> Any:
        body = {key: value for key, value in args.items() if value is not None}
        return request(self.url, self._token, "POST", bank_path(self.bank, verb), body)

    # -- the handle ---------------------------------------------------------------------

    def __enter__(self) -> RemoteMemory:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Nothing to release: every call is a request of its own."""

    @property
    def notices(self) -> list[str]:
        """What this handle has to say beside the answers (one line each)."""
        return list(self._notices)

    @contextlib.contextmanager
    def signed(self, source: str | None) -> Iterator[None]:
        """Changes nothing: the server signs every write with the token's name."""
        yield

    # -- retain and recall --------------------------------------------------------------

    def retain(self, bullets: str | Sequence[str], *, date: date | str | None = None,
               now: datetime | str | None = None, source: str | None = None,
               allow_secret: bool = False, future: bool = False,
               idempotency_key: str | None = None) -> RetainResult:
        """Append Retain bullets to the bank's day log (signed with the token's name)."""
        _no_clock(now)
        if allow_secret:
            _local_only("allow_secret (--allow-secret)",
                        "a server refuses bullets that look like secrets")
        if future:
            _local_only("future (--future)",
                        "a server refuses a date more than a day after today")
        items = [bullets] if isinstance(bullets, str) else list(bullets)
        return RetainResult.from_dict(self._call("retain", {
            "bullets": items, "date": _day(date), "idempotency_key": idempotency_key}))

    def recall(
        self,
        query: str,
        *,
        k: int = 25,
        since: str | date | None = None,
        until: str | date | None = None,
        kinds: Sequence[str] | str | None = None,
        entities: Sequence[str] = (),
        include_all: bool = False,
        budget: int | None = None,
        now: datetime | str | None = None,
        mode: str | None = None,
        show_secrets: bool = False,
        rerank: bool = False,
        strict: bool = False,
    ) -> RecallResult:
        """Ranked, cited facts for a query (see Memory.recall)."""
        _no_clock(now)
        _redacting(show_secrets)
        if rerank:
            _local_only("rerank (--rerank)", "a server ranks with its own settings")
        check_budget(budget)
        listed = kinds.split(",") if isinstance(kinds, str) else kinds
        found = RecallResult.from_dict(self._call("recall", {
            "query": query, "k": k, "since": _day(since), "until": _day(until),
            "kinds": [kind.strip() for kind in listed if kind.strip()] if listed else None,
            "entities": list(entities) or None, "include_all": include_all, "mode": mode,
            **({"strict": True} if strict else {})}))
        if strict:  # the server left weak hits out; a server that did not is answered so
            found = found.strict()
        if budget is None:
            return found
        packed = within_budget(found.hits, budget)  # as Memory packs them
        return replace(found, hits=tuple(packed),
                       truncated=found.truncated + len(found.hits) - len(packed))

    def about(self, name: str, *, k: int = 50, include_all: bool = False,
              now: datetime | str | None = None, show_secrets: bool = False) -> AboutResult:
        """An entity's page and its linked facts, newest first."""
        _no_clock(now)
        _redacting(show_secrets)
        return AboutResult.from_dict(self._call("about", {"name": name, "k": k,
                                                          "include_all": include_all}))

    def get(self, fact_id: str, *, strict: bool = False, use: bool = True,
            now: datetime | str | None = None, show_secrets: bool = False) -> Hit:
        """One fact by id, with its provenance, as it was before this look; a use of it
        unless `use=False` (or the token may only read)."""
        _no_clock(now)
        _redacting(show_secrets)
        fact_id = _id(fact_id)
        # as Memory.get: the fact as it was, then the use (which may revive it)
        hit = Hit.from_dict(self._call("show", {"id": fact_id, "strict": strict}))
        if use:
            try:
                self._call("use", {"ids": [fact_id]})
            except AccessDenied as exc:
                if exc.status != 403:
                    raise
                self._notices.append(f"{fact_id} was read, not counted as a use: this token "
                                     "may not write")
        return hit

    # -- lifecycle ----------------------------------------------------------------------

    def use(self, fact_id: str, *, now: datetime | str | None = None,
            source: str | None = None) -> None:
        """Acknowledge that a fact was used (its decay restarts)."""
        _no_clock(now)
        self._call("use", {"ids": [_id(fact_id)]})

    def note(self, fact_id: str, text: str, *, rev: int,
             now: datetime | str | None = None, source: str | None = None) -> int:
        """Set a fact's note if its revision is still `rev`; the new revision, or
        StaleRevision (with `.current`)."""
        _no_clock(now)
        if not isinstance(rev, int) or isinstance(rev, bool) or rev < 0:
            raise BadInput(f"--rev must be a revision number (0 or more), not {rev!r}")
        fact_id = _id(fact_id)
        try:
            return int(self._call("note", {"id": fact_id, "text": text, "rev": rev})["rev"])
        except StaleRevision as exc:  # the server's 409 carries the revision, not the words
            raise StaleRevision(f"stale: {fact_id} is at revision {exc.current}, not {rev}",
                                current=exc.current) from None

    def supersede(self, old_id: str, new_id: str, *, reason: str = "superseded by hand",
                  now: datetime | str | None = None, source: str | None = None) -> bool:
        """Mark OLD superseded by NEW; False when it already was."""
        _no_clock(now)
        return bool(self._call("supersede", {"old": _id(old_id), "new": _id(new_id),
                                             "reason": reason})["changed"])

    def restore(self, fact_id: str, *, reason: str = "restored by hand",
                now: datetime | str | None = None, source: str | None = None) -> None:
        """Make a superseded or archived fact active again."""
        _no_clock(now)
        self._call("restore", {"id": _id(fact_id), "reason": reason})

    def forget(self, fact_id: str, *, purge: bool = False, dry_run: bool = False,
               now: datetime | str | None = None, source: str | None = None) -> list[str]:
        """Archive a fact, or with `purge` remove every copy; the files a purge changes."""
        _no_clock(now)
        if not purge:
            if dry_run:
                raise BadInput("dry_run goes with purge: archiving changes no file")
            self._call("forget", {"id": _id(fact_id)})
            return []
        return list(self.purge(fact_id, dry_run=dry_run).files)

    def purge(self, fact_id: str, *, dry_run: bool = False,
              now: datetime | str | None = None, source: str | None = None) -> PurgePlan:
        """Remove a fact and every copy of its text from the bank (see Memory.purge)."""
        from memfold.forget import PurgePlan

        _no_clock(now)
        return PurgePlan.from_dict(self._call("forget", {"id": _id(fact_id), "purge": True,
                                                         "dry_run": dry_run}))

    def history(self, fact_id: str) -> list[Event]:
        """The journal events about a fact, oldest first."""
        from memfold.journal.log import Event

        answer = self._call("history", {"id": _id(fact_id)})
        return [Event.from_dict(event) for event in answer["events"]]

    def trace(self, fact_id: str, *, now: datetime | str | None = None,
              show_secrets: bool = False) -> Trace:
        """A fact's lineage both ways."""
        from memfold.recall.search import Trace

        _no_clock(now)
        _redacting(show_secrets)
        return Trace.from_dict(self._call("trace", {"id": _id(fact_id)}))

    # -- the judge's decisions --------------------------------------------------------------

    def review(self, *, since: str | None = None, entity: str | Sequence[str] = (),
               rule: str | None = None, settled: bool = False, limit: int | None = 50,
               now: datetime | str | None = None) -> ReviewQueue:
        """The judge's decisions waiting for a word, newest first (see Memory.review)."""
        from memfold.lifecycle.review import ReviewQueue

        _no_clock(now)
        return ReviewQueue.from_dict(self._call("review", {
            "since": since, "entities": _names(entity), "rule": rule, "settled": settled,
            "limit": REVIEW_MOST if limit is None else limit}))

    def accept(self, item: str | int, *, reason: str | None = None,
               now: datetime | str | None = None, source: str | None = None) -> ReviewOutcome:
        """Accept review item `item`: the conflict's newer fact supersedes the older one."""
        from memfold.lifecycle.review import ReviewOutcome

        _no_clock(now)
        return ReviewOutcome.from_dict(self._call("review_accept", {"item": str(item),
                                                                     "reason": reason}))

    def reject(self, item: str | int | None = None, *, rule: str | None = None,
               since: str | None = None, entity: str | Sequence[str] = (),
               reason: str | None = None, dry_run: bool = False,
               now: datetime | str | None = None, source: str | None = None) -> ReviewOutcome:
        """Reject review item `item`, or every waiting item of `rule` (see Memory.reject)."""
        from memfold.lifecycle.review import ReviewOutcome

        _no_clock(now)
        return ReviewOutcome.from_dict(self._call("review_reject", {
            "item": None if item is None else str(item), "rule": rule, "since": since,
            "entities": _names(entity), "reason": reason, "dry_run": dry_run}))

    # -- reports ------------------------------------------------------------------------

    def status(self) -> StatusReport:
        """The bank's counts, warnings and freshness (its workspace is `tenant/bank`)."""
        return StatusReport.from_dict(self._call("status", {}))

    def entities(self) -> list[tuple[str, int]]:
        found = self._call("entities", {"limit": 1000})["entities"]  # the verb's most
        return [(e["name"], e["facts"]) for e in found]

    def link_warnings(self) -> list[ParseWarning]:
        return list(self.status().link_warnings)

    def stale_pages(self) -> list[dict[str, object]]:
        return [dict(page) for page in self.status().stale_pages]

    def warnings(self) -> list[ParseWarning]:
        _local_only("the list of parse warnings", "status counts them; `memfold export` "
                    "writes the bank out for a local `memfold index`")

    def index(self, *, full: bool = False, progress: Progress | None = None,
              judge: bool = True) -> SyncReport:
        _local_only("index", "the server keeps each bank's index up to date itself")

    @property
    def views(self) -> NoReturn:
        _local_only("views", "they read a workspace's files on this machine")

    @property
    def workspace(self) -> NoReturn:
        _local_only("workspace", f"the bank {self.bank!r} lives on {self.url}")

    # -- reflect ------------------------------------------------------------------------

    def reflect(self, *, since: str | date = "7d", dry_run: bool = False,
                now: datetime | str | None = None) -> ReflectPlan:
        """Consolidate, weigh opinions, refresh entity pages (on the server); with
        `dry_run` nothing is written and `plan.diff()` is what a run would write."""
        from memfold.reflect.plan import ReflectPlan

        _no_clock(now)
        return ReflectPlan.from_dict(self._call("reflect", {"since": _day(since),
                                                            "dry_run": dry_run}))

    def reflect_undo(self, *, now: datetime | str | None = None) -> list[str]:
        """Restore the pages the last reflect wrote and take back its decisions."""
        _no_clock(now)
        return [str(page) for page in self._call("reflect_undo", {})["undone"]]

    # -- core memory and context ----------------------------------------------------------

    def core(self) -> CoreMemory:
        from memfold.session.core import CoreMemory

        return CoreMemory.from_dict(self._call("core_view", {}))

    def _edit(self, verb: str, args: Mapping[str, Any]) -> CoreEdit:
        from memfold.session.core import CoreEdit

        return CoreEdit.from_dict(self._call(verb, args))

    def core_append(self, block: str, text: str, *, now: datetime | str | None = None,
                    source: str | None = None) -> CoreEdit:
        _no_clock(now)
        return self._edit("core_append", {"block": block, "text": text})

    def core_replace(self, block: str, old: str, new: str, *,
                     now: datetime | str | None = None,
                     source: str | None = None) -> CoreEdit:
        _no_clock(now)
        return self._edit("core_replace", {"block": block, "old": old, "new": new})

    def core_insert(self, block: str, line: int, text: str, *,
                    now: datetime | str | None = None, source: str | None = None) -> CoreEdit:
        _no_clock(now)
        return self._edit("core_insert", {"block": block, "line": line, "text": text})

    def core_undo(self, *, now: datetime | str | None = None,
                  source: str | None = None) -> CoreEdit:
        _no_clock(now)
        return self._edit("core_undo", {})

    def context(self, *, budget: int | None = None, now: datetime | str | None = None,
                show_secrets: bool = False) -> SessionContext:
        """The session-start context within `budget` tokens (the server builds it)."""
        from memfold.session.context import SessionContext

        _no_clock(now)
        _redacting(show_secrets)
        return SessionContext.from_dict(self._call("context", {"budget": budget}))


if TYPE_CHECKING:  # mypy holds RemoteMemory to the verbs Memory has (memfold.api)
    _IS_API: type[MemoryAPI] = RemoteMemory
