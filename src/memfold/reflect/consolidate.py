"""Reflect's consolidation: near-duplicate active facts become one.

Facts of one kind naming the same entities, with the same names, numbers and negations
(`text._specifics`) and word overlap at least CONSOLIDATE_AT — or, when the workspace has
vectors, as close as a paraphrase (`Draft.similar`: `recall.fusion.Calibration`) — are
written as one Retain bullet in the generated facts region of bank/<kind>.md, whose text
keeps the dates of its originals (`text.with_dates`).  The originals are journaled `merge`d
into it (kept, not deleted) and the new fact records that it was `derive`d from them.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterable
from datetime import date

from memfold.index.base import Candidate
from memfold.journal.events import Derive, Merge
from memfold.lifecycle.ledger import content_sha
from memfold.names import entity_key
from memfold.reflect.draft import KIND_PAGES, Draft, confidence, oldest_first
from memfold.reflect.text import _core, _overlap, _specifics, _words, with_dates
from memfold.values import Fact
from memfold.workspace.format import FACTS, add_to_region, bullet_line

CONSOLIDATE_AT = 0.6  # Jaccard overlap of content words for near-duplicates


def consolidate(draft: Draft, recent: list[Candidate]) -> None:
    """Merge each group of near-duplicates among the window's facts (and the facts they
    share their entities with) into one new fact."""
    groups: list[list[Candidate]] = []
    grouped: set[str] = set()
    for new in recent:
        if new.fact.id in grouped or not new.fact.entities:
            continue
        keys = {entity_key(e) for e in new.fact.entities}
        words, specifics = _words(_core(new)), _specifics(_core(new))
        alike = [c for c in draft.linked(sorted(keys))
                 if c.fact.kind == new.fact.kind and c.fact.id not in grouped
                 and c.fact.id != new.fact.id
                 and {entity_key(e) for e in c.fact.entities} == keys
                 and _specifics(_core(c)) == specifics]
        peers = [c for c in alike if _overlap(words, _words(_core(c))) >= CONSOLIDATE_AT]
        peers += _paraphrases(draft, new, [c for c in alike if c not in peers])
        group = sorted({c.fact.id: c for c in [new, *peers]}.values(), key=oldest_first)
        if len(group) >= 2 and not any(draft.is_secret(c.fact.content) for c in group):
            groups.append(group)
            grouped.update(c.fact.id for c in group)
    for group in groups:
        _merge(draft, group)


def _paraphrases(draft: Draft, new: Candidate, others: list[Candidate]) -> list[Candidate]:
    """The facts among `others` saying what `new` says in other words."""
    if draft.similar is None or not new.rowid or not others:
        return []
    same = draft.similar(new.rowid, [c.rowid for c in others if c.rowid])
    return [c for c in others if c.rowid in same]


def _merge(draft: Draft, group: list[Candidate]) -> None:
    ids = sorted(c.fact.id for c in group)
    new_id = "m" + base64.b32encode(hashlib.sha256(" ".join(ids).encode()).digest()[:5]) \
        .decode().lower()[:7]
    best = max(group, key=lambda c: (len(_core(c)), c.fact.day or date.min))
    kind, content = best.fact.kind, _core(best)
    days = _days(draft, group)
    if days and best.fact.valid is None:  # a range it states is its date already
        content = with_dates(content, kind, days)
    entities: list[str] = []
    for c in group:
        entities += [e for e in c.fact.entities
                     if entity_key(e) not in {entity_key(x) for x in entities}]
    stated = max(confidence(c) for c in group)
    importance = max((c.fact.importance for c in group if c.fact.importance), default=None)
    line = bullet_line(kind, content, entities, stated, importance, new_id)
    page = KIND_PAGES[kind]
    number = _add_fact_line(draft, page, line)
    fact = Fact(id=new_id, kind=kind, content=content, path=page, line=number,
                end_line=number, entities=tuple(entities), confidence=stated,
                importance=importance, explicit_id=True)
    draft.synthetic.append(Candidate(fact=fact, bm25=None, sha256="",
                                     links=tuple(entity_key(e) for e in entities)))
    plan = draft.plan
    for c in group:
        draft.replaced.add(c.fact.id)
        draft.merged_into[c.fact.id] = new_id
        plan.records.append(Merge(
            id=c.fact.id, into=new_id, reason=f"near-duplicate, consolidated into ^{new_id}",
            on=plan.today.isoformat(), sha=content_sha(c.fact.content)))
    plan.records.append(Derive(id=new_id, from_=tuple(ids)))
    plan.merges.append((new_id, ids))


def _days(draft: Draft, group: Iterable[Candidate], seen: set[str] | None = None) -> set[date]:
    """The days of the daily facts behind `group`, following facts an earlier run
    consolidated back to their originals."""
    seen = set() if seen is None else seen
    days: set[date] = set()
    for c in group:
        if c.fact.day is not None:
            days.add(c.fact.day)
        elif c.life is not None and c.life.derived_from and c.fact.id not in seen:
            seen.add(c.fact.id)
            days |= _days(draft, draft.backend.by_ids(c.life.derived_from), seen)
    return days


def _add_fact_line(draft: Draft, page: str, line: str) -> int:
    """Stage a consolidated bullet in the page's facts region; its line number."""
    text, number = add_to_region(draft.page_text(page), FACTS, line, heading="## Retain")
    draft.stage(page, text)
    return number
