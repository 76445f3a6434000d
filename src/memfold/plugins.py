"""Plugins: the one way memfold loads what registers through an entry-point group — the
judges (`memfold.judges`), embedders (`memfold.embedders`), rerankers (`memfold.rerankers`),
capture formats (`memfold.capture_formats`) and importers (`memfold.importers`).  Each group
is a `Group`, declared beside the protocol its members implement; docs/plugins.md says how
to write each kind.

Memfold's own members are declared in pyproject's [project.entry-points] exactly as a
third-party plugin declares its own, and listed again in their `Group` (a test holds the two
the same), so an uninstalled checkout, without metadata, still has them.  The rules, the same
for every group:

- built-ins first, in the order declared, then the plugins in the order metadata gives them;
- a plugin never replaces a built-in (or an earlier plugin) of the same name;
- a plugin that fails to load is left out, with a one-line notice on stderr (once a process);
- importlib.metadata is read only when a name that is not a built-in is asked for or the whole
  group is listed, and then once a process: asking for a built-in costs an import, no more.
"""

from __future__ import annotations

import sys
import threading
from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

OWN_DISTRIBUTION = "memfold"

_lock = threading.RLock()
_plugins: dict[str, dict[str, EntryPoint]] = {}  # group -> name -> entry, read once
_loaded: dict[tuple[str, str], Any] = {}  # (group, name) -> the entry point's object
_said: set[str] = set()


@dataclass(frozen=True)
class Group:
    """An entry-point group: its name, what one member is called in messages, and the
    built-ins as (name, "module:attribute") pairs, as pyproject declares them."""

    name: str
    kind: str
    builtins: tuple[tuple[str, str], ...]

    def builtin_names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.builtins)

    def load(self, name: str) -> Any | None:
        """The object registered under `name` (a built-in without reading metadata), or
        None when no member of that name loads."""
        target = dict(self.builtins).get(name)
        with _lock:
            if (self.name, name) not in _loaded:
                if target is not None:
                    _loaded[self.name, name] = _resolve(target)
                else:
                    entry = _entries(self).get(name)
                    if entry is None:
                        return None
                    _loaded[self.name, name] = _load_plugin(self, entry)  # None if broken
            return _loaded.get((self.name, name))

    def loaded(self) -> dict[str, Any]:
        """Every member that loads, by name: the built-ins, then the plugins."""
        with _lock:
            names = [*self.builtin_names(), *_entries(self)]
        found = {name: self.load(name) for name in names}
        return {name: member for name, member in found.items() if member is not None}

    def names(self) -> tuple[str, ...]:
        """The names of the members that load, built-ins first."""
        return tuple(self.loaded())

    def has(self, name: str) -> bool:
        return name in self.builtin_names() or self.load(name) is not None

    def left_out(self, name: str, why: str) -> None:
        """Say once, on stderr, that the member `name` is left out, and why (for a member
        that loads but cannot be made)."""
        _notice(self, name, why)


def _resolve(target: str) -> Any:
    module, _, attribute = target.partition(":")
    found: Any = import_module(module)
    for part in attribute.split("."):
        found = getattr(found, part)
    return found


def _entries(group: Group) -> dict[str, EntryPoint]:
    """The group's plugins, read from metadata once a process: a name already taken (by a
    built-in or an earlier plugin) is left out, with a notice unless the entry is memfold's
    own declaration of its built-in."""
    if group.name not in _plugins:
        builtins = dict(group.builtins)
        found: dict[str, EntryPoint] = {}
        for entry in _metadata(group.name):
            if entry.name in builtins and _own(entry, builtins[entry.name]):
                continue
            if entry.name in builtins or entry.name in found:
                _notice(group, entry.name, "a member of that name is registered already",
                        entry.value)
                continue
            found[entry.name] = entry
        _plugins[group.name] = found
    return _plugins[group.name]


def _metadata(group: str) -> list[EntryPoint]:
    try:
        from importlib.metadata import entry_points

        return list(entry_points(group=group))
    except Exception:  # noqa: BLE001 - no readable metadata: the built-ins only
        return []


def _own(entry: EntryPoint, target: str) -> bool:
    dist = getattr(entry, "dist", None)
    return entry.value == target or (dist is not None and dist.name == OWN_DISTRIBUTION)


def _load_plugin(group: Group, entry: EntryPoint) -> Any | None:
    try:
        return entry.load()
    except Exception as exc:  # noqa: BLE001 - a broken plugin must not stop memfold
        _notice(group, entry.name, f"{type(exc).__name__}: {exc}", entry.value)
        return None


def _notice(group: Group, name: str, why: str, value: str = "") -> None:
    where = f" ({value})" if value else ""
    line = " ".join(f"memfold: warning: {group.kind} plugin {name!r}{where} left out: "
                    f"{why}".split())
    if line not in _said:
        _said.add(line)
        print(line, file=sys.stderr)


def forget() -> None:
    """Read the groups' metadata again on next use (for tests, after installing a plugin)."""
    with _lock:
        _plugins.clear()
        _loaded.clear()
        _said.clear()
