"""The warm process's socket, seen from both ends: where it lives (a directory only this user
may enter, a name that changes with the installed code), who may use it (`eligible`), the wire
(a 4-byte length, then a marshal'd value), a request and an answer, and starting a process.

Imported by memfold.cli.launch on every `memfold` run, so like it this module imports nothing
but the standard library's builtins at start-up; memfold.cli.warm_control (the caller's
`memfold warm` commands) and memfold.cli.warm_process (the process) build on it too, so none of
them imports the front door, which imports the commands.
"""

from __future__ import annotations

import os
import sys

from memfold import config

TYPE_CHECKING = False  # (typing is not imported: type checkers read this name as true)
if TYPE_CHECKING:
    from collections.abc import Mapping
    from socket import socket as Socket
    from typing import Any

    Env = Mapping[str, str]

# Verbs that only read and never read stdin: a warm process may answer them.  `review` too
# when it lists (`review_lists`): its subcommands accept and reject write.
WARM_VERBS = frozenset({"recall", "about", "show", "history", "trace", "status", "context"})
_VALUED = frozenset({"--workspace", "-w", "--server", "--bank", "--as-of"})  # global options
_REVIEW_VALUED = frozenset({"--since", "--entity", "--rule", "--limit"})  # review's options
MODES = ("auto", "on", "off")  # MEMFOLD_WARM: start on demand, use only, never
IDLE_SECONDS = 600
TIMEOUT_SECONDS = 120.0  # a warm answer slower than this is abandoned and run here instead


def verb_of(argv: list[str]) -> str | None:
    """The command `argv` names (after the global options), or None when an option such as
    --help or --version comes first or there is none."""
    at = _verb_at(argv)
    return None if at is None else argv[at]


def _verb_at(argv: list[str]) -> int | None:
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in _VALUED:
            i += 2
        elif arg.startswith("--") and "=" in arg or arg.startswith("-w") and len(arg) > 2:
            i += 1
        elif arg.startswith("-"):
            return None
        else:
            return i
    return None


def review_lists(argv: list[str]) -> bool:
    """Whether `argv` is `memfold review` listing the queue (its options only), not one of
    its subcommands (accept, reject), which write."""
    at = _verb_at(argv)
    if at is None or argv[at] != "review":
        return False
    i = at + 1
    while i < len(argv):
        if argv[i] in _REVIEW_VALUED:
            i += 2
        elif argv[i].startswith("-"):
            i += 1
        else:
            return False  # a subcommand
    return True


def _server_chosen(argv: list[str], env: Env) -> bool:
    return bool(config.given("MEMFOLD_SERVER", env)) or any(
        a == "--server" or a.startswith("--server=") for a in argv)


def mode(env: Env = os.environ) -> str:
    value = config.choice("MEMFOLD_WARM", env)
    return value if value in MODES else "auto"


def eligible(argv: list[str], env: Env = os.environ) -> bool:
    """Whether a warm process may answer this command line."""
    return (mode(env) != "off" and (verb_of(argv) in WARM_VERBS or review_lists(argv))
            and not _server_chosen(argv, env))


def runtime_dir(env: Env = os.environ) -> str:
    """Where the warm process's socket lives: MEMFOLD_WARM_DIR, else $XDG_RUNTIME_DIR/memfold,
    else /tmp/memfold-<uid>.  It must be this user's own and closed to others (0700)."""
    chosen = config.given("MEMFOLD_WARM_DIR", env)
    if chosen:
        return chosen
    xdg = env.get("XDG_RUNTIME_DIR")
    return os.path.join(xdg, "memfold") if xdg else f"/tmp/memfold-{os.getuid()}"


def private_dir(path: str) -> bool:
    """True when `path` is a directory owned by this user that no one else may enter."""
    try:
        info = os.stat(path)
    except OSError:
        return False
    return info.st_uid == os.getuid() and (info.st_mode & 0o077) == 0 and \
        (info.st_mode & 0o170000) == 0o040000


def code_key() -> str:
    """Which memfold this is: the environment (sys.prefix), the package's folder and the
    newest mtime of its modules.  A warm process serves only callers with the same key, so
    an upgrade or an edit never gets answers from code that is no longer installed."""
    import zlib

    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # memfold/, not cli/
    newest = 0
    pending = [package]
    while pending:
        with os.scandir(pending.pop()) as entries:
            for entry in entries:
                if entry.name.endswith(".py"):
                    newest = max(newest, entry.stat().st_mtime_ns)
                elif entry.is_dir() and entry.name[0] not in "._":
                    pending.append(entry.path)
    ident = f"{sys.prefix}\0{package}\0{newest}".encode("utf-8", "surrogateescape")
    return f"{zlib.crc32(ident):08x}"


def socket_path(env: Env = os.environ) -> str:
    return os.path.join(runtime_dir(env), f"warm-{code_key()}.sock")


# -- the wire: a 4-byte length, then a marshal'd value (both ends are this same interpreter) --


def send(conn: Socket, value: Any) -> None:
    import marshal

    data = marshal.dumps(value)
    conn.sendall(len(data).to_bytes(4, "big") + data)


def receive(conn: Socket) -> object:
    import marshal

    head = _exactly(conn, 4)
    return marshal.loads(_exactly(conn, int.from_bytes(head, "big")))


def _exactly(conn: Socket, size: int) -> bytes:
    parts: list[bytes] = []
    while size:
        part = conn.recv(min(size, 1 << 20))
        if not part:
            raise ConnectionError("the warm process closed the connection")
        parts.append(part)
        size -= len(part)
    return b"".join(parts)


def connect(path: str, timeout: float | None) -> Socket | None:
    """A connection to the warm process at `path`, or None when none listens there (or its
    directory is not this user's own)."""
    import _socket

    if not private_dir(os.path.dirname(path)):
        return None
    conn: Socket = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)  # type: ignore[assignment]
    conn.settimeout(timeout)
    try:
        conn.connect(path)
    except OSError:
        conn.close()
        return None
    return conn


def request(path: str, message: dict[str, object], timeout: float) -> object | None:
    """One request to the warm process at `path`: its answer, or None when none answers."""
    conn = connect(path, timeout)
    if conn is None:
        return None
    try:
        send(conn, message)
        return receive(conn)
    except (OSError, ValueError, EOFError, TypeError):
        return None
    finally:
        conn.close()


def ask(argv: list[str], path: str) -> tuple[int, str, str] | None:
    """The warm process's answer to `argv` as (exit status, stdout, stderr), or None when it
    cannot give one (then the command runs in this process)."""
    answer = request(path, {"op": "run", "argv": argv, "cwd": os.getcwd(),
                            "env": dict(os.environ)}, TIMEOUT_SECONDS)
    if not isinstance(answer, tuple) or len(answer) != 3 or answer[0] is None:
        return None  # declined
    code, out, err = answer
    return int(code), str(out), str(err)


def spawn(path: str, idle: int | None = None) -> int:
    """Start a warm process listening at `path`, detached from this one (its own session,
    stdio on /dev/null, so no pipe of the caller stays open); returns its pid."""
    argv = [sys.executable, "-m", "memfold.cli.warm_process", path]
    if idle is not None:
        argv.append(str(idle))
    null = os.devnull
    actions = [(os.POSIX_SPAWN_OPEN, 0, null, os.O_RDONLY, 0),
               (os.POSIX_SPAWN_OPEN, 1, null, os.O_WRONLY, 0),
               (os.POSIX_SPAWN_OPEN, 2, null, os.O_WRONLY, 0)]
    return os.posix_spawn(sys.executable, argv, dict(os.environ), file_actions=actions,
                          setsid=True)


def make_private_dir(directory: str) -> bool:
    """Create the socket's directory (mode 0700) if missing; whether it is private."""
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
    except OSError:
        return False
    return private_dir(directory)
