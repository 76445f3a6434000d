"""A fresh replica's first request, verb by verb (part of `memfold bench server-scale`).

For each read verb a replica that never opened the bank is started on a cache directory of
its own, sent that verb once (its first request), then the same request `WARM` times more;
reported: the first request's latency, the warm median, and the bytes the replica wrote
under its cache directory for it — 0 when the verb was answered without a copy of the bank
(`memfold serve --recall-from postgres` reads it from PostgreSQL), the size of the bank's
workspace when it built one.  One replica per verb, so no verb finds a copy another built.
"""

from __future__ import annotations

import os
import statistics
from collections.abc import Callable
from contextlib import AbstractContextManager
from functools import partial
from pathlib import Path
from typing import Any

Json = dict[str, Any]
WARM = 5
VERBS = ("recall", "about", "history", "show", "trace", "core_view", "status", "entities",
         "context")


def cache_bytes(directory: Path) -> int:
    """The bytes of every file under `directory` (0 when it does not exist)."""
    total = 0
    for root, _, files in os.walk(directory):
        for name in files:
            try:
                total += (Path(root) / name).stat().st_size
            except OSError:
                continue
    return total


def bodies(recall: Json, query: Json) -> dict[str, Json]:
    """Each verb's arguments: the fact and an entity of the first hit that names one."""
    hits = recall.get("results") or []
    named = next((h for h in hits if h.get("entities")), hits[0] if hits else {})
    fact = str(named.get("id", ""))
    entity = (named.get("entities") or ["nobody"])[0]
    return {"recall": query, "about": {"name": entity}, "history": {"id": fact},
            "show": {"id": fact}, "trace": {"id": fact}, "core_view": {}, "status": {},
            "entities": {}, "context": {}}


def first_by_verb(start: Callable[[str], AbstractContextManager[Any]],
                  cache: Callable[[str], Path], call: Callable[..., Any], token: str,
                  bank: str, args: dict[str, Json],
                  timed: Callable[[Callable[[], object]], float]) -> Json:
    """For each verb, a replica started by `start(name)` on the directory `cache(name)`:
    its first request, the warm median and the bytes under its cache after the first."""
    found: Json = {}
    for verb in (verb for verb in VERBS if verb in args):
        name = f"verb-{verb}"
        with start(name) as served:
            ask = partial(call, served, token, bank, verb, args[verb])
            first = timed(ask)
            written = cache_bytes(cache(name))
            warm = [timed(ask) for _ in range(WARM)]
        found[verb] = {"first_ms": first * 1000, "warm_p50_ms": statistics.median(warm) * 1000,
                       "cache_bytes": written}
    return found


def table(found: Json) -> list[str]:
    return [f"  first {verb} of a fresh replica: {row['first_ms']:.0f} ms, warm p50 "
            f"{row['warm_p50_ms']:.1f} ms, {row['cache_bytes']:,} bytes under its cache"
            for verb, row in found.items()]
