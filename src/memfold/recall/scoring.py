"""How a recall candidate stands and what it scores: its lifecycle status as of today and as
of the time the query asks about (`standing`), the score `ranking` gives it with its match
and its neighbours' context (`score_candidate`), and the two adjustments between facts
written together — a sentence inside its paragraph (`within_passages`) and a fact lifted by
its neighbour (`held_by_neighbours`).  Pure functions of candidates and the query plan.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import replace as evolve
from datetime import date, timedelta

from memfold.index.base import Candidate
from memfold.journal.fold import (
    ACTIVE,
    ARCHIVED,
    EXPIRED,
    MERGED,
    STATE_KINDS,
    SUPERSEDED,
    lifecycle_weight,
    status_of,
)
from memfold.names import entity_key, find_words, text_names
from memfold.recall import ranking
from memfold.recall.answer_kind import (
    AGE,
    AMOUNT,
    CLOCK,
    MONEY,
    AnswerKind,
    asks_person,
    names_person,
    person_word,
)
from memfold.recall.fusion import LEXICAL
from memfold.recall.options import RecallOptions
from memfold.recall.query import OCCASION_DAYS, QueryPlan, occasion_words
from memfold.recall.ranking import Scored, confidence_of, relevance, score, time_factor
from memfold.times.anchors import asks_when
from memfold.times.parse import find_time_phrase
from memfold.values import TEXT, Fact, Interval

# a fact that speaks of the user ("Theo and I", "I'm the lead researcher on it", "gave us",
# "Pepper is our greyhound"), whatever entity it is written under, may be the user's own
SPEAKS_OF_USER = re.compile(r"\b(?:(?-i:I)|me|my|mine|we|us|our|ours)\b", re.IGNORECASE)
# the kinds of answer whose absence weighs a fact down (`unanswered`)
WEIGHED_KINDS = frozenset({MONEY, AGE, AMOUNT, CLOCK})
# words of a fact that look ahead to the time it names (`said_time`)
AHEAD = re.compile(r"\b(?:from|starting|as\s+of|effective|until|till|will|'ll|set\s+for"
                   r"|planned\s+for|scheduled\s+for|booked\s+for|due|next|going\s+to"
                   r"|goes\s+up|go\s+up)\b", re.IGNORECASE)
TOLD_DAYS = 2  # how long after a time a fact may be written about it (`_told_apart`, `anchored`)
AHEAD_GRACE = 7  # days: a date this far before a fact's writing may still be its own week
# the first word of a fact's text, without a possessive 's
FIRST_WORD = re.compile(r"\W*([^\W_]+)")
# a sentence that opens with whose someone is and then their name ("My mum, Gwen, lives in
# Glenelg", "My older sister Bernice lives in Brandon"): told of them, the "my" theirs
ROLE_OPENING = re.compile(r"\W*(?:[Mm]y|[Oo]ur)\s+(?:[a-z][\w'-]*,?\s+){1,3}")
PASSAGE_NUDGE = 0.001  # a sentence that holds its paragraph's match ranks just above it
LEFT_OUT = (SUPERSEDED, MERGED, EXPIRED)  # statuses recall leaves out unless --all
# what a question about the past sees too: a merged fact's words live on in the fact reflect
# merged it into, so it is not shown beside it
HISTORY_SEEN = (SUPERSEDED, EXPIRED)


def score_candidate(c: Candidate, plan: QueryPlan, named: Sequence[str], match: float,
                    options: RecallOptions, near: tuple[float, str] | None = None,
                    selective: bool = False, user: str | None = None,
                    wanted: AnswerKind | None = None, headless: bool = False,
                    called: Sequence[str] = ()) -> Scored:
    """The candidate's score; `hidden` when its lifecycle keeps it out of the answer.
    `selective`: the entities the query names are linked to few facts (fewer than recall
    fetches), so a fact about none of them is off the subject (`ranking.OFF_SUBJECT`); a
    name on half the memory (a speaker in a chat log) says little of what a fact is about.
    A fact that names them in its text is on it, by a key or by the word the query calls
    one by (`called`, an alias: "score" for @Fatima is said in "lost the score").
    `user`: the user's entity key, when the memory has one (`names.USER`) and the
    question is asked of the user (`QueryPlan.user_subject`, naming no one): a fact linked
    only to others weighs `ranking.OTHERS_SHARE` (`_of_others`).  `wanted`: the kind of
    answer the question asks for (`answer_kind.kind_of`); a fact that holds none weighs
    `ranking.UNANSWERED_SHARE` (`unanswered`).  `headless`: the question names the thing
    it asks for and the fact holds none, where another fact does (`search`): it weighs
    `ranking.HEADLESS_SHARE`."""
    status, decay, then, as_of_then, current = standing(c, plan, options)
    linked = tuple(k for k in named if k in c.links)
    opinion = plan.opinion and c.fact.kind == "opinion"
    confidence = fact_confidence(c)
    context, beside = near or (0.0, None)
    off_subject = selective and not linked and not names_entity(c.fact, [*named, *called])
    of_others = _of_others(c, plan, named, user)
    others = ranking.tunable("OTHERS_SHARE") if of_others else 1.0
    nobody = False
    if no_answer := unanswered(c, wanted):
        others *= ranking.tunable("UNANSWERED_SHARE")
    elif nobody := asks_person(plan.text) and not names_person(c.fact.content, c.links, named):
        others *= ranking.tunable("NOBODY_SHARE")
    if headless:
        others *= ranking.tunable("HEADLESS_SHARE")
    weight = 1.0 if options.include_all or as_of_then or _asked_when(c, status, plan, options) \
        else _weight(c, status, decay, plan)

    told = event_weight(c.fact, plan)
    if plan.change_day is not None and c.fact.day is not None and c.fact.day >= plan.change_day:
        told *= ranking.tunable("AFTER_CHANGE")
    kind = ranking.weighed_kind(c.fact)
    timed = time_factor(then, state=c.fact.kind in STATE_KINDS or _told_apart(c.fact, plan.window))

    def valued(context: float) -> float:
        rel = others * relevance(match, context=context, entity=bool(linked),
                                 opinion=opinion, off_subject=off_subject,
                                 role_told=c.fact.id in plan.role_told)
        return score(rel, kind=kind, confidence=confidence,
                     importance=c.fact.importance, lifecycle=weight) * timed * told

    tier = 0 if current or _faded(c, status) else (1 if status == ARCHIVED else 2)
    value = valued(context)
    return ranking.made_scored(
        c, value, confidence, linked, opinion, status, decay, tier,
        beside if ranking.tunable("CONTEXT_SHARE") * context > match else None, then,
        hidden=not current and status in LEFT_OUT, own=valued(0.0) if context else value,
        lifter=beside if context else None,
        factors=(match, context, float(bool(linked)), float(off_subject), float(of_others),
                 float(no_answer), float(bool(nobody)), float(headless), weight, timed, told,
                 float(c.fact.id in plan.role_told)))


def unanswered(c: Candidate, wanted: AnswerKind | None) -> bool:
    """Whether the question asks for a sum, an age, an amount or a time of day ("how much did
    the oven cost?", "how old is Zola?") and the fact holds none: it tells that the thing
    exists ("Anton asked me to cost out a new brunch menu"), not what is asked about it.  A
    name asked for is no such test: capitalised words are in most facts."""
    return (wanted is not None and wanted.kind in WEIGHED_KINDS
            and not wanted.held_by(c.fact.content, c.links))


def _of_others(c: Candidate, plan: QueryPlan, named: Sequence[str], user: str | None) -> bool:
    """A question the user asks of themselves ("what car do I drive", "where have we lived")
    and a fact written of others only: "Nomvula drives a red Suzuki Swift" (@Nomvula), "my
    father lives in Polokwane" (@Themba) are not what the user drives or where they live."""
    if not (plan.user_subject and user is not None and not named and c.links
            and user not in c.links):
        return False
    told = _told_of_linked(c)
    return told is not None and not SPEAKS_OF_USER.search(c.fact.content, told)


def _told_of_linked(c: Candidate) -> int | None:
    """Where the fact's sentence goes on after the entity it opens with, when that entity
    is one it is linked to ("Nomvula drives", "Mrs. Oliver next door has lived", "Calum's
    neighbour", "My sister Nuala lives": told of them); else None.  A sentence that opens
    with its verb is the user's own ("Sold the Fiesta for £450", written under @Car)."""
    content = c.fact.content
    role = ROLE_OPENING.match(content)
    end = role.end() if role else 0
    words = find_words(content[:end])[1:]  # whose they are: "mum", "older sister"
    first = FIRST_WORD.match(content, end)
    if first is not None and (role is None or first.group(1)[0].isupper()) \
            and not SPEAKS_OF_USER.fullmatch(first.group(1)):  # "My partner and I moved"
        words.append(first.group(1))
        end = first.end()
    keys = {part for key in c.links for part in key.split("-")}
    return end if any(entity_key(w) in keys or person_word(w.casefold()) for w in words) \
        else None


def _asked_when(c: Candidate, status: str, plan: QueryPlan, options: RecallOptions) -> bool:
    """An experience faded by decay alone, asked in lexical mode when it happened ("When did
    we move house?", `times.anchors.asks_when`): it weighs as a fresh one, since the words
    say which event is asked.  By meaning (semantic, hybrid) an older event near the
    question outranks the one asked about, and decay keeps ordering them (personal dev
    reworded, "When did the electric car get looked over")."""
    return (options.mode == LEXICAL and c.fact.kind == "experience" and _faded(c, status)
            and asks_when(plan.text))


def event_weight(fact: Fact, plan: QueryPlan) -> float:
    """EVENT_SHARE for an experience when the question asks what holds now — told in the
    present, naming no time and nothing of the past (`query.HISTORY_WORDS`): "what car do we
    drive", "which school does Milo go to" ask for a state, which the newest event about the
    subject ("the Niro had its first service", "Milo played a shepherd in the school
    nativity") only mentions.  Else 1."""
    if fact.kind != "experience" or plan.history or plan.window is not None:
        return 1.0
    return ranking.tunable("EVENT_SHARE")


def _weight(c: Candidate, status: str, decay: float, plan: QueryPlan) -> float:
    """The lifecycle weight recall ranks by: `journal.fold.lifecycle_weight`, but a fact
    faded by decay alone weighs FADED_SHARE of a fresh one's, and a replaced or expired one
    HISTORY_SHARE of it when the query asks about what held before (`ranking`)."""
    if _faded(c, status):
        return ranking.tunable("FADED_SHARE") * lifecycle_weight(ACTIVE, decay)
    if _sees_history(plan, status):
        return ranking.tunable("HISTORY_SHARE") * lifecycle_weight(ACTIVE, decay)
    return lifecycle_weight(status, decay)


def _sees_history(plan: QueryPlan, status: str) -> bool:
    """Whether a question about what held before, naming no time, sees a fact of this
    status (`query.HISTORY_WORDS`, HISTORY_SEEN)."""
    return plan.history and plan.window is None and status in HISTORY_SEEN


def names_entity(fact: Fact, keys: Sequence[str]) -> bool:
    """Whether the fact's text names one of the entities `keys` without a link to it."""
    return text_names(fact.content, keys)


def standing(c: Candidate, plan: QueryPlan, options: RecallOptions,
             ) -> tuple[str, float, str, bool, bool]:
    """How a candidate stands: its status and decay, how it stands to the time the query
    asks about (`_then`), whether it is weighed as of then (`_current_then`), and whether
    it is current — shown whatever its status (with --all, every fact is)."""
    status, decay = status_of(c.fact, c.life, options.today)
    then = _then(c, plan.window, occasion_words(plan.text))
    as_of_then = plan.window is not None and _current_then(c, status, then)
    # a question about what held before sees what was replaced since (`query.HISTORY_WORDS`);
    # one that names a time sees what held then (`_current_then`)
    before = _sees_history(plan, status) and ranking.tunable("HISTORY_SHARE") > 0
    return status, decay, then, as_of_then, (options.include_all or status == ACTIVE
                                             or as_of_then or before)


def _then(c: Candidate, window: Interval | None, occasions: frozenset[str] = frozenset(),
          ) -> str:
    """How a fact stands to the time a query asks about (`ranking.time_factor`);
    `occasions`: the words the query names its time by ("easter", `query.occasion_words`)."""
    if window is None:
        return ranking.UNDATED
    fact = c.fact
    on = c.life.superseded_on if c.life else None
    if on is not None and window.start is not None and on <= window.start.isoformat():
        return ranking.NOT_THEN  # replaced before that time began
    if fact.valid is not None and _overlaps(fact.valid, window):
        return ranking.VALID
    if occasions and tells_of(fact, occasions, window):
        return ranking.VALID  # "over Easter", written the week before
    if (said := said_time(fact.content, fact.day)) is not None and _overlaps(said, window):
        return ranking.VALID  # its own words place it then ("last Saturday", "in 2022")
    state = fact.kind in STATE_KINDS
    if fact.valid is not None and state:
        return ranking.NOT_THEN  # a state that says when it holds, and that is another time
    if fact.day is None:
        return ranking.UNDATED
    if _written_in(fact, window):
        return ranking.WRITTEN
    # a state written before that time still held in it; an experience told before it is
    # about something earlier, and one told after it may be about it ("last month we ...")
    before = window.start is not None and fact.day < window.start
    return ranking.HELD if state and before else ranking.NOT_THEN


def _told_apart(fact: Fact, window: Interval | None) -> bool:
    """Whether an experience was written before the time a query asks about, or more than
    `TOLD_DAYS` after it (an event is told on its day or the next: "we took Felix
    guising last night"), so it tells of another time, as a state that did not hold then
    does — unless its own words place it then (`_then`: valid then)."""
    if window is None or fact.day is None or fact.kind != "experience":
        return False
    return (window.start is not None and fact.day < window.start) or (
        window.end is not None and fact.day > window.end + timedelta(days=TOLD_DAYS))


def tells_of(fact: Fact, occasions: frozenset[str], window: Interval) -> bool:
    """Whether the fact names an occasion the query names its time by and was written within
    `query.OCCASION_DAYS` of that time: it tells of that occasion, wherever the calendar
    puts its day ("Thanksgiving at our place" in October, for a Thanksgiving read as
    November's)."""
    if fact.day is None or window.start is None or window.end is None:
        return False
    reach = timedelta(days=OCCASION_DAYS)
    return (window.start - reach <= fact.day <= window.end + reach
            and occasions <= {w.casefold() for w in find_words(fact.content)})


@functools.lru_cache(maxsize=1 << 14)  # the same facts come back query after query
def said_time(content: str, day: date | None) -> Interval | None:
    """The time a fact's own words name, read as of the day it was written: "last
    Saturday" in a log of Monday 8 May 2023 is 6 May 2023 (`times.parse.find_time_phrase`).
    None for an undated fact or one that names no time.  A fact that looks ahead ("From 1
    April the rent goes up", written on 28 March; `AHEAD`) names the next such date, not
    the last one: a date it names more than a week before its writing is read again as of
    a year on, as a plan's is (`anchored.event_days`)."""
    if day is None:
        return None
    found = find_time_phrase(content, today=day)
    if found is None:
        return None
    said = found[0]
    if AHEAD.search(content) and (later := year_on(content, day, said)) is not None \
            and later.start is not None and later.start > day:
        return later
    return said


def year_on(content: str, day: date, said: Interval) -> Interval | None:
    """What a fact written on `day` names read as of a year on, when the time `said` it
    names falls more than AHEAD_GRACE days before the day (a date without its year that a
    plan or a fact looking ahead means as the next one); None otherwise."""
    if said.start is None or said.start >= day - timedelta(days=AHEAD_GRACE):
        return None
    later = find_time_phrase(content, today=day + timedelta(days=364))
    return later[0] if later else None


def _faded(c: Candidate, status: str) -> bool:
    """Archived by decay alone (no person archived it): it competes with the active facts,
    weighed down by its lifecycle weight, instead of ranking below all of them — an exact
    match on words nothing recent holds is still found, years later."""
    return status == ARCHIVED and not _archived_by_person(c)


def _archived_by_person(c: Candidate) -> bool:
    """Archived by a person (`memfold forget`), not by decay."""
    return c.life is not None and c.life.status == ARCHIVED and c.life.reason != "decay"


def _current_then(c: Candidate, status: str, then: str) -> bool:
    """Whether a question about a time weighs the fact as current: it is answered as of
    then, so today's decay does not count (a fact archived by decay alone is current), and
    a fact superseded or expired since counts when it held then.  A fact a person archived
    stays archived."""
    if status == ARCHIVED:
        return not _archived_by_person(c)
    return status == ACTIVE or then in ranking.HELD_THEN


def _written_in(fact: Fact, window: Interval) -> bool:
    day = fact.day
    return day is not None and (window.start is None or window.start <= day) and (
        window.end is None or day <= window.end)


def fact_confidence(c: Candidate) -> float:
    if c.life is not None and c.life.confidence is not None:
        return c.life.confidence
    return confidence_of(c.fact.kind, c.fact.confidence)


def _overlaps(a: Interval, b: Interval) -> bool:
    return (a.start is None or b.end is None or a.start <= b.end) and (
        a.end is None or b.start is None or b.start <= a.end)


def held_by_neighbours(scored: list[Scored]) -> list[Scored]:
    """The context lifts a fact toward the fact that lifted it (`context_of`), never past it:
    a fact whose score with its context reaches that fact's score without its own comes
    just below it, and never below its own score without the context.  A reply rises past
    facts it beats in nothing but words, not past the answer beside it.  On the
    LoCoMo dev split, lexical R@10 75.4 -> 76.6 (docs/semantic.md)."""
    own = {s.fact.id: s.own for s in scored}
    return [evolve(s, score=max(s.own, own[s.lifter] * (1 - PASSAGE_NUDGE)))
            if s.lifter in own and s.score >= own[s.lifter] else s for s in scored]


def within_passages(found: Iterable[Candidate], match: dict[int, float]) -> None:
    """A text row inside a longer one found too (a sentence in its paragraph,
    `workspace.sentences`) matches what that passage matches: it is there to cite the line,
    not to outrank typed facts the paragraph ranks below (a short sentence's BM25 would).
    A sentence that matches at least as well as its paragraph comes just above it
    (PASSAGE_NUDGE); one that matches less keeps its own, lower, match."""
    spans: dict[str, list[Candidate]] = {}
    for c in found:
        if c.fact.kind == TEXT:
            spans.setdefault(c.fact.path, []).append(c)
    for rows in spans.values():
        for c in rows:
            f = c.fact
            around = [match[o.rowid] for o in rows if o.fact.line <= f.line
                      and f.end_line <= o.fact.end_line
                      and o.fact.end_line - o.fact.line > f.end_line - f.line]
            if around and match[c.rowid] >= max(around) > 0:
                match[c.rowid] = max(around) * (1 + PASSAGE_NUDGE)
