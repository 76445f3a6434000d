"""What a crash left half done, finished before anything reads the files it touched.

- A retain interrupted mid-append by a power loss leaves its record in the lock file
  (`workspace.files.HeldLock`): taking the lock cuts a torn tail off the day file.
- A reflect run killed while renaming its committed pages into place leaves its intent
  (`workspace.layout.REFLECT_INTENT`): the rest of the set is renamed, so every page is new.

Each check costs one stat in the common case, when nothing was left; each returns the notice
for the caller when it finished something.
"""

from __future__ import annotations

import os

from memfold.workspace.layout import REFLECT_INTENT, Workspace


def finish_torn_append(workspace: Workspace) -> str | None:
    lock = workspace.write_lock
    if not lock.pending():
        return None
    with lock.held() as held:
        return held.recovered


def finish_reflect_pages(workspace: Workspace) -> str | None:
    if not os.path.lexists(workspace.root / REFLECT_INTENT):
        return None  # no import of reflect either
    # reflect's planner: only for a half-committed page set
    from memfold.reflect import plan as reflect

    done = reflect.finish_pages(workspace)
    return f"finished writing {len(done)} page(s) of an interrupted reflect run" if done \
        else None
