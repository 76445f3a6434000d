"""What is true now, for recall: the fact that replaced a match, the facts a newer one may have
outdated, and where a faded fact stands beside the current one.  `recall` calls each step on
its candidates (`bring_successors`, `replacements_first`, `newer_first`, `below_current`).

- successors: a superseded (or merged) fact that matches a query answers with the end of its
  chain of replacements — the `superseded_by` pointers followed until a fact nothing
  replaced, never past a fact written after `today` and never round a cycle — so recall
  answers with the current fact even when it shares no word with the question.  A
  replacement that shares no subject (an entity but the user's) and no content word with
  the fact it replaced carries ranking.APART_SHARE (0.5) of its match (`related`): such a
  link may be a mistake of the judge's ("Internet at the new house is 200 Mbps fibre" for
  "The flat white at Rosetta is the best coffee in town"), and facts that hold the
  question's own words come first.  Personal lexical P@1/R@5, studied (dev, tune6, tune7)
  58.8/82.1 -> 59.6/82.1, not studied (eight files) 55.5/73.7 -> 55.7/73.7; truth dev and
  its six tune files the same (91.5, 98.6, 97.1, 94.7, 91.2, 91.8, 91.0 current@1);
- outdated: two facts about one subject that recall shows together, where the judge reads the
  newer as a change of the older's value but did not supersede it (a conflict it left active,
  or facts indexed together and never weighed): the older is *possibly outdated by* the newer.
  A newer fact that is a plan, a change that did not happen, a visit or someone else's news
  outdates nothing, and neither does one the judge found only on a shared topic (`ON_TOPIC`:
  "Quinua's annual vaccinations with Dr. Paredes" after "Quinua's new vet is Dr. Paredes"),
  but for a view after a view.  Nineteen personal years (tune14-32, read) lexical P@1/R@5
  64.9/85.2 -> 66.4/85.3 (current 53.7 -> 56.7), eight not studied (tune33-40, blind)
  60.7/80.9 -> 61.1/80.8, the held-out year 58.5/72.3 -> 60.0/71.3, personal dev 74.3/93.4 ->
  76.2/94.4, truth dev 93.6 both (stale served 1 -> 2), LoCoMo dev 77.5 both.  The judge is
  imported only when two such facts meet;
- covered: a fact faded by decay (archived by time, not by a person) ranks below a newer
  active fact about the same subject and topic — the same entities, and a content word or a
  kind of product in common ("Investigating Bun.js as a JavaScript runtime" below "The
  build runs on Node.js 22") — while against unrelated facts it keeps its relevance.  "is",
  "was" (be) and "I've" are no content words: with them nearly every newer fact of the user
  covered a faded one, and "I've supported the Stormers" sank below "My team at work is
  eight people" (personal tune7 lexical R@5 78.0 -> 78.8; the other files' P@1 and R@5 the
  same, dev-multi R@10 83.3 -> 84.1; truth dev and tune files the same).  Only where the
  newer fact answers the question about as well (FADED_NEAR) or is, as the faded one is, a
  kind of product the question names: a shared word alone held "I shoot film on a Pentax MX
  my grandfather left me" below "Ren will take over Project Koji when I leave" for "what
  camera did Grandad leave me?".  Tune14-32 lexical P@1/R@5 63.9/83.9 -> 64.9/85.2 (0.5:
  64.7/85.0, 1.0: 64.7/85.3), tune33-40 and the held-out year the same, truth, personal and
  LoCoMo dev the same.

Pure functions of facts, journal states and scores, but for the successors, which read the
index.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, MutableMapping, Sequence
from dataclasses import replace as evolve
from datetime import date
from functools import lru_cache

from memfold.index.base import Candidate, ChainReader, FactReader, Filters, Succession
from memfold.journal.fold import ACTIVE, ARCHIVED, REPLACED, STATE_KINDS, SUPERSEDED, status_of
from memfold.names import STOP_WORDS, USER, find_words
from memfold.recall import ranking
from memfold.recall.query import word_stem
from memfold.recall.ranking import Scored, view_kept
from memfold.values import TEXT, Fact

# how the judge's reason for a pair says a guard held on the newer fact
GUARDED = ", but the newer fact is "
TOPIC = "same topic: "  # the judge's reason for a conflict found on a shared topic only
NUMBER = "another number for "  # ... or on a shared topic counted with another number
ON_TOPIC = (TOPIC, NUMBER)
# a faded fact gives way to a newer active one on its subject and topic that scores at least
# this share of its own score (`below_current`)
FADED_NEAR = 0.7


def successors(backend: FactReader, replaced_by: Mapping[str, str], filters: Filters,
               today: date) -> dict[str, Candidate]:
    """For each replaced fact (its id -> the id that replaced it), the end of its chain of
    replacements that passes `filters`: the last fact reached, walking `superseded_by`,
    before a fact written after `today`, a fact the index no longer holds, or a cycle.
    The links are read chains at a time where the index can (`ChainReader`: a chain of
    28 replacements was 28 reads of whole facts), the facts at the ends once."""
    links: dict[str, Succession] = {}
    looked: set[str] = set()  # the ids whose link was looked for (missing: not in the index)
    ends: dict[str, str] = {}
    walk = {old: (nxt, frozenset({old})) for old, nxt in replaced_by.items()}
    while walk:
        wanted = sorted({n for n, _ in walk.values()} - looked)
        if wanted:
            found, reached = _links(backend, wanted)
            links.update(found)
            looked |= reached
        step: dict[str, tuple[str, frozenset[str]]] = {}
        for old, (nxt, seen) in walk.items():
            link = links.get(nxt)
            if link is None or nxt in seen or (link[0] is not None and link[0] > today):
                continue
            ends[old] = nxt
            if link[1]:
                step[old] = (link[1], seen | {nxt})
        walk = step
    if not ends:
        return {}
    facts = {c.fact.id: c for c in backend.by_ids(sorted(set(ends.values())))}
    allowed = {c.rowid for c in backend.by_rowids(sorted({c.rowid for c in facts.values()}),
                                                  filters)}
    return {old: facts[end] for old, end in ends.items()
            if end in facts and facts[end].rowid in allowed}


def _links(backend: FactReader, ids: Sequence[str]) -> tuple[dict[str, Succession], set[str]]:
    """The links of `ids` and, where the index walks chains (`ChainReader`), of the ids
    their chains reach; and the ids looked for."""
    if isinstance(backend, ChainReader):
        return backend.successions(ids)
    return ({c.fact.id: (c.fact.day, c.life.superseded_by if c.life else None)
             for c in backend.by_ids(ids)}, set(ids))


def bring_successors(backend: FactReader, found: MutableMapping[tuple[str, int], Candidate],
                     match: dict[int, float], filters: Filters, today: date,
                     hopped: Mapping[int, str]) -> tuple[dict[str, str], dict[int, str]]:
    """A replaced fact that matched brings the end of its chain of replacements
    (`successors`) into `found` (recall's candidates, by path and rowid), matching at least
    as well as it did, so recall answers with the current fact whatever words it uses.  Not
    from a fact the second hop found (`hopped`: its match is a guess at one remove).
    Returns each replaced fact's chain end and, for a successor that ranks on a replaced
    fact's match, that fact's id."""
    replaced: dict[str, Candidate] = {}
    for c in sorted(found.values(), key=lambda c: (-match.get(c.rowid, 0.0), c.fact.path,
                                                  c.fact.line)):  # ties by place, not rowid
        if c.life and c.life.superseded_by and match.get(c.rowid, 0.0) > 0 \
                and c.rowid not in hopped \
                and status_of(c.fact, c.life, today)[0] in REPLACED:
            replaced.setdefault(c.fact.id, c)
    if not replaced:
        return {}, {}
    ends = successors(backend, {i: c.life.superseded_by for i, c in replaced.items()
                                if c.life and c.life.superseded_by}, filters, today)
    via: dict[int, str] = {}
    for old_id, end in ends.items():  # best match first, so a successor keeps the best
        end = found.setdefault((end.fact.path, end.rowid), end)
        carried = match[replaced[old_id].rowid] * (
            1.0 if related(replaced[old_id], end) else ranking.tunable("APART_SHARE"))
        if carried > match.get(end.rowid, 0.0):
            match[end.rowid] = carried
            via[end.rowid] = old_id
    return {old: end.fact.id for old, end in ends.items()}, via


def related(old: Candidate, new: Candidate) -> bool:
    """Whether a fact and the one that replaced it share a subject or a topic: an entity
    other than the user's, a content word or a kind of product (`_topic`).  A replacement
    that shares neither ("Internet at the new house is 200 Mbps fibre" for "The flat white
    at Rosetta is the best coffee in town") carries only APART_SHARE of its match: the link
    may be the judge's mistake, and the fact the question matched says nothing of it."""
    if set(old.links) & set(new.links) - {USER}:
        return True
    return bool(_said(old.fact.content) & _said(new.fact.content))


@lru_cache(maxsize=4096)
def _said(content: str) -> frozenset[str]:
    """The stems of a fact's content words: no stop word, figure or word under three letters
    ("is" and "be" are in every fact)."""
    return frozenset(word_stem(w) for w in (w.casefold() for w in find_words(content))
                     if len(w) > 2 and w not in STOP_WORDS and not w.isdigit())


def stood_for(found: Iterable[Candidate], via: Mapping[int, str]) -> dict[str, Fact]:
    """For each successor that ranks on a replaced fact's match (`bring_successors`' `via`,
    by rowid), the replaced fact: what the question matched, so the successor answers the
    slot that fact was on ("Aurelio took over Team Pylon from Caspian" for "Who leads Team
    Pylon?", through "Team Pylon is led by Caspian")."""
    if not via:
        return {}
    found = list(found)
    facts = {c.fact.id: c.fact for c in found}
    return {c.fact.id: facts[via[c.rowid]] for c in found
            if c.rowid in via and via[c.rowid] in facts}


def replacements_first(scored: list[Scored], asks_time: bool,
                       ends: Mapping[str, str]) -> list[Scored]:
    """With --all: a fact scores at least what the facts it superseded (directly or in a
    chain) score, and is marked so it ranks above them at equal score; a superseded fact
    whose successor is not among the results lifts the end of its chain (`ends`, which
    `bring_successors` brought in).  When the query asks about a time, only a replacement
    that held then is lifted.  Merges are left as they rank: a consolidated fact restates
    its sources, it does not change what is true."""
    by_id = {s.fact.id: s for s in scored}
    older: dict[str, list[str]] = {}
    for s in scored:
        life = s.candidate.life
        newer = life.superseded_by if life and s.status == SUPERSEDED else None
        if newer not in by_id and newer is not None:
            newer = ends.get(s.fact.id)
        if newer in by_id and newer != s.fact.id and (
                not asks_time or by_id[newer].then in ranking.HELD_THEN):
            older.setdefault(newer, []).append(s.fact.id)

    def best(fact_id: str, seen: frozenset[str]) -> float:
        own = by_id[fact_id].score
        return max([own, *(best(o, seen | {o}) for o in older.get(fact_id, ())
                           if o not in seen)])

    replaced = {o for olds in older.values() for o in olds}
    return [evolve(s, score=best(s.fact.id, frozenset({s.fact.id})),
                   replaced=s.fact.id in replaced)
            if s.fact.id in older or s.fact.id in replaced else s for s in scored]


def written(fact: Fact) -> tuple[int, str, int]:
    """When a fact was written, to compare two: its day, then its file and line."""
    return (fact.day.toordinal() if fact.day else 0, fact.path, fact.line)


def outdated(shown: Sequence[Scored], today: date) -> dict[str, list[str]]:
    """Older fact id -> the ids of newer facts among `shown` that may have outdated it (see
    the module docstring), newest first.  The older fact is active; the newer one is active
    or faded (a change holds the value it states, however long unused), written on a later
    day and not after `today`: facts of one day, or undated ones, outdate none of each
    other.  Only typed facts that share an entity are weighed, so most recalls never ask
    the judge; an opinion a question about a view asks for is outdated by no newer fact but
    an opinion (`ranking.view_kept`)."""
    dated = {s.candidate.fact.id: (s.candidate, day) for s in shown
             if (day := s.candidate.fact.day) is not None and day <= today
             and s.candidate.fact.kind != TEXT and s.candidate.links
             and s.status in ("active", "archived")}
    active = {s.candidate.fact.id for s in shown if s.status == "active"}
    views = {s.candidate.fact.id for s in shown if s.opinion}  # a view asked (`view_kept`)
    pairs = [(new, old) for new, new_day in dated.values() for old, old_day in dated.values()
             if old.fact.id in active and old.fact.kind in STATE_KINDS and old_day < new_day
             and set(old.links) & set(new.links)
             and not (old.fact.id in views and new.fact.kind != "opinion")]
    found: dict[str, list[str]] = {}
    for new, old in sorted(pairs, key=lambda p: written(p[0].fact), reverse=True):
        if _outdates(new.fact, old.fact):
            found.setdefault(old.fact.id, []).append(new.fact.id)
    return found


def newer_first(shown: list[Scored], k: int, today: date) -> list[Scored]:
    """Among the best max(k, 10) results, an older fact a newer one may have outdated
    (`outdated`) carries the newer ids, and each newer fact scores at least what the facts
    it may outdate score (oldest first, so a chain passes the best score on) and ranks
    above them at equal score.  When the query asks about a time, only facts that held
    then are weighed: a change after it outdates nothing then."""
    best = [s for s in sorted(shown, key=ranking.order)[: max(k, 10)]
            if s.tier == 0 and s.then != ranking.NOT_THEN]  # a question about a time: then
    found = outdated(best, today)
    if not found:
        return shown
    by_id = {s.fact.id: s for s in shown}
    score = {i: s.score for i, s in by_id.items()}
    for old in sorted(found, key=lambda i: written(by_id[i].fact)):
        for new in found[old]:
            score[new] = max(score[new], score[old])
    return [evolve(s, score=score[s.fact.id], outdated_by=tuple(found.get(s.fact.id, ())),
                   replaced=s.replaced or s.fact.id in found)
            if s.fact.id in found or score[s.fact.id] != s.score else s for s in shown]


def _outdates(new: Fact, old: Fact) -> bool:
    """Whether the judge reads `new` as a change of `old`'s value (a supersede it would make,
    or a conflict it left active — not one it only offers, unsure: `Verdict.offer`), and
    `new` is not a plan, a change that did not happen, a visit or someone else's news — by
    its own reading, or by the judge's verdict on the pair
    (`GUARDED`: "'Lagos' became 'Ikoyi', but the newer fact is where the home is, not said
    to be a move" is a flat in the city, offered for review, not the city changed).  A
    conflict found on a shared topic alone (`ON_TOPIC`) outdates only a view by a newer
    view ("has sworn off Turkish Airlines and now books Pegasus"): between other facts it
    says they are about one thing, not that the newer changed it ("Quinua's annual
    vaccinations with Dr. Paredes" does not outdate "Quinua's new vet is Dr. Paredes")."""
    from memfold.lifecycle.judge.readers import (
        read,  # the judge's lexicons load only when two facts meet
    )
    from memfold.lifecycle.judge.rules import RuleJudge

    if read(new).guard:
        return False
    views = new.kind == old.kind == "opinion"
    return any(GUARDED not in v.reason and not v.offer
               and (views or not v.reason.startswith(ON_TOPIC))
               for v in RuleJudge().weigh(new, [old]))


def covered(faded: Candidate, active: Candidate) -> bool:
    """Whether an active fact written after a faded one is about the same subject and topic:
    the active one a state fact, the faded one a typed fact of any kind (design note 002's
    faded "Investigating Bun.js" is an activity), linked to the same entities (or both to
    none), sharing a content word or a kind of product (`judge.words.FAMILY`).  A faded fact
    written after the active one may be what changed it, so it is not covered."""
    a, b = faded.fact, active.fact
    if a.kind == TEXT or b.kind not in STATE_KINDS or set(faded.links) != set(
            active.links) or not (a.day and b.day and a.day < b.day):
        return False
    return bool(_topic(a.content, _names(a.entities)) & _topic(b.content, _names(b.entities)))


def below_current(ordered: list[Scored], asked_when: bool = False,
                  question: str = "") -> list[Scored]:
    """A fact faded by decay never ranks above a newer active fact about the same subject
    and topic (`covered`) that answers the question about as well — scoring at least
    FADED_NEAR of what the faded fact scores, or being, as it is, of a kind of product the
    question names ("JavaScript *runtime* for the build": Node.js above a faded Bun.js):
    it moves to just below the lowest such fact, scoring no more than it.  A newer fact
    that shares a word with it but matches the question far worse does not hold it down
    ("what camera did Grandad leave me?": "I shoot film on a Pentax MX my grandfather left
    me", not "Ren will take over Project Koji when I leave").  Against other facts it keeps
    its place, and so does a fact that held at the time the query asks about, a change that
    may outdate another (`newer_first`), and an experience when the question asks when
    something happened (`asked_when`), and a view the question asks for beside a newer
    fact that is none (`ranking.view_kept`)."""
    kinds = _kinds_named(question)
    out = list(ordered)
    newer = {i for s in ordered for i in s.outdated_by}  # a change holds what it states
    for s in [s for s in ordered if s.status == ARCHIVED and s.tier == 0
              and s.fact.id not in newer and s.then not in ranking.HELD_THEN
              and not (asked_when and s.fact.kind == "experience") and _may_be_covered(s)]:
        at = _place(out, s)
        below = [i for i in range(at + 1, len(out)) if out[i].status == ACTIVE
                 and _may_cover(s, out[i]) and _answers_too(s, out[i], kinds)
                 and covered(s.candidate, out[i].candidate) and not view_kept(s, out[i])]
        if below:
            lowest = out[below[-1]]
            out.pop(at)
            out.insert(_place(out, lowest) + 1, evolve(s, score=min(s.score, lowest.score)))
    return out


def _may_be_covered(faded: Scored) -> bool:
    """`covered`'s test of the faded fact alone: a text chunk, or a fact of no day, is
    covered by none, so the facts below it are not read."""
    return faded.fact.kind != TEXT and faded.fact.day is not None


def _may_cover(faded: Scored, active: Scored) -> bool:
    """`covered`'s cheap tests of the pair, asked before `_answers_too` reads their words:
    a state fact written on a later day."""
    day = active.fact.day
    return active.fact.kind in STATE_KINDS and day is not None \
        and faded.fact.day is not None and faded.fact.day < day


def _answers_too(faded: Scored, active: Scored, kinds: frozenset[str]) -> bool:
    """Whether `active` answers the question about as well as `faded` does: its score is
    at least FADED_NEAR of the faded one's, or both are of a kind of product the question
    names (`_kinds_named`)."""
    if active.score >= FADED_NEAR * faded.score:
        return True
    return bool(kinds) and bool(kinds & _topic(faded.fact.content, frozenset())
                                & _topic(active.fact.content, frozenset()))


@lru_cache(maxsize=1024)
def _kinds_named(question: str) -> frozenset[str]:
    """The kinds of product (`judge.words.FAMILY`, as `_topic` marks them) a question names
    by the kind's own word ("runtime") or by a member ("Node.js")."""
    from memfold.lifecycle.judge import words as w

    kinds = frozenset(w.FAMILY.values())
    return frozenset("#" + (word if word in kinds else w.FAMILY[word])
                     for word in w.tokens(question) if word in kinds or word in w.FAMILY)


def _place(ordered: list[Scored], s: Scored) -> int:
    """Where `s` itself is in `ordered` (`list.index` would compare every fact it passes
    field by field)."""
    return next(i for i, other in enumerate(ordered) if other is s)


def _names(entities: Iterable[str]) -> frozenset[str]:
    return frozenset(part for e in entities for part in re.split(r"[-_.\s]", e.lower()) if part)


@lru_cache(maxsize=4096)
def _topic(content: str, names: frozenset[str]) -> frozenset[str]:
    """A fact's content words (stems, without stop words, numbers and its entities' names)
    and the kinds of product it names ("#runtime" for Bun.js and Node.js)."""
    from memfold.lifecycle.judge import (
        words as w,  # lexicons load only when a faded fact meets an active one
    )

    out: set[str] = set()
    for word in w.tokens(content):
        if family := w.FAMILY.get(word):
            out.add("#" + family)
        if word not in w.STOP and word not in names and not w.is_number(word) \
                and re.split(r"['’]", word)[0] not in w.STOP:  # "i've", "we're"
            stem = w.stem(word)
            if stem not in w.STOP:  # "is", "was": be, in nearly every fact
                out.add(stem)
    return frozenset(out)
