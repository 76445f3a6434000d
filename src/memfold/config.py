"""Settings: the one reader of the environment.  A flag beats a MEMFOLD_* variable beats
the default.

    MEMFOLD_WORKSPACE   the workspace directory      (default ~/.memfold/workspace)
    MEMFOLD_NOW         "now" for every relative time and lifecycle rule (ISO date or
                        datetime; default: the clock)
    MEMFOLD_JUDGE       the supersede judge: "rules" (default, offline), "openai" (a model
                        behind any OpenAI-compatible chat endpoint, with the rule judge as
                        its fallback) or a plugin's (docs/plugins.md)
    MEMFOLD_JUDGE_URL   for openai: the endpoint's base URL (http://127.0.0.1:8080/v1) or
                        its full .../chat/completions URL
    MEMFOLD_JUDGE_MODEL for openai: the model name the endpoint serves
    MEMFOLD_JUDGE_KEY   for openai, optional: sent as a bearer token
    MEMFOLD_JUDGE_TIMEOUT  for openai: seconds to wait for an answer (default 10)
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import date, datetime, time
from pathlib import Path
from urllib.parse import urlsplit

from memfold.errors import BadInput

DEFAULT_WORKSPACE = "~/.memfold/workspace"
DEFAULT_JUDGE_TIMEOUT = 10.0
MAX_JUDGE_TIMEOUT = 600.0


def workspace_path(flag: str | os.PathLike[str] | None = None) -> Path:
    chosen = flag or os.environ.get("MEMFOLD_WORKSPACE") or DEFAULT_WORKSPACE
    return Path(chosen).expanduser()


def parse_now(text: str, *, what: str = "time") -> datetime:
    """An ISO date or datetime; a date means its midnight, a naive time is local time."""
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
    if isinstance(flag, datetime):
        return flag if flag.tzinfo else flag.astimezone()
    text = flag or os.environ.get("MEMFOLD_NOW")
    if text:
        return parse_now(text, what="--as-of" if flag else "MEMFOLD_NOW")
    return datetime.now().astimezone()


@dataclass(frozen=True)
class JudgeSettings:
    """Which supersede judge to use, and how to reach a model judge."""

    kind: str = "rules"  # a registered judge's name (lifecycle.judge.JUDGES)
    url: str = ""
    model: str = ""
    key: str = field(default="", repr=False)  # a secret: kept out of reprs and messages
    timeout: float = DEFAULT_JUDGE_TIMEOUT


def judge_settings(kind: str | None = None) -> JudgeSettings:
    """The judge MEMFOLD_JUDGE* asks for (`kind` overrides MEMFOLD_JUDGE); BadInput (exit
    2) names what is wrong."""
    kind = (kind or os.environ.get("MEMFOLD_JUDGE") or "rules").strip().lower() or "rules"
    # the name is checked against the registered judges (plugins too) by load_judge
    if kind == "rules":
        return JudgeSettings()
    url = (os.environ.get("MEMFOLD_JUDGE_URL") or "").strip()
    model = (os.environ.get("MEMFOLD_JUDGE_MODEL") or "").strip()
    if kind == "openai" and (not url or not model):
        raise BadInput("MEMFOLD_JUDGE=openai needs MEMFOLD_JUDGE_URL (e.g. "
                       "http://127.0.0.1:8080/v1) and MEMFOLD_JUDGE_MODEL")
    parts = urlsplit(url)
    if url and (parts.scheme not in ("http", "https") or not parts.hostname):
        # the URL itself is not echoed: it may carry a user:password part
        raise BadInput("MEMFOLD_JUDGE_URL must be an http:// or https:// URL with a host")
    return JudgeSettings(kind, url, model, (os.environ.get("MEMFOLD_JUDGE_KEY") or "").strip(),
                         _timeout(os.environ.get("MEMFOLD_JUDGE_TIMEOUT")))


def _timeout(text: str | None) -> float:
    if not text or not text.strip():
        return DEFAULT_JUDGE_TIMEOUT
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds <= MAX_JUDGE_TIMEOUT:  # also refuses nan and inf
        raise BadInput(f"MEMFOLD_JUDGE_TIMEOUT={text.strip()!r} must be a number of seconds "
                       f"above 0 and at most {MAX_JUDGE_TIMEOUT:g}")
    return seconds
