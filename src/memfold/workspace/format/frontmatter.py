"""YAML front matter: the block between `---` lines at the top of a file.

One reader for every file memfold reads: `front_matter_end` finds the block (a line scan,
since memfold needs the line the body starts at), `load_front_matter` reads it with PyYAML's
safe loader (the C one when PyYAML has it).  What a file's front matter means is read here
too: an entity page's names (`aliases`, `title`, `name`) and memory.md's block `limits`.
"""

from __future__ import annotations

from collections.abc import Mapping

FRONT_MATTER_MAX = 64 * 1024
DEFAULT_LIMIT = 2000  # characters of a core block whose limit memory.md does not give


class FrontMatterError(ValueError):
    """Front matter that is not valid YAML; the message is one line."""


def front_matter_end(lines: list[str]) -> int | None:
    """The index of the line closing the front matter (`---` or `...`), or None when the
    file has none; 0 when it opens with `---` and never closes it."""
    if not lines or lines[0].strip() != "---":
        return None
    return next((i for i in range(1, len(lines)) if lines[i].strip() in ("---", "...")), 0)


def load_front_matter(lines: list[str], end: int) -> object:
    """The YAML value of the front matter closed at line `end` (None when it is empty).

    Raises FrontMatterError when it is not valid YAML."""
    import yaml  # only files with front matter need it

    try:
        return yaml.load("\n".join(lines[1:end]),
                         Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as exc:
        raise FrontMatterError(" ".join(str(exc).split())[:200]) from None


def read_front_matter(lines: list[str]) -> tuple[int, dict[str, object], list[str]]:
    """A page's front matter as a mapping: (first body line index, data, problems)."""
    end = front_matter_end(lines)
    if end is None:
        return 0, {}, []
    if end == 0:
        return 0, {}, ["front matter starts with --- but never ends; read as text"]
    if len("\n".join(lines[1:end])) > FRONT_MATTER_MAX:
        return end + 1, {}, ["front matter larger than 64 KiB ignored"]
    try:
        data = load_front_matter(lines, end)
    except FrontMatterError as exc:
        return end + 1, {}, [f"front matter is not valid YAML: {exc}"]
    if data is None:
        return end + 1, {}, []
    if not isinstance(data, dict):
        return end + 1, {}, ["front matter is not a mapping; ignored"]
    return end + 1, data, []


def entity_names(path: str, data: dict[str, object]) -> tuple[str, ...]:
    """The names an entity page answers to: its file's stem, `title`, `name`, `aliases`."""
    names: list[str] = []
    stem = path.rsplit("/", 1)[-1].removesuffix(".md")
    names.append(stem)
    for key in ("title", "name"):
        if isinstance(data.get(key), str):
            names.append(str(data[key]))
    aliases = data.get("aliases", data.get("alias"))
    if isinstance(aliases, str):
        aliases = [aliases]
    if isinstance(aliases, list):
        names.extend(str(a) for a in aliases if isinstance(a, str | int | float))
    return tuple(n for n in dict.fromkeys(names) if n.strip())


def core_limits(lines: list[str]) -> tuple[int, dict[str, int], list[str]]:
    """memory.md's front matter: (first body line index, the `limits` map, problems)."""
    end = front_matter_end(lines)
    if not end:
        return 0, {}, []
    try:
        data = load_front_matter(lines, end)
    except FrontMatterError:
        return end + 1, {}, ["memory.md: front matter is not valid YAML; default limits used"]
    raw = data.get("limits") if isinstance(data, dict) else None
    if raw is None:
        return end + 1, {}, []
    if not isinstance(raw, Mapping):
        return end + 1, {}, ["memory.md: `limits` is not a map of block name to characters"]
    limits: dict[str, int] = {}
    problems: list[str] = []
    for name, value in raw.items():
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            limits[str(name)] = value
        else:
            problems.append(f"memory.md: limit of {name!r} is not a positive whole number; "
                            f"{DEFAULT_LIMIT} used")
    return end + 1, limits, problems
