"""Bullets captured from a user's chat with an assistant read as a person would write them:
the chat's padding dropped ("Quick thing,", "Anyway,", ", by the way", ", haha"), the
speaker's "I" left out of later clauses too, a preference said as one ("Prefers short
answers."), and a month's date note right after the fact it dates."""

from __future__ import annotations

from pathlib import Path

from memfold.memory import Memory

DAY = "2025-05-02"


def captured(memory: Memory, workspace: Path, *lines: str) -> list[str]:
    """The Retain bullets a `User:` chat on DAY gives, without their citations."""
    chat = f"{DAY}\n" + "".join(f"User: {line}\nAssistant: Noted.\n" for line in lines)
    memory.capture(chat.encode(), date=DAY)
    return [line[2:].split(" (turn at")[0]
            for path in sorted((workspace / "memory").glob("*.md"))
            for line in path.read_text().splitlines() if line.startswith("- ")]


def test_discourse_markers_and_asides_are_dropped(memory: Memory, workspace: Path) -> None:
    assert captured(memory, workspace,
                    "Quick thing, I sold my old car in March and I'm cycling to work now.",
                    "Anyway, I started a new job at Halvorsen Freight in February.",
                    "One more thing: my brother Emil moved to Bergen last year, haha.",
                    "I'm volunteering at the food bank every Saturday, by the way.") == [
        "W @me: Sold their old car (March 2025) and is cycling to work now.",
        "B @me: Started a new job at Halvorsen Freight (February 2025).",
        "W @me @Emil: Their brother Emil moved to Bergen last year (2024).",
        "W @me: Is volunteering at the food bank every Saturday."]


def test_the_speakers_i_is_left_out_of_a_later_clause(memory: Memory, workspace: Path) -> None:
    assert captured(memory, workspace,
                    "I moved to Lisbon in March and I'm still settling in.",
                    "I grew up in Rotterdam but I've lived in five countries since then.",
                    "I really love hiking in the Dolomites and I go there every summer.") == [
        "W @me: Moved to Lisbon (March 2025) and is still settling in.",
        "W @me: Grew up in Rotterdam but has lived in five countries since then.",
        "O(c=0.8) @me: Really loves hiking in the Dolomites and goes there every summer."]


def test_a_preference_is_said_as_one(memory: Memory, workspace: Path) -> None:
    assert captured(memory, workspace,
                    "I'd rather you keep answers short, by the way.",
                    "Please keep explanations under three paragraphs.",
                    "I'd prefer a window seat on long flights to Singapore.",
                    "I'd rather take the night train to Vienna than fly.",
                    "I'd like you to always reply in English even when I write in Dutch.",
                    "Please never book anything without asking me first.") == [
        "O(c=0.8) @me: Prefers short answers.",
        "O(c=0.8) @me: Prefers explanations under three paragraphs.",
        "O(c=0.8) @me: Prefers a window seat on long flights to Singapore.",
        "O(c=0.8) @me: Prefers to take the night train to Vienna than fly.",
        "O(c=0.8) @me: Wants you to always reply in English even when they write in Dutch.",
        "O(c=0.8) @me: Wants you to never book anything without asking them first."]


def test_a_month_is_noted_after_the_fact_it_dates(memory: Memory, workspace: Path) -> None:
    assert captured(memory, workspace,
                    "I quit coffee in January and I've been sleeping much better.",
                    "My old cat Pirkko died in April, she was nineteen.",
                    "My son Luka started primary school in September and he loves it.",
                    "Back in January, I joined a rowing club on the Tagus.") == [
        "W @me: Quit coffee (January 2025) and has been sleeping much better.",
        "W @me @Pirkko: Their old cat Pirkko died (April 2025), she was nineteen.",
        # said in May: a September a named person already started in is last year's
        "W @me @Luka: Their son Luka started primary school (September 2024) and he loves it.",
        # a month said first: the "I" opens the bullet, the note ends the clause
        "W @me: Joined a rowing club on the Tagus (January 2025)."]
