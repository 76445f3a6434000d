"""Credentials a person types in words — a wifi password, a door code, a login and password
pair, a diceware passphrase — are refused at retain, redacted in output and listed by
`status` when hand-written; sentences that only talk about passwords, codes and numbers are
left alone.  Measured on tests/typed_secret_corpus.py (seeded, fake values)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import DAY, Cli
from memfold.scan.secrets import find_secrets, redact
from typed_secret_corpus import SEED, ordinary, positives

NOW = f"{DAY}T12:00:00"
ENV = {"MEMFOLD_NOW": NOW}
# The phrasings a newcomer found stored with no warning, each with the value that must go.
TYPED = [
    ("The wifi password is purple-Otter-42.", "purple-Otter-42"),
    ("The wifi password is Correct-Horse-9", "Correct-Horse-9"),
    ("my pw for the staging box: Zebra#Violin77", "Zebra#Violin77"),
    ("Bob's login is bob / Tr0ub4dor&3", "Tr0ub4dor&3"),
    ("passphrase: correct horse battery staple", "correct horse battery staple"),
    ("door code is 4471", "4471"),
    ("the code for the front door is 0912#", "0912#"),
    ("bike lock combination: 12-34-56", "12-34-56"),
]


def _covered(text: str, secret: str) -> bool:
    start = text.index(secret)
    return any(m.start <= start and m.end >= start + len(secret) for m in find_secrets(text))


def test_typed_credentials_are_found_at_least_99_percent() -> None:
    corpus = positives(SEED)
    missed = [p.text for p in corpus if not _covered(p.text, p.secret)]
    print(f"typed credentials (seed {SEED}): {len(corpus) - len(missed)}/{len(corpus)} found")
    assert len(corpus) >= 200 and len({p.family for p in corpus}) >= 5
    assert len(missed) <= len(corpus) // 100, missed


def test_ordinary_notes_are_flagged_at_most_half_a_percent() -> None:
    notes = ordinary(SEED)
    flagged = [t for t in notes if find_secrets(t)]
    print(f"ordinary notes (seed {SEED}): {len(flagged)}/{len(notes)} flagged")
    assert len(notes) >= 2000
    assert len(flagged) * 200 <= len(notes), flagged[:10]


@pytest.mark.parametrize(("text", "secret"), TYPED)
def test_each_typed_credential_is_found_and_redacted(text: str, secret: str) -> None:
    assert _covered(text, secret)
    assert secret not in redact(text)
    assert "[REDACTED:" in redact(text)


@pytest.mark.parametrize("sentence", [
    "I reset my password after the phishing email.", "Finished the code review.",
    "Ran 4471 steps before work.", "Error code 404 on the login page.",
    "The door code changed last week.", "Logged in as bob on the staging box.",
    "The wifi is down again.", "Combination of jet lag and no sleep wiped me out.",
    "The passphrase is written on the router sticker.", "Zip code 90210 on the form.",
    "The password is SHA-256 hashed.", "Priya needs a 6-digit PIN.",
])
def test_talk_about_credentials_is_not_a_secret(sentence: str) -> None:
    assert find_secrets(sentence) == []


@pytest.mark.parametrize(("text", "secret"), TYPED)
def test_retain_refuses_a_typed_credential(run: Cli, workspace: Path, text: str,
                                          secret: str) -> None:
    result = run("retain", "--date", DAY, f"W @home: {text}", env=ENV)
    assert result.exit_code == 2, result.output
    assert "looks like it holds a secret" in result.stderr
    assert secret not in result.output
    assert not (workspace / f"memory/{DAY}.md").exists()


def test_hand_written_typed_credentials_are_listed_by_status(run: Cli, workspace: Path) -> None:
    lines = [f"- W @home: {text} ^typed{n:03d}" for n, (text, _) in enumerate(TYPED)]
    (workspace / f"memory/{DAY}.md").write_text(
        f"# {DAY}\n\n## Retain\n" + "\n".join(lines) + "\n")
    assert run("index", env=ENV).exit_code == 0
    data = json.loads(run("status", "--json", env=ENV).stdout)
    assert [w["line"] for w in data["secrets"]] == list(range(4, 4 + len(TYPED)))
    shown = run("recall", "wifi password door code login", "--json", env=ENV).stdout
    assert not [secret for _, secret in TYPED if secret in shown]
