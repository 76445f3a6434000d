"""Files in and out of a server bank: `memfold import` and `memfold export` against a real
`memfold serve`, through the CLI as a person runs it.

A workspace goes local -> server -> local and comes back byte for byte (every Markdown file
and journal.jsonl), and local memfold reads the copy exactly as it reads the original:
the same recall, statuses, notes and history.  Import is idempotent by block id, merges only
what a non-empty bank lacks, and refuses a body it cannot trust with one line (HTTP 400).
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from memfold import Memory
from memfold_bench.pg_cluster import Provisioned
from server_support import Served, make_tenant, serve

NOW = "2025-11-28T18:00:00+00:00"
DAYS = ("2025-11-20", "2025-11-24", "2025-11-27")
QUERIES = ("where does Peter live", "Baileys crash", "what does Peter prefer",
           "Dana coffee", "Lisbon trip", "release")


# -- the workspace that travels -------------------------------------------------------

def build_workspace(root: Path) -> dict[str, str]:
    """A workspace with three days of Retain bullets of every kind (entities, params, block
    ids), notes, a supersede by the judge and one by hand, an archived fact and a core memory
    edit.  Returns the ids the tests name."""
    Memory.init(root)
    ids: dict[str, str] = {}
    with Memory.open(root) as memory:
        first = memory.retain([
            "W @Peter: Lives in Vienna. ^vienna01",
            "B @warelay: Fixed the Baileys WS crash by wrapping the handler in try/catch.",
            "O(c=0.8) @Peter: Prefers concise replies on WhatsApp.",
            "S @Dana @Peter: Dana and Peter meet for coffee on Fridays.",
        ], date=DAYS[0], now=NOW, source="planner")
        ids.update(vienna=first.facts[0].id, baileys=first.facts[1].id,
                   concise=first.facts[2].id, coffee=first.facts[3].id)
        second = memory.retain([
            "W(until=2025-12-01) @Peter: In Lisbon for a conference (Nov 24–Dec 1, 2025).",
            "B(i=8) @warelay: Shipped release 2.1 to production. ^rel2one1",
            "O(c=0.6) @Dana: Thinks the release cadence is too slow.",
            "W @Dana: Works at Acme on the payments team.",
        ], date=DAYS[1], now=NOW, source="scribe")
        ids.update(lisbon=second.facts[0].id, release=second.facts[1].id,
                   cadence=second.facts[2].id, acme=second.facts[3].id)
        third = memory.retain([
            "W @Peter: Lives in Berlin now.",
            "O(c=0.9) @Peter: Prefers short voice notes to long messages.",
            "B @warelay: Rolled release 2.1 back for an hour, then forward again.",
        ], date=DAYS[2], now=NOW, source="planner")
        ids.update(berlin=third.facts[0].id, voice=third.facts[1].id,
                   rollback=third.facts[2].id)
        assert [j.id for j in third.superseded] == [ids["vienna"]]  # the judge's supersede
        memory.supersede(ids["concise"], ids["voice"], reason="voice notes replaced this",
                         now=NOW, source="planner")
        rev = memory.note(ids["release"], "Ask Dana whether 2.2 keeps this date.", rev=0,
                          now=NOW, source="planner")
        memory.note(ids["release"], "Dana confirmed: 2.2 ships in January.", rev=rev, now=NOW,
                    source="scribe")
        memory.note(ids["berlin"], "Moved in early November.", rev=0, now=NOW)
        memory.forget(ids["cadence"], now=NOW, source="scribe")
        memory.use(ids["coffee"], now=NOW)
        block = memory.core().blocks[0].name
        memory.core_append(block, "Peter lives in Berlin; keep replies short.", now=NOW)
    return ids


def markdown_and_journal(root: Path) -> dict[str, bytes]:
    """Every Markdown file memfold reads below `root`, and journal.jsonl, by relative path."""
    found = {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.md"))
             if p.is_file() and not p.relative_to(root).as_posix().startswith(".")}
    found["journal.jsonl"] = (root / "journal.jsonl").read_bytes()
    return found


def what_local_memfold_says(root: Path, ids: dict[str, str]) -> dict[str, Any]:
    """Recall, statuses, notes and history as local memfold reports them for `root` (the
    parts that depend on where the workspace is, or on its index's age, left out)."""
    with Memory.open(root) as memory:
        said: dict[str, Any] = {}
        for query in QUERIES:
            for include_all in (False, True):
                result = memory.recall(query, include_all=include_all, now=NOW,
                                       mode="lexical").to_dict()
                result.pop("as_of")
                result.pop("index")  # what this call synced: a fresh copy syncs everything
                said[f"recall {query} all={include_all}"] = result
        for name, fact_id in sorted(ids.items()):
            hit = memory.get(fact_id, use=False, now=NOW)
            said[f"fact {name}"] = (hit.status, hit.note, hit.rev, hit.origin, hit.fact.path,
                                    hit.fact.line, hit.superseded_by, list(hit.supersedes))
            said[f"history {name}"] = [event.to_dict() for event in memory.history(fact_id)]
        status = memory.status().to_dict()
        said["status"] = {key: status[key] for key in ("files", "facts", "facts_by_kind",
                                                       "entities", "warnings", "secrets")}
        said["about Peter"] = memory.about("Peter", include_all=True, now=NOW).to_dict()
        said["core"] = memory.core().to_dict()
    return said


# -- the server and the CLI -----------------------------------------------------------

@pytest.fixture(scope="module")
def server(pg_db: Provisioned) -> Iterator[tuple[Served, dict[str, str]]]:
    tenant = make_tenant(pg_db, "exchange", banks=("travel", "merge", "spare", "notes",
                                                        "notes-told"),
                         tokens={"porter": (("read", "write"), None),
                                 "viewer": (("read",), None)})
    served = serve(pg_db)
    try:
        yield served, tenant.tokens
    finally:
        served.stop()


def memfold(*args: str, token: str) -> subprocess.CompletedProcess[str]:
    """`memfold ARGS` as a separate process, with the token in MEMFOLD_TOKEN."""
    env = {**os.environ, "MEMFOLD_TOKEN": token}
    env.pop("MEMFOLD_WORKSPACE", None)
    return subprocess.run([sys.executable, "-m", "memfold", *args], capture_output=True,
                          text=True, env=env, timeout=300, check=False)


def ok(result: subprocess.CompletedProcess[str]) -> Any:
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def post(served: Served, token: str, path: str, body: Any) -> tuple[int, dict[str, Any]]:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    sent = urllib.request.Request(served.url + path, data=data, method="POST", headers={
        "Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(sent, timeout=60) as answer:  # noqa: S310 - loopback
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    return lines[0]


# -- the tests ------------------------------------------------------------------------

def test_a_workspace_goes_to_the_server_and_comes_back_byte_for_byte(
        server: tuple[Served, dict[str, str]], tmp_path: Path) -> None:
    served, tokens = server
    original, copy = tmp_path / "original", tmp_path / "copy"
    ids = build_workspace(original)
    before = markdown_and_journal(original)
    assert len([p for p in before if p.startswith("memory/")]) == len(DAYS)

    loaded = ok(memfold("import", str(original), "--server", served.url, "--bank", "travel",
                        "--json", token=tokens["porter"]))
    assert loaded["stored"] == "whole"
    assert loaded["files"] == len(before) - 1  # every Markdown file, and the journal besides
    assert loaded["journal"] == len(before["journal.jsonl"].splitlines())

    exported = ok(memfold("export", "--server", served.url, "--bank", "travel", str(copy),
                          "--json", token=tokens["viewer"]))
    assert sorted(exported["files"]) == sorted(before)
    after = markdown_and_journal(copy)
    assert sorted(after) == sorted(before)
    differing = [path for path in before if before[path] != after[path]]
    assert differing == []
    # diff itself agrees: the same files and directories, .gitignore included; only the
    # derived index (.memory/) is not sent
    diff = subprocess.run(["diff", "-r", "-x", ".memory", str(original),
                           str(copy)], capture_output=True, text=True, check=False)
    assert (diff.returncode, diff.stdout) == (0, "")

    said = what_local_memfold_says(original, ids)
    # what is compared says something: lifecycle, notes, signatures and core memory
    assert said["recall where does Peter live all=False"]["results"][0]["id"] == ids["berlin"]
    assert said["fact vienna"][0] == "superseded" and said["fact concise"][0] == "superseded"
    assert said["fact cadence"][0] == "archived"
    assert said["fact release"][1:4] == ("Dana confirmed: 2.2 ships in January.", 2, "scribe")
    assert [e["event"] for e in said["history release"]].count("note") == 2
    assert "keep replies short" in json.dumps(said["core"])
    assert what_local_memfold_says(copy, ids) == said
    with Memory.open(copy) as memory:  # the copy is a workspace local memfold writes to
        assert memory.get(ids["cadence"], use=False, now=NOW).status == "archived"
        assert memory.get(ids["vienna"], use=False, now=NOW).superseded_by == ids["berlin"]
        memory.retain("W @Peter: Has a cat called Miso.", date="2025-11-28", now=NOW)

    again = ok(memfold("import", str(original), "--server", served.url, "--bank", "travel",
                       "--json", token=tokens["porter"]))
    assert again["stored"] == "merged"
    assert again["added"] == []
    assert again["skipped"] == sum(1 for line in b"".join(
        data for path, data in before.items() if path.startswith("memory/")).splitlines()
        if line.startswith(b"- "))
    still = tmp_path / "still"
    ok(memfold("export", "--server", served.url, "--bank", "travel", str(still), "--json",
               token=tokens["viewer"]))
    assert markdown_and_journal(still) == before  # importing again changed nothing


def test_import_into_a_bank_with_facts_adds_only_the_bullets_it_lacks(
        server: tuple[Served, dict[str, str]], tmp_path: Path) -> None:
    served, tokens = server
    original = tmp_path / "original"
    ids = build_workspace(original)
    ok(memfold("import", str(original), "--server", served.url, "--bank", "merge", "--json",
               token=tokens["porter"]))

    grown = tmp_path / "grown"
    shutil.copytree(original, grown)
    with Memory.open(grown) as memory:
        on_old_day = memory.retain("B @warelay: Wrote the post-mortem for the 2.1 rollback.",
                                   date=DAYS[2], now=NOW).facts[0].id
        on_new_day = memory.retain(["W @Dana: Moved to the platform team. ^danaplat",
                                    "S @Peter: Answers fastest in the morning."],
                                   date="2025-11-28", now=NOW)
    new_ids = [on_old_day, *(fact.id for fact in on_new_day.facts)]

    merged = ok(memfold("import", str(grown), "--server", served.url, "--bank", "merge",
                        "--json", token=tokens["porter"]))
    assert merged["stored"] == "merged"
    assert sorted(merged["added"]) == sorted(new_ids)
    assert merged["skipped"] == 11  # the eleven bullets the bank had already

    twice = ok(memfold("import", str(grown), "--server", served.url, "--bank", "merge",
                       "--json", token=tokens["porter"]))
    assert (twice["added"], twice["skipped"]) == ([], 14)

    # a write made through the server after the import is in the next export
    status, made = post(served, tokens["porter"], "/v1/banks/merge/retain",
                        {"bullets": ["W @Peter: Adopted a second cat."], "date": "2025-11-29"})
    assert status == 200, made
    written = made["facts"][0]["id"]
    status, noted = post(served, tokens["porter"], "/v1/banks/merge/note",
                         {"id": ids["berlin"], "text": "Confirmed by Peter himself.", "rev": 1})
    assert status == 200, noted

    out = tmp_path / "out"
    ok(memfold("export", "--server", served.url, "--bank", "merge", str(out), "--json",
               token=tokens["viewer"]))
    with Memory.open(out) as memory:
        for fact_id in [*new_ids, written]:
            assert memory.get(fact_id, use=False, now=NOW).fact.id == fact_id
        assert memory.get(written, use=False, now=NOW).origin == "porter"
        assert memory.get(ids["berlin"], use=False, now=NOW).note == \
            "Confirmed by Peter himself."
        assert memory.get(ids["vienna"], use=False, now=NOW).status == "superseded"
    day = (out / "memory/2025-11-29.md").read_text("utf-8")
    assert f"Adopted a second cat. ^{written}" in day
    events = [json.loads(line) for line in (out / "journal.jsonl").read_text().splitlines()]
    assert any(e.get("id") == ids["berlin"] and e.get("source") == "porter" for e in events)

    # an export never writes into a directory that holds anything
    refused = memfold("export", "--server", served.url, "--bank", "merge", str(out),
                      token=tokens["viewer"])
    assert refused.returncode == 2
    assert "not empty" in one_line(refused.stderr)
    assert refused.stdout == ""


def test_an_import_of_notes_never_judged_is_judged_in_the_import_and_only_there(
        server: tuple[Served, dict[str, str]], tmp_path: Path) -> None:
    """Hand-written daily logs (a journal with no decision) imported into an empty bank are
    judged in the order written by the import itself, signed with its token: the bank's
    journal holds the judge's word before any write, and the first write after the import
    journals only its own retain."""
    served, tokens = server
    notes = tmp_path / "notes"
    Memory.init(notes)
    (notes / "memory/2025-03-02.md").write_text(
        "# 2025-03-02\n\n## Retain\n- W @Kenji: Kenji lives in Berlin.\n"
        "- W @Ines: Ines works at Globex.\n", "utf-8")
    (notes / "memory/2025-06-10.md").write_text(
        "# 2025-06-10\n\n## Retain\n- W @Kenji: Kenji lives in Zurich now.\n", "utf-8")
    loaded = ok(memfold("import", str(notes), "--server", served.url, "--bank", "notes",
                        "--json", token=tokens["porter"]))
    assert (loaded["stored"], loaded["journal"], loaded["judged"]) == ("whole", 0, 1)
    told = memfold("import", str(notes), "--server", served.url, "--bank", "notes-told",
                   token=tokens["porter"])
    assert told.stdout.strip() == (f"imported {notes} into notes-told: {loaded['files']} files, "
                                   "0 journal events, 1 decision of the judge"), told.stderr

    def exported(name: str) -> list[dict[str, Any]]:
        ok(memfold("export", "--server", served.url, "--bank", "notes",
                   str(tmp_path / name), "--json", token=tokens["viewer"]))
        return [json.loads(line) for line
                in (tmp_path / name / "journal.jsonl").read_text("utf-8").splitlines()]

    judged = exported("judged")
    assert [(e["event"], e["source"], e["reason"]) for e in judged] == [
        ("supersede", "porter", "location: 'Berlin' became 'Zurich'")]
    with Memory.open(tmp_path / "judged") as memory:
        berlin = memory.get(judged[0]["id"], use=False, now=NOW)
        assert (berlin.fact.content, berlin.status) == ("Kenji lives in Berlin.", "superseded")

    status, made = post(served, tokens["porter"], "/v1/banks/notes/retain",
                        {"bullets": ["B @Kenji: Hiked the Uetliberg trail."],
                         "date": "2025-06-12"})
    assert status == 200, made
    after = exported("after")
    assert after[:len(judged)] == judged
    assert [e["event"] for e in after[len(judged):]] == ["retain"]


FINE = {"path": "memory/2025-11-20.md",
        "content": base64.b64encode(b"## Retain\n- W @Ann: Likes tea. ^annetea1\n").decode()}


@pytest.mark.parametrize("body, says", [
    ({"files": [FINE, {"path": "memory/../memory.md", "content": ""}]},
     "'memory/../memory.md' is not a workspace Markdown file"),
    ({"files": [FINE, {"path": "/etc/passwd.md", "content": ""}]},
     "is not a workspace Markdown file"),
    ({"files": [FINE, {"path": "memory/2025-11-21.md", "content": "not base64!"}]},
     "the content of memory/2025-11-21.md is not base64"),
    ({"files": [FINE], "journal": ['{"seq": 1, "event": "retain"}', "this is not JSON"]},
     "journal line 2 is not a journal event"),
    ({"journal": []}, "import: send"),
    (b"files: [memory.md]", "the body is not JSON"),
], ids=["dot-dot", "absolute", "base64", "journal", "no-files", "not-json"])
def test_import_refuses_a_body_it_cannot_trust(server: tuple[Served, dict[str, str]],
                                                body: Any, says: str) -> None:
    served, tokens = server
    status, answer = post(served, tokens["porter"], "/v1/banks/spare/import", body)
    assert status == 400
    assert says in one_line(answer["error"])
    assert answer["type"] == "BadInput"
    # one bad part refuses the whole body: the good file beside it was not stored either
    status, found = post(served, tokens["porter"], "/v1/banks/spare/status", {})
    assert status == 200 and found["facts"] == 0, found
