"""Run the web view: bind 127.0.0.1, print the one-time sign-in link, serve until Ctrl-C."""

from __future__ import annotations

import secrets
import sys
import webbrowser
from collections.abc import Callable

import uvicorn

from memfold.loopback import listen
from memfold.memory import Memory
from memfold.web.app import create_app

HOST = "127.0.0.1"  # this machine only; `memfold serve` is the way to serve further


def serve(open_memory: Callable[[], Memory], *, port: int, open_browser: bool) -> None:
    """Serve the view on HOST:port (0: a free port).  The link with the one-time token goes
    to stdout (and to the browser unless `open_browser` is false); it signs one browser in,
    once."""
    sock = listen(HOST, port)  # bound first: a busy port fails here, before any output
    port = sock.getsockname()[1]
    token = secrets.token_urlsafe(32)
    app = create_app(open_memory, token=token)
    url = f"http://{HOST}:{port}/?token={token}"
    print(url, flush=True)
    print(f"memfold ui: serving http://{HOST}:{port} to this machine only; the link above "
          "signs one browser in, once. Ctrl-C stops.", file=sys.stderr, flush=True)
    if open_browser:
        webbrowser.open(url)  # the socket already listens: the request waits for the server
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
