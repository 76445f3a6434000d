"""No traceback from a parse worker on any signal: a Ctrl-C sent to the whole process group
(as a terminal sends it) while `memfold index --full` starts its workers ends the command with
one line and exit status 130; SIGTERM with 143."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import write

# Runs `memfold index --full` with parse workers for even a few files, and says on stdout
# when their pool starts (the moment a Ctrl-C used to meet workers still importing memfold).
SCRIPT = """
import signal
import sys
signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a terminal, even when the
# test runs in a background job, whose commands start with Ctrl-C ignored (SIG_IGN)
import memfold.index.sync as sync

class Announce(set):
    def add(self, item):
        super().add(item)
        print("pool", flush=True)

sync._LIVE_POOLS = Announce()
sync.PARALLEL_MIN_FILES, sync.JOB_FILES = 1, 1
from memfold.cli.main import main
sys.argv = ["memfold", "index", "--full"]
main()
"""


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups are POSIX")
@pytest.mark.parametrize(("sent", "status", "said"), [
    (signal.SIGINT, 130, "memfold: interrupted"), (signal.SIGTERM, 143, "memfold: terminated")])
def test_a_signal_to_the_process_group_prints_no_worker_traceback(
        workspace: Path, sent: signal.Signals, status: int, said: str) -> None:
    for day in range(1, 9):
        write(workspace, f"memory/2025-02-{day:02d}.md", f"## Retain\n- W @Ann: Fact {day}.\n")
    env = {**os.environ, "MEMFOLD_WORKSPACE": str(workspace), "MEMFOLD_WARM": "off"}
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == b"pool"
    time.sleep(0.2)  # the workers are starting: importing memfold, unpickling their job
    os.killpg(proc.pid, sent)
    _, err = proc.communicate(timeout=60)
    assert b"Traceback" not in err, err.decode()
    assert proc.returncode == status and said in err.decode()
