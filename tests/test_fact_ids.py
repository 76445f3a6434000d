"""Fact ids as people and agents write them: `names.fact_id` is the one place that takes the
spaces and the block reference's `^` off, and every verb goes through it."""

from __future__ import annotations

import re
from pathlib import Path

import memfold
from memfold import names

SRC = Path(memfold.__file__).parent


def test_an_id_loses_its_spaces_and_caret() -> None:
    assert names.fact_id(" ^k3x9q2ma\n") == "k3x9q2ma"
    assert names.fact_id("k3x9q2ma") == "k3x9q2ma"
    assert names.fact_id("^^k3x9q2ma") == "k3x9q2ma"  # as lstrip("^") always did
    assert names.fact_id("  ") == ""


def test_no_module_spells_the_normalisation_itself() -> None:
    spelled = re.compile(r"\.strip\(\)\.lstrip\(\s*['\"]\^['\"]\s*\)")
    found = [f"{p.relative_to(SRC)}:{n}" for p in sorted(SRC.rglob("*.py"))
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if spelled.search(line) and p.name != "names.py"]
    assert found == []
