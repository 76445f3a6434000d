"""Ranking: how lexical, context, entity, intent, time, confidence and lifecycle combine.  Pure.

    relevance = (match + 0.5 * context + 0.5 * entity + 0.75 * opinion_intent) * subject
                * others * unanswered
    score     = relevance * time * confidence_weight * importance_weight * kind_weight
                * lifecycle * event

- match: the fact's BM25 (FTS5) divided by the best BM25 among the candidates, in 0..1 (in
  hybrid and semantic mode, the fused relevance of `recall.fusion`, also 0..1);
- context: the best match among the candidates just before and after the fact in its file,
  plus CONTEXT_FAR (0.5) of the best match among the candidates two facts away.  Facts
  written together explain each other: a reply ("yes — a sunset, last week") holds few of
  the words of the question it answers, its neighbour holds them — or the turn before its
  neighbour, when the answer comes a turn later.  Only candidates are lifted; a fact that
  matches nothing in the query is not added for its neighbour.  On the LoCoMo dev split the
  nearest neighbours moved R@10 from 65.2 to 69.9 (lexical) and 69.1 to 75.5 (hybrid), in
  each of its three conversations; the facts two away, held out conversation by
  conversation, 70.6 -> 73.7 (lexical) and 80.5 -> 80.9 (hybrid), narrative prose 69.4 ->
  72.4 and 75.3 -> 77.3 (docs/semantic.md, "Held out, lever by lever").  The folds
  themselves chose 1 or more (75.3 lexical, 81.5 hybrid), but at 1 hybrid multi-hop loses
  4 points and a typed fact two lines from the best match outranks a weaker match that
  answers; 0.5 keeps multi-hop level.  The context lifts a fact toward the neighbour that
  lifted it, never past it (`scoring.held_by_neighbours`): a fact whose score with its
  context reaches that neighbour's score without its own comes just below it (and keeps
  at least its own score).  "is Sam allergic to anything": the cookies and Bun.js facts
  written beside "Sam might be allergic to peanuts" no longer outrank it.  LoCoMo dev,
  lexical R@10 75.4 -> 76.6 with it.  Tried and refused: never above a fact that holds
  more of the query's words and matches better (LoCoMo lexical 76.6 -> 71.2; personal dev
  no change); the context of the fact before
  only, or after only (lexical 68.7 / 66.6 against 70.6), the two neighbours' matches summed
  instead of the best (lexical 71.1, hybrid 80.2 against 80.5: mixed), facts three away
  (+0.4 at most), at most N results per file (4: hybrid 79.6 against 82.0);
- expansion: a fact only the expanded search finds (words two of the best candidates share,
  `expansion`) enters with EXPANSION_SHARE of its match in that search; in lexical mode, a
  fact only a search of the best results' rare words finds enters with HOP_SHARE of its
  match there (`expansion.second_hop`); in hybrid mode the
  query's vector is also moved toward its three best candidates' (VECTOR_FEEDBACK,
  `recall.semantic`) before the match is fused;
- names: the query's vector is made without the names of the entities it names
  (VECTOR_NAMES 0; `QueryPlan.without_names`), as its lexical search leaves them out.  A
  fact's vector is its content alone, so a name in the query's vector only meets the name
  where someone else says it ("Thanks, Melanie!"); the entity boost weighs who a fact is
  about.  Held out on the LoCoMo dev split: semantic 49.4 -> 64.3, hybrid 78.8 -> 80.5, every
  conversation up (prose names no entities, so the narrative layout is unchanged);
- linked: a fact the vector search finds that is linked to an entity the query names joins
  the candidates from the model's floor (LINKED_MINIMUM 0), not only from its minimum: the
  name vouches for a reply that answers in other words.  Held out on the LoCoMo dev split:
  hybrid 82.4 -> 82.7 (multi-hop 54.8 -> 55.5, no category down), semantic 65.5 -> 72.4;
- word knowledge (`expansion.word_knowledge`, `lexicon`): a fact holding a form of a query
  word (allergy: allergic; buy: bought), another word for it (family doctor: GP) or a kind of
  it (dog: beagle; job: midwife; watch: Garmin; or, by what WordNet says the fact's word
  is, mackerel: fish) adds FORM_SHARE, SAME_SHARE or KIND_SHARE (0.3 each) of half its
  match in that search plus half what a literal match of the query word weighs among the
  candidates (`expansion.term_weights`), once per query word it does not hold itself.
  Shares of 0.5 with that: LoCoMo dev R@10 74.8 against 76.8.  An irregular form of the
  word itself (bought: buy, knives: knife; `lexicon.inflections`) adds INFLECTION_SHARE
  (1.0): it is the word, which the index's stemmer cannot fold (personal tune6 lexical
  P@1/R@5 46.3/70.8 -> 47.2/72.7, dev 71.4 -> 72.4, the other years the same or better).
  A query word no fact holds ("do I have a *dog*?" of a memory that says "greyhound") has
  its kinds searched ASKED_KINDS deep, as the word a question asks for does;
  On the LoCoMo dev split 0.5-0.7 cost 4 points (72.7 against 76.5 without it), 0.3 none
  (76.6); on personal-dev, P@1/R@5 55.2/71.0 without it, 59.0/74.4 at 0.3;
- frame: a fact the lexical search found for the question's frame words alone — an opinion
  word, a light verb, a frame noun, a word of when ("how do I *feel* about kayaking", "what
  camera do I *use*", "my *old* airline"; `recall.topic`) — while other facts hold its
  topic words, keeps FRAME_SHARE (0.5) of its BM25: in a memory of a few hundred facts
  "feels" is as rare as "kayak", and BM25 weighs them alike.  Personal tune6 preference
  P@1 25 -> 56; LoCoMo dev lexical R@10 77.7 at 0.5 as without it (77.3 at 0.25);
- entity: 1 when the fact is linked to an entity the query names (`@Peter`, or "Peter"
  when Peter is a known entity or alias), else 0;
- subject: OFF_SUBJECT (0.3) for a fact linked to none of the entities the query names and
  not naming them in its text (by name, or by the alias the query calls one by: "mum"),
  when those entities are linked to fewer facts than recall
  fetches (a person in an assistant's memory); else 1.  "where does Kenji live" puts
  Kenji's facts above Marcus's "Lives in Warsaw".  A name on most of the memory (a speaker
  in a chat log) says little of what a fact is about, and LoCoMo's adversarial questions
  name the wrong speaker on purpose: applied there too, LoCoMo lexical fell 76.6 -> 64.1;
- others: OTHERS_SHARE (0.75) for a fact told of others — linked only to other entities,
  its sentence opening with one of them and speaking of no one in the first person
  ("Nomvula drives a red Suzuki Swift", "Sizwe plays keys and Marlene plays drums"; not
  "Sold the Fiesta for £450" under @Car, nor "Pepper is our greyhound") — when the
  question is asked of the user, "I" or "we" its subject after the verb ("what car do I
  drive", "what instrument do I play", `query.USER_SUBJECT`), naming no one, and the
  memory has the user's entity (`names.USER`); else 1.  "my" alone asks of someone
  else ("what does my brother do").  Personal, lexical P@1/R@5 on the
  three years studied while writing it (dev, tune6, tune7) 57.9/82.1 -> 58.2/82.1, on eight
  files not studied 54.9/73.6 -> 55.1/73.7 (docs/benchmarks.md, rec30j);
- unanswered: UNANSWERED_SHARE (0.5) for a fact that holds no answer of the kind the
  question's frame asks for — a sum ("how much did the oven cost?"), an age ("how old is
  Zola?"), an amount, a time of day (`answer_kind`; not a name, which capitalised words
  everywhere would seem to hold) — else 1: "Anton asked me to cost out a new brunch menu"
  tells of costing, not what the oven cost.  Personal lexical P@1/R@5, studied (dev, tune6,
  tune7) 58.2/82.1 -> 58.8/82.1, not studied (eight files) 55.1/73.7 -> 55.5/73.7 (at
  0.75); nineteen later years (tune14-32, mean P@1) at 0.75 / 0.5 / 0.3: 62.0 / 62.3 / 62.4 ("What
  did it cost to fix the cracked screen?" no longer answered by "Dropped my phone and
  cracked the screen"), 0.5 kept for a fact that answers in other words;
- nobody: NOBODY_SHARE (0.5) for a fact that names no person when the question asks who
  (`answer_kind.asks_person`, `names_person`: no word the lexicon files under a class of
  people, no title, no name of another entity, no capitalised word the lexicon knows only
  as a person or not at all), else 1: "Gideon is off work and doing physio" for "who is
  Gideon's physio?".  Personal lexical P@1/R@5, studied (tune8, tune9, tune11) 64.2/84.0 ->
  64.5/84.3, not studied (twelve files) 57.9/78.4 -> 58.2/78.5; leave-one-file-out over
  0.5 / 0.75 chose 0.5 in 13 of 15 folds (docs/benchmarks.md, lex30m);
- opinion_intent: 1 for opinion facts when the query asks about preferences, else 0.  At
  0.75 it outweighs the lower default confidence of opinions (0.7 against 0.9) up to the
  highest relevance the other terms reach (2.0), so an opinion outranks a stated fact
  worded the same.  Such an opinion is outdated by no newer fact but an opinion
  (`view_kept`): "I own a red sea kayak" does not answer "how do I feel about kayaking"
  in its place, as the newer value of a slot otherwise would (`currency`, `offered`,
  `asked_slot`);
- time: when the query names a time ("around Nov 27", "in November 2025", "last spring"),
  what held then ranks first.  1.3 for a fact whose stated validity overlaps it (it says
  what was true then); 1.15 for a fact written then; 1.0 for a state fact (world, opinion,
  observation) written before it and not replaced before it began — it still held; 0.6 for
  a state fact that did not hold then: written after the time ended ("Back home in Vienna"
  on Dec 3 says nothing of November), valid only at another time, or replaced before the
  time began.  Text keeps 1.0 whenever it was written; an experience too when it was
  written within the time or up to two days after it (an event is told on its day or the
  next), and 0.6 when written before it or later (`scoring._told_apart`; one that tells
  it happened then, "last month we ...", is valid then): nineteen personal years (tune14-32, mean)
  lexical P@1 61.8 -> 62.0 with it ("what phone did I have in the spring?" no longer
  answered by June's "the battery started swelling"), LoCoMo dev lexical R@5 67.3 -> 67.9,
  R@10 77.5 both.  A question about what held before a change ("where did I live before
  Nairobi?", `recall.before`) is asked as of the day before the change's fact, and a fact
  written on that day or later weighs AFTER_CHANGE (0.6) beside it: the fact that tells
  of the change holds the question's words, and is the one thing it does not ask for
  (tune14-29 temporal P@1 43.7 -> 55.6 with the reading, 0.3 and 0.6 within a question of
  each other).  Such a
  question is answered as of then: today's decay does not count (lifecycle 1.0, ranked
  among the active facts, for every fact not superseded, expired or archived by a person),
  and neither does a later supersede or expiry of a fact that held then.  Beside words, a
  time phrase only weighs; a query that is only a time phrase is restricted to that time,
  and for an occasion ("what did we do at Easter?", `anchored.occasions`) to the facts that
  name it too, written within 60 days of it, which count as valid then and come first;
- confidence_weight = 0.4 + 0.6 * c, with c the fact's `c=` (or a journaled update), else
  the default of its kind (stated facts above generated observations): c=0.9 weighs 0.94,
  c=0.3 0.58 — confidence weighs, but a doubted fact that answers still comes before sure
  ones that do not;
- importance_weight = 0.7 + 0.06 * i, so i=5 (the default) weighs 1.0, i=10 1.3, i=1 0.76.
  Design note 002: importance 8 at confidence 0.3 (0.58 * 1.18 = 0.68) ranks below
  importance 6 at 0.9 (0.94 * 1.06 = 1.0), and importance 9 (1.24) above importance 3 (0.88)
  at equal confidence;
- kind_weight: narrative text 0.6, observations 0.85, everything else 1.0, so typed facts
  rank above text, and stated facts above generated observations, at equal relevance.  A
  captured turn (`workspace.format.turns`: what a named speaker said, when) weighs as a
  stated fact, 1.0 (`weighed_kind`): at 0.6 the bullets extracted from a conversation
  outranked the turns they came from, and LoCoMo dev evidence R@10 on a captured
  workspace was 56.3 against 67.0 at 1.0.  A bullet extracted from a turn (it ends by
  citing it, `format.cited_turn`) weighs as an observation: a rewording memfold made of
  what the turn says (captured R@10 68.9 -> 70.9, docs/benchmarks.md);
- lifecycle: `journal.fold.lifecycle_weight` (1.0 for a fresh active fact, less as it decays);
  a fact archived by decay alone weighs FADED_SHARE (1.0) of what an active fact of its age
  weighs (0.8 + 0.2 * decay), so decay orders facts of comparable relevance and a faded fact
  that answers better than a fresh one still comes first ("We bought a used Kia Niro" in May
  above December's "the Niro had its first service" for "what car do we drive").  At 0.3
  (the archived weight of `lifecycle_weight`) personal dev lexical P@1/R@5 was 58.1/74.8, at
  0.5 58.1/76.4, 0.7 58.1/77.1, 1.0 60.0/77.4; LoCoMo dev unchanged (its turns do not fade
  apart).  A faded fact still gives way to a newer active one on its subject and topic
  that answers about as well (`currency.below_current`).  A question about what held
  before ("where did we live before Bishopston", "how has my salary changed":
  `query.HISTORY_WORDS`) and naming no time
  sees the superseded and expired facts too, weighing HISTORY_SHARE (1.0) of an active
  fact of their age: personal dev lexical R@5 77.4 -> 80.9 (0.5: 78.2, 0.8: 79.9), LoCoMo and
  truth dev unchanged.  The present perfect asks about the past too ("what have Priyanka
  and I done", `query.PERFECT`);
- event: a question about what holds now — none of the above, and naming no time ("what
  car do we drive", "which school does Milo go to") — weighs an experience EVENT_SHARE
  (0.8): it asks for a state, which the newest event about the subject only mentions.
  Personal dev lexical P@1/R@5 60.0/80.9 -> 61.9/81.8 (current 31.8 -> 40.9; 0.65 the same,
  0.5 lower), truth dev current@1 66.0 -> 73.4, LoCoMo dev unchanged;

Siblings (`sets.with_siblings`): a question that asks for several facts (the present perfect,
a question about the past, "which", "all", a plural noun) lifts each candidate about the best
match's subject — linked to or naming an entity the best match is linked to or names, one the
question does not name and that is linked to fewer than 50 facts — SIBLING_SHARE (0.5) of the
way from its score toward the best match's, times the share of those entities it is about;
its place among the rest is otherwise kept.  A weak best match (`weak`) brings none, and a
sibling must match the question's words itself (lexical search, word knowledge or the second
hop; so never in semantic mode).  Personal dev, lexical multi R@5 at 0 / 0.3 / 0.5 / 0.7 /
1.0: 74.5 / 76.4 / 78.2 / 81.0 / 78.2 with the plain lift (81.0 at 0.5 with the share of
entities), hybrid 73.6 / 73.6 / 80.1 / 80.1 / 74.5.  Beside it (`sets.with_groups`, lexical
and hybrid): a plural names the entity its singular does ("what cars have we owned": @Car),
and a kind names the entities the memory says are one ("the dog": Biscuit, by "Biscuit is
our six-year-old beagle").  Measured in docs/benchmarks.md ("Questions whose answer is
several facts").

Spread (hybrid only, `spread`): the SPREAD_POOL (30) best are ordered again so that a result
much like one above it gives way (maximal marginal relevance over the facts' vectors): each
next place goes to the highest score less VECTOR_SPREAD (0.2) of the best score times the
result's likeness to the most similar result already placed — its cosine past SPREAD_FLOOR
(0.5), scaled to 0..1.  A conversation says one thing many times, and the copies took places
an answer elsewhere needed.  Held out on the LoCoMo dev split (every fold chose it): hybrid
80.9 -> 82.4, every conversation up, no category down, multi-hop 53.0 -> 54.8; narrative 77.3 ->
77.6 (docs/semantic.md).  Semantic mode lost from it (65.5 -> 65.2) and lexical mode has no
vectors.

With `--rerank` (`search._reranked`, `embed.rerank`) the RERANK_TOP best are ordered again by a
blend of this score and a reranker's, RERANK_SHARE of it the reranker's.  Unless
MEMFOLD_RECALL_ORDER=rules (or `learned.ordering(False)`), the 30 best typed facts of a
memory kept about its user are ordered by learned weights over these factors before the
rules that place facts run (`recall.learned`; docs/benchmarks.md, "ltr41" and "The learned
order on by default").

Facts a person archived rank below every active one, and superseded or expired ones below
those; a fact archived by decay alone competes with the active ones, weighed down by its
lifecycle weight, so the only fact holding every word of a query is found years later;
without `--all` superseded and expired facts are left out (and counted, so recall can say
`--all` shows them) unless they held at the time the query asks about.  With `--all`
relevance alone ranks and every fact carries its status, except that a fact that superseded
another scores at least what the fact it superseded scores and ranks above it at equal score
(unless the query asks about a time the replacement did not hold in).  Ties then break by
date (newest first), then path and line, so results are deterministic.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

from memfold.recall.fusion import LEXICAL_EVIDENCE, LOOK_SHARE, LOOK_TOP
from memfold.workspace.format import cited_turn, is_turn

if TYPE_CHECKING:
    from memfold.index.base import Candidate
    from memfold.values import Fact

DEFAULT_CONFIDENCE = {"world": 0.9, "experience": 0.9, "opinion": 0.7, "observation": 0.6,
                      "text": 0.8}
DEFAULT_IMPORTANCE = 5
# the weight of a fact of confidence 0 (one of confidence 1 weighs 1): confidence weighs, but a
# doubted fact that answers still comes before sure ones that do not (`confidence_weight`)
CONFIDENCE_FLOOR = 0.4
KIND_WEIGHT = {"text": 0.6, "observation": 0.85}
ENTITY_BOOST = 0.5
OPINION_BOOST = 0.75
CONTEXT_SHARE = 0.5
# the best match two facts away counts at this share of the nearest neighbour's (`recall`)
CONTEXT_FAR = 0.5
EXPANSION_SHARE = 0.2  # query expansion from the best candidates' words (`expansion`)
# word knowledge (`expansion.word_knowledge`, `lexicon`): a fact holding a form of a query word,
# another word for it, or a kind of it, matches at these shares of a full match
FORM_SHARE = 0.3
# ... but an irregular form of the word itself (bought: buy, knives: knife, ran: run;
# `lexicon.inflections`) matches as the word would, as the index's stemmer makes a regular one
INFLECTION_SHARE = 1.0
SAME_SHARE = 0.3
KIND_SHARE = 0.3
# a fact the lexical search found for a question's frame words alone ("feel", "kind", "use"),
# when it has topic words that other facts hold, keeps this share of its BM25 (`topic`)
FRAME_SHARE = 0.5
# a question that names someone by their role ("my brother", `recall.roles`): a fact that says
# who the role is ("My brother Stuart runs a dairy farm") adds this to its relevance, so that
# among the entity's facts the question's words do not tell apart, it comes first
ROLE_TOLD = 0.1
# a query that names entities: the relevance of a fact linked to none of them is weighed by
# this (it shares words with the question, but is about someone else)
OFF_SUBJECT = 0.3
# a question whose subject is the user ("what car do I drive") and that names no one: the
# relevance of a fact linked only to others is weighed by this (`scoring._of_others`)
OTHERS_SHARE = 0.75
# a question that asks for a sum, an age, an amount or a time of day: a fact that holds none
# weighs this (`scoring.unanswered`, `answer_kind`)
UNANSWERED_SHARE = 0.5
# a question that asks who: a fact that names no person weighs this (`scoring`,
# `answer_kind.names_person`)
NOBODY_SHARE = 0.5
# a question that names the thing it asks for ("which *factory* did I visit?", "which tuning
# *app* do I use?", `head_noun`): a fact that holds neither it nor a word the lexicon gives for
# it, when another fact does, weighs this (`scoring`, `weak.Asked.holds_head`)
HEADLESS_SHARE = 0.75
# a replacement that shares no subject or topic with the fact it replaced carries this share
# of that fact's match (`currency.related`)
APART_SHARE = 0.5
# a fact faded by decay alone (archived by time, not by a person) weighs this share of what a
# fresh active fact of its age weighs (`scoring`)
FADED_SHARE = 1.0
# a question about what held before (`query.HISTORY_WORDS`): a superseded or expired fact is
# shown, weighing this share of what an active fact of its age weighs (0: left out)
HISTORY_SHARE = 1.0
# a question about what holds now (told in the present, no time, nothing of the past): an
# experience weighs this (`scoring.event_weight`)
EVENT_SHARE = 0.8
# a question about what held before a change ("where did I live before Nairobi?",
# `recall.before`): a fact written on the change's day or since weighs this
AFTER_CHANGE = 0.6
# a question that asks for several facts: a candidate about the best match's subject is lifted
# this share of the way toward its score (`sets.with_siblings`)
SIBLING_SHARE = 0.5
# lexical: a second hop, the words of the best results searched again (`expansion.second_hop`)
HOP_SHARE = 0.15
# semantic and hybrid: the query's vector moved toward its best candidates' (`recall.semantic`)
VECTOR_FEEDBACK = 0.5
# semantic and hybrid: 1 embeds the query as written; 0 without the names of the entities it
# names (they weigh through the entity boost, as they do in the lexical search)
VECTOR_NAMES = 0.0
# semantic and hybrid: a fact the vector search finds that is linked to an entity the query
# names needs a cosine LINKED_MINIMUM of the way from the model's floor to its minimum (0: the
# floor, where its semantic part starts; 1: the minimum any other fact needs; `recall.semantic`)
LINKED_MINIMUM = 0.0
# hybrid: among the SPREAD_POOL best, a result loses VECTOR_SPREAD of the best score for its
# likeness to a result ranked above it (cosine past SPREAD_FLOOR, scaled to 0..1; `spread`)
VECTOR_SPREAD = 0.2
SPREAD_FLOOR = 0.5
SPREAD_POOL = 30
# with --rerank: the share of the reranker's score in the blended score of the RERANK_TOP
# best candidates (`search._reranked`, `embed.rerank`).  Leave-one-conversation-out on the
# LoCoMo dev split chose 0.5 in 11 of the 12 lexical and semantic folds (0.3 in the other;
# docs/semantic.md, "Reranking")
RERANK_SHARE = 0.5
RERANK_TOP = 50
# how a fact stands to the time a query asks about (recall classifies, `time_factor` weighs)
VALID, WRITTEN, HELD, NOT_THEN, UNDATED = ("valid then", "written then", "held then",
                                           "not then", "")
HELD_THEN = frozenset({VALID, WRITTEN, HELD})
VALID_THEN = 1.3  # the fact's stated validity overlaps the time asked about
WRITTEN_THEN = 1.15  # the fact was written in the time asked about
STATE_NOT_THEN = 0.6  # a state fact that did not hold then (written after it, for one)
# the factors of a candidate's score, in `Scored.factors` (`scoring.score_candidate`): its
# match and context, 1/0 for an entity named, off the subject, told of others, no answer of
# the kind asked, no person for a who, no head; its lifecycle, time and event weights; 1/0
# for a fact that says who a role asked is
FACTORS = ("match", "context", "entity", "off_subject", "others", "unanswered", "nobody",
           "headless", "lifecycle", "time", "event", "role_told")


# The weights a benchmark may vary to fit or test them (`memfold bench locomo --tune`), by name,
# with their defaults: read through `tunable`, so an override set by `tuned` holds for the
# calling context only.
TUNABLE: Mapping[str, float] = MappingProxyType({
    "CONTEXT_SHARE": CONTEXT_SHARE, "CONTEXT_FAR": CONTEXT_FAR, "ENTITY_BOOST": ENTITY_BOOST,
    "OPINION_BOOST": OPINION_BOOST, "EXPANSION_SHARE": EXPANSION_SHARE,
    "VECTOR_FEEDBACK": VECTOR_FEEDBACK, "VECTOR_NAMES": VECTOR_NAMES,
    "RERANK_SHARE": RERANK_SHARE, "VECTOR_SPREAD": VECTOR_SPREAD, "SPREAD_FLOOR": SPREAD_FLOOR,
    "HOP_SHARE": HOP_SHARE, "LINKED_MINIMUM": LINKED_MINIMUM, "FORM_SHARE": FORM_SHARE,
    "INFLECTION_SHARE": INFLECTION_SHARE,
    "SAME_SHARE": SAME_SHARE, "KIND_SHARE": KIND_SHARE, "FRAME_SHARE": FRAME_SHARE,
    "ROLE_TOLD": ROLE_TOLD, "OFF_SUBJECT": OFF_SUBJECT, "OTHERS_SHARE": OTHERS_SHARE,
    "UNANSWERED_SHARE": UNANSWERED_SHARE, "HEADLESS_SHARE": HEADLESS_SHARE,
    "NOBODY_SHARE": NOBODY_SHARE,
    "APART_SHARE": APART_SHARE,
    "FADED_SHARE": FADED_SHARE, "HISTORY_SHARE": HISTORY_SHARE,
    "EVENT_SHARE": EVENT_SHARE, "AFTER_CHANGE": AFTER_CHANGE, "SIBLING_SHARE": SIBLING_SHARE,
    "LEXICAL_EVIDENCE": LEXICAL_EVIDENCE, "LOOK_SHARE": LOOK_SHARE,  # hybrid (`fusion`)
    "LOOK_TOP": LOOK_TOP,
})
_TUNED: ContextVar[Mapping[str, float] | None] = ContextVar("memfold_ranking_tuned",
                                                            default=None)


def tunable(name: str) -> float:
    """The weight `name` (one of TUNABLE): an override from `tuned`, else its default."""
    value = (_TUNED.get() or {}).get(name)
    return TUNABLE[name] if value is None else value


@contextmanager
def tuned(values: Mapping[str, float]) -> Iterator[None]:
    """Recall in this context weighs with `values` (names from TUNABLE) instead of the
    defaults; a benchmark's way to compare settings without changing them for anyone else."""
    unknown = sorted(set(values) - set(TUNABLE))
    if unknown:
        raise ValueError(f"not a tunable weight: {', '.join(unknown)} "
                         f"(tunable: {', '.join(TUNABLE)})")
    token = _TUNED.set({**(_TUNED.get() or {}), **values})
    try:
        yield
    finally:
        _TUNED.reset(token)


def confidence_of(kind: str, written: float | None) -> float:
    return written if written is not None else DEFAULT_CONFIDENCE.get(kind, 0.8)


def importance_weight(importance: int | None) -> float:
    return 0.7 + 0.06 * (importance if importance is not None else DEFAULT_IMPORTANCE)


def confidence_weight(confidence: float) -> float:
    return CONFIDENCE_FLOOR + (1 - CONFIDENCE_FLOOR) * confidence


def relevance(match: float, *, context: float = 0.0, entity: bool, opinion: bool,
              off_subject: bool = False, role_told: bool = False) -> float:
    """`off_subject`: the query names entities and the fact is linked to none of them;
    `role_told`: the fact says who a role the query names is (ROLE_TOLD)."""
    value = (match + tunable("CONTEXT_SHARE") * context
             + (tunable("ENTITY_BOOST") if entity else 0.0)
             + (tunable("ROLE_TOLD") if role_told else 0.0)
             + (tunable("OPINION_BOOST") if opinion else 0.0))
    return value * tunable("OFF_SUBJECT") if off_subject else value


def time_factor(then: str, *, state: bool) -> float:
    """The time weight of a fact that stands `then` to the time asked about; `state` for
    world, opinion and observation facts."""
    if then == VALID:
        return VALID_THEN
    if then == WRITTEN:
        return WRITTEN_THEN
    return STATE_NOT_THEN if then == NOT_THEN and state else 1.0


def view_kept(old: Scored, new: Scored) -> bool:
    """Whether `old` is an opinion a question about a view asks for (`Scored.opinion`) and
    `new`, written after it, is no opinion: a view is changed by another view, not by news
    of the thing viewed ("Sea kayaking is the most peaceful thing I've done" is no less how
    I feel about kayaking for "I own a red sea kayak").  A question about what holds now
    still reads a newer fact as the end of a plan or a belief."""
    return old.opinion and new.fact.kind != "opinion"


def weighed_kind(fact: Fact) -> str:
    """The kind a fact is weighed as: a captured turn (a text row with its `speaker`) as
    a stated experience, a bullet extracted from one (`format.cited_turn`) as an
    observation memfold made, every other fact as its own kind."""
    if is_turn(fact):
        return "experience"
    return "observation" if cited_turn(fact.content) is not None else fact.kind


def score(relevance: float, *, kind: str, confidence: float, importance: int | None,
          lifecycle: float = 1.0) -> float:
    return (relevance * confidence_weight(confidence) * importance_weight(importance)
            * KIND_WEIGHT.get(kind, 1.0) * lifecycle)


@dataclass(frozen=True)
class Scored:
    """A candidate as recall scored it, and what `why` tells of how (`recall`, `currency`)."""

    candidate: Candidate
    score: float
    confidence: float
    linked: tuple[str, ...]
    opinion: bool
    status: str
    decay: float
    tier: int  # 0 active (or true at the asked time), 1 archived, 2 superseded or expired
    beside: str | None = None  # the neighbour whose match lifted it more than its own
    then: str = UNDATED  # how it stands to the time the query asks about
    hidden: bool = False  # left out for its lifecycle (superseded or expired, no --all)
    # the fact that replaced it (with --all), or may have (`currency.newer_first`), is among
    # the results
    replaced: bool = False
    alike: str | None = None  # hybrid: the result above it that it gave way to (`recall`)
    outdated_by: tuple[str, ...] = ()  # newer facts shown with it that may replace it
    own: float = 0.0  # its score without the context its neighbours gave it
    lifter: str | None = None  # the neighbour that gave it that context, if any
    # the factors its score was made of (`scoring.score_candidate`, named by FACTORS), read
    # by the learned order of the best (`recall.learned`)
    factors: tuple[float, ...] = ()

    @property
    def fact(self) -> Fact:
        return self.candidate.fact

    @functools.cached_property
    def _order(self) -> tuple[int, float, bool, int, str, int]:
        """`order`'s key, made once: recall sorts its candidates four or five times (a
        changed score or flag makes a new Scored, `dataclasses.replace`)."""
        fact = self.candidate.fact
        day = fact.day.toordinal() if fact.day else 0
        return (self.tier, -round(self.score, 9), self.replaced, -day, fact.path, fact.line)


def made_scored(candidate: Candidate, score: float, confidence: float,  # noqa: PLR0913
                linked: tuple[str, ...], opinion: bool, status: str, decay: float, tier: int,
                beside: str | None, then: str, *, hidden: bool, own: float,
                lifter: str | None, factors: tuple[float, ...] = ()) -> Scored:
    """`Scored(...)` as `scoring.score_candidate` makes one for each candidate of every
    recall (the fields it leaves out at their defaults): a frozen dataclass's own
    `__init__` sets each of its 17 fields through `object.__setattr__` (about 3 µs), this
    fills its `__dict__` at once, as `values.facts.made_fact` does a Fact's.  The same
    object: tests/recall/test_ranking_made.py holds the two equal."""
    made = object.__new__(Scored)
    d = made.__dict__
    d["candidate"] = candidate
    d["score"] = score
    d["confidence"] = confidence
    d["linked"] = linked
    d["opinion"] = opinion
    d["status"] = status
    d["decay"] = decay
    d["tier"] = tier
    d["beside"] = beside
    d["then"] = then
    d["hidden"] = hidden
    d["replaced"] = False
    d["alike"] = None
    d["outdated_by"] = ()
    d["own"] = own
    d["lifter"] = lifter
    d["factors"] = factors
    return made


def order(hit: Scored) -> tuple[int, float, bool, int, str, int]:
    """Active facts (and those faded by decay alone) first — facts a person archived rank
    below them, however relevant — then score,
    then a replacement before what it replaced, then newest, then path and line."""
    return hit._order


def spread(ranked: Sequence[tuple[int, float]], cosines: Sequence[Sequence[float]],
           ) -> list[tuple[int, float]]:
    """`ranked` (tier, score) pairs, best first, ordered again so that a result much like one
    already above it gives way (maximal marginal relevance): each next place goes to the
    result of the best tier with the highest score less VECTOR_SPREAD of the best score times
    its likeness to the most similar result already placed — its cosine past SPREAD_FLOOR,
    scaled to 0..1 (`cosines[i][j]` between results i and j).  Returns (index into `ranked`,
    lowered score) in the new order; within a tier the lowered scores fall down the list."""
    share = tunable("VECTOR_SPREAD")
    floor = tunable("SPREAD_FLOOR")
    if share <= 0 or len(ranked) < 2 or floor >= 1:
        return [(i, score) for i, (_, score) in enumerate(ranked)]
    top = max(score for _, score in ranked)
    closest = [floor] * len(ranked)  # the highest cosine with a result placed, at least floor
    left = list(range(len(ranked)))
    out: list[tuple[int, float]] = []
    while left:
        lowered = {i: ranked[i][1] - share * top * (closest[i] - floor) / (1 - floor)
                   for i in left}
        best = min(left, key=lambda i: (ranked[i][0], -lowered[i], i))
        left.remove(best)
        out.append((best, lowered[best]))
        row = cosines[best]
        for i in left:
            closest[i] = max(closest[i], row[i])
    return out
