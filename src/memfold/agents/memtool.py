"""The Anthropic memory tool (`memory_20250818`) on a memfold workspace: `/memories` is the
workspace's root, and every command goes through `Memory.files` (memfold.documents), so new
Retain bullets are retained (judged, screened for secrets, journaled), prose is written
atomically and indexed, facts are never removed and reflect's generated regions stay
memfold's.  Only memory files are seen: `/memories/memory.md` (core memory),
`/memories/memory/YYYY-MM-DD.md` (daily logs) and `/memories/bank/...` (pages).

    view         {"command": "view", "path", "view_range"?: [first, last or -1]}
    create       {"command": "create", "path", "file_text"}
    str_replace  {"command": "str_replace", "path", "old_str", "new_str"}
    insert       {"command": "insert", "path", "insert_line", "insert_text"}
    delete       {"command": "delete", "path"}
    rename       {"command": "rename", "old_path", "new_path"}

Answers and refusals are worded as the anthropic SDK's own file backend words them
(`BetaLocalFilesystemMemoryTool`): a refusal is a `MemoryToolError` whose text the model
gets as an error result (`is_error: true`).  A path outside `/memories`, with `..`, through
a symlink or into `.memory/` is refused so.  Three ways in: `MemoryTool(memory).run(input)`;
`anthropic_memory_tool(memory)`, an SDK `BetaAbstractMemoryTool` for `run_tools` (the
extra `memfold[anthropic]`); and `memfold call` / `agents.tools.dispatch` with a `tool_use`
block named "memory".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from memfold.agents.words import in_tool_terms
from memfold.errors import MemfoldError

if TYPE_CHECKING:
    from memfold.agents.calls import ToolCall
    from memfold.api import MemoryAPI
    from memfold.memory import Memory

__all__ = ["ROOT", "MemoryTool", "MemoryToolError", "anthropic_memory_tool", "answer_call"]

ROOT = "/memories"
SOURCE = "memory-tool"  # who the journal says retained a fact written through the tool
WIDTH = 6  # line numbers are right-aligned to six places, as the SDK's backend does
COMMANDS = ("view", "create", "str_replace", "insert", "delete", "rename")


class MemoryToolError(Exception):
    """A refused memory-tool command; `text` is what the model reads."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


class MemoryTool:
    """The memory tool's six commands on one open `Memory`."""

    def __init__(self, memory: Memory, *, source: str = SOURCE) -> None:
        self.files = memory.files
        self.source = source

    def run(self, command: Any) -> str:
        """Run one command (a dict, or the SDK's command object); its answer text, or
        MemoryToolError."""
        args = _arguments(command)
        name = args.get("command")
        if name not in COMMANDS:
            raise MemoryToolError(f"Unknown command {name!r}: use one of {', '.join(COMMANDS)}")
        try:
            text: str = getattr(self, f"_{name}")(args)
        except MemfoldError as exc:
            raise MemoryToolError(in_tool_terms(str(exc), arguments=(), tools=())) from exc
        return text

    def _view(self, args: Mapping[str, Any]) -> str:
        path = _text(args, "path")
        rel = _rel(path)
        if self.files.is_dir(rel):
            return _listing(path, self.files.entries(rel))
        content = self._existing(path, rel)
        lines = content.split("\n")
        first, shown = 1, lines
        if (span := args.get("view_range")) is not None:
            first, last = _range(span)
            shown = lines[first - 1:None if last == -1 else last]
        return (f"Here's the content of {path} with line numbers:\n"
                + _numbered(shown, first))

    def _create(self, args: Mapping[str, Any]) -> str:
        path, text = _text(args, "path"), _text(args, "file_text")
        rel = _rel(path)
        if self.files.is_dir(rel) or self.files.read(rel) is not None:
            raise MemoryToolError(f"File {path} already exists")
        done = self.files.write(rel, text, expect=None, source=self.source)
        return f"File created successfully at: {path}{_retained(done.retained, done.retained_to)}"

    def _str_replace(self, args: Mapping[str, Any]) -> str:
        path, old, new = _text(args, "path"), _text(args, "old_str"), _text(args, "new_str")
        rel = _rel(path)
        content = self._existing(path, rel)
        count = content.count(old)
        if count == 0:
            raise MemoryToolError(f"No replacement was performed, old_str `{old}` did not "
                                  f"appear verbatim in {path}.")
        if count > 1:
            starts = [i for i in range(len(content)) if content.startswith(old, i)]
            where = ", ".join(str(content.count("\n", 0, i) + 1) for i in starts)
            raise MemoryToolError(f"No replacement was performed. Multiple occurrences of "
                                  f"old_str `{old}` in lines: {where}. Please ensure it is unique")
        at = content.count("\n", 0, content.index(old))
        done = self.files.write(rel, content.replace(old, new, 1), expect=content,
                                source=self.source)
        lines = done.text.split("\n")
        start = max(0, at - 2)
        return ("The memory file has been edited. Here is the snippet showing the change "
                "(with line numbers):\n" + _numbered(lines[start:at + 3], start + 1)
                + _retained(done.retained, done.retained_to))

    def _insert(self, args: Mapping[str, Any]) -> str:
        path, text = _text(args, "path"), _text(args, "insert_text")
        at = args.get("insert_line")
        rel = _rel(path)
        content = self._existing(path, rel)
        lines = content.split("\n")
        if lines[-1] == "":
            lines.pop()
        if not isinstance(at, int) or isinstance(at, bool) or not 0 <= at <= len(lines):
            raise MemoryToolError(f"Invalid `insert_line` parameter: {at}. It should be "
                                  f"within the range [0, {len(lines)}].")
        lines.insert(at, text.rstrip("\n"))
        done = self.files.write(rel, "\n".join(lines) + "\n", expect=content,
                                source=self.source)
        return f"The file {path} has been edited.{_retained(done.retained, done.retained_to)}"

    def _delete(self, args: Mapping[str, Any]) -> str:
        path = _text(args, "path")
        rel = _rel(path)
        if not rel:
            raise MemoryToolError("Cannot delete the /memories directory itself")
        if not self.files.is_dir(rel) and self.files.read(rel) is None:
            raise MemoryToolError(f"The path {path} does not exist")
        self.files.delete(rel)
        return f"Successfully deleted {path}"

    def _rename(self, args: Mapping[str, Any]) -> str:
        old, new = _text(args, "old_path"), _text(args, "new_path")
        old_rel, new_rel = _rel(old), _rel(new)
        if not old_rel:
            raise MemoryToolError("Cannot rename the /memories directory itself")
        if self.files.is_dir(new_rel) or self.files.read(new_rel) is not None:
            raise MemoryToolError(f"The destination {new} already exists")
        if self.files.read(old_rel) is None:
            raise MemoryToolError(f"The path {old} does not exist")
        self.files.move(old_rel, new_rel)
        return f"Successfully renamed {old} to {new}"

    def _existing(self, path: str, rel: str) -> str:
        if self.files.is_dir(rel):
            raise MemoryToolError(f"The path {path} is not a file.")
        content = self.files.read(rel)
        if content is None:
            raise MemoryToolError(f"The path {path} does not exist. Please provide a valid "
                                  "path.")
        return content


def _arguments(command: Any) -> dict[str, Any]:
    dump = getattr(command, "model_dump", None)
    if dump is not None and not isinstance(command, Mapping):
        command = dump()
    if not isinstance(command, Mapping):
        raise MemoryToolError("The memory tool's input must be an object with a `command`")
    return dict(command)


def _text(args: Mapping[str, Any], key: str) -> str:
    value = args.get(key)
    if not isinstance(value, str):
        raise MemoryToolError(f"The {args.get('command')} command needs `{key}` as a string")
    return value


def _rel(path: str) -> str:
    """The workspace path of a `/memories` path (refusals worded as the SDK's backend)."""
    if path != ROOT and not path.startswith(ROOT + "/"):
        raise MemoryToolError(f"Path must start with /memories, got: {path}")
    parts = [p for p in path[len(ROOT):].split("/") if p and p != "."]
    if ".." in parts:
        raise MemoryToolError(f"Path {path} would escape /memories directory")
    return "/".join(parts)


def _range(span: Any) -> tuple[int, int]:
    if (not isinstance(span, list | tuple) or len(span) != 2
            or not all(isinstance(n, int) and not isinstance(n, bool) for n in span)
            or span[0] < 1 or (span[1] != -1 and span[1] < span[0])):
        raise MemoryToolError(f"Invalid `view_range` parameter: {span}. It should be "
                              "[first, last] with 1 <= first <= last, or last = -1.")
    return span[0], span[1]


def _numbered(lines: list[str], first: int) -> str:
    return "\n".join(f"{n:>{WIDTH}}\t{line}" for n, line in enumerate(lines, first))


def _size(size: int) -> str:
    """A size as the SDK's backend shows one: 0B, 512B, 1.5K, 2M."""
    unit = 0
    while size >= 1024 ** (unit + 1) and unit < 3:
        unit += 1
    value = size / 1024 ** unit
    shown = f"{int(value)}" if value == int(value) else f"{value:.1f}"
    return shown + "BKMG"[unit]


def _listing(path: str, entries: list[Any]) -> str:
    root = path.rstrip("/") or ROOT
    lines = [f"{_size(sum(e.size for e in entries if not e.directory))}\t{root}"]
    lines += [f"{_size(e.size)}\t{ROOT}/{e.path}" for e in entries]
    return (f"Here're the files and directories up to 2 levels deep in {path}, excluding "
            "hidden items:\n" + "\n".join(lines))


def _retained(ids: tuple[str, ...], day_log: str | None) -> str:
    if not ids:
        return ""
    where = f"{ROOT}/{day_log}" if day_log else "the day's log"
    return (f"\nmemfold retained {len(ids)} new fact(s) in {where} under '## Retain', each "
            f"with its id: {', '.join('^' + i for i in ids)}")


def answer_call(memory: MemoryAPI, call: ToolCall) -> dict[str, Any]:
    """A `tool_use` block named "memory" (memfold call, agents.tools.dispatch) answered in
    its shape, with the answer text as the result's content."""
    from memfold.memory import Memory

    try:
        if not isinstance(memory, Memory):
            raise MemoryToolError("The memory tool needs a local workspace (a server's bank "
                                  "has no files to view)")
        text, failed = MemoryTool(memory).run(call.arguments), False
    except MemoryToolError as exc:
        text, failed = exc.text, True
    return call.answer_text(text, is_error=failed)


def anthropic_memory_tool(memory: Memory, *, source: str = SOURCE,
                          cache_control: Any = None) -> Any:
    """The memory tool as the anthropic SDK's `BetaAbstractMemoryTool`, for
    `client.beta.messages.tool_runner(tools=[...])`; needs `pip install 'memfold[anthropic]'`."""
    try:
        from anthropic.lib.tools import BetaAbstractMemoryTool, ToolError
    except ImportError as exc:
        raise MemfoldError("the memory tool's SDK class needs the anthropic SDK: "
                           "pip install 'memfold[anthropic]'") from exc
    backend = MemoryTool(memory, source=source)

    def run(command: Any) -> str:
        try:
            return backend.run(command)
        except MemoryToolError as exc:
            raise ToolError(exc.text) from exc

    class MemfoldMemoryTool(BetaAbstractMemoryTool):
        """memfold's workspace behind the SDK's memory tool (memfold.agents.memtool)."""

        view = create = str_replace = insert = delete = rename = staticmethod(run)

    return MemfoldMemoryTool(cache_control=cache_control)
