"""A bank's turns on one replica: reads side by side, a write (or a catch-up) alone."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager


class Turns:
    """A bank's turns on this replica: any number of reads at once, or one write (or catch-up)
    alone; a waiting write goes before reads that come after it."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._reading = 0
        self._writing = False
        self._waiting = 0

    @contextmanager
    def shared(self) -> Iterator[None]:
        with self._cond:
            while self._writing or self._waiting:
                self._cond.wait()
            self._reading += 1
        try:
            yield
        finally:
            with self._cond:
                self._reading -= 1
                if not self._reading:
                    self._cond.notify_all()

    @contextmanager
    def exclusive(self) -> Iterator[None]:
        with self._cond:
            self._waiting += 1
            while self._writing or self._reading:
                self._cond.wait()
            self._waiting -= 1
            self._writing = True
        try:
            yield
        finally:
            with self._cond:
                self._writing = False
                self._cond.notify_all()
