"""Tests that need a system package (Chromium for the browser tests, PostgreSQL's server for
the server tests): without it they skip with one line that says how to get it, so the README's
test command passes on a fresh machine — except under CI=true (`.ci/run` sets it, after
installing both), where a missing package fails the run instead of hiding tests.
"""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def missing(message: str) -> NoReturn:
    """Skip the test (fail it under CI=true) because a system package is missing."""
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)
