"""The web view's ASGI app: routes, static files, and the gate in front of them.

    app = create_app(lambda: Memory.open(path), token=secrets.token_urlsafe(32))

`open_memory` is called once, in the app's worker thread, on the first request that needs
the workspace; the Memory is closed when the app shuts down (its lifespan).  `token` is the
one-time login token (`memfold.web.gate`); `hosts` replaces the loopback Host check with a
list of host names (for a server that mounts this app behind its own checks).  Mounted
under a prefix, every link and the session cookie follow the prefix (`root_path`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

from starlette.applications import Starlette
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp

from memfold.memory import Memory
from memfold.web import actions, pages
from memfold.web.common import Worker, environment
from memfold.web.gate import Gate

STATIC = Path(__file__).parent / "static"


def create_app(open_memory: Callable[[], Memory], *, token: str | None,
               hosts: Sequence[str] | None = None) -> ASGIApp:
    """The web view over the workspace `open_memory` opens, behind the gate."""
    worker = Worker(open_memory)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            worker.close()

    routes = [
        Route("/", pages.home),
        Route("/search", pages.search),
        Route("/file", pages.source_file),
        Route("/timeline", pages.timeline),
        Route("/entity", pages.entity),
        Route("/opinions", pages.opinions),
        Route("/lifecycle", pages.lifecycle),
        Route("/health", pages.health),
        Route("/fact/{fact_id}", pages.fact),
        Route("/act/restore", actions.restore, methods=["POST"]),
        Route("/act/supersede", actions.supersede, methods=["POST"]),
        Route("/act/note", actions.note, methods=["POST"]),
        Route("/act/use", actions.use, methods=["POST"]),
        Route("/act/forget", actions.forget, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.worker = worker
    app.state.templates = environment()
    return Gate(app, token=token, hosts=hosts)
