"""Serving this machine only: the loopback check of a host, a request's Host and Origin, bearer
tokens (one shared, or named ones with scopes read from a file; each at least 32 random
bytes' worth of characters), the `HOST:PORT` a listener is given, and the listening socket.
The MCP server's HTTP transport and the web view both use it."""

from __future__ import annotations

import hmac
import ipaddress
import socket
import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from memfold.errors import BadInput, MemfoldError
from memfold.screening import SOURCE

DEFAULT_HOST = "127.0.0.1"
SCOPES = ("read", "write")  # a named token's: `write` may call every tool, `read` the read-only
# 32 random bytes: 64 hex digits, or 43 characters of base64 (what token_urlsafe(32) gives)
TOKEN_CHARS = {"hex": 64, "other": 43}
TOKEN_HINT = "make one with `openssl rand -hex 32`"


@dataclass(frozen=True)
class NamedTokens:
    """The tokens of a tokens file: each name's secret and scopes."""

    secrets: dict[str, str] = field(default_factory=dict)
    scopes: dict[str, frozenset[str]] = field(default_factory=dict)

    def may_write(self, name: str | None) -> bool:
        """Whether the caller `name` (None: the shared token, or none) may change memory."""
        return name is None or "write" in self.scopes.get(name, frozenset(SCOPES))


def check_token(token: str, what: str) -> str:
    """`token`, if it is long enough to hold 32 random bytes (64 hex digits, else 43
    characters) and has no blank; else BadInput naming `what` (the flag or file line)."""
    hex_only = all(c in string.hexdigits for c in token)
    need = TOKEN_CHARS["hex" if hex_only else "other"]
    if len(token) < need or any(c.isspace() for c in token):
        raise BadInput(f"{what}: a token must hold at least 32 random bytes ({need} or more "
                       f"{'hex digits' if hex_only else 'characters'}, not {len(token)}); "
                       f"{TOKEN_HINT}")
    return token


def parse_target(target: str, *, allow_remote: bool = False) -> tuple[str, int]:
    """`HOST:PORT`, `:PORT` or `PORT` -> (host, port); the host defaults to 127.0.0.1.

    A host that is not a loopback address is refused unless `allow_remote`."""
    text = target.strip()
    host, port_text = DEFAULT_HOST, text
    if text.startswith("["):  # [::1]:8765
        end = text.find("]")
        host, port_text = text[1:end], text[end + 1 :].removeprefix(":")
    elif ":" in text:
        host, _, port_text = text.rpartition(":")
        host = host or DEFAULT_HOST
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise BadInput(f"--http {target!r}: give HOST:PORT with a port from 1 to 65535, "
                       "e.g. 127.0.0.1:8765")
    if not is_loopback(host) and not allow_remote:
        raise BadInput(f"--http {target!r}: {host} is not a loopback address; memfold serves "
                       "only this machine unless you pass --allow-remote (use a --token too)")
    return host, int(port_text)


def is_loopback(host: str) -> bool:
    name = host.strip().strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def host_of(value: str) -> str:
    """The host name in a Host header value (`[::1]:8765`, `localhost:8765`, `example`)."""
    value = value.strip()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def foreign(headers: Mapping[str, str]) -> str | None:
    """"Host" or "Origin" when that header (names lower-cased) names a host that is not a
    loopback address (DNS rebinding, a page elsewhere), else None."""
    if not is_loopback(host_of(headers.get("host", ""))):
        return "Host"
    origin = headers.get("origin")
    if origin and not is_loopback(urlsplit(origin).hostname or ""):
        return "Origin"
    return None


def authorized(headers: Mapping[str, str], token: str | None,
               tokens: Mapping[str, str]) -> bool:
    """Whether the request carries `Authorization: Bearer` with `token` or a named token."""
    scheme, _, given = headers.get("authorization", "").strip().partition(" ")
    matches = bool(token) and hmac.compare_digest(given.strip().encode(), str(token).encode())
    return scheme.lower() == "bearer" and (matches or identify(headers, tokens) is not None)


def identify(headers: Mapping[str, str], tokens: Mapping[str, str]) -> str | None:
    """The name of the named token a request carries (`Authorization: Bearer TOKEN`, the
    scheme in any case), else None.  Every token is compared, in constant time."""
    scheme, _, given = headers.get("authorization", "").strip().partition(" ")
    if scheme.lower() != "bearer" or not tokens:
        return None
    offered = given.strip().encode()
    found = None
    for name, secret in tokens.items():
        if hmac.compare_digest(offered, secret.encode()):
            found = name
    return found


def read_tokens(path: str) -> NamedTokens:
    """Named tokens from a file, one `NAME TOKEN [SCOPES]` a line (`#` starts a comment;
    SCOPES is `read`, `write` or `read,write`, default both): each caller's writes are
    signed with its name, and a `read` token may call only the tools that change nothing.
    BadInput for a file that cannot be used."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInput(f"--tokens {path}: cannot read it ({exc})") from None
    tokens = NamedTokens()
    for number, line in enumerate(text.splitlines(), 1):
        parts = line.split("#", 1)[0].split()
        if parts:
            _add_token(tokens, parts, f"--tokens {path}:{number}")
    if not tokens.secrets:
        raise BadInput(f"--tokens {path}: no tokens in it")
    return tokens


def _add_token(tokens: NamedTokens, parts: list[str], where: str) -> None:
    if len(parts) not in (2, 3):
        raise BadInput(f"{where}: write `NAME TOKEN` or `NAME TOKEN read` ({TOKEN_HINT})")
    name, secret = parts[:2]
    check_token(secret, where)
    if not SOURCE.fullmatch(name):
        raise BadInput(f"{where}: the name {name!r} must be 1-64 letters, digits or "
                       ". : @ / - _ (it signs what the caller writes)")
    scopes = frozenset(parts[2].split(",")) if len(parts) == 3 else frozenset(SCOPES)
    if not scopes or not scopes <= set(SCOPES):
        raise BadInput(f"{where}: scopes {parts[2]!r}: write read, write or read,write")
    if name in tokens.secrets or secret in tokens.secrets.values():
        raise BadInput(f"{where}: {name!r} or its token is listed twice")
    tokens.secrets[name] = secret
    tokens.scopes[name] = scopes


def listen(host: str, port: int) -> socket.socket:
    """A listening socket, bound before serving so that a busy port fails at once."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port,
                                                             type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(address)
            sock.listen(128)
        except OSError:
            sock.close()
            raise
    except OSError as exc:
        raise MemfoldError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from exc
    return sock
