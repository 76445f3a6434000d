"""What a supersede judge is: the interface every judge implements, and its verdicts.

A judge reads one newer fact beside older *state* facts (world, opinion, observation) that
share an entity with it, and says for each older fact it weighed either that the newer one
replaces it (`supersedes=True`: the ledger journals a supersede event with the judge's name
and reason) or that the two conflict but the older one stays active (`supersedes=False`:
reported to the caller as a conflict to confirm, nothing journaled).  Older facts it says
nothing about are unrelated.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from memfold.values import Fact


@dataclass(frozen=True)
class Verdict:
    """The judge's word on one older fact."""

    id: str  # the older fact
    supersedes: bool  # True: replaced; False: a conflict left active for the caller
    reason: str
    # a change the judge could not read for sure, offered for review (`judge.offers`, and the
    # embedder's reading of one slot): never taken, and recall weighs it as no change
    offer: bool = False


class Judge(Protocol):
    """Decides which older facts a new fact replaces (and which it only conflicts with)."""

    name: str

    def weigh(self, new: Fact, older: Sequence[Fact]) -> list[Verdict]: ...
