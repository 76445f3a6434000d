"""Reflect's opinions: each active opinion weighed against the evidence written since.

Evidence is a newer fact sharing an entity with the opinion and at least EVIDENCE_AT of its
words, not counted before; `text.opinion_stance` (the judge's `stance`) reads each piece:
evidence that agrees supports the opinion and evidence that opposes it contradicts it, each
moving its confidence by a small bounded step, journaled as `confidence` events.  A clear
reversal supersedes the opinion instead (a `supersede` event, judge "reflect").
bank/opinions.md lists every active opinion with its confidence, when it last moved and its
evidence.

Confidence steps (documented in docs/format.md):
    supporting evidence       c' = c + 0.10 * (1 - c)
    contradicting evidence    c' = c - 0.15 * c
each piece of evidence counted once, c kept within [0.05, 0.99]; so one contradiction moves
0.9 to 0.765, and only repeated contradiction (four times) takes it below 0.5.  Evidence
that reverses the opinion does not move its confidence: it supersedes it.
"""

from __future__ import annotations

from datetime import date

from memfold.index.base import Candidate
from memfold.journal.events import Confidence
from memfold.journal.fold import LifeState
from memfold.lifecycle.judge import AGREES, REVERSES
from memfold.lifecycle.ledger import content_sha, supersede_record
from memfold.names import entity_key
from memfold.reflect.draft import KIND_PAGES, Draft, confidence, newest_first, oldest_first
from memfold.reflect.text import _core, _overlap, _words, opinion_stance
from memfold.values import Fact
from memfold.workspace.format import SUMMARY, evidence_line, opinion_line, replace_region

EVIDENCE_AT = 0.3  # word overlap for a fact to count as evidence about an opinion
SUPPORT_STEP, CONTRADICT_STEP = 0.10, 0.15


def weigh_opinions(draft: Draft, recent: list[Candidate]) -> None:
    """Weigh every active opinion against the window's facts, then stage bank/opinions.md."""
    named = [(ev, frozenset(entity_key(e) for e in ev.fact.entities)) for ev in recent]
    for opinion in draft.of_kind("opinion"):
        _weigh(draft, opinion, named)
    _opinion_page(draft)


def _weigh(draft: Draft, opinion: Candidate,
           recent: list[tuple[Candidate, frozenset[str]]]) -> None:
    """Move the opinion's confidence with the evidence it has not counted yet, as
    `judge.stance` reads it: agreeing evidence supports it, opposing evidence contradicts
    it, and a clear reversal supersedes it (opposite evidence is never support)."""
    c = before = confidence(opinion)
    support: list[str] = []
    contradict: list[str] = []
    for ev in _evidence(draft, opinion, recent):
        view = opinion_stance(opinion.fact, ev.fact)
        if view == REVERSES:
            _reverse(draft, opinion, ev)
            return
        if view == AGREES:
            support.append(ev.fact.id)
            c += SUPPORT_STEP * (1 - c)
        else:
            contradict.append(ev.fact.id)
            c -= CONTRADICT_STEP * c
    c = round(min(0.99, max(0.05, c)), 3)
    if support or contradict:
        plan = draft.plan
        plan.records.append(Confidence(
            id=opinion.fact.id, c=c, from_=round(before, 3),
            support=tuple(support), contradict=tuple(contradict),
            on=plan.today.isoformat(), sha=content_sha(opinion.fact.content)))
        plan.confidence.append((opinion.fact.id, round(before, 3), c))
        draft.simulated[opinion.fact.id] = (c, support, contradict)


def _evidence(draft: Draft, opinion: Candidate,
              recent: list[tuple[Candidate, frozenset[str]]]) -> list[Candidate]:
    """Newer facts about the opinion's entity and topic it has not counted, oldest
    first; an opinion's own originals are not evidence for it.  `recent`: the window's
    facts, each with the keys of the entities it names."""
    life = opinion.life or LifeState(opinion.fact.id)
    counted = set(life.support) | set(life.contradict) | set(life.derived_from)
    keys = {entity_key(e) for e in opinion.fact.entities}
    words = _words(_core(opinion))
    found = [ev for ev, named in recent
             if not keys.isdisjoint(named)
             and ev.fact.id != opinion.fact.id and ev.fact.id not in counted
             and draft.merged_into.get(ev.fact.id) != opinion.fact.id
             and _older_than(opinion.fact, ev.fact)
             and _overlap(words, _words(_core(ev))) >= EVIDENCE_AT]
    return sorted(found, key=oldest_first)


def _reverse(draft: Draft, opinion: Candidate, ev: Candidate) -> None:
    """A later fact reverses the opinion: it is superseded, like a judge's verdict."""
    draft.replaced.add(opinion.fact.id)
    draft.plan.records.append(supersede_record(
        opinion.fact, ev.fact, judge="reflect",
        reason=f"^{ev.fact.id} reverses this opinion (a clear change of mind)"))
    draft.plan.superseded.append((opinion.fact.id, ev.fact.id))


def _opinion_page(draft: Draft) -> None:
    page = KIND_PAGES["opinion"]
    opinions = sorted((c for c in draft.of_kind("opinion")
                       if not draft.is_secret(c.fact.content)), key=newest_first)
    today = draft.plan.today.isoformat()
    body = ["## Opinions (generated)"] if opinions else []
    for op in opinions:
        life = op.life or LifeState(op.fact.id)
        c, support, contradict = draft.simulated.get(op.fact.id, (confidence(op), [], []))
        support, contradict = life.support + support, life.contradict + contradict
        moved = (today if op.fact.id in draft.simulated
                 else life.confidence_on or (op.fact.day.isoformat() if op.fact.day else "-"))
        body.append(opinion_line(op.fact, page, c, moved, content_sha(op.fact.content)))
        if support or contradict:
            body.append(evidence_line(support, contradict))
    draft.stage(page, replace_region(draft.page_text(page), SUMMARY, body))


def _older_than(a: Fact, b: Fact) -> bool:
    return (a.day or date.min, a.path, a.line) < (b.day or date.min, b.path, b.line)
