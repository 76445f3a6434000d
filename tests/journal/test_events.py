"""Typed journal events: a journal holding every kind reads into one dataclass per kind and
writes back byte for byte (hashes included); the lifecycle fold over the typed events gives
the states it gave before; a kind this memfold does not know is kept; only the ledger
appends to the journal."""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import json
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import memfold
from memfold.journal.events import (
    KINDS,
    Confidence,
    Core,
    Record,
    Reset,
    Retain,
    Supersede,
    Unknown,
    Use,
    from_dict,
)
from memfold.journal.fold import replay
from memfold.journal.log import JOURNAL_NAME, Journal
from memfold.workspace.files import WriteLock

SHA = "9f2c41b0c3b7e5d1"
# One line of every kind, each as memfold writes it today (key order, nulls, absent keys):
# the writers in retain, ledger, reflect, reflect_undo, memory (archive), forget (purge) and
# core; then a kind this memfold does not know, a known kind with a key it does not know, and
# a supersede missing its `by`.
BODIES = [
    '{"seq": 1, "ts": "2025-11-30T09:00:00+00:00", "event": "retain", "id": "k3x9q2ma", '
    '"ids": ["k3x9q2ma", "p7w2n4rb"], "by": "cli", "shas": ["1f0e2d3c4b5a6978", '
    '"8796a5b4c3d2e1f0"]}',
    '{"seq": 2, "ts": "2025-11-30T09:00:00+00:00", "event": "retain", "id": "z9y8x7w6", '
    '"ids": ["z9y8x7w6"], "by": "agent:claude"}',
    '{"seq": 3, "ts": "2025-11-30T10:00:00+00:00", "event": "note", "id": "k3x9q2ma", '
    f'"rev": 1, "note": "checked with Peter — in Zürich", "sha": "{SHA}"}}',
    f'{{"seq": 4, "ts": "2025-11-30T11:00:00+00:00", "event": "use", "id": "k3x9q2ma", '
    f'"sha": "{SHA}"}}',
    '{"seq": 5, "ts": "2025-12-01T08:00:00+00:00", "event": "supersede", "id": "k3x9q2ma", '
    '"by": "p7w2n4rb", "reason": "Peter moved to Berlin", "judge": "rules", '
    f'"on": "2025-12-01", "sha": "{SHA}"}}',
    '{"seq": 6, "ts": "2025-12-01T08:05:00+00:00", "event": "supersede", "id": "a1b2c3d4", '
    '"by": "e5f6g7h8", "reason": "replaced by hand", "judge": "manual", "on": null, '
    f'"sha": "{SHA}"}}',
    '{"seq": 7, "ts": "2025-12-01T09:00:00+00:00", "event": "restore", "id": "k3x9q2ma", '
    f'"reason": "restored by hand", "sha": "{SHA}"}}',
    '{"seq": 8, "ts": "2025-12-01T09:30:00+00:00", "event": "revise", "id": "p7w2n4rb", '
    '"rev": 1, "sha": "0123456789abcdef", "reason": "source text changed"}',
    '{"seq": 9, "ts": "2025-12-02T07:00:00+00:00", "event": "merge", "id": "m1m1m1m1", '
    '"into": "c0n50l1d", "reason": "near-duplicate, consolidated into ^c0n50l1d", '
    f'"on": "2025-12-02", "sha": "{SHA}"}}',
    '{"seq": 10, "ts": "2025-12-02T07:00:00+00:00", "event": "derive", "id": "c0n50l1d", '
    '"from": ["m1m1m1m1", "m2m2m2m2"]}',
    '{"seq": 11, "ts": "2025-12-02T07:00:00+00:00", "event": "confidence", '
    '"id": "0p1n10n1", "c": 0.763, "from": 0.7, "support": ["e5f6g7h8"], "contradict": [], '
    f'"on": "2025-12-02", "sha": "{SHA}"}}',
    '{"seq": 12, "ts": "2025-12-02T07:00:00+00:00", "event": "expire", "id": "v4l1d7ll", '
    f'"reason": "valid until 2025-11-15", "sha": "{SHA}"}}',
    '{"seq": 13, "ts": "2025-12-02T07:00:00+00:00", "event": "archive", "id": "d3c4y3d0", '
    f'"reason": "decay", "sha": "{SHA}"}}',
    '{"seq": 14, "ts": "2025-12-02T08:00:00+00:00", "event": "archive", "id": "f0rg0773", '
    '"reason": "forgotten by hand"}',
    '{"seq": 15, "ts": "2025-12-02T09:00:00+00:00", "event": "reset", "id": "m1m1m1m1", '
    '"state": {"status": null, "reason": null, "superseded_by": null, "superseded_on": null, '
    '"supersedes": [], "content_sha": "aaaabbbbccccdddd"}, "reason": "reflect --undo", '
    '"undoes": [9]}',
    '{"seq": 16, "ts": "2025-12-02T09:00:00+00:00", "event": "restore", "id": "d3c4y3d0", '
    '"reason": "reflect --undo"}',
    '{"seq": 17, "ts": "2025-12-02T09:00:00+00:00", "event": "confidence", '
    '"id": "0p1n10n1", "c": 0.7, "reason": "reflect --undo", "on": null}',
    '{"seq": 18, "ts": "2025-12-02T09:00:00+00:00", "event": "derive", "id": "c0n50l1d", '
    '"from": []}',
    '{"seq": 19, "ts": "2025-12-03T10:00:00+00:00", "event": "core", "id": "core:Human", '
    '"block": "Human", "op": "append", "before": null, "text": "Peter, in Vienna.", '
    '"after": "5be1c0ffee000001"}',
    '{"seq": 20, "ts": "2025-12-03T10:05:00+00:00", "event": "core", "id": "core:Human", '
    '"block": "Human", "op": "undo", "before": "Peter, in Vienna.", "text": null, '
    '"after": null, "undoes": 19}',
    '{"seq": 21, "ts": "2025-12-03T11:00:00+00:00", "event": "purge", "id": "s3cr3t00", '
    f'"purged_sha256": "{"ab" * 32}", "sha": "{SHA}"}}',
    '{"seq": 22, "ts": "2025-12-03T12:00:00+00:00", "event": "pin", "id": "p7w2n4rb", '
    '"until": "2026-01-01", "sha": "fedcba9876543210"}',
    '{"seq": 23, "ts": "2025-12-03T12:30:00+00:00", "event": "use", "id": "p7w2n4rb", '
    '"sha": "fedcba9876543210", "via": "mcp"}',
    '{"seq": 24, "ts": "2025-12-03T13:00:00+00:00", "event": "supersede", "id": "z9y8x7w6", '
    '"reason": "no by", "judge": "manual", "on": null}',
    '{"seq": 25, "ts": "2025-12-04T08:00:00+00:00", "event": "conflict", "id": "a1b2c3d4", '
    '"by": "p7w2n4rb", "reason": "location: \'Berlin\' became \'Zurich\', but the two were '
    f'written together", "judge": "rules", "on": "2025-12-04", "sha": "{SHA}"}}',
    '{"seq": 26, "ts": "2025-12-04T09:00:00+00:00", "event": "dismiss", "id": "a1b2c3d4", '
    f'"by": "p7w2n4rb", "reason": "both hold", "sha": "{SHA}", "source": "cli:ann"}}',
]


def chained(bodies: list[str]) -> str:
    """The journal text of these bodies, each line hash-chained to the one before (the
    format's rule, written out here rather than taken from memfold)."""
    prev, lines = "0" * 16, []
    for body in bodies:
        canonical = json.dumps(json.loads(body), sort_keys=True, ensure_ascii=False,
                               separators=(",", ":"))
        digest = hashlib.sha256(f"{prev}\n{canonical}".encode()).hexdigest()[:16]
        lines.append(f'{body[:-1]}, "prev": "{prev}", "hash": "{digest}"}}\n')
        prev = digest
    return "".join(lines)


def journal_at(root: Path, text: str = "") -> Journal:
    root.mkdir(parents=True, exist_ok=True)
    (root / ".memory").mkdir(exist_ok=True)
    if text:
        (root / JOURNAL_NAME).write_bytes(text.encode())
    return Journal(root, WriteLock(root / ".memory" / "write.lock"))


def test_a_journal_of_every_kind_reads_typed_and_writes_back_byte_for_byte(
        tmp_path: Path) -> None:
    text = chained(BODIES)
    read = journal_at(tmp_path / "old", text).read()
    assert read.warnings == []
    assert {type(e.record) for e in read.events} == {*KINDS.values(), Unknown}
    assert "".join(e.line() + "\n" for e in read.events) == text
    copy = journal_at(tmp_path / "new")
    for event in read.events:  # appended again, typed, one event at a time with its stamp
        [written] = copy.append([event.record], ts=event.ts)
        assert written == event
    assert (tmp_path / "new" / JOURNAL_NAME).read_text(encoding="utf-8") == text
    assert copy.verify() == (len(BODIES), None)


def test_each_line_is_its_kind_with_typed_fields(tmp_path: Path) -> None:
    events = journal_at(tmp_path, chained(BODIES)).read().events
    assert events[0].record == Retain(id="k3x9q2ma", ids=("k3x9q2ma", "p7w2n4rb"), by="cli",
                                      shas=("1f0e2d3c4b5a6978", "8796a5b4c3d2e1f0"))
    assert events[1].record == Retain(id="z9y8x7w6", ids=("z9y8x7w6",), by="agent:claude")
    assert events[5].record == Supersede(id="a1b2c3d4", by="e5f6g7h8", judge="manual",
                                         reason="replaced by hand", on=None, sha=SHA)
    assert events[16].record == Confidence(id="0p1n10n1", c=0.7, reason="reflect --undo",
                                           on=None)
    assert isinstance(events[14].record, Reset) and events[14].record.undoes == (9,)
    assert events[19].record == Core(id="core:Human", block="Human", op="undo",
                                     before="Peter, in Vienna.", text=None, after=None,
                                     undoes=19)
    assert events[22].record == Use(id="p7w2n4rb", sha="fedcba9876543210",
                                    extra={"via": "mcp"})
    # what the history command and the index show of an event is unchanged
    assert events[2].event == "note" and events[2].id == "k3x9q2ma"
    assert events[2].data == {"rev": 1, "note": "checked with Peter — in Zürich", "sha": SHA}


def test_an_unknown_kind_or_a_line_that_does_not_fit_its_kind_is_kept(tmp_path: Path) -> None:
    journal = journal_at(tmp_path, chained(BODIES))
    pin, _, broken = journal.read().events[21:24]
    assert pin.record == Unknown(id="p7w2n4rb", name="pin",
                                 extra={"until": "2026-01-01", "sha": "fedcba9876543210"})
    assert broken.record == Unknown(id="z9y8x7w6", name="supersede",
                                    extra={"reason": "no by", "judge": "manual", "on": None})
    journal.append([Use(id="p7w2n4rb")], ts="2025-12-04T00:00:00+00:00")  # after them
    assert journal.verify() == (len(BODIES) + 1, None)
    assert (tmp_path / JOURNAL_NAME).read_text(encoding="utf-8").startswith(chained(BODIES))


def test_the_fold_over_typed_events_gives_the_states_it_gave_before(tmp_path: Path) -> None:
    events = journal_at(tmp_path, chained(BODIES)).read().events
    states = replay(events[:-1])
    found = {i: {k: v for k, v in dataclasses.asdict(s).items() if v not in (None, [], 0)}
             for i, s in states.items()}
    # as the string-keyed fold of the code before typed events left them (and the day each
    # fact was first retained, since the index's schema 8)
    assert found == {
        "k3x9q2ma": {"id": "k3x9q2ma", "reason": "restored by hand", "rev": 1,
                     "note": "checked with Peter — in Zürich",
                     "last_used": "2025-12-01T09:00:00+00:00", "uses": 1, "content_sha": SHA,
                     "origin": "cli", "retained_on": "2025-11-30"},
        "p7w2n4rb": {"id": "p7w2n4rb", "rev": 1, "content_sha": "fedcba9876543210",
                     "origin": "cli", "uses": 1, "last_used": "2025-12-03T12:30:00+00:00",
                     "retained_on": "2025-11-30"},
        "z9y8x7w6": {"id": "z9y8x7w6", "origin": "agent:claude", "retained_on": "2025-11-30"},
        "a1b2c3d4": {"id": "a1b2c3d4", "status": "superseded", "reason": "replaced by hand",
                     "superseded_by": "e5f6g7h8", "superseded_on": "2025-12-01",
                     "content_sha": SHA},
        "e5f6g7h8": {"id": "e5f6g7h8", "supersedes": ["a1b2c3d4"]},
        "m1m1m1m1": {"id": "m1m1m1m1", "content_sha": "aaaabbbbccccdddd"},
        "c0n50l1d": {"id": "c0n50l1d"},
        "0p1n10n1": {"id": "0p1n10n1", "confidence": 0.7, "support": ["e5f6g7h8"],
                     "content_sha": SHA, "confidence_on": "2025-12-02"},
        "v4l1d7ll": {"id": "v4l1d7ll", "status": "expired", "reason": "valid until 2025-11-15",
                     "content_sha": SHA},
        "d3c4y3d0": {"id": "d3c4y3d0", "reason": "reflect --undo", "content_sha": SHA,
                     "last_used": "2025-12-02T09:00:00+00:00"},
        "f0rg0773": {"id": "f0rg0773", "status": "archived", "reason": "forgotten by hand"},
        "core:Human": {"id": "core:Human"},
        "s3cr3t00": {"id": "s3cr3t00", "content_sha": SHA},
    }
    # a supersede without `by` (which memfold never wrote) is kept, but folds into nothing
    assert replay(events) == states


def _value(hint: Any) -> st.SearchStrategy[Any]:
    """JSON values of a field's declared type."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any or origin is Mapping:
        leaf = st.none() | st.booleans() | st.integers() | st.text(max_size=8)
        return st.dictionaries(st.text(max_size=8), leaf | st.lists(leaf, max_size=3),
                               max_size=4)
    if args and origin is not tuple:  # X | None
        return st.one_of([_value(a) for a in args])
    if origin is tuple:
        return st.lists(_value(args[0]), max_size=4).map(tuple)
    simple: dict[Any, st.SearchStrategy[Any]] = {
        str: st.text(), int: st.integers(), type(None): st.none(),
        float: st.floats(allow_nan=False, allow_infinity=False) | st.integers()}
    return simple[hint]


@st.composite
def records(draw: st.DrawFn) -> Record:
    cls = draw(st.sampled_from(list(KINDS.values())))
    hints = typing.get_type_hints(cls)
    values = {f.name: draw(_value(hints[f.name])) for f in dataclasses.fields(cls)
              if f.name not in ("id", "extra")}
    return cls(id=draw(st.text(min_size=1)), **values)


@settings(max_examples=200, deadline=None)
@given(records())
def test_every_kind_round_trips_through_its_json(record: Record) -> None:
    line = json.dumps(record.to_dict(), ensure_ascii=False)
    again = from_dict(json.loads(line))
    assert again == record and json.dumps(again.to_dict(), ensure_ascii=False) == line


def _appends_to_the_journal(node: ast.AST) -> bool:
    """`<x>.journal.append(...)`, `journal.append(...)` or `Journal.append(...)`."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("append", "_append")):
        return False
    owner = node.func.value
    return (isinstance(owner, ast.Attribute) and owner.attr == "journal") \
        or (isinstance(owner, ast.Name) and owner.id in ("journal", "Journal"))


def test_only_the_ledger_appends_to_the_journal() -> None:
    package = Path(memfold.__file__).parent
    writers = sorted(str(path.relative_to(package)) for path in package.rglob("*.py")
                     if any(_appends_to_the_journal(node)
                            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))))
    assert writers == ["lifecycle/ledger.py"]
