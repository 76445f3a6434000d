"""A judge made safe to depend on: FallbackJudge asks a primary judge (a model behind the
network, say) and, when that fails, asks a fallback (the rule judge) for the same fact, and
leaves the caller a one-line notice.  A retain never fails because of a judge, and a judge
that is down or slow is skipped for a while rather than waited on for every fact.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from memfold.lifecycle.judge.base import Judge, Verdict
from memfold.values import Fact

COOLDOWN_SECONDS = 60.0


class JudgeError(Exception):
    """A judge could not give verdicts for one fact.

    `lasting`: the trouble is likely to last (the server is down, slow or failing, or
    refuses the key), so asking again for the next fact would only wait again.
    """

    def __init__(self, message: str, *, lasting: bool = False) -> None:
        super().__init__(message)
        self.lasting = lasting


class FallbackJudge:
    """Weighs with `primary`; on any failure, with `fallback` for that fact.

    `name` is the name of the judge that gave the latest verdicts, so the ledger journals
    a supersede under the judge that actually decided it.  After a lasting failure the
    primary is skipped for `cooldown` seconds (by `clock`, a monotonic clock by default).
    Each distinct notice is given once, through `notify`.
    """

    def __init__(self, primary: Judge, fallback: Judge, *,
                 notify: Callable[[str], None] | None = None,
                 cooldown: float = COOLDOWN_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.primary = primary
        self.fallback = fallback
        self.name = primary.name
        self._notify = notify
        self._cooldown = cooldown
        self._clock = clock
        self._resume_at: float | None = None
        self._said: set[str] = set()

    def weigh(self, new: Fact, older: Sequence[Fact]) -> list[Verdict]:
        if self._resume_at is None or self._clock() >= self._resume_at:
            try:
                verdicts = self.primary.weigh(new, older)
            except JudgeError as exc:
                self._failed(str(exc), lasting=exc.lasting)
            except Exception as exc:  # a judge's bug must not lose a retain either
                self._failed(f"{type(exc).__name__}: {exc}", lasting=False)
            else:
                self._resume_at = None
                self.name = self.primary.name
                return verdicts
        self.name = self.fallback.name
        return self.fallback.weigh(new, older)

    def _failed(self, reason: str, *, lasting: bool) -> None:
        if lasting:
            self._resume_at = self._clock() + self._cooldown
        notice = (f"judge {self.primary.name} unavailable ({' '.join(reason.split())}); "
                  f"used the {self.fallback.name} judge")
        if notice not in self._said:
            self._said.add(notice)
            if self._notify is not None:
                self._notify(notice)
