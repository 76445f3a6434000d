"""What the server's tests share: one private PostgreSQL cluster per test session, a fresh
database per test module, tenants with tokens, an in-process app and `memfold serve`
processes.

The cluster is started from the machine's PostgreSQL binaries (memfold_bench.pg_cluster),
or MEMFOLD_TEST_PG names an existing server (a superuser URL).  With neither, the tests that
need it fail with one line (the README's test command installs the binaries first).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memfold_bench.pg_cluster import Cluster, Provisioned, find_bin, free_port
from system_support import missing

_numbers = itertools.count(1)


class ExternalCluster(Cluster):
    """An existing server named by MEMFOLD_TEST_PG; it is never stopped or removed."""

    def __init__(self, url: str) -> None:  # noqa: D107 - no files of its own
        self._url = url.rstrip("/")

    def url(self, user: str = "postgres", database: str = "postgres",
            password: str | None = None) -> str:
        from urllib.parse import urlsplit

        parts = urlsplit(self._url)
        secret = f":{password}" if password else (f":{parts.password}" if
                                                  user == parts.username and parts.password
                                                  else "")
        name = parts.username if user == "postgres" else user
        return f"postgresql://{name}{secret}@{parts.hostname}:{parts.port or 5432}/{database}"

    def destroy(self) -> None:
        pass


def start_cluster() -> Cluster:
    named = os.environ.get("MEMFOLD_TEST_PG")
    if named:
        return ExternalCluster(named)
    if find_bin() is None:
        message = ("no PostgreSQL server binaries (initdb, pg_ctl): install the postgresql "
                   "package or set MEMFOLD_TEST_PG to run the server tests")
        missing(message)
    return Cluster.start()


@dataclass
class Tenant:
    name: str
    tokens: dict[str, str]  # token name -> secret


def new_database(cluster: Cluster) -> Provisioned:
    return cluster.provision(f"memfold_test_{os.getpid()}_{next(_numbers)}")


def owner_pool(db: Provisioned) -> Any:
    from memfold.server.db import connect_pool

    return connect_pool(db.owner, size=2)


def make_tenant(db: Provisioned, name: str, banks: tuple[str, ...] = ("main",),
                tokens: dict[str, tuple[tuple[str, ...], str | None]] | None = None) -> Tenant:
    """A tenant with banks and tokens: token name -> (scopes, bank restriction or None)."""
    from memfold.server import admin

    pool = owner_pool(db)
    try:
        admin.create_tenant(pool, name)
        for bank in banks:
            admin.create_bank(pool, name, bank)
        wanted = tokens if tokens is not None else {"agent": (("read", "write"), None)}
        made = {token: admin.create_token(pool, name, token, scopes, bank)
                for token, (scopes, bank) in wanted.items()}
    finally:
        pool.close()
    return Tenant(name, made)


@contextlib.contextmanager
def app_client(db: Provisioned, *, embedder: Any = None, recall_from: str = "postgres",
               cache: Path | None = None, **limits: Any) -> Iterator[Any]:
    """An in-process server on `db` (the app role, a fresh cache unless `cache`) and a
    Starlette TestClient for it; `limits` set memfold.server.app.Limits fields, `embedder`
    (a function giving an Embedder) turns vectors on, `recall_from` is `serve
    --recall-from`."""
    from starlette.testclient import TestClient

    from memfold.server.app import Limits, Server, build_app
    from memfold.server.db import connect_pool
    from memfold.server.replica import Replica

    pool = connect_pool(db.app, size=8)
    cache = cache or Path(tempfile.mkdtemp(prefix="memfold-test-cache-"))
    replica = Replica(pool, cache, embedder=embedder, recall_from=recall_from)
    try:
        with TestClient(build_app(Server(pool, replica, Limits(**limits)))) as client:
            yield client
    finally:
        replica.close()
        pool.close()
        shutil.rmtree(cache, ignore_errors=True)


@contextlib.contextmanager
def copy_and_postgres(pool: Any, *, embedder: Any = None) -> Iterator[tuple[Any, Any, Path]]:
    """Two replicas on `pool` for a parity test: one answering through a copy of each bank
    (`--recall-from copy`), one from PostgreSQL (`--recall-from postgres`), and the latter's
    cache directory, which stays empty while it needs no copy.  Both closed after."""
    from memfold.server.replica import Replica

    with tempfile.TemporaryDirectory() as tmp:
        copies, empty = Path(tmp) / "copies", Path(tmp) / "empty"
        copies.mkdir()
        empty.mkdir()
        through_copy = Replica(pool, copies, embedder=embedder, listen=False,
                               recall_from="copy")
        from_pg = Replica(pool, empty, embedder=embedder, listen=False, recall_from="postgres")
        try:
            yield through_copy, from_pg, empty
        finally:
            through_copy.close()
            from_pg.close()


def caller(tenant: str, name: str = "agent", *scopes: str) -> Any:
    """A request's caller in `tenant` as the server reads its token: `name`, with these
    scopes (read and write when none are given), for every bank."""
    from memfold.server.admin import Caller

    return Caller(tenant, name, frozenset(scopes or ("read", "write")), None)


def counted_recall(pool: Any, tenant: str, query: str,
                   **options: Any) -> tuple[list[Any], list[str]]:
    """A recall from PostgreSQL in `tenant`'s bank "main": its hits and the statements its
    ranking ran (each `execute` on the bank's connection)."""
    from memfold.server.pgrecall import answer

    statements: list[str] = []

    def work(bank: Any) -> list[Any]:
        conn = bank.index.conn

        class Counting:
            def execute(self, sql: Any, *args: Any, **kwargs: Any) -> Any:
                statements.append(str(sql))
                return conn.execute(sql, *args, **kwargs)

        bank.index.conn = Counting()
        return list(bank.recall(query, k=10, mode="lexical", **options).hits)

    return answer(pool, caller(tenant), "main", work), statements


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def post_verb(url: str, bank: str, verb: str, body: dict[str, Any], token: str) -> Any:
    """One verb over HTTP to a served replica (`serve`), its JSON answer."""
    import urllib.request

    request = urllib.request.Request(f"{url}/v1/banks/{bank}/{verb}",
                                     data=json.dumps(body).encode(), method="POST",
                                     headers={**bearer(token),
                                              "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:  # noqa: S310
        return json.loads(answer.read())


@dataclass
class Served:
    """A `memfold serve` process on loopback."""

    process: subprocess.Popen[bytes]
    url: str
    log: Path

    def stop(self, kill: bool = False) -> None:
        if self.process.poll() is None:
            (self.process.kill if kill else self.process.terminate)()
            self.process.wait(timeout=30)
        self.log.unlink(missing_ok=True)  # read while it runs (errors); nothing after


def serve(db: Provisioned, *, extra: tuple[str, ...] = (), env: dict[str, str] | None = None
          ) -> Served:
    """Start `memfold serve` on a free port and wait until /readyz answers 200."""
    import urllib.request

    port = free_port()
    log = Path(tempfile.mkstemp(prefix="memfold-serve-", suffix=".log")[1])
    with open(log, "wb") as handle:  # the process keeps its own copy for its whole life
        process = subprocess.Popen(
            [sys.executable, "-m", "memfold", "serve", "--db", db.app, "--port", str(port),
             "--rate", "0", *extra], stdout=handle, stderr=subprocess.STDOUT,
            env={**os.environ, **(env or {})})
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"memfold serve exited: {log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(url + "/readyz", timeout=2) as answer:  # noqa: S310
                if answer.status == 200:
                    return Served(process, url, log)
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError(f"memfold serve did not become ready: {log.read_text()[-2000:]}")
