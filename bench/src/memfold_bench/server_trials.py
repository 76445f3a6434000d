"""`memfold bench server-trials`: many `memfold serve` replicas on one PostgreSQL database,
checked write by write, through replica crashes and database restarts.

A private PostgreSQL cluster (memfold_bench.pg_cluster) gets a database set up as
docs/server.md sets one up, a tenant and a token; real `memfold serve` processes serve it.
Each run writes to a bank of its own, then exports the bank (GET /v1/banks/B/export: the
files PostgreSQL holds) and checks it against what the writers were told.

- replicas: W writers per replica retain R bullets each, every bullet ending in an explicit
  block id (`^id`, docs/format.md), while pairs of `note` requests with the same expected
  revision race each other on one fact through two replicas at once.
- kill: the same writers, and at a random moment one replica gets SIGKILL.  A writer whose
  replica stops answering sends the same bullet to the next replica.  The killed replica is
  then started again on the same database and must answer as the others do.
- restart: the same writers, and at a random moment the database stops as in a crash
  (`pg_ctl stop -m immediate`) and starts again.  Writers retry their replica on a 503 or a
  connection error; the replicas must recover without being restarted.

What a writer was told decides what is checked.  A bullet is acknowledged when the server
answered 200, or when a retry after an unclear outcome (a connection error, a 503) was
refused with "block id ^X is already used" — the server saying it holds the first attempt.
Afterwards, in the exported bank:

    lost         acknowledged ids missing, or present with other content (must be 0)
    duplicates   ids on more than one bullet (must be 0; a retry never doubles a bullet)
    unclear      bullets whose writer gave up: present or absent, both are allowed

and across replicas (all run with one fixed clock, MEMFOLD_NOW, so answers compare byte for
byte): `status` (less its replica-local sync time), `show` of sampled facts and `recall` of
narrow queries answer the same JSON (a recall's scores within SCORE_TOLERANCE: the
embedder's floats depend on the run that made them); each replica's SQLite index of the
bank equals, row for row, the index memfold builds from nothing over the exported bank;
and every racing pair had exactly one winner (200, the note applied, revision + 1, one note
event in its history) and one loser (409 {"result": "stale"}).  Any 500 is a finding.

`recall` of broad queries, where more facts tie on score than recall's candidate pool holds,
must answer the same too, and is counted apart because it is the hard case: which tied facts
make the cut once followed the order a replica happened to index them in (SQLite rowids);
recall now takes them by path and line (tests/recall/test_recall_ties.py).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import click

from .pg_cluster import Cluster, Provisioned, free_port

TENANT = "trials"
FIRST_DAY = date(2025, 1, 1)
PER_DAY = 25  # a writer's bullets per daily file (writer w on every replica shares its files)
GROUP = 5  # bullets of one writer sharing a group word
NOW = "2025-04-15T12:00:00+00:00"  # every replica's clock (MEMFOLD_NOW): answers compare exactly
WORDS = ("apple", "river", "engine", "violet", "harbor", "lantern", "copper", "meadow",
         "signal", "orchard", "granite", "willow", "beacon", "saffron", "tundra", "quartz")
QUERIES = ("lantern copper", "harbor signal", "granite", "meadow willow", "race fact")
REQUEST_TIMEOUT_S = 60.0
GIVE_UP_S = 120.0  # how long a writer retries one bullet before it counts it unclear
READY_TIMEOUT_S = 60.0
_databases = iter(range(1, 1_000_000))


# -- requests ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    """One HTTP exchange: the status (None: no answer at all) and the decoded body."""

    status: int | None
    data: Any
    error: str = ""

    @property
    def retriable(self) -> bool:
        return self.status is None or self.status in (429, 503)


def call(url: str, token: str, path: str, body: Any = None, *, method: str = "POST",
         timeout: float = REQUEST_TIMEOUT_S) -> Answer:
    """Send one request; never raises for HTTP or connection errors."""
    data = None if body is None else json.dumps(body).encode("utf-8")
    request = urllib.request.Request(url + path, data=data, method=method, headers={
        "Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:  # noqa: S310
            return Answer(answer.status, json.loads(answer.read() or b"null"))
    except urllib.error.HTTPError as exc:
        raw = exc.read()
        try:
            decoded = json.loads(raw)
        except ValueError:
            decoded = {"error": raw[:300].decode("utf-8", "replace")}
        return Answer(exc.code, decoded, str(decoded.get("error", "")) if isinstance(
            decoded, dict) else "")
    except (urllib.error.URLError, OSError) as exc:  # refused, reset, timed out
        return Answer(None, None, f"{type(exc).__name__}: {getattr(exc, 'reason', exc)}")


@dataclass
class Tally:
    """Every answer the clients saw, by status, and the first few 500s' bodies."""

    statuses: Counter[str] = field(default_factory=Counter)
    five_hundreds: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def see(self, answer: Answer) -> None:
        with self.lock:
            self.statuses["connection" if answer.status is None else str(answer.status)] += 1
            if answer.status is not None and answer.status >= 500 and answer.status != 503 \
                    and len(self.five_hundreds) < 10:
                self.five_hundreds.append(f"{answer.status}: {answer.data}")

    @property
    def errors_500(self) -> int:
        return sum(n for status, n in self.statuses.items()
                   if status.isdigit() and int(status) >= 500 and status != "503")

    @property
    def retriable(self) -> int:
        return self.statuses["503"] + self.statuses["429"] + self.statuses["connection"]


# -- replicas ----------------------------------------------------------------------------


@dataclass
class Replica:
    """One `memfold serve` process; started again on the same port and cache after a kill."""

    app_url: str
    port: int
    cache: Path
    log: Path
    process: subprocess.Popen[bytes] | None = None
    starts: int = 0
    extra: tuple[str, ...] = ()  # more `memfold serve` options (`--recall-from postgres`)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> float:
        """Start the process and wait for /readyz; the seconds it took."""
        started = time.monotonic()
        with open(self.log, "ab") as handle:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "memfold", "serve", "--db", self.app_url,
                 "--port", str(self.port), "--rate", "0", "--cache", str(self.cache),
                 *self.extra],
                stdout=handle, stderr=subprocess.STDOUT, env={**os.environ, "MEMFOLD_NOW": NOW})
        self.starts += 1
        while time.monotonic() - started < READY_TIMEOUT_S:
            if self.process.poll() is not None:
                raise RuntimeError(f"memfold serve exited: {self.tail()}")
            if self.ready():
                return time.monotonic() - started
            time.sleep(0.1)
        raise RuntimeError(f"memfold serve did not become ready: {self.tail()}")

    def ready(self) -> bool:
        try:
            with urllib.request.urlopen(self.url + "/readyz", timeout=5) as answer:  # noqa: S310
                return bool(answer.status == 200)
        except OSError:
            return False

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()

    def tail(self) -> str:
        return self.log.read_text(errors="replace")[-2000:]


@dataclass
class Bed:
    """A database with a tenant and a token, and the replicas serving it."""

    db: Provisioned
    token: str
    replicas: list[Replica]
    work: Path
    bank_ids: dict[str, int] = field(default_factory=dict)

    @classmethod
    @contextlib.contextmanager
    def running(cls, cluster: Cluster, replicas: int,
                extra: tuple[str, ...] = ()) -> Iterator[Bed]:
        from memfold.server import admin
        from memfold.server.db import connect_pool

        db = cluster.provision(f"memfold_trials_{os.getpid()}_{next(_databases)}")
        pool = connect_pool(db.owner, size=2)
        try:
            admin.create_tenant(pool, TENANT)
            token = admin.create_token(pool, TENANT, "trials", ("read", "write"))
        finally:
            pool.close()
        work = Path(tempfile.mkdtemp(prefix="memfold-trials-"))
        bed = cls(db, token, [Replica(db.app, free_port(), work / f"cache{n}",
                                      work / f"replica{n}.log", extra=extra)
                              for n in range(replicas)], work)
        try:
            for replica in bed.replicas:
                replica.start()
            yield bed
        finally:
            for replica in bed.replicas:
                replica.stop()
            shutil.rmtree(work, ignore_errors=True)

    def new_bank(self, name: str) -> str:
        from memfold.server import admin
        from memfold.server.db import connect_pool, tenant_tx

        pool = connect_pool(self.db.owner, size=1)
        try:
            admin.create_bank(pool, TENANT, name)
            with tenant_tx(pool, TENANT) as conn:
                row = conn.execute("SELECT bank_id FROM banks WHERE name = %s", [name]).fetchone()
        finally:
            pool.close()
        if row is None:
            raise RuntimeError(f"bank {name} was not created")
        self.bank_ids[name] = int(row[0])
        return name

    def call(self, replica: int, bank: str, verb: str, body: Any, tally: Tally | None = None
             ) -> Answer:
        answer = call(self.replicas[replica].url, self.token, f"/v1/banks/{bank}/{verb}", body)
        if tally is not None:
            tally.see(answer)
        return answer


# -- writers -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Bullet:
    id: str
    content: str  # what the bank's parser reads back as the fact's content
    day: str
    group: str  # a word GROUP bullets of one writer share (a narrow query finds just them)

    @property
    def text(self) -> str:
        return f"B: {self.content} ^{self.id}"


def plan(tag: str, replica: int, writer: int, writers: int, retains: int, seed: int
         ) -> list[Bullet]:
    """Writer `writer` of `replica`'s bullets: unique ids, two words to recall them by, and a
    group word.  The bullets of a group share no word recall's query expansion would use
    (expansion.py reads only alphabetic words), so a query for a group word ranks just its
    GROUP facts."""
    pick = random.Random(f"{seed}-{tag}-{replica}-{writer}")  # noqa: S311 - test data
    bullets = []
    words: list[str] = []
    for n in range(retains):
        if n % GROUP == 0:
            words = pick.sample(WORDS, 2 * GROUP)
        day = FIRST_DAY + timedelta(days=(n // PER_DAY) * writers + writer)
        group = f"{tag}g{replica}x{writer}x{n // GROUP}"
        two = " ".join(words[2 * (n % GROUP):2 * (n % GROUP) + 2])
        bullets.append(Bullet(f"{tag}r{replica}w{writer}n{n:04d}",
                              f"{tag} w{replica}x{writer} n{n} {two} {group}",
                              day.isoformat(), group))
    return bullets


@dataclass
class Ledger:
    """What the writers were told: acknowledged (200), held (a retry refused as already
    used: the server holds the earlier attempt), unclear (given up after retries)."""

    acked: dict[str, Bullet] = field(default_factory=dict)
    held: dict[str, Bullet] = field(default_factory=dict)
    unclear: dict[str, Bullet] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    failovers: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    progress: threading.Condition = field(default_factory=threading.Condition)
    count: int = 0

    def told(self, bullet: Bullet, outcome: str) -> None:
        with self.lock:
            getattr(self, outcome)[bullet.id] = bullet
        if outcome != "unclear":
            with self.progress:
                self.count += 1
                self.progress.notify_all()

    def wait_for(self, acks: int, timeout: float) -> bool:
        with self.progress:
            return self.progress.wait_for(lambda: self.count >= acks, timeout=timeout)

    @property
    def stored(self) -> dict[str, Bullet]:
        return {**self.acked, **self.held}


def write_all(bed: Bed, bank: str, home: int, bullets: list[Bullet], ledger: Ledger,
              tally: Tally, *, failover: bool) -> None:
    """Retain each bullet through replica `home`, retrying an unclear outcome with the same
    id (on the next replica when `failover` and the replica does not answer at all)."""
    target = home
    for bullet in bullets:
        unclear, pause = False, 0.05
        deadline = time.monotonic() + GIVE_UP_S
        while True:
            answer = bed.call(target, bank, "retain", {"bullets": [bullet.text],
                                                       "date": bullet.day}, tally)
            if answer.status == 200:
                ids = [fact["id"] for fact in answer.data.get("facts", [])]
                if ids != [bullet.id]:
                    ledger.problems.append(f"{bullet.id}: retain answered ids {ids}")
                ledger.told(bullet, "acked")
                break
            if answer.status == 400 and "already used" in answer.error:
                if not unclear:
                    ledger.problems.append(f"{bullet.id}: refused on its first attempt: "
                                           f"{answer.error}")
                ledger.told(bullet, "held")
                break
            if answer.status is not None and not answer.retriable and answer.status < 500:
                ledger.problems.append(f"{bullet.id}: HTTP {answer.status} {answer.error}")
                break
            unclear = True  # a 500 is counted by the tally and retried like a 503
            if time.monotonic() > deadline:
                ledger.told(bullet, "unclear")
                break
            if failover and answer.status is None:
                target = (target + 1) % len(bed.replicas)
                with ledger.lock:
                    ledger.failovers += 1
            else:
                time.sleep(pause)  # backoff before asking the same replica again
                pause = min(1.0, pause * 2)


def run_writers(bed: Bed, bank: str, tag: str, writers: int, retains: int, seed: int,
                ledger: Ledger, tally: Tally, *, failover: bool) -> list[threading.Thread]:
    threads = []
    for replica in range(len(bed.replicas)):
        for writer in range(writers):
            bullets = plan(tag, replica, writer, writers, retains, seed)
            threads.append(threading.Thread(
                target=write_all, args=(bed, bank, replica, bullets, ledger, tally),
                kwargs={"failover": failover}, name=f"writer-{tag}-{replica}-{writer}",
                daemon=True))
    for thread in threads:
        thread.start()
    return threads


# -- racing notes ------------------------------------------------------------------------


@dataclass
class Races:
    pairs: int = 0
    one_winner: int = 0
    problems: list[str] = field(default_factory=list)
    outcomes: dict[str, tuple[int | None, int | None]] = field(default_factory=dict)
    texts: dict[str, tuple[str, str]] = field(default_factory=dict)
    revs: dict[str, int] = field(default_factory=dict)


def seed_race_facts(bed: Bed, bank: str, tag: str, pairs: int, tally: Tally) -> list[str]:
    ids = [f"{tag}race{n:04d}" for n in range(pairs)]
    for start in range(0, pairs, 50):
        chunk = ids[start:start + 50]
        answer = bed.call(0, bank, "retain", {
            "bullets": [f"W: {tag} race fact {fid[-4:]} to note on ^{fid}" for fid in chunk],
            "date": FIRST_DAY.isoformat()}, tally)
        if answer.status != 200:
            raise RuntimeError(f"seeding the racing facts failed: {answer}")
    return ids


def race(bed: Bed, bank: str, ids: list[str], races: Races, tally: Tally) -> None:
    """For each fact: read its revision, then send two notes expecting it at once, one
    through replica 0 and one through replica 1."""
    for fact_id in ids:
        shown = bed.call(0, bank, "show", {"id": fact_id}, tally)
        if shown.status != 200:
            races.problems.append(f"{fact_id}: show answered {shown.status} {shown.error}")
            continue
        rev = int(shown.data["rev"])
        texts = (f"first claim on {fact_id}", f"second claim on {fact_id}")
        barrier = threading.Barrier(2)
        answers: list[Answer | None] = [None, None]

        def send(side: int, fid: str = fact_id, claim: tuple[str, str] = texts,
                 expected: int = rev, gate: threading.Barrier = barrier,
                 slots: list[Answer | None] = answers) -> None:
            gate.wait()
            slots[side] = bed.call(side, bank, "note",
                                   {"id": fid, "text": claim[side], "rev": expected}, tally)

        senders = [threading.Thread(target=send, args=(side,)) for side in (0, 1)]
        for sender in senders:
            sender.start()
        for sender in senders:
            sender.join()
        races.pairs += 1
        races.texts[fact_id] = texts
        races.revs[fact_id] = rev
        statuses = tuple(a.status if a else None for a in answers)
        races.outcomes[fact_id] = (statuses[0], statuses[1])
        if sorted(statuses, key=str) != [200, 409]:
            races.problems.append(f"{fact_id}: the pair answered {statuses}")
            continue
        loser = answers[statuses.index(409)]
        if loser is None or loser.data.get("result") != "stale":
            races.problems.append(f"{fact_id}: the loser answered {loser}")


def check_races(bed: Bed, bank: str, races: Races, tally: Tally) -> None:
    """Each pair's winner applied, once, as every replica sees it."""
    for fact_id, statuses in races.outcomes.items():
        if sorted(statuses, key=str) != [200, 409]:
            continue
        winner = races.texts[fact_id][statuses.index(200)]
        good = True
        for replica in range(len(bed.replicas)):
            shown = bed.call(replica, bank, "show", {"id": fact_id}, tally)
            if shown.status != 200 or shown.data.get("note") != winner \
                    or shown.data.get("rev") != races.revs[fact_id] + 1:
                races.problems.append(f"{fact_id}: replica {replica} shows "
                                      f"{shown.status} {shown.data}")
                good = False
        history = bed.call(0, bank, "history", {"id": fact_id}, tally)
        notes = [e for e in (history.data or {}).get("events", []) if e.get("event") == "note"]
        if len(notes) != 1:
            races.problems.append(f"{fact_id}: {len(notes)} note events in its history")
            good = False
        races.one_winner += good


# -- checks ------------------------------------------------------------------------------


def export(bed: Bed, bank: str) -> dict[str, Any]:
    answer = call(bed.replicas[0].url, bed.token, f"/v1/banks/{bank}/export", method="GET")
    if answer.status != 200:
        raise RuntimeError(f"export answered {answer.status}: {answer.error}")
    return dict(answer.data)


def explicit_facts(exported: dict[str, Any]) -> dict[str, list[str]]:
    """Every explicit block id in an exported bank -> the content of each bullet holding it."""
    import base64

    from memfold.workspace.format import parse_document

    found: dict[str, list[str]] = {}
    for item in exported["files"]:
        doc = parse_document(item["path"], base64.b64decode(item["content"]))
        for fact in doc.facts:
            if fact.explicit_id:
                found.setdefault(fact.id, []).append(fact.content)
    return found


def check_bank(exported: dict[str, Any], ledger: Ledger) -> dict[str, Any]:
    found = explicit_facts(exported)
    lost = sorted(i for i, bullet in ledger.stored.items()
                  if bullet.content not in found.get(i, []))
    duplicates = sorted(i for i, contents in found.items() if len(contents) > 1)
    return {"acknowledged": len(ledger.acked), "held_on_retry": len(ledger.held),
            "lost": len(lost), "lost_ids": lost[:20], "duplicates": len(duplicates),
            "duplicate_ids": duplicates[:20], "unclear": len(ledger.unclear),
            "unclear_present": sum(1 for i in ledger.unclear if i in found),
            "facts_in_bank": len(found), "bank_version": exported.get("head"),
            "failovers": ledger.failovers, "writer_problems": ledger.problems[:20]}


def truth_dump(exported: dict[str, Any]) -> list[tuple[object, ...]]:
    """The index memfold builds from nothing over the exported files and journal."""
    from memfold.client.files import write_workspace
    from memfold.index.sqlite.backend import SqliteIndex
    from memfold.index.sync import sync
    from memfold.journal.log import Journal
    from memfold.workspace.layout import Workspace

    with tempfile.TemporaryDirectory(prefix="memfold-trials-truth-") as scratch:
        root = Path(scratch) / "bank"
        write_workspace(root, exported)
        index = SqliteIndex(Path(scratch) / "fresh.sqlite")
        try:
            workspace = Workspace(root)
            sync(workspace, index, full=True)
            journal = Journal(workspace.root, workspace.write_lock).read()
            index.apply_events(journal.events,
                               (journal.offset, journal.last_hash, journal.last_seq))
            return index.dump()
        finally:
            index.close()


def replica_dump(replica: Replica, bank_id: int) -> list[tuple[object, ...]]:
    """The replica's own index of the bank, read only, in the same canonical order."""
    import sqlite3

    from memfold.index.sqlite.search import dump

    # the process keeps its copy of the bank in <cache>/<bank_id>/<n>/ (memfold.server.copies);
    # a killed one's copy is removed when the next starts, so the newest is the running one's
    path = max(replica.cache.glob(f"{bank_id}/*/.memory/index.sqlite"),
               key=lambda p: p.stat().st_mtime_ns)
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return dump(db)
    finally:
        db.close()


LOCAL_KEYS = ("last_sync",)  # status: when this replica's own index last synced
# hybrid recall's second look compares token vectors the embedder made in some run of the
# model: at write time beside other facts, or later alone, in its quick or its optimised
# session; the floats of two such runs differ in the last bits, and a score by up to 1e-4
SCORE_TOLERANCE = 5e-4


def same_within(one: Any, other: Any) -> None:
    """Give `other`'s recall results `one`'s scores where the two answers hold the same
    results and every score differs by no more than SCORE_TOLERANCE: what is left to
    compare is then what the replicas decided, not how a float was rounded."""
    if not (isinstance(one, dict) and isinstance(other, dict)):
        return
    mine, theirs = one.get("results"), other.get("results")
    if not (isinstance(mine, list) and isinstance(theirs, list) and len(mine) == len(theirs)):
        return
    pairs = list(zip(mine, theirs, strict=True))
    if all(isinstance(a, dict) and isinstance(b, dict)
           and isinstance(a.get("score"), float) and isinstance(b.get("score"), float)
           and abs(a["score"] - b["score"]) <= SCORE_TOLERANCE for a, b in pairs):
        for a, b in pairs:
            b["score"] = a["score"]


def where_differ(one: Any, other: Any, path: str = "") -> str | None:
    """The first place two JSON values differ, as a path with both values; None if equal."""
    if isinstance(one, dict) and isinstance(other, dict):
        for key in sorted(set(one) | set(other), key=str):
            found = where_differ(one.get(key), other.get(key), f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(one, list | tuple) and isinstance(other, list | tuple) \
            and len(one) == len(other):
        for n, (a, b) in enumerate(zip(one, other, strict=True)):
            found = where_differ(a, b, f"{path}[{n}]")
            if found:
                return found
        return None
    return None if one == other else f"{path or '.'}: {str(one)[:120]} != {str(other)[:120]}"


SAME_SCORES = "the same scores in the same order (only tied facts trade places)"


def scores(recalled: Any) -> list[Any]:
    return [hit.get("score") for hit in (recalled or {}).get("results", [])]


def narrow_queries(ledger: Ledger) -> list[str]:
    """Group words of a few writers' batches: each matches GROUP facts, all of which fit in
    recall's candidate pool, so the answer cannot depend on how ties at its cut-off fall."""
    groups = sorted({bullet.group for bullet in ledger.stored.values()})
    return groups[:: max(1, len(groups) // 4)][:4]


def compare_replicas(bed: Bed, bank: str, exported: dict[str, Any], ledger: Ledger,
                     sample: list[str], tally: Tally) -> tuple[list[str], list[str]]:
    """Ask every replica the same questions; (differences, broad-query differences).

    Must be equal: `status` (less its replica-local sync time), `show` of sampled facts,
    `recall` of narrow queries (k=3), and each replica's index of the bank row for row with
    the index memfold builds from nothing over the exported bank.  Counted apart (and failing
    the run just the same): `recall` of broad queries, matching more facts than recall's
    candidate pool, where facts tie on score at the pool's cut-off; each such difference says
    whether the scores differ too."""
    asks: list[tuple[str, dict[str, Any], bool]] = [("status", {}, True)]
    asks += [("show", {"id": fact_id}, True) for fact_id in sample]
    asks += [("recall", {"query": query, "k": 3}, True) for query in narrow_queries(ledger)]
    asks += [("recall", {"query": query, "k": 20}, False) for query in QUERIES]
    differences: list[str] = []
    broad: list[str] = []
    for verb_name, body, strict in asks:
        answers = [bed.call(n, bank, verb_name, body, tally) for n in range(len(bed.replicas))]
        for answer in answers:
            if isinstance(answer.data, dict):
                for key in LOCAL_KEYS:
                    answer.data.pop(key, None)
        first = answers[0]
        if first.status != 200:
            differences.append(f"{verb_name} {body}: replica 0 answered {first.status}")
        for n, other in enumerate(answers[1:], 1):
            same_within(first.data, other.data)
            where = where_differ([first.status, first.data], [other.status, other.data])
            if where and strict:
                differences.append(f"{verb_name} {body}: replica {n} differs from replica 0 "
                                   f"at {where}")
            elif where:
                same = scores(first.data) == scores(other.data)
                broad.append(f"{verb_name} {body}: replica {n} differs from replica 0 at "
                             f"{where}; {SAME_SCORES if same else 'the scores differ too'}")
    truth = truth_dump(exported)
    for n, replica in enumerate(bed.replicas):
        mine = replica_dump(replica, bed.bank_ids[bank])
        if mine != truth:
            extra = [row for row in mine if row not in truth][:3]
            missing = [row for row in truth if row not in mine][:3]
            differences.append(f"replica {n}'s index differs from the exported bank's: "
                               f"{len(mine)} rows against {len(truth)}; extra {extra}, "
                               f"missing {missing}")
    return differences, broad


# -- the runs ----------------------------------------------------------------------------


@dataclass
class Run:
    """One scenario's figures."""

    name: str
    bank: str
    writes_planned: int
    wall_s: float = 0.0
    write_s: float = 0.0
    checks: dict[str, Any] = field(default_factory=dict)
    racing_pairs: int = 0
    racing_one_winner: int = 0
    replica_differences: list[str] = field(default_factory=list)
    broad_recall_differences: list[str] = field(default_factory=list)
    statuses: dict[str, int] = field(default_factory=dict)
    errors_500: int = 0
    retriable_errors: int = 0
    fault: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return (not self.problems and not self.replica_differences and self.errors_500 == 0
                and not self.broad_recall_differences
                and self.checks.get("lost", 1) == 0 and self.checks.get("duplicates", 1) == 0
                and self.racing_one_winner == self.racing_pairs)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["throughput_per_s"] = round(
            (self.checks.get("acknowledged", 0) + self.checks.get("held_on_retry", 0))
            / self.write_s, 1) if self.write_s else 0.0
        data["wall_s"], data["write_s"] = round(self.wall_s, 2), round(self.write_s, 2)
        data["ok"] = self.ok
        return data


def _finish(bed: Bed, run: Run, ledger: Ledger, tally: Tally, started: float,
            extra: tuple[str, ...] = ()) -> Run:
    exported = export(bed, run.bank)
    run.checks = check_bank(exported, ledger)
    sample = [*sorted(ledger.stored)[:: max(1, len(ledger.stored) // 10)][:10], *extra]
    run.replica_differences, run.broad_recall_differences = compare_replicas(
        bed, run.bank, exported, ledger, sample, tally)
    run.problems += ledger.problems
    run.statuses = dict(tally.statuses)
    run.errors_500 = tally.errors_500
    run.retriable_errors = tally.retriable
    if tally.five_hundreds:
        run.problems += tally.five_hundreds
    run.wall_s = time.monotonic() - started
    return run


def run_replicas(bed: Bed, writers: int, retains: int, pairs: int, seed: int) -> Run:
    """Writers on every replica at once, and racing notes through replicas 0 and 1."""
    started = time.monotonic()
    bank = bed.new_bank("replicas")
    run = Run("replicas", bank, len(bed.replicas) * writers * retains)
    ledger, tally, races = Ledger(), Tally(), Races()
    ids = seed_race_facts(bed, bank, "rp", pairs, tally) if pairs and len(bed.replicas) > 1 \
        else []
    writing = time.monotonic()
    threads = run_writers(bed, bank, "rp", writers, retains, seed, ledger, tally,
                          failover=False)
    racer = threading.Thread(target=race, args=(bed, bank, ids, races, tally), daemon=True)
    racer.start()
    for thread in [*threads, racer]:
        thread.join()
    run.write_s = time.monotonic() - writing
    check_races(bed, bank, races, tally)
    run.racing_pairs, run.racing_one_winner = races.pairs, races.one_winner
    run.problems += races.problems[:20]
    return _finish(bed, run, ledger, tally, started, tuple(ids[:5]))


def _fault_point(total: int, pick: random.Random) -> int:
    return pick.randint(max(1, total // 10), max(1, total // 2))


def run_kill(bed: Bed, trial: int, writers: int, retains: int, seed: int) -> Run:
    """Writers on every replica; one replica is killed with SIGKILL after a random number of
    acknowledgements, then started again on the same database."""
    started = time.monotonic()
    pick = random.Random(f"{seed}-kill-{trial}")  # noqa: S311 - the trial's schedule
    tag = f"k{trial}"
    bank = bed.new_bank(f"kill{trial}")
    run = Run(f"kill-{trial}", bank, len(bed.replicas) * writers * retains)
    ledger, tally = Ledger(), Tally()
    at = _fault_point(run.writes_planned, pick)
    victim = pick.randrange(len(bed.replicas))
    writing = time.monotonic()
    threads = run_writers(bed, bank, tag, writers, retains, seed, ledger, tally, failover=True)
    if not ledger.wait_for(at, timeout=GIVE_UP_S * 2):
        run.problems.append(f"only {ledger.count} acknowledgements before the kill")
    bed.replicas[victim].kill()
    run.fault = {"victim": victim, "after_acks": ledger.count}
    for thread in threads:
        thread.join()
    run.write_s = time.monotonic() - writing
    run.fault["restart_s"] = round(bed.replicas[victim].start(), 2)
    return _finish(bed, run, ledger, tally, started)


def run_restart(bed: Bed, cluster: Cluster, trial: int, writers: int, retains: int,
                seed: int) -> Run:
    """Writers on every replica; after a random number of acknowledgements the database
    stops as in a crash and starts again.  The replicas keep running throughout."""
    started = time.monotonic()
    pick = random.Random(f"{seed}-restart-{trial}")  # noqa: S311 - the trial's schedule
    tag = f"d{trial}"
    bank = bed.new_bank(f"restart{trial}")
    run = Run(f"restart-{trial}", bank, len(bed.replicas) * writers * retains)
    ledger, tally = Ledger(), Tally()
    at = _fault_point(run.writes_planned, pick)
    down_s = pick.uniform(0.2, 2.0)
    pids = [replica.process.pid if replica.process else None for replica in bed.replicas]
    writing = time.monotonic()
    threads = run_writers(bed, bank, tag, writers, retains, seed, ledger, tally, failover=False)
    if not ledger.wait_for(at, timeout=GIVE_UP_S * 2):
        run.problems.append(f"only {ledger.count} acknowledgements before the restart")
    stopped_at = ledger.count
    cluster.stop("immediate")
    time.sleep(down_s)  # the outage itself: the database is down this long
    cluster.restart()
    run.fault = {"after_acks": stopped_at, "down_s": round(down_s, 2),
                 "acks_during_outage": ledger.count - stopped_at}
    for thread in threads:
        thread.join()
    run.write_s = time.monotonic() - writing
    if [replica.process.pid if replica.process else None for replica in bed.replicas] != pids \
            or not all(replica.alive() for replica in bed.replicas):
        run.problems.append("a replica exited during the database restart")
    if not all(replica.ready() for replica in bed.replicas):
        run.problems.append("a replica is not ready after the database restart")
    return _finish(bed, run, ledger, tally, started)


@dataclass
class Report:
    runs: list[Run] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)
    wall_s: float = 0.0

    @property
    def ok(self) -> bool:
        return bool(self.runs) and all(run.ok for run in self.runs)

    def totals(self) -> dict[str, Any]:
        def total(key: str) -> int:
            return sum(int(run.checks.get(key, 0)) for run in self.runs)
        write_s = sum(run.write_s for run in self.runs)
        acknowledged = total("acknowledged") + total("held_on_retry")
        return {"acknowledged": total("acknowledged"), "held_on_retry": total("held_on_retry"),
                "lost": total("lost"), "duplicates": total("duplicates"),
                "unclear": total("unclear"), "unclear_present": total("unclear_present"),
                "racing_pairs": sum(run.racing_pairs for run in self.runs),
                "racing_one_winner": sum(run.racing_one_winner for run in self.runs),
                "errors_500": sum(run.errors_500 for run in self.runs),
                "retriable_errors": sum(run.retriable_errors for run in self.runs),
                "replica_differences": sum(len(run.replica_differences) for run in self.runs),
                "broad_recall_differences": sum(len(run.broad_recall_differences)
                                                for run in self.runs),
                "broad_recall_differences_same_scores": sum(
                    1 for run in self.runs for found in run.broad_recall_differences
                    if found.endswith(SAME_SCORES)),
                "broad_recall_compared": len(QUERIES) * (self.settings.get("replicas", 2) - 1)
                * len(self.runs),
                "throughput_per_s": round(acknowledged / write_s, 1) if write_s else 0.0,
                "wall_s": round(self.wall_s, 1)}

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "settings": self.settings, "totals": self.totals(),
                "runs": [run.to_dict() for run in self.runs]}


def run_trials(replicas: int = 2, writers: int = 8, retains: int = 250,
               trial_retains: int = 50, pairs: int = 100, kill_trials: int = 5,
               restart_trials: int = 5, seed: int = 0, cluster: Cluster | None = None,
               say: Callable[[str], None] = lambda line: None) -> Report:
    """Every scenario on one cluster (a private one unless given); the figures."""
    report = Report(settings={"replicas": replicas, "writers": writers, "retains": retains,
                              "trial_retains": trial_retains, "racing_pairs": pairs,
                              "kill_trials": kill_trials, "restart_trials": restart_trials,
                              "seed": seed})
    started = time.monotonic()
    own = cluster is None
    chosen = cluster or Cluster.start()
    try:
        with Bed.running(chosen, replicas) as bed:
            steps: list[Callable[[], Run]] = []
            if retains:
                steps.append(lambda: run_replicas(bed, writers, retains, pairs, seed))
            steps += [lambda n=n: run_kill(bed, n, writers, trial_retains, seed)  # type: ignore[misc]
                      for n in range(1, kill_trials + 1)]
            steps += [lambda n=n: run_restart(bed, chosen, n, writers,  # type: ignore[misc]
                                              trial_retains, seed)
                      for n in range(1, restart_trials + 1)]
            for step in steps:
                run = step()
                report.runs.append(run)
                say(line(run))
    finally:
        report.wall_s = time.monotonic() - started
        if own:
            chosen.destroy()
    return report


def line(run: Run) -> str:
    c = run.checks
    acked = c.get("acknowledged", 0) + c.get("held_on_retry", 0)
    rate = acked / run.write_s if run.write_s else 0.0
    races = f", racing pairs {run.racing_one_winner}/{run.racing_pairs} with one winner" \
        if run.racing_pairs else ""
    return (f"{run.name}: {'ok' if run.ok else 'FAILED'}: acknowledged {c.get('acknowledged')}"
            f" (+{c.get('held_on_retry')} held on retry), lost {c.get('lost')}, duplicates "
            f"{c.get('duplicates')}, unclear {c.get('unclear')}{races}, 500s {run.errors_500}, "
            f"retriable {run.retriable_errors}, replica differences "
            f"{len(run.replica_differences)} (broad recall {len(run.broad_recall_differences)}/"
            f"{len(QUERIES)}), {rate:.0f} writes/s, {run.wall_s:.1f} s")


@click.command("server-trials")
@click.option("--replicas", default=2, show_default=True, type=click.IntRange(min=2),
              help="`memfold serve` processes on the one database.")
@click.option("--writers", default=8, show_default=True, type=click.IntRange(min=1),
              help="Concurrent writers per replica.")
@click.option("--retains", default=250, show_default=True, type=click.IntRange(min=0),
              help="Retains per writer in the replicas run (0 skips it).")
@click.option("--trial-retains", default=50, show_default=True, type=click.IntRange(min=1),
              help="Retains per writer in each kill and restart trial.")
@click.option("--racing-pairs", default=100, show_default=True, type=click.IntRange(min=0),
              help="Pairs of notes racing on one fact through two replicas.")
@click.option("--kill-trials", default=5, show_default=True, type=click.IntRange(min=0),
              help="Runs in which a replica is killed with SIGKILL mid-write.")
@click.option("--restart-trials", default=5, show_default=True, type=click.IntRange(min=0),
              help="Runs in which the database crashes and restarts mid-write.")
@click.option("--seed", default=0, show_default=True, help="Seed of the words and fault times.")
@click.option("--out", type=click.Path(path_type=Path, dir_okay=False),
              default=Path("benchmarks/results/server-trials.json"), show_default=True,
              help="Where to write the figures as JSON.")
def server_trials_command(replicas: int, writers: int, retains: int, trial_retains: int,
                          racing_pairs: int, kill_trials: int, restart_trials: int, seed: int,
                          out: Path) -> None:
    """Check `memfold serve` replicas on one PostgreSQL write by write: concurrent writers,
    racing notes, a replica killed mid-write, the database crashing mid-write.

    Needs the server extra and PostgreSQL's server binaries (initdb, pg_ctl; MEMFOLD_PG_BIN
    names their directory).  Prints a line per run and the totals; exits 1 when anything
    acknowledged was lost or doubled, a racing pair did not have exactly one winner, a
    replica answered differently from another, or any request got a 500.

    \b
    Example:
      memfold bench server-trials --kill-trials 5 --restart-trials 5
    """
    from memfold.errors import MemfoldError
    from memfold.server import require_extra

    from .pg_cluster import find_bin

    require_extra()
    if find_bin() is None:
        raise MemfoldError("no PostgreSQL server binaries (initdb, pg_ctl): install the "
                           "postgresql package or set MEMFOLD_PG_BIN")
    report = run_trials(replicas, writers, retains, trial_retains, racing_pairs, kill_trials,
                        restart_trials, seed, say=click.echo)
    totals = report.totals()
    click.echo(
        f"total: acknowledged {totals['acknowledged']} (+{totals['held_on_retry']} held on "
        f"retry), lost {totals['lost']}, duplicates {totals['duplicates']}, unclear "
        f"{totals['unclear']} ({totals['unclear_present']} present), racing pairs with one "
        f"winner {totals['racing_one_winner']}/{totals['racing_pairs']}, 500s "
        f"{totals['errors_500']}, retriable errors {totals['retriable_errors']}, "
        f"{totals['throughput_per_s']} writes/s, wall {totals['wall_s']} s")
    for run in report.runs:
        for problem in [*run.problems, *run.replica_differences][:10]:
            click.echo(f"  {run.name}: {problem}")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report.to_dict(), indent=2) + "\n")
    if not report.ok:
        raise SystemExit(1)
