"""The replica trials compare recall answers exactly, but for the last bits of a score."""

from __future__ import annotations

from memfold_bench.server_trials import same_within, where_differ


def answer(*scored: tuple[str, float]) -> dict[str, object]:
    return {"results": [{"id": fact, "score": score} for fact, score in scored]}


def test_scores_a_float_apart_compare_equal_and_nothing_else_is_forgiven() -> None:
    one = answer(("a", 0.8123), ("b", 0.599))
    close = answer(("a", 0.8123), ("b", 0.5989))
    same_within(one, close)
    assert where_differ(one, close) is None

    far = answer(("a", 0.8123), ("b", 0.59))  # a score that moved: a difference
    same_within(one, far)
    assert where_differ(one, far) is not None

    reordered = answer(("b", 0.8123), ("a", 0.599))  # other facts at those places
    same_within(one, reordered)
    assert where_differ(one, reordered) is not None
