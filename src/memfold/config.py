"""Settings: the one reader of the environment.  A flag beats a MEMFOLD_* variable beats
the default.

    MEMFOLD_WORKSPACE   the workspace directory      (default ~/.memfold/workspace)
    MEMFOLD_NOW         "now" for every relative time and lifecycle rule (ISO date or
                        datetime; default: the clock)
"""

from __future__ import annotations

import os
from datetime import date, datetime, time
from pathlib import Path

from .errors import BadInput

DEFAULT_WORKSPACE = "~/.memfold/workspace"


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
