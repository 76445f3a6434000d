"""Chat exports as an importer: what `memfold capture` reads (ChatGPT, Claude.ai, Claude
Code, Anthropic and OpenAI messages, text, and the capture-format plugins), handed to the
same engine (`Memory.capture`), so an import and a capture of one export write the same."""

from __future__ import annotations

from pathlib import Path

from memfold.capture.registry import registered
from memfold.importing.sources import Batch, Source


def _transcripts(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*.jsonl") if p.is_file())


class Chat:
    """A chat export capture reads: a file, or a Claude Code project folder."""

    name = "chat"

    def __init__(self, capture_format: str | None = None) -> None:
        self.capture_format = capture_format  # a capture format by name, else detected

    @property
    def description(self) -> str:
        return "a chat export capture reads (" + ", ".join(registered()) + ")"

    def detect(self, source: Source) -> bool:
        if source.path.is_dir():
            return bool(_transcripts(source.path))
        loaded = source.loaded
        return any(fmt.detect(loaded) for fmt in registered().values())

    def read(self, source: Source) -> Batch:
        if source.path.is_dir():
            chats = tuple((str(p), p.read_bytes()) for p in _transcripts(source.path))
        else:
            chats = ((source.name, source.data),)
        return Batch(self.capture_format or self.name, chats=chats)
