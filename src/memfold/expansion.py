"""Query expansion from the workspace itself: words the best candidates share.

Multi-hop and open-domain questions name one side of what they ask ("what did Melanie do
after the race?"); the facts that answer hold the other.  The few best lexical candidates
tell which words travel with the question here: a word (not a stop word, not already in
the query) found in at least two of them is searched for too, and what only that second
search finds is added at `ranking.EXPANSION_SHARE` of its own match (0 turns it off).

Leave-one-conversation-out on the LoCoMo dev split (`memfold bench locomo --tune
EXPANSION_SHARE=0,0.2,0.4`), 0.2 was chosen in every fold; R@10 held out, off -> 0.2:
lexical 69.9 -> 70.5, hybrid 75.5 -> 76.0, narrative layout 68.2 -> 69.4.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from . import ranking
from .embed.fusion import lexical_part
from .index.base import Candidate, Filters, IndexBackend
from .query import STOP_WORDS, QueryPlan, find_words, quote_fts

FEEDBACK = 5  # the best candidates read for words
MIN_SHARED = 2  # a word in at least this many of them
MAX_WORDS = 6
# facts the expanded search may add, whatever k is: they enter at a fifth of their match, so
# more only cost time (a k=1000 recall was 2.4x slower with 4*k of them); a k=10 recall
# fetches this many anyway
MAX_ADDED = 50


def expansion_words(plan: QueryPlan, best: list[Candidate]) -> list[str]:
    """Words at least MIN_SHARED of the best candidates hold that the query does not."""
    asked = {t.casefold() for t in plan.terms}
    counts: Counter[str] = Counter()
    for c in best:
        words = {w.casefold() for w in find_words(c.fact.content)}
        counts.update(w for w in words if len(w) > 2 and w.isalpha()
                      and w not in STOP_WORDS and w not in asked)
    shared = [(n, w) for w, n in counts.items() if n >= MIN_SHARED]
    return [w for _, w in sorted(shared, key=lambda p: (-p[0], p[1]))[:MAX_WORDS]]


def expand(backend: IndexBackend, plan: QueryPlan, found: Mapping[tuple[str, int], Candidate],
           filters: Filters) -> dict[int, tuple[Candidate, float]]:
    """Candidates only the expanded search finds, each with its match (already scaled)."""
    share = ranking.tunable("EXPANSION_SHARE")
    lexical = sorted((c for c in found.values() if c.bm25 is not None),
                     key=lambda c: c.bm25 or 0.0)[:FEEDBACK]
    words = expansion_words(plan, lexical) if share > 0 else []
    if not words:
        return {}
    more = backend.lexical(" OR ".join(quote_fts(w) for w in words), filters, MAX_ADDED)
    best = max((-c.bm25 for c in more if c.bm25 is not None), default=0.0)
    known = {c.rowid for c in found.values()}
    return {c.rowid: (c, share * lexical_part(c.bm25, best)) for c in more
            if c.rowid not in known}
