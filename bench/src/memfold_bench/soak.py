"""`memfold bench soak`: the kill -9 harness (test D1 of docs/reliability.md), at any size.

A supervisor starts a writer, lets it acknowledge some writes, kills it with SIGKILL at a
random moment, reopens the workspace the way the next process would, and checks that nothing
acknowledged was lost.  The default test suite runs 200 trials
(tests/reliability/test_reliability_crash.py); `memfold bench soak --trials 5000` runs the same
harness longer.

The writer cycles through every write path memfold has: `retain` (a new day file, created
atomically, and appends to an existing one; now and then a bullet of several pages, so a kill
can land inside one multi-page write), `note` (compare-and-set on the revision), `supersede`
and `use` (journal appends, with the index folded in).  After each call returns it writes one
ACK line to its ACK file — an acknowledgement is only what the caller was told.

Writers are forked from a "zygote" process that has already imported memfold, so a trial
costs a fork rather than an interpreter start.  A writer never ends on its own (after an
error it writes the traceback and waits), so the pid the supervisor kills is always its own.

After each kill the supervisor checks, before anything repairs the index:

- lost:    every acknowledged fact is in its Markdown file, with the acknowledged content;
           every acknowledged note, supersede and use is an event in `journal.jsonl`;
- torn:    once an append the kill interrupted is cut off (its record in the lock file; the
           first thing every memfold process does, counted as tails_cut), every daily file
           ends with a newline, parses with no warning, and holds nothing but headings and
           Retain bullets with block ids (a torn bullet would show as text, a derived id or
           a warning);
- journal: the hash chain verifies, except possibly for a torn last line (counted);
- index:   `PRAGMA integrity_check` and the FTS5 integrity check pass, and the index holds no
           fact the Markdown lacks (orphans); acknowledged facts it lacks are lag;

and after `Memory.refresh()` (the recovery every command runs):

- every acknowledged fact is in the index and `get` returns its content; every acknowledged
  note, supersede and use is in the index's events and lifecycle state;
- the incremental index equals a full rebuild (`index(full=True)`), lifecycle included.

Trials run in chains (`--chain`, default 10) in one workspace, so a writer also starts from
the state a killed writer left.  `--control naive-rewrite` makes the writer rewrite the day
file in place (truncate, then write in small pieces) instead of appending: the harness must
then report lost or torn writes, which shows it can see the bug it guards against.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import IO, Any

import click

NOW = "2025-12-01T12:00:00+00:00"
FIRST_DAY = date(2025, 11, 1)
DAYS_PER_CHAIN = 3
FIRST_ACK_TIMEOUT_S = 20.0
WRITER_LIMIT_S = 120.0
CONTROLS = ("naive-rewrite",)
WORDS = ("apple", "river", "engine", "violet", "harbor", "lantern", "copper", "meadow",
         "signal", "orchard", "granite", "willow", "beacon", "saffron", "tundra", "quartz")


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def page_sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def upper_bound_95(failures: int, trials: int) -> float:
    """The 95% upper bound on the per-trial failure rate: 3/n (the rule of three) when no
    trial failed, else the Wilson score bound."""
    if trials <= 0:
        return 1.0
    if failures == 0:
        return min(1.0, 3.0 / trials)
    z = 1.959964
    p = failures / trials
    centre = p + z * z / (2 * trials)
    spread = z * float((p * (1 - p) + z * z / (4 * trials)) / trials) ** 0.5
    return min(1.0, float((centre + spread) / (1 + z * z / trials)))


# -- the writer (runs in a child forked by the zygote) ---------------------------------------


def _naive_append(path: Path, data: bytes) -> None:
    """The control: rewrite the whole file in place, in small pieces, with no fsync (and as
    slowly as a busy disk would, so that kills land inside the rewrite)."""
    old = path.read_bytes() if path.exists() else b""
    new = old + data
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        for start in range(0, len(new), 64):
            os.write(fd, new[start : start + 64])
            if start % 1024 == 0:
                time.sleep(0.001)
    finally:
        os.close(fd)


def _bullet(rng: random.Random, tag: str, big: bool) -> str:
    words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 6)))
    entity = f"P{rng.randint(0, 5)}"
    body = f"{words} {tag}"
    if big:  # several pages in one write: a kill may land inside it
        body += " " + " ".join(rng.choice(WORDS) for _ in range(rng.randint(900, 2500)))
    return f"{rng.choice('WBOS')} @{entity}: {body}."


def run_writer(root: Path, ack_path: Path, seed: int, known: list[str], days: list[str],
               control: str | None) -> None:
    """Write until killed; one ACK line (JSON) after every call that returned."""
    from memfold.errors import BadInput
    from memfold.memory import Memory

    if control == "naive-rewrite":
        from memfold import retain as retain_module
        setattr(retain_module, "append_durably", _naive_append)  # noqa: B010
        days = days[:1]  # one growing file: a long rewrite window
    rng = random.Random(seed)
    ack_fd = os.open(ack_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def ack(record: dict[str, Any]) -> None:
        os.write(ack_fd, (json.dumps(record) + "\n").encode())

    ids = list(known)
    deadline = time.monotonic() + WRITER_LIMIT_S  # a safety net: the kill comes long before
    with Memory.open(root, now=NOW) as memory:
        for n in range(1_000_000):
            if time.monotonic() > deadline:
                raise RuntimeError(f"not killed within {WRITER_LIMIT_S:.0f} s")
            roll = rng.random()
            if roll < 0.5 or len(ids) < 2 or control:
                bullets = [_bullet(rng, f"s{seed}n{n}b{j}", rng.random() < 0.04)
                           for j in range(rng.choice((1, 1, 1, 2, 3)))]
                result = memory.retain(bullets, date=rng.choice(days), future=True)
                ack({"op": "retain", "facts": [[f.id, sha(f.content)] for f in result.facts]})
                ids.extend(f.id for f in result.facts)
            elif roll < 0.7:
                target = rng.choice(ids)
                rev = memory.get(target, use=False).rev
                text = f"note s{seed}n{n}"
                new_rev = memory.note(target, text, rev=rev)
                ack({"op": "note", "id": target, "rev": new_rev, "note": text})
            elif roll < 0.82:
                old, new = rng.sample(ids, 2)
                try:
                    memory.supersede(old, new, reason=f"s{seed}n{n}")
                except BadInput:  # would make a cycle: nothing written
                    continue
                ack({"op": "supersede", "id": old, "by": new})
            elif roll < 0.9:
                target = rng.choice(ids)
                memory.use(target)
                ack({"op": "use", "id": target})
            elif roll < 0.98:
                block, text = f"Soak {seed % 100_000}", f"core s{seed}n{n}"
                memory.core_append(block, text)
                ack({"op": "core", "block": block, "text": text})
            else:
                ack({"op": "reflect-start"})  # pages may change from here on
                memory.reflect(since="90d")
                # every page as it stands now, not only those this run wrote: a killed run
                # may have written pages that this one found already up to date
                ack({"op": "reflect", "pages": {
                    path.relative_to(root).as_posix(): page_sha(path.read_bytes())
                    for path in sorted((root / "bank").rglob("*.md"))}})


def _die_with_parent() -> None:
    """Linux: have the kernel SIGKILL this process when its parent dies, so no writer or
    zygote outlives an interrupted supervisor."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    import ctypes.util

    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def zygote() -> None:
    """Fork one writer per command line read from stdin; report its pid, then its status."""
    from memfold import memory  # noqa: F401 - imported once here, inherited by every fork

    _die_with_parent()
    for line in sys.stdin:
        cmd = json.loads(line)
        pid = os.fork()
        if pid == 0:  # the writer
            _die_with_parent()
            try:
                err = os.open(cmd["err"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
                os.dup2(err, 2)
                run_writer(Path(cmd["root"]), Path(cmd["ack"]), int(cmd["seed"]),
                           list(cmd["ids"]), list(cmd["days"]), cmd.get("control"))
            except BaseException:  # noqa: B036 - report anything, then wait for the kill
                traceback.print_exc()
                sys.stderr.flush()
            while True:
                signal.pause()
        print(json.dumps({"pid": pid}), flush=True)
        _, status = os.waitpid(pid, 0)
        print(json.dumps({"status": status}), flush=True)


# -- the checks ---------------------------------------------------------------------------------


@dataclass
class ChainState:
    """What the writers of one workspace were told was stored."""

    facts: dict[str, str] = field(default_factory=dict)  # id -> sha of its content
    notes: list[tuple[str, int, str]] = field(default_factory=list)
    supersedes: set[tuple[str, str]] = field(default_factory=set)
    uses: Counter[str] = field(default_factory=Counter)
    core: list[tuple[str, str]] = field(default_factory=list)  # (block, line)
    pages: dict[str, str] = field(default_factory=dict)  # bank page -> sha of its last write
    pages_pending: bool = False  # a reflect began after the last acknowledged one
    temps: set[str] = field(default_factory=set)  # temporary files killed writers left

    def add(self, record: dict[str, Any]) -> int:
        op = record["op"]
        if op == "reflect-start":
            self.pages_pending = True
            return 0
        if op == "reflect":
            self.pages = dict(record["pages"])
            self.pages_pending = False
            return 1
        if op == "core":
            self.core.append((record["block"], record["text"]))
            return 1
        if op == "retain":
            for fact_id, digest in record["facts"]:
                self.facts[fact_id] = digest
            return len(record["facts"])
        if op == "note":
            self.notes.append((record["id"], int(record["rev"]), record["note"]))
        elif op == "supersede":
            self.supersedes.add((record["id"], record["by"]))
        elif op == "use":
            self.uses[record["id"]] += 1
        return 1


@dataclass
class Kill9Report:
    """The figures of a run (one line with `line()`)."""

    seed: int
    control: str | None = None
    trials: int = 0
    acked: int = 0  # acknowledged writes: facts, notes, supersedes, uses
    acked_facts: int = 0
    lost: int = 0
    torn: int = 0
    idx_orphan: int = 0
    idx_lag: int = 0  # trials whose index lacked an acknowledged fact before recovery
    idx_lag_repaired: int = 0
    idx_mismatch: int = 0  # trials where the incremental index differs from a rebuild
    integrity: int = 0
    journal_torn: int = 0
    tails_cut: int = 0  # appends a kill interrupted, cut off by the lock file's record
    stray_temps: int = 0  # temporary files a killed writer left (ignored by the scan)
    failed_trials: int = 0
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)

    @property
    def ub95(self) -> float:
        return upper_bound_95(self.failed_trials, self.trials)

    def line(self) -> str:
        name = "D1 kill9" + (f" control={self.control}" if self.control else "")
        return (f"{name}: trials={self.trials} acked={self.acked} (facts={self.acked_facts})"
                f" lost={self.lost} torn={self.torn} idx_orphan={self.idx_orphan}"
                f" idx_lag={self.idx_lag}(repaired {self.idx_lag_repaired})"
                f" idx_mismatch={self.idx_mismatch} integrity={self.integrity}"
                f" journal_torn={self.journal_torn} tails_cut={self.tails_cut}"
                f" stray_tmp={self.stray_temps}"
                f" failed={self.failed_trials} 95%UB={100 * self.ub95:.2f}%"
                f" t={self.seconds:.0f}s seed={self.seed}")

    def to_dict(self) -> dict[str, Any]:
        out = {k: v for k, v in self.__dict__.items() if k != "problems"}
        out["ub95"] = self.ub95
        out["problems"] = self.problems[:50]
        return out


def check_workspace(root: Path, state: ChainState, new_facts: set[str],
                    report: Kill9Report) -> list[str]:
    """Run every check after a kill; returns the problems found (and counts them)."""
    from memfold.errors import UnknownId
    from memfold.journal.log import JOURNAL_NAME, Journal
    from memfold.memory import Memory
    from memfold.recovery import finish_torn_append
    from memfold.workspace.format import parse_document
    from memfold.workspace.layout import Workspace

    problems: list[str] = []
    workspace = Workspace(root)

    # Markdown: acknowledged facts present, nothing torn once an append the kill interrupted
    # (recorded in the lock file) is cut off, as every memfold process does before it reads
    if finish_torn_append(workspace):
        report.tails_cut += 1
    in_markdown: dict[str, str] = {}
    for path in sorted((root / "memory").glob("*.md")):
        rel = f"memory/{path.name}"
        data = path.read_bytes()
        doc = parse_document(rel, data)
        bad = [*doc.warnings, *(f for f in doc.facts if not f.explicit_id)]
        ends = data.endswith(b"\n")
        if not ends or bad:
            report.torn += 1
            problems.append(f"torn: {rel}: ends with a newline: {ends}; {bad[:2]}")
        for fact in doc.facts:
            if fact.explicit_id:
                in_markdown[fact.id] = sha(fact.content)
    temps = {str(path) for path in root.rglob(".*.tmp")}
    report.stray_temps += len(temps - state.temps)
    state.temps |= temps
    problems += _check_pages(root, state, report)
    for fact_id, digest in sorted(state.facts.items()):
        if in_markdown.get(fact_id) != digest:
            report.lost += 1
            problems.append(f"lost: acknowledged fact ^{fact_id} is not in the Markdown as "
                            f"acknowledged (found {in_markdown.get(fact_id)})")
            del state.facts[fact_id]  # counted once, not again in every later trial
            new_facts.discard(fact_id)

    # the journal: chain, acknowledged events
    journal = Journal(root, workspace.write_lock)
    read = journal.read()
    for warning in read.warnings:
        if "incomplete last line" in warning:
            report.journal_torn += 1
        else:
            problems.append(f"journal: {warning}")
    with tempfile.TemporaryDirectory() as scratch:  # the chain up to any torn tail
        copy = Path(scratch) / JOURNAL_NAME
        if read.offset:
            with open(root / JOURNAL_NAME, "rb") as handle:
                copy.write_bytes(handle.read(read.offset))
        checked, problem = Journal(Path(scratch), workspace.write_lock).verify()
        if problem:
            problems.append(f"journal chain: {problem}")
    problems += _missing_events(read.events, state, report, "journal")

    # the index as the crash left it
    with Memory.open(root, now=NOW) as memory:
        from memfold.index.sqlite.backend import SqliteIndex

        sqlite_index = memory.index_backend
        assert isinstance(sqlite_index, SqliteIndex)  # the soak checks the SQLite file itself
        db = sqlite_index.db
        for pragma in ("PRAGMA integrity_check",):
            result = db.execute(pragma).fetchall()
            if result != [("ok",)]:
                report.integrity += 1
                problems.append(f"index {pragma}: {result[:3]}")
        try:
            db.execute("INSERT INTO facts_fts(facts_fts, rank) VALUES ('integrity-check', 1)")
        except Exception as exc:  # noqa: BLE001 - any failure is the finding
            report.integrity += 1
            problems.append(f"index FTS integrity-check: {exc}")
        indexed = {row[0] for row in db.execute(
            "SELECT f.id FROM facts f JOIN files ON files.id = f.file"
            " WHERE files.path LIKE 'memory/%' AND f.kind != 'text'")}
        orphans = indexed - set(in_markdown)
        if orphans:
            report.idx_orphan += len(orphans)
            problems.append(f"index holds facts the Markdown lacks: {sorted(orphans)[:5]}")
        lagging = set(in_markdown) - indexed  # stored, but killed before it was indexed
        if lagging:
            report.idx_lag += 1

        # recovery: what every command does first
        memory.refresh()
        backend = memory.index_backend
        found = {c.fact.id for c in backend.by_ids(sorted(set(state.facts) | lagging))}
        missing = (set(state.facts) | lagging) - found
        if missing:
            problems.append(f"index lacks stored facts after refresh: {sorted(missing)[:5]}")
        elif lagging:
            report.idx_lag_repaired += 1
        for fact_id in sorted(new_facts):
            try:
                hit = memory.get(fact_id, use=False)
            except UnknownId:
                problems.append(f"get ^{fact_id}: unknown id")
                continue
            if sha(hit.fact.content) != state.facts[fact_id]:
                problems.append(f"get ^{fact_id} returns other content")
        wanted = ({n[0] for n in state.notes} | {s[0] for s in state.supersedes}
                  | set(state.uses) | {f"core:{block}" for block, _ in state.core})
        events = [ev for fact_id in sorted(wanted) for ev in backend.events_for(fact_id)]
        problems += _missing_events(events, state, report, "index")
        lives = backend.life({n[0] for n in state.notes})
        for fact_id, rev, _ in state.notes:
            if fact_id not in lives or lives[fact_id].rev < rev:
                problems.append(f"index: ^{fact_id} is not at revision {rev} or later")
        incremental = backend.dump()
        memory.index(full=True)
        rebuilt = memory.index_backend.dump()
        if incremental != rebuilt:
            report.idx_mismatch += 1
            diff = sorted(set(map(repr, incremental)) ^ set(map(repr, rebuilt)))
            problems.append(f"incremental index differs from a rebuild: {diff[:3]}")
    return problems


def _check_pages(root: Path, state: ChainState, report: Kill9Report) -> list[str]:
    """Pages are rewritten whole (old or new bytes, never a mix): every bank page and
    memory.md is well formed, each page holds what the last acknowledged reflect wrote unless
    a later reflect had begun, and every acknowledged core line is in its block."""
    from memfold.session.core import read_core
    from memfold.workspace.layout import Workspace

    problems: list[str] = []
    for path in sorted([root / "memory.md", *(root / "bank").rglob("*.md")]):
        rel = path.relative_to(root).as_posix()
        data = path.read_bytes()
        opened = data.count(b"<!-- memfold:generated ")
        if not data.endswith(b"\n") or opened != data.count(b"<!-- memfold:end "):
            report.torn += 1
            problems.append(f"torn page: {rel} ({len(data)} bytes)")
        if (rel in state.pages and not state.pages_pending
                and page_sha(data) != state.pages[rel]):
            report.lost += 1
            problems.append(f"lost: {rel} is not what the last acknowledged reflect wrote")
    blocks = {b.name: b.text.split("\n") for b in read_core(Workspace(root)).blocks}
    for block, line in state.core:
        if line not in blocks.get(block, []):
            report.lost += 1
            problems.append(f"lost: acknowledged core line {line!r} is not in block {block!r}")
    return problems


def _missing_events(events: list[Any], state: ChainState, report: Kill9Report,
                    where: str) -> list[str]:
    problems: list[str] = []
    core = {(str(e.id)[5:], line) for e in events if e.event == "core"
            for line in str(e.data.get("text") or "").split("\n")}
    for block, line in state.core:
        if (block, line) not in core:
            report.lost += where == "journal"
            problems.append(f"{where}: acknowledged core edit {line!r} has no event")
    notes = {(e.id, e.data.get("rev"), e.data.get("note")) for e in events if e.event == "note"}
    supersedes = {(e.id, e.data.get("by")) for e in events if e.event == "supersede"}
    uses = Counter(e.id for e in events if e.event == "use")
    for fact_id, rev, text in state.notes:
        if (fact_id, rev, text) not in notes:
            report.lost += where == "journal"
            problems.append(f"{where}: acknowledged note rev {rev} on ^{fact_id} is missing")
    for old, new in sorted(state.supersedes):
        if (old, new) not in supersedes:
            report.lost += where == "journal"
            problems.append(f"{where}: acknowledged supersede ^{old} by ^{new} is missing")
    for fact_id, count in state.uses.items():
        if uses[fact_id] < count:
            report.lost += where == "journal"
            problems.append(f"{where}: {count} acknowledged uses of ^{fact_id}, "
                            f"{uses[fact_id]} events")
    return problems


# -- the supervisor -------------------------------------------------------------------------------


class Zygote:
    """The process that forks writers."""

    def __init__(self, log: Path) -> None:
        self.log = open(log, "ab")  # noqa: SIM115 - closed in close()
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "from memfold_bench.soak import zygote; zygote()"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log, text=True,
            bufsize=1)

    @property
    def stdout(self) -> IO[str]:
        assert self.proc.stdout is not None
        return self.proc.stdout

    def start(self, cmd: dict[str, Any]) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(cmd) + "\n")
        self.proc.stdin.flush()
        line = self.stdout.readline()
        if not line:
            raise RuntimeError("the zygote process ended")
        return int(json.loads(line)["pid"])

    def status(self) -> int:
        line = self.stdout.readline()
        if not line:
            raise RuntimeError("the zygote process ended")
        return int(json.loads(line)["status"])

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


def _read_acks(path: Path) -> list[dict[str, Any]]:
    """Complete ACK lines only: a line cut by the kill was never received."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    return [json.loads(line) for line in data.split(b"\n")[:-1] if line.strip()]


def run_kill9(trials: int, *, seed: int = 0, chain: int = 10, max_delay_s: float = 0.15,
              control: str | None = None, workdir: Path | None = None,
              progress: Any = None, stop_on_failure: bool = False) -> Kill9Report:
    """Run `trials` kill -9 trials; see the module docstring."""
    from memfold.memory import Memory

    report = Kill9Report(seed=seed, control=control)
    started = time.perf_counter()
    own_dir = workdir is None
    base = Path(tempfile.mkdtemp(prefix="memfold-soak-")) if workdir is None else workdir
    base.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    zygote_proc = Zygote(base / "zygote.log")
    state = ChainState()
    root = base
    try:
        for trial in range(trials):
            if trial % chain == 0:
                if trial and own_dir:
                    shutil.rmtree(root, ignore_errors=True)
                root = base / f"ws{trial // chain:05d}"
                Memory.init(root)
                state = ChainState()
                first = FIRST_DAY + timedelta(days=DAYS_PER_CHAIN * (trial // chain % 100))
                days = [(first + timedelta(days=d)).isoformat() for d in range(DAYS_PER_CHAIN)]
            ack_path = base / f"ack{trial:06d}.jsonl"
            err_path = base / f"err{trial:06d}.txt"
            ack_path.unlink(missing_ok=True)
            err_path.unlink(missing_ok=True)
            pid = zygote_proc.start({
                "root": str(root), "ack": str(ack_path), "err": str(err_path),
                "seed": seed * 1_000_003 + trial, "ids": sorted(state.facts), "days": days,
                "control": control})
            problems: list[str] = []
            deadline = time.monotonic() + FIRST_ACK_TIMEOUT_S
            while not (ack_path.exists() and ack_path.stat().st_size):
                if time.monotonic() > deadline:
                    problems.append("no acknowledgement within "
                                    f"{FIRST_ACK_TIMEOUT_S:.0f} s")
                    break
                if err_path.exists() and err_path.stat().st_size:
                    break
                time.sleep(0.001)
            time.sleep(rng.uniform(0.0, max_delay_s))
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            status = zygote_proc.status()
            if not (os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL):
                problems.append(f"writer ended with status {status}")
            if err_path.exists() and err_path.stat().st_size:
                problems.append("writer raised: " + err_path.read_text(errors="replace")
                                .strip().splitlines()[-1])
            new_facts: set[str] = set()
            for record in _read_acks(ack_path):
                report.acked += state.add(record)
                if record["op"] == "retain":
                    report.acked_facts += len(record["facts"])
                    new_facts.update(f[0] for f in record["facts"])
            ack_path.unlink(missing_ok=True)
            err_path.unlink(missing_ok=True)
            try:
                problems += check_workspace(root, state, new_facts, report)
            except Exception as exc:  # noqa: BLE001 - a crash in recovery is a finding
                problems.append(f"recovery raised {type(exc).__name__}: {exc}")
            report.trials += 1
            if problems:
                report.failed_trials += 1
                report.problems.extend(f"trial {trial} ({root.name}): {p}" for p in problems)
                if stop_on_failure:
                    break
            if progress is not None:
                progress(trial + 1, report)
    finally:
        zygote_proc.close()
        report.seconds = time.perf_counter() - started
        if own_dir:
            shutil.rmtree(base, ignore_errors=True)
    return report


@click.command("soak")
@click.option("--trials", default=1000, show_default=True, type=click.IntRange(min=1),
              help="How many writers to kill.")
@click.option("--seed", default=0, show_default=True, help="Seed of kill times and writes.")
@click.option("--chain", default=10, show_default=True, type=click.IntRange(min=1),
              help="Trials per workspace (a writer starts where the killed one stopped).")
@click.option("--max-delay-ms", default=150, show_default=True, type=click.IntRange(min=0),
              help="The kill comes U(0, this) ms after the writer's first acknowledgement.")
@click.option("--control", type=click.Choice(CONTROLS), default=None,
              help="Run a negative control that must report lost or torn writes.")
@click.option("--keep", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="Keep the workspaces in this directory (for a post-mortem).")
@click.option("--out", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Also write the figures as JSON here.")
def soak_command(trials: int, seed: int, chain: int, max_delay_ms: int, control: str | None,
                 keep: Path | None, out: Path | None) -> None:
    """kill -9 a writer at random moments, --trials times; check nothing acknowledged is lost.

    Prints one line: trials, acknowledged writes, lost, torn, index orphans and lag, and the
    95% upper bound on the per-trial failure rate (3/n when nothing failed).  Exits 1 when a
    trial failed (or, with --control, when the control failed to fail).

    \b
    Example:
      memfold bench soak --trials 5000 --seed 1 --out benchmarks/results/soak.json
    """
    every = max(1, trials // 20)

    def progress(done: int, report: Kill9Report) -> None:
        if done % every == 0 and done != trials:
            click.echo(f"  {done}/{trials} trials, {report.acked} acked, "
                       f"{report.failed_trials} failed", err=True)

    report = run_kill9(trials, seed=seed, chain=chain, max_delay_s=max_delay_ms / 1000,
                       control=control, workdir=keep, progress=progress)
    click.echo(report.line())
    for problem in report.problems[:20]:
        click.echo(f"  {problem}")
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(report.to_dict(), indent=2) + "\n")
    failed = report.failed_trials == 0 if control else report.failed_trials > 0
    if failed:
        raise SystemExit(1)
