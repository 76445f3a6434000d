"""A stand-in embedding model that reads meaning, not words, for hybrid-fusion tests: a
text's vector is its concepts (each twice) plus one token every text shares (cosine 0.2
between two concepts: the floor of unrelated text).  Tests name the concepts with invented
words, so no lexicon or stem relates them."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

from memfold.embed.base import FakeEmbedder
from memfold.memory import Memory


class ConceptEmbedder(FakeEmbedder):
    """Words in `concepts` are one thing per concept to it ("skiff" and "quorra": a boat),
    whatever other words two texts share."""

    def __init__(self, concepts: Mapping[str, str]) -> None:
        super().__init__()
        self.concepts = dict(concepts)

    def embed(self, texts: Sequence[str]) -> object:  # type: ignore[override]
        return super().embed([" ".join(["text", *(
            f"{self.concepts[w]} {self.concepts[w]}" for w in re.findall(r"\w+", t.casefold())
            if w in self.concepts)]) for t in texts])


@contextmanager
def concept_memory(workspace: Path, concepts: Mapping[str, str],
                   facts: Sequence[tuple[str, str]], now: str) -> Iterator[Memory]:
    """A memory that embeds with ConceptEmbedder, holding `facts` (day, bullet) a day each:
    no fact is another's neighbour in its file (`ranking` context)."""
    mem = Memory.open(workspace, now=now)
    try:
        mem.set_embedder(ConceptEmbedder(concepts))
        for day, bullet in facts:
            mem.retain(bullet, date=day)
        yield mem
    finally:
        mem.close()


def first(memory: Memory, query: str, mode: str) -> str:
    """The content of the best result (there must be one)."""
    hits = memory.recall(query, mode=mode).hits
    assert hits
    return hits[0].fact.content


# a question turning on a word no fact holds ("Who did the splice in the sommer?"): the
# facts and the concepts the stand-in model reads in them, invented words so no lexicon or
# stem relates them (tests/recall/test_hybrid_trust.py, test_hybrid_evidence.py)
SPLICE_NOW = "2025-11-28T12:00:00+00:00"
SPLICE_CONCEPTS = {"splice": "marry", "wedded": "marry", "sommer": "season", "retires": "work",
                   "desk": "work"}
SPLICE_FACTS = (("2025-11-20", "W: Gwen retires from her desk at the end of the sommer"),
                ("2025-11-24", "W: Callum and Marisol wedded at the harbour hotel"),
                ("2025-11-26", "W: the gutters need clearing before the rain"))
