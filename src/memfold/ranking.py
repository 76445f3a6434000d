"""Ranking: how lexical, context, entity, intent, time, confidence and lifecycle combine.  Pure.

    relevance = match + 0.5 * context + 0.5 * entity + 0.75 * opinion_intent
    score     = relevance * time * confidence * importance_weight * kind_weight * lifecycle

- match: the fact's BM25 (FTS5) divided by the best BM25 among the candidates, in 0..1 (in
  hybrid and semantic mode, the fused relevance of `embed.fusion`, also 0..1);
- context: the best match among the candidates just before and after the fact in its file.
  Facts written together explain each other: a reply ("yes — a sunset, last week") holds
  few of the words of the question it answers, its neighbour holds them.  Only candidates
  are lifted; a fact that matches nothing in the query is not added for its neighbour.  On
  the LoCoMo dev split this moved R@10 from 65.2 to 69.9 (lexical) and 69.1 to 75.5
  (hybrid), in each of its three conversations (docs/semantic.md);
- entity: 1 when the fact is linked to an entity the query names (`@Peter`, or "Peter"
  when Peter is a known entity or alias), else 0;
- opinion_intent: 1 for opinion facts when the query asks about preferences, else 0.  At
  0.75 it outweighs the lower default confidence of opinions (0.7 against 0.9) up to the
  highest relevance the other terms reach (2.0), so an opinion outranks a stated fact
  worded the same;
- time: when the query names a time ("around Nov 27", "in November 2025"), 1.3 for a fact
  whose stated validity overlaps it (it says what was true then), 1.15 for a fact written
  then, else 1.0.  Beside words, a time phrase only boosts (events are often written down
  after they happen); a query that is only a time phrase is restricted to that time;
- confidence: the fact's `c=` (or a journaled update), else the default of its kind
  (stated facts above generated observations);
- importance_weight = 0.8 + 0.04 * i, so i=5 (the default) weighs 1.0 and i=10 weighs 1.2;
- kind_weight: narrative text 0.6, observations 0.85, everything else 1.0, so typed facts
  rank above text, and stated facts above generated observations, at equal relevance;
- lifecycle: `lifecycle.lifecycle_weight` (1.0 for a fresh active fact, less as it decays).

Archived facts rank below every active one, and superseded or expired ones (when true at
the time asked about) below those — except with `--all`, where relevance alone ranks and
every fact carries its status; then ties break by date (newest
first), then path and line, so results are deterministic.
"""

from __future__ import annotations

DEFAULT_CONFIDENCE = {"world": 0.9, "experience": 0.9, "opinion": 0.7, "observation": 0.6,
                      "text": 0.8}
DEFAULT_IMPORTANCE = 5
KIND_WEIGHT = {"text": 0.6, "observation": 0.85}
ENTITY_BOOST = 0.5
OPINION_BOOST = 0.75
CONTEXT_SHARE = 0.5
VALID_THEN = 1.3  # the fact's stated validity overlaps the time asked about
WRITTEN_THEN = 1.15  # the fact was written in the time asked about


def confidence_of(kind: str, written: float | None) -> float:
    return written if written is not None else DEFAULT_CONFIDENCE.get(kind, 0.8)


def importance_weight(importance: int | None) -> float:
    return 0.8 + 0.04 * (importance if importance is not None else DEFAULT_IMPORTANCE)


def relevance(match: float, *, context: float = 0.0, entity: bool, opinion: bool) -> float:
    return (match + CONTEXT_SHARE * context + (ENTITY_BOOST if entity else 0.0)
            + (OPINION_BOOST if opinion else 0.0))


def time_factor(*, valid_then: bool, written_then: bool) -> float:
    return VALID_THEN if valid_then else WRITTEN_THEN if written_then else 1.0


def score(relevance: float, *, kind: str, confidence: float, importance: int | None,
          lifecycle: float = 1.0) -> float:
    return (relevance * confidence * importance_weight(importance)
            * KIND_WEIGHT.get(kind, 1.0) * lifecycle)
