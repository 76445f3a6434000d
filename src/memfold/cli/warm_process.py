"""The warm process: memfold with everything imported, answering reads for this user's commands.

`python -m memfold.cli.warm_process SOCKET [IDLE]` (what `memfold warm start` and an on-demand
start run) listens on a Unix socket in a directory only this user may enter, and answers each
request of memfold.cli.launch (`warm_socket.ask`) in turn: it takes the caller's working
directory and environment, runs the command line through the same Click command a new process
would run — which opens the workspace afresh, syncs what changed and closes it — and sends back
the exit status, stdout and stderr.  Two things outlive a request: the imported modules, and
one change feed per workspace (`ChangeFeeds`: inotify), so a read stats only the files the
kernel reports changed instead of every file, and scans them all whenever the feed cannot
vouch for the index.  The answer is the one a new process would have printed.

Only `warm_socket.WARM_VERBS`, and `review` when it lists the queue, are served (reads that
never read stdin); anything else is declined and runs in the caller.  A caller with another
uid is refused (SO_PEERCRED).  The process exits after `idle` seconds without a read, on
`memfold warm stop` and on SIGTERM, and removes its socket; a lock file beside the socket
keeps a second one from starting.
"""

from __future__ import annotations

import contextlib
import fcntl
import io
import os
import signal
import socket
import struct
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memfold import config
from memfold.cli import warm_socket

if TYPE_CHECKING:
    from memfold.workspace.watch import Watcher


# -- the warm process ------------------------------------------------------------------------


class _Stop(Exception):
    pass


class _Terminated(BaseException):
    """SIGTERM: unwinds a request in progress past the command's own error handling."""


@contextlib.contextmanager
def _as_caller(cwd: str, env: dict[str, str]) -> Iterator[tuple[io.StringIO, io.StringIO]]:
    """Run in the caller's directory and environment, with stdin empty and stdout and stderr
    captured; everything is put back afterwards."""
    saved_env, saved_cwd = dict(os.environ), os.getcwd()
    saved_streams = sys.stdin, sys.stdout, sys.stderr
    retime = env.get("TZ") != os.environ.get("TZ")
    out, err = io.StringIO(), io.StringIO()
    os.chdir(cwd)
    try:
        os.environ.clear()
        os.environ.update(env)
        if retime:
            time.tzset()
        sys.stdin, sys.stdout, sys.stderr = io.StringIO(), out, err
        yield out, err
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved_streams
        os.environ.clear()
        os.environ.update(saved_env)
        if retime:
            time.tzset()
        os.chdir(saved_cwd)


def run(argv: list[str], cwd: str, env: dict[str, str]) -> tuple[int | None, str, str]:
    """Run one command line as a new `memfold` process would: (exit status, stdout, stderr);
    (None, "", "") declines, and the caller runs it itself."""
    from memfold.cli.main import cli  # everything: loaded once the process is up

    if not warm_socket.eligible(argv, env) or not os.path.isdir(cwd) or not os.access(cwd, os.X_OK):
        return None, "", ""
    code = 0
    with _as_caller(cwd, env) as (out, err):
        try:
            cli.main(args=list(argv), prog_name="memfold", standalone_mode=True)
        except SystemExit as exit_:
            if isinstance(exit_.code, int):
                code = exit_.code
            elif exit_.code is not None:
                print(exit_.code, file=sys.stderr)
                code = 1
    return code, out.getvalue(), err.getvalue()


class ChangeFeeds:
    """One inotify change feed per workspace, kept across requests, so that a read in the
    warm process stats only the files the kernel says changed instead of every file.

    The first read of a workspace scans every file, as a new process does, with the feed
    armed before the scan; after that a read syncs what the feed reports.  When the feed
    cannot say (no inotify, a queue overflow, a new folder) or the index no longer is the one
    the feed last synced (deleted, rebuilt, restored: `Watcher.index_token`), the read scans
    every file again.  The least recently used feeds are closed past `limit` workspaces."""

    def __init__(self, limit: int = 16) -> None:
        self.limit = limit
        self.feeds: dict[str, Watcher] = {}

    def __call__(self, path: str | None) -> Watcher | None:
        from memfold.config import workspace_path
        from memfold.workspace.watch import Watcher  # inotify: only when a read comes

        root = os.path.realpath(workspace_path(path))
        if not os.path.isdir(root):
            return None
        feed = self.feeds.pop(root, None)
        if feed is None or not feed.active:
            if feed is not None:
                feed.close()
            feed = Watcher(Path(root))
        self.feeds[root] = feed  # (re)inserted last: the most recently used
        while len(self.feeds) > self.limit:
            self.feeds.pop(next(iter(self.feeds))).close()
        return feed

    def close(self) -> None:
        for feed in self.feeds.values():
            feed.close()
        self.feeds.clear()


def _peer_uid(conn: socket.socket) -> int:
    creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    return int(struct.unpack("3i", creds)[1])


class WarmServer:
    def __init__(self, path: str, idle: int) -> None:
        self.path = path
        self.idle = idle
        self.served = 0
        self.started = time.time()

    def answer(self, request: Any) -> Any:
        op = request.get("op") if isinstance(request, dict) else None
        if op == "run":
            self.served += 1
            return run(request["argv"], request["cwd"], request["env"])
        if op == "status":
            return {"pid": os.getpid(), "served": self.served, "started": self.started,
                    "idle_seconds": self.idle}
        if op == "stop":
            raise _Stop
        return None

    def serve(self, listener: socket.socket) -> None:
        """Answer requests in turn until `idle` seconds pass without a command to run
        (status requests do not count), or a stop request."""
        last_run = time.monotonic()
        while True:
            left = self.idle - (time.monotonic() - last_run)
            if left <= 0:
                return
            listener.settimeout(left)
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                return
            with conn:
                if _peer_uid(conn) != os.getuid():
                    continue
                conn.settimeout(30.0)
                try:
                    request = warm_socket.receive(conn)
                    reply = self.answer(request)
                    if isinstance(reply, tuple):  # a command ran (or was declined)
                        last_run = time.monotonic()
                except _Stop:
                    with contextlib.suppress(OSError):
                        warm_socket.send(conn, {"stopping": os.getpid()})
                    return
                except (OSError, ValueError, EOFError, KeyError, TypeError):
                    continue
                with contextlib.suppress(OSError):
                    warm_socket.send(conn, reply)


def _warm_up() -> None:
    """Answer a few reads on a scratch workspace, so that what the verbs import on first use
    is imported before the first caller waits for it."""
    import tempfile

    from memfold.memory import Memory  # everything, to answer the first read fast

    with tempfile.TemporaryDirectory(prefix="memfold-warm-") as scratch:
        Memory.init(scratch)
        env = {**os.environ, "MEMFOLD_WARM": "on"}
        for verb in (["recall", "warm up"], ["status"], ["context"], ["about", "Warm"]):
            run(["--workspace", scratch, *verb], scratch, env)


def _terminate(signum: int, frame: object) -> None:
    raise _Terminated


def main(argv: list[str]) -> int:
    """`python -m memfold.cli.warm_process SOCKET [IDLE]`: listen at SOCKET until idle, stopped or
    terminated.  Exits quietly when another warm process holds the socket's lock."""
    path = argv[0]
    idle = int(argv[1]) if len(argv) > 1 else config.integer("MEMFOLD_WARM_IDLE")
    if not warm_socket.private_dir(os.path.dirname(path)):
        return 1
    with open(path + ".lock", "a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return 0  # another warm process is starting or running here
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)  # left by one that was killed
        _warm_up()
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(path)
        os.chmod(path, 0o600)
        listener.listen(64)
        signal.signal(signal.SIGTERM, _terminate)
        from memfold.cli import common as cli_common

        feeds = cli_common.change_feed = ChangeFeeds()
        try:
            WarmServer(path, idle).serve(listener)
        except _Terminated:
            pass
        finally:
            feeds.close()
            listener.close()
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
