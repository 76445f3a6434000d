"""`forget --purge` removes every copy: bullets with the same ^id or text in any file, the
secret token wherever it occurs (bullets, prose, bank pages, memory.md, the journal), the
index and its WAL, the vectors and reflect's undo snapshot; `--dry-run` lists each place and
changes nothing."""

from __future__ import annotations

import base64
import json
from pathlib import Path

from click.testing import CliRunner

from memfold import Memory
from memfold.cli.main import cli
from memfold.embed.base import FakeEmbedder
from memfold.embed.store import VectorStore, text_key

TOKEN = "ghp_Zq7Lm2Xw9Kp4Rt8Vn3Bc6Yh1Jd5Fs0Ga2Eu7Wx"  # ghp_ + 36: a fake GitHub token
NOW = "2025-11-30"
SECRET_TEXT = f"old deploy key {TOKEN}"


def every_file(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


def sources(root: Path) -> dict[str, bytes]:
    """Every file but the index, whose pages any open may rewrite (its rows are checked
    through recall instead)."""
    return {k: v for k, v in every_file(root).items()
            if not k.startswith(".memory/index.sqlite")}


def holds_token(data: bytes) -> bool:
    """The token in the bytes, or inside a base64 string of a JSON file (reflect's undo
    snapshot keeps page bytes that way)."""
    if TOKEN.encode() in data:
        return True
    for word in data.replace(b'"', b" ").split():
        try:
            if TOKEN.encode() in base64.b64decode(word, validate=True):
                return True
        except ValueError:
            continue
    return False


def build(root: Path) -> tuple[str, str]:
    """A workspace with the token in many places; returns (secret id, harmless id)."""
    with Memory.open(root, now=NOW) as memory:
        memory.set_embedder(FakeEmbedder())
        [secret] = memory.retain(f"W @ops: {SECRET_TEXT}", date=NOW, allow_secret=True).facts
        [other] = memory.retain(f"W @ci: The CI runner also used {TOKEN} until May.",
                                date=NOW, allow_secret=True).facts
        [keep] = memory.retain("W @ops: Runs on Node 22.", date=NOW).facts
        pasted = (root / f"memory/{NOW}.md").read_text().splitlines()[3]
        assert pasted.endswith(f"^{secret.id}")
        (root / "memory/2025-11-29.md").write_text(
            "# 2025-11-29\n\nWe rotated the key " + TOKEN + " after the incident.\n\n"
            "## Retain\n" + pasted + "\n- W @ops: Copied without its id: " + SECRET_TEXT
            + "\n- W @ops: " + SECRET_TEXT + "\n")
        (root / "bank").mkdir(exist_ok=True)
        (root / "bank/ops-notes.md").write_text(f"# Ops notes\n\nThe key was {TOKEN}.\n")
        memory.core_append("project", f"Deploy token {TOKEN} (old)")
        memory.note(keep.id, f"not {TOKEN}", rev=0)
        memory.refresh()
        memory.recall("deploy key", mode="semantic")  # vectors for every fact
        memory.reflect()
        assert (root / ".memory/reflect-last.json").exists()
        assert other.id != secret.id
    return secret.id, keep.id


def test_purge_leaves_no_byte_of_the_secret_anywhere(workspace: Path) -> None:
    secret, keep = build(workspace)
    assert sum(holds_token(d) for d in every_file(workspace).values()) >= 5
    vectors = VectorStore(workspace / ".memory/vectors")
    snap = vectors.snapshot()
    assert snap is not None and text_key(SECRET_TEXT) in {bytes(k) for k in snap.keys.tolist()}
    with Memory.open(workspace, now=NOW) as memory:
        files = memory.forget(secret, purge=True)
        assert {f"memory/{NOW}.md", "memory/2025-11-29.md", "memory.md",
                "bank/ops-notes.md"} <= set(files)
        hits = memory.recall("old deploy key", include_all=True).hits
        assert hits and all(h.fact.id != secret and TOKEN not in h.fact.content for h in hits)
        assert memory.get(keep, use=False).fact.content == "Runs on Node 22."
    for name, data in every_file(workspace).items():
        assert not holds_token(data), name
    day = (workspace / "memory/2025-11-29.md").read_text()
    assert "We rotated the key [purged] after the incident." in day  # prose kept, token gone
    assert SECRET_TEXT not in day and "Copied without its id" in day
    assert "The CI runner also used [purged] until May." in (
        workspace / f"memory/{NOW}.md").read_text()
    snap = VectorStore(workspace / ".memory/vectors").snapshot()
    assert snap is None or text_key(SECRET_TEXT) not in {bytes(k) for k in snap.keys.tolist()}


def test_the_journal_chain_still_verifies_after_a_purge(workspace: Path) -> None:
    from memfold.journal.log import Journal
    from memfold.workspace.layout import Workspace

    secret, _ = build(workspace)
    with Memory.open(workspace, now=NOW) as memory:
        memory.forget(secret, purge=True)
    journal = Journal(workspace, Workspace(workspace).write_lock)
    checked, problem = journal.verify()
    assert problem is None and checked > 3
    events = [json.loads(line) for line in (workspace / "journal.jsonl").read_text().splitlines()]
    assert any(e["event"] == "core" and "[purged]" in e["text"] for e in events)
    [purge] = [e for e in events if e["event"] == "purge"]
    assert purge["id"] == secret and "purged_sha256" in purge


def test_dry_run_lists_every_place_and_changes_nothing(workspace: Path) -> None:
    secret, _ = build(workspace)
    before = sources(workspace)
    runner = CliRunner()
    env = {"MEMFOLD_WORKSPACE": str(workspace), "MEMFOLD_NOW": NOW}
    shown = runner.invoke(cli, ["forget", secret, "--purge", "--dry-run", "--json"], env=env)
    assert shown.exit_code == 0, shown.output
    assert sources(workspace) == before
    with Memory.open(workspace, now=NOW) as memory:
        assert memory.get(secret, use=False, show_secrets=True).fact.content == SECRET_TEXT
    plan = json.loads(shown.stdout)
    assert plan["dry_run"] and plan["secrets"] == 1
    where = {(p["path"], p["line"], p["action"]) for p in plan["places"]}
    assert {(f"memory/{NOW}.md", 4, "remove"), ("memory/2025-11-29.md", 3, "redact"),
            ("memory/2025-11-29.md", 6, "remove"), ("memory/2025-11-29.md", 8, "remove"),
            ("bank/ops-notes.md", 3, "redact"), (".memory/reflect-last.json", None, "delete"),
            (".memory/index.sqlite", None, "scrub"), (".memory/vectors", None, "scrub")
            } <= where
    assert any(p == "memory.md" and a == "redact" for p, _, a in where)
    assert any(p == "journal.jsonl" and a == "rewrite" for p, _, a in where)
    text = runner.invoke(cli, ["forget", secret, "--purge", "--dry-run"], env=env)
    assert text.exit_code == 0 and "would remove: memory/2025-11-29.md:6" in text.output
    assert TOKEN not in text.output and sources(workspace) == before
    done = runner.invoke(cli, ["forget", secret, "--purge"], env=env)
    assert done.exit_code == 0 and f"purged {secret}" in done.output
    assert not any(holds_token(d) for d in every_file(workspace).values())


def test_dry_run_without_purge_is_a_usage_error(workspace: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["forget", "abcdefgh", "--dry-run"],
                           env={"MEMFOLD_WORKSPACE": str(workspace)})
    assert result.exit_code == 2 and "--dry-run goes with --purge" in result.output
