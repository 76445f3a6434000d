"""Ranking: how lexical, entity, intent, confidence and importance combine.  Pure.

    relevance = lexical + 0.5 * entity + 0.5 * opinion_intent + 0.2 * in_asked_time
                + 0.2 * valid_then
    score     = relevance * confidence * importance_weight * kind_weight * lifecycle_weight

- lexical: the fact's BM25 (FTS5) divided by the best BM25 among the candidates, in 0..1;
- entity: 1 when the fact is linked to an entity the query names (`@Peter`, or "Peter"
  when Peter is a known entity or alias), else 0;
- opinion_intent: 1 for opinion facts when the query asks about preferences; its weight
  (0.5) lifts an opinion of default confidence (0.7) above a stated fact (0.9) that matches
  the query as well;
- in_asked_time: 1 when the query names a time ("around Nov 27") — every candidate is then
  inside that time, so a fact needs no matching word to be found;
- valid_then: 1 when the fact states a validity range that overlaps the asked time (it says
  what was true then, not only that something was written then);
- confidence: the fact's `c=`, else the default of its kind (stated facts above generated
  observations);
- importance_weight = 0.8 + 0.04 * i, so i=5 (the default) weighs 1.0 and i=10 weighs 1.2;
- kind_weight: narrative text 0.65, observations 0.9, everything else 1.0, so typed facts
  rank above text at equal relevance, observations too (0.6 * 0.9 > 0.8 * 0.65);
- lifecycle_weight: 1.0 for active facts (the lifecycle module lowers it for others).

Ties break by date (newest first), then path and line, so results are deterministic.
"""

from __future__ import annotations

DEFAULT_CONFIDENCE = {"world": 0.9, "experience": 0.9, "opinion": 0.7, "observation": 0.6,
                      "text": 0.8}
DEFAULT_IMPORTANCE = 5
KIND_WEIGHT = {"text": 0.65, "observation": 0.9}
ENTITY_BOOST = 0.5
OPINION_BOOST = 0.5
TIME_BOOST = 0.2


def confidence_of(kind: str, written: float | None) -> float:
    return written if written is not None else DEFAULT_CONFIDENCE.get(kind, 0.8)


def importance_weight(importance: int | None) -> float:
    return 0.8 + 0.04 * (importance if importance is not None else DEFAULT_IMPORTANCE)


def relevance(lexical: float, *, entity: bool, opinion: bool, timely: bool = False,
              valid_then: bool = False) -> float:
    return (lexical + (ENTITY_BOOST if entity else 0.0) + (OPINION_BOOST if opinion else 0.0)
            + (TIME_BOOST if timely else 0.0) + (TIME_BOOST if valid_then else 0.0))


def score(relevance: float, *, kind: str, confidence: float, importance: int | None,
          lifecycle: float = 1.0) -> float:
    return (relevance * confidence * importance_weight(importance)
            * KIND_WEIGHT.get(kind, 1.0) * lifecycle)
