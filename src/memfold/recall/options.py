"""A recall's options, and its arguments as a caller gives them checked and read: the query,
k and the token budget, `--since`/`--until` time specs, kinds (`recall_options`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from memfold.errors import BadInput
from memfold.recall.fusion import LEXICAL
from memfold.recall.query import refuse_long
from memfold.times.parse import TimeSpecError, parse_spec
from memfold.values import KIND_LETTERS, KINDS, Interval

if TYPE_CHECKING:
    from memfold.embed.rerank import Reranker
    from memfold.recall.semantic import Semantic


@dataclass(frozen=True)
class RecallOptions:
    today: date
    k: int = 25
    kinds: tuple[str, ...] = ()
    entities: tuple[str, ...] = ()  # names every result must be linked to
    window: Interval | None = None  # from --since/--until
    include_all: bool = False
    budget: int | None = None
    mode: str = LEXICAL  # lexical, semantic or hybrid (memfold.embed)
    semantic: Semantic | None = None  # vector search, for semantic and hybrid mode
    rerank: Reranker | None = None  # a second look at the best candidates (embed.rerank)
    strict: bool = False  # leave out weak hits, guesses that miss what is asked (`weak`)


def recall_options(query: object, *, k: int, since: str | date | None, until: str | date | None,
                   kinds: Sequence[str] | str | None, entities: Sequence[str],
                   include_all: bool, budget: int | None, today: date) -> RecallOptions:
    """A recall's arguments checked and read (BadInput, saying what to do, when one is not
    usable): a query of at most MAX_QUERY_CHARS, k and budget positive, time specs, kinds."""
    if not isinstance(query, str) or not query.strip():
        raise BadInput("the query is empty; say what to recall, e.g. 'where does Peter live'")
    refuse_long(query, "query", " (what recall reads): ask in a few words, not a document")
    if k < 1:
        raise BadInput(f"--k must be at least 1, not {k}")
    check_budget(budget)
    return RecallOptions(k=k, kinds=parse_kinds(kinds), entities=tuple(entities),
                         window=spec_window(since, until, today), include_all=include_all,
                         budget=budget, today=today)


def check_budget(budget: int | None) -> None:
    if budget is not None and budget < 1:
        raise BadInput(f"--budget must be a positive number of tokens, not {budget}")


def parse_kinds(kinds: Sequence[str] | str | None) -> tuple[str, ...]:
    """W,B,O,S or world,experience,opinion,observation,text -> the kinds' full names."""
    if kinds is None:
        return ()
    items = kinds.split(",") if isinstance(kinds, str) else list(kinds)
    out: list[str] = []
    for item in (i.strip() for i in items):
        if not item:
            continue
        name = KIND_LETTERS.get(item.upper(), item.lower()) if len(item) == 1 else item.lower()
        if name not in KINDS:
            raise BadInput(f"unknown kind {item!r}; use W, B, O, S or "
                           "world, experience, opinion, observation, text")
        out.append(name)
    return tuple(dict.fromkeys(out))


def spec_window(since: str | date | None, until: str | date | None,
                 today: date) -> Interval | None:
    if since is None and until is None:
        return None
    try:
        start = spec(since, today).start if since is not None else None
        end = spec(until, today).end if until is not None else None
    except TimeSpecError as exc:
        raise BadInput(str(exc)) from None
    if start and end and start > end:
        raise BadInput(f"--since {since} is after --until {until}")
    return Interval(start, end)


def spec(value: str | date, today: date) -> Interval:
    if isinstance(value, date):
        return Interval(value, value)
    return parse_spec(value, today=today)
