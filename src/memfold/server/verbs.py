"""The REST verbs: `POST /v1/banks/{bank}/{verb}` with a JSON object of arguments, answered
with the JSON the CLI's `--json` prints for the same command.

The arguments are the agent tools' (memfold.agents.tools: the same names, types and bounds,
checked by the same schema code), less what a server decides itself: `retain` takes no
`source` (every write is signed with the token's name), and the answers come whole, so
`recall`, `about` and `context` take no `full`, and `recall` no `budget`.  `forget` also
takes `dry_run` (with `purge`), and `reflect_undo` is a verb of its own, as on the CLI.
`review`, `review_accept` and `review_reject` take the review tools' arguments and answer
what the tools answer over MCP (`ReviewQueue.to_dict`, `ReviewOutcome.to_dict`): a queue a
web page can show.

An argument left out takes the default its schema declares (recall's k is 10, about's 20,
context's budget 2000), as for the agent tools.  Each verb needs a scope: `read` for the
ones that change nothing, `write` for the others (`reflect` with `dry_run`, its default,
only reads).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from memfold import names
from memfold.agents import results as agent_results
from memfold.agents import tools as agent_tools
from memfold.agents.schema import check_object
from memfold.errors import BadInput

if TYPE_CHECKING:
    from memfold.memory import Memory


@dataclass(frozen=True)
class Verb:
    name: str
    scope: str  # read | write (reflect: write unless dry_run)
    schema: dict[str, Any]
    run: Callable[[Memory, dict[str, Any]], Any]
    summary: str

    def needs(self, args: dict[str, Any]) -> str:
        if self.name == "reflect" and args.get("dry_run", True):
            return "read"
        return self.scope


def _schema(tool: str, *, drop: tuple[str, ...] = (), add: dict[str, Any] | None = None
            ) -> dict[str, Any]:
    schema = copy.deepcopy(agent_tools.tool(tool).schema)
    for key in drop:
        schema["properties"].pop(key, None)
    schema["properties"].update(add or {})
    return schema


def _id(a: dict[str, Any]) -> str:
    return names.fact_id(str(a["id"]))


def _show(memory: Memory, a: dict[str, Any]) -> Any:
    return memory.get(a["id"], strict=a.get("strict", False), use=False).to_show_dict()


def _use(memory: Memory, a: dict[str, Any]) -> Any:
    for fact_id in a["ids"]:
        memory.use(fact_id)
    return {"used": list(a["ids"])}


def _note(memory: Memory, a: dict[str, Any]) -> Any:
    return {"id": a["id"], "result": "applied", "rev": memory.note(a["id"], a["text"],
                                                                   rev=a["rev"])}


def _supersede(memory: Memory, a: dict[str, Any]) -> Any:
    changed = memory.supersede(a["old"], a["new"], reason=a.get("reason", "superseded by hand"))
    return {"old": a["old"], "new": a["new"], "changed": changed}


def _forget(memory: Memory, a: dict[str, Any]) -> Any:
    if a.get("purge", False):
        return memory.purge(a["id"], dry_run=a.get("dry_run", False)).to_dict()
    memory.forget(a["id"])
    return {"id": _id(a), "archived": True}


def _restore(memory: Memory, a: dict[str, Any]) -> Any:
    memory.restore(_id(a), reason=a.get("reason", "restored by hand"))
    return {"id": _id(a), "result": "restored"}


def _reflect(memory: Memory, a: dict[str, Any]) -> Any:
    dry_run = a.get("dry_run", True)
    return memory.reflect(since=a.get("since", "7d"), dry_run=dry_run).to_dict(dry_run=dry_run)


_BOOL = {"type": "boolean"}

VERBS: dict[str, Verb] = {verb.name: verb for verb in (
    Verb("retain", "write", _schema("retain", drop=("source",)),
         lambda m, a: m.retain(a["bullets"], date=a.get("date"),
                               idempotency_key=a.get("idempotency_key")).to_dict(),
         "Append Retain bullets to a day's log (signed with the token's name)."),
    Verb("recall", "read", _schema("recall", drop=("budget", "full")),
         lambda m, a: m.recall(a["query"], k=a.get("k", 10), since=a.get("since"),
                               until=a.get("until"), kinds=a.get("kinds"),
                               entities=a.get("entities", ()),
                               include_all=a.get("include_all", False),
                               mode=a.get("mode"), strict=a.get("strict", False)).to_dict(),
         "Find facts by words, entities and time, each citing file#Lline."),
    Verb("about", "read", _schema("about", drop=("full",)),
         lambda m, a: m.about(a["name"], k=a.get("k", 20),
                              include_all=a.get("include_all", False)).to_dict(),
         "Everything about one entity."),
    Verb("show", "read", _schema("show"), _show, "One fact by id, with its provenance."),
    Verb("use", "write", _schema("use"), _use, "Mark facts as used (their decay restarts)."),
    Verb("note", "write", _schema("note"), _note,
         "Set a fact's note by compare-and-set on its revision (409 when it moved on)."),
    Verb("supersede", "write", _schema("supersede"), _supersede,
         "Mark an older fact superseded by a newer one."),
    Verb("restore", "write", _schema("restore"), _restore,
         "Make an archived or superseded fact active again."),
    Verb("forget", "write", _schema("forget", add={"dry_run": _BOOL}), _forget,
         "Archive a fact, or with purge remove its text everywhere."),
    Verb("history", "read", _schema("history"),
         lambda m, a: {"id": _id(a), "events": [e.to_dict() for e in m.history(_id(a))]},
         "A fact's journal events, oldest first, each with who wrote it."),
    Verb("trace", "read", _schema("trace"), lambda m, a: m.trace(a["id"]).to_dict(),
         "Where a fact came from and what it became."),
    Verb("status", "read", _schema("status"), lambda m, a: m.status().to_dict(),
         "Counts, lifecycle figures and warnings for the bank."),
    Verb("entities", "read", _schema("entities"), agent_results.entities,
         "The entities facts name, with how many facts name each, most named first."),
    Verb("reflect", "write", _schema("reflect"), _reflect,
         "Entity pages, opinion confidence and consolidation (dry_run by default)."),
    Verb("reflect_undo", "write", _schema("core_undo"),
         lambda m, a: {"undone": m.reflect_undo()}, "Take back the last reflect run."),
    Verb("core_view", "read", _schema("core_view"), lambda m, a: m.core().to_dict(),
         "Core memory: every block with its text and limit."),
    Verb("core_append", "write", _schema("core_append"),
         lambda m, a: m.core_append(a["block"], a["text"]).to_dict(),
         "Append a line to a core block."),
    Verb("core_replace", "write", _schema("core_replace"),
         lambda m, a: m.core_replace(a["block"], a["old"], a["new"]).to_dict(),
         "Replace text in a core block."),
    Verb("core_insert", "write", _schema("core_insert"),
         lambda m, a: m.core_insert(a["block"], a["line"], a["text"]).to_dict(),
         "Insert a line into a core block."),
    Verb("core_undo", "write", _schema("core_undo"), lambda m, a: m.core_undo().to_dict(),
         "Undo the last core edit."),
    Verb("context", "read", _schema("context", drop=("full",)),
         lambda m, a: m.context(budget=a.get("budget")).to_dict(),
         "The session-start context: core memory and what is worth knowing now."),

    Verb("review", "read", _schema("review"), agent_results.review,
         "The judge's decisions waiting for a word (open conflicts, automatic supersedes), "
         "newest first, each with both facts, the judge, its rule and its reason."),
    Verb("review_accept", "write", _schema("review_accept"), agent_results.review_accept,
         "Accept a review item: the conflict's newer fact supersedes the older one."),
    Verb("review_reject", "write", _schema("review_reject"), agent_results.review_reject,
         "Reject a review item (a conflict dismissed, a supersede undone), or with rule every "
         "waiting item of that rule (dry_run lists them)."),
)}


def verb(name: str) -> Verb:
    found = VERBS.get(name)
    if found is None:
        raise BadInput(f"unknown verb {name!r}; the verbs are: {', '.join(VERBS)}")
    return found


def arguments(chosen: Verb, body: Any) -> dict[str, Any]:
    """The request body checked against the verb's schema (BadInput naming the problem)."""
    return check_object(chosen.name, chosen.schema, {} if body is None else body)
