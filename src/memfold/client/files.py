"""A workspace directory as the body of `memfold import`, and an export written back out as
a workspace: the client's side of moving files to and from a memfold server (standard
library only; the server's side is memfold.server.exchange).
"""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

from memfold.errors import BadInput, MemfoldError
from memfold.journal.log import JOURNAL_NAME
from memfold.workspace.layout import GITIGNORE, Workspace


def read_workspace(root: str | Path) -> dict[str, Any]:
    """A local workspace's files and journal as an import body."""
    workspace = Workspace(Path(root))
    workspace.require()
    files = [{"path": path, "content": base64.b64encode(
        workspace.abspath(path).read_bytes()).decode()}
        for path in sorted(workspace.scan().found)]
    journal_path = workspace.root / JOURNAL_NAME
    journal = journal_path.read_text("utf-8").splitlines() if journal_path.exists() else []
    return {"files": files, "journal": [line for line in journal if line.strip()]}


def write_workspace(into: str | Path, exported: dict[str, Any]) -> list[str]:
    """Write an export into `into` (absent or empty) as a workspace; returns the paths."""
    root = Path(into)
    if root.exists() and any(root.iterdir()):
        raise BadInput(f"{root} is not empty; export into a new directory")
    written: list[str] = []
    try:
        for item in exported["files"]:
            path = str(item["path"])
            if ".." in path.split("/") or path.startswith("/"):
                raise BadInput(f"the server sent a path outside the workspace: {path!r}")
            target = root / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(base64.b64decode(item["content"]))
            written.append(path)
        for directory in ("memory", "bank", "bank/entities"):  # a workspace's own skeleton
            (root / directory).mkdir(parents=True, exist_ok=True)
        if not (root / ".gitignore").exists():
            (root / ".gitignore").write_text(GITIGNORE, "utf-8")
        if exported["journal"]:
            (root / JOURNAL_NAME).write_text(
                "".join(line + "\n" for line in exported["journal"]), "utf-8")
            written.append(JOURNAL_NAME)
    except OSError as exc:
        raise MemfoldError(f"cannot write the export into {root}: {exc.strerror}") from None
    return written
