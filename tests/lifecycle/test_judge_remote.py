"""The optional model judge (MEMFOLD_JUDGE=openai), against a real HTTP server on loopback
that answers like an OpenAI chat endpoint; and its fallback to the rule judge."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from memfold import Memory
from memfold.lifecycle.judge import FallbackJudge, RuleJudge, Verdict
from memfold.lifecycle.judge.remote import OpenAIJudge
from memfold.values import Fact

MODEL = "test-model"
OLD_DB = "W @Acme: The main application database is PostgreSQL."
NEW_DB = "W @Acme: We are on MySQL these days."
SWITCH = "W @Acme: Switched the main application database from PostgreSQL to MySQL."
VIENNA = "W @Peter: Lives in Vienna."
BERLIN = "W @Peter: Lives in Berlin."  # the rule judge supersedes Vienna with this

Answer = Callable[[dict[str, Any]], tuple[int, bytes]]


@dataclass
class FakeEndpoint:
    """What the test server saw, and how it answers (set `answer` per test)."""

    url: str
    answer: Answer
    requests: list[dict[str, Any]] = field(default_factory=list)
    release: threading.Event = field(default_factory=threading.Event)

    def asked_ids(self, n: int = -1) -> list[str]:
        return [f["id"] for f in self.facts(n)["older"]]

    def facts(self, n: int = -1) -> dict[str, Any]:
        return dict(json.loads(self.requests[n]["body"]["messages"][-1]["content"]))


def chat(content: str) -> tuple[int, bytes]:
    """A 200 chat completion whose assistant message is `content`."""
    return 200, json.dumps({"id": "x", "object": "chat.completion", "choices": [
        {"index": 0, "message": {"role": "assistant", "content": content},
         "finish_reason": "stop"}]}).encode()


def verdicts(**by_id: tuple[bool, str]) -> Answer:
    return lambda _body: chat(json.dumps({"verdicts": [
        {"id": i, "supersedes": s, "conflicts": False, "reason": r}
        for i, (s, r) in by_id.items()]}))


@pytest.fixture
def endpoint() -> Iterator[FakeEndpoint]:
    """An OpenAI-like chat endpoint on 127.0.0.1 (port chosen by the kernel)."""
    state: list[FakeEndpoint] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the http.server spelling
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length))
            fake = state[0]
            fake.requests.append({"path": self.path, "headers": dict(self.headers),
                                  "body": body})
            status, payload = fake.answer(body)
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.append(FakeEndpoint(f"http://127.0.0.1:{server.server_address[1]}/v1",
                              answer=lambda _b: (500, b"")))
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                              daemon=True)
    thread.start()
    try:
        yield state[0]
    finally:
        state[0].release.set()  # a handler kept waiting ends now
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@pytest.fixture(autouse=True)
def _no_judge_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """No test here sees the developer's MEMFOLD_JUDGE* settings."""
    for name in ("MEMFOLD_JUDGE", "MEMFOLD_JUDGE_URL", "MEMFOLD_JUDGE_MODEL",
                 "MEMFOLD_JUDGE_KEY", "MEMFOLD_JUDGE_TIMEOUT"):
        monkeypatch.delenv(name, raising=False)


def use_judge(monkeypatch: pytest.MonkeyPatch, url: str, *, timeout: str = "5",
              key: str | None = None) -> None:
    monkeypatch.setenv("MEMFOLD_JUDGE", "openai")
    monkeypatch.setenv("MEMFOLD_JUDGE_URL", url)
    monkeypatch.setenv("MEMFOLD_JUDGE_MODEL", MODEL)
    monkeypatch.setenv("MEMFOLD_JUDGE_TIMEOUT", timeout)
    if key is not None:
        monkeypatch.setenv("MEMFOLD_JUDGE_KEY", key)


def retain(memory: Memory, day: str, *bullets: str) -> list[str]:
    return [f.id for f in memory.retain(list(bullets), date=day).facts]


def supersedes(memory: Memory, fact_id: str) -> list[dict[str, Any]]:
    return [e.to_dict() for e in memory.history(fact_id) if e.event == "supersede"]


def closed_port_url() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"  # nothing listens here now: connection refused


# -- the protocol --------------------------------------------------------------------


def test_model_verdict_is_journaled_with_its_name_and_reason(
        workspace: Path, endpoint: FakeEndpoint, monkeypatch: pytest.MonkeyPatch) -> None:
    use_judge(monkeypatch, endpoint.url, key="sekrit-token")
    with Memory.open(workspace) as memory:
        [history, other] = retain(memory, "2024-12-01", "B @Acme: Tuned PostgreSQL vacuum.",
                                  "W @Peter: Likes PostgreSQL.")
        [old] = retain(memory, "2025-01-10", OLD_DB)
        assert endpoint.requests == []  # nothing older to weigh: no request at all
        endpoint.answer = verdicts(**{old: (True, "Acme now runs MySQL instead of PostgreSQL")})
        [new] = retain(memory, "2025-11-20", SWITCH)

        [request] = endpoint.requests
        assert request["path"] == "/v1/chat/completions"
        assert request["headers"]["Authorization"] == "Bearer sekrit-token"
        assert request["body"]["model"] == MODEL
        assert request["body"]["response_format"] == {"type": "json_object"}
        text = " ".join(m["content"] for m in request["body"]["messages"])
        for fact_id, content in ((old, OLD_DB), (new, SWITCH)):
            assert fact_id in text and content.split(": ", 1)[1] in text
        # the ledger's pool also holds @Peter's fact (it names PostgreSQL): not sent
        assert endpoint.asked_ids() == [old]
        assert endpoint.facts()["new"]["id"] == new

        [event] = supersedes(memory, old)
        assert (event["by"], event["judge"], event["reason"]) == (
            new, f"openai:{MODEL}", "Acme now runs MySQL instead of PostgreSQL")
        assert memory.get(old, use=False).status == "superseded"
        assert memory.get(history, use=False).status != "superseded"
        assert memory.get(other, use=False).status != "superseded"
        assert memory.notices == []


def test_no_key_sends_no_authorization(workspace: Path, endpoint: FakeEndpoint,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    use_judge(monkeypatch, endpoint.url + "/chat/completions/")  # a full URL works too
    endpoint.answer = lambda _b: chat('{"verdicts": []}')
    with Memory.open(workspace) as memory:
        retain(memory, "2025-01-10", VIENNA)
        retain(memory, "2025-03-10", BERLIN)
    [request] = endpoint.requests
    assert request["path"] == "/v1/chat/completions"
    assert "Authorization" not in request["headers"]


def test_a_no_answer_supersedes_nothing(workspace: Path, endpoint: FakeEndpoint,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    use_judge(monkeypatch, endpoint.url)
    with Memory.open(workspace) as memory:
        [vienna] = retain(memory, "2025-01-10", VIENNA)
        endpoint.answer = verdicts(**{vienna: (False, "a second home")})
        retain(memory, "2025-03-10", BERLIN)  # the rule judge alone would supersede
        assert len(endpoint.requests) == 1
        assert supersedes(memory, vienna) == []
        assert memory.get(vienna, use=False).status != "superseded"
        assert memory.notices == []


def test_the_model_sees_at_most_its_cap_newest_first(workspace: Path,
                                                     endpoint: FakeEndpoint) -> None:
    judge = OpenAIJudge(url=endpoint.url, model=MODEL, timeout=5, max_candidates=2)
    endpoint.answer = lambda _b: chat('{"verdicts": []}')
    with Memory.open(workspace, judge=judge) as memory:
        a = retain(memory, "2025-01-10", "W @Peter: Lives in Graz.")
        b = retain(memory, "2025-02-10", "W @Peter: Lives in Linz.")
        c = retain(memory, "2025-03-10", "W @Peter: Lives in Salzburg.")
        endpoint.requests.clear()
        retain(memory, "2025-04-10", BERLIN)
    assert endpoint.asked_ids() == c + b
    assert a[0] not in json.dumps(endpoint.requests[0]["body"])


def test_a_server_without_json_mode_is_asked_in_plain_words(
        workspace: Path, endpoint: FakeEndpoint, monkeypatch: pytest.MonkeyPatch) -> None:
    use_judge(monkeypatch, endpoint.url)
    with Memory.open(workspace) as memory:
        [vienna] = retain(memory, "2025-01-10", VIENNA)

        def picky(body: dict[str, Any]) -> tuple[int, bytes]:
            if "response_format" in body:
                return 400, b'{"error": "response_format is not supported"}'
            fenced = json.dumps({vienna: {"supersedes": "yes", "reason": "moved"}})
            return chat(f"<think>hmm</think>\n```json\n{fenced}\n```")
        endpoint.answer = picky
        [berlin] = retain(memory, "2025-03-10", BERLIN)
        assert ["response_format" in r["body"] for r in endpoint.requests] == [True, False]
        [event] = supersedes(memory, vienna)
        assert (event["by"], event["judge"], event["reason"]) == (berlin, f"openai:{MODEL}",
                                                                  "moved")
        assert memory.notices == []


# -- a judge that is down, slow or talks nonsense: the rule judge, and a notice -------


def _down(fake: FakeEndpoint) -> str:
    return closed_port_url()


def _slow(fake: FakeEndpoint) -> str:
    def wait(_body: dict[str, Any]) -> tuple[int, bytes]:
        fake.release.wait(timeout=10)  # the test's end releases it
        return chat('{"verdicts": []}')
    fake.answer = wait
    return fake.url


def _answering(status: int, payload: bytes) -> Callable[[FakeEndpoint], str]:
    def setup(fake: FakeEndpoint) -> str:
        fake.answer = lambda _b: (status, payload)
        return fake.url
    return setup


def _unknown_id(fake: FakeEndpoint) -> str:
    fake.answer = verdicts(zzzz9999=(True, "made up"))
    return fake.url


def _bad_flag(fake: FakeEndpoint) -> str:
    def answer(body: dict[str, Any]) -> tuple[int, bytes]:
        [asked] = [f["id"] for f in json.loads(body["messages"][-1]["content"])["older"]]
        return chat(json.dumps({"verdicts": [{"id": asked, "supersedes": "maybe"}]}))
    fake.answer = answer
    return fake.url


BAD = {
    "down": (_down, "connection refused by 127.0.0.1:"),
    "slow": (_slow, "timed out after 0.3 s"),
    "http 500": (_answering(500, b"oops"), "HTTP 500 from 127.0.0.1:"),
    "garbage body": (_answering(200, b"<html>hello</html>"), "not a chat completion"),
    "prose": (_answering(*chat("Yes, the first one is replaced.")),
              "not the JSON verdicts asked for"),
    "unknown id": (_unknown_id, "'zzzz9999', a fact it was not asked about"),
    "bad flag": (_bad_flag, "the answer's 'supersedes' is not true or false"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_a_failing_judge_falls_back_to_the_rules(case: str, workspace: Path,
                                                 endpoint: FakeEndpoint,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    setup, why = BAD[case]
    use_judge(monkeypatch, setup(endpoint), timeout="0.3")
    with Memory.open(workspace) as memory:
        [vienna] = retain(memory, "2025-01-10", VIENNA)
        result = memory.retain([BERLIN], date="2025-03-10")
        assert result.indexed
        [event] = supersedes(memory, vienna)
        assert (event["by"], event["judge"]) == (result.facts[0].id, "rules")
        [notice] = memory.notices
        assert notice.startswith(f"judge openai:{MODEL} unavailable (")
        assert why in notice and notice.endswith("); used the rules judge")
        assert "\n" not in notice


def test_a_judge_that_is_down_is_not_waited_on_for_every_fact(
        workspace: Path, endpoint: FakeEndpoint, monkeypatch: pytest.MonkeyPatch) -> None:
    use_judge(monkeypatch, _slow(endpoint), timeout="0.3")
    with Memory.open(workspace) as memory:
        [vienna, acme] = retain(memory, "2025-01-10", VIENNA, "W @Acme: Is based in Graz.")
        retain(memory, "2025-03-10", BERLIN, "W @Acme: Is based in Linz.")
        assert len(endpoint.requests) == 1  # the second fact went straight to the rules
        assert [e["judge"] for e in supersedes(memory, vienna) + supersedes(memory, acme)] \
            == ["rules", "rules"]
        assert len(memory.notices) == 1


def test_any_judge_can_be_made_safe(workspace: Path) -> None:
    class Broken:
        name = "broken"

        def weigh(self, new: Fact, older: Sequence[Fact]) -> list[Verdict]:
            raise RuntimeError("bug in the judge")

    heard: list[str] = []
    with Memory.open(workspace, judge=FallbackJudge(Broken(), RuleJudge(),
                                                    notify=heard.append)) as memory:
        [vienna] = retain(memory, "2025-01-10", VIENNA)
        retain(memory, "2025-03-10", BERLIN)
        retain(memory, "2025-04-10", "W @Peter: Lives in Paris.")
        assert [e["judge"] for e in supersedes(memory, vienna)] == ["rules"]
    assert heard == ["judge broken unavailable (RuntimeError: bug in the judge); "
                     "used the rules judge"]  # said once, not once per fact


# -- through the CLI -----------------------------------------------------------------


def test_cli_retain_with_a_model_judge(run: Any, endpoint: FakeEndpoint) -> None:
    env = {"MEMFOLD_JUDGE": "openai", "MEMFOLD_JUDGE_URL": endpoint.url,
           "MEMFOLD_JUDGE_MODEL": MODEL, "MEMFOLD_JUDGE_TIMEOUT": "5"}
    old = run("retain", "--date", "2025-01-10", OLD_DB, env=env).stdout.split()[0]
    endpoint.answer = verdicts(**{old: (True, "switched to MySQL")})
    result = run("retain", "--date", "2025-11-20", NEW_DB, env=env)
    new = result.stdout.split()[0]
    assert result.exit_code == 0
    assert result.stderr == f"memfold: {new} supersedes {old} (memory/2025-01-10.md#L4): " \
                            "switched to MySQL\n"  # what the judge did, and no warning
    events = json.loads(run("history", old, "--json").stdout)["events"]
    assert [(e["judge"], e["reason"]) for e in events if e["event"] == "supersede"] == [
        (f"openai:{MODEL}", "switched to MySQL")]


def test_cli_retain_with_the_judge_down(run: Any) -> None:
    env = {"MEMFOLD_JUDGE": "openai", "MEMFOLD_JUDGE_URL": closed_port_url(),
           "MEMFOLD_JUDGE_MODEL": MODEL}
    old = run("retain", "--date", "2025-01-10", VIENNA, env=env).stdout.split()[0]
    result = run("retain", "--date", "2025-03-10", BERLIN, env=env)
    assert result.exit_code == 0
    assert f"memfold: warning: judge openai:{MODEL} unavailable (connection refused" \
        in result.stderr
    assert "judge=rules" in run("history", old).stdout


@pytest.mark.parametrize(("env", "message"), [
    ({"MEMFOLD_JUDGE": "gpt"}, "MEMFOLD_JUDGE='gpt' is not a judge memfold knows; use one "
                               "of: rules, openai"),
    ({"MEMFOLD_JUDGE": "openai", "MEMFOLD_JUDGE_MODEL": "m"}, "needs MEMFOLD_JUDGE_URL"),
    ({"MEMFOLD_JUDGE": "openai", "MEMFOLD_JUDGE_URL": "ftp://h/v1",
      "MEMFOLD_JUDGE_MODEL": "m"}, "must be an http:// or https:// URL"),
    ({"MEMFOLD_JUDGE": "openai", "MEMFOLD_JUDGE_URL": "http://127.0.0.1:9/v1",
      "MEMFOLD_JUDGE_MODEL": "m", "MEMFOLD_JUDGE_TIMEOUT": "soon"},
     "MEMFOLD_JUDGE_TIMEOUT='soon' must be a number of seconds"),
])
def test_bad_judge_settings_are_bad_input(run: Any, workspace: Path, env: dict[str, str],
                                          message: str) -> None:
    result = run("retain", "--date", "2025-01-10", VIENNA, env=env)
    assert result.exit_code == 2
    assert result.stderr.startswith("memfold: error: ") and message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (workspace / "memory" / "2025-01-10.md").exists()


def test_rules_is_the_default_and_can_be_named(run: Any) -> None:
    old = run("retain", "--date", "2025-01-10", VIENNA,
              env={"MEMFOLD_JUDGE": " Rules "}).stdout.split()[0]
    said = run("retain", "--date", "2025-03-10", BERLIN, env={"MEMFOLD_JUDGE": ""}).stderr
    assert f"supersedes {old}" in said and "warning" not in said
    assert "judge=rules" in run("history", old).stdout
