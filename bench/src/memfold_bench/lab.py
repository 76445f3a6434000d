"""`memfold bench lab`: one set of records in a JSON file, in SQLite and in memfold.

The lab asks when a plain file is enough for an agent's memory and which work a database
takes off the application.  It fixes a record contract first — id, text, parent id, revision,
note and the SHA-256 of the source bundle — then keeps the same generated records (`--rows`,
a four-way tree: record i's parent is (i - 1) // 4) in three places:

- `json` — one JSON file, parsed whole by every query; writers share an flock and replace
  the file atomically (`lab_stores.JsonStore`);
- `sqlite` — one table with an index on `parent`; compare-and-set is a conditional UPDATE
  (`lab_stores.SqliteStore`);
- `memfold` — a memfold workspace with one Retain bullet per record, asked through
  `Memory`'s public API (`lab_memfold.MemfoldColumn`, whose docstring gives the mapping).

It checks, and records each check as "passed" or "failed: why" in the JSON:

1. same answers — a batch of 100 lookups by id, 5 case-sensitive substring searches
   (`group0 ` ... `group4 `) and 10 children-of-parent queries gives the same answers from
   every store (memfold: id, text and parent; revisions and notes are checked by 3, 5 and
   6), in every repeat;
2. timing — that batch, `--repeat` times, the store order reversed every other repeat (the
   machine is shared and noisy); medians are reported, every sample is kept.  Connections
   are open and warm, and the provenance check runs before the timer starts;
3. the race — two real processes read revision 0, wait for a go signal and both
   compare-and-set (memfold: `Memory.note(id, text, rev=0)` in each): exactly one prints
   `applied`, the other `stale`; the record ends at revision 1 with the winner's note, and a
   later compare-and-set at revision 0 is refused;
4. stale source — after the source of record 0 is edited, a provenance check refuses the
   record ("source changed; rebuild required") until a rebuild (memfold:
   `Memory.get(id, strict=True)` raises `SourceChanged` for the edited file's records);
5. rebuild — keeps every note and raises every revision by one, because the bundle changed;
   a second rebuild of an unchanged bundle raises nothing.  memfold's rebuild is `rm -r
   .memory` and `Memory.index(full=True)`: the note stays, the text is the new one, and only
   the edited record's revision rises by one (a revision counts notes and text changes;
   record 0 ends at rev 2, as in the lab stores), every other record is as before;
6. backup and restore — a backup taken, the store changed, the backup restored: the
   contents equal those at backup time.  memfold's backup is a copy of the workspace's
   Markdown and `journal.jsonl` (not `.memory`), restored by rebuilding the copy's index:
   every record's id, text, parent, revision and note equal the original's.

The group `json_vs_sqlite` checks that the two lab stores hold equal records after the build
and after the rebuild.  The command exits 1 if any check failed (the JSON is written first).
The figures are seconds for a whole batch, not per-request latency; they say nothing about
cold starts, write throughput, concurrent rebuilds or crash safety, which the lab does not
test.  Everything happens in a temporary directory that is removed afterwards.
"""

from __future__ import annotations

import platform
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any, Protocol

import click

from memfold import __version__

from .index_bench import duration, output_options, save_result
from .lab_memfold import (
    Held,
    MemfoldColumn,
    block_id,
    copy_workspace,
    read_held,
    rebuilt_from_scratch,
)
from .lab_race import RACE_KEY, RACE_NOTE, RaceResult, race
from .lab_stores import (
    SOURCE_NAME,
    STALE_MESSAGE,
    JsonStore,
    SourceRow,
    SqliteStore,
    StaleSource,
    Store,
    fresh,
    open_store,
    source_sha,
    write_source,
)

LOOKUPS, TERMS, PARENTS = 100, 5, 10
FAN_OUT = 4
FILLER_WORDS = 20
PASSED = "passed"
EDITED_KEY = 0
EDITED_TEXT = "rewritten fact 0 after its source was reviewed"
LATE_NOTE = "a late writer still at revision 0"
KINDS = ("lookup", "search", "children")
SCOPE = (f"{LOOKUPS} lookups by id, {TERMS} case-sensitive substring searches and {PARENTS} "
         "children-of-parent queries per batch; seconds per whole batch; warm: stores open and "
         "queried once before timing, provenance checked before the timer; json parses its "
         "file on every query, sqlite uses its primary key and parent index, both scan for "
         "substrings; memfold answers through Memory.get, recall (+ exact check) and about")
Json = dict[str, Any]
Answers = dict[str, list[Any]]
Log = Callable[[str], None]


class Reader(Protocol):
    name: str

    def get(self, key: int) -> Mapping[str, object]: ...
    def search(self, term: str) -> list[int]: ...
    def children(self, parent: int) -> list[int]: ...


class CheckFailed(Exception):
    """A lab check found a store doing something other than the contract says."""


def require(condition: bool, message: str) -> None:
    if not condition:
        raise CheckFailed(message)


def attempt(check: Callable[[], None]) -> str:
    """Run one check; any exception is its failure, reported rather than raised."""
    try:
        check()
    except Exception as exc:  # the lab records every failure and goes on
        return f"failed: {type(exc).__name__}: {exc}"
    return PASSED


# -- the records and the questions ----------------------------------------------------------


def text_of(key: int) -> str:
    words = " ".join(f"w{(key * 7 + j) % 97}" for j in range(FILLER_WORDS))
    return f"group{key % TERMS} fact {key} {words}"


def source_rows(rows: int) -> list[SourceRow]:
    return [SourceRow(id=i, text=text_of(i), parent=None if i == 0 else (i - 1) // FAN_OUT)
            for i in range(rows)]


@dataclass(frozen=True)
class Batch:
    ids: tuple[int, ...]
    terms: tuple[str, ...]
    parents: tuple[int, ...]

    @classmethod
    def spread_over(cls, rows: int) -> Batch:
        step = max(1, rows // 100)
        return cls(ids=tuple(i * rows // LOOKUPS for i in range(LOOKUPS)),
                   terms=tuple(f"group{g} " for g in range(TERMS)),
                   parents=tuple(j * step for j in range(PARENTS)))


def ask(reader: Reader, batch: Batch) -> tuple[Answers, dict[str, float]]:
    """Every answer of the batch, and the seconds each kind of question took."""
    questions: tuple[tuple[str, Callable[[Any], object], Sequence[object]], ...] = (
        ("lookup", reader.get, batch.ids), ("search", reader.search, batch.terms),
        ("children", reader.children, batch.parents))
    answers: Answers = {}
    seconds: dict[str, float] = {}
    for kind, question, arguments in questions:
        started = time.perf_counter()
        answers[kind] = [question(a) for a in arguments]
        seconds[kind] = time.perf_counter() - started
    return answers, seconds


def contract_view(answers: Answers) -> Answers:
    """Answers as memfold can give them: records reduced to id, text and parent."""
    views = [{k: r[k] for k in ("id", "text", "parent")} for r in answers["lookup"]]
    return {**answers, "lookup": views}


# -- the lab ---------------------------------------------------------------------------------


class Lab:
    """The three stores over one set of records in a directory, and the checks run on them."""

    def __init__(self, root: Path, rows: int) -> None:
        self.root = root
        self.rows = source_rows(rows)
        self.source = root / SOURCE_NAME
        write_source(self.source, self.rows)
        self.source_bytes = self.source.stat().st_size
        self.source_sha = source_sha(self.source)
        self.batch = Batch.spread_over(rows)
        self.stores: dict[str, Store] = {}
        self.column: MemfoldColumn | None = None
        self.checks: dict[str, dict[str, str]] = {}
        self.samples: list[Json] = []
        self.mismatches: dict[str, list[int]] = {}
        self.reference: Answers = {}
        self.held_before_edit: list[Held] = []

    def open(self) -> None:
        for kind in ("json", "sqlite"):
            self.stores[kind] = open_store(kind, self.root)
            self.stores[kind].rebuild()
        self.column = MemfoldColumn(self.root / "workspace", self.rows)

    def close(self) -> None:
        for store in self.stores.values():
            store.close()
        if self.column is not None:
            self.column.close()

    @property
    def memfold(self) -> MemfoldColumn:
        assert self.column is not None
        return self.column

    def readers(self) -> dict[str, Reader]:
        return {**self.stores, "memfold": self.memfold}

    def expected(self, name: str) -> Answers:
        return contract_view(self.reference) if name == "memfold" else self.reference

    def record(self, name: str, check: str, status: str) -> None:
        self.checks.setdefault(name, {})[check] = status


# -- 1 and 2: the same answers, timed --------------------------------------------------------


def first_answers(lab: Lab) -> Json:
    """Ask every store once (this also warms them); json's answers are the reference."""
    lab.reference = ask(lab.stores["json"], lab.batch)[0]
    column = lab.memfold
    column.recalled = column.kept = 0
    for name, reader in lab.readers().items():
        if ask(reader, lab.batch)[0] != lab.expected(name):
            lab.mismatches.setdefault(name, []).append(0)
    same_records = lab.stores["json"].all() == lab.stores["sqlite"].all()
    lab.record("json_vs_sqlite", "same_records_after_build", PASSED if same_records
               else "failed: the two stores built different records")
    return {"recall_hits": column.recalled, "kept_by_exact_check": column.kept,
            "terms": list(lab.batch.terms)}


def order_of(repeat: int, names: Sequence[str]) -> list[str]:
    return list(names) if repeat % 2 else list(reversed(names))


def check_provenance(lab: Lab, name: str) -> None:
    """The untimed step before each timed batch: is the source still the one built from?"""
    if name in lab.stores:
        fresh(lab.stores[name], RACE_KEY)
    else:
        lab.memfold.get(RACE_KEY, strict=True)


def timed_batches(lab: Lab, repeat: int, log: Log) -> None:
    readers = lab.readers()
    for round_ in range(1, repeat + 1):
        log(f"query batch, repeat {round_}/{repeat}")
        for name in order_of(round_, list(readers)):
            check_provenance(lab, name)
            answers, seconds = ask(readers[name], lab.batch)
            if answers != lab.expected(name):
                lab.mismatches.setdefault(name, []).append(round_)
            # `mode` is design note 000's name for the field; `store` stays for readers of
            # the earlier reports
            lab.samples.append({"mode": name, "store": name, "repeat": round_,
                                "seconds": sum(seconds.values()), "by_kind": seconds})
    for name in readers:
        bad = lab.mismatches.get(name)
        lab.record(name, "same_answers", PASSED if not bad else
                   f"failed: answers differ from json's in repeat(s) {bad} (0 = first)")


# -- 3: two processes race one compare-and-set ----------------------------------------------


def check_race(lab: Lab, store: Store) -> None:
    race_held(race(store.name, lab.root), store.get, store.cas,
              "a compare-and-set at revision 0 applied")


def check_race_memfold(lab: Lab) -> None:
    column = lab.memfold
    race_held(race("memfold", column.root), column.held, column.note,
              "Memory.note at revision 0 applied")


def race_held(result: RaceResult, get: Callable[[int], Mapping[str, Any]],
              cas: Callable[[int, int, str], bool],
              late_applied: str) -> None:
    """Exactly one of the two racing writers applied its note, and it stays."""
    require(result.read == [0, 0], f"the writers read revisions {result.read}, not 0 and 0")
    require(result.outcomes == ["applied", "stale"],
            f"the writers printed {result.outcomes}, not one applied and one stale")
    record = get(RACE_KEY)
    require(record["rev"] == 1 and record["note"] == RACE_NOTE,
            f"after the race: rev {record['rev']}, note {record['note']!r}")
    require(not cas(RACE_KEY, 0, LATE_NOTE), late_applied)
    require(get(RACE_KEY)["note"] == RACE_NOTE, "the winner's note was overwritten")


# -- 4 and 5: a changed source, refused until a rebuild that keeps notes --------------------


def edit_source(lab: Lab) -> None:
    old = lab.rows[EDITED_KEY]["text"]
    lab.rows[EDITED_KEY] = SourceRow(id=EDITED_KEY, text=EDITED_TEXT,
                                     parent=lab.rows[EDITED_KEY]["parent"])
    write_source(lab.source, lab.rows)
    lab.memfold.edit_source(EDITED_KEY, old, EDITED_TEXT)


def refuses(store: Store, key: int) -> bool:
    try:
        fresh(store, key)
    except StaleSource as exc:
        return str(exc) == STALE_MESSAGE
    return False


def check_stale_store(lab: Lab, store: Store) -> None:
    last = len(lab.rows) - 1
    require(refuses(store, EDITED_KEY), "the edited record was served from the old source")
    require(refuses(store, last), "an untouched record of the changed bundle was served")
    require(refuses(store, EDITED_KEY), "the edited record was served before a rebuild")


def answers_after_edit(lab: Lab, reader: Reader) -> None:
    group = lab.batch.terms[EDITED_KEY % TERMS]
    require(EDITED_KEY not in reader.search(group), f"{group!r} still finds the edited text")
    expected = [r["id"] for r in lab.rows if r["parent"] == EDITED_KEY]
    require(reader.children(EDITED_KEY) == expected, "the edit changed the children")


def check_rebuild(lab: Lab, store: Store) -> None:
    before = store.all()
    store.rebuild()
    after = store.all()
    require([r["rev"] for r in after] == [r["rev"] + 1 for r in before],
            "the rebuild did not raise every revision by one")
    require([r["note"] for r in after] == [r["note"] for r in before], "a note was lost")
    require(fresh(store, EDITED_KEY)["text"] == EDITED_TEXT, "the rebuild kept the old text")
    store.rebuild()
    require(store.all() == after, "a rebuild of an unchanged source changed the records")
    answers_after_edit(lab, store)


def check_stale_memfold(lab: Lab) -> None:
    column = lab.memfold
    require(column.refused(EDITED_KEY), "strict get served the edited record's old text")
    other = len(lab.rows) - 1
    if column.path_of(other) != column.path_of(EDITED_KEY):
        require(not column.refused(other), "strict get refused a record of an unchanged file")
    require(column.refused(EDITED_KEY), "strict get served the edited record before index")


def check_rebuild_memfold(lab: Lab) -> None:
    """`rm -r .memory` and `Memory.index(full=True)` after the edit of record 0's text."""
    column = lab.memfold
    before = lab.held_before_edit
    require(len(before) == len(lab.rows), "the records were not read before the edit")
    require(column.refused(EDITED_KEY), "strict get served the edited record before the rebuild")
    column.rebuild()
    view = column.get(EDITED_KEY, strict=True)
    require(view["text"] == EDITED_TEXT, "the rebuild kept the old text")
    after = column.held_all()
    old, new = before[EDITED_KEY], after[EDITED_KEY]
    require(new["note"] == old["note"] != "", f"the note was lost: {new['note']!r}")
    require(new["rev"] == old["rev"] + 1,
            f"the edited record's revision went from {old['rev']} to {new['rev']}, not +1")
    require(new["text"] == EDITED_TEXT and new["parent"] == old["parent"],
            "the edited record's text or parent is wrong after the rebuild")
    changed = [r["id"] for r, b in zip(after, before, strict=True)
               if r["id"] != EDITED_KEY and r != b]
    require(not changed, f"records other than the edited one changed: {changed[:5]}")
    column.rebuild()
    require(column.held_all() == after, "a rebuild of unchanged files changed the records")
    answers_after_edit(lab, column)


# -- 6: backup and restore -------------------------------------------------------------------


def open_copy(store: Store, path: Path) -> Store:
    return JsonStore(path, store.source) if store.name == "json" else SqliteStore(
        path, store.source)


def check_backup(lab: Lab, store: Store) -> None:
    target = lab.root / f"backup.{store.name}"
    snapshot = store.all()
    store.backup(target)
    copy = open_copy(store, target)
    try:
        require(copy.all() == snapshot, "the backup differs from the store")
    finally:
        copy.close()
    current = store.get(RACE_KEY)
    require(store.cas(RACE_KEY, current["rev"], "written after the backup"),
            "could not change the store after the backup")
    require(store.all() != snapshot, "the change after the backup did not show")
    store.restore(target)
    require(store.all() == snapshot, "the restored store differs from the backup")
    require(fresh(store, EDITED_KEY)["text"] == EDITED_TEXT, "the restored store is stale")


def check_backup_memfold(lab: Lab) -> None:
    """Copy the Markdown and the journal, rebuild the copy: every record as in the original."""
    column = lab.memfold
    target = lab.root / "backup.memfold"
    snapshot = column.held_all()
    copy_workspace(column.root, target)
    require(not (target / ".memory").exists(), "the backup copied the index")
    copy = rebuilt_from_scratch(target)
    try:
        restored = [read_held(copy, key) for key in range(len(lab.rows))]
        differ = [a["id"] for a, b in zip(restored, snapshot, strict=True) if a != b]
        require(not differ, f"the restored records differ from the original: {differ[:5]}")
        require(copy.get(block_id(EDITED_KEY), strict=True, use=False).fact.content
                == EDITED_TEXT, "the restored workspace is stale")
    finally:
        copy.close()


def lifecycle(lab: Lab, log: Log) -> None:
    """Checks 3-6, in an order where each starts from the state the last one left."""
    for store in lab.stores.values():
        log(f"{store.name}: two-process compare-and-set race")
        lab.record(store.name, "race", attempt(partial(check_race, lab, store)))
    log("memfold: two-process compare-and-set race")
    lab.record("memfold", "race", attempt(partial(check_race_memfold, lab)))
    lab.held_before_edit = lab.memfold.held_all()
    log("editing the source of record 0")
    edit_source(lab)
    for store in lab.stores.values():
        lab.record(store.name, "stale_source_refused",
                   attempt(partial(check_stale_store, lab, store)))
        lab.record(store.name, "rebuild_keeps_notes",
                   attempt(partial(check_rebuild, lab, store)))
    lab.record("memfold", "stale_source_refused", attempt(partial(check_stale_memfold, lab)))
    log("memfold: rm -r .memory and Memory.index(full=True)")
    lab.record("memfold", "rebuild_keeps_notes", attempt(partial(check_rebuild_memfold, lab)))
    same = lab.stores["json"].all() == lab.stores["sqlite"].all()
    lab.record("json_vs_sqlite", "same_records_after_rebuild", PASSED if same
               else "failed: the two stores hold different records after the rebuild")
    for store in lab.stores.values():
        log(f"{store.name}: backup and restore")
        lab.record(store.name, "backup_restore", attempt(partial(check_backup, lab, store)))
    log("memfold: backup (Markdown and journal) and restore (rebuild of the copy)")
    lab.record("memfold", "backup_restore", attempt(partial(check_backup_memfold, lab)))


# -- the report ------------------------------------------------------------------------------


def medians(samples: list[Json]) -> Json:
    out: Json = {}
    for name in dict.fromkeys(s["store"] for s in samples):
        mine = [s for s in samples if s["store"] == name]
        totals = [s["seconds"] for s in mine]
        out[name] = {"median": statistics.median(totals), "min": min(totals),
                     "max": max(totals),
                     "by_kind": {k: statistics.median(s["by_kind"][k] for s in mine)
                                 for k in KINDS}}
    return out


def ratios(middle: Json) -> Json:
    def ratio(top: str, bottom: str) -> Json:
        a, b = middle[top], middle[bottom]
        return {"batch": a["median"] / b["median"],
                "by_kind": {k: a["by_kind"][k] / b["by_kind"][k] for k in KINDS}}
    return {"sqlite/json": ratio("sqlite", "json"), "memfold/sqlite": ratio("memfold", "sqlite")}


MAPPING = {
    "id": "explicit block id ^r<6 digits>; lookup = Memory.get(id)",
    "text": "the Retain bullet's content, unchanged",
    "parent": "header entity @p<6 digits>; children = Memory.about('p<6 digits>')",
    "substring": "Memory.recall(term, k=rows, kinds=['world']), then only hits whose content "
                 "contains the exact term (recall is word search, not substring search)",
    "provenance": "Memory.get(id, strict=True) raises SourceChanged for records of an edited "
                  "file until Memory.index(); per file, not per bundle",
    "revision, note, compare-and-set": "Memory.get(id, use=False).rev and .note; "
                                       "Memory.note(id, text, rev=N), StaleRevision when it "
                                       "moved on; +1 per note and per text change",
    "rebuild": "rm -r .memory, then Memory.index(full=True) (notes live in journal.jsonl)",
    "backup": "copy the Markdown files and journal.jsonl (not .memory); restore = rebuild "
              "the copy's index",
}


def report(lab: Lab, repeat: int, search_stats: Json) -> Json:
    middle = medians(lab.samples)
    return {
        "benchmark": "lab",
        "checked_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "memfold": __version__,
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
        "platform": platform.platform(),
        "argv": sys.argv[1:],
        "source_bytes": lab.source_bytes,
        "source_sha": lab.source_sha,
        "memfold_markdown_bytes": lab.memfold.markdown_bytes(),
        "rows": len(lab.rows),
        "repeat": repeat,
        "scope": SCOPE,
        "batch": {"lookups": len(lab.batch.ids), "substrings": list(lab.batch.terms),
                  "parents": list(lab.batch.parents)},
        "memfold_mapping": MAPPING,
        "memfold_search": search_stats,
        "checks": lab.checks,
        "medians": middle,
        "ratios": ratios(middle),
        "samples": lab.samples,
    }


def failures(checks: Json) -> list[str]:
    return [f"{name}.{check}: {status}" for name, group in checks.items()
            for check, status in group.items()
            if status != PASSED]


def run_lab(rows: int, repeat: int, log: Log) -> Json:
    with tempfile.TemporaryDirectory(prefix="memfold-lab-") as tmp:
        lab = Lab(Path(tmp), rows)
        try:
            log(f"writing {rows} records to json, sqlite and a memfold workspace")
            lab.open()
            search_stats = first_answers(lab)
            timed_batches(lab, repeat, log)
            lifecycle(lab, log)
            return report(lab, repeat, search_stats)
        finally:
            lab.close()


def table(result: Json) -> list[str]:
    middle = result["medians"]
    lines = [f"{'store':<10}{'batch':>12}{'lookups':>12}{'substrings':>12}{'children':>12}"]
    for name, figures in middle.items():
        kinds = "".join(f"{duration(figures['by_kind'][k]):>12}" for k in KINDS)
        lines.append(f"{name:<10}{duration(figures['median']):>12}{kinds}")
    for name, ratio in result["ratios"].items():
        kinds = "".join(f"{ratio['by_kind'][k]:>11.2f}x" for k in KINDS)
        lines.append(f"{name:<14}{ratio['batch']:>7.2f}x{kinds}")
    return lines


def check_lines(checks: Json) -> list[str]:
    return [f"{name:<16}" + ", ".join(f"{check} {status}" for check, status in group.items())
            for name, group in checks.items()]


@click.command("lab")
@click.option("--rows", default=1000, show_default=True, type=click.IntRange(min=10),
              help="Records in each store.")
@click.option("--repeat", default=3, show_default=True, type=click.IntRange(min=1),
              help="Timed batches per store; the median is reported.")
@output_options("benchmarks/results/memory-results.json")
def lab_command(rows: int, repeat: int, out: Path, as_json: bool) -> None:
    """Keep the same records in a JSON file, in SQLite and in memfold; compare and check them.

    Times a batch of lookups, substring searches and children-of-parent queries on each
    store, and checks the record contract: the same answers everywhere, one winner when two
    processes compare-and-set at once, a changed source refused until a rebuild, notes kept
    by the rebuild, and backup and restore.  Exits 1 if a check fails.

    \b
    Example:
      memfold bench lab --rows 1000 --repeat 3
    """
    result = run_lab(rows, repeat, lambda msg: click.echo(msg, err=True))
    if not save_result(result, out, as_json=as_json):
        click.echo(f"memfold bench lab: {rows:,} records ({result['source_bytes']:,} source "
                   f"bytes), medians of {repeat}; python {result['python']}, sqlite "
                   f"{result['sqlite']}, {result['platform']}")
        for line in [*table(result), "", *check_lines(result["checks"])]:
            click.echo(line)
    click.echo(f"wrote {out}", err=True)
    if failed := failures(result["checks"]):
        raise click.ClickException(f"{len(failed)} check(s) failed: " + "; ".join(failed))
