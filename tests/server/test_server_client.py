"""The client side of the memory server: `memfold --server URL ...`, `memfold.connect(...)`
and `memfold --server URL mcp`, against a real `memfold serve` on a real PostgreSQL.

The CLI's output against a bank is the CLI's output against a local workspace holding the
same facts: the workspace is imported into the bank first (ids, journal and all), then every
data command runs on both and stdout is compared — text and --json, with only the times that
necessarily differ (and, for bullets retained on each side, the new ids) normalised.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import anyio
import pytest
from click.testing import CliRunner, Result
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

import memfold
from memfold import AccessDenied, BadInput, Memory, StaleRevision, Unavailable, UnknownId
from memfold.cli.main import cli
from memfold.client.remote import RemoteMemory
from memfold.lifecycle.review import ReviewOutcome, ReviewQueue
from memfold.values import RecallResult, RetainResult
from memfold_bench.pg_cluster import Provisioned, free_port
from server_support import Served, make_tenant, serve

TODAY = date.today()
DAYS = {name: (TODAY - timedelta(days=n)).isoformat()
        for name, n in (("today", 0), ("yesterday", 1), ("last_week", 6), ("earlier", 20))}
SOON = (TODAY + timedelta(days=3)).isoformat()
MEMFOLD = [sys.executable, "-c", "from memfold.cli.main import main; main()"]


@dataclass
class Setup:
    served: Served
    tokens: dict[str, str]
    local: Path  # the workspace imported into bank "main"

    def env(self, token: str = "agent", **extra: str) -> dict[str, str]:
        return {"MEMFOLD_SERVER": self.served.url, "MEMFOLD_TOKEN": self.tokens[token],
                "MEMFOLD_WORKSPACE": None, **extra}  # type: ignore[dict-item]


def invoke(*args: str, env: dict[str, str | None], input: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), env=env, input=input, catch_exceptions=False)


def local(setup: Setup, *args: str) -> Result:
    return invoke(*args, env={"MEMFOLD_WORKSPACE": str(setup.local), "MEMFOLD_SERVER": None,
                              "MEMFOLD_NOW": None})


def local_in(root: Path, *args: str) -> Result:
    return invoke(*args, env={"MEMFOLD_WORKSPACE": str(root), "MEMFOLD_SERVER": None,
                              "MEMFOLD_NOW": None})


def remote(setup: Setup, *args: str, token: str = "agent", **extra: str) -> Result:
    return invoke(*args, env=setup.env(token, **extra))


@pytest.fixture(scope="module")
def setup(pg_db: Provisioned, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Setup]:
    tenant = make_tenant(pg_db, "client", banks=("main", "py", "mcp", "review"),
                         tokens={"agent": (("read", "write"), None),
                                 "reader": (("read",), None)})
    root = tmp_path_factory.mktemp("client") / "ws"
    Memory.init(root)
    served = serve(pg_db, extra=("--no-vectors",))  # lexical recall, as the local workspace
    try:
        made = Setup(served, tenant.tokens, root)
        _fill(made)
        yield made
    finally:
        served.stop()


def _fill(setup: Setup) -> None:
    """A local workspace with facts on several days, a supersede, an opinion, a note, an
    archived fact, an expiring fact and core memory — imported whole into bank "main"."""
    def ok(*args: str) -> Result:
        result = local(setup, *args)
        assert result.exit_code == 0, result.stderr
        return result

    ok("retain", "--date", DAYS["earlier"], "W @Peter: Lives in Vienna.",
       "O(c=0.9) @Peter: Prefers short replies on WhatsApp.")
    ok("retain", "--date", DAYS["last_week"], "W @Peter: Lives in Berlin now.",
       "B @Peter @Ada: Met at the café in Zürich.", "W @Ada: Ada has a dog called Rex.")
    ok("retain", "--date", DAYS["yesterday"], f"W(until={SOON}) @Peter: In Marrakech this week.",
       "S(i=7) @Acme: The deploy takes twelve minutes.")
    ok("retain", "--date", DAYS["today"], "B @Peter: Called about the offsite.")
    ids = {h["content"]: h["id"] for h in json.loads(
        ok("recall", "Peter Ada Acme", "--all", "--json", "--k", "50").stdout)["results"]}
    ok("note", ids["Met at the café in Zürich."], "--rev", "0", "confirmed on the phone")
    ok("forget", ids["The deploy takes twelve minutes."])
    ok("core", "append", "Human", "Peter, in Berlin.")
    ok("core", "append", "Persona", "Be brief.")
    imported = invoke("import", str(setup.local), "--bank", "main", "--json", env=setup.env())
    assert imported.exit_code == 0, imported.stderr
    assert json.loads(imported.stdout)["stored"] == "whole"


TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:[+-]\d\d:\d\d|Z)?")
WHERE = re.compile(r"^(workspace|index)( +).*$", re.MULTILINE)


def same(text: str) -> str:
    """Output with what necessarily differs between a workspace and a bank made equal:
    the times of this very moment, and status's workspace and index rows."""
    return WHERE.sub(r"\1\2-", TIME.sub("<now>", text))


def same_json(text: str) -> Any:
    data = json.loads(TIME.sub("<now>", text))
    if isinstance(data, dict) and "index" in data and "files" in data:  # status
        data.update(workspace="-", index="-")
    return data


def ids_of(setup: Setup) -> dict[str, str]:
    found = json.loads(local(setup, "recall", "Peter Ada Acme", "--all", "--json",
                             "--k", "50").stdout)
    return {h["content"]: h["id"] for h in found["results"]}


def compare(setup: Setup, *args: str) -> tuple[Result, Result]:
    here, there = local(setup, *args), remote(setup, *args)
    assert (here.exit_code, there.exit_code) == (0, 0), (args, here.stderr, there.stderr)
    if "--json" in args:
        assert same_json(there.stdout) == same_json(here.stdout), args
    else:
        assert same(there.stdout) == same(here.stdout), args
    assert here.stdout.strip(), args  # something was compared
    return here, there


# -- the CLI against a bank prints what it prints against the workspace ---------------------


def test_reads_print_the_same_against_the_bank(setup: Setup) -> None:
    ids = ids_of(setup)
    vienna, berlin = ids["Lives in Vienna."], ids["Lives in Berlin now."]
    for fmt in ((), ("--json",)):
        compare(setup, "recall", "where does Peter live", *fmt)
        compare(setup, "recall", "Peter", "--all", "--k", "50", *fmt)
        compare(setup, "recall", "Peter", "--since", "7d", "--kind", "W,B", *fmt)
        compare(setup, "recall", "what happened with Peter", "--budget", "30", *fmt)
        compare(setup, "recall", "what is Peter's blood type", *fmt)
        compare(setup, "recall", "where does Peter live", "--strict", *fmt)
        compare(setup, "about", "Peter", *fmt)
        compare(setup, "about", "Ada", "--all", *fmt)
        compare(setup, "history", ids["Met at the café in Zürich."], *fmt)
        compare(setup, "history", "core:Human", *fmt)
        compare(setup, "trace", berlin, *fmt)
        compare(setup, "trace", vienna, *fmt)
        compare(setup, "core", *fmt)
        compare(setup, "context", *fmt)
        compare(setup, "context", "--budget", "60", *fmt)
        compare(setup, "status", *fmt)
    # --strict leaves the weak hits out on the client as Memory does, with the same note
    here, _ = compare(setup, "recall", "what is Peter's blood type", "--strict", "--json")
    assert json.loads(here.stdout)["results"] == [] and json.loads(here.stdout)["notes"]
    budget = json.loads(remote(setup, "recall", "what happened with Peter", "--budget", "30",
                               "--json").stdout)
    assert budget["omitted_for_budget"] > 0  # the budget was packed on the client
    hidden = remote(setup, "recall", "where does Peter live")
    assert "superseded" in hidden.stderr  # the lifecycle hint, as locally
    status = remote(setup, "status")
    assert "workspace  client/main" in status.stdout


def test_show_note_reflect_and_retain_print_the_same(setup: Setup) -> None:
    ids = ids_of(setup)
    fact, other = ids["Ada has a dog called Rex."], ids["Called about the offsite."]
    compare(setup, "show", fact)  # a use on both sides: decay restarts on both
    compare(setup, "show", fact, "--json")
    compare(setup, "show", f"^{other}", "--json")
    compare(setup, "note", fact, "--rev", "0", "a note")
    here, there = local(setup, "note", fact, "--rev", "0", "late"), \
        remote(setup, "note", fact, "--rev", "0", "late")
    assert (here.exit_code, there.exit_code) == (3, 3)
    assert there.stdout == here.stdout == "stale (current revision 1)\n"
    compare(setup, "note", fact, "--rev", "1", "another", "--json")
    here, there = local(setup, "note", fact, "--rev", "1", "x", "--json"), \
        remote(setup, "note", fact, "--rev", "1", "x", "--json")
    assert (here.exit_code, there.exit_code) == (3, 3)
    assert json.loads(there.stdout) == json.loads(here.stdout) == {
        "id": fact, "result": "stale", "rev": 2}
    compare(setup, "show", fact)
    compare(setup, "reflect", "--dry-run", "--since", "30d")
    compare(setup, "reflect", "--dry-run", "--since", "30d", "--json")
    compare(setup, "core", "append", "Project", "The offsite is in March.", "--json")
    compare(setup, "core", "undo")

    # retained on each side: the same day file lines, new ids of their own
    bullets = ("--date", DAYS["today"], "W @Peter: Lives in Hamburg now.", "O @Ada: Likes tea.")
    here, there = local(setup, "retain", *bullets), remote(setup, "retain", *bullets)
    assert (here.exit_code, there.exit_code) == (0, 0), there.stderr
    mine, theirs = ([line.split("\t")[0] for line in r.stdout.splitlines()]
                    for r in (here, there))
    assert len(theirs) == 2 and set(mine).isdisjoint(theirs)
    renamed = there.stdout
    for new, old in zip(theirs, mine, strict=True):
        renamed = renamed.replace(new, old)
    assert renamed == here.stdout
    assert f"supersedes {ids['Lives in Berlin now.']}" in there.stderr  # the judge's word
    moved = remote(setup, "recall", "where does Peter live", "--json")
    assert json.loads(moved.stdout)["results"][0]["origin"] == "agent"  # the token's name


def test_lifecycle_writes_on_the_bank(setup: Setup) -> None:
    ids = ids_of(setup)
    old, new = ids["Lives in Vienna."], ids["Lives in Berlin now."]
    assert remote(setup, "restore", old).stdout == f"{old} restored\n"
    assert remote(setup, "supersede", old, new).stdout == f"{old} superseded by {new}\n"
    assert remote(setup, "supersede", old, new).stdout == \
        f"{old} was already superseded by {new}\n"
    assert remote(setup, "use", new).exit_code == 0
    rex = ids["Ada has a dog called Rex."]
    purge = remote(setup, "forget", rex, "--purge", "--dry-run", "--json")
    assert purge.exit_code == 0 and json.loads(purge.stdout)["dry_run"] is True
    assert remote(setup, "forget", rex).stdout.startswith(f"{rex} archived")
    shown = json.loads(remote(setup, "show", rex, "--json").stdout)
    assert shown["status"] == "archived"


# -- refusals: one line on stderr, the documented exit status --------------------------------


def one_line(result: Result, code: int, *words: str) -> None:
    assert result.exit_code == code, (result.stdout, result.stderr)
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("memfold: error: ")
    assert "Traceback" not in result.stderr
    for word in words:
        assert word in result.stderr


def test_refusals_are_one_line_with_their_exit_status(setup: Setup) -> None:
    env = setup.env()
    one_line(invoke("recall", "Peter", env={**env, "MEMFOLD_TOKEN": "mf_" + "0" * 43}), 5,
             "unauthorized")
    one_line(invoke("recall", "Peter", env={**env, "MEMFOLD_TOKEN": None}), 2, "MEMFOLD_TOKEN")
    down = f"http://127.0.0.1:{free_port()}"
    one_line(invoke("--server", down, "recall", "Peter", env=env), 4, "cannot reach", down)
    one_line(remote(setup, "show", "zz9zz9zz"), 2, "zz9zz9zz")
    one_line(remote(setup, "history", "zz9zz9zz"), 2, "zz9zz9zz")
    one_line(remote(setup, "recall", "Peter", MEMFOLD_BANK="nope"), 2, "nope")
    one_line(remote(setup, "retain", "W @Peter: Has a cat.", token="reader"), 5, "write")
    one_line(remote(setup, "recall", "Peter", "--show-secrets"), 2, "--show-secrets")
    one_line(remote(setup, "retain", "--allow-secret", "W: x"), 2, "--allow-secret")
    one_line(remote(setup, "recall", "Peter", MEMFOLD_NOW="2025-11-27"), 2, "--as-of")
    for command in (("init",), ("index",), ("index", "--full"), ("ui", "--no-open")):
        one_line(remote(setup, *command), 2, f"memfold {command[0]} works on a local "
                 "workspace only")
    one_line(remote(setup, "mcp", "--http", "127.0.0.1:0", "--no-token"), 2, "/mcp")
    one_line(invoke("--bank", "main", "recall", "x",
                    env={"MEMFOLD_WORKSPACE": str(setup.local)}), 2, "--bank goes with")
    one_line(invoke("--workspace", str(setup.local), "--server", setup.served.url, "status",
                    env=env), 2, "not both")
    # a workspace typed on the command line wins over a server from the environment
    assert invoke("--workspace", str(setup.local), "status", env=env).stdout.startswith(
        f"workspace  {setup.local}")
    # a read-only token reads; show is then not a use, and says so
    read = remote(setup, "show", ids_of(setup)["Lives in Berlin now."], token="reader")
    assert read.exit_code == 0 and "not counted as a use" in read.stderr
    assert "--server URL" in remote(setup, "--help").stdout


# -- the Python API ------------------------------------------------------------------------


def test_connect_gives_memory_s_methods_and_types(setup: Setup) -> None:
    with memfold.connect(setup.served.url, token=setup.tokens["agent"], bank="py") as memory:
        assert isinstance(memory, RemoteMemory) and "agent" not in repr(memory)
        made = memory.retain(["W @Zoë: Lives in Lyon.", "O(c=0.7) @Zoë: Likes jazz."],
                             date=TODAY)
        assert isinstance(made, RetainResult) and len(made.facts) == 2
        assert ("Zoë", 2) in memory.entities()
        once, twice = (memory.retain("W @Zoë: Plays cello.", date=TODAY, idempotency_key="z1")
                       for _ in range(2))
        assert twice.repeated and [f.id for f in twice.facts] == [f.id for f in once.facts]
        assert ("Zoë", 3) in memory.entities()  # stored once
        found = memory.recall("where does Zoë live")
        assert isinstance(found, RecallResult)
        assert found.hits[0].fact.id == made.facts[0].id
        assert found.hits[0].origin == "agent"
        assert memory.note(made.facts[0].id, "checked", rev=0) == 1
        with pytest.raises(StaleRevision) as stale:
            memory.note(made.facts[0].id, "late", rev=0)
        assert stale.value.current == 1
        assert str(stale.value) == f"stale: {made.facts[0].id} is at revision 1, not 0"
        with pytest.raises(UnknownId):
            memory.get("zz9zz9zz")
        with pytest.raises(BadInput, match="not available against a server"):
            memory.index()
        with pytest.raises(BadInput, match="not available against a server"):
            memory.recall("Zoë", now="2025-01-01")
        assert memory.get(made.facts[1].id, use=False).fact.params == {"c": "0.7"}
        assert [e.event for e in memory.history(made.facts[0].id)] == ["retain", "note"]
    os.environ["MEMFOLD_SERVER"], os.environ["MEMFOLD_TOKEN"] = setup.served.url, "mf_nope"
    try:
        with pytest.raises(AccessDenied) as denied:
            memfold.connect(bank="py").status()
        assert denied.value.exit_code == 5
    finally:
        del os.environ["MEMFOLD_SERVER"], os.environ["MEMFOLD_TOKEN"]
    with pytest.raises(Unavailable):
        memfold.connect(f"http://127.0.0.1:{free_port()}", token="mf_x").status()


def test_review_runs_on_the_bank_as_on_the_workspace(setup: Setup, tmp_path: Path) -> None:
    """`memfold --server URL review` (list, accept, reject, a bulk reject) prints what it
    prints against a workspace holding the same journal, through the REST review verbs;
    `memfold.connect()` gives Memory's review types."""
    here = tmp_path / "ws"
    shutil.copytree(setup.local, here)
    kenji = ("W @Kenji: Lives in Berlin.", "W @Kenji: Lives in Zurich now.")  # a conflict
    assert local_in(here, "retain", "--date", DAYS["yesterday"], *kenji).exit_code == 0
    loaded = invoke("import", str(here), "--bank", "review", env=setup.env())
    assert loaded.exit_code == 0, loaded.stderr

    def both(*args: str, code: int = 0) -> str:
        mine = local_in(here, *args)
        theirs = remote(setup, *args, MEMFOLD_BANK="review")
        assert (mine.exit_code, theirs.exit_code) == (code, code), (args, theirs.stderr)
        if "--json" in args:
            assert same_json(theirs.stdout) == same_json(mine.stdout), args
        else:
            assert same(theirs.stdout) == same(mine.stdout), args
        return theirs.stdout

    items = json.loads(both("review", "--json"))["items"]
    kinds = {item["kind"]: item for item in items}
    assert set(kinds) == {"conflict", "supersede"}, items
    both("review")
    both("review", "--entity", "Kenji", "--json")
    both("review", "--rule", kinds["supersede"]["rule"], "--since", "30d", "--json")
    both("review", "reject", "--rule", kinds["supersede"]["rule"], "--dry-run", "--json")
    one_line(remote(setup, "review", "reject", "--rule", "bogus", MEMFOLD_BANK="review"), 2,
             "no judge has used the rule 'bogus'")
    one_line(remote(setup, "review", "accept", "999999", MEMFOLD_BANK="review"), 2, "999999")
    conflict, supersede = str(kinds["conflict"]["id"]), str(kinds["supersede"]["id"])
    one_line(remote(setup, "review", "accept", conflict, token="reader",
                    MEMFOLD_BANK="review"), 5, "write")
    assert remote(setup, "review", token="reader", MEMFOLD_BANK="review").exit_code == 0
    both("review", "accept", conflict, "--reason", "she moved")
    both("review", "reject", supersede)
    with memfold.connect(setup.served.url, token=setup.tokens["agent"],
                         bank="review") as memory:
        queue = memory.review(settled=True, limit=None)
        assert isinstance(queue, ReviewQueue) and queue.total == len(queue.items) >= 2
        settled = {str(item.id): item.settled for item in queue.items}
        assert settled[conflict] is not None and settled[conflict].by == "agent"
        assert settled[supersede] is not None and settled[supersede].state == "restored"
        again = memory.accept(conflict)
        assert isinstance(again, ReviewOutcome) and again.settled == ()
        assert [item.state for item in again.unchanged] == ["accepted"]


# -- memfold call and memfold mcp, proxied to the bank ---------------------------------------


def test_tool_calls_run_on_the_bank(setup: Setup) -> None:
    call = json.dumps({"name": "recall", "arguments": {"query": "where does Peter live"}})
    answered = invoke("call", env=setup.env(), input=call)
    assert answered.exit_code == 0, answered.stderr
    data = json.loads(answered.stdout)
    assert not data["is_error"] and data["result"]["results"]


async def mcp_session(setup: Setup, errlog: Any) -> dict[str, Any]:
    env = {"MEMFOLD_TOKEN": setup.tokens["agent"], "MEMFOLD_BANK": "mcp",
           **({"PYTHONPATH": os.environ["PYTHONPATH"]} if "PYTHONPATH" in os.environ else {})}
    params = StdioServerParameters(command=MEMFOLD[0], env=env,
                                   args=[*MEMFOLD[1:], "--server", setup.served.url, "mcp"])
    seen: dict[str, Any] = {}
    with anyio.fail_after(60):
        async with stdio_client(params, errlog=errlog) as (read, write), \
                ClientSession(read, write) as session:
            await session.initialize()
            seen["tools"] = (await session.list_tools()).tools
            seen["retain"] = await session.call_tool("retain", {"bullets": [
                "W @Peter: Lives in Graz.", "O @Peter: Prefers tea."]})
            seen["recall"] = await session.call_tool("recall", {"query": "where does Peter live"})
            seen["unknown"] = await session.call_tool("show", {"id": "zz9zz9zz"})
            seen["index"] = await session.call_tool("index", {})
            seen["core"] = await session.read_resource("memfold://core")  # type: ignore[arg-type]
    return seen


def failed(result: Any) -> bool:
    return bool(getattr(result, "is_error", getattr(result, "isError", False)))


def test_mcp_over_stdio_proxies_every_tool_to_the_bank(setup: Setup, tmp_path: Path) -> None:
    with open(tmp_path / "mcp.stderr", "w") as errlog:
        seen = anyio.run(mcp_session, setup, errlog)
    assert {"recall", "retain", "show", "note", "core_view", "context"} <= {
        t.name for t in seen["tools"]}
    made = json.loads(seen["retain"].content[0].text)
    hits = json.loads(seen["recall"].content[0].text)["results"]
    assert hits[0]["id"] == made["ids"][0] and hits[0]["content"] == "Lives in Graz."
    assert failed(seen["unknown"]) and "zz9zz9zz" in seen["unknown"].content[0].text
    assert failed(seen["index"]) and "not available against a server" in \
        seen["index"].content[0].text
    assert "## Human" in seen["core"].contents[0].text
    with memfold.connect(setup.served.url, token=setup.tokens["agent"], bank="mcp") as memory:
        assert memory.get(made["ids"][0], use=False).origin == "agent"  # the token's name
    assert "Traceback" not in (tmp_path / "mcp.stderr").read_text()
