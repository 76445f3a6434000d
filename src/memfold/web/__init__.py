"""The local web view, `memfold ui`: pages over one workspace, served on 127.0.0.1.

`memfold.web.app.create_app` builds the ASGI app (Starlette, Jinja2 templates, no front-end
build step, nothing fetched from another host); `memfold.web.serve` runs it with uvicorn
behind a one-time login link.  The pages read through `memfold.Memory` (and `Memory.views`)
only, and write through the same methods the CLI calls, so every action journals the same
events.  The web stack is the optional `web` extra, imported only when the view runs.
"""

from __future__ import annotations

from memfold.errors import MemfoldError

INSTALL_HINT = "memfold ui needs the web extra: pip install 'memfold[web]'"


def require_extra() -> None:
    """Raise MemfoldError with the install hint when the web extra is not installed."""
    try:
        import jinja2  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise MemfoldError(INSTALL_HINT) from None
