"""What each tool call runs and sends a model: the handlers `agent_tools` names (a thin call
on Memory each, returning JSON-able data), and for the read tools (recall, about, context) a
compact form, with budgets measured on the JSON text that is actually sent.

A model reads a tool result as JSON text (`json.dumps(data, ensure_ascii=False)`: what the
MCP server and `memfold.agents.calls` send), so a budget counts the tokens of that text: with
the encoding MEMFOLD_TOKENIZER names, else memfold's conservative estimate
(`values.tokens.estimate_tokens`, never more than 2% below cl100k's or o200k's count on
memfold's outputs).  Results are packed whole,
best first: the ones left out are dropped from the end and counted (`omitted_for_budget`).
The envelope of a result (its keys and counts, about 60 characters) is always sent, so a
budget too small for even one result gets that envelope and nothing else.

The compact form keeps what a model acts on — the fact (`content`, `entities`, `kind`,
`date`), where it comes from (`source`: cite it), whether it is current (`status`,
`superseded_by`, `possibly_outdated_by`, `valid_until`), why it matched (`why`), its `id`
and `rev` for use, note and supersede — and leaves out scores, decay, origin and the index
report, and never echoes the query.  `full: true` asks for the library's full `to_dict()`
form instead, within the same budget.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from memfold import config, names
from memfold.errors import BadInput
from memfold.screening import SOURCE
from memfold.values import AboutResult, Hit, RecallResult

if TYPE_CHECKING:
    from memfold.api import MemoryAPI
    from memfold.session.context import SessionContext

__all__ = ["compact_about", "compact_hit", "context_result", "recall_result", "sent_tokens"]

# shown in a compact hit only when they say something (a default value is left out)
_OPTIONAL = ("valid_from", "valid_until", "superseded_by", "possibly_outdated_by", "note",
             "hidden")


def sent_tokens(data: Any) -> int:
    """The tokens of `data` as a model receives it: its JSON text, counted by the encoding
    MEMFOLD_TOKENIZER names, else conservatively estimated (`values.tokens`)."""
    return config.token_counter()(json.dumps(data, ensure_ascii=False))


def compact_hit(hit: Hit) -> dict[str, Any]:
    """One result in the compact form; confidence only for an opinion, where it is the point."""
    full = hit.to_dict()
    data: dict[str, Any] = {"id": full["id"], "kind": full["kind"], "date": full["timestamp"],
                            "entities": full["entities"], "content": full["content"],
                            "source": full["source"], "status": full["status"],
                            "why": full["why"], "rev": full["rev"]}
    if full["kind"] == "opinion":
        data["confidence"] = full["confidence"]
    data.update((key, full[key]) for key in _OPTIONAL if full[key])
    if hit.weak:  # no result word says the question's point: the model may answer "unknown"
        data["weak"] = True
    if not data["entities"]:
        del data["entities"]
    return data


Measure = Callable[[Any], int]  # the tokens of data as sent


def recall_result(result: RecallResult, *, budget: int | None, full: bool,
                  measure: Measure = sent_tokens, fallback: bool = True) -> dict[str, Any]:
    """A recall's answer for a tool: compact unless `full`, its first results that fit the
    budget on the serialized JSON (the rest counted in omitted_for_budget); `measure`
    counts it (the CLI's indented JSON differs from what a tool sends).  With `fallback`,
    `full` gives way to the compact form when not even its envelope fits."""

    def form(count: int) -> dict[str, Any]:
        shown = replace(result, hits=result.hits[:count],
                        truncated=result.truncated + len(result.hits) - count)
        if full:
            return shown.to_dict()
        data: dict[str, Any] = {"results": [compact_hit(h) for h in shown.hits],
                                "omitted_for_budget": shown.truncated,
                                "hidden_by_lifecycle": {s: n for s, n in result.hidden.items()
                                                        if n}}
        if result.window:
            data["window"] = shown.to_dict()["window"]
        if result.notes:  # a time not read; an as-of before the first fact
            data["notes"] = list(result.notes)
        data["answered"] = result.answered
        return data

    if full and fallback and budget is not None and measure(form(0)) > budget:
        full = False  # not even the full form's envelope fits: the compact one may
    return _largest_fit(form, len(result.hits), budget, measure)


def compact_about(result: AboutResult) -> dict[str, Any]:
    """An entity's page and facts in the compact form."""
    return {"entity": result.name, "found": result.key is not None, "page": result.page,
            "aliases": list(result.aliases), "results": [compact_hit(h) for h in result.hits]}


def context_result(build: Callable[[int], SessionContext], *, budget: int, full: bool,
                   measure: Measure = sent_tokens, fallback: bool = True) -> dict[str, Any]:
    """The session context for a tool: its text (or, if `full`, sections and text), built
    with the largest inner budget whose serialized answer fits `budget` (JSON escapes each
    newline and quote, and the envelope costs too); with `fallback`, `full` gives way to
    the text alone when not even an empty context fits with its sections."""

    def form(inner: int, sections: bool) -> dict[str, Any]:
        data = build(inner).to_dict()
        data["budget"] = budget
        if not sections:
            del data["sections"]
        return data

    whole = form(budget, full)
    if measure(whole) <= budget:
        return whole
    sections = full and (not fallback or measure(form(1, True)) <= budget)
    return _largest_fit(lambda inner: form(inner, sections), max(1, budget - 1), budget,
                        measure, least=1)


def _largest_fit(form: Callable[[int], dict[str, Any]], count: int,
                 budget: int | None, measure: Measure, *, least: int = 0) -> dict[str, Any]:
    """form(n) for the largest n in least..count whose JSON fits the budget (form(least) at
    least); a binary search, since a larger n adds characters."""
    whole = form(count)
    if budget is None or measure(whole) <= budget:
        return whole
    low, high, best = least, count - 1, form(least)
    while low <= high:
        middle = (low + high) // 2
        candidate = form(middle)
        if measure(candidate) <= budget:
            best, low = candidate, middle + 1
        else:
            high = middle - 1
    return best


# -- what each tool runs: a thin call on Memory (agent_tools names them) --------------------


def recall(memory: MemoryAPI, a: dict[str, Any]) -> Any:
    found = memory.recall(a["query"], k=a.get("k", 10), since=a.get("since"),
                          until=a.get("until"), kinds=a.get("kinds"),
                          entities=a.get("entities", ()),
                          include_all=a.get("include_all", False), mode=a.get("mode"),
                          strict=a.get("strict", False))
    return recall_result(found, budget=a.get("budget"), full=a.get("full", False))


def about(memory: MemoryAPI, a: dict[str, Any]) -> Any:
    found = memory.about(a["name"], k=a.get("k", 20), include_all=a.get("include_all", False))
    return found.to_dict() if a.get("full", False) else compact_about(found)


def show(memory: MemoryAPI, a: dict[str, Any]) -> Any:
    hit = memory.get(a["id"], strict=a.get("strict", False), use=False)
    fact = hit.fact
    return {**hit.to_dict(), "path": fact.path, "line": fact.line, "sha256": hit.sha256,
            "params": dict(fact.params), "importance": fact.importance,
            "reason": hit.reason, "derived_from": list(hit.derived_from)}


def retain(memory: MemoryAPI, a: dict[str, Any]) -> Any:
    return memory.retain(a["bullets"], date=a.get("date"),
                         source=signer(memory, a.get("source")),
                         idempotency_key=a.get("idempotency_key")).to_dict()


def signer(memory: MemoryAPI, label: str | None) -> str | None:
    """Who a tool's retain is by: the handle's identity (a token's name, the server's
    `--source`), with the call's `source` only as a label after it (`planner/claude`), so a
    caller cannot pass itself off as another; a server bank signs with its token itself."""
    if label is None:
        return None
    identity = getattr(memory, "source", None) or "api"
    signed = f"{identity}/{label.strip()}"
    if not SOURCE.fullmatch(signed):
        raise BadInput(f"source {label!r}: a label of letters, digits or . : @ / - _, at "
                       f"most {64 - len(identity) - 1} characters here (it follows "
                       f"{identity!r})")
    return signed


def use(memory: MemoryAPI, a: dict[str, Any]) -> Any:
    for fact_id in a["ids"]:
        memory.use(fact_id)
    return {"used": list(a["ids"])}


def note(memory: MemoryAPI, a: dict[str, Any]) -> Any:
    rev = memory.note(a["id"], a["text"], rev=a["rev"])
    return {"id": a["id"], "result": "applied", "rev": rev}


def supersede(memory: MemoryAPI, a: dict[str, Any]) -> Any:
    changed = memory.supersede(a["old"], a["new"],
                               reason=a.get("reason", "superseded by the agent"))
    return {"old": a["old"], "new": a["new"], "changed": changed}


def forget(memory: MemoryAPI, a: dict[str, Any]) -> Any:
    purge = a.get("purge", False)
    files = memory.forget(a["id"], purge=purge)
    return {"id": names.fact_id(a["id"]), "result": "purged" if purge else "archived",
            "files": files}


def restore(memory: MemoryAPI, a: dict[str, Any]) -> Any:
    fact_id = names.fact_id(a["id"])
    memory.restore(fact_id, reason=a.get("reason", "restored by the agent"))
    return {"id": fact_id, "result": "restored"}


def review(memory: MemoryAPI, a: dict[str, Any]) -> Any:
    return memory.review(since=a.get("since"), entity=a.get("entities", ()),
                         rule=a.get("rule"), settled=a.get("settled", False),
                         limit=a.get("limit", 20)).to_dict()


def review_accept(memory: MemoryAPI, a: dict[str, Any]) -> Any:
    return memory.accept(str(a["item"]), reason=a.get("reason")).to_dict()


def review_reject(memory: MemoryAPI, a: dict[str, Any]) -> Any:
    item = a.get("item")
    return memory.reject(None if item is None else str(item), rule=a.get("rule"),
                         since=a.get("since"), entity=a.get("entities", ()),
                         reason=a.get("reason"), dry_run=a.get("dry_run", False)).to_dict()


def history(memory: MemoryAPI, a: dict[str, Any]) -> Any:
    fact_id = names.fact_id(a["id"])
    return {"id": fact_id, "events": [e.to_dict() for e in memory.history(fact_id)]}


def trace(memory: MemoryAPI, a: dict[str, Any]) -> Any:
    return memory.trace(a["id"]).to_dict()


def status(memory: MemoryAPI, a: dict[str, Any]) -> Any:
    return memory.status().to_dict()


def entities(memory: MemoryAPI, a: dict[str, Any]) -> Any:
    return entities_page(memory.entities(), a.get("limit", 100))


def entities_page(found: Sequence[tuple[str, int]], limit: int) -> dict[str, Any]:
    """The entities with their fact counts, the first `limit`, and how many were left out
    (the entities tool and `memfold entities --json`)."""
    return {"entities": [{"name": name, "facts": count} for name, count in found[:limit]],
            "omitted": max(0, len(found) - limit)}


def index(memory: MemoryAPI, a: dict[str, Any]) -> Any:
    return memory.index(full=a.get("full", False)).to_dict()


def core_undo(memory: MemoryAPI, a: dict[str, Any]) -> Any:
    return memory.core_undo().to_dict()


def reflect(memory: MemoryAPI, a: dict[str, Any]) -> Any:
    reflect = getattr(memory, "reflect")  # noqa: B009 - not every Memory has it
    dry_run = a.get("dry_run", True)
    result = reflect(since=a.get("since", "7d"), dry_run=dry_run)
    to_dict = getattr(result, "to_dict", None)
    if to_dict is not None and "dry_run" in inspect.signature(to_dict).parameters:
        return to_dict(dry_run=dry_run)
    return _jsonable(result)


def core_view(memory: MemoryAPI, a: dict[str, Any]) -> Any:
    return memory.core().to_dict()


def core_append(memory: MemoryAPI, a: dict[str, Any]) -> Any:
    return memory.core_append(a["block"], a["text"]).to_dict()


def core_replace(memory: MemoryAPI, a: dict[str, Any]) -> Any:
    return memory.core_replace(a["block"], a["old"], a["new"]).to_dict()


def core_insert(memory: MemoryAPI, a: dict[str, Any]) -> Any:
    return memory.core_insert(a["block"], a["line"], a["text"]).to_dict()


def context(memory: MemoryAPI, a: dict[str, Any]) -> Any:
    from memfold.session.context import DEFAULT_BUDGET  # session context: loaded by this tool only

    return context_result(lambda inner: memory.context(budget=inner),
                          budget=a.get("budget", DEFAULT_BUDGET), full=a.get("full", False))


def _jsonable(value: Any) -> Any:
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return json.loads(json.dumps(dataclasses.asdict(value), default=str))
    return value
