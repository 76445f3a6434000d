"""Value types shared by the parser, the index and the facade: frozen, plain data.

A `Fact` is one indexed unit read from the Markdown: a typed Retain bullet (kind world,
experience, opinion or observation) or a piece of text (kind "text": a narrative paragraph,
or a line under a Retain heading that did not parse).  Its `path` and `line` always point at
the file as it was when it was parsed, so a citation is `path#Lline`.

`redacted` is the one place outputs hide likely secrets (`memfold.scan.secrets`): the library
returns hits, pages and context lines through it unless the caller asks for secrets.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any, NamedTuple

KIND_LETTERS = {"W": "world", "B": "experience", "O": "opinion", "S": "observation"}
LETTER_OF_KIND = {kind: letter for letter, kind in KIND_LETTERS.items()}
TEXT = "text"
KINDS = (*KIND_LETTERS.values(), TEXT)
# the statuses recall leaves out unless --all (lifecycle.LEFT_OUT, spelled out here because
# lifecycle imports this module)
LEFT_OUT_STATUSES = ("superseded", "merged", "expired")


@dataclass(frozen=True)
class Interval:
    """A closed range of days during which a fact holds; either end may be open (None)."""

    start: date | None
    end: date | None

    def __str__(self) -> str:
        start = self.start.isoformat() if self.start else ""
        end = self.end.isoformat() if self.end else ""
        return f"{start}..{end}"


@dataclass(frozen=True)
class ParseWarning:
    """Something in a Markdown file that memfold read but could not take as written."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> ParseWarning:
        """A warning from `warning_dict`."""
        return cls(str(d["path"]), int(d["line"]), str(d["message"]))


@dataclass(frozen=True)
class Fact:
    """One indexed unit: a Retain bullet, or a text chunk (kind "text")."""

    id: str
    kind: str
    content: str
    path: str
    line: int
    end_line: int
    entities: tuple[str, ...] = ()
    params: dict[str, str] = field(default_factory=dict)
    confidence: float | None = None
    importance: int | None = None
    valid: Interval | None = None
    day: date | None = None
    explicit_id: bool = False

    @property
    def source(self) -> str:
        """The citation: workspace-relative path and 1-based line, `memory/2025-11-27.md#L12`."""
        return f"{self.path}#L{self.line}"

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Fact:
        """A fact from `fact_dict` (retain's JSON).  The JSON does not carry `end_line` or
        `explicit_id`: the fact is taken as one line long, its id as generated."""
        path, line = citation(d["source"])
        return cls(id=d["id"], kind=d["kind"], content=d["content"], path=path, line=line,
                   end_line=line, entities=tuple(d["entities"]), params=dict(d["params"]),
                   confidence=d["confidence"], importance=d["importance"],
                   valid=interval_of(d["valid_from"], d["valid_until"]), day=day_of(d["date"]))


def made_fact(id: str, kind: str, content: str, path: str, line: int, end_line: int,  # noqa: A002
              entities: tuple[str, ...], params: dict[str, str], confidence: float | None,
              importance: int | None, valid: Interval | None, day: date | None,
              explicit_id: bool) -> Fact:
    """`Fact(...)` with every field given in order, for the parser, which makes one per
    bullet, chunk and sentence of a rebuild: a frozen dataclass's own `__init__` sets each
    field through `object.__setattr__` (3.2–3.5 µs for a Fact), this fills its `__dict__` at
    once (0.8–1.2 µs).  The same object: tests/workspace/test_format.py holds the two equal."""
    fact = object.__new__(Fact)
    d = fact.__dict__
    d["id"] = id
    d["kind"] = kind
    d["content"] = content
    d["path"] = path
    d["line"] = line
    d["end_line"] = end_line
    d["entities"] = entities
    d["params"] = params
    d["confidence"] = confidence
    d["importance"] = importance
    d["valid"] = valid
    d["day"] = day
    d["explicit_id"] = explicit_id
    return fact


@dataclass(frozen=True)
class ParsedDoc:
    """Everything memfold takes from one Markdown file."""

    path: str
    role: str  # core | daily | bank | entity | note
    day: date | None
    facts: tuple[Fact, ...]
    warnings: tuple[ParseWarning, ...]
    aliases: tuple[str, ...] = ()  # entity pages: the names this page answers to
    citations: tuple[Citation, ...] = ()  # lines of generated summaries, and what they cite


@dataclass(frozen=True)
class Citation:
    """A generated summary line (`line`) citing `source#Lsource_line`, made from text whose
    short hash was `sha`: when the cited fact changes or vanishes, the page is stale."""

    line: int
    source: str
    source_line: int
    sha: str


class FileStamp(NamedTuple):
    """What the index remembers about a file to tell cheaply whether it changed (a named
    tuple: a sync builds one per file, ten thousand at a time)."""

    size: int
    mtime_ns: int
    sha256: str
    checked_ns: int = 0  # when the file was last read; a stamp near it may hide an edit


@dataclass(frozen=True)
class SyncReport:
    """What one index sync did."""

    scanned: int
    added: tuple[str, ...]
    changed: tuple[str, ...]
    removed: tuple[str, ...]
    full: bool
    seconds: float
    warnings: tuple[ParseWarning, ...] = ()
    new_ids: tuple[str, ...] = ()  # typed facts indexed for the first time
    rebuilt: bool = False  # every fact indexed afresh (a first index, or --full)
    skipped: tuple[str, ...] = ()  # symlinks where memfold reads files: never followed
    temporaries: tuple[str, ...] = ()  # hidden *.tmp files the scan passed (not indexed)
    # broken ids and journal links in the whole index (`memfold index` fills them in)
    link_warnings: tuple[ParseWarning, ...] = ()
    # every warning open after the sync, new or not (`memfold index` fills it in)
    open_warnings: int | None = None

    @property
    def touched(self) -> int:
        return len(self.added) + len(self.changed) + len(self.removed)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> SyncReport:
        """A report from its `to_dict` (which leaves out new_ids and temporaries)."""
        return cls(scanned=d["scanned"], added=tuple(d["added"]), changed=tuple(d["changed"]),
                   removed=tuple(d["removed"]), full=d["full"], seconds=d["seconds"],
                   warnings=warnings_of(d["warnings"]), skipped=tuple(d["skipped_symlinks"]),
                   link_warnings=warnings_of(d["link_warnings"]),
                   open_warnings=d.get("open_warnings"))

    def to_dict(self) -> dict[str, Any]:
        return {
            "full": self.full,
            "scanned": self.scanned,
            "added": list(self.added),
            "changed": list(self.changed),
            "removed": list(self.removed),
            "seconds": round(self.seconds, 4),
            "warnings": [warning_dict(w) for w in self.warnings],
            "skipped_symlinks": list(self.skipped),
            "link_warnings": [warning_dict(w) for w in self.link_warnings],
            "open_warnings": self.open_warnings,
        }


@dataclass(frozen=True)
class Judgement:
    """The supersede judge's word on an older fact, weighed against a newer one (`by`):
    superseded (journaled), or a conflict left active for the caller to confirm."""

    id: str
    by: str
    superseded: bool
    reason: str
    judge: str
    content: str
    source: str

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "by": self.by, "content": self.content,
                "source": self.source, "reason": self.reason, "judge": self.judge}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], *, superseded: bool) -> Judgement:
        """A judgement from `to_dict`; whether it superseded is the list it came in."""
        return cls(id=d["id"], by=d["by"], superseded=superseded, reason=d["reason"],
                   judge=d["judge"], content=d["content"], source=d["source"])


@dataclass(frozen=True)
class RetainResult:
    """The bullets one retain call appended, with their ids and exact lines, and what the
    judge made of older facts: those it superseded, and conflicts it left active."""

    path: str
    facts: tuple[Fact, ...]
    warnings: tuple[ParseWarning, ...] = ()
    indexed: bool = True
    judged: tuple[Judgement, ...] = ()

    @property
    def superseded(self) -> tuple[Judgement, ...]:
        return tuple(j for j in self.judged if j.superseded)

    @property
    def conflicts(self) -> tuple[Judgement, ...]:
        return tuple(j for j in self.judged if not j.superseded)

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "ids": [f.id for f in self.facts],
            "facts": [fact_dict(f) for f in self.facts],
            "indexed": self.indexed,
            "warnings": [warning_dict(w) for w in self.warnings],
            "superseded": [j.to_dict() for j in self.superseded],
            "conflicts": [j.to_dict() for j in self.conflicts],
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> RetainResult:
        judged = [Judgement.from_dict(j, superseded=True) for j in d["superseded"]]
        judged += [Judgement.from_dict(j, superseded=False) for j in d["conflicts"]]
        return cls(path=d["path"], facts=tuple(Fact.from_dict(f) for f in d["facts"]),
                   warnings=warnings_of(d["warnings"]), indexed=d["indexed"],
                   judged=tuple(judged))


@dataclass(frozen=True)
class Freshness:
    """How the files on disk differ from what the index last saw (stat only, no hashing)."""

    new: tuple[str, ...]
    modified: tuple[str, ...]
    deleted: tuple[str, ...]

    @property
    def stale(self) -> int:
        return len(self.new) + len(self.modified) + len(self.deleted)


@dataclass(frozen=True)
class StatusReport:
    """Counts and freshness of a workspace and its index."""

    workspace: str
    index_path: str
    files: int
    facts_by_kind: dict[str, int]
    entities: int
    chunks: int
    warnings: int  # parse warnings plus link warnings
    freshness: Freshness
    last_sync: str | None
    stale_pages: tuple[dict[str, Any], ...] = ()  # generated pages citing changed facts
    link_warnings: tuple[ParseWarning, ...] = ()  # duplicate ids, pointers to gone facts
    secrets: tuple[ParseWarning, ...] = ()  # likely secrets in the indexed text, path:line
    parse_warnings: tuple[ParseWarning, ...] = ()  # what the files' syntax got wrong
    hidden_text: tuple[ParseWarning, ...] = ()  # indexed facts holding hidden text

    def open_warnings(self) -> list[tuple[str, ParseWarning]]:
        """Every warning open now, with its kind: parse, hidden, secret, link."""
        return [(kind, w) for kind, found in (
            ("parse", self.parse_warnings), ("hidden", self.hidden_text),
            ("secret", self.secrets), ("link", self.link_warnings)) for w in found]

    def to_dict(self) -> dict[str, Any]:
        return {
            "workspace": self.workspace,
            "index": self.index_path,
            "files": self.files,
            "facts": sum(self.facts_by_kind.values()),
            "facts_by_kind": self.facts_by_kind,
            "entities": self.entities,
            "chunks": self.chunks,
            "warnings": self.warnings,
            "last_sync": self.last_sync,
            "freshness": {
                "stale": self.freshness.stale,
                "new": list(self.freshness.new),
                "modified": list(self.freshness.modified),
                "deleted": list(self.freshness.deleted),
            },
            "stale_pages": list(self.stale_pages),
            "link_warnings": [warning_dict(w) for w in self.link_warnings],
            "secrets": [warning_dict(w) for w in self.secrets],
            "parse_warnings": [warning_dict(w) for w in self.parse_warnings],
            "hidden_text": [warning_dict(w) for w in self.hidden_text],
            "open_warnings": [{"kind": kind, **warning_dict(w)}
                              for kind, w in self.open_warnings()],
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> StatusReport:
        fresh = d["freshness"]
        return cls(workspace=d["workspace"], index_path=d["index"], files=d["files"],
                   facts_by_kind=dict(d["facts_by_kind"]), entities=d["entities"],
                   chunks=d["chunks"], warnings=d["warnings"],
                   freshness=Freshness(tuple(fresh["new"]), tuple(fresh["modified"]),
                                       tuple(fresh["deleted"])),
                   last_sync=d["last_sync"], stale_pages=tuple(d["stale_pages"]),
                   link_warnings=warnings_of(d["link_warnings"]),
                   secrets=warnings_of(d["secrets"]),
                   parse_warnings=warnings_of(d.get("parse_warnings", ())),
                   hidden_text=warnings_of(d.get("hidden_text", ())))


def warning_dict(w: ParseWarning) -> dict[str, Any]:
    return {"path": w.path, "line": w.line, "message": w.message}


def warnings_of(items: Any) -> tuple[ParseWarning, ...]:
    """The warnings of a list of `warning_dict`s."""
    return tuple(ParseWarning.from_dict(w) for w in items)


def citation(source: str) -> tuple[str, int]:
    """`memory/2025-11-27.md#L12` -> ("memory/2025-11-27.md", 12)."""
    path, _, line = str(source).rpartition("#L")
    return path, int(line)


def _stated_confidence(value: str | None) -> float | None:
    """The confidence a bullet's `c=` param states, as the parser reads it."""
    try:
        c = float(value) if value is not None else -1.0
    except ValueError:
        return None
    return c if 0.0 <= c <= 1.0 else None


def day_of(text: str | None) -> date | None:
    return date.fromisoformat(text) if text else None


def interval_of(start: str | None, end: str | None) -> Interval | None:
    """The interval of a JSON object's two ends; None when neither is given."""
    if start is None and end is None:
        return None
    return Interval(day_of(start), day_of(end))


def fact_dict(f: Fact) -> dict[str, Any]:
    return {
        "id": f.id,
        "kind": f.kind,
        "content": f.content,
        "entities": list(f.entities),
        "params": dict(f.params),
        "confidence": f.confidence,
        "importance": f.importance,
        "valid_from": f.valid.start.isoformat() if f.valid and f.valid.start else None,
        "valid_until": f.valid.end.isoformat() if f.valid and f.valid.end else None,
        "date": f.day.isoformat() if f.day else None,
        "source": f.source,
    }


@dataclass(frozen=True)
class Hit:
    """One recall result: a fact, its score, and why it matched."""

    fact: Fact
    score: float
    why: str
    confidence: float
    status: str = "active"
    sha256: str | None = None
    decay: float = 1.0
    rev: int = 0
    note: str | None = None
    reason: str | None = None  # why the status is what it is (a supersede's reason)
    superseded_by: str | None = None
    supersedes: tuple[str, ...] = ()
    derived_from: tuple[str, ...] = ()
    origin: str | None = None  # who retained it; None for a bullet a person wrote
    # newer facts shown with it that may have replaced it (recall; `memfold.recall.currency`)
    possibly_outdated_by: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        f = self.fact
        return {
            "id": f.id,
            "kind": f.kind,
            "timestamp": f.day.isoformat() if f.day else None,
            "entities": list(f.entities),
            "content": f.content,
            "source": f.source,
            "score": round(self.score, 4),
            "status": self.status,
            "confidence": round(self.confidence, 3),
            "why": self.why,
            "valid_from": f.valid.start.isoformat() if f.valid and f.valid.start else None,
            "valid_until": f.valid.end.isoformat() if f.valid and f.valid.end else None,
            "decay": round(self.decay, 3),
            "rev": self.rev,
            "note": self.note,
            "superseded_by": self.superseded_by,
            "supersedes": list(self.supersedes),
            "possibly_outdated_by": list(self.possibly_outdated_by),
            "origin": self.origin or f.params.get("by") or "markdown",
            "hidden": hidden_kinds(f.content),
        }

    def to_show_dict(self) -> dict[str, Any]:
        """`to_dict` and where the fact lives and what made its state, in full: what
        `memfold show --json` prints (and the server's `show` answers)."""
        f = self.fact
        return {**self.to_dict(), "path": f.path, "line": f.line, "end_line": f.end_line,
                "sha256": self.sha256, "params": dict(f.params), "importance": f.importance,
                "explicit_id": f.explicit_id, "reason": self.reason,
                "derived_from": list(self.derived_from)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Hit:
        """A hit from `to_dict`, or from show's JSON, which adds the fact's path, line,
        end_line, params, importance and explicit_id and the hit's sha256, reason and
        derived_from.  Without those, the fact is one line long at its `source`."""
        path, line = citation(d["source"])
        params = {str(k): str(v) for k, v in (d.get("params") or {}).items()}
        fact = Fact(id=d["id"], kind=d["kind"], content=d["content"], path=d.get("path", path),
                    line=d.get("line", line), end_line=d.get("end_line", d.get("line", line)),
                    entities=tuple(d["entities"]), params=params,
                    confidence=_stated_confidence(params.get("c")),
                    importance=d.get("importance"),
                    valid=interval_of(d["valid_from"], d["valid_until"]),
                    day=day_of(d["timestamp"]), explicit_id=d.get("explicit_id", False))
        origin = d["origin"]
        return cls(fact=fact, score=d["score"], why=d["why"], confidence=d["confidence"],
                   status=d["status"], sha256=d.get("sha256"), decay=d["decay"], rev=d["rev"],
                   note=d["note"], reason=d.get("reason"), superseded_by=d["superseded_by"],
                   supersedes=tuple(d["supersedes"]),
                   derived_from=tuple(d.get("derived_from") or ()),
                   origin=None if origin == "markdown" else origin,
                   possibly_outdated_by=tuple(d.get("possibly_outdated_by") or ()))

    def tokens(self) -> int:
        """The budget estimate for this result: about four characters per token."""
        return estimate_tokens(render_hit(self))

    def redacted(self) -> Hit:
        """This hit with each likely secret in its text shown as `[REDACTED:<kind>]`."""
        content = redacted(self.fact.content)
        if content == self.fact.content:
            return self
        return replace(self, fact=replace(self.fact, content=content))


def redacted(text: str) -> str:
    """`text` with each likely secret replaced by `[REDACTED:<kind>]`: what every output
    (recall, show, about, trace, context, MCP, HTTP) prints unless secrets are asked for."""
    from memfold.scan.secrets import redact

    return redact(text)


def estimate_tokens(text: str) -> int:
    return (len(text) + 3) // 4


def render_hit(hit: Hit) -> str:
    """The compact one-line form of a result, ending with its source."""
    f = hit.fact
    letter = LETTER_OF_KIND.get(f.kind, "T")
    when = f.day.isoformat() if f.day else "-"
    if f.valid:
        when += f" valid {f.valid}"
    names = "".join(f" @{n}" for n in f.entities)
    flag = "" if hit.status == "active" else f" [{hit.status}"
    if flag:
        flag += f" by {hit.superseded_by}]" if hit.superseded_by else "]"
    if hit.possibly_outdated_by:
        flag += " [may be outdated by " + ", ".join(f"^{i}" for i in hit.possibly_outdated_by) + "]"
    content = " ".join(reveal(f.content).split())
    return f"[{letter} {when} c={hit.confidence:.2f}]{flag}{names} {content}  {f.source}"


def hidden_kinds(text: str) -> list[str]:
    """Kinds of hidden text in `text` (zero-width, bidi, tag characters, comments...)."""
    from memfold.scan.hidden import find_hidden

    return sorted({h.kind for h in find_hidden(text)})


def reveal(text: str) -> str:
    from memfold.scan.hidden import reveal as show

    return show(text)


@dataclass(frozen=True)
class RecallResult:
    """The answer to a recall: ranked hits plus what the index did before answering."""

    query: str
    as_of: str
    hits: tuple[Hit, ...]
    sync: SyncReport | None
    total_warnings: int
    window: Interval | None = None
    entities: tuple[str, ...] = ()
    truncated: int = 0  # results left out to stay within the budget
    # matching facts left out because --all was not given, by status (superseded, merged,
    # expired); counted among the candidates recall ranked, so a lower bound
    hidden: dict[str, int] = field(default_factory=dict)
    # one line each about how the query was read or what could be seen as of then: a time
    # phrase not read ("between banana and Tuesday"), an as-of before the first fact
    notes: tuple[str, ...] = ()

    def hidden_hint(self) -> str | None:
        """One line saying how many matching facts the lifecycle left out and how to see
        them, or None when none were."""
        total = sum(self.hidden.values())
        if not total:
            return None
        counts = [(s, n) for s in LEFT_OUT_STATUSES if (n := self.hidden.get(s, 0))]
        facts, are, them = ("fact", "is", "it") if total == 1 else ("facts", "are", "them")
        what = " or ".join(s for s, _ in counts)
        if len(counts) > 1:
            what += " (" + ", ".join(f"{n} {s}" for s, n in counts) + ")"
        return f"{total} matching {facts} {are} {what} — add --all to see {them}"

    def to_dict(self) -> dict[str, Any]:
        sync = self.sync
        return {
            "query": self.query,
            "as_of": self.as_of,
            "results": [h.to_dict() for h in self.hits],
            "window": {"start": _iso(self.window.start), "end": _iso(self.window.end)}
            if self.window else None,
            "entities": list(self.entities),
            "omitted_for_budget": self.truncated,
            "hidden_by_lifecycle": {s: self.hidden.get(s, 0) for s in LEFT_OUT_STATUSES},
            "notes": list(self.notes),
            "index": {
                "synced_files": sync.touched if sync else 0,
                "added": list(sync.added) if sync else [],
                "changed": list(sync.changed) if sync else [],
                "removed": list(sync.removed) if sync else [],
                "warnings": [warning_dict(w) for w in sync.warnings] if sync else [],
                "total_warnings": self.total_warnings,
            },
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> RecallResult:
        """A result from `to_dict`; its sync report holds what the JSON says the recall's
        own sync did (which files, which warnings)."""
        index, window = d["index"], d["window"]
        sync = SyncReport(scanned=0, added=tuple(index["added"]),
                          changed=tuple(index["changed"]), removed=tuple(index["removed"]),
                          full=False, seconds=0.0, warnings=warnings_of(index["warnings"]))
        return cls(query=d["query"], as_of=d["as_of"],
                   hits=tuple(Hit.from_dict(h) for h in d["results"]), sync=sync,
                   total_warnings=index["total_warnings"],
                   window=Interval(day_of(window["start"]), day_of(window["end"]))
                   if window else None,
                   entities=tuple(d["entities"]), truncated=d["omitted_for_budget"],
                   hidden={s: n for s, n in d["hidden_by_lifecycle"].items() if n},
                   notes=tuple(d.get("notes", ())))


@dataclass(frozen=True)
class AboutResult:
    """Everything memory holds about one entity: its page and its facts, newest first."""

    name: str
    key: str | None
    page: str | None
    aliases: tuple[str, ...]
    hits: tuple[Hit, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "entity": self.name,
            "key": self.key,
            "found": self.key is not None,
            "page": self.page,
            "aliases": list(self.aliases),
            "results": [h.to_dict() for h in self.hits],
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> AboutResult:
        return cls(name=d["entity"], key=d["key"], page=d["page"], aliases=tuple(d["aliases"]),
                   hits=tuple(Hit.from_dict(h) for h in d["results"]))


def _iso(day: date | None) -> str | None:
    return day.isoformat() if day else None
