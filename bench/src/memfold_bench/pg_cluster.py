"""A private PostgreSQL cluster for tests and benchmarks: initdb + pg_ctl in a temp directory.

The server binaries come from MEMFOLD_PG_BIN, else the newest /usr/lib/postgresql/*/bin,
else PATH.  The cluster listens on 127.0.0.1 at a free port (and a socket in its own
directory), with fsync and synchronous_commit on, trust authentication and nothing shared
with the machine's own PostgreSQL.  Run as root, the cluster belongs to the `postgres` user
(initdb refuses root) and its commands run through `runuser`.

    cluster = Cluster.start()
    url = cluster.url()                 # postgresql://postgres@127.0.0.1:PORT/postgres
    cluster.stop(mode="immediate"); cluster.restart(); cluster.destroy()
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path


def find_bin() -> Path | None:
    """The directory holding initdb and pg_ctl, or None when this machine has none."""
    named = os.environ.get("MEMFOLD_PG_BIN")
    if named:
        return Path(named) if (Path(named) / "pg_ctl").exists() else None
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
                   key=lambda p: int(Path(p).parent.parent.name)
                   if Path(p).parent.parent.name.isdigit() else 0)
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("pg_ctl")
    return Path(on_path).parent if on_path else None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass(frozen=True)
class Provisioned:
    owner: str  # runs migrations and `memfold server ...`
    app: str  # what `memfold serve --db` connects with: bound by row-level security


class Cluster:
    """One private PostgreSQL cluster; `destroy` stops it and removes its files."""

    def __init__(self, bindir: Path, root: Path, port: int) -> None:
        self.bindir = bindir
        self.root = root
        self.port = port
        self.data = root / "data"
        self.log = root / "server.log"
        self._as_postgres = os.geteuid() == 0

    @classmethod
    def start(cls, bindir: Path | None = None) -> Cluster:
        chosen = bindir or find_bin()
        if chosen is None:
            raise RuntimeError("no PostgreSQL server binaries (initdb, pg_ctl) on this machine")
        root = Path(tempfile.mkdtemp(prefix="memfold-pg-"))
        cluster = cls(chosen, root, free_port())
        if cluster._as_postgres:
            shutil.chown(root, "postgres", "postgres")
            root.chmod(0o755)
        cluster._run("initdb", "-D", str(cluster.data), "-U", "postgres", "--auth=trust",
                     "--encoding=UTF8", "--no-locale", "--no-sync")
        with open(cluster.data / "postgresql.conf", "a", encoding="utf-8") as conf:
            conf.write(f"\nport = {cluster.port}\nlisten_addresses = '127.0.0.1'\n"
                       f"unix_socket_directories = '{root}'\nfsync = on\n"
                       "synchronous_commit = on\nmax_connections = 200\n"
                       "shared_buffers = 64MB\n")
        cluster.restart()
        return cluster

    def _run(self, tool: str, *args: str) -> None:
        command = [str(self.bindir / tool), *args]
        if self._as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    def url(self, user: str = "postgres", database: str = "postgres",
            password: str | None = None) -> str:
        secret = f":{password}" if password else ""
        return f"postgresql://{user}{secret}@127.0.0.1:{self.port}/{database}"

    def restart(self) -> None:
        """Start the server (or start it again after a stop), waiting until it accepts."""
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60",
                  "start")

    def stop(self, mode: str = "fast") -> None:
        """Stop the server: `fast` (clean) or `immediate` (as a crash: no checkpoint)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def provision(self, database: str) -> Provisioned:
        """A new database set up as docs/server.md sets one up: an owner role that ran the
        migrations, and a login role in memfold_app for the server (both with password
        "memfold"; roles are per cluster, so later databases reuse them)."""
        import psycopg

        from memfold.server import migrate

        with psycopg.connect(self.url(), autocommit=True) as conn:
            if conn.execute("SELECT 1 FROM pg_roles WHERE rolname = 'memfold_owner'"
                            ).fetchone() is None:
                conn.execute("CREATE ROLE memfold_owner LOGIN CREATEROLE PASSWORD 'memfold'")
            conn.execute(f'CREATE DATABASE "{database}" OWNER memfold_owner')
        owner = self.url("memfold_owner", database, "memfold")
        migrate.upgrade(owner)
        with psycopg.connect(self.url(database=database), autocommit=True) as conn:
            if conn.execute("SELECT 1 FROM pg_roles WHERE rolname = 'memfold_server'"
                            ).fetchone() is None:
                conn.execute("CREATE ROLE memfold_server LOGIN PASSWORD 'memfold' "
                             "IN ROLE memfold_app")
        return Provisioned(owner=owner, app=self.url("memfold_server", database, "memfold"))

    def destroy(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):  # already stopped
            self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)
