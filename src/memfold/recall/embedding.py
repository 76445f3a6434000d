"""When `Memory` embeds: its vector search, opened on demand, and new facts embedded quietly.

A recall asks `mode()` which mode runs (the one asked for, else the workspace's default) and
gets the vector search with the vectors brought up to date — only new or changed facts, and
during a recall never more than EMBED_DURING_RECALL of them nor waiting on another process
that is embedding (`memfold index` embeds a larger backlog).  Embedding never fails a sync or
a recall: a failure becomes a notice and the facts are found by their words meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from memfold import config, embed
from memfold.errors import BadInput, EmbedUnavailable
from memfold.recall.fusion import LEXICAL
from memfold.recall.modes import check_mode, default_mode, open_semantic

if TYPE_CHECKING:
    from memfold.embed.base import Embedder
    from memfold.index.base import IndexBackend
    from memfold.recall.semantic import Semantic

EMBED_DURING_RECALL = 2000  # a larger backlog is embedded by `memfold index`, not a recall
JUDGE_EMBED = ("auto", "on", "off")


class Embedding:
    """The vector search of one open workspace (`directory`: its `.memory/`), if any."""

    def __init__(self, directory: Path, notify: Callable[[str], None]) -> None:
        self.directory = directory
        self.notify = notify
        self.semantic: Semantic | None = None  # opened by a semantic recall or `index`
        self.judge_embed = config.choice("MEMFOLD_JUDGE_EMBED")  # checked on opening
        if self.judge_embed not in JUDGE_EMBED:
            raise BadInput(f"MEMFOLD_JUDGE_EMBED={self.judge_embed!r} is not one of "
                           f"{', '.join(JUDGE_EMBED)}")

    @property
    def notices(self) -> list[str]:
        return self.semantic.notices if self.semantic else []

    def use(self, embedder: Embedder) -> None:
        """Search with this embedder (tests pass a FakeEmbedder)."""
        self.semantic = open_semantic(self.directory, embedder)

    def for_judge(self) -> Embedder | None:
        """The model the supersede judge may ask which older fact a new one speaks of
        (lifecycle.judge.meaning), by MEMFOLD_JUDGE_EMBED: `auto` when this workspace
        searches by vectors (as recall's default mode), `on` whenever the extra is installed,
        `off` never.  None leaves the rule judge as it is; a model that cannot load is one
        notice, not a failed retain."""
        if self.judge_embed == "off":
            return None
        if self.semantic is not None:
            return self.semantic.embedder
        wanted = self.judge_embed == "on" or embed.enabled(self.directory)
        if not wanted or not embed.installed():
            return None
        try:
            return embed.shared_embedder()
        except EmbedUnavailable as exc:
            self.notify(f"the judge reads words only: {exc}")
            return None

    def mode(self, backend: IndexBackend, mode: str | None, *,
             backlog: bool = False) -> tuple[str, Semantic | None]:
        """The recall mode and its vector search, the vectors brought up to date (a large
        backlog only with `backlog`).  A mode asked for that cannot run raises; the default
        falls back to lexical with a notice."""
        asked = check_mode(mode)
        chosen = asked or default_mode(self.semantic is not None, self.directory)
        if chosen == LEXICAL:
            return chosen, None
        if self.semantic is None:
            try:
                self.semantic = open_semantic(self.directory)
            except EmbedUnavailable as exc:
                if asked:
                    raise
                self.notify(f"recall is lexical: {exc}")
                return LEXICAL, None
        self.embed_quietly(backend, True, during_recall=not backlog)  # cheap: nothing new
        return chosen, self.semantic

    def open_for_index(self) -> None:
        """Before `memfold index`: open the model when the workspace uses vectors, so the
        sync embeds everything new, however much."""
        if self.semantic is not None or default_mode(memory_dir=self.directory) == LEXICAL:
            return
        try:
            self.semantic = open_semantic(self.directory)
        except EmbedUnavailable as exc:
            self.notify(f"vectors not updated: {exc}")

    def embed_quietly(self, backend: IndexBackend, show: bool = False, *,
                      during_recall: bool = False) -> None:
        """Embed facts that have no vector yet; a failure leaves them to lexical search."""
        # vector search (numpy): only with vectors
        from memfold.recall.semantic import terminal_progress

        if self.semantic is None:
            return
        try:
            progress = terminal_progress() if show else None
            limit = EMBED_DURING_RECALL if during_recall else None
            done = self.semantic.update(backend, progress, wait=not during_recall,
                                        max_new=limit)
        except Exception as exc:  # noqa: BLE001 - embedding must never fail a sync
            self.notify(f"could not embed new facts ({exc}); they are found by their words "
                        "until the next recall")
            return
        if done < -1:
            self.notify(f"{-done} facts have no vector yet; `memfold index` embeds them "
                        "(until then recall finds them by words)")
