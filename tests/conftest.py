"""Shared fixtures: a fresh workspace in tmp_path, a CLI runner bound to it, file hashing."""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, settings

from memfold.cli.main import cli
from memfold.index.sqlite.backend import SqliteIndex
from memfold.index.sync import sync
from memfold.journal.log import Journal
from memfold.memory import Memory
from memfold.workspace.layout import Workspace
from memfold_bench.pg_cluster import Cluster, Provisioned

ROOT = Path(__file__).resolve().parents[1]  # the repository: its docs, src and tools

# Test modules import helpers from test modules in other folders (`from test_cli import ...`);
# every folder is importable, so a file run on its own finds them as the whole suite does.
for _folder in sorted(p for p in Path(__file__).parent.iterdir()
                      if p.is_dir() and not p.name.startswith((".", "_"))):
    if str(_folder) not in sys.path:
        sys.path.append(str(_folder))

settings.register_profile(
    "ci",
    derandomize=True,
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile("dev", max_examples=300, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

DAY = "2025-11-27"
DAILY = f"memory/{DAY}.md"


@pytest.fixture(autouse=True, scope="session")
def _private_warm_processes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The `memfold` processes the tests run start warm processes on demand (MEMFOLD_WARM
    defaults to auto), as a user's would: they live in a folder of this session's, and are
    stopped when it ends rather than idling on after it."""
    from memfold.cli import warm_control as warm

    folder = tmp_path_factory.mktemp("warm-processes")
    folder.chmod(0o700)
    saved = {name: os.environ.get(name) for name in ("MEMFOLD_WARM_DIR", "MEMFOLD_WARM")}
    os.environ["MEMFOLD_WARM_DIR"] = str(folder)
    os.environ.pop("MEMFOLD_WARM", None)
    yield
    for sock in folder.glob("*.sock"):
        warm.stop(str(sock))
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No test sees the developer's MEMFOLD_* settings."""
    for name in ("MEMFOLD_WORKSPACE", "MEMFOLD_NOW", "MEMFOLD_DEBUG", "MEMFOLD_JUDGE",
                 "MEMFOLD_JUDGE_URL", "MEMFOLD_JUDGE_MODEL", "MEMFOLD_JUDGE_KEY",
                 "MEMFOLD_JUDGE_TIMEOUT", "MEMFOLD_JUDGE_EMBED", "MEMFOLD_SERVER", "MEMFOLD_TOKEN",
                 "MEMFOLD_BANK", "MEMFOLD_DB"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def classes_asked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The words and runs `lexicon.classes` is asked of while the test runs, in order (the
    lexicon answers as usual)."""
    from memfold import lexicon

    asked: list[str] = []
    classes = lexicon.classes

    def spy(word: str) -> tuple[str, ...]:
        asked.append(word)
        return classes(word)

    monkeypatch.setattr(lexicon, "classes", spy)
    return asked


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A freshly initialised workspace directory."""
    root = tmp_path / "ws"
    Memory.init(root)
    return root


@pytest.fixture
def memory(workspace: Path) -> Memory:
    with Memory.open(workspace) as mem:
        yield mem  # type: ignore[misc]


@dataclass
class Cli:
    """Runs `memfold` in-process with MEMFOLD_WORKSPACE pointing at `root`."""

    root: Path

    def __call__(self, *args: str, input: str | None = None,
                 env: dict[str, str] | None = None) -> Result:
        runner = CliRunner()
        full_env = {"MEMFOLD_WORKSPACE": str(self.root), "MEMFOLD_NOW": None}
        full_env.update(env or {})
        return runner.invoke(cli, list(args), input=input, env=full_env,
                             catch_exceptions=False)


@pytest.fixture
def run(workspace: Path) -> Cli:
    """`run("retain", "W: x")` against the fresh workspace."""
    return Cli(workspace)


@pytest.fixture
def run_in() -> Callable[[Path], Cli]:
    """A runner bound to any directory (for missing or not yet created workspaces)."""
    return Cli


def markdown_hashes(root: Path) -> dict[str, tuple[str, int]]:
    """sha256 and mtime of every Markdown file below `root` (hidden dirs included)."""
    out = {}
    for path in sorted(root.rglob("*.md")):
        if path.is_file():
            out[str(path.relative_to(root))] = (hashlib.sha256(path.read_bytes()).hexdigest(),
                                                path.stat().st_mtime_ns)
    return out


def fresh_dump(root: Path, index_dir: Path) -> list[tuple[object, ...]]:
    """The dump of an index built from nothing over the files of `root`, stored elsewhere."""
    index = SqliteIndex(index_dir / "fresh.sqlite")
    try:
        workspace = Workspace(root)
        sync(workspace, index, full=True)
        journal = Journal(workspace.root, workspace.write_lock).read()  # lifecycle state
        index.apply_events(journal.events,
                           (journal.offset, journal.last_hash, journal.last_seq))
        return index.dump()
    finally:
        index.close()


def write(root: Path, rel: str, text: str | bytes) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8", newline="")
    else:
        path.write_bytes(text)
    return path


def fact_rows(dump: Sequence[tuple[object, ...]]) -> list[tuple[object, ...]]:
    return [row for row in dump if row[0] == "fact"]


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """One private PostgreSQL cluster for the session (tests/server_support.py)."""
    from server_support import start_cluster

    cluster = start_cluster()
    yield cluster
    cluster.destroy()


@pytest.fixture(scope="module")
def pg_db(pg_cluster: Cluster) -> Provisioned:
    """A fresh, migrated database for one test module: owner and app URLs."""
    from server_support import new_database

    return new_database(pg_cluster)


@pytest.fixture
def app_pool(pg_db: Provisioned) -> Iterator[Any]:
    """A connection pool on the module's database as the serving (app) role."""
    from memfold.server.db import connect_pool

    found = connect_pool(pg_db.app, size=6)
    yield found
    found.close()
