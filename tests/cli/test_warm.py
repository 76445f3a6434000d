"""The warm process (memfold.cli.warm_process, memfold.cli.launch): reads answered by a
resident memfold are byte for byte what a new process prints, writes never go there, and it
starts, stops and refuses as documented."""

from __future__ import annotations

import importlib.util
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from memfold.cli import warm_control, warm_socket
from memfold.cli import warm_process as warm
from memfold.memory import Memory

DAY = "2025-11-27"


def memfold(*args: str, env: dict[str, str], cwd: Path | None = None,
            stdin: str | None = None) -> tuple[int, str, str]:
    done = subprocess.run([sys.executable, "-m", "memfold", *args], capture_output=True,
                          text=True, env=env, cwd=cwd, input=stdin, timeout=120)
    return done.returncode, done.stdout, done.stderr


@pytest.fixture
def warm_dir(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "warm"
    folder.mkdir(mode=0o700)
    yield folder
    for sock in folder.glob("*.sock"):
        warm_control.stop(str(sock))


def env_for(warm_dir: Path, mode: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMFOLD_")}
    return {**env, "MEMFOLD_WARM_DIR": str(warm_dir), "MEMFOLD_WARM": mode,
            "MEMFOLD_WARM_IDLE": "60"}


def served(warm_dir: Path) -> int:
    found = warm_control.status(warm_socket.socket_path({"MEMFOLD_WARM_DIR": str(warm_dir)}))
    assert found.running
    return found.served


@pytest.fixture(scope="module")
def started(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One warm process for the tests that only use it."""
    folder = tmp_path_factory.mktemp("warm-shared")
    folder.chmod(0o700)
    path = warm_socket.socket_path({"MEMFOLD_WARM_DIR": str(folder)})
    found = warm_control.start(path, idle=120)
    assert found.running and found.pid
    yield folder
    warm_control.stop(path)


def seed(workspace: Path) -> None:
    daily = workspace / "memory" / f"{DAY}.md"
    daily.write_text(
        f"# {DAY}\n\n## Retain\n"
        "- W @Peter: Lives in Vienna and drinks green tea.\n"
        "- O(c=0.8) @Peter: Prefers short replies.\n"
        "- B @Anna: Met Peter at the Vienna office.\n",
        encoding="utf-8")
    with Memory.open(workspace) as memory:
        memory.index()  # so both answers start from the same index


@pytest.mark.parametrize("argv", [
    ["recall", "Vienna"],
    ["recall", "Vienna", "--json", "--k", "2"],
    ["recall", "nothing matches this"],
    ["recall", "Vienna", "--k", "many"],  # usage error: exit 2
    ["about", "Peter"],
    ["about", "Peter", "--json"],
    ["show", "^nosuchid"],  # unknown id
    ["status", "--json"],
    ["context"],
    ["history", "^nosuchid"],
    ["recall", "--help"],
    ["review"],
    ["review", "--json", "--entity", "Peter"],
])
def test_a_warm_answer_is_byte_for_byte_a_new_process_answer(
        workspace: Path, started: Path, argv: list[str]) -> None:
    seed(workspace)
    args = ["--workspace", str(workspace), "--as-of", "2025-11-28T09:00:00", *argv]
    here = memfold(*args, env=env_for(started, "off"))
    before = served(started)
    there = memfold(*args, env=env_for(started, "on"))
    assert served(started) == before + 1  # the warm process answered it
    assert there == here


def test_an_edit_is_seen_by_the_next_warm_read(workspace: Path, started: Path) -> None:
    seed(workspace)
    env = env_for(started, "on")
    args = ["--workspace", str(workspace), "recall", "marmalade"]
    assert "marmalade" not in memfold(*args, env=env)[1]
    with open(workspace / "memory" / f"{DAY}.md", "a", encoding="utf-8") as daily:
        daily.write("- W @Peter: Keeps orange marmalade in the office fridge.\n")
    code, out, _ = memfold(*args, env=env)
    assert code == 0 and "marmalade" in out and f"memory/{DAY}.md" in out
    assert (code, out) == memfold(*args, env=env_for(started, "off"))[:2]


def test_the_callers_directory_and_environment_are_used(workspace: Path, started: Path) -> None:
    seed(workspace)
    env = {**env_for(started, "on"), "MEMFOLD_WORKSPACE": "."}
    here = memfold("recall", "Vienna", env={**env, "MEMFOLD_WARM": "off"}, cwd=workspace)
    before = served(started)
    there = memfold("recall", "Vienna", env=env, cwd=workspace)
    assert served(started) == before + 1
    assert there == here and "Vienna" in there[1]
    elsewhere = memfold("recall", "Vienna", env=env, cwd=workspace.parent)
    assert elsewhere[0] == 1 and "no memfold workspace" in elsewhere[2]


def test_writes_and_server_commands_never_go_to_the_warm_process(
        workspace: Path, started: Path) -> None:
    env = env_for(started, "on")
    before = served(started)
    code, out, _ = memfold("--workspace", str(workspace), "retain",
                           "W @Peter: Moved to Graz.", env=env)
    assert code == 0
    assert memfold("--workspace", str(workspace), "index", env=env)[0] == 0
    assert memfold("--workspace", str(workspace), "review", "reject", "--rule", "value",
                   env=env)[0] == 0
    code, _, err = memfold("--server", "http://127.0.0.1:9", "recall", "x", env=env)
    assert code != 0
    assert served(started) == before
    assert "Graz" in memfold("--workspace", str(workspace), "recall", "Graz", env=env)[1]
    assert served(started) == before + 1


def test_auto_starts_one_for_the_next_read_and_off_never_does(workspace: Path,
                                                              warm_dir: Path) -> None:
    seed(workspace)
    args = ["--workspace", str(workspace), "recall", "Vienna"]
    path = warm_socket.socket_path({"MEMFOLD_WARM_DIR": str(warm_dir)})
    assert memfold(*args, env=env_for(warm_dir, "off"))[0] == 0
    assert memfold(*args, env=env_for(warm_dir, "on"))[0] == 0
    time.sleep(0.5)
    assert not warm_control.status(path).running  # off and on never start one
    assert memfold(*args, env=env_for(warm_dir, "auto"))[0] == 0
    deadline = time.monotonic() + 30
    while not warm_control.status(path).running and time.monotonic() < deadline:
        time.sleep(0.05)
    assert warm_control.status(path).running
    assert memfold(*args, env=env_for(warm_dir, "auto"))[0] == 0
    assert served(warm_dir) == 1


def test_a_directory_others_may_enter_is_never_used(workspace: Path, tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o755)
    shared.chmod(0o755)
    env = env_for(shared, "auto")
    code, out, err = memfold("--workspace", str(workspace), "recall", "x", env=env)
    assert code == 0
    time.sleep(0.3)
    assert not list(shared.iterdir())  # nothing started, no socket made
    code, _, err = memfold("warm", "start", env=env)
    assert code == 1 and err.startswith("memfold: error: ") and "0700" in err
    assert len(err.strip().splitlines()) == 1


def test_idle_stop_and_sigterm_remove_the_socket(warm_dir: Path) -> None:
    path = warm_socket.socket_path({"MEMFOLD_WARM_DIR": str(warm_dir)})
    first = warm_control.start(path, idle=1)
    deadline = time.monotonic() + 20
    while warm_control.status(path).running and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not warm_control.status(path).running and not os.path.exists(path)
    second = warm_control.start(path, idle=60)
    assert second.pid != first.pid
    assert second.pid is not None
    os.kill(second.pid, signal.SIGTERM)
    deadline = time.monotonic() + 10
    while os.path.exists(path) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not os.path.exists(path)
    assert warm_control.start(path, idle=60).running
    assert warm_control.stop(path).running and not warm_control.status(path).running


def test_a_killed_warm_process_leaves_a_socket_that_is_ignored_then_replaced(
        workspace: Path, warm_dir: Path) -> None:
    seed(workspace)
    path = warm_socket.socket_path({"MEMFOLD_WARM_DIR": str(warm_dir)})
    pid = warm_control.start(path, idle=60).pid
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    time.sleep(0.2)
    assert os.path.exists(path)  # left behind
    code, out, _ = memfold("--workspace", str(workspace), "recall", "Vienna",
                           env=env_for(warm_dir, "on"))
    assert code == 0 and "Vienna" in out
    assert warm_control.start(path, idle=60).pid != pid


def test_the_warm_cli_reports_in_text_and_json(warm_dir: Path) -> None:
    env = env_for(warm_dir, "auto")
    assert memfold("warm", "status", env=env)[1].startswith("no warm process")
    code, out, _ = memfold("warm", "start", "--json", env=env)
    assert code == 0 and '"running": true' in out
    code, out, _ = memfold("warm", "status", env=env)
    assert code == 0 and "0 reads served" in out
    code, out, _ = memfold("warm", "stop", env=env)
    assert code == 0 and out.startswith("stopped warm process")
    assert memfold("warm", "stop", env=env)[1] == "no warm process was running\n"


@pytest.mark.parametrize(("argv", "verb"), [
    (["recall", "x"], "recall"),
    (["-w", "ws", "about", "Peter"], "about"),
    (["--workspace=ws", "--as-of", "2025-01-01", "show", "^a"], "show"),
    (["-wws", "status"], "status"),
    (["--help"], None),
    (["--version", "recall"], None),
    ([], None),
    (["--workspace", "recall"], None),  # "recall" is the workspace's name here
])
def test_the_verb_is_read_past_the_global_options(argv: list[str], verb: str | None) -> None:
    assert warm_socket.verb_of(argv) == verb


def test_only_reads_without_a_server_are_eligible() -> None:
    assert warm_socket.eligible(["recall", "x"], {})
    assert not warm_socket.eligible(["retain", "W x"], {})
    assert not warm_socket.eligible(["recall", "x"], {"MEMFOLD_WARM": "off"})
    assert not warm_socket.eligible(["recall", "x"], {"MEMFOLD_SERVER": "http://h"})
    assert not warm_socket.eligible(["--server", "http://h", "recall", "x"], {})
    assert not warm_socket.eligible(["--server=http://h", "recall", "x"], {})
    assert warm_socket.mode({"MEMFOLD_WARM": "bogus"}) == "auto"


@pytest.mark.parametrize(("argv", "served"), [
    (["review"], True),
    (["review", "--json", "--entity", "accept", "--rule", "value", "--since", "30d"], True),
    (["--workspace", "review", "review", "--limit", "5"], True),
    (["review", "accept", "12"], False),  # writes
    (["review", "--entity", "Kenji", "reject", "--rule", "value"], False),
    (["review", "reject", "--dry-run"], False),
    (["--server", "http://h", "review"], False),
])
def test_review_is_served_warm_only_when_it_lists(argv: list[str], served: bool) -> None:
    assert warm_socket.eligible(argv, {}) is served


# -- the change feeds the warm process keeps across reads --------------------------------------


def refreshed(workspace: Path, feeds: warm.ChangeFeeds) -> tuple[int, list[str]]:
    """(files scanned, contents recalled for "tea") through a fresh Memory on the kept feed."""
    with Memory.open(workspace, watcher=feeds(str(workspace))) as memory:
        scanned = memory.refresh().scanned
        return scanned, [h.fact.content for h in memory.recall("tea").hits]


def test_a_kept_feed_scans_once_then_only_what_changed(workspace: Path) -> None:
    seed(workspace)
    feeds = warm.ChangeFeeds()
    try:
        first, hits = refreshed(workspace, feeds)
        assert first > 0 and hits == ["Lives in Vienna and drinks green tea."]
        assert refreshed(workspace, feeds)[0] == 0  # nothing changed: nothing stat'ed
        (workspace / "memory" / "2025-11-20.md").write_text(
            "# 2025-11-20\n\n## Retain\n- W @Anna: Drinks mint tea at night.\n",
            encoding="utf-8")
        scanned, hits = refreshed(workspace, feeds)
        assert scanned == 1 and "Drinks mint tea at night." in hits  # the new file alone
        (workspace / "memory" / "2025-11-20.md").unlink()
        assert refreshed(workspace, feeds)[1] == ["Lives in Vienna and drinks green tea."]
    finally:
        feeds.close()


def test_a_kept_feed_scans_again_when_the_index_is_replaced_or_a_folder_appears(
        workspace: Path) -> None:
    seed(workspace)
    feeds = warm.ChangeFeeds()
    try:
        refreshed(workspace, feeds)
        for leftover in (workspace / ".memory").glob("index.sqlite*"):
            leftover.unlink()  # a new, empty index: the feed's changes went into the old one
        scanned, hits = refreshed(workspace, feeds)
        assert scanned > 0 and hits == ["Lives in Vienna and drinks green tea."]
        assert refreshed(workspace, feeds)[0] == 0
        archive = workspace / "memory" / "archive"
        archive.mkdir()
        (archive / "2024-01-02.md").write_text(
            "# 2024-01-02\n\n## Retain\n- W @Omar: Brews oolong tea.\n", encoding="utf-8")
        scanned, hits = refreshed(workspace, feeds)
        assert scanned > 0 and "Brews oolong tea." in hits
    finally:
        feeds.close()


def test_a_kept_feed_takes_another_process_s_write_without_a_scan(workspace: Path) -> None:
    """A retain in another process syncs the index itself: the feed saw the file it wrote,
    so the next read syncs that file alone; an older copy of the index put back is another
    state than the one the feed last synced, so that read scans everything."""
    seed(workspace)
    feeds = warm.ChangeFeeds()
    try:
        refreshed(workspace, feeds)
        index = workspace / ".memory" / "index.sqlite"
        older = index.read_bytes()
        with Memory.open(workspace, watch=False) as writer:  # as a `memfold retain` process
            writer.retain(["W @Anna: Drinks jasmine tea on Fridays."], date=DAY)
        scanned, hits = refreshed(workspace, feeds)
        assert scanned == 1 and "Drinks jasmine tea on Fridays." in hits
        assert refreshed(workspace, feeds)[0] == 0
        with Memory.open(workspace, watch=False) as writer:
            writer.index()  # checkpoint the WAL into the file, so the copy below is whole
        index.write_bytes(older)  # an older copy of the same index, put back in place
        for side in (workspace / ".memory").glob("index.sqlite-*"):
            side.unlink()
        scanned, hits = refreshed(workspace, feeds)
        assert scanned > 1 and "Drinks jasmine tea on Fridays." in hits
    finally:
        feeds.close()


def test_feeds_past_the_limit_are_closed(tmp_path: Path) -> None:
    feeds = warm.ChangeFeeds(limit=2)
    roots = []
    for n in range(3):
        root = tmp_path / f"ws{n}"
        Memory.init(root)
        roots.append(root)
    try:
        first = feeds(str(roots[0]))
        assert first is not None
        feeds(str(roots[1]))
        assert feeds(str(roots[0])) is first  # kept, and now the most recent
        feeds(str(roots[2]))  # closes ws1's, the least recently used
        assert len(feeds.feeds) == 2 and first.active
        assert feeds(str(tmp_path / "nowhere")) is None
    finally:
        feeds.close()


@pytest.mark.parametrize("mode", ["off", "on"])
def test_a_reader_that_is_gone_gets_exit_141_and_no_error(
        workspace: Path, started: Path, mode: str) -> None:
    seed(workspace)
    read_end, write_end = os.pipe()
    os.close(read_end)  # as `| head -1` is once it has its line
    try:
        done = subprocess.run(
            [sys.executable, "-m", "memfold", "--workspace", str(workspace), "recall", "tea"],
            stdout=write_end, stderr=subprocess.PIPE, env=env_for(started, mode), timeout=60)
    finally:
        os.close(write_end)
    assert done.returncode == 141
    assert "error" not in done.stderr.decode() and "Traceback" not in done.stderr.decode()


def test_an_edit_anywhere_in_memfold_changes_the_code_key(tmp_path: Path) -> None:
    """A warm process answers only callers with its code key: an edit to any module of
    memfold, not only to the command's own package, must change it."""
    copy = tmp_path / "memfold"
    shutil.copytree(Path(warm_socket.__file__).parents[1], copy,
                    ignore=shutil.ignore_patterns("__pycache__", "data", "static", "templates"))
    spec = importlib.util.spec_from_file_location("warm_socket_copy",
                                                  copy / "cli" / "warm_socket.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    before = module.code_key()
    edited = copy / "recall" / "ranking.py"
    later = edited.stat().st_mtime_ns + 10**9 * 3600
    for path in copy.rglob("*.py"):
        later = max(later, path.stat().st_mtime_ns + 10**9)
    os.utime(edited, ns=(later, later))
    assert module.code_key() != before
