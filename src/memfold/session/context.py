"""Session-start context: what an agent should see first, packed into a token budget.

Sections, in the order they are shown:

    core       every core block of memory.md, heading and lines          (memory.md#L..)
    today      the Retain bullets of today's log                        (memory/<today>.md#L..)
    yesterday  the Retain bullets of yesterday's log
    expiring   active facts whose validity ends within EXPIRING_DAYS
    open       unchecked task items (`- [ ] ...`) in the logs of the last OPEN_ITEM_DAYS days
               and in the top-level bank pages

Every line ends with its citation.  Superseded and expired facts are left out; each fact
line carries its `^id` so an agent can `use`, `note` or `supersede` it.  Hidden text in a
line (zero-width or direction characters, HTML comments...) is rendered as recall renders
it, with ⟦...⟧ markers, so what the agent reads is what a reviewer sees; the JSON form keeps
each line's stored text and names its kinds of hidden text under "hidden".

The budget (tokens, conservatively estimated as for recall) is spent on the core blocks
first, in file order; what is left is shared round-robin among the other sections, one line
at a time in each section's priority order (a log's newest bullets first, the soonest
expiry first), so a long day cannot crowd out what expires tomorrow.  A section stops at
its first line that does not fit; each section reports how many lines it left out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta
from typing import Any, Protocol

from memfold.errors import BadInput
from memfold.index.base import Candidate, FactSearch, Filters
from memfold.journal.fold import ACTIVE, ARCHIVED, status_of
from memfold.session.core import CORE_PATH, CoreMemory
from memfold.values import (
    TEXT,
    Fact,
    Interval,
    estimate_tokens,
    hidden_kinds,
    redacted,
    reveal,
)
from memfold.workspace.format import Bullet, decode, open_tasks, render_bullet
from memfold.workspace.layout import Workspace, daily_path

DEFAULT_BUDGET = 2000
EXPIRING_DAYS = 7
OPEN_ITEM_DAYS = 14
MAX_OPEN_ITEMS = 200
FACT_LIMIT = 1000
TYPED = ("world", "experience", "opinion", "observation")
_HEADER_RESERVE = " (99999 more not shown)"


@dataclass(frozen=True)
class ContextLine:
    """One line of context and the file line it comes from."""

    text: str
    source: str
    id: str | None = None

    def render(self) -> str:
        return f"{reveal(self.text)}  {self.source}"

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "source": self.source, "id": self.id,
                "hidden": hidden_kinds(self.text)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> ContextLine:
        return cls(text=d["text"], source=d["source"], id=d["id"])


@dataclass(frozen=True)
class ContextSection:
    name: str
    title: str
    lines: tuple[ContextLine, ...]
    omitted: int = 0

    def heading(self) -> str:
        more = f" ({self.omitted} more not shown)" if self.omitted else ""
        return f"## {self.title}{more}"

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title,
                "lines": [line.to_dict() for line in self.lines], "omitted": self.omitted}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> ContextSection:
        return cls(name=d["name"], title=d["title"],
                   lines=tuple(ContextLine.from_dict(line) for line in d["lines"]),
                   omitted=d["omitted"])


@dataclass(frozen=True)
class SessionContext:
    """The assembled context: sections with at least one candidate line, in order."""

    as_of: str
    budget: int
    sections: tuple[ContextSection, ...]

    def render(self) -> str:
        out: list[str] = []
        for section in self.sections:
            if section.lines:
                out.append(section.heading())
                out.extend(line.render() for line in section.lines)
        return "\n".join(out)

    @property
    def tokens(self) -> int:
        text = self.render()
        return sum(_cost(line) for line in text.split("\n")) if text else 0

    def to_dict(self) -> dict[str, Any]:
        return {"as_of": self.as_of, "budget": self.budget, "tokens": self.tokens,
                "sections": [s.to_dict() for s in self.sections], "text": self.render()}

    def redacted(self) -> SessionContext:
        """The context as outputs show it: likely secrets as `[REDACTED:<kind>]`."""
        return replace(self, sections=tuple(
            replace(s, lines=tuple(replace(line, text=redacted(line.text)) for line in s.lines))
            for s in self.sections))

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> SessionContext:
        """A context from `to_dict` (its tokens and text follow from the sections)."""
        return cls(as_of=d["as_of"], budget=d["budget"],
                   sections=tuple(ContextSection.from_dict(s) for s in d["sections"]))


class Files(Protocol):
    """The files the context reads besides the index: the top-level bank pages and any
    file's bytes (None when there is none).  `OnDisk` reads a workspace's; the server reads
    a bank's from PostgreSQL."""

    def top_pages(self) -> list[str]: ...

    def read(self, rel: str) -> bytes | None: ...


@dataclass(frozen=True)
class OnDisk:
    """A workspace's files, read from its directory (no symlink followed)."""

    workspace: Workspace

    def top_pages(self) -> list[str]:
        bank = self.workspace.abspath("bank")
        if not bank.is_dir() or bank.is_symlink():
            return []
        return sorted(f"bank/{p.name}" for p in bank.glob("*.md")
                      if p.is_file() and not p.is_symlink() and not p.name.startswith("."))

    def read(self, rel: str) -> bytes | None:
        path = self.workspace.abspath(rel)
        try:
            return None if path.is_symlink() else path.read_bytes()
        except (FileNotFoundError, NotADirectoryError, IsADirectoryError, PermissionError):
            return None


def build(*, core: CoreMemory, files: Files, backend: FactSearch, today: date,
          budget: int = DEFAULT_BUDGET, as_of: str = "") -> SessionContext:
    """Assemble the context as of `today` from an up-to-date index."""
    if not isinstance(budget, int) or isinstance(budget, bool) or budget < 1:
        raise BadInput(f"--budget must be a positive number of tokens, not {budget!r}")
    yesterday = today - timedelta(days=1)
    horizon = today + timedelta(days=EXPIRING_DAYS)
    seen: set[str] = set()
    candidates = [
        ("core", "Core memory", _core_lines(core)),
        ("today", f"Today ({today})", _day_lines(backend, today, seen)),
        ("yesterday", f"Yesterday ({yesterday})",
         _day_lines(backend, yesterday, seen, today=today)),
        ("expiring", f"Expiring by {horizon}", _expiring(backend, today, horizon, seen)),
        ("open", "Open items", _open_items(files, today)),
    ]
    return SessionContext(as_of, budget, tuple(_fit(candidates, budget)))


# -- the budget -----------------------------------------------------------------------------


def _cost(text: str) -> int:
    return estimate_tokens(text + "\n")


def _fit(candidates: Sequence[tuple[str, str, list[tuple[int, ContextLine]]]],
         budget: int) -> list[ContextSection]:
    """Choose lines within the budget: the first section in order, then the others
    round-robin.  Each section's lines are (display position, line) in priority order."""
    left = budget
    chosen: dict[str, list[tuple[int, ContextLine]]] = {name: [] for name, _, _ in candidates}
    queues = {name: list(lines) for name, _, lines in candidates}
    titles = {name: title for name, title, _ in candidates}
    order = [name for name, _, lines in candidates if lines]

    def take(name: str) -> bool:
        nonlocal left
        position, line = queues[name][0]
        cost = _cost(line.render())
        if not chosen[name]:
            cost += _cost(f"## {titles[name]}{_HEADER_RESERVE}")
        if cost > left:
            return False
        left -= cost
        chosen[name].append(queues[name].pop(0))
        return True

    if order and order[0] == "core":
        while queues["core"] and take("core"):
            pass
        order = order[1:]
    active = [name for name in order if queues[name]]
    while active:
        active = [name for name in active if queues[name] and take(name)]
    return [ContextSection(name, title, tuple(line for _, line in sorted(chosen[name],
                                                                          key=_position)),
                           len(queues[name]))
            for name, title, lines in candidates if lines]


def _position(item: tuple[int, ContextLine]) -> int:
    return item[0]


# -- the sections ---------------------------------------------------------------------------


def _core_lines(core: CoreMemory) -> list[tuple[int, ContextLine]]:
    lines: list[ContextLine] = []
    for block in core.blocks:
        lines.append(ContextLine(f"### {block.name} ({block.chars}/{block.limit} chars)",
                                 block.source))
        lines.extend(ContextLine(text, f"{CORE_PATH}#L{number}")
                     for number, text in block.lines() if text.strip())
    return list(enumerate(lines))


def fact_line(fact: Fact, suffix: str = "") -> ContextLine:
    """A fact as its Retain bullet (with its id), citing its line."""
    bullet = Bullet(kind=fact.kind, content=" ".join(fact.content.split()),
                    entities=fact.entities, params=dict(fact.params), block_id=fact.id)
    return ContextLine(render_bullet(bullet) + suffix, fact.source, fact.id)


def _shown(c: Candidate, today: date) -> bool:
    return status_of(c.fact, c.life, today)[0] in (ACTIVE, ARCHIVED)


def _day_lines(backend: FactSearch, day: date, seen: set[str], *,
               today: date | None = None) -> list[tuple[int, ContextLine]]:
    """The day's Retain bullets, newest (last written) first."""
    path = daily_path(day)
    found = backend.recent(Filters(kinds=TYPED, window=Interval(day, day)), FACT_LIMIT)
    facts = sorted((c for c in found if c.fact.path == path and _shown(c, today or day)),
                   key=lambda c: c.fact.line)
    seen.update(c.fact.id for c in facts)
    return [(n, fact_line(c.fact)) for n, c in reversed(list(enumerate(facts)))]


def _expiring(backend: FactSearch, today: date, horizon: date,
              seen: set[str]) -> list[tuple[int, ContextLine]]:
    """Active facts whose validity ends between today and the horizon, soonest first."""
    found = backend.recent(Filters(kinds=TYPED, window=Interval(today, horizon)), FACT_LIMIT)
    ending = sorted((c for c in found if c.fact.valid and c.fact.valid.end
                     and today <= c.fact.valid.end <= horizon and c.fact.id not in seen
                     and c.fact.kind != TEXT and _shown(c, today)),
                    key=lambda c: (c.fact.valid.end if c.fact.valid else today, c.fact.path,
                                   c.fact.line))
    return [(n, fact_line(c.fact, f" (ends {c.fact.valid.end})" if c.fact.valid else ""))
            for n, c in enumerate(ending)]


def _open_items(files: Files, today: date) -> list[tuple[int, ContextLine]]:
    """Unchecked task items: recent logs newest first, then the top-level bank pages."""
    paths = [daily_path(today - timedelta(days=n)) for n in range(OPEN_ITEM_DAYS)]
    paths += files.top_pages()
    items: list[ContextLine] = []
    for rel in paths:
        data = files.read(rel)
        for number, text in open_tasks(decode(data)[0]) if data is not None else ():
            items.append(ContextLine(f"- [ ] {text}", f"{rel}#L{number}"))
            if len(items) >= MAX_OPEN_ITEMS:
                return list(enumerate(items))
    return list(enumerate(items))
