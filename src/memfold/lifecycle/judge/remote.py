"""A model judge: a language model behind any OpenAI-compatible chat endpoint (a local
llama.cpp server, Ollama, vLLM, OpenAI itself) says which older facts a new one replaces.

It sees only candidate pairs: the new fact and at most MAX_CANDIDATES older *state* facts
that the ledger picked and that share an entity with it (newest first), in one request per
new fact.  It asks for strict JSON (with `response_format` where the server takes it) and
reads the answer defensively: anything it cannot trust raises JudgeError, which
FallbackJudge turns into the rule judge's verdicts and a notice.  Standard library only.
"""

from __future__ import annotations

import http.client
import ipaddress
import json
import re
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from datetime import date
from typing import Any
from urllib.parse import urlsplit

from memfold import names
from memfold.journal.fold import STATE_KINDS
from memfold.lifecycle.judge.base import Verdict
from memfold.lifecycle.judge.fallback import JudgeError
from memfold.names import entity_key
from memfold.values import Fact

MAX_CANDIDATES = 12  # older facts per request; the newest are the likeliest current values
MAX_FACT_CHARS = 600  # of one fact's text in the prompt
MAX_REASON_CHARS = 200  # of the model's reason, as journaled
MAX_ANSWER_BYTES = 1 << 20
MAX_TOKENS = 1024
_FIXABLE = (400, 413, 422)  # about this request, not the server: the next fact may do

SYSTEM_PROMPT = """\
You keep an AI agent's long-term memory current. A NEW fact was just recorded; OLDER facts \
about the same entity are listed with their ids. For each older fact, decide whether the new \
fact REPLACES it: the older fact is no longer true because the new one gives a different \
current value of the same single-valued thing (a move, a switch, a replacement, a new \
employer or address, a change of mind).
Never a replacement: both can be true at once (a second language, another hobby, another \
aspect); a visit, a trip or a temporary state; a plan, a wish or a hypothetical; a change \
that is negated, rejected or only considered; a fact about someone or something else; more \
detail about the same value.
Set "conflicts" to true when the two disagree about the same thing but the new fact does \
not clearly replace the older one.
Answer with one JSON object and nothing else:
{"verdicts": [{"id": "<older id>", "supersedes": true, "conflicts": false, \
"reason": "<one short line>"}]}
with one entry for each older fact, its id exactly as given."""


class OpenAIJudge:
    """Asks `model` at an OpenAI-compatible endpoint; raises JudgeError when it cannot."""

    def __init__(self, *, url: str, model: str, key: str = "", timeout: float = 10.0,
                 max_candidates: int = MAX_CANDIDATES) -> None:
        self.name = f"openai:{model}"
        self.model = model
        self.endpoint = chat_url(url)
        self.timeout = timeout
        self.max_candidates = max_candidates
        parts = urlsplit(self.endpoint)
        self._where = f"{parts.hostname}{f':{parts.port}' if parts.port else ''}"  # no user:pw
        self._headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if key:
            self._headers["Authorization"] = f"Bearer {key}"
        # a local server is reached directly, whatever proxy the environment names
        direct = _loopback(parts.hostname or "")
        self._opener = urllib.request.build_opener(
            *([urllib.request.ProxyHandler({})] if direct else []))
        self._json_mode = True  # dropped once the server refuses `response_format`

    def weigh(self, new: Fact, older: Sequence[Fact]) -> list[Verdict]:
        pairs = candidates(new, older, limit=self.max_candidates)
        if not pairs:
            return []  # nothing to weigh: no request at all
        content = self._complete(messages(new, pairs))
        return parse_verdicts(content, [f.id for f in pairs])

    def _complete(self, chat: list[dict[str, str]]) -> str:
        deadline = time.monotonic() + self.timeout
        while True:
            body: dict[str, Any] = {"model": self.model, "messages": chat, "temperature": 0,
                                    "max_tokens": MAX_TOKENS, "stream": False}
            if self._json_mode:
                body["response_format"] = {"type": "json_object"}
            status, raw = self._post(body, deadline)
            if status in (400, 422) and self._json_mode:
                self._json_mode = False  # e.g. a server without JSON mode: ask in plain words
                continue
            if not 200 <= status < 300:
                hint = "; the URL usually ends in /v1" if status == 404 else ""
                raise JudgeError(f"HTTP {status} from {self._where}{hint}",
                                 lasting=status not in _FIXABLE)
            return reply_content(raw)

    def _post(self, body: dict[str, Any], deadline: float) -> tuple[int, bytes]:
        """POST the request; (status, body) for any HTTP answer, JudgeError for no answer."""
        request = urllib.request.Request(self.endpoint, data=json.dumps(body).encode(),
                                         headers=self._headers, method="POST")
        try:
            with self._opener.open(request, timeout=self._left(deadline)) as response:
                return response.status, self._read(response, deadline)
        except urllib.error.HTTPError as exc:
            exc.close()
            return exc.code, b""
        except TimeoutError:
            raise self._timed_out() from None
        except urllib.error.URLError as exc:
            if isinstance(exc.reason, TimeoutError):
                raise self._timed_out() from None
            if isinstance(exc.reason, ConnectionRefusedError):
                raise JudgeError(f"connection refused by {self._where}", lasting=True) from None
            raise JudgeError(f"cannot reach {self._where}: {exc.reason}", lasting=True) from None
        except (OSError, http.client.HTTPException) as exc:
            raise JudgeError(f"the connection to {self._where} failed: "
                             f"{type(exc).__name__}", lasting=True) from None

    def _read(self, response: http.client.HTTPResponse, deadline: float) -> bytes:
        """The answer, read in pieces so a server that trickles cannot outlast the timeout."""
        chunks: list[bytes] = []
        size = 0
        while chunk := response.read1(65536):
            size += len(chunk)
            if size > MAX_ANSWER_BYTES:
                raise JudgeError(f"the answer is larger than {MAX_ANSWER_BYTES} bytes")
            if time.monotonic() > deadline:
                raise self._timed_out()
            chunks.append(chunk)
        return b"".join(chunks)

    def _left(self, deadline: float) -> float:
        left = deadline - time.monotonic()
        if left <= 0:
            raise self._timed_out()
        return left

    def _timed_out(self) -> JudgeError:
        return JudgeError(f"timed out after {self.timeout:g} s", lasting=True)


def chat_url(url: str) -> str:
    """The chat completions URL for a base URL (".../v1") or the full URL itself."""
    base = url.strip().rstrip("/")
    return base if base.endswith("/chat/completions") else f"{base}/chat/completions"


def _loopback(host: str) -> bool:
    if host.casefold() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


# -- what is asked --------------------------------------------------------------------


def candidates(new: Fact, older: Sequence[Fact], *, limit: int) -> list[Fact]:
    """The older state facts worth asking about, newest first: they share an entity with
    the new fact (or, when it names none, name none either)."""
    keys = {entity_key(e) for e in new.entities}
    picked = [f for f in older if f.id != new.id and f.kind in STATE_KINDS
              and (bool(keys & {entity_key(e) for e in f.entities}) if keys
                   else not f.entities)]
    picked.sort(key=lambda f: (f.day or date.min, f.path, f.line), reverse=True)
    return picked[:limit]


def messages(new: Fact, older: Sequence[Fact]) -> list[dict[str, str]]:
    """The chat: the instructions, then the facts as JSON (their text quoted, never obeyed)."""
    facts = {"new": _view(new), "older": [_view(f) for f in older]}
    return [{"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": json.dumps(facts, ensure_ascii=False, indent=1)}]


def _view(fact: Fact) -> dict[str, Any]:
    text = fact.content
    if len(text) > MAX_FACT_CHARS:
        text = text[:MAX_FACT_CHARS] + "…"
    return {"id": fact.id, "kind": fact.kind,
            "date": fact.day.isoformat() if fact.day else None,
            "entities": [f"@{e}" for e in fact.entities], "text": text}


# -- what is answered -----------------------------------------------------------------

_THINKING = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.DOTALL | re.IGNORECASE)
_YES, _NO = {"true", "yes"}, {"false", "no"}


def reply_content(raw: bytes) -> str:
    """The assistant's text in a chat completion."""
    try:
        reply = json.loads(raw)
        content = reply["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError):
        raise JudgeError("the answer is not a chat completion") from None
    if not isinstance(content, str):
        raise JudgeError("the answer is not a chat completion")
    return content


def parse_verdicts(content: str, asked: Sequence[str]) -> list[Verdict]:
    """Verdicts from the model's JSON; JudgeError for anything that is not a clear answer
    about the facts it was asked about (an id it was not shown, a flag that is not a
    yes or no).  An older fact the answer leaves out is left alone."""
    found: dict[str, Verdict | None] = {}
    for item in _items(_json_in(content), asked):
        if not isinstance(item, dict):
            raise JudgeError("a verdict in the answer is not an object")
        fact_id = names.fact_id(str(item.get("id", "")))
        if fact_id not in asked:
            raise JudgeError(f"the answer names {fact_id[:40]!r}, a fact it was not asked "
                             "about")
        supersedes = _flag(item.get("supersedes"), "supersedes")
        conflicts = _flag(item.get("conflicts", False), "conflicts")
        if fact_id not in found:
            found[fact_id] = Verdict(fact_id, supersedes, _reason(item.get("reason"))) \
                if supersedes or conflicts else None
    return [v for v in found.values() if v is not None]


def _json_in(content: str) -> Any:
    text = _THINKING.sub("", content).strip()
    if m := _FENCE.match(text):
        text = m.group(1)
    try:
        return json.loads(text)
    except ValueError:
        start, end = text.find("{"), text.rfind("}")
        try:
            return json.loads(text[start:end + 1]) if 0 <= start < end else None
        except ValueError:
            return None


def _items(data: Any, asked: Sequence[str]) -> list[Any]:
    """The verdict objects, in the shapes models give: {"verdicts": [...]}, a bare list,
    one verdict, or an object keyed by id."""
    if isinstance(data, dict) and isinstance(data.get("verdicts"), list):
        return list(data["verdicts"])
    if isinstance(data, list):
        return data
    if isinstance(data, dict) and "id" in data:
        return [data]
    if isinstance(data, dict) and data and all(isinstance(v, dict) for v in data.values()) \
            and any(k.lstrip("^") in asked for k in data):
        return [{**value, "id": key} for key, value in data.items()]
    raise JudgeError("the answer is not the JSON verdicts asked for")


def _flag(value: Any, what: str) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().casefold() in _YES | _NO:
        return value.strip().casefold() in _YES
    raise JudgeError(f"the answer's {what!r} is not true or false")


def _reason(value: Any) -> str:
    """One printable line: the reason is journaled and shown by `memfold history`."""
    text = " ".join("".join(ch for ch in str(value or "") if ch.isprintable()
                            or ch.isspace()).split())
    if len(text) > MAX_REASON_CHARS:
        text = text[:MAX_REASON_CHARS - 1] + "…"
    return text or "the model judge gave no reason"
