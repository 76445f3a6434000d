"""The web view over plain HTTP (Starlette's TestClient): the gate (loopback Host, one-time
sign-in link, session cookie, CSRF), escaping, and the actions — each writing the journal
line the CLI writes, and refusing what the CLI refuses with the CLI's message."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from memfold import Memory
from memfold.cli.main import cli
from memfold.web.app import create_app
from web_corpus import HOSTILE, NOW, Planted, plant

TOKEN = "one-time-token-for-tests"
BASE = "http://127.0.0.1"


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Planted]:
    root = tmp_path_factory.mktemp("web-template") / "ws"
    Memory.init(root)
    return root, plant(root)


@pytest.fixture
def ws(template: tuple[Path, Planted], tmp_path: Path) -> Path:
    """A fresh copy of the planted workspace for each test."""
    root = tmp_path / "ws"
    shutil.copytree(template[0], root)
    return root


@pytest.fixture
def ids(template: tuple[Path, Planted]) -> Planted:
    return template[1]


def app_for(root: Path) -> object:
    return create_app(lambda: Memory.open(root, now=NOW), token=TOKEN)


@pytest.fixture
def anonymous(ws: Path) -> Iterator[TestClient]:
    with TestClient(app_for(ws), base_url=BASE, follow_redirects=False) as client:
        yield client


@pytest.fixture
def client(anonymous: TestClient) -> TestClient:
    assert anonymous.get(f"/search?token={TOKEN}").status_code == 303
    return anonymous


def csrf_of(page: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found, "the page has no form with a CSRF token"
    return found.group(1)


def error_line(page: str) -> str:
    """The error a page shows, as text."""
    found = re.search(r'<p class="error" role="alert">(.*?)</p>', page, re.S)
    assert found, "the page shows no error"
    return html.unescape(found.group(1))


def journal(root: Path) -> list[str]:
    return (root / "journal.jsonl").read_text().splitlines()


def cli_run(root: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["--workspace", str(root), "--as-of", NOW, *args])
    return result.exit_code, result.stdout, result.stderr


def post(client: TestClient, path: str, form: dict[str, str],
         page: str = "/lifecycle") -> httpx.Response:
    token = csrf_of(client.get(page).text)
    return client.post(path, data={"csrf": token, **form})


# -- the gate --------------------------------------------------------------------------------


def test_every_page_needs_the_session_from_the_one_time_link(anonymous: TestClient) -> None:
    for path in ("/search", "/timeline", "/entity", "/opinions", "/lifecycle", "/health",
                 "/fact/berlin01", "/file?path=memory.md", "/static/style.css"):
        response = anonymous.get(path)
        assert response.status_code == 401, path
        assert "memfold ui" in response.text
    assert anonymous.get("/search?token=wrong").status_code == 403
    signed_in = anonymous.get(f"/timeline?since=1y&token={TOKEN}")
    assert signed_in.status_code == 303
    assert signed_in.headers["location"] == "/timeline?since=1y"  # the token leaves the URL
    cookie = signed_in.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and "path=/" in cookie
    assert anonymous.get("/timeline?since=1y").status_code == 200
    # the link works once: a second browser presenting it gets nothing
    with TestClient(anonymous.app, base_url=BASE, follow_redirects=False) as other:
        assert other.get(f"/search?token={TOKEN}").status_code == 403
        assert other.get("/search").status_code == 401


def test_a_host_other_than_loopback_is_refused(client: TestClient) -> None:
    assert client.get("/search").status_code == 200
    for host in ("evil.example", "evil.example:80", "192.168.1.5", "127.0.0.1.evil.example"):
        response = client.get("/search", headers={"host": host})
        assert response.status_code == 403, host
    assert client.get("/search", headers={"host": "localhost:8765"}).status_code == 200
    assert client.get("/search", headers={"host": "[::1]:8765"}).status_code == 200


def test_pages_forbid_other_origins_framing_and_caching(client: TestClient) -> None:
    headers = client.get("/search").headers
    assert "default-src 'none'" in headers["content-security-policy"]
    assert "script-src 'self'" in headers["content-security-policy"]
    assert headers["x-frame-options"] == "DENY"
    assert headers["referrer-policy"] == "no-referrer"
    assert headers["cache-control"] == "no-store"
    assert client.get("/static/app.js").status_code == 200


def test_a_write_without_the_csrf_token_changes_nothing(client: TestClient, ws: Path,
                                                        ids: Planted) -> None:
    before = journal(ws)
    form = {"id": ids.vienna, "next": "/lifecycle"}
    assert client.post("/act/restore", data=form).status_code == 403
    assert client.post("/act/restore", data={**form, "csrf": "guess"}).status_code == 403
    good = csrf_of(client.get("/lifecycle").text)
    refused = client.post("/act/restore", data={**form, "csrf": good},
                          headers={"origin": "http://evil.example"})
    assert refused.status_code == 403 and "another origin" in refused.text
    cross = client.post("/act/restore", data={**form, "csrf": good},
                        headers={"sec-fetch-site": "cross-site"})
    assert cross.status_code == 403
    assert journal(ws) == before
    done = client.post("/act/restore", data={**form, "csrf": good},
                       headers={"origin": BASE, "sec-fetch-site": "same-origin"})
    assert done.status_code == 303
    assert json.loads(journal(ws)[-1])["event"] == "restore"


def test_next_never_leaves_the_app(client: TestClient, ids: Planted) -> None:
    response = post(client, "/act/use", {"id": ids.fading, "next": "//evil.example/x"})
    assert response.status_code == 303 and response.headers["location"] == "/lifecycle"


# -- escaping --------------------------------------------------------------------------------


def test_fact_text_is_escaped_and_hidden_characters_revealed(client: TestClient,
                                                             ids: Planted) -> None:
    pages = [client.get("/search?q=ledger").text, client.get(f"/fact/{ids.hostile}").text,
             client.get("/timeline?since=1y&day=2025-11-25").text,
             client.get("/entity?name=Mallory").text,
             client.get("/file?path=memory/2025-11-25.md").text]
    for page in pages:
        assert "<script>window" not in page
        assert "\u202e" not in page
        assert "&lt;script&gt;window.__pwned = 1&lt;/script&gt; a⟦U+202E⟧b" in page
    for page in pages[:4]:
        assert "hidden: bidi" in page  # flagged where a fact is shown as a fact
    assert re.findall(r"<script[^>]*>", pages[0]) == ['<script src="/static/app.js" defer>']
    assert HOSTILE not in html.unescape(pages[0])


# -- actions: the CLI's journal lines, the CLI's refusals ----------------------------------


def last_event(root: Path) -> dict[str, object]:
    event = json.loads(journal(root)[-1])
    return {k: v for k, v in event.items() if k not in ("hash", "prev")}


@pytest.mark.parametrize(("action", "form", "cli_args"), [
    ("restore", {"id": "vienna01"}, ["restore", "vienna01"]),
    ("supersede", {"old": "greentea", "new": "coffee01", "reason": "switched"},
     ["supersede", "greentea", "coffee01", "--reason", "switched"]),
    ("supersede", {"old": "greentea", "new": "coffee01", "reason": ""},
     ["supersede", "greentea", "coffee01"]),
    ("note", {"id": "berlin01", "rev": "0", "text": "checked with Peter"},
     ["note", "berlin01", "--rev", "0", "checked with Peter"]),
    ("use", {"id": "baileys1"}, ["use", "baileys1"]),
    ("forget", {"id": "baileys1"}, ["forget", "baileys1"]),
])
def test_an_action_journals_what_the_cli_journals(client: TestClient, ws: Path,
                                                  tmp_path: Path, action: str,
                                                  form: dict[str, str],
                                                  cli_args: list[str]) -> None:
    twin = tmp_path / "twin"
    shutil.copytree(ws, twin)
    code, out, _ = cli_run(twin, *cli_args)
    assert code == 0
    response = post(client, f"/act/{action}", {**form, "next": "/lifecycle"})
    assert response.status_code == 303
    assert last_event(ws) == last_event(twin)
    assert len(journal(ws)) == len(journal(twin))
    message = client.get("/lifecycle").text
    if out.strip():
        assert html.escape(out.strip(), quote=False) in message  # the CLI's words
    assert "flash ok" in message


@pytest.mark.parametrize(("action", "form", "cli_args"), [
    ("supersede", {"old": "vienna01", "new": "nosuchid"},
     ["supersede", "vienna01", "nosuchid"]),
    ("supersede", {"old": "berlin01", "new": "berlin01"}, ["supersede", "berlin01", "berlin01"]),
    ("supersede", {"old": "berlin01", "new": "vienna01"}, ["supersede", "berlin01", "vienna01"]),
    ("restore", {"id": "nosuchid"}, ["restore", "nosuchid"]),
    ("note", {"id": "berlin01", "rev": "-1", "text": "x"},
     ["note", "berlin01", "--rev", "-1", "x"]),
    ("forget", {"id": "nosuchid"}, ["forget", "nosuchid"]),
])
def test_a_refused_action_says_what_the_cli_says(client: TestClient, ws: Path, action: str,
                                                 form: dict[str, str],
                                                 cli_args: list[str]) -> None:
    before = journal(ws)
    code, _, err = cli_run(ws, *cli_args)
    assert code == 2 and err.startswith("memfold: error: ")
    response = post(client, f"/act/{action}", {**form, "next": "/lifecycle"})
    assert response.status_code in (400, 404)
    assert error_line(response.text) == err.strip()
    assert journal(ws) == before


def test_a_stale_note_form_is_refused_and_writes_nothing(client: TestClient, ws: Path) -> None:
    page = client.get("/fact/berlin01").text
    assert 'name="rev" value="0"' in page
    with Memory.open(ws, now=NOW) as memory:
        memory.note("berlin01", "written elsewhere meanwhile", rev=0)
    before = journal(ws)
    response = client.post("/act/note", data={"csrf": csrf_of(page), "id": "berlin01",
                                               "rev": "0", "text": "from the old form",
                                               "next": "/fact/berlin01"})
    assert response.status_code == 409
    assert "stale (current revision 1)" in response.text
    assert journal(ws) == before
    assert cli_run(ws, "note", "berlin01", "--rev", "0", "x")[1].strip() == \
        "stale (current revision 1)"  # the CLI's words for the same refusal
    assert "written elsewhere meanwhile" in client.get("/fact/berlin01").text


def test_a_purge_lists_every_place_and_needs_the_id_typed(client: TestClient, ws: Path) -> None:
    log = ws / "memory/2025-11-25.md"
    before = log.read_bytes()
    asked = post(client, "/act/forget", {"id": "mallory1", "purge": "1", "next": "/lifecycle"})
    assert asked.status_code == 200
    assert "memory/2025-11-25.md:6" in asked.text and 'name="confirm"' in asked.text
    assert log.read_bytes() == before
    wrong = client.post("/act/forget", data={"csrf": csrf_of(asked.text), "id": "mallory1",
                                              "purge": "1", "confirm": "berlin01"})
    assert wrong.status_code == 400 and "to confirm the purge" in wrong.text
    assert log.read_bytes() == before
    done = client.post("/act/forget", data={"csrf": csrf_of(asked.text), "id": "mallory1",
                                             "purge": "1", "confirm": "mallory1",
                                             "next": "/lifecycle"})
    assert done.status_code == 303
    assert b"ledger" not in log.read_bytes()
    assert "purged mallory1 from memory/2025-11-25.md" in client.get("/lifecycle").text


# -- reads that the library refuses -----------------------------------------------------------


def test_pages_show_library_errors_as_the_cli_prints_them(client: TestClient, ws: Path) -> None:
    code, _, err = cli_run(ws, "recall", "tea", "--since", "someday")
    assert code == 2
    page = client.get("/search?q=tea&since=someday")
    assert page.status_code == 400 and error_line(page.text) == err.strip()
    missing = client.get("/fact/nosuchid")
    assert missing.status_code == 404 and "no fact with id" in missing.text
    for path in ("../../etc/passwd", "journal.jsonl", ".memory/index.sqlite"):
        refused = client.get("/file", params={"path": path})
        assert refused.status_code == 400 and "is not a file memfold reads" in refused.text


def test_health_shows_freshness_before_any_page_syncs(client: TestClient, ws: Path) -> None:
    (ws / "memory/2025-11-26.md").write_text("# 2025-11-26\n\n## Retain\n- W: Hand written.\n")
    page = client.get("/health").text
    assert "1 files changed since the last sync (1 new" in page
    assert "the hash chain holds" in page
    assert "would write (dry run)" in page


# -- the command ------------------------------------------------------------------------------


def test_ui_without_the_web_extra_says_how_to_install_it(
        ws: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "starlette", None)  # as if not installed
    result = CliRunner().invoke(cli, ["--workspace", str(ws), "ui", "--no-open"])
    assert result.exit_code == 1
    assert result.stderr == ("memfold: error: memfold ui needs the web extra: "
                             "pip install 'memfold[web]'\n")


def test_ui_serves_loopback_behind_a_one_time_link(ws: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "memfold", "--workspace", str(ws), "--as-of", NOW, "ui",
         "--no-open", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    try:
        assert process.stdout is not None
        link = process.stdout.readline().strip()
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/\?token=[\w-]{40,}", link), link
        with httpx.Client(follow_redirects=True, timeout=30) as browser:
            page = browser.get(link)
            assert page.status_code == 200 and "Search" in page.text
            assert browser.get(link.split("?")[0] + "lifecycle").status_code == 200
        with httpx.Client(timeout=30) as stranger:
            assert stranger.get(link).status_code == 403  # used once already
    finally:
        process.terminate()
        process.wait(timeout=30)
