"""A question that names someone by their role and asks what they are ("What does my brother
do for a living?", "What does my partner do?") puts first the fact that says who the role is
("My brother Stuart runs a dairy farm near Gore"): the role word stands for the entity and
is no longer searched (`recall.roles`), so every fact of the entity matched alike and the
newest came first.  A question with a topic of its own ("Who is my brother engaged to?")
is weighed by that topic, as before."""

from __future__ import annotations

from pathlib import Path

from timeline import ids, retain, top

from memfold import Memory

NOW = "2025-12-31T09:00:00"


def test_what_a_relative_does_is_the_fact_that_names_the_role(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        told = retain(memory, "2025-01-05", "W @Stuart: My brother Stuart runs a dairy farm "
                                            "near Gore, milking about 400 cows.")
        retain(memory, "2025-04-20", "W @Stuart: Stuart and his wife Jo have three kids.")
        retain(memory, "2025-04-21", "W @Jo @Stuart: Jo, Stuart's wife, teaches at Gore "
                                     "High School.")
        assert top(memory.recall("What does my brother do for a living?", now=NOW)) == told


def test_a_partner_named_after_the_name(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        told = retain(memory, "2025-01-03", "W @Lachlan: Lachlan, my partner, lectures in "
                                            "geology at the University of Otago.")
        retain(memory, "2025-01-08", "W @Lachlan: Lachlan drives a Mitsubishi Outlander.")
        retain(memory, "2025-02-08", "W @Lachlan: Lachlan has no children.")
        assert top(memory.recall("What does my partner do?", now=NOW)) == told


def test_a_question_with_its_own_topic_is_weighed_by_it(workspace: Path) -> None:
    with Memory.open(workspace) as memory:
        told = retain(memory, "2025-01-05", "W @Nico: My brother Nico is a chef in Glasgow.")
        news = retain(memory, "2025-06-01", "B @Nico: Nico and Beatriz got engaged in Porto.")
        found = ids(memory.recall("Who is my brother engaged to?", now=NOW))
        assert found.index(news) < found.index(told)
