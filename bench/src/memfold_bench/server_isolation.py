"""`memfold bench server-isolation`: randomized requests across three tenants of one memfold
server, each answer checked for the other tenants' data and each refusal for its status.

The world: three tenants (amber, basalt, cobalt), each with two banks, `main` (a name all
three share) and one named after it (`ambernotes`), and four tokens: read and write (`…rw`),
read only (`…ro`), read and write pinned to the tenant's second bank (`…pin`), and one that
wrote a fact and was then revoked (`…gone`).  Every fact a bank holds carries that bank's
marker word and entity (`W @Entity: marker …`), so each piece of a bank's data — marker,
entity, fact ids, the names of the tenant's tokens and banks — is a word no other tenant's
data contains.

Each request picks, from a seeded random.Random, a caller (one of the twelve live tokens;
or no token, a garbage one, a well-formed unknown `mf_` token, a live token under another
scheme, a revoked token), a verb (recall, about, show, history, status, retain, note,
core_view, export, and the bank list) and a bank (the caller's own, another tenant's, one
that exists nowhere), plus, for verbs that take an id, a fact of the bank, of the tenant's
other bank, of another tenant, or none at all.  The app's documented order of refusals
(memfold.server.app) gives the one status each request must get:

    401  no token, a wrong one or a revoked one
    403  a pinned token on a bank other than its own; a read-only token writing
    404  another tenant's bank or one that does not exist (the same answer for both),
         or a fact id the bank does not hold
    409  `note` with a revision that has moved on
    200  otherwise

and each answer is checked:
- leak: the answer (export's files decoded) holds a word of another tenant's data, or of
  the tenant's other bank, that the request itself did not send;
- wrong status: the status (or a refusal's body) is not the expected one;
- missing: a 200 answer lacks the bank's own data where it must hold it (recall of the
  bank's marker, about its entity, show, core_view, export, status's fact count, the bank
  list), which keeps a server that answers nothing from passing.

`run_trial` is the trial; tests/server/test_server_isolation.py runs it in-process on a Starlette
TestClient, this command against a real `memfold serve` on a private PostgreSQL cluster.
"""

from __future__ import annotations

import base64
import http.client
import json
import os
import random
import re
import string
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from .pg_cluster import Provisioned, free_port

Json = dict[str, Any]
# method, path, headers, JSON body (None: no body) -> status, body text
Send = Callable[[str, str, dict[str, str], Any], tuple[int, str]]

TENANTS = ("amber", "basalt", "cobalt")
VERBS = ("recall", "about", "show", "history", "status", "retain", "note", "core_view",
         "export", "banks")
WRITES = frozenset({"retain", "note"})
WITH_ID = frozenset({"show", "history", "note"})
SEED_FACTS = 4  # facts each bank starts with
EXAMPLES = 20  # failures of each kind kept, in full, for the report
_WORD = re.compile(r"[a-z0-9]+")
_TOPICS = ("ledger", "harbour", "lantern", "orchard", "quarry", "signal", "timber", "vessel")


@dataclass
class Bank:
    tenant: str
    name: str
    marker: str  # a word in every fact of this bank
    entity: str  # the entity of every fact of this bank
    ids: list[str] = field(default_factory=list)

    def words(self) -> set[str]:
        return {self.marker, self.entity.lower(), *self.ids}


@dataclass(frozen=True)
class Key:
    """A caller: the Authorization header it sends and what the server must make of it."""

    label: str  # amber/rw, amber/ro, amber/pin, none, garbage, forged, scheme, revoked
    header: str | None
    tenant: str | None = None  # None: the server must not know it (401)
    write: bool = False
    pin: str | None = None

    def headers(self) -> dict[str, str]:
        return {} if self.header is None else {"Authorization": self.header}


@dataclass
class World:
    banks: dict[tuple[str, str], Bank]
    keys: list[Key]  # the live ones
    strangers: list[Key]  # every one the server must refuse with 401
    writers: dict[str, Key]  # each tenant's read-write token, for the trial's own look-ups
    tenant_words: dict[str, set[str]]  # tenant -> its names: tenant, tokens, its banks

    def own(self, tenant: str) -> list[Bank]:
        return [bank for (owner, _), bank in self.banks.items() if owner == tenant]

    def words_of(self, tenant: str) -> set[str]:
        found = set(self.tenant_words[tenant])
        for bank in self.own(tenant):
            found |= bank.words()
        return found


@dataclass
class Trial:
    """What the randomized requests found."""

    seed: int
    requests: int = 0
    seconds: float = 0.0
    by_status: Counter[int] = field(default_factory=Counter)
    expected: Counter[int] = field(default_factory=Counter)
    by_verb: Counter[str] = field(default_factory=Counter)
    by_probe: Counter[str] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)  # why each refusal was expected
    leaks: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)  # leaks, wrong, missing

    def fail(self, kind: str, message: str) -> None:
        self.counts[kind] += 1
        found: list[str] = getattr(self, kind)
        if len(found) < EXAMPLES:
            found.append(message)

    def report(self) -> Json:
        return {
            "requests": self.requests, "seconds": round(self.seconds, 2),
            "requests_per_s": round(self.requests / self.seconds, 1) if self.seconds else None,
            "leaks": self.counts["leaks"], "wrong_status": self.counts["wrong"],
            "missing_own_data": self.counts["missing"],
            "by_status": {str(k): v for k, v in sorted(self.by_status.items())},
            "refusals": {str(k): v for k, v in sorted(self.by_status.items()) if k != 200},
            "expected_by_status": {str(k): v for k, v in sorted(self.expected.items())},
            "refusals_by_reason": dict(sorted(self.reasons.items())),
            "by_verb": dict(sorted(self.by_verb.items())),
            "probes": dict(sorted(self.by_probe.items())),
            "examples": {"leaks": self.leaks, "wrong_status": self.wrong,
                         "missing_own_data": self.missing},
        }


# -- the world ---------------------------------------------------------------------------------

def _word(rng: random.Random, taken: set[str], syllables: int = 4) -> str:
    while True:
        word = "".join(rng.choice("bdfgklmnprstvz") + rng.choice("aeiou")
                       for _ in range(syllables))
        if word not in taken:
            taken.add(word)
            return word


def _check(status: int, text: str, what: str) -> Any:
    if status != 200:
        raise RuntimeError(f"setting up the trial: {what} answered {status}: {text[:300]}")
    return json.loads(text)


def _retain(send: Send, key: Key, bank: Bank, n: int, rng: random.Random) -> list[str]:
    bullet = f"W @{bank.entity}: {bank.marker} keeps the {rng.choice(_TOPICS)} log {n}."
    data = _check(*send("POST", f"/v1/banks/{bank.name}/retain", key.headers(),
                        {"bullets": [bullet]}), f"retain into {bank.tenant}/{bank.name}")
    return [str(i) for i in data["ids"]]


def provision(db: Provisioned, send: Send, rng: random.Random) -> World:
    """Create the three tenants, their banks and tokens (as the owner, `memfold server`'s
    way) and their first facts and core memory (through the server, with their tokens)."""
    from memfold.server import admin
    from memfold.server.db import connect_pool

    taken: set[str] = set(TENANTS)
    banks: dict[tuple[str, str], Bank] = {}
    keys: list[Key] = []
    writers: dict[str, Key] = {}
    revoked: list[Key] = []
    tenant_words: dict[str, set[str]] = {}
    pool = connect_pool(db.owner, size=2)
    try:
        for tenant in TENANTS:
            names = ("main", f"{tenant}notes")
            admin.create_tenant(pool, tenant)
            for name in names:
                admin.create_bank(pool, tenant, name)
                banks[tenant, name] = Bank(tenant, name, _word(rng, taken),
                                           _word(rng, taken, 3).title())
            made = {kind: admin.create_token(pool, tenant, f"{tenant}{kind}", scopes, pin)
                    for kind, scopes, pin in (("rw", ("read", "write"), None),
                                              ("ro", ("read",), None),
                                              ("pin", ("read", "write"), names[1]),
                                              ("gone", ("read", "write"), None))}
            tenant_words[tenant] = {tenant, names[1], *(f"{tenant}{k}" for k in made)}
            writers[tenant] = Key(f"{tenant}/rw", f"Bearer {made['rw']}", tenant, True)
            keys += [writers[tenant], Key(f"{tenant}/ro", f"Bearer {made['ro']}", tenant),
                     Key(f"{tenant}/pin", f"Bearer {made['pin']}", tenant, True, names[1])]
            gone = Key(f"{tenant}/gone", f"Bearer {made['gone']}", tenant, True)
            for name in names:
                bank = banks[tenant, name]
                for n in range(SEED_FACTS):
                    bank.ids += _retain(send, writers[tenant], bank, n, rng)
                _check(*send("POST", f"/v1/banks/{name}/core_append", writers[tenant].headers(),
                             {"block": "Project", "text": f"{bank.marker} core line"}),
                       f"core_append into {tenant}/{name}")
            banks[tenant, "main"].ids += _retain(send, gone, banks[tenant, "main"], 99, rng)
            admin.revoke_token(pool, tenant, f"{tenant}gone")
            revoked.append(Key("revoked", gone.header))
    finally:
        pool.close()
    any_secret = (writers[TENANTS[0]].header or "").removeprefix("Bearer ")
    strangers = [
        Key("none", None),
        Key("garbage", "Bearer " + "".join(rng.choice(string.ascii_letters) for _ in range(40))),
        Key("forged", "Bearer mf_" + "".join(rng.choice(string.ascii_letters + string.digits
                                                         + "-_") for _ in range(43))),
        Key("scheme", f"Basic {any_secret}"),
        Key("empty", "Bearer "),
        *revoked,
    ]
    return World(banks, keys, strangers, writers, tenant_words)


# -- one request -------------------------------------------------------------------------------

@dataclass
class Request:
    key: Key
    verb: str
    bank: str
    bank_kind: str  # own, foreign, nowhere
    body: Any = None
    id_kind: str | None = None
    target: Bank | None = None  # the bank addressed, when it is the caller's tenant's
    stale: bool = False
    rev: int = 0

    @property
    def method(self) -> str:
        return "GET" if self.verb in ("export", "banks") else "POST"

    @property
    def path(self) -> str:
        if self.verb == "banks":
            return "/v1/banks"
        return f"/v1/banks/{self.bank}/{self.verb}"


def _pick_key(world: World, rng: random.Random) -> Key:
    if rng.random() < 0.8:
        return rng.choice(world.keys)
    return rng.choice(world.strangers)


def _pick_bank(world: World, key: Key, rng: random.Random) -> tuple[str, str, Bank | None]:
    roll = rng.random()
    tenant = key.tenant or rng.choice(TENANTS)
    if roll < 0.55:
        bank = rng.choice(world.own(tenant))
        return (bank.name, "own", bank) if key.tenant else (bank.name, "existing", None)
    if roll < 0.8:
        others = [b for b in world.banks.values() if b.tenant != tenant and b.name != "main"]
        return rng.choice(others).name, "foreign", None
    name = rng.choice([f"{tenant}notes".upper(), "Main", "ghost", "main2", "basalt",
                       f"nowhere{rng.randrange(1000)}"])
    return name, "nowhere", None


def _pick_id(world: World, request: Request, rng: random.Random) -> tuple[str, str]:
    target = request.target
    roll = rng.random()
    if target is not None and target.ids and roll < 0.6:
        return rng.choice(target.ids), "own"
    tenant = request.key.tenant
    if roll < 0.75 and tenant is not None:
        siblings = [i for b in world.own(tenant) if b is not target for i in b.ids]
        return rng.choice(siblings), "sibling"
    if roll < 0.9:
        foreign = [i for b in world.banks.values() if b.tenant != tenant for i in b.ids]
        return rng.choice(foreign), "foreign"
    return "".join(rng.choice(string.ascii_lowercase + string.digits) for _ in range(8)), "none"


def _body(world: World, request: Request, rng: random.Random, n: int) -> Any:
    own = request.target or world.banks.get((request.key.tenant or "", request.bank))
    any_bank = rng.choice(list(world.banks.values()))
    verb = request.verb
    if verb == "recall":
        bank = own if own is not None and rng.random() < 0.6 else any_bank
        return {"query": rng.choice([bank.marker, f"{bank.marker} log",
                                     rng.choice(_TOPICS), f"{bank.entity} keeps"])}
    if verb == "about":
        bank = own if own is not None and rng.random() < 0.6 else any_bank
        return {"name": bank.entity}
    if verb == "retain":
        bank = own or any_bank
        return {"bullets": [f"W @{bank.entity}: {bank.marker} keeps the "
                            f"{rng.choice(_TOPICS)} log {1000 + n}."]}
    if verb in WITH_ID:
        fact_id, request.id_kind = _pick_id(world, request, rng)
        if verb == "note":
            return {"id": fact_id, "text": f"checked on request {n}", "rev": 0}
        return {"id": fact_id}
    if verb in ("status", "core_view"):
        return {}
    return None  # export, banks


_STRANGERS = {"none": "no token", "empty": "empty token", "garbage": "garbage token",
              "forged": "unknown mf_ token", "scheme": "token not as Bearer",
              "revoked": "revoked token"}
_IDS = {"own": "fact id of the bank", "sibling": "fact id of the tenant's other bank",
        "foreign": "fact id of another tenant", "none": "made-up fact id"}


def expect(request: Request) -> tuple[int, str]:
    """The one status the documented order of refusals gives this request, and why."""
    key, verb = request.key, request.verb
    if key.tenant is None:
        return 401, f"401 {_STRANGERS[key.label]}"
    if verb == "banks":
        return 200, "200"
    if key.pin is not None and key.pin != request.bank:
        return 403, "403 pinned to another bank"
    if verb in WRITES and not key.write:
        return 403, "403 read-only token writing"
    if request.target is None:
        return 404, ("404 another tenant's bank" if request.bank_kind == "foreign"
                     else "404 no such bank")
    if verb in WITH_ID and request.body["id"] not in request.target.ids:
        return 404, f"404 {_IDS[request.id_kind or 'none']}"
    if request.stale:
        return 409, "409 stale revision"
    return 200, "200"


def make_request(world: World, rng: random.Random, n: int) -> Request:
    key = _pick_key(world, rng)
    verb = rng.choice(VERBS)
    name, kind, target = _pick_bank(world, key, rng)
    request = Request(key, verb, name, kind, target=target)
    request.body = _body(world, request, rng, n)
    return request


# -- checking an answer ------------------------------------------------------------------------

def visible_words(request: Request, text: str) -> set[str]:
    """The words of an answer, lower-cased; an export's files are decoded first."""
    words = set(_WORD.findall(text.lower()))
    if request.verb == "export":
        try:
            data = json.loads(text)
            for item in data.get("files", []):
                decoded = base64.b64decode(item["content"]).decode("utf-8", "replace")
                words |= set(_WORD.findall(decoded.lower()))
        except (ValueError, KeyError, TypeError, AttributeError):
            pass
    return words


def allowed_words(world: World, request: Request) -> set[str]:
    """The data words this request may see: its tenant's names, and its bank's words (every
    bank's of the tenant for the bank list)."""
    tenant = request.key.tenant
    if tenant is None:
        return set()
    allowed = set(world.tenant_words[tenant])
    if request.verb == "banks":
        return world.words_of(tenant)
    if request.target is not None:
        allowed |= request.target.words()
    return allowed


def leaked(world: World, request: Request, text: str) -> set[str]:
    every = set().union(*(world.words_of(t) for t in TENANTS))
    sent = set(_WORD.findall(f"{request.path} {json.dumps(request.body)}".lower()))
    return (visible_words(request, text) & every) - allowed_words(world, request) - sent


def _own_data_missing(request: Request, data: Any, world: World) -> str | None:
    """Why a 200 answer lacks the bank's own data where it must hold it, or None."""
    bank, verb, body = request.target, request.verb, request.body
    if verb == "banks":
        tenant = request.key.tenant or ""
        wanted = sorted(b.name for b in world.own(tenant)
                        if request.key.pin in (None, b.name))
        return None if data.get("banks") == wanted else f"banks {data.get('banks')} != {wanted}"
    assert bank is not None
    text = json.dumps(data).lower()
    if verb == "recall" and body["query"] == bank.marker:
        results = data.get("results") or []
        if not results or any(bank.marker not in r["content"] for r in results):
            return f"recall of {bank.marker!r} found {[r['content'] for r in results]}"
    if verb == "about" and body["name"] == bank.entity and not (
            data.get("found") and data.get("results")):
        return f"about {bank.entity} found nothing"
    if verb == "show" and (data.get("id") != body["id"] or bank.marker not in data["content"]):
        return f"show {body['id']} answered {data.get('id')} {data.get('content')!r}"
    if verb == "history" and (data.get("id") != body["id"] or not data.get("events")):
        return f"history {body['id']} answered no events"
    if verb == "core_view" and f"{bank.marker} core line" not in text:
        return "core_view lacks the bank's core line"
    if verb == "status" and (data.get("facts") != len(bank.ids)
                             or data.get("workspace") != f"{bank.tenant}/{bank.name}"):
        return f"status says {data.get('facts')} facts in {data.get('workspace')}, " \
               f"not {len(bank.ids)} in {bank.tenant}/{bank.name}"
    if verb == "export":
        daily = " ".join(base64.b64decode(f["content"]).decode("utf-8", "replace")
                         for f in data.get("files", []) if f["path"].startswith("memory/"))
        if any(fact_id not in daily for fact_id in bank.ids):
            return "export lacks some of the bank's facts"
    if verb == "retain" and len(data.get("ids", [])) != 1:
        return f"retain stored {data.get('ids')}"
    return None


def _refusal_wrong(request: Request, status: int, data: Any) -> str | None:
    """Why a refusal's body is not the documented one, or None."""
    if not isinstance(data, dict):
        return "the refusal is not a JSON object"
    if status == 409:
        wanted = {"id": request.body["id"], "result": "stale", "rev": request.rev}
        return None if data == wanted else f"409 body {data}, not {wanted}"
    if status == 404 and request.target is None:  # another tenant's bank looks like none
        wanted = {"error": f"no bank {request.bank!r}", "type": "UnknownBank"}
        return None if data == wanted else f"404 body {data}, not {wanted}"
    if status == 404:
        return None if data.get("type") == "UnknownId" else f"404 body {data}"
    if status in (401, 403):
        return None if data.get("type") == "Refused" else f"{status} body {data}"
    return None


def _current_rev(world: World, send: Send, request: Request) -> int:
    """The fact's revision now, read with its tenant's read-write token (not counted)."""
    assert request.key.tenant is not None
    writer = world.writers[request.key.tenant]
    status, text = send("POST", f"/v1/banks/{request.bank}/show", writer.headers(),
                        {"id": request.body["id"]})
    return int(_check(status, text, "show for the revision")["rev"])


def run_one(world: World, send: Send, trial: Trial, rng: random.Random, n: int) -> None:
    request = make_request(world, rng, n)
    wanted, reason = expect(request)
    if request.verb == "note" and wanted == 200:
        request.rev = _current_rev(world, send, request)
        request.stale = rng.random() < 0.25
        request.body["rev"] = request.rev + (1 + rng.randrange(5) if request.stale else 0)
        wanted, reason = expect(request)
    status, text = send(request.method, request.path, request.key.headers(), request.body)
    what = (f"#{n} {request.key.label} {request.method} {request.path} "
            f"{json.dumps(request.body)} -> {status}")
    trial.requests += 1
    trial.by_status[status] += 1
    trial.expected[wanted] += 1
    if wanted != 200:
        trial.reasons[reason] += 1
    trial.by_verb[request.verb] += 1
    trial.by_probe[f"caller:{request.key.label.split('/')[-1]}"] += 1
    if request.verb != "banks":
        trial.by_probe[f"bank:{request.bank_kind}"] += 1
    if request.id_kind:
        trial.by_probe[f"id:{request.id_kind}"] += 1
    words = leaked(world, request, text)
    if words:
        trial.fail("leaks", f"{what}: holds {sorted(words)}: {text[:400]}")
    if status != wanted:
        trial.fail("wrong", f"{what}, wanted {wanted}: {text[:300]}")
        return
    try:
        data = json.loads(text)
    except ValueError:
        trial.fail("wrong", f"{what}: not JSON: {text[:300]}")
        return
    problem = _own_data_missing(request, data, world) if status == 200 else \
        _refusal_wrong(request, status, data)
    if problem:
        trial.fail("missing" if status == 200 else "wrong", f"{what}: {problem}")
    if status == 200 and request.verb == "retain" and request.target is not None:
        request.target.ids += [str(i) for i in data.get("ids", [])]


def run_trial(world: World, send: Send, *, requests: int, seed: int) -> Trial:
    """`requests` randomized requests (seeded) against the server `send` reaches."""
    rng = random.Random(seed)
    trial = Trial(seed)
    started = time.perf_counter()
    for n in range(requests):
        run_one(world, send, trial, rng, n)
    trial.seconds = time.perf_counter() - started
    return trial


# -- the command -------------------------------------------------------------------------------

class HttpSend:
    """`Send` over one keep-alive HTTP connection to a `memfold serve`."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.conn = http.client.HTTPConnection(host, port, timeout=120)

    def __call__(self, method: str, path: str, headers: dict[str, str],
                 body: Any) -> tuple[int, str]:
        data = None if body is None else json.dumps(body).encode()
        sent = {**headers, **({"Content-Type": "application/json"} if data else {})}
        for attempt in (1, 2):
            try:
                self.conn.request(method, path, body=data, headers=sent)
                answer = self.conn.getresponse()
                return answer.status, answer.read().decode("utf-8", "replace")
            except (http.client.HTTPException, ConnectionError):
                self.conn.close()
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=120)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        self.conn.close()


@contextmanager
def serving(db: Provisioned) -> Iterator[HttpSend]:
    """A `memfold serve` on a free loopback port (no rate limit), until the block ends."""
    import memfold

    port = free_port()
    src = str(Path(memfold.__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (src, os.environ.get("PYTHONPATH")) if p)}
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "memfold", "serve", "--db", db.app, "--port", str(port),
             "--rate", "0"], stdout=log, stderr=subprocess.STDOUT, env=env)
        try:
            _wait_ready(process, f"http://127.0.0.1:{port}/readyz", log)
            send = HttpSend("127.0.0.1", port)
            try:
                yield send
            finally:
                send.close()
        finally:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _wait_ready(process: subprocess.Popen[bytes], url: str, log: Any) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            log.seek(0)
            tail = log.read().decode("utf-8", "replace").strip().splitlines()[-1:]
            raise RuntimeError(f"memfold serve exited: {' '.join(tail)}")
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:  # noqa: S310 - loopback
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.1)  # not listening yet: poll again
    raise RuntimeError("memfold serve did not become ready within 60 s")


def run_benchmark(requests: int, seed: int) -> Json:
    import psycopg

    from .index_bench import environment
    from .pg_cluster import Cluster

    cluster = Cluster.start()
    try:
        db = cluster.provision("memfold_isolation")
        with serving(db) as send:
            world = provision(db, send, random.Random(seed))
            trial = run_trial(world, send, requests=requests, seed=seed)
        with psycopg.connect(cluster.url()) as conn:
            version = conn.execute("SHOW server_version").fetchone()
    finally:
        cluster.destroy()
    return {"benchmark": "server-isolation",
            "environment": {**environment(), "postgresql": version[0] if version else None},
            "parameters": {"requests": requests, "seed": seed, "tenants": len(TENANTS),
                           "banks": len(world.banks), "live_tokens": len(world.keys),
                           "refused_callers": sorted({k.label for k in world.strangers}),
                           "server": "memfold serve (uvicorn), --rate 0, one keep-alive "
                                     "HTTP connection"},
            **trial.report()}


def summary(result: Json) -> list[str]:
    refusals = "  ".join(f"{status} x{count:,}" for status, count in result["refusals"].items())
    return [
        f"server isolation: {result['requests']:,} requests across "
        f"{result['parameters']['tenants']} tenants (seed {result['parameters']['seed']}) in "
        f"{result['seconds']:.1f} s ({result['requests_per_s']} requests/s)",
        f"leaks {result['leaks']}  wrong status {result['wrong_status']}  "
        f"missing own data {result['missing_own_data']}",
        f"answered 200 x{result['by_status'].get('200', 0):,}; refused {refusals}",
        *(f"  {reason:<40} x{count:,}" for reason, count in
          result["refusals_by_reason"].items()),
        *(f"  {kind}: {example}" for kind, examples in result["examples"].items()
          for example in examples[:5]),
    ]


@click.command("server-isolation")
@click.option("--requests", default=10_000, show_default=True, type=click.IntRange(min=1),
              help="Randomized requests to send.")
@click.option("--seed", default=1, show_default=True, help="Seed of the random requests.")
@click.option("--json", "as_json", is_flag=True, help="Print the JSON instead of the table.")
@click.option("--out", default="benchmarks/results/server-isolation.json", show_default=True,
              type=click.Path(dir_okay=False, path_type=Path), help="Where to write the JSON.")
def server_isolation_command(requests: int, seed: int, as_json: bool, out: Path) -> None:
    """Tenant isolation of `memfold serve`: randomized requests across three tenants.

    Starts a private PostgreSQL cluster (initdb and pg_ctl from this machine's PostgreSQL)
    and a `memfold serve` on it, sets up three tenants with two banks and four kinds of
    token each, then sends seeded random requests — every caller (live tokens of each
    kind, revoked, wrong and missing ones), verb and bank (own, another tenant's, none).
    Counts leaks (another tenant's data in an answer), answers with the wrong status, and
    answers lacking the bank's own data; exits 1 when any is not 0.

    \b
    Example:
      memfold bench server-isolation --requests 10000
    """
    from .index_bench import save_result
    from .pg_cluster import find_bin

    if find_bin() is None:
        click.echo("error: no PostgreSQL server binaries (initdb, pg_ctl): install the "
                   "postgresql package or set MEMFOLD_PG_BIN", err=True)
        raise SystemExit(1)
    try:
        result = run_benchmark(requests, seed)
    except RuntimeError as exc:
        click.echo(f"error: {exc}", err=True)
        raise SystemExit(1) from None
    if not save_result(result, out, as_json=as_json):
        for line in summary(result):
            click.echo(line)
        click.echo(f"wrote {out}", err=True)
    if result["leaks"] or result["wrong_status"] or result["missing_own_data"]:
        raise SystemExit(1)
