"""A workspace and a plan of tool calls for the MCP client tests (tests/agents/test_mcp_clients.py).

The workspace holds what real ones hold: core blocks in memory.md, an entity page in bank/,
a daily log with prose and Retain bullets (ids written in the file, so the plan can name
them).  The plan calls every tool twice: with ordinary arguments, and with arguments memfold
refuses (an unknown id, a stale note, a secret in a retain, a bad argument), each refusal
with a fragment of the text the model must get.  Some ordinary calls send what a model held
to a strict schema sends: every argument, "" or null for the ones it leaves out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memfold import Memory

NOW = "2025-11-27T09:00:00+00:00"
# a GitHub token's shape (ghp_ and 36 letters and digits): a retain that holds it is refused
SECRET = "ghp_" + "Zq8rT2vX9kLm4NpW7sYb3CdF6gHj1KoQ5uEa"

CORE = """---
limits: {Persona: 1000, Human: 200, Project: 2000}
---
# Core memory

## Persona

A careful assistant that answers briefly.

## Human

Dana is the user; she prefers short answers.

## Project

Atlas: a sailing-route planner.
"""
PAGE = """# Dana

Dana lives in Lisbon and works on the Atlas project with Eva.
"""
LOG = """# 2025-11-26

Met Dana at the harbour; we talked about the Atlas release and her move to Lisbon.

## Retain
- W @Dana: Dana moved to Lisbon in 2024. ^danamove
- O(c=0.8) @Dana: Dana prefers tea over coffee. ^danatea
- B @Dana: Dana and I planned the Atlas release. ^danaplan
- W @Dana: Dana lives in Porto. ^danaporto
- W @Dana: Dana's old phone number is 555-0100. ^danaphone
"""


def build_workspace(root: Path) -> Path:
    """A fresh workspace at `root` with prose, core blocks, a bank page and Retain bullets."""
    Memory.init(root)
    (root / "memory.md").write_text(CORE, encoding="utf-8")
    (root / "bank/entities").mkdir(parents=True, exist_ok=True)
    (root / "bank/entities/Dana.md").write_text(PAGE, encoding="utf-8")
    (root / "memory/2025-11-26.md").write_text(LOG, encoding="utf-8")
    return root


@dataclass(frozen=True)
class Step:
    """One call: `refusal` is None for an ordinary call, else a fragment of the refusal."""

    tool: str
    arguments: dict[str, Any]
    refusal: str | None = None
    label: str = field(default="")

    @property
    def name(self) -> str:
        kind = "refused" if self.refusal is not None else "ordinary"
        return f"{self.tool}/{kind}{'/' + self.label if self.label else ''}"


def ok(tool: str, label: str = "", **arguments: Any) -> Step:
    return Step(tool, arguments, None, label)


def no(tool: str, refusal: str, **arguments: Any) -> Step:
    return Step(tool, arguments, refusal)


UNKNOWN = "call recall to find ids"
PLAN: tuple[Step, ...] = (
    ok("context", budget=400),
    ok("context", "full", full=True, budget=800),
    no("context", "budget must be at least 1", budget=0),
    ok("recall", query="Dana Lisbon harbour"),  # prose and page hits: no date
    ok("recall", "full", query="where does Dana live", full=True, include_all=True),
    ok("recall", "strict", query="Dana", k=None, since="", until="", kinds=[],
       entities=None, include_all=None, budget=None, mode="", full=None),
    ok("recall", "window", query="Dana", since="2025-11-01", until="2025-11-30"),
    no("recall", "k must be an integer", query="Dana", k="many"),
    ok("about", name="Dana"),
    ok("about", "full", name="Dana", full=True),
    no("about", "name must not be empty", name=""),
    ok("show", id="danamove"),
    no("show", UNKNOWN, id="nosuchfact"),
    ok("retain", bullets=["W @Dana: Dana's sister is called Eva."]),
    ok("retain", "strict", bullets=["W @Dana: Dana sails on Sundays."], date="", source=""),
    no("retain", "rephrase it without the secret", bullets=[f"W: The deploy token is {SECRET}."]),
    ok("use", ids=["danamove", "^danatea"]),
    no("use", UNKNOWN, ids=["nosuchfact"]),
    ok("note", id="danamove", text="confirmed with Dana", rev=0),
    no("note", "is at revision 1, not 0", id="danamove", text="late", rev=0),
    ok("review"),  # the first index found "lives in Porto" beside "moved to Lisbon"
    no("review", "cannot read time", since="never ever"),
    ok("review_reject", "dry run", rule="value", dry_run=True),
    ok("review_reject", item="1", reason="Porto was her old flat"),
    no("review_reject", "review lists them", item="999"),
    ok("review_accept", item="1"),  # settled already: answered, nothing written twice
    no("review_accept", "review lists them", item="nosuchfact"),
    ok("supersede", old="danaporto", new="danamove", reason=""),
    no("supersede", UNKNOWN, old="nosuchfact", new="danamove"),
    ok("history", id="danaporto"),
    no("history", UNKNOWN, id="nosuchfact"),
    ok("trace", id="danamove"),
    no("trace", UNKNOWN, id="nosuchfact"),
    ok("forget", id="danaphone"),
    no("forget", UNKNOWN, id="nosuchfact"),
    ok("restore", id="danaphone", reason=None),
    no("restore", UNKNOWN, id="nosuchfact"),
    ok("entities"),
    no("entities", "limit must be", limit=0),
    ok("status"),
    no("status", "unknown argument 'verbose'", verbose=True),
    ok("index"),
    no("index", "full must be a boolean", full="yes"),
    ok("reflect", since="", dry_run=None),
    no("reflect", "cannot read time", since="the day after never"),
    ok("core_view"),
    no("core_view", "unknown argument 'block'", block="Human"),
    ok("core_append", block="Human", text="Dana sails on Sundays."),
    no("core_append", "Shorten it with core_replace first", block="Human", text="x" * 300),
    ok("core_replace", block="Human", old="on Sundays", new="on Sundays and Mondays"),
    no("core_replace", "call core_view", block="Human", old="on Fridays", new="never"),
    ok("core_insert", block="Project", line=1, text="Atlas ships in March."),
    no("core_insert", "line must be at least -1", block="Project", line=-5, text="x"),
    ok("core_undo"),
    no("core_undo", "unknown argument 'steps'", steps=2),
)
