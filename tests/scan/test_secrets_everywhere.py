"""Secrets wherever they enter: hand-written Markdown is scanned when it is indexed (flagged
in `status` and by `index`, with path:line), every output redacts the secret unless
--show-secrets / show_secrets, and "password is ..." phrases are refused at retain."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import DAY, Cli
from memfold import Memory
from memfold.agents import tools as at
from memfold.scan import secrets as secrets_module
from memfold.scan.secrets import find_secrets
from secret_corpus import PASSWORD_TALK

NOW = f"{DAY}T12:00:00"
WIFI = "Qx7!mPz92vL"
TOKEN = "ghp_R8fq2LmZ0xW4vT7nK1pYc9sD3aB6eH5jU2gN"
DAILY_TEXT = (f"# {DAY}\n\n## Retain\n"
              f"- W @home: The wifi password is {WIFI}. ^wifi0001\n"
              "- W @home: The router is in the hall. ^router01\n\n"
              "## Notes\n\n"
              f"The deploy token for @home was {TOKEN}, rotate it.\n")
SECRETS = (WIFI, TOKEN)
ENV = {"MEMFOLD_NOW": NOW}


@pytest.fixture
def hand_written(workspace: Path) -> Path:
    (workspace / f"memory/{DAY}.md").write_text(DAILY_TEXT)
    return workspace


def leaks(text: str) -> list[str]:
    return [s for s in SECRETS if s in text]


def test_index_and_status_flag_hand_written_secrets_with_path_and_line(
        run: Cli, hand_written: Path) -> None:
    indexed = run("index", env=ENV)
    assert indexed.exit_code == 0, indexed.stderr
    for line in (4, 9):
        assert f"memory/{DAY}.md:{line}: looks like a secret" in indexed.stderr
    status = run("status", env=ENV)
    assert status.exit_code == 0
    flagged = [ln for ln in status.stdout.splitlines() if ln.startswith("secret")]
    assert len(flagged) == 2, status.stdout
    assert f"memory/{DAY}.md:4:" in flagged[0] and "(password, " in flagged[0]
    assert "memfold forget wifi0001 --purge" in flagged[0]
    assert f"memory/{DAY}.md:9:" in flagged[1] and "github-token" in flagged[1]
    data = json.loads(run("status", "--json", env=ENV).stdout)
    assert [(w["path"], w["line"]) for w in data["secrets"]] == [
        (f"memory/{DAY}.md", 4), (f"memory/{DAY}.md", 9)]
    assert not leaks(indexed.output + status.output + json.dumps(data))


def test_the_status_list_follows_the_file(workspace: Path, hand_written: Path) -> None:
    with Memory.open(workspace, now=NOW) as memory:
        memory.index()
        assert len(memory.status().secrets) == 2
        (workspace / f"memory/{DAY}.md").write_text(DAILY_TEXT.replace(TOKEN, "(rotated)"))
        memory.index()
        assert [(w.path, w.line) for w in memory.status().secrets] == [(f"memory/{DAY}.md", 4)]


@pytest.mark.parametrize("args", [
    ("recall", "wifi password"), ("recall", "wifi password", "--json"),
    ("recall", "deploy token"), ("recall", "deploy token", "--json"),
    ("show", "wifi0001"), ("show", "wifi0001", "--json"),
    ("about", "home"), ("about", "home", "--json"),
    ("trace", "wifi0001"), ("trace", "wifi0001", "--json"),
    ("context",), ("context", "--json"),
])
def test_no_output_holds_the_secret_unless_asked(run: Cli, hand_written: Path,
                                                 args: tuple[str, ...]) -> None:
    result = run(*args, env=ENV)
    assert result.exit_code == 0, result.stderr
    assert "[REDACTED:" in result.stdout, result.stdout
    assert not leaks(result.output), result.output
    if args[0] == "trace":
        return
    shown = run(*args, "--show-secrets", env=ENV)
    assert shown.exit_code == 0, shown.stderr
    assert leaks(shown.stdout) and "[REDACTED:" not in shown.stdout


def test_recall_json_redacts_content_and_keeps_the_rest(run: Cli, hand_written: Path) -> None:
    data = json.loads(run("recall", "wifi password", "--json", env=ENV).stdout)
    [hit] = [r for r in data["results"] if r["id"] == "wifi0001"]
    assert hit["content"] == "The wifi password is [REDACTED:password]."
    assert hit["source"] == f"memory/{DAY}.md#L4"


def test_mcp_tools_never_return_the_secret(workspace: Path, hand_written: Path) -> None:
    with Memory.open(workspace, now=NOW) as memory:
        answers = [at.call(memory, "recall", {"query": "wifi password"}),
                   at.call(memory, "recall", {"query": "deploy token"}),
                   at.call(memory, "show", {"id": "wifi0001"}),
                   at.call(memory, "about", {"name": "home"}),
                   at.call(memory, "context", {})]
    text = json.dumps(answers, ensure_ascii=False)
    assert not leaks(text) and text.count("[REDACTED:") >= 5


def test_library_redacts_by_default_and_shows_when_asked(workspace: Path,
                                                         hand_written: Path) -> None:
    with Memory.open(workspace, now=NOW) as memory:
        [hit] = [h for h in memory.recall("wifi password").hits if h.fact.id == "wifi0001"]
        assert hit.fact.content == "The wifi password is [REDACTED:password]."
        [raw] = [h for h in memory.recall("wifi password", show_secrets=True).hits
                 if h.fact.id == "wifi0001"]
        assert WIFI in raw.fact.content
        assert WIFI not in memory.get("wifi0001").fact.content
        assert WIFI in memory.get("wifi0001", show_secrets=True).fact.content
        assert not leaks(json.dumps(memory.about("home").to_dict()))
        assert not leaks(memory.context().render())
        assert leaks(memory.context(show_secrets=True).render())
        untouched = memory.get("router01")
        assert untouched.fact.content == "The router is in the hall."


def test_a_secret_kept_with_allow_secret_is_redacted_in_outputs(run: Cli) -> None:
    kept = run("retain", "--allow-secret", "--date", DAY, f"W @ops: deploy key {TOKEN}",
               env=ENV)
    assert kept.exit_code == 0
    fact_id = kept.stdout.split()[0]
    for args in (("recall", "deploy key"), ("show", fact_id), ("context", "--json")):
        result = run(*args, env=ENV)
        assert not leaks(result.output) and "[REDACTED:github-token]" in result.stdout, args
    assert TOKEN in run("show", fact_id, "--show-secrets", env=ENV).stdout
    status = run("status", env=ENV)
    assert "looks like a secret (github-token" in status.stdout


@pytest.mark.parametrize("bullet", [
    "W @Tom: His password is hunter2.",
    f"W @home: The wifi password is {WIFI}.",
    f"W @home: pwd: {WIFI}",
    "W @home: The gate passcode is 4471.",
    "W @bank: My card PIN is 8812.",
    "W @home: The password for the office printer is Zt9_kq4Lm",
    "W @home: The password was changed to Hx83!kq today.",
])
def test_retain_refuses_password_phrases(run: Cli, workspace: Path, bullet: str) -> None:
    result = run("retain", "--date", DAY, bullet, env=ENV)
    assert result.exit_code == 2
    assert "looks like it holds a secret" in result.stderr
    assert not (workspace / f"memory/{DAY}.md").exists()


@pytest.mark.parametrize("sentence", [
    "I reset my password yesterday.", "The password policy requires 12 characters.",
    "Peter uses a password manager.", "The passcode on the door is broken.",
    "The PIN is 4 digits.", "The wifi password is on the fridge.",
])
def test_retain_accepts_talk_about_passwords(run: Cli, sentence: str) -> None:
    result = run("retain", "--date", DAY, f"W @home: {sentence}", env=ENV)
    assert result.exit_code == 0, result.stderr


@pytest.mark.parametrize(("text", "kind", "secret"), [
    ("His password is hunter2.", "password", "hunter2"),
    (f"The wifi password is {WIFI}.", "password", WIFI),
    ("passcode 4471", "password", "4471"),
    ("the door passcode is 4471#", "password", "4471#"),
    ("PIN: 1234", "pin", "1234"),
    ("SIM PIN is 80812, the PUK is in the drawer", "pin", "80812"),
    ("password is now `Tr0ub4dor&3`", "password", "Tr0ub4dor&3"),
    ("password has been reset to Welcome2025 for now", "password", "Welcome2025"),
])
def test_password_phrases_are_found(text: str, kind: str, secret: str) -> None:
    (m,) = find_secrets(text)
    assert (m.kind, text[m.start:m.end]) == (kind, secret)
    assert secret not in m.preview or len(secret) < 4


@pytest.mark.parametrize("sentence", PASSWORD_TALK)
def test_sentences_about_passwords_are_not_secrets(sentence: str) -> None:
    assert find_secrets(sentence) == []


def _every_detector(text: str) -> list[tuple[str, int, int]]:
    """What the detectors find when the cheap pre-check is skipped."""
    found = [(f[1], f[2], f[3]) for detect in secrets_module._DETECTORS for f in detect(text)]
    return sorted(found)


SECRETISH = st.text(alphabet="abcpsinwordPINASWxyz0189+/=_-.:@ \n\"'`~", max_size=200)


@given(st.one_of(st.text(max_size=200), SECRETISH))
def test_the_cheap_pre_check_never_hides_a_match(text: str) -> None:
    if not secrets_module._maybe_secret(text):
        assert _every_detector(text) == []
