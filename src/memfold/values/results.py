"""The answers of the verbs: a retain's (`RetainResult`, with the judge's `Judgement`s), a
recall's (`RecallResult` of `Hit`s) and an entity's (`AboutResult`), each with its JSON, and a
hit's compact one-line form (`render_hit`).

`redacted` is the one place outputs hide likely secrets (`memfold.scan.secrets`): the library
returns hits, pages and context lines through it unless the caller asks for secrets.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any

from memfold.values.facts import (
    LETTER_OF_KIND,
    Fact,
    Interval,
    ParseWarning,
    citation,
    day_of,
    fact_dict,
    interval_of,
    stated_confidence,
    warning_dict,
    warnings_of,
)
from memfold.values.reports import SyncReport
from memfold.values.tokens import estimate_tokens

# the statuses recall leaves out unless --all (lifecycle.LEFT_OUT, spelled out here because
# lifecycle imports this module)
LEFT_OUT_STATUSES = ("superseded", "merged", "expired")


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
    repeated: bool = False  # an idempotency key seen before: these facts were stored then

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
            **({"repeated": True} if self.repeated else {}),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> RetainResult:
        judged = [Judgement.from_dict(j, superseded=True) for j in d["superseded"]]
        judged += [Judgement.from_dict(j, superseded=False) for j in d["conflicts"]]
        return cls(path=d["path"], facts=tuple(Fact.from_dict(f) for f in d["facts"]),
                   warnings=warnings_of(d["warnings"]), indexed=d["indexed"],
                   judged=tuple(judged), repeated=d.get("repeated", False))


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
    # found only on the question's common words or names, not on what it asks
    # (`memfold.recall.weak`): a guess, not an answer
    weak: bool = False

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
            "weak": self.weak,
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
                    confidence=stated_confidence(params.get("c")),
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
                   possibly_outdated_by=tuple(d.get("possibly_outdated_by") or ()),
                   weak=bool(d.get("weak", False)))

    def tokens(self) -> int:
        """The budget estimate for this result (conservative: `values.tokens`)."""
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

    @property
    def answered(self) -> bool:
        """Whether a hit answers the query, not only guesses at it (`Hit.weak`)."""
        return any(not h.weak for h in self.hits)

    def strict(self) -> RecallResult:
        """This result without its weak hits, with a note saying how many were left out
        (`recall --strict`, as a client applies it to a server's answer)."""
        hits, notes = strict_hits(self.hits, self.notes)
        return replace(self, hits=tuple(hits), notes=notes)

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
            "answered": self.answered,
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


def strict_hits(hits: Sequence[Hit], notes: tuple[str, ...],
                ) -> tuple[list[Hit], tuple[str, ...]]:
    """The hits that are not weak, and `notes` with one more saying how many were left out
    (when any were): what `recall --strict` answers."""
    kept = [h for h in hits if not h.weak]
    if (left := len(hits) - len(kept)) == 0:
        return kept, notes
    return kept, (*notes, strict_note(left))


def strict_note(left: int) -> str:
    """The note of a strict recall that left `left` weak hits out."""
    return (f"{left} weak {'match' if left == 1 else 'matches'} left out (strict): found on "
            "common words or names, not on what was asked")


def _iso(day: date | None) -> str | None:
    return day.isoformat() if day else None
