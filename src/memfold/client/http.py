"""A memfold server's API from the client side: one JSON request, its answer or its error.

Standard library only (urllib), so `--server URL` works on a plain `pip install memfold`.
The server's refusals come back as the errors local memfold raises for the same thing:
400 -> BadInput, 404 -> UnknownId or UnknownBank (BadInput for an unknown verb),
401/403 -> AccessDenied, 409 -> StaleRevision, 503/429 and a server that cannot be reached
-> Unavailable, anything else -> MemfoldError.  Every message is the server's own line.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import quote, urlsplit

from memfold import config
from memfold.errors import (
    AccessDenied,
    BadInput,
    MemfoldError,
    StaleRevision,
    Unavailable,
    UnknownBank,
    UnknownId,
)

TIMEOUT = 60.0


def server_settings(server: str | None = None, token: str | None = None) -> tuple[str, str]:
    """The server URL and token: the arguments, else MEMFOLD_SERVER and MEMFOLD_TOKEN."""
    url = (server or config.given("MEMFOLD_SERVER")).strip().rstrip("/")
    secret = (token or config.given("MEMFOLD_TOKEN")).strip()
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise BadInput(f"server {url!r}: give its URL, such as http://127.0.0.1:8700")
    if not secret:
        raise BadInput("no token for the server: set MEMFOLD_TOKEN (`memfold server token "
                       "create` makes one)")
    return url, secret


def bank_path(bank: str, tail: str) -> str:
    return f"/v1/banks/{quote(bank, safe='')}/{tail}"


def request(url: str, token: str, method: str, path: str, body: Any = None, *,
            timeout: float = TIMEOUT) -> Any:
    """Send one request and return the decoded JSON answer, or raise as the module says."""
    data = None if body is None else json.dumps(body, ensure_ascii=False).encode("utf-8")
    sent = urllib.request.Request(url + path, data=data, method=method, headers={
        "Authorization": f"Bearer {token}", "Content-Type": "application/json",
        "Accept": "application/json"})
    try:
        with urllib.request.urlopen(sent, timeout=timeout) as answer:  # noqa: S310 - http(s)
            return json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as exc:
        raise _error(exc.code, exc.read()) from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise Unavailable(f"cannot reach the memfold server at {url}: {reason}") from None


def _error(status: int, raw: bytes) -> MemfoldError:
    try:
        data = json.loads(raw)
    except ValueError:
        data = {}
    message = str(data.get("error") or f"the server answered HTTP {status}")
    if status == 409 and data.get("result") == "stale":
        return StaleRevision(f"stale: the revision is {data.get('rev')}",
                             current=int(data.get("rev") or 0))
    if status in (401, 403):
        return AccessDenied(message, status=status)
    if status == 404:
        known = {"UnknownId": UnknownId, "UnknownBank": UnknownBank}
        return known.get(str(data.get("type")), BadInput)(message)
    if status in (400, 413):
        return BadInput(message)
    if status in (429, 502, 503, 504):
        return Unavailable(message)
    return MemfoldError(message)
