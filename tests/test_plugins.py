"""Plugins (memfold.plugins): a third-party package's judge, embedder and reranker chosen by
name as the built-ins are, a broken plugin left out with one line, an unknown name answered
with the registered ones, and the built-ins declared in pyproject as a plugin declares its
own.  The third-party package is real: a module and its dist-info in a folder on sys.path,
read by importlib.metadata as an installed distribution would be."""

from __future__ import annotations

import importlib
import importlib.metadata
import json
import textwrap
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from memfold import embed, plugins
from memfold.capture.registry import FORMATS, registered
from memfold.config import judge_settings
from memfold.embed import models, rerank
from memfold.embed.models import EMBEDDERS, ModelError
from memfold.errors import BadInput
from memfold.importing.registry import IMPORTERS
from memfold.lifecycle.judge import JUDGES, load_judge
from memfold.memory import Memory

ROOT = Path(__file__).resolve().parents[1]
GROUPS = (JUDGES, EMBEDDERS, rerank.RERANKERS, FORMATS, IMPORTERS)

MODULE = '''
from memfold.embed.base import FakeEmbedder, Identity
from memfold.lifecycle.judge.base import Verdict


class Always:
    """Says a newer fact replaces every older one it is shown."""

    name = "always"

    def __init__(self, settings):
        self.settings = settings

    def weigh(self, new, older):
        return [Verdict(o.id, True, "the always plugin says so") for o in older]


class Tiny(FakeEmbedder):
    def __init__(self):
        super().__init__(dims=32, version="tiny")
        self._identity = Identity("tiny-plugin", "1", 32, self._identity.weights_sha256)


class Backwards:
    def scores(self, query, texts):
        return [-float(n) for n in range(len(texts))]


class Refuses:
    def __init__(self):
        raise RuntimeError("no model here")


class Csv:
    """An importer: `text,date` lines of a .csv file, each a fact."""

    name = "csv"
    description = "text,date lines"

    def detect(self, source):
        return source.path.suffix == ".csv"

    def read(self, source):
        from datetime import date

        from memfold.importing.sources import Batch, FactRecord

        facts = []
        for n, line in enumerate(source.data.decode().splitlines(), 1):
            text, _, day = line.rpartition(",")
            facts.append(FactRecord(text=text, day=date.fromisoformat(day), where=f"line {n}"))
        return Batch(self.name, facts=tuple(facts))
'''

ENTRY_POINTS = '''
[memfold.judges]
always = memfold_testplugin:Always
broken = memfold_testplugin_missing:Judge
rules = memfold_testplugin:Always

[memfold.embedders]
tiny = memfold_testplugin:Tiny
refuses = memfold_testplugin:Refuses

[memfold.rerankers]
backwards = memfold_testplugin:Backwards

[memfold.capture_formats]
broken-format = memfold_testplugin:Refuses

[memfold.importers]
csv = memfold_testplugin:Csv
vault = memfold_testplugin:Csv
'''


@pytest.fixture(autouse=True)
def _fresh_registry() -> Iterator[None]:
    plugins.forget()
    yield
    plugins.forget()


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The package memfold-testplugin, installed into a folder put on sys.path."""
    site = tmp_path / "site"
    info = site / "memfold_testplugin-0.1.dist-info"
    info.mkdir(parents=True)
    (site / "memfold_testplugin.py").write_text(MODULE)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: memfold-testplugin\n"
                                   "Version: 0.1\n")
    (info / "entry_points.txt").write_text(textwrap.dedent(ENTRY_POINTS))
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    monkeypatch.setattr(embed, "_embedders", {})
    monkeypatch.setattr(rerank, "_shared", {})
    return site


def _stderr_lines(capsys: pytest.CaptureFixture[str]) -> list[str]:
    return capsys.readouterr().err.strip().splitlines()


# -- the built-ins, declared as plugins ------------------------------------------------------


def test_pyproject_declares_the_builtins_each_group_lists() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]
    assert {g.name: list(g.builtins) for g in GROUPS} == {
        name: list(entries.items()) for name, entries in declared.items()}


def test_every_entry_point_memfold_declares_loads() -> None:
    """Each line of pyproject's entry points names an object that exists (the chatgpt and
    claude-ai lines once named readers that did not)."""
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]
    for group, entries in declared.items():
        for name, target in entries.items():
            module, _, attribute = target.partition(":")
            assert hasattr(importlib.import_module(module), attribute), (group, name)


def test_without_metadata_the_builtins_remain(monkeypatch: pytest.MonkeyPatch) -> None:
    def unreadable(**_: Any) -> Any:
        raise OSError("no metadata here")

    monkeypatch.setattr(importlib.metadata, "entry_points", unreadable)
    assert JUDGES.names() == ("rules", "openai")
    assert EMBEDDERS.names() == ("minilm", "e5-multilingual")
    assert list(registered()) == ["chatgpt", "claude-ai", "claude-code", "anthropic",
                                  "openai", "text"]


def test_asking_for_a_builtin_reads_no_metadata(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []
    real = importlib.metadata.entry_points

    def counted(**kwargs: Any) -> Any:
        asked.append(kwargs.get("group", ""))
        return real(**kwargs)

    monkeypatch.setattr(importlib.metadata, "entry_points", counted)
    assert JUDGES.load("openai") is not None and EMBEDDERS.has("minilm")
    assert asked == []
    JUDGES.names()
    JUDGES.names()
    assert asked == ["memfold.judges"]  # once a process


# -- a third party's plugins -----------------------------------------------------------------


def test_a_plugin_judge_is_chosen_by_memfold_judge(installed: Path, run: Any) -> None:
    env = {"MEMFOLD_JUDGE": "always"}
    old = run("retain", "--date", "2025-01-10", "W @Ann: Likes green tea.",
              env=env).stdout.split()[0]
    said = run("retain", "--date", "2025-02-10", "W @Ann: Lives in Porto.", env=env).stderr
    assert f"supersedes {old}" in said and "the always plugin says so" in said
    assert "judge=always" in run("history", old).stdout


def test_the_same_facts_under_the_rule_judge_stay_apart(run: Any) -> None:
    """What the plugin judge decided above is its own: the default judge leaves these."""
    run("retain", "--date", "2025-01-10", "W @Ann: Likes green tea.")
    said = run("retain", "--date", "2025-02-10", "W @Ann: Lives in Porto.").stderr
    assert "supersedes" not in said


def test_a_plugin_judge_gets_the_settings_and_the_rule_judge_behind_it(installed: Path) -> None:
    judge = load_judge(judge_settings("always"))
    assert judge is not None and judge.name == "always"
    assert judge.primary.settings.kind == "always"  # type: ignore[attr-defined]
    assert judge.fallback.name == "rules"  # type: ignore[attr-defined]
    from memfold_bench.judge_bench import make_judge  # `memfold bench judge --judge always`

    assert make_judge("always").name == "always"


def test_a_plugin_embedder_is_chosen_by_memfold_embed_model(
        installed: Path, workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMFOLD_EMBED_MODEL", "tiny")
    assert models.model_name() == "tiny" and embed.installed()
    with Memory.open(workspace) as memory:
        memory.retain(["W @Ann: Keeps bees behind the barn."], date="2025-01-10")
        hits = memory.recall("bees barn", mode="semantic").hits
    assert [h.fact.content for h in hits] == ["Keeps bees behind the barn."]
    state = json.loads((workspace / ".memory" / "vectors" / "state.json").read_text())
    assert "tiny-plugin" in json.dumps(state)


def test_a_plugin_reranker_is_chosen_by_name(installed: Path) -> None:
    reranker = rerank.shared_reranker("backwards")
    assert reranker.scores("q", ["a", "b"]) == [0.0, -1.0]
    assert rerank.shared_reranker("backwards") is reranker
    with pytest.raises(BadInput, match="no reranker 'nope'; use one of: late-interaction, "
                                       "backwards$"):
        rerank.shared_reranker("nope")


# -- broken, clashing and unknown ------------------------------------------------------------


def test_a_broken_plugin_is_left_out_with_one_line(
        installed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert JUDGES.names() == ("rules", "openai", "always")
    lines = _stderr_lines(capsys)
    assert sorted(lines) == [
        "memfold: warning: judge plugin 'broken' (memfold_testplugin_missing:Judge) left out: "
        "ModuleNotFoundError: No module named 'memfold_testplugin_missing'",
        "memfold: warning: judge plugin 'rules' (memfold_testplugin:Always) left out: "
        "a member of that name is registered already"]
    JUDGES.names()
    assert _stderr_lines(capsys) == []  # said once


def test_a_plugin_never_replaces_a_builtin(installed: Path) -> None:
    assert JUDGES.load("rules") is importlib.import_module("memfold.lifecycle.judge").rule_judge
    assert load_judge(judge_settings("rules")) is None  # the ledger's own rule judge


def test_an_unknown_judge_lists_the_registered_ones(
        installed: Path, run: Any, workspace: Path) -> None:
    result = run("retain", "--date", "2025-01-10", "W @Ann: Likes tea.",
                 env={"MEMFOLD_JUDGE": "broken"})
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines()[-1] == (
        "memfold: error: MEMFOLD_JUDGE='broken' is not a judge memfold knows; "
        "use one of: rules, openai, always")
    assert "left out: ModuleNotFoundError" in result.stderr
    assert not (workspace / "memory" / "2025-01-10.md").exists()


def test_an_unknown_embedder_lists_the_registered_ones(
        installed: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMFOLD_EMBED_MODEL", "nope")
    with pytest.raises(ModelError, match="MEMFOLD_EMBED_MODEL='nope' is not one of "
                                         "minilm, e5-multilingual, tiny, refuses$"):
        models.model_name()
    assert not embed.installed()


def test_an_embedder_that_cannot_start_is_one_line(installed: Path) -> None:
    with pytest.raises(ModelError, match="^the refuses embedder cannot load: "
                                         "RuntimeError: no model here$"):
        models.load("refuses")


def test_a_capture_format_that_cannot_be_made_is_left_out(
        installed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "broken-format" not in registered()
    assert _stderr_lines(capsys) == [
        "memfold: warning: capture format plugin 'broken-format' left out: "
        "RuntimeError: no model here"]


def test_a_plugin_importer_is_detected_and_imports_through_retain(
        installed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from memfold.importing.registry import registered as importers

    assert list(importers()) == ["vault", "mem0", "jsonl", "chat", "csv"]
    assert "'vault' (memfold_testplugin:Csv) left out" in capsys.readouterr().err
    source = tmp_path / "facts.csv"
    source.write_text("Lives in Vienna,2025-01-02\nLikes tea,2025-01-03\n")
    Memory.init(tmp_path / "ws")
    with Memory.open(tmp_path / "ws") as memory:
        first = memory.import_source(source)
        assert (first.format, first.facts) == ("csv", 2)
        assert memory.import_source(source).skipped == 2
        assert memory.get(memory.recall("Vienna").hits[0].fact.id).origin == "import:csv"
