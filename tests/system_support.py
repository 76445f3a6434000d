"""Tests that need something from outside Python (Chromium for the browser tests, PostgreSQL's
server for the server tests, the TypeScript MCP client): the README's test command installs
them first (tests/install-system-deps.sh), so a missing one is a broken setup, and the test
fails with one line saying how to get it — it never skips.
"""

from __future__ import annotations

from typing import NoReturn

import pytest

INSTALL = "sh tests/install-system-deps.sh installs it"


def missing(message: str) -> NoReturn:
    """Fail the test: a system package it needs is missing."""
    pytest.fail(f"{message} ({INSTALL})")
