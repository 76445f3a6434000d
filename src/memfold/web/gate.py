"""Who may use the web view, and which writes it accepts.

- Host: every request must name a loopback host (127.0.0.1, ::1, localhost) in its Host
  header, so a web page elsewhere cannot reach the view through DNS rebinding.
- Login: `memfold ui` prints (and opens) a link with a one-time token.  The first request
  carrying it is answered with a session cookie (HttpOnly, SameSite=Strict) and a redirect
  to the same page without the token; the token then stops working.  Every other request
  needs the cookie.  Sessions live in the server's memory: a restart signs everyone out.
- Writes: every POST form carries the session's CSRF token, compared in constant time;
  a request whose Origin names another host, or that the browser marks as cross-site
  (Sec-Fetch-Site), is refused before the form is read.
- Every response forbids framing, sniffing, referrers, caching and any script, style or
  image from another origin (Content-Security-Policy), so nothing leaves the machine.
"""

from __future__ import annotations

import hmac
import secrets
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlencode, urlsplit

from starlette.datastructures import Headers, MutableHeaders
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from memfold.loopback import is_loopback

COOKIE = "memfold_session"
CSRF_FIELD = "csrf"
MAX_FORM_BYTES = 64 * 1024
SECURITY_HEADERS = {
    "content-security-policy": "default-src 'none'; script-src 'self'; style-src 'self'; "
                               "img-src 'self' data:; form-action 'self'; base-uri 'none'; "
                               "frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
}
USED_LINK = ("This sign-in link was used already (it works once) or is wrong. Run "
             "<code>memfold ui</code> again for a new one.")
NO_SESSION = ("Open the link <code>memfold ui</code> printed: it signs this browser in "
              "(once).")


class Refused(Exception):
    """A request the gate turns away: (HTTP status, one-line reason)."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status


@dataclass
class Session:
    """One signed-in browser: its CSRF token, and messages for the next page it shows."""

    csrf: str
    flash: list[tuple[str, str]] = field(default_factory=list)  # (level, message)


class Gate:
    """ASGI middleware in front of the pages: Host check, one-time login, session cookie,
    security headers.  `token` is the one-time login token (None: nobody can sign in)."""

    def __init__(self, app: ASGIApp, *, token: str | None,
                 hosts: Sequence[str] | None = None) -> None:
        self.app = app
        self._token = token
        self._hosts = tuple(h.lower() for h in hosts) if hosts else None
        self._sessions: dict[str, Session] = {}
        self._lock = threading.Lock()

    def login(self, given: str) -> str | None:
        """A new session id if `given` is the login token (which then stops working)."""
        with self._lock:
            if self._token is None or not hmac.compare_digest(given.encode(),
                                                              self._token.encode()):
                return None
            self._token = None
            sid = secrets.token_urlsafe(32)
            self._sessions[sid] = Session(csrf=secrets.token_urlsafe(32))
            return sid

    def session(self, sid: str | None) -> Session | None:
        return self._sessions.get(sid) if sid else None

    def host_allowed(self, host: str) -> bool:
        name = urlsplit(f"//{host.strip()}").hostname or ""
        if self._hosts is not None:
            return name in self._hosts
        return is_loopback(name)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers.setdefault(name, value)
            await send(message)

        response = self._screen(scope)
        if response is not None:
            await response(scope, receive, send_secured)
            return
        await self.app(scope, receive, send_secured)

    def _screen(self, scope: Scope) -> Response | None:
        """The response that ends a request here, or None to let it through (with its
        session in `scope["state"]`)."""
        headers = Headers(scope=scope)
        if not self.host_allowed(headers.get("host", "")):
            return _page(403, "Forbidden: the Host header is not a loopback address.")
        query = parse_qsl(scope.get("query_string", b"").decode("latin-1"),
                          keep_blank_values=True)
        token = next((v for k, v in query if k == "token"), None)
        if token is not None:
            sid = self.login(token)
            if sid is None:
                return _page(403, USED_LINK)
            rest = urlencode([(k, v) for k, v in query if k != "token"])
            root = scope.get("root_path", "")
            target = f"{root}{scope.get('path', '/')}" + (f"?{rest}" if rest else "")
            redirect = RedirectResponse(target, status_code=303)
            redirect.set_cookie(COOKIE, sid, httponly=True, samesite="strict",
                                path=root or "/")
            return redirect
        session = self.session(_cookie(headers, COOKIE))
        if session is None:
            return _page(401, NO_SESSION)
        scope.setdefault("state", {})["session"] = session
        return None


def check_write(session: Session, form: Mapping[str, str], headers: Headers) -> None:
    """Refuse a POST that another site could have sent: a cross-site fetch, a foreign
    Origin, or a missing or wrong CSRF token."""
    site = headers.get("sec-fetch-site")
    if site and site not in ("same-origin", "none"):
        raise Refused(403, f"refused: a {site} request cannot change this memory")
    origin = headers.get("origin")
    if origin and origin != "null":
        host = urlsplit(origin).netloc
        if host.lower() != headers.get("host", "").lower():
            raise Refused(403, "refused: the form was sent from another origin")
    given = form.get(CSRF_FIELD, "")
    if not hmac.compare_digest(given.encode(), session.csrf.encode()):
        raise Refused(403, "refused: the form's CSRF token is missing or out of date; "
                           "reload the page and try again")


def parse_form(body: bytes) -> dict[str, str]:
    """An `application/x-www-form-urlencoded` body as a dict (the last value of a repeated
    field wins; the view's forms repeat none)."""
    if len(body) > MAX_FORM_BYTES:
        raise Refused(413, f"refused: the form is over {MAX_FORM_BYTES // 1024} KiB")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise Refused(400, "refused: the form is not UTF-8") from None
    return dict(parse_qsl(text, keep_blank_values=True))


def _cookie(headers: Headers, name: str) -> str | None:
    for part in headers.get("cookie", "").split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return value
    return None


def _page(status: int, message_html: str) -> Response:
    body = ("<!doctype html><html lang=en><meta charset=utf-8><title>memfold</title>"
            f"<body><main><h1>memfold</h1><p>{message_html}</p></main></body></html>")
    return HTMLResponse(body, status_code=status)

