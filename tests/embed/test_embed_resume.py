"""An interrupted first embedding resumes where it stopped: the vector store logs every
chunk it appends, and the next update sends the model only the texts nobody saved — killed
with an exception, or with SIGKILL in another process — and ends with the vectors of an
uninterrupted run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from memfold.embed import store as store_module
from memfold.embed.base import FakeEmbedder
from memfold.embed.store import VectorStore

CHUNK = 8  # small chunks keep the test fast; the store's logic is the same
FACTS = 60


def words(n: int) -> str:
    """Texts of many lengths, so the length ordering matters."""
    vocab = ["alpha", "beta", "gamma", "delta", "omega", "kappa", "sigma", "tau", "rho"]
    return " ".join(vocab[(n * k) % len(vocab)] for k in range(1, 2 + n % 11)) + f" {n}"


class Facts:
    """What the store reads from an index (`FactSource`)."""

    def __init__(self, count: int = FACTS) -> None:
        self.texts = [(n + 1, words(n)) for n in range(count)]

    def fact_texts(self) -> list[tuple[int, str]]:
        return self.texts

    def facts_signature(self) -> str:
        return f"{len(self.texts)} facts"


class Counting(FakeEmbedder):
    """Records every text sent to the model; raises once `fail_after` texts were embedded."""

    def __init__(self, fail_after: int | None = None) -> None:
        super().__init__(dims=32)
        self.sent: list[str] = []
        self.fail_after = fail_after

    def embed(self, texts: Sequence[str]) -> np.ndarray:  # type: ignore[type-arg]
        if self.fail_after is not None and len(self.sent) + len(texts) > self.fail_after:
            raise RuntimeError("interrupted")
        self.sent.extend(texts)
        return super().embed(texts)


def vectors_by_fact(folder: Path) -> dict[int, bytes]:
    snap = VectorStore(folder).snapshot()
    assert snap is not None
    rows = snap.rows_of([rowid for rowid, _ in Facts().fact_texts()])
    return {rowid: np.asarray(snap.matrix[row]).tobytes() for rowid, row in rows.items()}


@pytest.fixture(autouse=True)
def _small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store_module, "CHUNK", CHUNK)


def test_an_interrupted_update_embeds_only_the_rest(tmp_path: Path) -> None:
    whole = Counting()
    assert VectorStore(tmp_path / "whole").update(Facts(), whole) == FACTS
    assert len(whole.sent) == FACTS

    first = Counting(fail_after=3 * CHUNK + 5)  # dies inside the fourth chunk
    store = VectorStore(tmp_path / "cut")
    with pytest.raises(RuntimeError, match="interrupted"):
        store.update(Facts(), first)
    assert len(first.sent) == 3 * CHUNK
    second = Counting()
    assert store.update(Facts(), second) == FACTS - 3 * CHUNK
    assert len(second.sent) == FACTS - 3 * CHUNK
    assert sorted(first.sent + second.sent) == sorted(whole.sent)  # nothing embedded twice
    assert vectors_by_fact(tmp_path / "cut") == vectors_by_fact(tmp_path / "whole")
    assert not list((tmp_path / "cut").glob("resume-*"))  # a finished update leaves no resume log
    third = Counting()
    assert store.update(Facts(), third) == 0 and third.sent == []


def test_twice_interrupted_and_a_changed_index_between(tmp_path: Path) -> None:
    store = VectorStore(tmp_path / "vectors")
    with pytest.raises(RuntimeError):
        store.update(Facts(40), Counting(fail_after=2 * CHUNK))
    with pytest.raises(RuntimeError):
        store.update(Facts(50), Counting(fail_after=2 * CHUNK + 3))
    last = Counting()
    assert store.update(Facts(), last) == FACTS - 4 * CHUNK
    VectorStore(tmp_path / "whole").update(Facts(), Counting())
    assert vectors_by_fact(tmp_path / "vectors") == vectors_by_fact(tmp_path / "whole")


def test_a_torn_resume_log_costs_only_its_bad_rows(tmp_path: Path) -> None:
    folder = tmp_path / "vectors"
    store = VectorStore(folder)
    with pytest.raises(RuntimeError):
        store.update(Facts(), Counting(fail_after=3 * CHUNK))
    [log] = folder.glob("resume-*.keys")
    [matrix] = folder.glob("matrix-*.f32")
    with open(log, "ab") as handle:  # half an entry, as a kill mid-write leaves it
        handle.write(b"\x01" * 10)
    with open(matrix, "ab") as handle:  # and a row nothing logged
        handle.write(b"\x00" * 32 * 4)
    with open(matrix, "r+b") as handle:  # the third chunk's first row no longer matches
        handle.seek(2 * CHUNK * 32 * 4)
        handle.write(b"\x7f" * 4)
    again = Counting()
    assert store.update(Facts(), again) == FACTS - 2 * CHUNK
    VectorStore(tmp_path / "whole").update(Facts(), Counting())
    assert vectors_by_fact(folder) == vectors_by_fact(tmp_path / "whole")


KILLER = textwrap.dedent("""
    import os, signal, sys
    sys.path[:0] = {path!r}
    import test_embed_resume as t
    from memfold.embed import store
    from memfold.embed.store import VectorStore

    store.CHUNK = t.CHUNK

    class Killed(t.Counting):
        def embed(self, texts):
            if len(self.sent) + len(texts) > {after}:
                os.kill(os.getpid(), signal.SIGKILL)
            return super().embed(texts)

    VectorStore(store.Path({folder!r})).update(t.Facts(), Killed())
""")


def test_a_killed_process_resumes_where_it_stopped(tmp_path: Path) -> None:
    folder = tmp_path / "vectors"
    path = [str(Path(__file__).parent), *sys.path]
    script = KILLER.format(path=path, after=4 * CHUNK, folder=str(folder))
    done = subprocess.run([sys.executable, "-c", script], env={**os.environ},
                          capture_output=True, timeout=120, check=False)
    assert done.returncode == -signal.SIGKILL, done.stderr.decode()
    again = Counting()
    assert VectorStore(folder).update(Facts(), again) == FACTS - 4 * CHUNK
    assert len(again.sent) == FACTS - 4 * CHUNK
    VectorStore(tmp_path / "whole").update(Facts(), Counting())
    assert vectors_by_fact(folder) == vectors_by_fact(tmp_path / "whole")


def test_a_purge_reaches_the_rows_an_unfinished_update_left(tmp_path: Path) -> None:
    folder = tmp_path / "vectors"
    store = VectorStore(folder)
    with pytest.raises(RuntimeError):
        store.update(Facts(), Counting(fail_after=3 * CHUNK))
    snap = store.snapshot()
    assert snap is not None and snap.rows == 0  # everything embedded is in the resume log
    shortest = min((text for _, text in Facts().fact_texts()), key=len)
    secret = FakeEmbedder(dims=32).embed([shortest])[0].tobytes()
    assert secret in b"".join(p.read_bytes() for p in folder.glob("matrix-*"))
    assert store.drop([shortest], dry_run=True) == 1
    assert store.drop([shortest]) == 1
    assert secret not in b"".join(p.read_bytes() for p in folder.iterdir() if p.is_file())
    assert not list(folder.glob("resume-*"))
