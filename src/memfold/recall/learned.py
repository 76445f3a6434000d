"""A learned order of recall's best candidates (learning to rank): the TOP best, as recall
ordered them, ordered again by a linear model over what recall already knows of each — the
factors of its score (`ranking.FACTORS`), its rank and share of the best score, its kind,
status, time and lifecycle, how it was found (word knowledge, the second hop, the vector
search), its cosine with the question (semantic and hybrid mode) and whether it is weak —
and of the question (`shape_of`: what it asks, of whom, about when), the question's flags
entering only as products with the candidate's (`INTERACTED`), since within one question
they are the same for every candidate.

The weights (`learned_weights`, per recall mode) are trained by tools/train_ltr.py on the
features `recording` gives a benchmark, never by hand; with no weights for a mode the order
is recall's own.  On unless MEMFOLD_RECALL_ORDER=rules (or `ordering(False)`), and only in
a memory kept about its user (`search._learned`).  The learned score only reorders the typed
facts among the places they hold, before the rules that place facts after scoring (what is
true now, members, siblings, spread), which still run, except that an open conflict of the
judge's then only marks the older fact (`offered.newer_first`, `lift`); active facts stay
above archived ones, scores keep falling down the list, and `why` still tells what each fact
matched.
Figures: docs/benchmarks.md, "ltr41" and "The learned order on by default".  Pure: no
index, no I/O.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from dataclasses import replace as evolve
from datetime import date

from memfold import config
from memfold.errors import BadInput
from memfold.index.base import Candidate
from memfold.journal.fold import ARCHIVED
from memfold.names import USER, entity_key
from memfold.recall import ranking
from memfold.recall.ranking import Scored
from memfold.values import TEXT, Fact

TOP = 30  # the best candidates a learned order reorders (and `recording` records)
FIRST_WORDS = ("what", "which", "who", "where", "when", "how")
YES_NO = frozenset({"do", "does", "did", "is", "are", "was", "were", "have", "has", "can"})
FIRST = re.compile(r"\W*([a-z]+)")
KINDS = ("world", "experience", "opinion", "observation", "text")
THENS = {ranking.VALID: "valid", ranking.WRITTEN: "written", ranking.HELD: "held",
         ranking.NOT_THEN: "not_then"}
# the candidate features a question's flags multiply (`expanded`)
INTERACTED = ("kind:world", "kind:experience", "kind:opinion", "age", "newer", "entity",
              "with_lead", "match", "score", "first", "weak", "lifecycle", "time", "context",
              "known", "hopped", "lexical", "outdated", "replaced", "then:valid", "then:written")

SPECIAL = frozenset({"bias", "cap"})  # weights that weigh no feature (`learned_score`)


@dataclass(frozen=True)
class Record:
    """One recall's TOP best as recall ordered them: each fact's id and its features, and
    the question's flags (`shape_of`)."""

    query: str
    ids: tuple[str, ...]
    rows: tuple[dict[str, float], ...]
    shape: dict[str, float]


_RECORDS: ContextVar[list[Record] | None] = ContextVar("memfold_learned_records", default=None)
# How recall orders its best when nothing in the code says (`ordering`): MEMFOLD_RECALL_ORDER,
# "learned" by default (on held-out personal years it lifts P@1 and R@5: docs/benchmarks.md,
# "ltr41" and "The learned order on by default"), or "rules" for recall's own order.
ORDERS = ("learned", "rules")
_ORDERING: ContextVar[bool | None] = ContextVar("memfold_learned_ordering", default=None)


def configured() -> bool:
    """Whether MEMFOLD_RECALL_ORDER asks for the learned order (its default) or recall's
    own ("rules"); another word is bad input, said in one line."""
    order = config.choice("MEMFOLD_RECALL_ORDER")
    if order not in ORDERS:
        raise BadInput(f"unknown recall order {order!r} in MEMFOLD_RECALL_ORDER; use "
                       f"{' or '.join(ORDERS)}")
    return order == "learned"


@contextmanager
def ordering(on: bool = True) -> Iterator[None]:
    """Recall in this context orders its best by the learned weights (or, with `on` False,
    does not), whatever MEMFOLD_RECALL_ORDER says: the way to ask for either order, and a
    benchmark's way to compare the two orders in one process."""
    token = _ORDERING.set(on)
    try:
        yield
    finally:
        _ORDERING.reset(token)


@contextmanager
def recording() -> Iterator[list[Record]]:
    """Recall in this context keeps its own order (no learned weights) and appends a
    `Record` of its TOP best to the list yielded: a benchmark's way to gather training
    features from the real objects, without changing any answer for anyone else."""
    records: list[Record] = []
    token = _RECORDS.set(records)
    try:
        yield records
    finally:
        _RECORDS.reset(token)


def shape_of(text: str, flags: Mapping[str, bool]) -> dict[str, float]:
    """The question's flags: its first word (what, which, who, where, when, how, or a yes/no
    question), and `flags` as recall's plan reads them (`search._shape`)."""
    first = FIRST.match(text.casefold())
    word = first.group(1) if first else ""
    shape = {f"q:{w}": float(word == w) for w in FIRST_WORDS}
    shape["q:yes_no"] = float(word in YES_NO)
    shape.update((f"q:{name}", float(value)) for name, value in flags.items())
    return shape


def features(ordered: Sequence[Scored], today: date, how: Mapping[int, str],
             fused: Mapping[int, float] | None, weak: Callable[[Candidate], bool],
             cosine: Mapping[int, float] | None = None) -> list[dict[str, float]]:
    """Each of the TOP best's features (the module's doc); `how`: the candidates word
    knowledge ("known") or the second hop ("hopped") brought, by rowid; `cosine`: each
    one's cosine with the question's vector (semantic and hybrid mode)."""
    top = ordered[:TOP]
    best = max((s.score for s in top), default=0.0)
    lead = top[0].fact if top else None
    rows = [_row(s, n, best, lead, today, how, fused, weak) for n, s in enumerate(top)]
    for s, row in zip(top, rows, strict=True):
        if cosine and (cos := cosine.get(s.candidate.rowid)) is not None:
            row["cos"] = cos
    return rows


def _row(s: Scored, rank: int, best: float, lead: Fact | None, today: date,  # noqa: PLR0913
         how: Mapping[int, str], fused: Mapping[int, float] | None,
         weak: Callable[[Candidate], bool]) -> dict[str, float]:
    fact, c = s.fact, s.candidate
    day = lead.day if lead else None
    row = dict(zip(ranking.FACTORS, s.factors, strict=True))
    row["time"] = math.log(row["time"]) if row.get("time", 0) > 0 else 0.0
    row["event"] = math.log(row["event"]) if row.get("event", 0) > 0 else 0.0
    share = s.score / best if best > 0 and s.score > 0 else 0.0
    row.update(score=max(math.log(share), -6.0) if share > 0 else -6.0,
               rank=1 / (1 + rank), first=float(rank == 0),
               own=min(s.own / s.score, 1.0) if s.score > 0 else 1.0,
               beside=float(s.beside is not None), lifted=float(s.lifter is not None),
               alike=float(s.alike is not None), replaced=float(s.replaced),
               outdated=float(bool(s.outdated_by)), archived=float(s.tier == 1),
               gone=float(s.tier == 2), faded=float(_faded(s)),
               decay=s.decay, confidence=s.confidence,
               importance=((fact.importance or 5) - 5) / 5,
               known=float(how.get(c.rowid) == "known"),
               hopped=float(how.get(c.rowid) == "hopped"),
               lexical=float(c.bm25 is not None),
               fused=(fused or {}).get(c.rowid, 0.0), weak=float(weak(c)),
               age=min((today - fact.day).days / 365, 3.0) if fact.day else 0.0,
               newer=float(fact.day is not None and day is not None and fact.day > day),
               older=float(fact.day is not None and day is not None and fact.day < day),
               with_lead=_shared(fact, lead) if rank else 0.0, second=float(rank == 1),
               entities=min(len(fact.entities), 3) / 3,
               length=min(len(fact.content.split()) / 30, 2.0))
    row.update((f"kind:{k}", float(fact.kind == k)) for k in KINDS)
    row.update((f"then:{name}", float(s.then == then)) for then, name in THENS.items())
    return row


def _faded(s: Scored) -> bool:
    """A fact archived by time that recall keeps among the active ones (`currency.covered`).
    Ranked first, it matches the question far better than any of them: a rule the model
    learned nothing of (a year's questions rarely meet it), so there it keeps its place
    (`reordered`)."""
    return s.tier == 0 and s.status == ARCHIVED


def _shared(fact: Fact, lead: Fact | None) -> float:
    """The share of the first candidate's entities (the user's aside) the fact has too: a
    sibling of the best match."""
    theirs = {entity_key(e) for e in lead.entities} - {USER} if lead else set()
    return len(theirs & {entity_key(e) for e in fact.entities}) / len(theirs) if theirs else 0.0


def expanded(row: Mapping[str, float], shape: Mapping[str, float]) -> dict[str, float]:
    """A candidate's features with the question's flags multiplied in (`q:when*age`)."""
    out = dict(row)
    for q, flag in shape.items():
        if flag:
            for name in INTERACTED:
                out[f"{q}*{name}"] = flag * row.get(name, 0.0)
    return out


def learned_score(row: Mapping[str, float], shape: Mapping[str, float],
                  weights: Mapping[str, float]) -> float:
    """The model's score of one candidate: z, the weights times its `expanded` features
    plus the weight "bias"; with a "cap" c, recall's own log share of the best score
    (`score`) plus c * tanh(z) — the model then moves a fact past another only when their
    scores from recall are within a factor e^(2c) of each other — else z alone."""
    values = expanded(row, shape)
    z = weights.get("bias", 0.0) + sum(w * values.get(name, 0.0) for name, w in weights.items()
                                       if name not in SPECIAL)
    cap = weights.get("cap", 0.0)
    return row.get("score", 0.0) + cap * math.tanh(z) if cap else z


def weights_for(mode: str) -> Mapping[str, float] | None:
    """The learned weights recall orders its best by in `mode`, or None: recall's own
    order (the learned order not asked for — MEMFOLD_RECALL_ORDER, `ordering` —, none trained for
    the mode, or a `recording` under way)."""
    asked = _ORDERING.get()
    if _RECORDS.get() is not None or not (configured() if asked is None else asked):
        return None
    from memfold.recall.learned_weights import WEIGHTS

    return WEIGHTS.get(mode) or None


def record(query: str, ordered: Sequence[Scored], rows: Sequence[dict[str, float]],
           shape: dict[str, float]) -> None:
    """Append the recall's TOP best to the `recording` under way, if any."""
    records = _RECORDS.get()
    if records is not None:
        records.append(Record(query, tuple(s.fact.id for s in ordered[:len(rows)]),
                              tuple(rows), shape))


def recording_now() -> bool:
    return _RECORDS.get() is not None


def reordered(top: Sequence[Scored], rows: Sequence[Mapping[str, float]],
              shape: Mapping[str, float], weights: Mapping[str, float]) -> list[Scored]:
    """`top` (recall's best, in `ranking.order`) with its typed facts sorted by tier, then
    the learned score (recall's order breaking ties), among the places typed facts hold:
    the model learned from typed facts, so a text row (a note's paragraph, a captured turn)
    keeps its place.  Each fact moved takes the score recall gave the place it takes, so
    scores fall down the list as before and the rules that place facts after scoring weigh
    the same numbers.  Facts the model cannot tell apart (the same learned score, the same
    score from recall) keep one score between them, the best dealt to either, so that
    recall's ties still break by date, path and line.  A fact off the subject of the
    question (it names entities the fact is about none of, `ranking.OFF_SUBJECT`) is ordered
    among the places such facts hold, and so is one on it: an entity the question names
    outweighs a word shared ("Which airline do I fly for?": the pay at Meridian Airlines,
    not "might learn to fly gliders")."""
    values = [learned_score(row, shape, weights) for row in rows]
    given: dict[int, int] = {}  # fact -> the place it takes
    for group in (False, True):  # on the question's subject, then off it
        places = [n for n, s in enumerate(top) if s.fact.kind != TEXT
                  and not (n == 0 and rows[0]["faded"]) and (rows[n]["off_subject"] > 0) == group]
        picked = sorted(places, key=lambda i: (top[i].tier, -values[i], i))
        given.update(zip(picked, places, strict=True))
    best: dict[tuple[int, float, float], float] = {}
    for i, place in given.items():
        key = (top[i].tier, values[i], top[i].score)
        best[key] = max(best.get(key, top[place].score), top[place].score)
    out = list(top)
    for i, place in given.items():
        s = top[i]
        dealt = best[(s.tier, values[i], s.score)]
        out[place] = s if dealt == s.score else evolve(s, score=dealt)
    return out
