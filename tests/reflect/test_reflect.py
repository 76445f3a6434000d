"""Reflect: entity pages, opinion confidence, consolidation, idempotence, undo, safety."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from memfold import MemfoldError, Memory
from memfold.reflect.plan import page_slug

NOW = "2025-11-30"


def retain(memory: Memory, day: str, *bullets: str) -> list[str]:
    return [f.id for f in memory.retain(list(bullets), date=day).facts]


def digests(root: Path, pattern: str) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.glob(pattern))}


@pytest.fixture
def memory(workspace: Path) -> Memory:
    with Memory.open(workspace, now=NOW) as opened:
        yield opened


def test_entity_page_is_generated_and_hand_text_kept(workspace: Path, memory: Memory) -> None:
    page = workspace / "bank/entities/Peter.md"
    page.write_text("# Peter\n\nMet at the 2019 meetup.\n")
    retain(memory, "2025-11-25", "W @Peter: Lives in Vienna.", "B @Peter: Gave a talk.")
    memory.reflect()
    text = page.read_text()
    assert text.startswith("# Peter\n\nMet at the 2019 meetup.\n")
    assert "### World\n- 2025-11-25: Lives in Vienna. — [memory/2025-11-25.md#L4]" in text
    assert "### Experience" in text
    # a person edits the page outside the region, and a new fact arrives
    page.write_text(text + "\nA closing note by hand.\n")
    retain(memory, "2025-11-29", "W @Peter: Works at Acme.")
    memory.reflect()
    after = page.read_text()
    assert after.endswith("\nA closing note by hand.\n")
    assert after.index("Works at Acme") < after.index("Lives in Vienna")  # newest first
    assert after.startswith("# Peter\n\nMet at the 2019 meetup.\n")


def test_reflect_never_rewrites_daily_logs(workspace: Path, memory: Memory) -> None:
    retain(memory, "2025-11-25", "O @Peter: Prefers tea.", "O @Peter: Prefers tea, hot.",
           "O @Peter: Prefers hot tea.")
    before = digests(workspace, "memory/*.md")
    memory.reflect()
    assert digests(workspace, "memory/*.md") == before


def test_three_duplicates_become_one_fact(workspace: Path, memory: Memory) -> None:
    originals = retain(memory, "2025-11-20", "O @Peter: Prefers short replies on WhatsApp.")
    originals += retain(memory, "2025-11-26", "O @Peter: Prefers short replies, on WhatsApp.",
                        "O @Peter: Prefers short and direct replies on WhatsApp.")
    plan = memory.reflect()
    [(new_id, merged)] = plan.merges
    assert sorted(merged) == sorted(originals)
    hits = memory.recall("what does Peter prefer on WhatsApp").hits
    assert [h.fact.id for h in hits if h.fact.kind == "opinion"] == [new_id]
    assert hits[0].fact.path == "bank/opinions.md"
    everything = memory.recall("short replies WhatsApp", include_all=True, k=10).hits
    statuses = {h.fact.id: h.status for h in everything}
    assert all(statuses[i] == "merged" for i in originals)
    assert memory.get(new_id, use=False).derived_from == tuple(sorted(originals))
    assert [h.fact.id for h in memory.trace(new_id).derived_from] == sorted(originals)


def test_confidence_moves_in_small_steps(workspace: Path) -> None:
    def run(day: str, *bullets: str) -> float:
        with Memory.open(workspace, now=day) as memory:
            retain(memory, day, *bullets)
            memory.reflect(since="1d")
            return memory.get(opinion, use=False).confidence

    with Memory.open(workspace, now="2025-11-01") as memory:
        [opinion] = retain(memory, "2025-11-01", "O(c=0.6) @Peter: Likes long walks outside.")
    up = run("2025-11-05", "B @Peter: Went on long walks outside all weekend.")
    assert up == pytest.approx(0.64)  # 0.6 + 0.1 * 0.4
    down = run("2025-11-10", "B @Peter: Said he does not like long walks outside.")
    assert down == pytest.approx(round(0.64 - 0.15 * 0.64, 3))
    again = run("2025-11-15", "B @Peter: Again said he doesn't like long walks outside.")
    assert again < down and down - again < 0.1  # each step small
    with Memory.open(workspace, now="2025-11-15") as memory:
        events = [e for e in memory.history(opinion) if e.event == "confidence"]
        assert [round(e.data["c"], 3) for e in events] == [up, down, again]
        memory.reflect(since="1d")  # the same evidence is never counted twice
        assert memory.get(opinion, use=False).confidence == again
    text = (workspace / "bank/opinions.md").read_text()
    assert f"c={again:.2f}, updated 2025-11-15" in text
    # a stated change away from it is the strongest contradiction: the opinion is superseded
    with Memory.open(workspace, now="2025-11-20") as memory:
        retain(memory, "2025-11-20", "B @Peter: Switched from long walks outside to swimming.")
        assert memory.get(opinion, use=False).status == "superseded"


def test_reflect_twice_changes_nothing(workspace: Path, memory: Memory) -> None:
    retain(memory, "2025-11-25", "O @Peter: Prefers tea.", "O @Peter: Prefers tea, hot.",
           "W @Anna: Lives in Lisbon.", "B @Anna: Visited Porto.")
    memory.reflect()
    before = digests(workspace, "**/*.md")
    journal = (workspace / "journal.jsonl").read_bytes()
    second = memory.reflect()
    assert (second.pages, second.events) == ([], [])
    assert digests(workspace, "**/*.md") == before
    assert (workspace / "journal.jsonl").read_bytes() == journal


def test_dry_run_writes_nothing_and_shows_the_applied_diff(workspace: Path,
                                                          memory: Memory) -> None:
    retain(memory, "2025-11-25", "O @Peter: Prefers tea.", "O @Peter: Prefers tea, hot.",
           "W @Anna: Lives in Lisbon.")
    before = digests(workspace, "**/*.md")
    dry = memory.reflect(dry_run=True)
    assert digests(workspace, "**/*.md") == before
    assert "+- 2025-11-25: Lives in Lisbon." in dry.diff()
    applied = memory.reflect()
    assert applied.diff() == dry.diff()


def test_undo_restores_the_last_run(workspace: Path, memory: Memory) -> None:
    [a, b] = retain(memory, "2025-11-25", "O @Peter: Prefers tea.", "O @Peter: Prefers tea, hot.")
    before = digests(workspace, "**/*.md")
    memory.reflect()
    assert digests(workspace, "**/*.md") != before
    memory.reflect_undo()
    assert digests(workspace, "**/*.md") == before
    assert memory.get(a, use=False).status == "active"
    with pytest.raises(MemfoldError, match="nothing to undo"):
        memory.reflect_undo()


def test_undo_refuses_to_lose_an_edit(workspace: Path, memory: Memory) -> None:
    retain(memory, "2025-11-25", "W @Anna: Lives in Lisbon.")
    memory.reflect()
    page = workspace / "bank/entities/Anna.md"
    page.write_text(page.read_text() + "\nhand edit\n")
    with pytest.raises(MemfoldError, match="changed since the last reflect"):
        memory.reflect_undo()
    assert page.read_text().endswith("hand edit\n")


def test_stale_pages_are_listed_and_refreshed(workspace: Path, memory: Memory) -> None:
    retain(memory, "2025-11-25", "W @Anna: Lives in Lisbon.")
    memory.reflect()
    assert memory.status().stale_pages == ()
    log = workspace / "memory/2025-11-25.md"
    log.write_text(log.read_text().replace("Lisbon", "Porto"))
    memory.refresh()  # status reports the index as of the last sync
    [stale] = memory.status().stale_pages
    assert stale["page"] == "bank/entities/Anna.md"
    assert stale["stale"][0]["why"] == "changed"
    with Memory.open(workspace, now="2025-12-30") as later:  # outside any 7-day window
        later.reflect()
        assert later.status().stale_pages == ()
    assert "Lives in Porto." in (workspace / "bank/entities/Anna.md").read_text()


@pytest.mark.parametrize("name", ["..", "...", ".hidden", "CON", "con.txt", "a" * 300,
                                  "Hà-Nội", "x..y", "-"])
def test_hostile_slugs_stay_inside_bank_entities(name: str, tmp_path: Path) -> None:
    slug = page_slug(name)
    root = tmp_path / "bank" / "entities"
    target = (root / f"{slug}.md").resolve()
    assert target.parent == root.resolve()
    assert not slug.startswith(".") and "/" not in slug and len(slug) <= 100
    assert slug.split(".")[0].casefold() not in {"con", "prn", "aux", "nul"}


def test_entity_names_never_write_outside(workspace: Path, memory: Memory) -> None:
    retain(memory, "2025-11-25", "W @..secret: dots first.", "W @CON: a device name.",
           "W @.env: a leading dot.", "W @NUL.txt: a device name with a suffix.")
    memory.reflect()
    written = {p.relative_to(workspace).as_posix() for p in workspace.rglob("*.md")}
    assert all(w.startswith(("bank/", "memory/")) or w == "memory.md" for w in written)
    assert not any(Path(w).name.startswith(".") for w in written)


def test_sweep_journals_expiry_in_the_window(workspace: Path) -> None:
    with Memory.open(workspace, now="2025-11-20") as memory:
        [trip] = retain(memory, "2025-11-20", "W @Peter: In Rome (Nov 20–Nov 25, 2025).")
    with Memory.open(workspace, now="2025-11-30") as memory:
        plan = memory.reflect()
        assert (trip, "expired") in plan.swept
        assert [e.event for e in memory.history(trip)] == ["retain", "expire"]
        assert memory.reflect().swept == []


def test_a_run_that_fails_halfway_can_be_undone(workspace: Path, memory: Memory,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    import memfold.workspace.files as files_module

    retain(memory, "2025-11-25", "W @Anna: Lives in Lisbon.", "W @Bob: Lives in Oslo.")
    before = digests(workspace, "bank/**/*.md")
    renames: list[str] = []

    class Os:  # the second page's rename fails: the first page is already in place
        def __getattr__(self, name: str) -> object:
            return replace if name == "replace" else getattr(os, name)

    def replace(src: str, dst: str) -> None:
        if str(dst).endswith(".md"):
            renames.append(str(dst))
            if len(renames) == 2:
                raise OSError(28, "No space left on device (injected)")
        os.replace(src, dst)

    monkeypatch.setattr(files_module, "os", Os())
    with pytest.raises(MemfoldError, match="injected"):
        memory.reflect()
    monkeypatch.setattr(files_module, "os", os)
    assert digests(workspace, "bank/**/*.md") != before  # the first page was renamed
    memory.reflect_undo()  # finishes the committed set, then takes the whole run back
    assert digests(workspace, "bank/**/*.md") == before
