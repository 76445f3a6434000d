"""What the index and the workspace report: a sync (`SyncReport`), the files' freshness
against the index (`Freshness`) and a workspace's status (`StatusReport`), each with its
JSON (`to_dict`, and `from_dict` for what a memfold server sends)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from memfold.values.facts import ParseWarning, warning_dict, warnings_of


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
