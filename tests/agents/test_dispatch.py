"""Tool calls in every vendor's shape (agent_tools.dispatch, `memfold call`), arguments held to
the schema the model saw, and errors worded for a model — issue 16, items 1, 6 and 7."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import jsonschema
import pytest

from conftest import ROOT, Cli, markdown_hashes
from memfold import BadInput, MemfoldError, Memory
from memfold.agents import tools as at

NOW = "2025-11-27T09:00:00+00:00"

# -- the conversation, as each vendor's API returned it -------------------------------------------
# One logical script: retain -> recall (plus a call that overshoots k) -> retain -> supersede
# and forget (archive).  The model gives the bullets block ids, so the ids it uses later are
# the ones memfold stored.
TURNS = ["Peter works at Acme, plans the team offsite in Lisbon in March and likes calls on "
         "Fridays.", "Where is Peter's offsite?",
         "The offsite moved to Porto. And forget the Friday calls, that was wrong."]
STEPS: list[list[tuple[str, str]] | str] = [
    [("retain", '{"bullets": ["W @Peter: Works at Acme. ^peteracm", "B @Peter: Plans a team '
                'offsite in Lisbon in March. ^peterlis", "O(c=0.8) @Peter: Prefers calls on '
                'Fridays. ^peterfri"]}')],
    "Noted.",
    [("recall", '{"query": "Peter offsite", "k": 5.0}'),
     ("recall", '{"query": "Peter", "k": 1000000}')],
    "In Lisbon, in March (memory/2025-11-27.md#L5).",
    [("retain", '{"bullets": ["B @Peter: Booked the team offsite in Porto for March. '
                '^peterpor"]}')],
    [("supersede", '{"old": "peterlis", "new": "peterpor", "reason": "the offsite moved"}'),
     ("forget", '{"id": "peterfri"}')],
    "Done: Porto it is, and the Friday calls are forgotten.",
]


def chat_response(n: int, step: list[tuple[str, str]] | str) -> dict[str, Any]:
    calls = None if isinstance(step, str) else [
        {"id": f"call_{n}{i}", "type": "function", "function": {"name": name, "arguments": args}}
        for i, (name, args) in enumerate(step)]
    return {"id": f"chatcmpl-{n}", "object": "chat.completion", "created": 1764234000,
            "model": "gpt-4.1-2025-04-14", "system_fingerprint": "fp_1",
            "choices": [{"index": 0, "logprobs": None,
                         "finish_reason": "stop" if calls is None else "tool_calls",
                         "message": {"role": "assistant", "refusal": None, "annotations": [],
                                     "content": step if isinstance(step, str) else None,
                                     "tool_calls": calls}}],
            "usage": {"prompt_tokens": 812, "completion_tokens": 41, "total_tokens": 853}}


def responses_response(n: int, step: list[tuple[str, str]] | str) -> dict[str, Any]:
    if isinstance(step, str):
        output: list[dict[str, Any]] = [{
            "id": f"msg_{n}", "type": "message", "role": "assistant", "status": "completed",
            "content": [{"type": "output_text", "text": step, "annotations": [],
                         "logprobs": None}]}]
    else:
        output = [{"id": f"fc_{n}{i}", "type": "function_call", "call_id": f"call_{n}{i}",
                   "name": name, "arguments": args, "status": "completed"}
                  for i, (name, args) in enumerate(step)]
    return {"id": f"resp_{n}", "object": "response", "created_at": 1764234000,
            "status": "completed", "model": "gpt-4.1-2025-04-14", "output": output,
            "error": None, "incomplete_details": None, "parallel_tool_calls": True,
            "usage": {"input_tokens": 812, "output_tokens": 41, "total_tokens": 853}}


def anthropic_response(n: int, step: list[tuple[str, str]] | str) -> dict[str, Any]:
    if isinstance(step, str):
        content: list[dict[str, Any]] = [{"type": "text", "text": step, "citations": None}]
    else:
        content = [{"type": "text", "text": "Let me check my memory.", "citations": None}]
        content += [{"type": "tool_use", "id": f"toolu_0{n}{i}", "name": name,
                     "input": json.loads(args)} for i, (name, args) in enumerate(step)]
    return {"id": f"msg_0{n}", "type": "message", "role": "assistant",
            "model": "claude-sonnet-4-5-20250929", "content": content,
            "stop_reason": "end_turn" if isinstance(step, str) else "tool_use",
            "stop_sequence": None,
            "usage": {"input_tokens": 1204, "output_tokens": 87,
                      "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}}


RECORDERS = {"chat": chat_response, "responses": responses_response,
             "anthropic": anthropic_response}


def recorded(vendor: str) -> list[dict[str, Any]]:
    return [RECORDERS[vendor](n, step) for n, step in enumerate(STEPS)]


def tool_calls(vendor: str, response: dict[str, Any]) -> list[dict[str, Any]]:
    """The tool calls in one recorded response, as a loop would pick them out."""
    if vendor == "chat":
        return response["choices"][0]["message"]["tool_calls"] or []
    if vendor == "responses":
        return [item for item in response["output"] if item["type"] == "function_call"]
    return [block for block in response["content"] if block["type"] == "tool_use"]


def without_none(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: without_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [without_none(v) for v in value]
    return value


class Recorded:
    """What an SDK returns: a model whose `model_dump` gives the API's JSON."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data

    def model_dump(self, *, exclude_none: bool = False) -> dict[str, Any]:
        return without_none(self.data) if exclude_none else json.loads(json.dumps(self.data))


# -- fake clients: replay the recording and check each request as the API would -------------------


def check_chat(messages: list[dict[str, Any]]) -> None:
    for n, message in enumerate(messages):
        ids = [c["id"] for c in message.get("tool_calls", [])]
        answers = messages[n + 1:n + 1 + len(ids)]
        assert [a.get("tool_call_id") for a in answers] == ids
        assert all(a["role"] == "tool" and isinstance(a["content"], str) for a in answers)


def check_responses(items: list[dict[str, Any]]) -> None:
    asked = [i["call_id"] for i in items if i.get("type") == "function_call"]
    answered = [i["call_id"] for i in items if i.get("type") == "function_call_output"]
    assert sorted(asked) == sorted(answered)
    assert all(isinstance(i["output"], str) for i in items
               if i.get("type") == "function_call_output")


def check_anthropic(messages: list[dict[str, Any]]) -> None:
    assert [m["role"] for m in messages] == ["user", "assistant"] * (len(messages) // 2) + \
        ["user"] * (len(messages) % 2)
    for message, following in zip(messages, messages[1:], strict=False):
        if message["role"] != "assistant" or isinstance(message["content"], str):
            continue
        ids = [b["id"] for b in message["content"] if b["type"] == "tool_use"]
        if ids:
            assert [b["tool_use_id"] for b in following["content"]] == ids
            assert all(b["type"] == "tool_result" and isinstance(b["content"], str)
                       for b in following["content"])


def fake_client(vendor: str, requests: list[dict[str, Any]]) -> Any:
    script = iter(recorded(vendor))

    def create(**request: Any) -> Recorded:
        requests.append(json.loads(json.dumps(request)))  # a copy, as sent
        conversation = request.get("messages", request.get("input"))
        {"chat": check_chat, "responses": check_responses,
         "anthropic": check_anthropic}[vendor](conversation)
        return Recorded(next(script))

    endpoint = SimpleNamespace(create=create)
    return SimpleNamespace(chat=SimpleNamespace(completions=endpoint), responses=endpoint,
                           messages=endpoint)


def answers_in(vendor: str, conversation: list[dict[str, Any]]) -> list[dict[str, Any]]:
    if vendor == "chat":
        return [m for m in conversation if m["role"] == "tool"]
    if vendor == "responses":
        return [i for i in conversation if i.get("type") == "function_call_output"]
    return [b for m in conversation if m["role"] == "user" and isinstance(m["content"], list)
            for b in m["content"]]


def payload(vendor: str, answer: dict[str, Any]) -> Any:
    return json.loads(answer["output"] if vendor == "responses" else answer["content"])


def check_outcome(vendor: str, answers: list[dict[str, Any]], workspace: Path) -> None:
    """retain -> recall -> supersede -> forget happened, and each answer is in its shape."""
    keys = {"chat": {"role", "tool_call_id", "content"},
            "responses": {"type", "call_id", "output"},
            "anthropic": {"type", "tool_use_id", "content"}}[vendor]
    assert len(answers) == 6
    assert all(set(a) - {"is_error"} == keys for a in answers)
    data = [payload(vendor, a) for a in answers]
    assert data[0]["ids"] == ["peteracm", "peterlis", "peterfri"]
    assert data[1]["results"][0]["id"] == "peterlis" and len(data[1]["results"]) <= 5
    assert data[2] == {"error": "recall: k must be between 1 and 200, not 1000000",
                       "type": "BadInput", "exit_code": 2}
    assert ("is_error" in answers[2]) == (vendor == "anthropic")
    assert data[4] == {"old": "peterlis", "new": "peterpor", "changed": True}
    assert data[5] == {"id": "peterfri", "result": "archived", "files": []}
    with Memory.open(workspace, now=NOW) as memory:
        found = [h.fact.id for h in memory.recall("Peter offsite").hits]
        assert found[0] == "peterpor" and "peterlis" not in found
        assert memory.get("peterfri", use=False).status == "archived"


def doc_block(path: Path, function: str) -> dict[str, Any]:
    blocks = [b.split("\n```", 1)[0] for b in path.read_text().split("```python\n")[1:]]
    [code] = [b for b in blocks if f"def {function}(" in b]
    namespace: dict[str, Any] = {}
    exec(code, namespace)  # noqa: S102 - our own documentation
    return namespace


@pytest.mark.parametrize(("vendor", "function"), [
    ("chat", "chat_session"), ("responses", "responses_session"),
    ("anthropic", "claude_session")])
def test_the_documented_loop_for_each_api_runs_the_recorded_conversation(
        workspace: Path, vendor: str, function: str) -> None:
    requests: list[dict[str, Any]] = []
    session = doc_block(ROOT / "docs" / "agents.md", function)[function]
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MEMFOLD_NOW", NOW)
        conversation = session(fake_client(vendor, requests), TURNS, workspace=str(workspace))
    assert len(requests) == len(STEPS)
    check_outcome(vendor, answers_in(vendor, conversation), workspace)
    tools = requests[0]["tools"]
    if vendor == "responses":  # flat function tools, one per memfold tool
        assert [t["name"] for t in tools] == [t.name for t in at.tools()]
        assert all(t["type"] == "function" and t["parameters"] for t in tools)
    else:
        assert tools == at.render("openai" if vendor == "chat" else "anthropic")


@pytest.mark.parametrize("vendor", ["chat", "responses", "anthropic"])
def test_memfold_call_answers_the_recorded_calls(run: Cli, workspace: Path,
                                                 vendor: str) -> None:
    answers = []
    for response in recorded(vendor):
        for call in tool_calls(vendor, response):
            result = run("call", input=json.dumps(call), env={"MEMFOLD_NOW": NOW})
            assert result.exit_code == 0, result.stderr
            answers.append(json.loads(result.stdout))
    check_outcome(vendor, answers, workspace)


def test_memfold_call_reads_real_stdin_and_arrays(workspace: Path) -> None:
    calls = [{"name": "retain", "arguments": {"bullets": ["W @Peter: Lives in Graz. ^petergrz"]},
              "id": 7},
             {"name": "recall", "arguments": '{"query": "where does Peter live"}'},
             {"name": "recall", "input": {"query": "Peter", "k": 0}}]
    env = {**os.environ, "MEMFOLD_NOW": NOW, "MEMFOLD_WORKSPACE": str(workspace)}
    done = subprocess.run([sys.executable, "-m", "memfold", "call"], input=json.dumps(calls),
                          capture_output=True, text=True, env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    stored, found, refused = json.loads(done.stdout)
    assert stored["id"] == 7 and stored["is_error"] is False
    assert found["result"]["results"][0]["id"] == "petergrz"
    assert refused == {"name": "recall", "is_error": True, "result": {
        "error": "recall: k must be between 1 and 200, not 0", "type": "BadInput",
        "exit_code": 2}}


@pytest.mark.parametrize(("stdin", "message"), [
    ("", "stdin is not valid JSON"),
    ('{"name": "recall", ', "stdin is not valid JSON"),
    ("[]", "no tool call on stdin"),
    ('"recall"', "not a tool call"),
    ('{"query": "x"}', "not a tool call"),
    ('{"type": "tool_use", "name": "recall", "input": {}}', "the tool_use block has no `id`"),
    ('{"type": "function", "function": {"name": "recall", "arguments": "{}"}}',
     "the tool call has no `id`"),
    ('{"type": "function_call", "name": "recall", "arguments": "{}"}',
     "the function_call has no `call_id`"),
    ('[{"name": "recall", "arguments": {"query": "x"}}, 5]', "not a tool call"),
])
def test_memfold_call_refuses_what_is_no_tool_call(run: Cli, stdin: str, message: str) -> None:
    result = run("call", input=stdin)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("memfold: error: ") and message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


# -- dispatch and call ---------------------------------------------------------------------------


def test_call_takes_openai_arguments_as_json_text(memory: Memory) -> None:
    at.call(memory, "retain", '{"bullets": ["W @Peter: Lives in Graz."]}')
    found = at.call(memory, "recall", '{"query": "where does Peter live", "k": 3}')
    assert found["results"][0]["content"] == "Lives in Graz."
    assert at.call(memory, "core_view", "")["blocks"] is not None  # no arguments at all


@pytest.mark.parametrize(("arguments", "message"), [
    ('{"query": ', "recall: the arguments are not valid JSON (Expecting value at character 11)"),
    ('["where"]', "recall: the arguments must be a JSON object"),
    ('"where does Peter live"', "recall: the arguments must be a JSON object"),
    ("[" * 100_000, "recall: the arguments are not valid JSON"),
    ('{"query": "x", "k": NaN}', "recall: k must be an integer, not NaN"),
])
def test_bad_argument_text_is_a_memfold_error(memory: Memory, arguments: str,
                                              message: str) -> None:
    with pytest.raises(BadInput) as refused:
        at.call(memory, "recall", arguments)
    assert str(refused.value).startswith(message)


def test_call_refuses_a_call_without_a_tool_name(memory: Memory) -> None:
    with pytest.raises(BadInput, match="the tool call names no tool; the tools are: recall"):
        at.call(memory, None, {})  # type: ignore[arg-type]


def test_dispatch_answers_each_shape_and_reads_sdk_objects(memory: Memory) -> None:
    chat = {"id": "call_1", "type": "function",
            "function": {"name": "retain", "arguments": '{"bullets": ["W @Ann: Likes tea."]}'}}
    answer = at.dispatch(memory, Recorded(chat))
    assert answer["role"] == "tool" and answer["tool_call_id"] == "call_1"
    assert json.loads(answer["content"])["facts"][0]["content"] == "Likes tea."
    responses = {"type": "function_call", "id": "fc_1", "call_id": "call_2", "name": "about",
                 "arguments": '{"name": "Ann"}', "status": "completed"}
    answer = at.dispatch(memory, responses)
    assert set(answer) == {"type", "call_id", "output"} and answer["call_id"] == "call_2"
    assert answer["type"] == "function_call_output"
    tool_use = {"type": "tool_use", "id": "toolu_1", "name": "recall", "input": {"query": "x",
                                                                                 "k": -1}}
    assert at.dispatch(memory, tool_use) == {
        "type": "tool_result", "tool_use_id": "toolu_1", "is_error": True,
        "content": json.dumps({"error": "recall: k must be between 1 and 200, not -1",
                               "type": "BadInput", "exit_code": 2})}
    unknown = at.dispatch(memory, {"type": "tool_use", "id": "t", "name": "delete_all",
                                   "input": {}})
    assert json.loads(unknown["content"])["error"].startswith("unknown tool 'delete_all'")


def test_dispatch_answers_a_bug_as_an_internal_error(workspace: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(self: Memory) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(Memory, "core", broken)
    with Memory.open(workspace) as memory:
        answer = at.dispatch(memory, {"name": "core_view", "arguments": {}})
    assert answer == {"name": "core_view", "is_error": True, "result": {
        "error": "internal error: RuntimeError: boom", "type": "InternalError",
        "exit_code": 1}}


@pytest.mark.parametrize("tool_call", [
    None, [], "recall", {"role": "assistant", "content": "hi"},
    {"type": "text", "text": "hi"},
    {"type": "function", "function": "recall", "id": "c"},
])
def test_dispatch_raises_only_for_what_is_no_tool_call(memory: Memory, tool_call: Any) -> None:
    with pytest.raises(BadInput):
        at.dispatch(memory, tool_call)


# -- item 6: the arguments are held to the schema the model saw ------------------------------------


def test_every_schema_keyword_is_one_the_validator_knows() -> None:
    from memfold.agents.schema import KEYWORDS

    def keywords(schema: Any) -> set[str]:
        if not isinstance(schema, dict):
            return set()
        found = set(schema)
        for key in ("items", "additionalProperties"):
            found |= keywords(schema.get(key))
        for sub in schema.get("properties", {}).values():
            found |= keywords(sub)
        return found

    for tool in at.tools():
        assert keywords(tool.schema) <= KEYWORDS, tool.name


@pytest.mark.parametrize(("name", "args", "message"), [
    ("recall", {"query": "x", "k": 1_000_000}, "recall: k must be between 1 and 200, not 1000000"),
    ("recall", {"query": "x", "k": 0}, "recall: k must be between 1 and 200, not 0"),
    ("recall", {"query": "x", "budget": 0}, "recall: budget must be at least 1, not 0"),
    ("recall", {"query": ""}, "recall: query must not be empty"),
    ("about", {"name": "Peter", "k": 501}, "about: k must be between 1 and 500, not 501"),
    ("retain", {"bullets": []}, "retain: bullets must not be empty"),
    ("use", {"ids": []}, "use: ids must not be empty"),
    ("note", {"id": "x", "text": "t", "rev": -1}, "note: rev must be at least 0, not -1"),
    ("core_append", {"block": "Human", "text": ""}, "core_append: text must not be empty"),
    ("core_insert", {"block": "Human", "line": -2, "text": "x"},
     "core_insert: line must be at least -1, not -2"),
    ("supersede", {"old": "", "new": "x"}, "supersede: old must not be empty"),
    ("recall", {"query": "x", "top_k": 3},
     "recall: unknown argument 'top_k' (the arguments are: query, k, since"),
])
def test_arguments_outside_the_schema_are_refused_before_anything_runs(
        workspace: Path, name: str, args: dict[str, Any], message: str) -> None:
    before = markdown_hashes(workspace)
    with Memory.open(workspace, now=NOW) as memory, pytest.raises(BadInput) as refused:
        at.call(memory, name, args)
    assert str(refused.value).startswith(message)
    assert jsonschema.Draft202012Validator(at.tool(name).schema).is_valid(args) is False
    assert markdown_hashes(workspace) == before


def test_integers_are_what_json_schema_calls_integers(memory: Memory) -> None:
    at.call(memory, "retain", {"bullets": ["W @Peter: Lives in Graz.", "W @Peter: Likes tea.",
                                           "W @Peter: Plays chess."]})
    found = at.call(memory, "recall", {"query": "Peter", "k": 2.0})
    assert len(found["results"]) == 2
    assert jsonschema.Draft202012Validator(at.tool("recall").schema).is_valid(
        {"query": "Peter", "k": 2.0})
    assert at.call(memory, "context", {"budget": 300.0})["budget"] == 300


@pytest.mark.parametrize("value", [
    2, 2.0, 1e2, 0, -1, 201, 2.5, True, None, "3", [3], {"k": 3}, float("inf"), 10**30])
def test_the_validator_agrees_with_jsonschema_on_k(memory: Memory, value: Any) -> None:
    from memfold.agents.schema import check_value

    spec = at.tool("recall").schema["properties"]["k"]
    valid = jsonschema.Draft202012Validator(spec).is_valid(value) and value != float("inf")
    try:
        check_value("recall: k", spec, value)
    except BadInput:
        assert not valid, value
    else:
        assert valid, value


# -- item 7: errors speak to a model, not the CLI ------------------------------------------------


TOKEN = "ghp_R8fq2LmZ0xW4vT7nK1pYc9sD3aB6eH5jU2gN"


@pytest.mark.parametrize(("name", "args", "says", "argv", "cli_says"), [
    ("retain", {"bullets": [f"W @ops: deploy key {TOKEN}"]},
     "; memfold does not store secrets — rephrase it without the secret",
     ["retain", f"W @ops: deploy key {TOKEN}"], "or pass --allow-secret to keep it anyway"),
    ("recall", {"query": "x", "since": "2025-11-20", "until": "2025-11-01"},
     "since 2025-11-20 is after until 2025-11-01",
     ["recall", "x", "--since", "2025-11-20", "--until", "2025-11-01"],
     "--since 2025-11-20 is after --until 2025-11-01"),
    ("recall", {"query": "x", "k": 0}, "recall: k must be between 1 and 200, not 0",
     ["recall", "x", "--k", "0"], "--k must be at least 1, not 0"),
])
def test_tool_errors_name_the_tools_arguments_and_the_cli_keeps_its_flags(
        run: Cli, workspace: Path, name: str, args: dict[str, Any], says: str,
        argv: list[str], cli_says: str) -> None:
    before = markdown_hashes(workspace)
    with Memory.open(workspace, now=NOW) as memory:
        answer = at.dispatch(memory, {"name": name, "arguments": args})
    message = answer["result"]["error"]
    assert answer["is_error"] and says in message and "--" not in message
    cli = run(*argv)
    assert cli.exit_code == 2 and cli_says in cli.stderr
    assert markdown_hashes(workspace) == before


def test_no_refusal_a_model_can_cause_speaks_of_cli_flags(memory: Memory) -> None:
    bad: list[tuple[str, Any]] = [
        ("recall", {"query": "x", "k": 0}), ("recall", {"query": "x", "budget": -5}),
        ("recall", {"query": "x", "since": "the other day"}),
        ("recall", {"query": "x", "since": "2025-11-20", "until": "2025-11-01"}),
        ("note", {"id": "nope1234", "text": "t", "rev": -1}),
        ("retain", {"bullets": [f"W: {TOKEN}"]}), ("context", {"budget": 0}),
        ("show", {"id": "nope1234"}), ("forget", {"id": "nope1234"}),
    ]
    for name, args in bad:
        with pytest.raises(MemfoldError) as refused:
            at.call(memory, name, args)
        assert "--" not in str(refused.value), (name, str(refused.value))
