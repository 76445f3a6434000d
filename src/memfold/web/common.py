"""What the pages and the actions share: the worker thread that owns the `Memory`, the
template environment, and how a library error is shown.

One `Memory` serves the whole app, opened lazily and used only in one worker thread: its
SQLite connection belongs to the thread that opened it, and one thread also keeps reads and
writes in order, as one CLI process would.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlencode

import jinja2
from starlette.requests import Request
from starlette.responses import HTMLResponse

from memfold.errors import MemfoldError, UnknownId
from memfold.memory import Memory
from memfold.values import LETTER_OF_KIND, Fact, hidden_kinds, redacted, reveal
from memfold.web.gate import CSRF_FIELD, Session

_T = TypeVar("_T")
TEMPLATES = Path(__file__).parent / "templates"


class Worker:
    """Runs calls on one Memory in one thread; the Memory is opened by `open_memory` on
    the first call (in that thread) and closed by `close` (a later call opens it again)."""

    def __init__(self, open_memory: Callable[[], Memory]) -> None:
        self._open = open_memory
        self._memory: Memory | None = None
        self._pool: ThreadPoolExecutor | None = None

    def _run(self, call: Callable[[Memory], _T]) -> _T:
        if self._memory is None:
            self._memory = self._open()
        return call(self._memory)

    async def __call__(self, call: Callable[[Memory], _T]) -> _T:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="memfold-web")
        return await asyncio.get_running_loop().run_in_executor(self._pool, self._run, call)

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return

        def shut() -> None:
            if self._memory is not None:
                self._memory.close()
                self._memory = None
        pool.submit(shut).result()
        pool.shutdown()


def worker(request: Request) -> Worker:
    found: Worker = request.app.state.worker
    return found


def failure(exc: MemfoldError) -> tuple[int, str]:
    """(HTTP status, the line the CLI prints) for a library error."""
    status = 404 if isinstance(exc, UnknownId) else {2: 400, 3: 409}.get(exc.exit_code, 500)
    return status, f"memfold: error: {exc}"


def shown(text: object) -> str:
    """Text as every page shows it: likely secrets redacted, hidden characters revealed as
    `memfold recall` reveals them (⟦U+202E⟧, ⟦comment: ...⟧); autoescaping does the rest."""
    return reveal(redacted(str(text)))


def cite_url(fact: Fact, root: str = "") -> str:
    """The file view at the fact's line: /file?path=memory/2025-11-27.md#L4."""
    return f"{root}/file?{urlencode({'path': fact.path})}#L{fact.line}"


def environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True,
                             lstrip_blocks=True)
    env.filters["shown"] = shown
    env.filters["hidden"] = lambda text: hidden_kinds(str(text))
    env.filters["letter"] = lambda kind: LETTER_OF_KIND.get(str(kind), "T")
    env.filters["query"] = lambda pairs: urlencode(pairs)
    env.globals["cite_url"] = cite_url
    env.globals["CSRF_FIELD"] = CSRF_FIELD
    return env


def render(request: Request, template: str, /, *, status: int = 200,
           **context: Any) -> HTMLResponse:
    """A template with what every page needs: the mount root, the CSRF token, the
    messages left by the last action, the current path."""
    session: Session = request.state.session
    flash, session.flash[:] = list(session.flash), []
    env: jinja2.Environment = request.app.state.templates
    context.setdefault("error", None)
    html = env.get_template(template).render(
        root=request.scope.get("root_path", ""), csrf=session.csrf, flash=flash,
        here=request.url.path, **context)
    return HTMLResponse(html, status_code=status)
