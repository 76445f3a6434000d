"""The warm process seen from the caller's side: start it, stop it, ask its status
(`memfold warm start|stop|status`; the process itself is memfold.cli.warm_process).

It talks to the process through memfold.cli.warm_socket only, so the commands that use it
import neither the process nor the front door (memfold.cli.launch), which imports them.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any

from memfold.cli import warm_socket
from memfold.errors import WorkspaceError


@dataclass(frozen=True)
class WarmStatus:
    """What `memfold warm status` reports."""

    running: bool
    socket: str
    pid: int | None = None
    served: int = 0
    started: float | None = None
    idle_seconds: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"running": self.running, "socket": self.socket, "pid": self.pid,
                "served": self.served, "started": self.started,
                "idle_seconds": self.idle_seconds}


def _request(path: str, op: str) -> Any:
    """One control request (status, stop) to the warm process at `path`."""
    return warm_socket.request(path, {"op": op}, 5.0)


def status(path: str | None = None) -> WarmStatus:
    path = path or warm_socket.socket_path()
    answer = _request(path, "status")
    if not isinstance(answer, dict):
        return WarmStatus(False, path)
    return WarmStatus(True, path, answer.get("pid"), answer.get("served", 0),
                      answer.get("started"), answer.get("idle_seconds"))


def start(path: str | None = None, *, idle: int | None = None,
          wait: float = 15.0) -> WarmStatus:
    """Start a warm process (unless one is running) and return once it answers."""
    path = path or warm_socket.socket_path()
    found = status(path)
    if found.running:
        return found
    directory = os.path.dirname(path)
    if not warm_socket.make_private_dir(directory):
        raise WorkspaceError(f"{directory} must be a directory of this user's that no one "
                             "else may enter (mode 0700); set MEMFOLD_WARM_DIR to another")
    warm_socket.spawn(path, idle)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        found = status(path)
        if found.running:
            return found
        time.sleep(0.02)
    raise WorkspaceError(f"the warm process did not answer at {path} within {wait:g} s")


def stop(path: str | None = None) -> WarmStatus:
    """Ask the warm process to exit; returns what it was (running False: none was)."""
    path = path or warm_socket.socket_path()
    found = status(path)
    if found.running:
        _request(path, "stop")
    return found
