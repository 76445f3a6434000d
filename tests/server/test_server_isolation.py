"""Tenant isolation and access control of the server, by randomized requests.

Three tenants, each with two banks (one of them named `main` in all three) and tokens of
every kind — read and write, read only, pinned to one bank, revoked — plus missing, garbage
and forged tokens.  Seeded random requests (memfold_bench.server_isolation, the same trial
`memfold bench server-isolation` runs against a real `memfold serve` at a larger count) go
to the in-process app; every answer must hold only the caller's tenant's data, and every
refusal must carry the one status the app's documented order of checks gives it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from memfold_bench.pg_cluster import Provisioned
from memfold_bench.server_isolation import (
    TENANTS,
    VERBS,
    Send,
    Trial,
    World,
    provision,
    run_trial,
)
from server_support import app_client

REQUESTS = 1000  # about 15 s here; `memfold bench server-isolation` runs 10,000
SEED = 20261201


@pytest.fixture(scope="module")
def served(pg_db: Provisioned) -> Iterator[tuple[World, Send]]:
    """The three tenants on an in-process server (no rate limit), and how to reach it."""
    with app_client(pg_db, rate=0) as client:
        def send(method: str, path: str, headers: dict[str, str],
                 body: Any) -> tuple[int, str]:
            answer = client.request(method, path, headers=headers,
                                    **({} if body is None else {"json": body}))
            return answer.status_code, answer.text

        yield provision(pg_db, send, random.Random(SEED)), send


def _failures(trial: Trial) -> str:
    return json.dumps(trial.report()["examples"], indent=1)[:4000]


@pytest.mark.slow
@pytest.mark.parametrize("requests", [REQUESTS])
def test_random_requests_never_cross_tenants(served: tuple[World, Send], requests: int
                                             ) -> None:
    world, send = served
    trial = run_trial(world, send, requests=requests, seed=SEED)
    report = trial.report()
    assert report["requests"] == requests
    assert report["leaks"] == 0, _failures(trial)
    assert report["wrong_status"] == 0, _failures(trial)
    assert report["missing_own_data"] == 0, _failures(trial)
    # the trial reached every verb and every kind of refusal, and probed every boundary
    assert set(report["by_verb"]) == set(VERBS)
    assert {"200", "401", "403", "404", "409"} <= set(report["by_status"])
    for probe in ("bank:own", "bank:foreign", "bank:nowhere", "id:own", "id:sibling",
                  "id:foreign", "id:none", "caller:rw", "caller:ro", "caller:pin",
                  "caller:revoked", "caller:forged", "caller:garbage", "caller:none",
                  "caller:scheme", "caller:empty"):
        assert report["probes"].get(probe, 0) > 0, probe
    assert report["by_status"]["200"] > requests // 5  # most of it is not just refusals


def test_the_trial_counts_a_planted_leak_and_a_wrong_status(served: tuple[World, Send]
                                                          ) -> None:
    """The checks can fail: an answer carrying another tenant's marker is a leak, and a
    refusal with another status is counted as wrong."""
    world, send = served
    tenant_of = {key.header: key.tenant for key in world.keys}
    planted: dict[str, str] = {}

    def tampered(method: str, path: str, headers: dict[str, str],
                 body: Any) -> tuple[int, str]:
        status, text = send(method, path, headers, body)
        caller = tenant_of.get(headers.get("Authorization"))
        if status == 200 and path.endswith("/recall") and caller and "leak" not in planted:
            other = next(t for t in TENANTS if t != caller)
            planted["leak"] = world.banks[other, "main"].marker
            data = json.loads(text)
            data["results"].append({"content": f"a note on {planted['leak']}"})
            text = json.dumps(data)
        elif status == 404 and "status" not in planted:
            planted["status"] = path
            status = 403
        return status, text

    trial = run_trial(world, tampered, requests=300, seed=SEED + 1)
    assert set(planted) == {"leak", "status"}
    assert trial.counts["leaks"] == 1 and planted["leak"] in trial.leaks[0]
    assert trial.counts["wrong"] == 1 and "wanted 404" in trial.wrong[0]
