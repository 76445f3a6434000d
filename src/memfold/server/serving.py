"""One `memfold serve` process, or several (`--workers N`): each builds its own pool, its own
cache of bank workspaces and its own app from the same settings.

With one worker the command builds the app itself; with more, uvicorn starts N processes that
each call `from_environment` (the settings travel in MEMFOLD_SERVE_SETTINGS), so every worker
is a replica like any other: they share nothing but the database, which is all the design
needs.  By default (`--recall-from postgres`) a worker answers from the banks' rows in
PostgreSQL and keeps no copy of a bank, but for the few requests that still need one
(memfold.server.pgrecall); with `--recall-from copy` it answers every request from a copy of
the bank (memfold.server.banks).  With --cache, every worker keeps the copies it makes in
that directory, each copy locked by the process using it (memfold.server.copies), and leaves
them there on a clean stop for the next start to adopt; without, each worker's cache is a
fresh temporary directory, removed when the worker shuts down.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from memfold import config
from memfold.errors import EmbedUnavailable, MemfoldError

ENV = "MEMFOLD_SERVE_SETTINGS"


@dataclass(frozen=True)
class Settings:
    db: str
    cache: str | None = None  # the workers' cache directory, kept across restarts
    pool_size: int = 10
    rate: float = 50.0
    max_body: int = 1 << 20
    statement_timeout: int = 30_000
    vectors: bool = False
    # "postgres": answered from the banks' rows (pgrecall and the writers beside it), no copy
    # of a bank but for what still needs one; "copy": the older mode, a copy of each bank
    recall_from: str = "postgres"
    cache_mb: int | None = None  # the answers kept between recalls (pgcache); None: the env's

    def to_env(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_env(cls) -> Settings:
        try:
            return cls(**json.loads(config.given(ENV)))
        except (KeyError, TypeError, ValueError) as exc:
            raise MemfoldError(f"{ENV} is missing or malformed ({exc})") from None


def connect(settings: Settings) -> Any:
    """The pool, once its role is known to be bound by row-level security (else the
    one-line reason, as MemfoldError)."""
    from memfold.server.db import check_role, connect_pool

    pool = connect_pool(settings.db, size=settings.pool_size,
                        statement_timeout_ms=settings.statement_timeout)
    problem = check_role(pool)
    if problem:
        pool.close()
        raise MemfoldError(problem)
    return pool


def assemble(settings: Settings) -> Any:
    """This process's app: its pool (checked for a role RLS binds), cache and limits."""
    from memfold import embed
    from memfold.server.app import Limits, Server, build_app
    from memfold.server.replica import Replica

    pool = connect(settings)
    if settings.cache_mb is not None:
        from memfold.server.pgcache import MB
        from memfold.server.pgrecall import versions

        versions(pool).budget = settings.cache_mb * MB
    warm_up()
    if settings.recall_from == "postgres":
        try:
            warm_postgres(pool, vectors=settings.vectors)
        except BaseException:
            pool.close()
            raise
    if settings.cache:
        root = Path(settings.cache)
        root.mkdir(parents=True, exist_ok=True)
    else:
        root = Path(tempfile.mkdtemp(prefix="memfold-serve-"))
    try:
        replica = Replica(pool, root,
                          embedder=embed.shared_embedder if settings.vectors else None,
                          recall_from=settings.recall_from)
    except BaseException:
        pool.close()
        raise
    limits = Limits(body_bytes=settings.max_body, import_bytes=settings.max_body * 256,
                    rate=settings.rate, burst=max(1, int(settings.rate * 2)))

    def close() -> None:
        replica.close()
        pool.close()
        if not settings.cache:
            shutil.rmtree(root, ignore_errors=True)

    return build_app(Server(pool, replica, limits), on_close=close)


def warm_postgres(pool: Any, *, vectors: bool) -> None:
    """A `--recall-from postgres` replica's warm-up (memfold.server.pgwarm), and with
    `vectors` the model's and the vector search's (memfold.server.pgvectors), which also
    logs what the database offers for vector search."""
    import logging

    from memfold import embed
    from memfold.server import pgvectors
    from memfold.server.pgwarm import warm

    warm(pool)
    if vectors:
        log = logging.getLogger("memfold.server")
        try:
            pgvectors.warm(pool, embed.shared_embedder())
        except EmbedUnavailable as exc:  # recall is lexical until the model can load
            log.warning("vectors: the model cannot load (%s)", exc)
        log.info(pgvectors.detect(pool))


# what the scratch workspace holds and is asked: words, an entity, a phrase, time phrases of
# each form recall reads (a day, a month, a weekday, a span, "ago", a range), a question
WARM_FACTS = (
    "W @Warm: Started the replica and warmed it up on 2024-03-04.",
    "O(c=0.6) @Warm: The replica answers quickly once warm.",
    "B @Warm: Last Tuesday the replica moved to a new host; it had been on the old one"
    " since March 2023.",
    "B @Warm: Between 1 May and 3 June the team tested \"warm starts\" two weeks ago.",
)
WARM_QUERIES = (
    "warm replica started", "when did the replica move to a new host?",
    "what happened last week", "\"warm starts\" in May 2024", "Warm", "since March",
    "who tested the replica 3 days ago", "between 1 May and 3 June",
)


def warm_up() -> None:
    """Write and read a scratch workspace before serving, so that what recall, the judge and
    the index import, compile and read on first use is ready before the first request
    (which then costs what its bank costs: after a clean restart, adopting the copy): the
    whole word knowledge (`read_lexicon`), every time-phrase pattern (`compile_patterns`)
    and recall's code run on questions of each form."""
    from memfold.memory import Memory

    read_lexicon()
    compile_patterns()

    with tempfile.TemporaryDirectory(prefix="memfold-warm-") as scratch:
        Memory.init(scratch)
        with Memory.open(scratch, watch=False) as memory:
            memory.retain(list(WARM_FACTS))
            for query in WARM_QUERIES:
                memory.recall(query, k=5, mode="lexical")
            memory.about("Warm")
    settle_heap()


YOUNG = 20_000  # allocations between two collections of the youngest generation (700)


def settle_heap() -> None:
    """Collect now, and leave what the process holds after its warm-up (modules, the word
    knowledge, compiled patterns: millions of objects) out of every later collection
    (`gc.freeze`): otherwise the first full collection, which the first requests' garbage
    sets off, walks all of it inside a request, and so does every later one (200 recalls
    on a 1,000-file bank: one full collection of 184-351 ms, 63-100 ms frozen).  A recall
    makes and drops tens of thousands of objects, so the youngest generation is collected
    every YOUNG allocations rather than every 700: over the same 200 recalls 5 collections
    rather than 209, 58-69 ms of collecting rather than 119-174 ms."""
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, *gc.get_threshold()[1:])


def compile_patterns() -> None:
    """Compile now each time-phrase pattern compiled on first use (`times.words.on_first_use`:
    a recall that meets its first time phrase otherwise compiles them, 40-100 ms)."""
    from memfold.times import anchors, parse, spans, words_vi  # noqa: F401 - they list theirs
    from memfold.times.words import ON_FIRST_USE

    for compiled in ON_FIRST_USE:
        compiled()


def read_lexicon() -> None:
    """Read every file of the word knowledge now (542 files, 27 MB of text, about 0.3 s),
    each of which a recall otherwise reads when it first meets one of its words: the first
    requests after a start read dozens (220 ms of the 550 ms first recall on a 1,000-file
    bank), and a serving process comes to read most of them anyway."""
    from importlib import resources

    from memfold import lexicon

    folder = resources.files(lexicon.__name__).joinpath("data", "wordnet")
    for entry in folder.iterdir():
        if entry.name.endswith(".tsv.gz"):  # a file per first two letters
            lexicon.related(entry.name.removesuffix(".tsv.gz"), lexicon.KIND)


def from_environment() -> Any:
    """uvicorn's app factory for each of `--workers` processes."""
    import logging
    import sys

    logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stderr)
    return assemble(Settings.from_env())
