"""Semantic recall over one workspace: the embedder, the vector store and the index together.

`Semantic.fuse` is what `search.recall` calls in semantic and hybrid mode, once the lexical,
entity and time candidates are gathered: it adds the facts nearest to the query's vector
(within the same filters) and returns each candidate's fused relevance by rowid.  In hybrid
mode the query's vector is then moved toward its best candidates' (`moved_query`,
`ranking.VECTOR_FEEDBACK`) and the fusion is done again with it.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Mapping, MutableMapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from memfold.embed.base import Embedder
from memfold.embed.store import ANN_MIN_ROWS, Progress, VectorStore
from memfold.errors import IndexError_
from memfold.index.base import Candidate, FactReader, FactSearch, Filters, RecallIndex, Terms
from memfold.recall import fusion, ranking
from memfold.recall.query import QueryPlan
from memfold.recall.weak import asked

if TYPE_CHECKING:
    from memfold.embed.base import Matrix
    from memfold.embed.rerank import Reranker

# vector feedback (`ranking.VECTOR_FEEDBACK`): the best candidates whose vectors move the query.
# Three, not two: chosen leave-one-file-out over the six personal years among the counts that
# keep LoCoMo dev hybrid (2 and 3; every fold chose 3): hybrid P@1 / R@5 / R@10 68.9 / 88.1 /
# 94.1 -> 69.8 / 89.5 / 94.6, LoCoMo dev R@10 82.3 both.  Four, which the personal folds alone
# prefer (70.4 / 89.4 / 94.9), costs LoCoMo 82.3 -> 81.4 (docs/semantic.md, "Vector feedback
# from three candidates")
FEEDBACK = 3
EXACT_SHAPE = re.compile(r"\d|_|\w[-./:#@]\w|[a-z][A-Z]|[A-Z]{2}")


def exact_looking(plan: QueryPlan) -> list[str]:
    """Query words that look like codes rather than prose: ids, versions, error strings,
    CamelCase or ALLCAPS names, and every quoted phrase."""
    words: list[str] = list(plan.phrases)
    for token in plan.text.replace('"', " ").split():
        token = token.strip(".,;:!?()[]{}'`")
        if token and EXACT_SHAPE.search(token):
            words.append(token)
    return list(dict.fromkeys(words))


def coverage(backend: FactSearch, plan: QueryPlan, named: Sequence[str],
             found: Iterable[Candidate]) -> dict[int, float]:
    """Each candidate's share of the question's asked words (`weak.asked`: content words less
    names and frame words, weighed by rarity), by rowid: 1 for every one when the question
    asks none (names or a time alone).  Hybrid fusion counts a lexical match by it
    (`fusion.agreed`)."""
    question = asked(backend, plan, named)
    if question.total <= 0:
        return {c.rowid: 1.0 for c in found}
    return {c.rowid: question.covered(c.fact) / question.total for c in found}


def admits(calibrated: fusion.Calibration, cos: float, *, linked: bool) -> bool:
    """Whether a fact the vector search found at cosine `cos` joins the candidates: at the
    model's minimum, or — `linked` to an entity the query names — from LINKED_MINIMUM of the
    way from its floor to that minimum (`ranking.LINKED_MINIMUM`, 0: the floor).  The name
    vouches for what the vector alone cannot: that the fact is about whom the query asks, so
    a reply that answers in other words ("off to go swimming with the kids") comes in; a
    query that names nothing still finds nothing below the minimum."""
    if not linked:
        return cos >= calibrated.minimum
    share = ranking.tunable("LINKED_MINIMUM")
    return cos >= calibrated.floor + share * (calibrated.minimum - calibrated.floor)


class Semantic:
    """Vector search for one index, with the embedder that made its vectors."""

    def __init__(self, folder: Path, embedder: Embedder, *,
                 ann_min_rows: int = ANN_MIN_ROWS) -> None:
        self.store = VectorStore(folder)
        self.embedder = embedder
        self.ann_min_rows = ann_min_rows
        self._queries: dict[str, Matrix] = {}
        self._late: Reranker | None = None  # `late_interaction`, made on first use
        # each question's cosine with its candidates, by fact text: the look's lead (`Look`)
        self._cosines: dict[str, dict[str, float]] = {}
        self.notices: list[str] = []  # problems met while searching, for the caller to show

    def update(self, backend: FactReader, progress: Progress | None = None, *,
               wait: bool = True, max_new: int | None = None) -> int:
        """Embed the facts that have no vector yet (nothing when the index did not move);
        see VectorStore.update for `wait` and `max_new`."""
        return self.store.update(backend, self.embedder, progress, wait=wait,
                                 max_new=max_new)

    def query_vector(self, text: str, also: str | None = None) -> Matrix:
        """The vector of `text`, made once.  `also`: the question as hybrid's second look
        reads it (`late_interaction`), embedded in the same run of the model when the model
        embeds several questions at once (`embed_queries`), which keeps its token vectors:
        a hybrid recall then runs the model once for its question, not twice."""
        vector = self._queries.get(text)
        if vector is None:
            if len(self._queries) > 256:
                self._queries.clear()
            together = getattr(self.embedder, "embed_queries", None)
            if also is not None and callable(together):
                vector = together(list(dict.fromkeys((text, also))))[0]
            else:
                vector = self.embedder.embed_query(text)
            self._queries[text] = vector
        return vector

    def nearest(self, backend: FactReader, text: str, filters: Filters,
                limit: int) -> list[tuple[Candidate, float]]:
        """The facts within `filters` nearest to `text`, best first, with their cosine."""
        return self.nearest_to(backend, self.query_vector(text), filters, limit)

    def nearest_to(self, backend: FactReader, query: Matrix, filters: Filters,
                   limit: int) -> list[tuple[Candidate, float]]:
        """The facts within `filters` nearest to the vector `query`, best first."""
        pool = limit
        while True:
            found = self.store.search(query, pool, ann_min_rows=self.ann_min_rows)
            if not found:
                return []
            candidates = backend.by_rowids([rowid for rowid, _ in found], filters)
            cosine = dict(found)
            out = sorted(((c, cosine[c.rowid]) for c in candidates),
                         key=lambda p: (-p[1], p[0].fact.path, p[0].fact.line))
            if filters == Filters() or len(out) >= limit or len(found) < pool:
                return out[:limit]
            pool *= 8  # the filters kept too few: look further down the list

    def late_interaction(self) -> Reranker | None:
        """Hybrid's second look: the embedder's own late interaction
        (`embed.rerank.LateInteraction`, made once) with the embedder's lead (`Look`); None
        for a model without token vectors (e5, the fake in tests)."""
        if self._late is None and callable(getattr(self.embedder, "token_vectors", None)):
            from memfold.embed.rerank import LateInteraction

            self._late = LateInteraction(self.embedder)
        if self._late is None or fusion.LEAD_WEIGHT <= 0:
            return self._late
        return Look(self._late, self._cosines)

    def _remember(self, question: str, found: Iterable[Candidate], query: Matrix) -> None:
        """Keep the question's cosine with each candidate, by its text, for the look."""
        if len(self._cosines) > 256:
            self._cosines.clear()
        cosine = self.store.similarity(query, [c.rowid for c in found])
        by_text: dict[str, float] = {}
        for c in found:
            if c.rowid in cosine:
                by_text[c.fact.content] = max(cosine[c.rowid],
                                              by_text.get(c.fact.content, -1.0))
        self._cosines[question] = by_text

    def paraphrases(self, rowid: int, rowids: Sequence[int]) -> set[int]:
        """Those of `rowids` whose vector is as close to this fact's as a paraphrase's
        (the model's `fusion.Calibration.paraphrase`)."""
        vector = self.store.vector(rowid)
        if vector is None:
            return set()
        at = fusion.calibration(self.embedder.identity.model).paraphrase
        return {r for r, cos in self.store.similarity(vector, rowids).items() if cos >= at}

    def pairwise(self, rowids: Sequence[int]) -> list[list[float]]:
        """The cosine of each of these facts with each other (0 without a vector)."""
        return self.store.pairwise(rowids)

    def rare_hits(self, backend: FactSearch, plan: QueryPlan) -> set[int]:
        """Rowids of facts holding an exact-looking query word that few facts hold."""
        hits: set[int] = set()
        for word in exact_looking(plan):
            try:
                rows = backend.matching_rowids(Terms(words=(word,)), fusion.RARE_DF + 1)
            except IndexError_:  # a word the full-text index cannot search: no boost
                continue
            if len(rows) <= fusion.RARE_DF:
                hits.update(rows)
        return hits

    def fuse(self, backend: RecallIndex, plan: QueryPlan, found: MutableMapping[
             tuple[str, int], Candidate], filters: Filters, limit: int,
             mode: str, text: str, named: Sequence[str] = (),
             look: bool = True) -> dict[int, float] | None:
        """Add the nearest facts to `found`; return every candidate's fused relevance
        (None when the query cannot be embedded: the recall stays lexical).  `text` is
        what the query's vector is made of (`gather.vector_text`); `named`, the keys of
        the entities the query names (`admits`); `look`: hybrid's second look will be taken
        (`recall.search._looked`, no `--rerank`): its question is embedded in the same run."""
        hybrid = mode == fusion.HYBRID
        looked = plan.text if hybrid and look and self.late_interaction() else None
        try:
            self.query_vector(text, looked)
        except Exception as exc:  # noqa: BLE001 - a broken model must not break recall
            self.notices.append(f"recall is lexical: the query could not be embedded ({exc})")
            return None
        calibrated = fusion.calibration(self.embedder.identity.model)
        keys = frozenset(named)
        for c, cos in self.nearest(backend, text, filters, limit):
            if admits(calibrated, cos, linked=not keys.isdisjoint(c.links)):
                found.setdefault((c.fact.path, c.fact.line), c)
        if not found:
            return {}
        best_bm25 = max((-c.bm25 for c in found.values() if c.bm25 is not None), default=0.0)
        rare = self.rare_hits(backend, plan) if hybrid else set()
        covered = coverage(backend, plan, sorted(keys), found.values()) if hybrid else {}
        # how much of the question the words can tell at all: the best any word match holds
        evidence = fusion.evidence(max((covered.get(c.rowid, 0.0) for c in found.values()
                                        if c.bm25 is not None), default=1.0),
                                   ranking.tunable("LEXICAL_EVIDENCE")) if hybrid else 1.0

        def fused(query: Matrix) -> dict[int, float]:
            cosine = self.store.similarity(query, [c.rowid for c in found.values()])
            best_cos = max(cosine.values(), default=0.0)
            near = {c.rowid: fusion.semantic_part(cosine.get(c.rowid), best_cos,
                                                  calibrated.floor) for c in found.values()}
            # the agreement weighs hybrid's lexical part only (`fusion.fuse`); a fact the
            # moved query brought has no BM25: its coverage weighs nothing
            trusted = evidence * self._trust(found.values(), near, cosine, covered, best_bm25)
            return {c.rowid: fusion.fuse(
                mode, fusion.lexical_part(c.bm25, best_bm25), near[c.rowid],
                rare_exact=c.rowid in rare, agreement=trusted * fusion.agreed(
                    covered.get(c.rowid, 0.0), near[c.rowid] if c.rowid in cosine else None))
                for c in found.values()}

        first = fused(self.query_vector(text))
        share = ranking.tunable("VECTOR_FEEDBACK")
        # best first, ties by path and line: rowids follow how the index was built, and two
        # replicas of one bank must move the query alike (tests/recall/test_recall_replicas.py)
        ranked = [c.rowid for c in sorted(found.values(), key=lambda c: (
            -first[c.rowid], c.fact.path, c.fact.line))]
        moved = (self.moved_query(text, ranked, share)
                 if share > 0 and mode == fusion.HYBRID else None)
        if moved is not None:
            for c, cos in self.nearest_to(backend, moved, filters, limit):
                if admits(calibrated, cos, linked=not keys.isdisjoint(c.links)):
                    found.setdefault((c.fact.path, c.fact.line), c)
        if looked is not None:  # the look weighs the question's own vector, not the moved one
            self._remember(looked, found.values(), self.query_vector(text))
        return first if moved is None else fused(moved)

    @staticmethod
    def _trust(found: Iterable[Candidate], near: Mapping[int, float],
               cosine: Mapping[int, float], covered: Mapping[int, float],
               best_bm25: float) -> float:
        """`fusion.trust` of the question's best word match (the highest BM25; of several
        tied, the one the model places nearest); 1 when no fact matched a word, the best has
        no vector yet, or nothing was covered (semantic mode)."""
        matched = [c for c in found if c.bm25 is not None]
        if not matched or not covered or fusion.LEXICAL_DOUBT <= 0:  # semantic: no coverage
            return 1.0
        best = max(matched, key=lambda c: (fusion.lexical_part(c.bm25, best_bm25),
                                           near.get(c.rowid, 0.0)))
        if best.rowid not in cosine:
            return 1.0
        return fusion.trust(near.get(best.rowid, 0.0), covered.get(best.rowid, 0.0))

    def moved_query(self, text: str, ranked: Sequence[int], share: float) -> Matrix | None:
        """The query's vector moved toward the vectors of the FEEDBACK first of the `ranked`
        candidates (rowids, most relevant first) that have one (their mean, at `share` of the
        query's weight), unit length; None when no candidate has a vector."""
        import numpy as np

        vectors = []
        for rowid in ranked:
            if (vector := self.store.vector(rowid)) is not None:
                vectors.append(vector)
                if len(vectors) == FEEDBACK:
                    break
        if not vectors:
            return None
        query = np.asarray(self.query_vector(text), dtype=np.float32).reshape(-1)
        moved = query + share * np.mean(np.stack(vectors), axis=0)
        norm = float(np.linalg.norm(moved))
        result: Matrix = (moved / norm).astype(np.float32) if norm > 0 else query
        return result


class Look:
    """Hybrid's second look (`recall.search._looked`): the embedder's late interaction, each
    score scaled to 0..1 among the facts looked at, plus `fusion.LEAD_WEIGHT` for the fact
    the embedder places nearest when it leads the best placed other by `fusion.LOOK_LEAD`
    (`fusion.lead`; the cosines of the question's own vector, not the moved one, kept by
    `Semantic._remember`).  The look's blend keeps the fused order's say (LOOK_SHARE): the
    lead lifts a fact only as far as the blend lets it."""

    def __init__(self, late: Reranker, cosines: Mapping[str, Mapping[str, float]]) -> None:
        self.late = late
        self.cosines = cosines  # question -> fact text -> cosine (`Semantic._remember`)

    def scores(self, query: str, texts: Sequence[str]) -> list[float]:
        late = self.late.scores(query, texts)
        known = self.cosines.get(query, {})
        ahead = fusion.lead([known.get(t) for t in texts])
        low, high = min(late, default=0.0), max(late, default=0.0)
        return [((r - low) / (high - low) if high > low else 0.0)
                + (fusion.LEAD_WEIGHT if led else 0.0) for r, led in zip(late, ahead, strict=True)]


def terminal_progress(label: str = "embedding") -> Progress | None:
    """A progress line on stderr when it is a terminal, else None."""
    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        if total:
            end = "\n" if done >= total else ""
            print(f"\rmemfold: {label} {done:,}/{total:,} facts", end=end, file=sys.stderr,
                  flush=True)
    return show

