"""The server's defects of issue 36, each closed: a write reads only what its verb wrote, reads
of one bank run side by side, id-less bullets survive an import into a bank with facts, /mcp
keeps REST's scopes, bad bank names are a 400, the serving role must be bound by row-level
security, and SIGTERM is a clean stop."""

from __future__ import annotations

import base64
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import psycopg
import pytest

from memfold_bench.pg_cluster import Cluster, Provisioned, free_port
from server_support import app_client, bearer, caller, make_tenant, serve

DAYS = 30


@pytest.fixture
def replica(app_pool: Any) -> Iterator[Any]:
    """A Replica on the app role with a fresh cache (no HTTP in between), answering from
    copies of the banks (`--recall-from copy`: the writes and reads these tests watch)."""
    from memfold.server.replica import Replica

    cache = Path(tempfile.mkdtemp(prefix="memfold-test-cache-"))
    found = Replica(app_pool, cache, recall_from="copy")
    try:
        yield found
    finally:
        found.close()
        shutil.rmtree(cache, ignore_errors=True)


def daily(day: int, bullets: list[str]) -> dict[str, str]:
    text = "## Retain\n" + "".join(f"- {b}\n" for b in bullets)
    return {"path": f"memory/2025-10-{day:02d}.md",
            "content": base64.b64encode(text.encode()).decode()}


def test_a_write_reads_only_the_files_its_verb_wrote(pg_db: Provisioned, replica: Any,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from memfold.server.exchange import import_bank
    from memfold.workspace.layout import Workspace

    make_tenant(pg_db, "big")
    writer = caller("big", "agent", "read", "write")
    files = [daily(day, [f"W @Ada{day}: Visited town {day}. ^visit{day:03d}"])
             for day in range(1, DAYS + 1)]
    import_bank(replica, writer, "main", {"files": files, "journal": []})
    retain = replica.run  # the first write fetches the bank; the second is measured
    retain(writer, "main", "write", lambda m: m.retain(["W @Bo: Likes tea."]), what="retain")
    read: list[str] = []
    real_read = Path.read_bytes
    scans: list[int] = []
    real_scan = Workspace.scan

    def counted_read(self: Path) -> bytes:
        read.append(self.name)
        return real_read(self)

    def counted_scan(self: Workspace) -> Any:
        scans.append(1)
        return real_scan(self)

    monkeypatch.setattr(Path, "read_bytes", counted_read)
    monkeypatch.setattr(Workspace, "scan", counted_scan)
    made = retain(writer, "main", "write", lambda m: m.retain(["W @Bo: Likes coffee too."]),
                  what="retain")
    assert len(made.facts) == 1
    # the day's log it appended to, nothing of the other 30 logs; no walk over the bank
    assert len([name for name in read if name.endswith(".md")]) <= 2, read
    assert scans == []


def test_reads_of_one_bank_run_side_by_side(pg_db: Provisioned, replica: Any) -> None:
    make_tenant(pg_db, "side")
    writer = caller("side", "agent", "read", "write")
    replica.run(writer, "main", "write", lambda m: m.retain(["W @Cy: Plays chess."]),
                what="retain")
    inside, release = threading.Event(), threading.Event()

    def slow(memory: Any) -> int:
        inside.set()
        release.wait(30)
        return 1

    first = threading.Thread(target=replica.run, args=(writer, "main", "read", slow),
                             kwargs={"what": "slow"})
    first.start()
    assert inside.wait(30)
    answers: list[Any] = []
    second = threading.Thread(target=lambda: answers.append(replica.run(
        writer, "main", "read", lambda m: m.recall("chess").hits, what="recall")))
    second.start()
    second.join(20)  # with reads taking turns, it waits for the first (released below)
    done_beside = not second.is_alive()
    release.set()
    first.join(30)
    second.join(30)
    assert done_beside, "the second read waited for the first"
    assert [hit.fact.content for hit in answers[0]] == ["Plays chess."]
    # a write after them still sees and changes the same bank
    replica.run(writer, "main", "write", lambda m: m.retain(["W @Cy: Plays go now."]),
                what="retain")
    hits = replica.run(writer, "main", "read", lambda m: m.recall("go").hits, what="recall")
    assert "Plays go now." in [hit.fact.content for hit in hits]


def test_import_into_a_bank_with_facts_keeps_bullets_without_an_id(
        pg_db: Provisioned) -> None:
    token = bearer(make_tenant(pg_db, "merge").tokens["agent"])
    with app_client(pg_db) as client:
        assert client.post("/v1/banks/main/retain", headers=token,
                           json={"bullets": ["W @Di: Runs marathons."]}).status_code == 200
        body = {"files": [daily(3, ["W @Ed: Grows tomatoes.", "O(c=0.8) @Ed: Prefers rain.",
                                    "W @Fay: Keeps goats. ^faygoat1"])], "journal": []}
        merged = client.post("/v1/banks/main/import", headers=token, json=body).json()
        assert merged["stored"] == "merged"
        assert len(merged["added"]) == 3 and merged["skipped"] == 0, merged
        again = client.post("/v1/banks/main/import", headers=token, json=body).json()
        assert again["added"] == [] and again["skipped"] == 3, again
        found = client.post("/v1/banks/main/recall", headers=token,
                            json={"query": "tomatoes", "k": 3}).json()
        assert found["results"][0]["content"] == "Grows tomatoes."


def test_mcp_keeps_the_scopes_of_rest(pg_db: Provisioned, replica: Any) -> None:
    from memfold.server import mcp

    make_tenant(pg_db, "scoped")
    reader = caller("scoped", "viewer", "read")
    writer = caller("scoped", "agent", "read", "write")

    class Server:
        def __init__(self) -> None:
            self.replica = replica

        def caller(self, headers: Any) -> Any:
            raise AssertionError("not asked")

    server, headers = Server(), {"x-memfold-bank": "main"}
    for name, args in [("index", {"full": True}), ("index", {}), ("review_accept", {}),
                       ("retain", {"bullets": ["W @Gil: Sails."]})]:
        failed, data = mcp.call(server, reader, headers, "", name, args)
        assert failed and data["status"] == 403, (name, data)
    failed, data = mcp.call(server, reader, headers, "", "recall", {"query": "x"})
    assert not failed, data
    failed, data = mcp.call(server, writer, headers, "", "index", {"full": True})
    assert not failed, data


@pytest.mark.parametrize("bank", ["a%00b", "main%0A", "%00", "x%2Fy", "%2F", "a%2Fb%2Fc"])
def test_a_bank_name_no_bank_can_have_is_a_400(pg_db: Provisioned, bank: str) -> None:
    token = bearer(make_tenant(pg_db, f"names{abs(hash(bank)) % 10_000}").tokens["agent"])
    with app_client(pg_db) as client:
        for verb in ("recall", "import", "export"):
            method = client.get if verb == "export" else client.post
            kwargs: dict[str, Any] = {} if verb == "export" else {
                "json": {"query": "x"} if verb == "recall" else {"files": []}}
            answer = method(f"/v1/banks/{bank}/{verb}", headers=token, **kwargs)
            assert answer.status_code == 400, (verb, answer.text)
            assert "bank" in answer.json()["error"]


def test_a_slash_in_a_bank_name_is_a_400_from_a_served_replica(pg_db: Provisioned) -> None:
    """Through uvicorn, as an operator meets it: `x%2Fy` arrives decoded as two segments;
    the answer is the one-line JSON 400 of a bad bank name, not a plain-text 404, and a /v1
    path of no route's shape is a JSON 404 (after the token, as every /v1 refusal)."""
    import json
    import urllib.error
    import urllib.request

    token = make_tenant(pg_db, "slashes").tokens["agent"]
    served = serve(pg_db, extra=("--no-vectors",))
    try:
        def answer(path: str, secret: str | None = token) -> tuple[int, dict[str, Any]]:
            sent = urllib.request.Request(served.url + path, data=b'{"query": "x"}',
                                          method="POST", headers=bearer(secret) if secret
                                          else {})
            try:
                with urllib.request.urlopen(sent, timeout=30) as found:  # noqa: S310
                    return found.status, json.loads(found.read())
            except urllib.error.HTTPError as exc:
                return exc.code, json.loads(exc.read())

        status, body = answer("/v1/banks/x%2Fy/recall")
        assert status == 400 and body["type"] == "BadInput" and "bank 'x/y'" in body["error"]
        assert answer("/v1/banks/x%2Fy/recall", None)[0] == 401
        status, body = answer("/v1/banks/main/a/b")
        assert status == 404 and "no such path" in body["error"]
    finally:
        served.stop()


def serve_as(url: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "memfold", "serve", "--db", url, "--port",
                           str(free_port())], capture_output=True, text=True, timeout=120,
                          check=False)


def test_serve_refuses_the_tables_owner_and_a_role_outside_memfold_app(
        pg_cluster: Cluster, pg_db: Provisioned) -> None:
    owner = serve_as(pg_db.owner)
    assert owner.returncode == 1, owner.stderr
    assert len(owner.stderr.strip().splitlines()) == 1, owner.stderr
    assert "owns memfold's tables" in owner.stderr
    database = urlsplit(pg_db.owner).path.lstrip("/")
    with psycopg.connect(pg_cluster.url(), autocommit=True) as conn:
        conn.execute("DROP ROLE IF EXISTS memfold_outsider")
        conn.execute("CREATE ROLE memfold_outsider LOGIN PASSWORD 'memfold'")
    outsider = serve_as(pg_cluster.url("memfold_outsider", database, "memfold"))
    assert outsider.returncode == 1, outsider.stderr
    assert len(outsider.stderr.strip().splitlines()) == 1, outsider.stderr
    assert "is not a member of memfold_app" in outsider.stderr


def test_sigterm_stops_the_server_with_status_0(pg_db: Provisioned) -> None:
    served = serve(pg_db)
    try:
        served.process.terminate()
        assert served.process.wait(timeout=30) == 0
    finally:
        served.stop(kill=True)


def inotify_instances() -> int:
    fds = Path("/proc/self/fd")
    return sum(1 for fd in fds.iterdir()
               if _link(fd) == "anon_inode:inotify") if fds.is_dir() else 0


def _link(fd: Path) -> str:
    try:
        return str(fd.readlink())
    except OSError:
        return ""


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts /proc/self/fd")
def test_open_banks_hold_no_inotify_instance(pg_db: Provisioned, replica: Any) -> None:
    make_tenant(pg_db, "many", banks=("one", "two", "three"))
    writer = caller("many", "agent", "read", "write")
    before = inotify_instances()
    for bank in ("one", "two", "three"):
        replica.run(writer, bank, "write", lambda m: m.retain(["W @Hal: Flies kites."]),
                    what="retain")
        replica.run(writer, bank, "read", lambda m: m.recall("kites").hits, what="recall")
    assert inotify_instances() == before
