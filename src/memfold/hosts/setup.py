"""`Setup`: what memfold writes into every host alike: the command that runs memfold, the
workspace it serves, and the home directory whose configuration changes."""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SERVER = "memfold"  # the name of memfold's entry in every host's server list


@dataclass(frozen=True)
class Setup:
    """What memfold writes into a host: the command that runs memfold, the workspace it
    serves (None: memfold's default), the home directory, and a host's file given in place
    of its usual one (Claude Desktop's `--config`)."""

    home: Path
    command: str
    workspace: str | None = None
    config: Path | None = None

    def arguments(self, *words: str) -> list[str]:
        prefix = ["--workspace", self.workspace] if self.workspace else []
        return [*prefix, *words]

    def server(self) -> dict[str, Any]:
        """The MCP server entry: run `memfold mcp` over stdio."""
        return {"command": self.command, "args": self.arguments("mcp")}

    def shell(self, *words: str) -> str:
        """A shell command line running memfold with `words` (a hook's command)."""
        return shlex.join([self.command, *self.arguments(*words)])
