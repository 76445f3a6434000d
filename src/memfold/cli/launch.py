"""The `memfold` command's front door: a read goes to the warm process when one is running.

An agent runs `memfold recall` as a new process on every turn, and most of such a process's
time goes to importing memfold, not to answering.  The warm process (memfold.cli.warm_process) is a
memfold that has imported everything once and answers the read-only verbs (`warm_socket.WARM_VERBS`,
and `review` when it lists the queue) for any workspace of this user, each request exactly
as a new process would: a fresh `Memory.open`, the same change scan, the same output, stderr
and exit status.

This module is what the `memfold` console script runs.  It imports nothing but the standard
library's builtins and memfold.cli.warm_socket (no `typing`, `re`, `socket` or Click), finds
the warm process's socket, sends it the arguments, working directory and environment, and
prints its answer.  When no
warm process answers — none started, another user's directory, a different install of
memfold, `MEMFOLD_WARM=off`, a write verb, `--server` — the command runs here as it always
did.  With `MEMFOLD_WARM=auto` (the default) a read that ran here starts a warm process for
the next one, which exits after `MEMFOLD_WARM_IDLE` seconds without a request (600).
"""

from __future__ import annotations

import os
import sys

from memfold.cli.warm_socket import ask, eligible, make_private_dir, mode, socket_path, spawn


def main() -> None:
    """The `memfold` console script."""
    argv = sys.argv[1:]
    warm = eligible(argv)
    if warm:
        path = socket_path()
        answer = ask(argv, path)
        if answer is not None:
            code, out, err = answer
            try:
                sys.stdout.write(out)
                sys.stdout.flush()
            except BrokenPipeError:  # as the command does when it runs here (memfold.cli.main)
                from memfold.errors import BROKEN_PIPE, output_closed

                output_closed()
                code = BROKEN_PIPE
            sys.stderr.write(err)
            sys.stderr.flush()
            raise SystemExit(code)
    from memfold.cli.main import main as run_here  # no warm answer: the command runs here

    try:
        run_here()
    finally:
        if warm and mode() == "auto":
            _start_quietly(path)


def _start_quietly(path: str) -> None:
    """Start a warm process for the next read, unless the directory cannot be made private."""
    if make_private_dir(os.path.dirname(path)):
        try:  # noqa: SIM105 - contextlib is not imported on this path
            spawn(path)
        except OSError:
            pass
