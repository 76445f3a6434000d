"""An Obsidian or basic-memory vault read into `Note`s: each Markdown note with its title,
its front matter's `aliases` and `tags`, and the `[[links]]` and `#tags` in its text.

Hidden folders (`.obsidian`, `.trash`, `.git`) are not notes.  A symbolic link — the vault
itself, or a file or folder inside it — is followed only with `follow_links`; without it
the vault refuses (BadInput) and a link inside is listed as not imported.  Following never
loops: a folder reached twice is read once.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from memfold.capture.formats import Unreadable
from memfold.errors import BadInput
from memfold.importing.sources import Batch, Note, Source
from memfold.workspace.format.frontmatter import read_front_matter

# [[Target]], [[Target|shown]], [[Target#Heading]], [[folder/Target]], ![[embed]]
LINK = re.compile(r"\[\[([^\]\[|#^\n]+)(?:[#^][^\]|\n]*)?(?:\|[^\]\n]*)?\]\]")
# #tag, #nested/tag; not a heading, not inside a word or a URL, not a number (#1)
TAG = re.compile(r"(?<![\w#&/:])#([^\W\d][\w/\-]*|\d+[^\W\d][\w/\-]*)")
FENCE = re.compile(r"^\s*(```|~~~)")
CODE = re.compile(r"`[^`\n]*`")
NOTE_SUFFIX = ".md"


def _strings(value: object) -> tuple[str, ...]:
    items = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    return tuple(str(item).strip() for item in items
                 if isinstance(item, str | int) and str(item).strip())


def _prose(lines: list[str]) -> str:
    """The note's text outside code: fenced blocks and inline code hold no links or tags."""
    kept: list[str] = []
    fenced = False
    for line in lines:
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            kept.append(CODE.sub(" ", line))
    return "\n".join(kept)


def _link_target(raw: str) -> str | None:
    name = raw.strip().rsplit("/", 1)[-1]
    stem, dot, suffix = name.rpartition(".")
    if dot and suffix.lower() != "md" and not suffix.isdigit():
        return None  # an attachment: [[photo.png]]
    return (stem if dot and suffix.lower() == "md" else name).strip() or None


def read_note(rel: str, data: bytes) -> Note:
    """A note's names: raises UnicodeDecodeError for a file that is not UTF-8."""
    lines = data.decode("utf-8-sig").splitlines()
    body_at, front, _ = read_front_matter(lines)
    prose = _prose(lines[body_at:])
    title = _strings(front.get("title"))
    links = (_link_target(m.group(1)) for m in LINK.finditer(prose))
    tags = [*_strings(front.get("tags")), *(m.group(1) for m in TAG.finditer(prose))]
    return Note(
        rel=rel, data=data,
        title=title[0] if title else Path(rel).stem,
        aliases=tuple(dict.fromkeys(_strings(front.get("aliases", front.get("alias"))))),
        links=tuple(dict.fromkeys(name for name in links if name)),
        tags=tuple(dict.fromkeys(tag.lstrip("#") for tag in tags if tag.lstrip("#"))))


def _walk(root: Path, follow: bool) -> tuple[list[tuple[str, Path]], list[Unreadable]]:
    """The vault's note files (relative path, path) in name order, and the symbolic links
    left out."""
    found: list[tuple[str, Path]] = []
    left: list[Unreadable] = []
    seen: set[str] = set()
    for folder, dirs, files in os.walk(root, followlinks=follow):
        here = Path(folder)
        real = os.path.realpath(here)
        if real in seen:
            dirs[:] = []
            continue
        seen.add(real)
        kept = []
        for name in sorted(dirs):
            if name.startswith("."):
                continue
            if (here / name).is_symlink() and not follow:
                left.append(Unreadable(_rel(root, here / name), "a symbolic link (folder); "
                                       "followed only with --follow-links"))
                continue
            kept.append(name)
        dirs[:] = kept
        for name in sorted(files):
            path = here / name
            if name.startswith(".") or not name.endswith(NOTE_SUFFIX):
                continue
            if path.is_symlink() and not follow:
                left.append(Unreadable(_rel(root, path), "a symbolic link; followed only "
                                       "with --follow-links"))
                continue
            found.append((_rel(root, path), path))
    return sorted(found), left


def _rel(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix()


def is_vault(path: Path) -> bool:
    """A folder holding `.obsidian` or a Markdown note (at most two levels down)."""
    if not path.is_dir():
        return False
    if (path / ".obsidian").is_dir():
        return True
    return any(True for pattern in ("*.md", "*/*.md", "*/*/*.md") for _ in path.glob(pattern))


class Vault:
    """An Obsidian or basic-memory vault: a folder of Markdown notes."""

    name = "vault"
    description = "an Obsidian or basic-memory vault (a folder of Markdown notes)"

    def detect(self, source: Source) -> bool:
        return is_vault(source.path)

    def read(self, source: Source) -> Batch:
        root = source.path
        if root.is_symlink() and not source.follow_links:
            raise BadInput(f"{source.name} is a symbolic link; memfold follows it only with "
                           "--follow-links")
        if not root.is_dir():
            raise BadInput(f"{source.name}: a vault is a folder of Markdown notes")
        files, links = _walk(root, source.follow_links)
        problems: list[Unreadable] = []
        notes: list[Note] = []
        for rel, path in files:
            try:
                notes.append(read_note(rel, path.read_bytes()))
            except UnicodeDecodeError as exc:
                problems.append(Unreadable(rel, f"not UTF-8 (byte offset {exc.start})"))
            except OSError as exc:
                problems.append(Unreadable(rel, f"cannot read it ({exc.strerror or exc})"))
        return Batch(self.name, notes=tuple(notes), problems=tuple(problems),
                     left_out=tuple(links), root=root.absolute())
