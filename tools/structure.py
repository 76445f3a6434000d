"""Measure a package's structure: its rooms, floors, arrows and cycles, and what is too big.

A developer's script, not part of memfold (issue 32 quotes its figures before and after the
move of memfold's modules into packages).  Run from the repository's root:

    python tools/structure.py                  # memfold under src/, rooms one level down
    python tools/structure.py --depth 2        # a subpackage's children count separately
    python tools/structure.py --json           # the same figures as JSON
    python tools/structure.py --check          # exit 1 if a file or function is over its limit

The figures:

- rooms: the package's direct children, a module or a subpackage each counting as one room
  (at `--depth 2` a subpackage's own children are rooms, and its `__init__` one more); the
  package's own `__init__` is its front door, not a room, and imports to or from it are left
  out;
- arrows: distinct imports between rooms, an import from anything inside room A of anything
  inside room B (A != B) counted once; grimp reads every import statement, those inside
  functions and under `if TYPE_CHECKING:` too;
- floors: the levels of the rooms' condensation (each cycle shrunk to one node): the longest
  chain of arrows, counted in nodes; a room's floor is 1 if it imports no other room, else one
  above the highest floor it imports;
- cycles: the strongly connected rooms, groups of more than one room that import each other;
- sizes: the package's largest .py files (lines) and functions (lines, `def` to its last
  line, a nested function counted inside its own and on its own), and those over the limits
  (files over 600 lines, functions over 60).

Exit status: 0 ok; 1 with `--check` when a file or function is over its limit or the rooms
form a cycle; 2 for bad input (no such top-level package under the source dir, or a file
Python cannot parse).
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import json
import signal
import sys
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

FILE_LIMIT = 600
FUNCTION_LIMIT = 60
TOP = 5


@dataclass(frozen=True)
class Size:
    name: str  # a file's path (src/memfold/recall.py), or path:Qualified.name for a function
    lines: int


@dataclass(frozen=True)
class Structure:
    package: str
    depth: int
    rooms: list[str]
    arrows: list[tuple[str, str]]
    floors: list[list[str]]  # floor 1 first: the rooms that import no other room
    cycles: list[list[str]]
    largest_files: list[Size]
    largest_functions: list[Size]
    files_over: list[Size]
    functions_over: list[Size]
    file_limit: int
    function_limit: int


def room_of(module: str, *, depth: int) -> str | None:
    """The room a module lies in: its name cut to `depth` levels below the package (None for
    the package's own `__init__`)."""
    parts = module.split(".")
    return ".".join(parts[: 1 + depth]) if len(parts) > 1 else None


def import_graph(package: str, *, src: Path) -> dict[str, set[str]]:
    """Every module of the package -> the modules of the package it imports (grimp)."""
    import grimp

    where = str(src.resolve())
    sys.path.insert(0, where)
    importlib.invalidate_caches()
    try:
        spec = importlib.util.find_spec(package)
        found = [str(Path(p).resolve()) for p in (spec and spec.submodule_search_locations) or []]
        if str(src.joinpath(package).resolve()) not in found:  # not the one under src
            raise LookupError(f"{package} under {src} is not the package Python finds first")
        graph = grimp.build_graph(package, cache_dir=None)
    finally:
        sys.path.remove(where)
    return {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}


def room_graph(
    imports: dict[str, set[str]], *, depth: int
) -> tuple[list[str], set[tuple[str, str]]]:
    """The rooms and the distinct arrows between them."""
    rooms: set[str] = set()
    arrows: set[tuple[str, str]] = set()
    for importer, imported in imports.items():
        a = room_of(importer, depth=depth)
        if a is not None:
            rooms.add(a)
        for module in imported:
            b = room_of(module, depth=depth)
            if a is not None and b is not None and a != b:
                arrows.add((a, b))
    return sorted(rooms), arrows


def components(nodes: list[str], edges: set[tuple[str, str]]) -> list[list[str]]:
    """The strongly connected components (Tarjan's, without recursion), each sorted."""
    out: dict[str, list[str]] = {n: [] for n in nodes}
    for a, b in edges:
        out[a].append(b)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in nodes:
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(out[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    found.append(pop_component(node, stack, on_stack))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(out[child]))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return found


def pop_component(root: str, stack: list[str], on_stack: set[str]) -> list[str]:
    component: list[str] = []
    while True:
        node = stack.pop()
        on_stack.discard(node)
        component.append(node)
        if node == root:
            return sorted(component)


def floors_of(nodes: list[str], edges: set[tuple[str, str]]) -> list[list[str]]:
    """The rooms by floor, floor 1 first: a cycle's rooms share one floor."""
    comps = components(nodes, edges)
    comp_of = {n: i for i, comp in enumerate(comps) for n in comp}
    below: dict[int, set[int]] = {i: set() for i in range(len(comps))}
    for a, b in edges:
        if comp_of[a] != comp_of[b]:
            below[comp_of[a]].add(comp_of[b])
    # Tarjan finds a component only after every component it reaches: the order is bottom up
    level: dict[int, int] = {}
    for i in range(len(comps)):
        level[i] = 1 + max((level[j] for j in below[i]), default=0)
    floors: list[list[str]] = [[] for _ in range(max(level.values(), default=0))]
    for i, comp in enumerate(comps):
        floors[level[i] - 1].extend(comp)
    return [sorted(f) for f in floors]


def function_sizes(tree: ast.AST, *, prefix: str) -> Iterator[Size]:
    """Each function's lines, `def` line to last line, nested ones too, by qualified name."""
    scopes = (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    todo: list[tuple[ast.AST, str]] = [(tree, "")]
    while todo:
        node, qual = todo.pop()
        for child in ast.iter_child_nodes(node):
            inside = qual
            if isinstance(child, scopes):
                inside = f"{qual}.{child.name}" if qual else child.name
                if not isinstance(child, ast.ClassDef):
                    end = child.end_lineno or child.lineno
                    yield Size(f"{prefix}:{inside}", end - child.lineno + 1)
            todo.append((child, inside))


def sizes(root: Path) -> tuple[list[Size], list[Size]]:
    """Every .py file under root and every function in them, largest first."""
    files: list[Size] = []
    functions: list[Size] = []
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        name = path.as_posix()
        files.append(Size(name, len(text.splitlines())))
        functions.extend(function_sizes(ast.parse(text, filename=str(path)), prefix=name))
    order = lambda s: (-s.lines, s.name)  # noqa: E731
    return sorted(files, key=order), sorted(functions, key=order)


def measure(
    package: str,
    *,
    src: Path,
    depth: int = 1,
    file_limit: int = FILE_LIMIT,
    function_limit: int = FUNCTION_LIMIT,
    top: int = TOP,
) -> Structure:
    root = src / package
    if not package.isidentifier() or not (root / "__init__.py").is_file():
        raise LookupError(f"no top-level package {package} under {src}")
    files, functions = sizes(root)  # first: a file Python cannot parse is a SyntaxError
    rooms, arrows = room_graph(import_graph(package, src=src), depth=depth)
    return Structure(
        package=package,
        depth=depth,
        rooms=rooms,
        arrows=sorted(arrows),
        floors=floors_of(rooms, arrows),
        cycles=sorted(c for c in components(rooms, arrows) if len(c) > 1),
        largest_files=files[:top],
        largest_functions=functions[:top],
        files_over=[f for f in files if f.lines > file_limit],
        functions_over=[f for f in functions if f.lines > function_limit],
        file_limit=file_limit,
        function_limit=function_limit,
    )


def short(room: str, package: str) -> str:
    return room[len(package) + 1 :]


def report(s: Structure) -> str:
    p = s.package
    lines = [
        f"{p} at depth {s.depth}: {len(s.rooms)} rooms on {len(s.floors)} floors with "
        f"{len(s.arrows)} arrows, {len(s.cycles)} cycles",
        "floors (1 imports no other room):",
    ]
    for n, floor in reversed(list(enumerate(s.floors, 1))):
        lines.append(f"  {n:>2}: " + " ".join(short(r, p) for r in floor))
    for cycle in s.cycles:
        lines.append("cycle: " + " <-> ".join(short(r, p) for r in cycle))
    lines.append("largest files: " + ", ".join(f"{f.name} {f.lines}" for f in s.largest_files))
    lines.append(
        "largest functions: " + ", ".join(f"{f.name} {f.lines}" for f in s.largest_functions)
    )
    for label, over, limit in (
        ("files", s.files_over, s.file_limit),
        ("functions", s.functions_over, s.function_limit),
    ):
        lines.append(f"{label} over {limit} lines: {len(over)}")
        lines.extend(f"  {f.lines:>5}  {f.name}" for f in over)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("package", nargs="?", default="memfold")
    parser.add_argument("--src", type=Path, default=Path("src"), help="default: src")
    parser.add_argument("--depth", type=int, default=1, choices=(1, 2, 3))
    parser.add_argument("--file-limit", type=int, default=FILE_LIMIT)
    parser.add_argument("--function-limit", type=int, default=FUNCTION_LIMIT)
    parser.add_argument("--top", type=int, default=TOP, help="largest files and functions shown")
    parser.add_argument("--json", action="store_true", help="the figures as JSON")
    parser.add_argument(
        "--check", action="store_true", help="exit 1 if anything is over a limit or in a cycle"
    )
    args = parser.parse_args(argv)
    try:
        s = measure(
            args.package,
            src=args.src,
            depth=args.depth,
            file_limit=args.file_limit,
            function_limit=args.function_limit,
            top=args.top,
        )
    except LookupError as e:
        print(f"structure: {e}", file=sys.stderr)
        return 2
    except SyntaxError as e:
        print(f"structure: {e.filename}, line {e.lineno}: {e.msg}", file=sys.stderr)
        return 2
    if args.json:
        figures = {
            "floor_count": len(s.floors),
            "room_count": len(s.rooms),
            "arrow_count": len(s.arrows),
            "cycle_count": len(s.cycles),
        }
        print(json.dumps(figures | asdict(s), indent=2))
    else:
        print(report(s))
    failed = s.files_over or s.functions_over or s.cycles
    return 1 if args.check and failed else 0


if __name__ == "__main__":
    if hasattr(signal, "SIGPIPE"):  # `| head` ends the output quietly
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main())
