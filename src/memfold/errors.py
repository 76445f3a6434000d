"""The exceptions memfold raises, all of them, and the exit status each maps to at the CLI.

    MemfoldError                 exit 1  an operation could not be carried out
    ├── WorkspaceError           exit 1  the workspace is missing or unusable
    ├── StorageError             exit 1  a file write failed; nothing was changed (also OSError)
    │   └── IncompleteSet        exit 1  a staged page set half renamed; the next command ends it
    ├── IndexError_              exit 1  the derived index could not be used or repaired
    │   └── IndexDamaged         exit 1  a damaged page met while reading (recall rebuilds)
    ├── SourceChanged            exit 1  a fact's file changed since it was indexed (strict get)
    ├── EmbedUnavailable         exit 1  semantic recall asked for; the extra or model is missing
    ├── BadInput                 exit 2  the caller's input is invalid; nothing was written
    │   ├── UnknownId            exit 2  no fact or chunk has this id
    │   └── UnknownBank          exit 2  the server has no bank of this name for the token
    ├── StaleRevision            exit 3  a compare-and-set lost: the revision moved on
    ├── Unavailable              exit 4  the memory server or its database cannot answer now;
    │                                    retrying later is safe (nothing half-written stays)
    └── AccessDenied             exit 5  the server refused the token (missing, wrong, revoked,
                                         lacking the scope, or not for this bank)

Every class here is exported from `memfold`.

Four internal signals are not part of this tree and stay beside the code that raises them; none
reaches a caller of `Memory`, which turns each into a MemfoldError above:
`workspace.format.FactSyntaxError` and `times.parse.TimeSpecError` (ValueErrors, become BadInput),
`embed.models.ModelError` (becomes EmbedUnavailable) and `judge.JudgeError` (the fallback judge
catches it and judges by rules).

Every message is one line that says what went wrong and, where it helps, what to do next.
Adapters (the CLI, MCP, the memory server, the web view) translate these into their own error
shapes, each in one place.
"""

from __future__ import annotations

import os
import sys

BROKEN_PIPE = 141  # exit status: 128 + SIGPIPE, as a shell reports a writer whose reader left

# Every exit status the `memfold` command uses, with the words its help gives each: the one
# list `memfold --help` prints, and the README's list says the same (a test compares them).
EXIT_STATUSES: tuple[tuple[int, str], ...] = (
    (0, "ok"),
    (1, "operational error"),
    (2, "bad input or usage"),
    (3, "stale revision"),
    (4, "the memory server or its database unavailable (retry)"),
    (5, "access denied by the server (token missing, revoked, or without the scope or bank)"),
    (130, "interrupted (Ctrl-C)"),
    (BROKEN_PIPE, "output closed early (a reader such as `head` stopped)"),
    (143, "terminated (SIGTERM)"),
)


class MemfoldError(Exception):
    """Base class: an operation could not be carried out (exit status 1)."""

    exit_code = 1


class WorkspaceError(MemfoldError):
    """The workspace does not exist or cannot be used."""


class StorageError(MemfoldError, OSError):
    """A file write failed (disk full, I/O error, no permission); nothing was changed."""

    def __str__(self) -> str:
        return f"could not write {self.filename}: {self.strerror}"


class IncompleteSet(StorageError):
    """Renaming a staged set failed after its intent was durable: the files already renamed
    show the new bytes, and the next `finish_set` renames the rest."""

    def __str__(self) -> str:
        return (f"{super().__str__()}; the rest of the set is staged and the next memfold "
                "command completes it")


class IndexError_(MemfoldError):  # noqa: N801 - avoid shadowing the builtin IndexError
    """The derived index could not be opened, read, written or repaired; the backend raises
    this (never its driver's own errors), with the driver's error as its cause."""


class IndexDamaged(IndexError_):
    """A page of the index turned out damaged while a query read it."""


class SourceChanged(MemfoldError):
    """A fact's source file changed since it was indexed, and the caller asked to be told."""


class EmbedUnavailable(MemfoldError):
    """Semantic recall was asked for, but the extra or the model is missing or broken."""


class BadInput(MemfoldError):
    """The caller's input is invalid; nothing was written (exit status 2)."""

    exit_code = 2


class UnknownId(BadInput):
    """No fact or chunk has the requested id."""


class UnknownBank(BadInput):
    """The memory server has no bank of this name in the token's tenant (HTTP 404); another
    tenant's bank answers the same way."""


class StaleRevision(MemfoldError):
    """A compare-and-set update lost because the revision moved on (exit status 3)."""

    exit_code = 3

    def __init__(self, message: str, *, current: int) -> None:
        super().__init__(message)
        self.current = current


class Unavailable(MemfoldError):
    """The memory server, or the database behind it, cannot answer now; a retry may work.
    A write that raised this was not acknowledged; the server kept all or none of it."""

    exit_code = 4


class AccessDenied(MemfoldError):
    """The server refused the credential: none, unknown, revoked, without the scope the verb
    needs, or restricted to another bank (HTTP 401 or 403)."""

    exit_code = 5

    def __init__(self, message: str, *, status: int = 403) -> None:
        super().__init__(message)
        self.status = status


def output_closed() -> None:
    """stdout's reader is gone (`memfold recall x | head -1`): nothing more can be said
    there, so point stdout at /dev/null, which keeps the interpreter's last flush quiet."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


__all__ = ["AccessDenied", "BadInput", "EmbedUnavailable", "IncompleteSet", "IndexDamaged",
           "IndexError_", "MemfoldError", "SourceChanged", "StaleRevision", "StorageError",
           "Unavailable", "UnknownBank", "UnknownId", "WorkspaceError"]
