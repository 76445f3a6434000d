"""C1 and C5: concurrent writers (docs/reliability.md).

C1 — WRITERS processes (start method 'spawn', so no connection crosses a fork) each retain
PER_WRITER facts into the same day while another process recalls in a loop.  Afterwards:
every fact present exactly once, in its writer's order, byte for byte; the file well formed;
the index equal to a rebuild; the recall loop never raised and never returned a fact that was
not exactly one a writer wrote.  Control: without the write lock, and with each append split
into two writes, facts are torn or lost.

C5 — memfold's write transaction (`BEGIN IMMEDIATE` with a busy timeout) under 8 processes
doing read-then-write transactions on a scratch database: no 'database is locked', no lost
increment.  Control: a plain (deferred) `BEGIN` fails with 'database is locked'.

Sizes: MEMFOLD_C1_WRITERS (8) x MEMFOLD_C1_PER_WRITER (250), the size the issue names:
2,000 facts into one day.  A retain parses and indexes only the lines it appends, so a day's
cost grows linearly with its facts (it used to re-read the whole file on every retain, and
8 x 100 took about 90 s; 8 x 250 now takes about a minute on 2 cores with the reader running).
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import random
import re
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing.queues import Queue
from pathlib import Path
from typing import Any

import pytest

from conftest import ROOT, fresh_dump
from memfold.index import open_index
from memfold.memory import Memory
from memfold.workspace.format import BULLET, parse_document, split_lines

WRITERS = int(os.environ.get("MEMFOLD_C1_WRITERS", "8"))
PER_WRITER = int(os.environ.get("MEMFOLD_C1_PER_WRITER", "250"))
DAY = "2025-11-27"
DAILY = f"memory/{DAY}.md"
FILLER = "αβγ 東京 naïve --> ok -- café ".split()
CONTENT = re.compile(r"(w\d+) fact (\d{4})\b.*")


@pytest.fixture(autouse=True)
def _lexical_recall(monkeypatch: pytest.MonkeyPatch) -> None:
    """Recall here exercises the store and the full-text index; vectors are out of scope."""
    monkeypatch.setenv("MEMFOLD_RECALL_MODE", "lexical")


def content(tag: str, n: int) -> str:
    """What writer `tag` retains as its n-th fact: about 20 B to 1 KB (log-uniform), with
    multibyte UTF-8 and `-->` inside (deterministic, so a reader can check it byte for byte)."""
    rng = random.Random(f"{tag}/{n}")
    size = int(10 ** rng.uniform(0.0, 2.2))
    return f"{tag} fact {n:04d} " + " ".join(rng.choice(FILLER) for _ in range(size))


def _two_part_append(path: Path, data: bytes) -> None:
    """The control's append: two writes, with room for another writer between them."""
    half = len(data) // 2
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, data[:half])
        time.sleep(0.0005)
        os.write(fd, data[half:])
    finally:
        os.close(fd)


@contextmanager
def _no_lock(self: Any) -> Iterator[None]:
    yield


def _writer(root: str, tag: str, count: int, go: str, control: bool,
            out: Queue[tuple[str, list[str], str]]) -> None:
    if control:
        import memfold.retain
        import memfold.workspace.files
        memfold.workspace.files.WriteLock.held = _no_lock  # type: ignore[assignment,method-assign]
        memfold.retain.append_durably = _two_part_append  # type: ignore[attr-defined]
    ids: list[str] = []
    error = ""
    while not os.path.exists(go):
        time.sleep(0.001)
    try:
        with Memory.open(root) as memory:
            for n in range(count):
                result = memory.retain(f"W @{tag}: {content(tag, n)}", date=DAY)
                ids.extend(f.id for f in result.facts)
    except Exception as exc:  # noqa: BLE001 - reported to the parent
        error = f"{type(exc).__name__}: {exc}"
    out.put((tag, ids, error))


def _recaller(root: str, go: str, stop: str, out: Queue[tuple[int, int, list[str]]]) -> None:
    """Recall in a loop while the writers write; every hit must be a whole, known fact."""
    calls = hits = 0
    problems: list[str] = []
    while not os.path.exists(go):
        time.sleep(0.001)
    with Memory.open(root) as memory:
        while not os.path.exists(stop) and len(problems) < 20:
            try:
                result = memory.recall(random.choice(["fact", "café", "東京", "naïve ok"]),
                                       k=10)
            except Exception as exc:  # noqa: BLE001 - any exception is the finding
                problems.append(f"recall raised {type(exc).__name__}: {exc}")
                continue
            calls += 1
            for hit in result.hits:
                hits += 1
                fact = hit.fact
                m = CONTENT.fullmatch(fact.content)
                if (fact.path != DAILY or m is None or not fact.explicit_id
                        or fact.content != content(m.group(1), int(m.group(2)))):
                    problems.append(f"half-written or unknown fact: {fact.id} "
                                    f"{fact.content[:80]!r}")
    out.put((calls, hits, problems))


def run_writers(root: Path, tmp: Path, writers: int, per_writer: int, *, control: bool,
                recall: bool) -> tuple[dict[str, list[str]], list[str], tuple[int, int,
                                                                                list[str]]]:
    context = multiprocessing.get_context("spawn")
    go, stop = str(tmp / "go"), str(tmp / "stop")
    results: Queue[tuple[str, list[str], str]] = context.Queue()
    recalled: Queue[tuple[int, int, list[str]]] = context.Queue()
    procs = [context.Process(target=_writer, args=(str(root), f"w{k}", per_writer, go,
                                                   control, results))
             for k in range(writers)]
    reader = context.Process(target=_recaller, args=(str(root), go, stop, recalled))
    for proc in procs + ([reader] if recall else []):
        proc.start()
    time.sleep(0.5)
    Path(go).touch()
    ids: dict[str, list[str]] = {}
    errors: list[str] = []
    for _ in procs:
        tag, got, error = results.get(timeout=600)
        ids[tag] = got
        if error:
            errors.append(f"{tag}: {error}")
    Path(stop).touch()
    recall_figures = recalled.get(timeout=60) if recall else (0, 0, [])
    for proc in procs + ([reader] if recall else []):
        proc.join(60)
    return ids, errors, recall_figures


@pytest.mark.slow
def test_c1_writers_and_a_reader_on_one_day(workspace: Path, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    started = time.perf_counter()
    ids, errors, (calls, hits, problems) = run_writers(workspace, tmp_path, WRITERS, PER_WRITER,
                                                        control=False, recall=True)
    assert errors == []
    total = WRITERS * PER_WRITER
    all_ids = [i for tag in sorted(ids) for i in ids[tag]]
    assert len(all_ids) == len(set(all_ids)) == total

    data = (workspace / DAILY).read_bytes()
    assert data.endswith(b"\n") and data.count(b"## Retain") == 1
    lines = split_lines(data.decode("utf-8"))
    assert lines[:3] == [f"# {DAY}", "", "## Retain"]
    assert [line for line in lines[3:] if not BULLET.match(line)] == []
    doc = parse_document(DAILY, data)
    assert doc.warnings == ()
    assert len(doc.facts) == total and all(f.explicit_id for f in doc.facts)
    present = [f.id for f in doc.facts]
    assert sorted(present) == sorted(all_ids)  # each present once
    for tag, mine in ids.items():  # in its writer's order, byte for byte
        facts = [f for f in doc.facts if f.entities == (tag,)]
        assert [f.id for f in facts] == mine
        assert [f.content for f in facts] == [content(tag, n) for n in range(PER_WRITER)]

    with Memory.open(workspace) as memory:
        memory.index()
        dump = memory.index_backend.dump()
        hits_fts = memory.index_backend.db.execute(
            "SELECT COUNT(*) FROM facts_fts WHERE facts_fts MATCH '\"fact\"'").fetchone()[0]
    fact_ids = sorted(str(row[1]) for row in dump if row[0] == "fact" and row[2] == DAILY
                      and row[5] != "text")
    assert fact_ids == sorted(all_ids) and hits_fts >= total
    assert dump == fresh_dump(workspace, tmp_path)  # the index equals a rebuild

    assert problems == [] and calls > 0
    with capsys.disabled():
        print(f"\nC1 writers: {WRITERS}x{PER_WRITER} present={len(present)}/{total} torn=0 "
              f"duplicates=0 order=kept recall_calls={calls} recall_hits={hits} "
              f"recall_errors=0 half_written=0 t={time.perf_counter() - started:.0f}s")


@pytest.mark.slow
def test_c1_control_without_the_lock_tears_or_loses(workspace: Path, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    with Memory.open(workspace) as memory:  # the day exists: every writer appends
        memory.retain("W @seed: the day file exists", date=DAY)
    ids, errors, _ = run_writers(workspace, tmp_path, 4, 40, control=True, recall=False)
    data = (workspace / DAILY).read_bytes()
    doc = parse_document(DAILY, data)
    expected = {(tag, n) for tag in ids for n in range(40)}
    whole = {(m.group(1), int(m.group(2))) for f in doc.facts if f.explicit_id
             if (m := CONTENT.fullmatch(f.content)) and f.content == content(m.group(1),
                                                                             int(m.group(2)))}
    torn = len(doc.warnings) + sum(1 for f in doc.facts if not f.explicit_id)
    lost = len(expected - whole)
    with capsys.disabled():
        print(f"\nC1 control (no lock, two-part appends): torn={torn} lost={lost} "
              f"errors={len(errors)}")
    assert torn + lost + len(errors) > 0


# -- C5: BEGIN IMMEDIATE against a plain BEGIN ------------------------------------------------


def _transactions(path: str, count: int, immediate: bool, go: str,
                  out: Queue[tuple[int, int]]) -> None:
    from memfold.index.sqlite.backend import SqliteIndex

    index = SqliteIndex(Path(path))
    locked = done = 0
    while not os.path.exists(go):
        time.sleep(0.001)
    for _ in range(count):
        try:
            if immediate:  # memfold's write transaction
                with index._writing() as db:
                    _increment(db)
            else:  # the control: deferred, upgraded to a write lock after reading
                db = index.db
                db.execute("BEGIN")
                try:
                    _increment(db)
                    db.execute("COMMIT")
                except BaseException:
                    db.execute("ROLLBACK")
                    raise
            done += 1
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc):
                raise
            locked += 1
        except Exception as exc:
            if "locked" not in str(exc):
                raise
            locked += 1
    index.close()
    out.put((done, locked))


def _increment(db: sqlite3.Connection) -> None:
    row = db.execute("SELECT value FROM meta WHERE key = 'counter'").fetchone()
    # the read-then-write window: wide enough that the control's deferred transactions
    # overlap even when the suite's other process keeps a core busy (at 0.2 ms, 8 processes
    # once ran one after another on 2 loaded cores and the control saw no lock)
    time.sleep(0.002)
    value = int(row[0]) + 1 if row else 1
    db.execute("INSERT OR REPLACE INTO meta VALUES ('counter', ?)", (str(value),))


C5_PROCS, C5_COUNT = 8, 60


def run_transactions(tmp: Path, immediate: bool, procs: int = C5_PROCS,
                     count: int = C5_COUNT) -> tuple[int, int, int]:
    from memfold.index.sqlite.backend import SqliteIndex

    path = tmp / f"scratch-{immediate}.sqlite"
    SqliteIndex(path).close()
    context = multiprocessing.get_context("spawn")
    go = str(tmp / f"go-{immediate}")
    out: Queue[tuple[int, int]] = context.Queue()
    workers = [context.Process(target=_transactions, args=(str(path), count, immediate, go, out))
               for _ in range(procs)]
    for w in workers:
        w.start()
    time.sleep(0.5)
    Path(go).touch()
    figures = [out.get(timeout=120) for _ in workers]
    for w in workers:
        w.join(30)
    db = sqlite3.connect(path)
    counter = int(db.execute("SELECT value FROM meta WHERE key = 'counter'").fetchone()[0])
    db.close()
    return sum(f[0] for f in figures), sum(f[1] for f in figures), counter


@pytest.mark.slow
def test_c5_begin_immediate_never_fails_and_plain_begin_does(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    done, locked, counter = run_transactions(tmp_path, immediate=True)
    c_done, c_locked, c_counter = run_transactions(tmp_path, immediate=False)
    with capsys.disabled():
        print(f"\nC5 sqlite: BEGIN IMMEDIATE {C5_PROCS}x{C5_COUNT} done={done} locked={locked} "
              f"counter={counter}; control plain BEGIN done={c_done} locked={c_locked} "
              f"counter={c_counter}")
    total = C5_PROCS * C5_COUNT
    assert (done, locked, counter) == (total, 0, total)
    assert c_locked > 0  # the control must fail
    assert c_counter == c_done  # what committed was counted once


def test_memfold_writes_begin_immediate() -> None:
    """Static: every write transaction in the index starts with BEGIN IMMEDIATE."""
    source = (ROOT / "src/memfold/index/sqlite/backend.py").read_text()
    begins = re.findall(r"execute\(\"(BEGIN[^\"]*)\"\)", source)
    assert begins and set(begins) == {"BEGIN IMMEDIATE"}
    assert hashlib.sha256(source.encode()).hexdigest()  # the file was read



def test_indexes_opened_at_once_on_a_new_file_all_open(tmp_path: Path) -> None:
    """Many openers of one new index at once: the file starts in rollback mode and each
    switches it to WAL, which takes the file for itself — SQLite does not wait on a busy
    file for that (its busy handler is not run), so some failed at once with "database is
    locked" (on 2 cores, a trial in 5 or 6 of 40 before).  The switch now waits within the
    busy timeout."""
    failed: list[str] = []
    for trial in range(40):
        path = tmp_path / f"{trial}" / "index.sqlite"
        path.parent.mkdir()
        start = threading.Barrier(8)

        def open_one(path: Path = path, start: threading.Barrier = start) -> None:
            start.wait()
            try:
                open_index(path).close()
            except Exception as exc:  # noqa: BLE001 - every failure is the finding
                failed.append(f"{type(exc).__name__}: {exc}")

        threads = [threading.Thread(target=open_one) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert failed == []
