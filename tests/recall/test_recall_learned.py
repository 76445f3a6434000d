"""Recall's learned order of its best candidates (`recall.learned`): the weights load and
name only features recall computes, the order is on unless MEMFOLD_RECALL_ORDER=rules (or
`ordering(False)`) and another word there is bad input, a learned order that differs from
recall's own is applied (and `why` is the same for each fact), a text row and a faded fact
recall ranks first among the active ones keep their places, a fact off the question's
subject never passes one on it, a memory without its user's entity (a chat log, another's
timeline) and a question in Vietnamese keep recall's order, a recording keeps recall's
own order and records its best (in hybrid mode with each fact's cosine with the question),
and a conflict the judge offered is marked, not reordered, where the model orders."""

from __future__ import annotations

from pathlib import Path

import pytest

from memfold.embed.base import FakeEmbedder
from memfold.errors import BadInput
from memfold.memory import Memory
from memfold.recall import learned, learned_weights, ranking

DAY = "2025-06-01T10:00:00"
LATER = "2025-06-02T10:00:00"
FACTS = ["W @Ines: Ines keeps bees on the allotment.",
         "B @Ines: Ines and I visited the bee museum in Gdansk.",
         "O @Ines: Ines thinks bees are the best pets."]
ME = "W @me: I work night shifts at the depot."  # a memory kept about its user


def _names() -> set[str]:
    base = {*ranking.FACTORS, "score", "rank", "first", "second", "own", "beside", "lifted",
            "alike", "replaced", "outdated", "archived", "gone", "faded", "decay",
            "confidence", "importance", "known", "hopped", "lexical", "fused", "weak", "age",
            "newer", "older", "with_lead", "entities", "length", "cos",
            *(f"kind:{k}" for k in learned.KINDS),
            *(f"then:{t}" for t in learned.THENS.values())}
    return base


def test_the_weights_load_and_name_features_recall_computes() -> None:
    base = _names()
    assert set(learned.INTERACTED) <= base
    for mode in ("lexical", "hybrid"):
        weights = learned.weights_for(mode)  # on when nothing says
        assert weights, f"no learned weights for {mode}"
        for name in weights:
            q, _, feature = name.partition("*")
            assert (feature in base and q.startswith("q:")) if feature \
                else name in base | learned.SPECIAL, name


def test_a_row_has_the_features_the_weights_name(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        memory.retain([ME, *FACTS], now=DAY)
        with learned.recording() as records:
            memory.recall("what about bees", now=LATER)
    rows = records[-1].rows
    assert rows and set().union(*rows) <= _names()



def test_the_setting_turns_it_off_and_a_bad_one_is_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMFOLD_RECALL_ORDER", "rules")
    assert learned.weights_for("lexical") is None
    with learned.ordering():  # the code's word beats the setting
        assert learned.weights_for("lexical")
    monkeypatch.setenv("MEMFOLD_RECALL_ORDER", "Learned ")
    assert learned.weights_for("lexical")
    monkeypatch.setenv("MEMFOLD_RECALL_ORDER", "best")
    with pytest.raises(BadInput, match="unknown recall order 'best'"):
        learned.weights_for("lexical")


def _asked(memory: Memory, query: str = "Ines bees") -> list[tuple[str, str]]:
    return [(h.fact.content, h.why) for h in memory.recall(query, now=LATER).hits]


def test_a_learned_order_that_differs_is_applied(workspace: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    with Memory.open(workspace) as memory:
        memory.retain([ME, *FACTS], now=DAY)
        monkeypatch.setattr(learned_weights, "WEIGHTS", {})
        own = _asked(memory)
        # a model that only wants experiences, then opinions, first
        monkeypatch.setattr(learned_weights, "WEIGHTS", {"lexical": {
            "kind:experience": 10.0, "kind:opinion": 5.0}})
        taught = _asked(memory)
        scores = [h.score for h in memory.recall("Ines bees", now=LATER).hits]
        with learned.ordering(False):
            unasked = [h.fact.content for h in memory.recall("Ines bees", now=LATER).hits]
    assert unasked == [c for c, _ in own]  # turned off: recall's own order
    assert [c for c, _ in taught][:2] == [FACTS[1].split(": ", 1)[1], FACTS[2].split(": ", 1)[1]]
    assert [c for c, _ in own] != [c for c, _ in taught]
    assert dict(own) == dict(taught)  # each fact's why is the same
    assert scores == sorted(scores, reverse=True)


def test_a_recording_keeps_recalls_own_order(workspace: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    with Memory.open(workspace) as memory:
        memory.retain([ME, *FACTS], now=DAY)
        monkeypatch.setattr(learned_weights, "WEIGHTS", {})
        own = _asked(memory)
        monkeypatch.setattr(learned_weights, "WEIGHTS", {"lexical": {"kind:experience": 10.0}})
        with learned.recording() as records:
            recorded = _asked(memory)
    assert recorded == own
    assert len(records) == 1
    record = records[0]
    assert record.query == "Ines bees" and record.shape["q:named"] == 1.0
    assert len(record.ids) == len(record.rows) == len(own)
    assert all(len(row) > 5 for row in record.rows)


def test_a_text_row_keeps_its_place(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The model learned from typed facts: a paragraph of notes keeps the place recall
    gave it, the typed facts are ordered again around it."""
    (workspace / "memory/2025-06-01.md").write_text(
        "Ines bees: the hives on the allotment did well this year.\n")
    with Memory.open(workspace) as memory:
        memory.retain([ME, *FACTS], now=DAY)
        monkeypatch.setattr(learned_weights, "WEIGHTS", {})
        own = [c for c, _ in _asked(memory)]
        monkeypatch.setattr(learned_weights, "WEIGHTS", {"lexical": {"kind:experience": 10.0}})
        taught = [c for c, _ in _asked(memory)]
    text = next(n for n, c in enumerate(own) if c.startswith("Ines bees:"))
    assert taught[text] == own[text]
    assert taught != own


def test_a_memory_without_its_user_keeps_recalls_order(workspace: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    with Memory.open(workspace) as memory:
        memory.retain(FACTS, now=DAY)
        monkeypatch.setattr(learned_weights, "WEIGHTS", {})
        own = _asked(memory)
        monkeypatch.setattr(learned_weights, "WEIGHTS", {"lexical": {
            "kind:experience": 10.0, "kind:opinion": 5.0}})
        assert _asked(memory) == own
        memory.retain(ME, now=DAY)
        assert _asked(memory) != own


def test_a_question_in_vietnamese_keeps_recalls_order(workspace: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The weights learned from English years; with no Vietnamese year to measure them on,
    a question in Vietnamese keeps recall's own order, in the same memory."""
    question = "Ines nuôi ong ở đâu?"
    with Memory.open(workspace) as memory:
        memory.retain([ME, *FACTS, "B @Ines: Ines dạy tôi cách nuôi ong."], now=DAY)
        monkeypatch.setattr(learned_weights, "WEIGHTS", {})
        own = _asked(memory, question)
        english = _asked(memory)
        monkeypatch.setattr(learned_weights, "WEIGHTS", {"lexical": {
            "kind:experience": 10.0, "kind:opinion": 5.0}})
        assert _asked(memory, question) == own
        assert _asked(memory) != english  # the same model reorders an English question


def test_a_faded_fact_recall_ranks_first_keeps_its_place(
        workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A view archived by time that matches the question far better than the active facts
    stays where recall put it (`currency.covered`), whatever the model would say: the
    faded-topic rule of tests/recall/test_recall_faded_topic.py holds under any weights."""
    question, now = "Which team do I support in rugby?", "2025-12-31T09:00:00"
    with Memory.open(workspace) as memory:
        [faded] = memory.retain(["O(c=0.7) @me: I've supported the Stormers in rugby since I "
                                 "was a boy."], date="2024-03-15", now="2024-03-15").facts
        memory.retain(["W @me: My team at work is eight people and the office is busy."],
                      date="2025-11-02", now="2025-11-02")
        own = [(h.fact.id, h.status) for h in memory.recall(question, now=now).hits]
        # a model that wants the newest state facts first, and nothing archived
        monkeypatch.setattr(learned_weights, "WEIGHTS", {"lexical": {
            "kind:world": 10.0, "archived": -10.0, "faded": -10.0, "age": -5.0}})
        taught = [(h.fact.id, h.status) for h in memory.recall(question, now=now).hits]
    assert own[0] == (faded.id, "archived")
    assert taught[0] == own[0]


def test_a_fact_off_the_subject_never_passes_one_on_it(
        workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The question names Ines: a model that wants opinions first still leaves the user's
    opinion on beekeeping (about no one the question names) below Ines's facts, and orders
    Ines's facts among themselves."""
    with Memory.open(workspace) as memory:
        memory.retain([ME, *FACTS, "O(c=0.9) @me: Bees are the best thing about the "
                                   "allotment."], now=DAY)
        monkeypatch.setattr(learned_weights, "WEIGHTS", {})
        own = [c for c, _ in _asked(memory)]
        monkeypatch.setattr(learned_weights, "WEIGHTS", {"lexical": {"kind:opinion": 10.0}})
        taught = [c for c, _ in _asked(memory)]
    mine = "Bees are the best thing about the allotment."
    assert own.index(mine) == taught.index(mine) == len(own) - 1
    assert taught[0] == FACTS[2].split(": ", 1)[1]  # Ines's opinion, first among hers


def test_a_hybrid_recording_has_each_facts_cosine_with_the_question(workspace: Path) -> None:
    """In hybrid mode each recorded fact carries its cosine with the question's vector (the
    stand-in model's: a fact with more of the question's words is nearer); a lexical
    recording has none."""
    with Memory.open(workspace) as memory:
        memory.set_embedder(FakeEmbedder())
        memory.retain([ME, *FACTS], now=DAY)
        with learned.recording() as records:
            memory.recall("Ines bees allotment", now=LATER, mode="hybrid")
            memory.recall("Ines bees allotment", now=LATER, mode="lexical")
    hybrid, lexical = records
    cosine = dict(zip(hybrid.ids, (row.get("cos") for row in hybrid.rows), strict=True))
    assert all(isinstance(c, float) for c in cosine.values())
    kept = next(i for i, row in zip(hybrid.ids, hybrid.rows, strict=True)
                if row["kind:world"] and row["entity"])  # "Ines keeps bees on the allotment"
    assert cosine[kept] == max(cosine.values())
    assert not any("cos" in row for row in lexical.rows)


def test_a_conflict_is_marked_not_lifted_where_the_model_orders(
        workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the learned order ranks the best, the judge's open conflict no longer lifts its
    newer fact (on personal years the lift put news above the answer more often than it
    put a change there: docs/benchmarks.md, "Conflicts weighed by the learned order"): the
    older fact keeps the model's place and still says what may outdate it.  Recall's own
    order still lifts the newer."""
    question, now = "When are the kids' swimming lessons?", "2025-06-01T09:00:00"
    with Memory.open(workspace) as memory:
        [old] = memory.retain([ME, "W @me: The kids' swimming lessons are on Saturday "
                               "mornings at Fernhill pool."], date="2024-03-01",
                              now="2024-03-01T00:00:00").facts[1:]
        retained = memory.retain(["W @Fernhill-Pool: At Fernhill pool the kids' swimming"
                                  " lessons are on Sunday afternoons."],
                                 date="2025-03-01", now="2025-03-01T00:00:00")
        [new] = retained.facts
        assert [c.id for c in retained.conflicts] == [old.id]  # offered, not superseded
        # a model that wants the older fact first
        monkeypatch.setattr(learned_weights, "WEIGHTS", {"lexical": {"age": 10.0}})
        taught = memory.recall(question, now=now).hits
        with learned.ordering(False):
            own = memory.recall(question, now=now).hits
    assert [h.fact.id for h in taught][:2] == [old.id, new.id]
    assert taught[0].possibly_outdated_by == (new.id,)
    assert [h.fact.id for h in own][:2] == [new.id, old.id]
    assert own[1].possibly_outdated_by == (new.id,)
