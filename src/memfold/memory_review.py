"""The facade's review verbs: the judge's decisions listed, accepted and rejected
(`memfold.lifecycle.review` holds the queue and how an item is settled).  Part of `Memory` (its base
class), kept apart for size."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from memfold.errors import BadInput
from memfold.memory_core import Facade, repairs, signs
from memfold.names import entity_key
from memfold.times.parse import TimeSpecError, parse_spec

if TYPE_CHECKING:
    from memfold.lifecycle.review import ReviewOutcome, ReviewQueue, Selection

REVIEW_LIMIT = 50


class ReviewVerbs:
    """review, accept and reject."""

    @repairs
    def review(self: Facade, *, since: str | None = None, entity: str | Sequence[str] = (),
               rule: str | None = None, settled: bool = False, limit: int | None = REVIEW_LIMIT,
               now: datetime | str | None = None) -> ReviewQueue:
        """The judge's decisions waiting for a word, newest first: open conflicts (the older
        fact left active beside a newer one) and automatic supersedes in force — each with
        both facts, the judge, its rule and its reason.  `since` ("30d", "2026-01") keeps
        those judged since then, `entity` those about an entity, `rule` those of one rule
        (or judge); `settled` adds the items already settled; `limit` None lists all."""
        from memfold.lifecycle.review import queue

        if limit is not None and (isinstance(limit, bool) or limit < 1):
            raise BadInput(f"limit must be 1 or more, not {limit!r}")
        self.refresh()
        return queue(self.index_backend, _selection(self, since, entity, rule, settled, now),
                     limit=limit)

    @signs
    @repairs
    def accept(self: Facade, item: str | int, *, reason: str | None = None,
               now: datetime | str | None = None, source: str | None = None) -> ReviewOutcome:
        """Accept a review item (its number, or its older fact's id): an open conflict
        becomes a supersede, journaled with `reason`.  An item already settled is left as
        it is (`unchanged` says by whom and when); an unknown one raises UnknownId."""
        from memfold.lifecycle.review import Selection, settle

        self.refresh()
        return settle(self.ledger, "accept", str(item), Selection(), reason=reason,
                      dry_run=False, ts=self._ts(now))

    @signs
    @repairs
    def reject(self: Facade, item: str | int | None = None, *, rule: str | None = None,
               since: str | None = None, entity: str | Sequence[str] = (),
               reason: str | None = None, dry_run: bool = False,
               now: datetime | str | None = None, source: str | None = None) -> ReviewOutcome:
        """Reject a review item (its number, or its older fact's id) — a conflict is
        dismissed, an automatic supersede undone (the older fact active again) — or, with
        `rule` instead of an item, every item of that rule waiting for a word (`since`,
        `entity` narrow it; `dry_run` only lists them).  Journaled with `reason`."""
        from memfold.lifecycle.review import settle

        self.refresh()
        return settle(self.ledger, "reject", None if item is None else str(item),
                      _selection(self, since, entity, rule, False, now), reason=reason,
                      dry_run=dry_run, ts=self._ts(now))


def _selection(memory: Facade, since: str | None, entity: str | Sequence[str],
               rule: str | None, settled: bool, now: datetime | str | None) -> Selection:
    from memfold.lifecycle.review import Selection

    start = None
    if since is not None:
        try:
            start = parse_spec(since, today=memory.now(now).date()).start
        except TimeSpecError as exc:
            raise BadInput(str(exc)) from None
    names = [entity] if isinstance(entity, str) else list(entity)
    keys = tuple(entity_key(name.strip().lstrip("@")) for name in names if name.strip())
    return Selection(since=start, rule=rule.strip() if rule else None, entity_keys=keys,
                     settled=settled)
