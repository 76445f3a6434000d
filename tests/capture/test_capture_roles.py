"""Who a captured turn is by, and when: a `text` speaker named by a chat role ("User:",
"Assistant:") is the user (`me`) or the assistant, as in the chat formats, so "User: I moved
to Lisbon" is a fact about @me and the assistant's turns tell nothing about anyone; and an
OpenAI or Anthropic message that carries its own time (`timestamp`, `created_at`, ...) is
written on its own day, not on `--date` or today."""

from __future__ import annotations

import json
from pathlib import Path

from memfold.memory import Memory


def retained(workspace: Path) -> list[str]:
    return [line for path in sorted((workspace / "memory").glob("*.md"))
            for line in path.read_text().splitlines() if line.startswith("- ")]


def test_a_text_speaker_named_user_is_me_and_the_assistant_tells_nothing(
        memory: Memory, workspace: Path) -> None:
    chat = ("2025-03-04\n"
            "User: I moved to Lisbon last month.\n"
            "Assistant: I love Lisbon, I moved there in 2019 and I work at a bakery.\n"
            "User: I work as a nurse at Hospital de Santa Maria.\n")
    result = memory.capture(chat.encode(), date="2025-03-04")
    bullets = retained(workspace)
    assert result.facts == 2 and len(bullets) == 2
    assert all(b.startswith("- W @me: ") for b in bullets)
    assert not any("bakery" in b for b in bullets)
    hit = memory.recall("where do I work", now="2025-04-01T09:00:00").hits[0]
    assert "nurse" in hit.fact.content and "me" in hit.fact.entities


def test_a_named_text_speaker_keeps_their_name(memory: Memory, workspace: Path) -> None:
    memory.capture(b"2025-03-04\nAna: I started learning the cello last month.\nBen: Nice!\n",
                   date="2025-03-04")
    assert [b.split(":")[0].split()[-1] for b in retained(workspace)] == ["@Ana"]


def test_a_chat_message_with_its_own_time_is_written_on_its_day(
        memory: Memory, workspace: Path) -> None:
    messages = [{"role": "user", "content": "I moved to Lisbon in March.",
                 "timestamp": "2025-04-02T10:00:00Z"},
                {"role": "assistant", "content": "Welcome!", "created_at": 1743588005},
                {"role": "user", "content": "I work as a nurse now."}]
    memory.capture(json.dumps(messages).encode(), date="2025-05-01")
    days = sorted(p.name for p in (workspace / "memory").glob("*.md"))
    assert days == ["2025-04-02.md", "2025-05-01.md"]  # the last message has no time
    assert "(March 2025)" in (workspace / "memory" / "2025-04-02.md").read_text()


def test_a_person_named_by_kin_is_linked_to_the_fact_too(memory: Memory, workspace: Path) -> None:
    chat = "2025-03-04\nUser: Also my sister Ana is allergic to peanuts, so no peanut recipes.\n"
    memory.capture(chat.encode(), date="2025-03-04")
    assert [b.split(":")[0] for b in retained(workspace)] == ["- W @me @Ana"]
    about = memory.about("Ana", now="2025-04-01T09:00:00")
    assert any("allergic to peanuts" in h.fact.content for h in about.hits)


def test_a_person_named_by_role_or_title_is_linked_too(memory: Memory, workspace: Path) -> None:
    chat = ("2025-03-04\nUser: My teammate Priya owns the CI config, ask her first.\n"
            "User: My landlord Mr Okafor is raising the rent in June.\n")
    memory.capture(chat.encode(), date="2025-03-04")
    assert [b.split(":")[0] for b in retained(workspace)] == ["- W @me @Priya",
                                                             "- W @me @Okafor"]
