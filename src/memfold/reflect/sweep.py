"""Reflect's lifecycle sweep, and its proposals for core memory.

The sweep journals the facts whose validity ended (`expire`), or whose decay crossed the
archive threshold (`archive`, reason "decay"), within the run's window.  Proposals name
important (importance 8 or more) or often-used (3 uses or more) active facts that memory.md
does not hold yet; they are for the report only, never written.
"""

from __future__ import annotations

import math
from datetime import date, timedelta

from memfold.index.base import Candidate, Filters
from memfold.journal.events import Archive, Expire
from memfold.journal.fold import ARCHIVE_THRESHOLD, ARCHIVED, EXPIRED, half_life_days, status_of
from memfold.lifecycle.ledger import content_sha
from memfold.reflect.draft import KIND_PAGES, Draft
from memfold.values import Interval


def sweep(draft: Draft) -> None:
    """Journal the expiries and decay archivals that fell within the window."""
    plan = draft.plan
    oldest = plan.since - timedelta(days=int(half_life_days(10) * 2) + 1)
    pool = draft.backend.recent(Filters(kinds=tuple(KIND_PAGES),
                                        window=Interval(oldest, plan.today)), 1_000_000)
    for c in pool:
        if c.fact.id in draft.replaced or (c.life and c.life.status):
            continue
        status, _ = status_of(c.fact, c.life, plan.today)
        if status == EXPIRED and c.fact.valid and c.fact.valid.end and \
                plan.since <= c.fact.valid.end + timedelta(days=1) <= plan.today:
            plan.records.append(Expire(id=c.fact.id, reason=f"valid until {c.fact.valid.end}",
                                       sha=content_sha(c.fact.content)))
            plan.swept.append((c.fact.id, EXPIRED))
        elif status == ARCHIVED and plan.since <= _archived_on(c) <= plan.today:
            plan.records.append(Archive(id=c.fact.id, reason="decay",
                                        sha=content_sha(c.fact.content)))
            plan.swept.append((c.fact.id, ARCHIVED))


def propose_core(draft: Draft) -> None:
    """Propose the important or often-used facts memory.md lacks (report only)."""
    core = draft.page_text("memory.md").casefold()
    for c in draft.backend.recent(Filters(kinds=("world", "opinion")), 100_000):
        if not draft.active(c) or draft.is_secret(c.fact.content):
            continue
        important = (c.fact.importance or 0) >= 8 or (c.life is not None and c.life.uses >= 3)
        if important and c.fact.content.casefold() not in core:
            draft.plan.proposals.append(f"add to memory.md: {c.fact.content} ({c.fact.source})")


def _archived_on(c: Candidate) -> date:
    """The day a fact's decay crossed the archive threshold."""
    base = c.fact.day or date.min
    days = half_life_days(c.fact.importance) * math.log2(1 / ARCHIVE_THRESHOLD)
    return base + timedelta(days=math.ceil(days))
