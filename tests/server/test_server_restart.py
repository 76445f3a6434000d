"""A restarted replica and the copies of banks it finds in its cache (memfold.server.copies):
a clean stop leaves a manifest the next start adopts the copy by (and catches up from);
anything the manifest does not vouch for is built again from PostgreSQL; copies no restart
may adopt are removed at start; live processes sharing a cache keep to their own copies."""

from __future__ import annotations

import base64
import json
import shutil
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from memfold_bench.pg_cluster import Provisioned
from server_support import caller, make_tenant, serve

DAYS = 12


def daily(day: int) -> dict[str, str]:
    text = f"## Retain\n- W @Ada{day}: Visited harbour town {day}. ^visit{day:03d}\n"
    return {"path": f"memory/2025-10-{day:02d}.md",
            "content": base64.b64encode(text.encode()).decode()}


@pytest.fixture
def pool(app_pool: Any) -> Any:
    """The serving role's pool (`app_pool`), under the name these tests give it."""
    return app_pool


@pytest.fixture
def fresh_builds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The bank ids of every copy built from nothing (BankWorkspace._fresh)."""
    from memfold.server.banks import BankWorkspace

    built: list[int] = []
    real = BankWorkspace._fresh

    def counted(self: BankWorkspace, conn: Any, head: int) -> None:
        built.append(self.bank_id)
        real(self, conn, head)

    monkeypatch.setattr(BankWorkspace, "_fresh", counted)
    return built


def replica(pool: Any, cache: Path) -> Any:
    from memfold.server.replica import Replica

    return Replica(pool, cache, recall_from="copy")  # the copies a restart adopts


def recall_ids(found: Any, who: Any, query: str = "harbour town", bank: str = "main"
               ) -> set[str]:
    return found.run(who, bank, "read",
                     lambda m: {h.fact.id for h in m.recall(query, k=50).hits}, what="recall")


def retain(found: Any, who: Any, bullet: str, bank: str = "main") -> str:
    made = found.run(who, bank, "write", lambda m: m.retain([bullet], date="2025-10-20"),
                     what="retain")
    return str(made.facts[0].id)


def loaded(pg_db: Provisioned, pool: Any, cache: Path, tenant: str) -> Any:
    """A tenant's bank of DAYS daily logs, read once through a replica on `cache` (the copy
    built), then the replica stopped cleanly."""
    from memfold.server.exchange import import_bank

    make_tenant(pg_db, tenant)
    first = replica(pool, cache)
    import_bank(first, caller(tenant), "main", {"files": [daily(d) for d in
                                                         range(1, DAYS + 1)], "journal": []})
    assert len(recall_ids(first, caller(tenant))) == DAYS
    first.close()
    return first


def copy_of(cache: Path) -> tuple[Path, Path]:
    """The one copy in the cache and its manifest."""
    (bank_dir,) = [p for p in cache.iterdir() if p.name.isdigit()]
    return bank_dir / "0", bank_dir / "0.json"


def test_a_clean_restart_adopts_its_copy_and_catches_up(
        pg_db: Provisioned, pool: Any, tmp_path: Path, fresh_builds: list[int],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from memfold.workspace.layout import Workspace

    cache = tmp_path / "cache"
    loaded(pg_db, pool, cache, "calm")
    root, manifest = copy_of(cache)
    assert json.loads(manifest.read_text())["head"] >= 1
    index = Workspace(root).index_path.stat().st_ino
    # another replica writes while this one is down
    other = replica(pool, tmp_path / "other")
    written = retain(other, caller("calm"), "W @Bo: Sailed to harbour town on Friday.")
    fresh_builds.clear()
    scans: list[int] = []
    real_scan = Workspace.scan

    def counted_scan(self: Workspace) -> Any:
        scans.append(1)
        return real_scan(self)

    monkeypatch.setattr(Workspace, "scan", counted_scan)
    again = replica(pool, cache)
    assert again.reclaimed == []
    found = recall_ids(again, caller("calm"))
    assert written in found and len(found) == DAYS + 1
    assert fresh_builds == [] and scans == []  # adopted: no fetch of the bank, no walk
    assert not manifest.exists()  # removed on adoption
    assert Workspace(root).index_path.stat().st_ino == index
    # it writes from the adopted copy, and the other replica sees that write
    mine = retain(again, caller("calm"), "W @Cy: Rowed across harbour town bay.")
    assert {written, mine} <= recall_ids(other, caller("calm"))
    assert recall_ids(again, caller("calm")) == recall_ids(other, caller("calm"))
    again.close()
    other.close()


def _head_ahead(root: Path, manifest: Path) -> None:
    body = json.loads(manifest.read_text())
    body["head"] += 5
    manifest.write_text(json.dumps(body))


def _tampered(root: Path, manifest: Path) -> None:
    day = root / "memory" / "2025-10-03.md"
    day.write_text(day.read_text() + "- W @Eve: Planted a tampered line. ^tamper001\n")


def _no_manifest(root: Path, manifest: Path) -> None:
    manifest.unlink()


def _unreadable(root: Path, manifest: Path) -> None:
    manifest.write_text("{not json")


def _missing_file(root: Path, manifest: Path) -> None:
    (root / "memory" / "2025-10-05.md").unlink()


@pytest.mark.parametrize("spoil", [_head_ahead, _tampered, _no_manifest, _unreadable,
                                   _missing_file])
@pytest.mark.parametrize("when", ["before", "after"])
def test_a_copy_its_manifest_does_not_vouch_for_is_built_again(
        pg_db: Provisioned, pool: Any, tmp_path: Path, fresh_builds: list[int],
        spoil: Any, when: str) -> None:
    """Spoilt before the replica starts (its reclaim at start sees it) or after (the first
    request's adoption sees it): either way the copy is built again from PostgreSQL."""
    tenant = "spoilt" + spoil.__name__.replace("_", "") + when
    cache = tmp_path / "cache"
    loaded(pg_db, pool, cache, tenant)
    root, manifest = copy_of(cache)
    if when == "before":
        spoil(root, manifest)
    fresh_builds.clear()
    again = replica(pool, cache)
    if when == "after":
        assert again.reclaimed == []
        spoil(root, manifest)
    found = recall_ids(again, caller(tenant))
    assert found == {f"visit{d:03d}" for d in range(1, DAYS + 1)}
    assert len(fresh_builds) == 1
    assert "tampered" not in (root / "memory" / "2025-10-03.md").read_text()
    assert recall_ids(again, caller(tenant), "tampered line") == set()
    again.close()


def test_a_manifest_is_not_trusted_twice(pg_db: Provisioned, pool: Any, tmp_path: Path,
                                         fresh_builds: list[int]) -> None:
    """A copy adopted and then left without a clean stop (a crash after adoption) is built
    again: the manifest went when the copy was adopted."""
    cache = tmp_path / "cache"
    loaded(pg_db, pool, cache, "twice")
    fresh_builds.clear()
    crashed = replica(pool, cache)
    recall_ids(crashed, caller("twice"))
    assert fresh_builds == []
    crashed.listener.stop()  # the process dies: no close, no manifest
    for bank in list(crashed._banks.values()):
        bank.slot.release()
    again = replica(pool, cache)
    assert len(again.reclaimed) == 1
    assert len(recall_ids(again, caller("twice"))) == DAYS
    assert len(fresh_builds) == 1
    again.close()


def test_copies_of_banks_gone_are_removed_at_start(pg_db: Provisioned, pool: Any,
                                                   tmp_path: Path) -> None:
    from memfold.server import admin
    from server_support import owner_pool

    cache = tmp_path / "cache"
    make_tenant(pg_db, "gone", banks=("kept", "dropped"))
    first = replica(pool, cache)
    for bank in ("kept", "dropped"):
        retain(first, caller("gone"), f"W @Di: Kept a note about {bank}.", bank=bank)
    ids = {name: first.bank(caller("gone"), name).bank_id for name in ("kept", "dropped")}
    first.close()
    assert {p.name for p in cache.iterdir()} == {str(i) for i in ids.values()}
    owner = owner_pool(pg_db)
    try:
        assert admin.delete_bank(owner, "gone", "dropped")
    finally:
        owner.close()
    again = replica(pool, cache)
    assert again.reclaimed == [cache / str(ids["dropped"]) / "0"]
    assert {p.name for p in cache.iterdir()} == {str(ids["kept"])}
    again.close()


def test_live_replicas_on_one_cache_keep_to_their_own_copies(
        pg_db: Provisioned, pool: Any, tmp_path: Path, fresh_builds: list[int]) -> None:
    cache = tmp_path / "cache"
    loaded(pg_db, pool, cache, "shared")
    fresh_builds.clear()
    one = replica(pool, cache)
    recall_ids(one, caller("shared"))  # adopts copy 0
    two = replica(pool, cache)  # starts while `one` is live: copy 0 has no manifest now
    assert two.reclaimed == []
    recall_ids(two, caller("shared"))
    assert len(fresh_builds) == 1  # `two` built a copy of its own
    bank_dir = copy_of(cache)[0].parent
    assert (bank_dir / "0").is_dir() and (bank_dir / "1").is_dir()
    retain(two, caller("shared"), "W @Fa: Docked at harbour town at dawn.")
    one.close()
    two.close()
    assert (bank_dir / "0.json").is_file() and (bank_dir / "1.json").is_file()
    fresh_builds.clear()
    three, four = replica(pool, cache), replica(pool, cache)
    assert recall_ids(three, caller("shared")) == recall_ids(four, caller("shared"))
    assert fresh_builds == []  # each adopted one of the two
    three.close()
    four.close()


def _post(url: str, token: str, verb: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(f"{url}/v1/banks/main/{verb}",
                                     data=json.dumps(body).encode(), method="POST",
                                     headers={"Authorization": f"Bearer {token}",
                                              "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as answer:  # noqa: S310
        return json.loads(answer.read())


@pytest.mark.slow
def test_serve_keeps_its_copy_across_sigterm_and_not_across_kill(pg_db: Provisioned
                                                                 ) -> None:
    tenant = make_tenant(pg_db, "served")
    token = tenant.tokens["agent"]
    cache = Path(tempfile.mkdtemp(prefix="memfold-restart-test-"))
    extra = ("--cache", str(cache), "--no-vectors", "--recall-from", "copy")
    try:
        served = serve(pg_db, extra=extra)
        made = _post(served.url, token, "retain", {"bullets": ["W @Gus: Saw a heron."]})
        served.stop()
        assert served.process.returncode == 0
        root, manifest = copy_of(cache)
        assert manifest.is_file()
        (root / "marker").write_text("this copy")  # not the bank's: it stays with the copy
        for kill in (False, True):
            served = serve(pg_db, extra=extra)
            found = _post(served.url, token, "recall", {"query": "heron"})
            assert made["facts"][0]["id"] in {hit["id"] for hit in found["results"]}
            assert (root / "marker").is_file()  # adopted, not built again
            served.stop(kill=kill)
        assert not manifest.exists()  # killed: nothing vouches for the copy
        served = serve(pg_db, extra=extra)
        assert not root.exists() or not (root / "marker").exists()  # removed at start
        found = _post(served.url, token, "recall", {"query": "heron"})
        assert made["facts"][0]["id"] in {hit["id"] for hit in found["results"]}
        served.stop()
    finally:
        shutil.rmtree(cache, ignore_errors=True)
