"""Hybrid fusion: one relevance from BM25 and cosine similarity.  Pure; no numpy.

    lexical  = BM25 / best BM25 among the candidates            (0..1, as in lexical mode)
    semantic = (cos - SEM_FLOOR) / (best cos - SEM_FLOOR)        (0..1, 0 below the floor)
    agreed   = covered + (1 - covered) * semantic                 (1 for a fact with no vector)
    evidence = 1 - LEXICAL_EVIDENCE * (1 - best covered)          (the question's; 1 at 0)
    trust    = 1 - LEXICAL_DOUBT * (1 - its near) * (1 - its covered)
               (the question's, of its best word match: the highest BM25)
    hybrid   = W_LEXICAL * lexical * agreed * evidence * trust + W_SEMANTIC * semantic
               + EXACT_BOOST * rare_exact

`covered` is the share of the question's asked words the fact holds (`weak.asked`: its
content words less the names it gives and the words that only frame an answer, each weighed
by its rarity; 1 when the question asks none).  A lexical match counts in full for the part
of the question it holds; the rest of it — the BM25 of frame and common words — counts only
as far as the embedder agrees the fact is near the question.  BM25 is scaled by the best
BM25 among the candidates, so the best lexical match scored 1.0 however little of the
question it held: "When did I start the new job in York?" met "Isla started Year 9" on
"start" alone, and at a fixed 0.6 that outranked every fact the model placed first; the
query's vector was then moved toward it (vector feedback).  Measured against a fixed
weighting, the coverage of the whole lexical side (branch fusion30b), the product without
coverage and reciprocal-rank fusion in docs/semantic.md ("Fusion").

`trust` weighs the whole lexical side by its best word match: the fact with the highest
BM25, which scores 1.0 as lexical however little it holds.  When that fact holds none of the
question's asked words (what it matched is frame, common words or a word in another sense)
and the embedder places it with the unrelated, the lexical side drops out and the model
orders the candidates: "How did my job application go?" met "the best part of the new job"
on "job" alone, above the three facts of the application the model placed first.  A best
match that holds the asked words, or that the model places near, keeps it whole: on LoCoMo a
turn holding the question's rare word often reads far to the model, and doubting the lexical
side whenever the model disagrees cost R@10 82.3 -> 78.7.

`evidence` weighs the whole lexical side by what the words can tell about this question: the
best coverage any fact found by its words reaches (`best covered`).  When the words the
question turns on are in no fact ("Who tied the knot over the summer?": "tied" and "knot"
are nowhere in the memory), the best BM25 is a match on what is left ("Gwen is retiring at
the end of the summer term") and, scaled by the best BM25, it scored 1.0: its own coverage
lowered it only as far as the model let it, and vector feedback then moved the query toward
it.  Per fact, `agreed` asks whether this match holds the question; per question, `evidence`
asks whether any match can.  Measured on the personal years (LEXICAL_EVIDENCE 0 / 0.5 / 1,
hybrid P@1: the hybrid tune year 62.7 / 64.4 / 64.4, the tune year 65.3 / 65.3 / 61.3, the
reworded dev questions 52.9 / 55.9 / 55.9, dev 70.5 / 70.5 / 70.5, dev R@10 96.3 / 97.3 /
97.3), but LoCoMo dev hybrid R@10 fell 82.9 -> 82.3 at 0.5, and held out (with the second
look) R@5 fell 83.6 -> 83.5: the default is 0, the lever stays for `--tune`
(docs/semantic.md, "A second look").

The second look (hybrid, `recall.search`): the LOOK_TOP (10) best results are ordered again
by a blend of their score and the embedder's own late interaction over their tokens
(`embed.rerank.LateInteraction`), LOOK_SHARE of it the late interaction's.  A fact's single
vector averages its words away; its token vectors keep which part of it answers which word
of the question, so among the few best the fact that answers the question word by word
comes first, not the one that shares its rarest word.  It brings no fact into the
LOOK_TOP, and runs the model for nothing recall has not just embedded: the question's token
vectors come from the run that makes its vector (`semantic.Semantic.query_vector`), the
facts' from the runs that embedded them (`embed.tokens`).

The look gives the embedder's lead its say (`lead`, `semantic.Look`): the fact among the
LOOK_TOP the model places nearest the question (the cosine of its vector with the
question's), when it is at least LOOK_LEAD nearer than the best placed of the others, gets
LEAD_WEIGHT above any late interaction.  Stages that read words and names lift facts the
model does not read as the question: "What did they ask me to do in the educator
interview?" put "Had my first full conversation in Arabic with Rania" (an entity lift) above
"Interviewed for the clinical educator job ...; they asked me to teach a mock ventilator
class", and the late interaction, matching token by token, can pass the model's nearest too.
Where the model's nearest leads by that much it was right far more often than they were.
The look's blend keeps the fused order's say: the lead moves a fact only as far as
LOOK_SHARE lets it.

`rare_exact` is 1 for a fact holding a query word that is rare in the whole index (at most
`RARE_DF` facts contain it — a codename, an error string, an id): such a fact comes first
whatever the vectors think, since embeddings blur exactly these tokens.  Weighted fusion of
normalised scores beat reciprocal-rank fusion on the LoCoMo dev split and on the personal
years, which throws the score gaps away.  With the fixed weighting, hybrid R@10 on the
LoCoMo dev split was 75.6 / 75.5 / 75.1 for lexical weights 0.5 / 0.6 / 0.7, and 74.9 /
75.5 / 74.8 / 73.4 for floors 0.1 / 0.2 / 0.25 / 0.35 — flat, so the values are not fitted to
a peak (lexical alone: 69.9).  SEM_MIN and EXACT_BOOST changed nothing there (they guard
nonsense and codes).  The cosine constants are calibrated per model (`Calibration`):
multilingual-e5-small scores everything higher than all-MiniLM-L6-v2.

The result replaces the match term of `ranking.relevance`; context, entity, opinion, time,
confidence, importance, kind and lifecycle weighting then apply exactly as in lexical mode.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

LEXICAL, SEMANTIC, HYBRID = "lexical", "semantic", "hybrid"
MODES = (LEXICAL, SEMANTIC, HYBRID)
# equal since the lexical side is agreed (`agreed`).  Hybrid, lexical weight 0.6 / 0.5 / 0.4:
# personal tune year P@1 58.7 / 61.3 / 61.3, R@5 84.7 / 86.4 / 86.0; dev P@1 69.5 / 70.5 /
# 69.5; LoCoMo dev R@10 82.7 / 82.9 / 82.3 (docs/semantic.md, "Fusion")
W_LEXICAL = 0.5
W_SEMANTIC = 0.5
SEM_FLOOR = 0.2  # cosine at which a fact counts as unrelated (MiniLM: unrelated ~0..0.25)
SEM_MIN = 0.3  # a fact found only by its vector must be at least this similar
# (from SEM_FLOOR when it is linked to an entity the query names: `semantic.admits`)
# MiniLM rates "meets Anna on Monday" and "... on Tuesday" 0.99, "likes"/"dislikes dark roast
# coffee" 0.87 and true paraphrases 0.87-0.92: reflect's duplicates also keep their names,
# numbers and negations (reflect._specifics)
PARAPHRASE = 0.85
# e5 on the LoCoMo dev split, hybrid R@10: 72.3 at 0.7/0.78, 73.3 at 0.75/0.8, 69.8 at 0.8/0.85
E5_FLOOR, E5_MIN = 0.75, 0.8
EXACT_BOOST = 1.0
# the share of the lexical side that rests on the question's lexical evidence (`evidence`):
# 0 / 0.5 / 1 on the hybrid tune year 62.7 / 64.4 / 64.4 P@1, the tune year 65.3 / 65.3 /
# 61.3; 0.5 cost LoCoMo dev hybrid R@10 82.9 -> 82.3 and held out R@5 83.6 -> 83.5 (blind),
# and over the second look (LOOK_SHARE) its gain is smaller: 0, left for `--tune`
LEXICAL_EVIDENCE = 0.0
# how far a question's lexical side rests on its best word match holding the question's asked
# words or the embedder placing it near (`trust`; 0 leaves the lexical side whole).  Chosen
# leave-one-file-out over eight personal years (0 / 0.5 / 1, every fold chose 1): hybrid P@1 /
# R@5 / R@10 pooled 69.6 / 90.1 / 94.1 -> 70.0 / 90.0 / 94.2, the ninth year (the only one no
# lexical rule was fitted to) 72.2 / 90.2 / 93.3 -> 73.0 / 90.2 / 93.3; LoCoMo dev hybrid R@5
# / R@10 72.9 / 82.3 -> 73.5 / 82.0.  Doubting the lexical side whenever the model disagrees,
# covered or not, cost LoCoMo R@10 82.3 -> 78.7 (docs/semantic.md, "Doubt")
LEXICAL_DOUBT = 1.0
RARE_DF = 3  # a query word in at most this many facts is rare
# a second look (hybrid): the LOOK_TOP best results ordered again by a blend of their score
# and the embedder's late interaction (`embed.rerank.LateInteraction`), LOOK_SHARE of it the
# late interaction's (`recall.search._looked`; docs/semantic.md, "A second look").  The ten
# best, not the five: a fact the model reads as the answer but that a one-word lexical match
# put sixth can come into the five.  Chosen leave-one-file-out over the five personal years
# (LOOK_TOP 5 / 8 / 10, every fold chose 10): hybrid P@1 / R@5 / R@10 67.0 / 87.9 / 94.0 ->
# 68.2 / 88.8 / 94.0; LoCoMo dev hybrid R@5 / R@10 73.1 / 82.5 both (docs/semantic.md)
LOOK_TOP = 10
LOOK_SHARE = 0.3
# the look's lead (`lead`): the fact among the LOOK_TOP the embedder places nearest, when its
# cosine with the question is at least LOOK_LEAD above the best placed other's, gets
# LEAD_WEIGHT more than any late interaction can give (0 turns it off).  Over ten personal
# years, where hybrid's first and semantic recall's first differed, the embedder's was
# right 13 times and hybrid's 2 when its cosine led by more than 0.2, about as often either
# way below 0.2.  LOOK_LEAD chosen leave-one-file-out over the ten years (0.1 / 0.125 /
# 0.15 / 0.175 / 0.2, every fold chose 0.15): hybrid P@1 / R@5 / R@10 pooled 68.3 / 88.2 / 93.0 ->
# 68.8 / 88.4 / 93.0 (docs/semantic.md, "The embedder's lead")
LOOK_LEAD = 0.15
LEAD_WEIGHT = 3.0


def lexical_part(bm25: float | None, best: float) -> float:
    return (-bm25 / best) if bm25 is not None and best > 0 else 0.0


@dataclass(frozen=True)
class Calibration:
    """Where a model's cosines fall: each model spreads them differently."""

    floor: float  # unrelated text scores about this
    minimum: float  # a fact found by its vector alone must score at least this
    paraphrase: float  # reflect treats two facts at least this close as the same fact


# multilingual-e5-small scores everything high: unrelated sentences 0.79-0.84, contradicting
# ones ("likes"/"dislikes") 0.92-0.95, paraphrases 0.95-0.98
CALIBRATIONS = {"multilingual-e5-small-q4": Calibration(floor=E5_FLOOR, minimum=E5_MIN,
                                                        paraphrase=0.95)}


def calibration(model: str) -> Calibration:
    """The model's calibration; all-MiniLM-L6-v2's for any other (the fake in tests too)."""
    return CALIBRATIONS.get(model) or Calibration(SEM_FLOOR, SEM_MIN, PARAPHRASE)


def semantic_part(cos: float | None, best: float, floor: float = SEM_FLOOR) -> float:
    if cos is None or best <= floor:
        return 0.0
    return max(0.0, (cos - floor) / (best - floor))


def agreed(covered: float, semantic: float | None) -> float:
    """How much of a fact's lexical match hybrid fusion counts: all of it for the share
    `covered` of the question's asked words it holds, the rest as far as the embedder puts
    the fact near the question (`semantic`, 0..1); all of it when the fact has no vector
    (not embedded yet: the model cannot say)."""
    if semantic is None:
        return 1.0
    share = min(max(covered, 0.0), 1.0)
    return share + (1.0 - share) * semantic


def evidence(best_covered: float, share: float = LEXICAL_EVIDENCE) -> float:
    """The weight of a question's lexical side (hybrid): all of it when some fact found by
    its words holds every asked word (`best_covered` 1, or a question that asks none), down
    to 1 - LEXICAL_EVIDENCE when none holds any: the words matched then are only the
    question's frame or its common words, and the model is left to say what is near.
    `share`: LEXICAL_EVIDENCE, or a benchmark's override (`ranking.tunable`)."""
    return 1.0 - share * (1.0 - min(max(best_covered, 0.0), 1.0))


def trust(near: float, covered: float, share: float | None = None) -> float:
    """The weight of a question's lexical side (hybrid) by what its best word match can
    vouch for: all of it when that fact holds every asked word (`covered` 1) or when the
    embedder places it as near the question as any candidate (`near`, its semantic part, 1);
    down to 1 - LEXICAL_DOUBT when it holds none of them and the model places it with the
    unrelated — then the words matched are the question's frame or a word in another
    sense, and the model is left to say what is near."""
    share = LEXICAL_DOUBT if share is None else share
    return 1.0 - share * (1.0 - _unit(near)) * (1.0 - _unit(covered))


def lead(cosines: Sequence[float | None], margin: float | None = None) -> list[bool]:
    """Which of the second look's facts (best first, each with its cosine with the
    question, None without a vector) leads: the one the embedder places nearest, when it
    is at least `margin` (LOOK_LEAD) nearer the question than the best placed of the
    others — the first, or for the first itself the second.  None leads when those two
    have no cosine."""
    margin = LOOK_LEAD if margin is None else margin
    known = [(c, -n) for n, c in enumerate(cosines) if c is not None]
    if len(cosines) < 2 or not known:
        return [False] * len(cosines)
    nearest_cosine, at = max(known)
    other = cosines[1 if at == 0 else 0]
    ahead = other is not None and nearest_cosine - other >= margin
    return [ahead and n == -at for n in range(len(cosines))]


def _unit(value: float) -> float:
    return min(max(value, 0.0), 1.0)


def fuse(mode: str, lexical: float, semantic: float, *, rare_exact: bool = False,
         agreement: float = 1.0) -> float:
    """One candidate's relevance in `mode`; `agreement` (hybrid, `agreed`) scales its
    lexical part."""
    if mode == SEMANTIC:
        return semantic
    if mode == HYBRID:
        return (W_LEXICAL * lexical * agreement + W_SEMANTIC * semantic
                + (EXACT_BOOST if rare_exact else 0.0))
    return lexical
