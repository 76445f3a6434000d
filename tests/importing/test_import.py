"""memfold import and export: vaults, Mem0 exports, JSONL facts and chat exports, each
imported twice (the second adds nothing), bad input, and the JSONL round trip."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from conftest import Cli, markdown_hashes
from memfold.errors import BadInput
from memfold.importing.sources import block_id
from memfold.memory import Memory


def fields(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(({k: r[k] for k in FIELDS} for r in rows), key=lambda r: r["id"])


FIELDS = ("id", "kind", "entities", "date", "status", "supersedes", "superseded_by", "source",
          "confidence", "text")


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    """A small Obsidian vault: front-matter aliases and tags, [[links]] (one to an alias,
    one with display text), #tags (one nested), code that holds neither, a daily note, and
    a symbolic link to a note outside the vault."""
    root = tmp_path / "Vault"
    (root / ".obsidian").mkdir(parents=True)
    write(root / ".obsidian" / "app.json", "{}")
    write(root / "People" / "Peter.md", "---\naliases: [Pete, Peter Steinberger]\n"
          "tags: [person]\n---\n# Peter\n\nWorks on [[warelay]] with [[Andy|his friend]]. "
          "#travel\n\n```\n[[NotALink]] #notatag\n```\n")
    write(root / "Projects" / "warelay.md", "# warelay\n\nA WhatsApp relay. See "
          "[[People/Peter.md|Peter]] and `[[Code]]`.\n")
    write(root / "Daily" / "2025-11-27.md", "Met [[Pete]] in Marrakech. #travel/morocco\n")
    write(tmp_path / "elsewhere" / "Secret plans.md", "# Plans\n\nOutside the vault.\n")
    os.symlink(tmp_path / "elsewhere" / "Secret plans.md", root / "Daily" / "linked.md")
    return root


def entity_pages(workspace: Path) -> dict[str, str]:
    return {p.stem: p.read_text("utf-8") for p in (workspace / "bank/entities").glob("*.md")}


def test_a_vault_becomes_bank_pages_and_entities_and_twice_adds_nothing(
        memory: Memory, workspace: Path, vault: Path) -> None:
    first = memory.import_source(vault)
    assert (first.format, first.pages, first.entities) == ("vault", 3, 6)
    notes = workspace / "bank/notes/Vault"
    assert (notes / "People/Peter.md").read_bytes() == (vault / "People/Peter.md").read_bytes()
    pages = entity_pages(workspace)
    assert sorted(pages) == ["Andy", "Peter", "person", "travel", "travel-morocco", "warelay"]
    assert 'aliases: ["Pete", "Peter Steinberger"]' in pages["Peter"]
    # the link to an alias is the note's entity; code holds no links or tags
    assert "Pete" not in pages and "NotALink" not in pages and "Code" not in pages
    assert "notatag" not in pages
    assert [p.where for p in first.left_out] == ["Daily/linked.md"]
    assert not (notes / "Daily/linked.md").exists()
    about = memory.about("Pete")
    assert (about.name, about.page) == ("Peter", "bank/entities/Peter.md")
    found = memory.recall("WhatsApp relay").hits[0].fact.path
    assert found == "bank/notes/Vault/Projects/warelay.md"
    before = markdown_hashes(workspace)
    second = memory.import_source(vault)
    assert (second.pages, second.updated, second.entities, second.facts) == (0, 0, 0, 0)
    assert second.skipped == 9 and markdown_hashes(workspace) == before


def test_a_changed_note_updates_its_page_unless_it_was_edited_here(
        memory: Memory, workspace: Path, vault: Path) -> None:
    memory.import_source(vault)
    write(vault / "Projects/warelay.md", "# warelay\n\nA relay for WhatsApp and Signal.\n")
    assert memory.import_source(vault).updated == 1
    page = workspace / "bank/notes/Vault/Projects/warelay.md"
    assert "Signal" in page.read_text("utf-8")
    write(page, "# warelay\n\nMy own notes.\n")
    write(vault / "Projects/warelay.md", "# warelay\n\nA relay, renamed.\n")
    result = memory.import_source(vault)
    assert result.updated == 0 and page.read_text("utf-8") == "# warelay\n\nMy own notes.\n"
    assert [p.where for p in result.left_out][-1] == "bank/notes/Vault/Projects/warelay.md"


def test_symbolic_links_are_followed_only_when_asked(
        memory: Memory, workspace: Path, vault: Path, tmp_path: Path) -> None:
    linked = tmp_path / "linked-vault"
    os.symlink(vault, linked)
    with pytest.raises(BadInput, match="symbolic link.*--follow-links"):
        memory.import_source(linked)
    assert not (workspace / "bank/notes").exists()
    result = memory.import_source(linked, follow_links=True)
    assert result.pages == 4 and not result.left_out
    assert (workspace / "bank/notes/linked-vault/Daily/linked.md").is_file()


def test_in_place_leaves_the_notes_where_they_are(memory: Memory, workspace: Path,
                                                  vault: Path) -> None:
    inside = workspace / "bank" / "vault"
    os.rename(vault, inside)
    write(workspace / "Loose.md", "# Loose\n")
    result = memory.import_source(inside, in_place=True)
    assert (result.pages, result.entities) == (0, 6)
    assert not (workspace / "bank/notes").exists()
    assert "The note: bank/vault/People/Peter.md" in entity_pages(workspace)["Peter"]
    with pytest.raises(BadInput, match="not inside the workspace"):
        memory.import_source(workspace.parent, in_place=True, format="vault")


MEM0 = {"results": [
    {"id": "3c90c3cc-0d44-4b50-8888-8dd25736052a", "memory": "Is vegetarian and avoids dairy",
     "hash": "x", "metadata": {"category": "food"}, "user_id": "alice",
     "created_at": "2025-02-03T10:00:00Z", "updated_at": "2025-02-04T11:00:00Z"},
    {"id": "5b1f7e42-1111-4b50-8888-8dd25736052b", "memory": "Works at Acme as a nurse",
     "hash": "y", "metadata": None, "user_id": "alice",
     "created_at": "2025-03-01T09:00:00-08:00", "updated_at": None},
    {"id": "77777777-2222-4b50-8888-8dd25736052c",
     "memory": "Her API key is sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd",
     "user_id": "alice", "created_at": "2025-03-02T09:00:00Z"},
]}


def test_a_mem0_export_is_retained_on_its_dates_and_twice_adds_nothing(
        memory: Memory, workspace: Path, tmp_path: Path) -> None:
    source = write(tmp_path / "mem0.json", json.dumps(MEM0))
    result = memory.import_source(source)
    assert (result.format, result.read, result.facts) == ("mem0", 3, 2)
    assert [kind for _, kind in result.secrets] and not result.problems
    day = (workspace / "memory/2025-03-01.md").read_text("utf-8")
    fact_id = block_id("5b1f7e42-1111-4b50-8888-8dd25736052b")
    assert f"- W @alice: Works at Acme as a nurse ^{fact_id}" in day
    assert "sk-proj" not in "".join(p.read_text("utf-8") for p in workspace.rglob("*.md"))
    hit = memory.get(fact_id, use=False)
    assert hit.origin == "import:mem0" and hit.fact.day.isoformat() == "2025-03-01"
    assert [e["event"] for e in map(json.loads, (workspace / "journal.jsonl").read_text(
        ).splitlines())].count("retain") == 2
    before = markdown_hashes(workspace)
    again = memory.import_source(source)
    assert (again.facts, again.skipped) == (0, 2) and markdown_hashes(workspace) == before


def test_jsonl_facts_go_through_retain_and_the_judge(memory: Memory, tmp_path: Path) -> None:
    source = write(tmp_path / "facts.jsonl", "\n".join(json.dumps(r) for r in [
        {"text": "Lives in Vienna.", "date": "2025-01-02", "entities": ["Peter"]},
        {"text": "Moved to Berlin.", "date": "2025-06-01", "entities": "Peter"},
        {"text": "Prefers short replies.", "date": "2025-01-03", "kind": "opinion",
         "entities": ["Peter"], "confidence": 0.95}]) + "\n")
    result = memory.import_source(source, source="import:crm")
    assert (result.format, result.facts) == ("jsonl", 3)
    rows = {row["text"]: row for row in map(json.loads, memory.export_facts().splitlines())}
    vienna, berlin = rows["Lives in Vienna."], rows["Moved to Berlin."]
    assert vienna["status"] == "superseded" and vienna["superseded_by"] == berlin["id"]
    assert rows["Prefers short replies."]["confidence"] == 0.95
    assert {row["source"] for row in rows.values()} == {"import:crm"}
    assert memory.import_source(source).facts == 0


def test_a_malformed_file_imports_what_parses_and_lists_the_rest(
        run: Cli, workspace: Path, tmp_path: Path) -> None:
    source = write(tmp_path / "facts.jsonl", "\n".join([
        json.dumps({"text": "Lives in Vienna.", "date": "2025-01-02", "entities": ["Peter"]}),
        '{"text": "cut off',
        json.dumps({"text": "No date at all."}),
        json.dumps({"text": "Bad kind.", "date": "2025-01-02", "kind": "Z"}),
        json.dumps({"text": "Bad day.", "date": "2025-02-30"}),
        json.dumps({"text": "Too sure.", "date": "2025-01-02", "confidence": 3}),
        json.dumps({"text": "Works at Acme.", "date": "2025-01-04", "entities": ["Peter"]}),
    ]) + "\n")
    result = run("import", str(source), "--json")
    assert result.exit_code == 1
    summary = json.loads(result.stdout)
    assert summary["facts"] == 2
    assert [p["where"] for p in summary["problems"]] == [
        "line 2", "line 3", "line 4", "line 5", "line 6"]
    days = sorted(p.name for p in (workspace / "memory").glob("*.md"))
    assert days == ["2025-01-02.md", "2025-01-04.md"]


def test_an_unknown_source_is_one_line_and_exit_2(run: Cli, tmp_path: Path,
                                                    workspace: Path) -> None:
    before = markdown_hashes(workspace)
    odd = write(tmp_path / "odd.json", json.dumps({"foo": 1}))
    result = run("import", str(odd))
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "expected vault" in result.stderr
    assert run("import", str(tmp_path / "missing.jsonl")).exit_code == 2
    assert run("import", str(odd), "--format", "nope").exit_code == 2
    assert markdown_hashes(workspace) == before


def test_server_options_keep_their_meaning(run: Cli, workspace: Path) -> None:
    assert "--bank NAME is needed" in run("import", str(workspace), "--server",
                                          "http://127.0.0.1:9").stderr
    assert "--bank goes with --server" in run("import", str(workspace), "--bank", "b").stderr
    refused = run("import", str(workspace), "--server", "http://127.0.0.1:9", "--bank", "b",
                  "--dry-run")
    assert refused.exit_code == 2 and "for a local import" in refused.stderr


def test_dry_run_writes_nothing(run: Cli, workspace: Path, vault: Path,
                                tmp_path: Path) -> None:
    before = markdown_hashes(workspace)
    source = write(tmp_path / "mem0.json", json.dumps(MEM0))
    for path in (vault, source):
        result = run("import", str(path), "--dry-run", "--json")
        assert result.exit_code == 0 and json.loads(result.stdout)["dry_run"]
    assert json.loads(run("import", str(vault), "--dry-run", "--json").stdout)["pages"] == 3
    assert markdown_hashes(workspace) == before
    assert not (workspace / "journal.jsonl").exists() or "retain" not in (
        workspace / "journal.jsonl").read_text()


def chatgpt(cid: str, turns: list[tuple[str, str]]) -> dict[str, Any]:
    mapping: dict[str, Any] = {"root": {"id": "root", "message": None, "parent": None,
                                        "children": []}}
    parent = "root"
    for n, (role, text) in enumerate(turns):
        node = f"{cid}-{n}"
        mapping[node] = {"id": node, "parent": parent, "children": [], "message": {
            "id": node, "author": {"role": role}, "create_time": 1741082400 + 60 * n,
            "content": {"content_type": "text", "parts": [text]}, "metadata": {}}}
        mapping[parent]["children"].append(node)
        parent = node
    return {"title": "Moving", "create_time": 1741082400, "mapping": mapping,
            "current_node": parent, "conversation_id": cid, "id": cid}


def test_a_chat_export_is_captured_and_twice_adds_nothing(memory: Memory, workspace: Path,
                                                          tmp_path: Path) -> None:
    source = write(tmp_path / "conversations.json", json.dumps([chatgpt("c1", [
        ("user", "I moved to Lisbon in March."), ("assistant", "Noted.")])]))
    first = memory.import_source(source)
    assert (first.format, first.read, first.turns) == ("chatgpt", 1, 2) and first.facts >= 1
    before = markdown_hashes(workspace)
    second = memory.import_source(source)
    assert (second.turns, second.facts, second.skipped) == (0, 0, 2)
    assert markdown_hashes(workspace) == before


def test_jsonl_round_trip_is_lossless(run: Cli, run_in: Any, tmp_path: Path) -> None:
    """JSONL -> import -> export gives back every field (but the citation), statuses and
    supersede links included; importing the export into another workspace does too."""
    rows = [
        {"id": "vienna01", "kind": "world", "entities": ["Peter"], "date": "2025-01-02",
         "status": "superseded", "supersedes": [], "superseded_by": "berlin01",
         "source": "agent:planner", "confidence": 0.9, "text": "Lives in Vienna."},
        {"id": "berlin01", "kind": "world", "entities": ["Peter"], "date": "2025-06-01",
         "status": "active", "supersedes": ["vienna01"], "superseded_by": None,
         "source": "agent:planner", "confidence": 0.9, "text": "Lives in Berlin."},
        {"id": "coffee01", "kind": "opinion", "entities": ["Peter", "Ana"],
         "date": "2025-03-03", "status": "active", "supersedes": [], "superseded_by": None,
         "source": "cli:me", "confidence": 0.85, "text": "Likes flat whites with @Ana."},
        {"id": "hike0001", "kind": "experience", "entities": [], "date": "2025-04-05",
         "status": "active", "supersedes": [], "superseded_by": None, "source": "markdown",
         "confidence": 0.9, "text": "Hiked the Rax."},
        {"id": "tea00001", "kind": "opinion", "entities": ["Peter"], "date": "2025-05-01",
         "status": "active", "supersedes": [], "superseded_by": None, "source": "cli:me",
         "confidence": 0.7, "text": "Dislikes green tea."},
    ]
    source = write(tmp_path / "in.jsonl", "".join(json.dumps(r) + "\n" for r in rows))
    assert run("import", str(source)).exit_code == 0
    out = tmp_path / "out.jsonl"
    assert run("export", "--format", "jsonl", str(out)).exit_code == 0
    exported = [json.loads(line) for line in out.read_text().splitlines()]
    assert fields(exported) == fields(rows)
    other = tmp_path / "other"
    Memory.init(other)
    assert run_in(other)("import", str(out)).exit_code == 0
    again = run_in(other)("export").stdout
    assert fields([json.loads(line) for line in again.splitlines()]) == fields(rows)
    mem0 = json.loads(run("export", "--format", "mem0").stdout)["results"]
    third = tmp_path / "third"
    Memory.init(third)
    write(tmp_path / "mem0.json", json.dumps({"results": mem0}))
    assert run_in(third)("import", str(tmp_path / "mem0.json")).exit_code == 0
    back = [json.loads(line) for line in run_in(third)("export").stdout.splitlines()]
    assert fields(back) == fields(rows)


def test_a_secret_in_a_note_is_not_copied_and_twice_adds_nothing(
        memory: Memory, workspace: Path, vault: Path) -> None:
    key = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd"
    write(vault / "Setup.md", f"# Setup\n\nThe deploy uses {key} for now.\n")
    first = memory.import_source(vault)
    page = (workspace / "bank/notes/Vault/Setup.md").read_text("utf-8")
    assert key not in page and "[REDACTED:" in page and "The deploy uses" in page
    assert [where for where, _ in first.secrets] == ["bank/notes/Vault/Setup.md:3"]
    second = memory.import_source(vault)
    assert (second.pages, second.updated, second.secrets) == (0, 0, ())


def test_a_cut_off_mem0_export_imports_what_parses(run: Cli, workspace: Path,
                                                   tmp_path: Path) -> None:
    whole = json.dumps(MEM0["results"][:2])
    source = write(tmp_path / "memories.json", whole[:-40])
    result = run("import", str(source), "--json")
    assert result.exit_code == 1
    summary = json.loads(result.stdout)
    assert (summary["format"], summary["facts"]) == ("mem0", 1)
    assert "cut off" in summary["problems"][0]["reason"]
    assert "Is vegetarian" in (workspace / "memory/2025-02-03.md").read_text("utf-8")


def test_a_daily_note_is_dated_by_its_name_and_entity_pages_answer_no_question(
        memory: Memory, workspace: Path, vault: Path) -> None:
    write(vault / "People" / "Ingrid.md", "---\ncreated: 2024-02-03\n---\n# Ingrid\n\n"
          "Ingrid is a marine biologist in Bergen.\n")
    memory.import_source(vault)
    hits = memory.recall("Marrakech", now="2025-12-01T09:00:00").hits
    assert [(h.fact.path, h.fact.day.isoformat() if h.fact.day else None) for h in hits] == [
        ("bank/notes/Vault/Daily/2025-11-27.md", "2025-11-27")]
    ingrid = memory.recall("what does Ingrid do", now="2025-12-01T09:00:00").hits
    assert ingrid[0].fact.path == "bank/notes/Vault/People/Ingrid.md"
    assert ingrid[0].fact.day is not None and ingrid[0].fact.day.isoformat() == "2024-02-03"
    # the entity pages say where each name comes from, in comments recall does not read
    assert "<!-- The note: bank/notes/Vault/People/Peter.md -->" in entity_pages(workspace)["Peter"]
    assert not any(h.fact.path.startswith("bank/entities/") for h in ingrid)
    assert not [h for h in memory.recall("Marrakech", now="2025-12-01T09:00:00",
                                         since="2025-11-28").hits]
