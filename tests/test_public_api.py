"""The public contract of `import memfold`: `__all__` is sorted and complete — every error and
every type a method of `Memory` or of a server's bank returns, derived from the methods' return
annotations — every name in it imports, `import memfold` loads nothing else, the package is
typed and its version written once, every error lives in memfold.errors (and is drawn in its
tree), and the old homes of moved errors still hand out the same class.  That `Memory` and
`RemoteMemory` share `MemoryAPI`'s signatures is mypy's to check (`mypy src`)."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import importlib.metadata
import inspect
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import memfold
from memfold import errors
from memfold.api import MemoryAPI
from memfold.client.remote import RemoteMemory
from memfold.memory import Memory

PACKAGE = Path(memfold.__file__).parent


def _error_classes() -> set[type[BaseException]]:
    found: set[type[BaseException]] = set()
    todo: list[type[BaseException]] = [errors.MemfoldError]
    while todo:
        cls = todo.pop()
        found.add(cls)
        todo.extend(cls.__subclasses__())
    return found


# Names a return annotation may use that are not memfold's own types
NOT_MEMFOLD = {"Any", "NoReturn", "None", "Self", "Path", "Sequence", "Mapping", "Iterator",
               "Iterable", "Callable", "Literal", "AbstractContextManager", "date", "datetime",
               "list", "dict", "tuple", "set", "frozenset", "str", "int", "float", "bool",
               "bytes", "object", "type", "contextlib"}
FACES = (Memory, RemoteMemory, MemoryAPI)
# memfold's own plumbing under the facade (the server and the web view use them), not part of
# the public face: their types are not exported
PLUMBING = {"Memory.ledger", "Memory.index_backend"}


def _names_in(annotation: object) -> set[str]:
    """The type names a (string) annotation mentions, a module's alias dropped
    (`_views.Views` is `Views`)."""
    words = re.findall(r"[A-Za-z_][\w.]*", str(annotation))
    return {word.rsplit(".", 1)[-1] for word in words} - NOT_MEMFOLD


def _returns(cls: type) -> dict[str, object]:
    """The return annotation of each public method and property of `cls`, by name."""
    found: dict[str, object] = {}
    for klass in reversed(cls.__mro__):
        for name, member in vars(klass).items():
            if name.startswith("_") and name not in ("__enter__",):
                continue
            function = member.fget if isinstance(member, property) else member
            function = getattr(function, "__func__", function)
            if callable(function) and hasattr(function, "__annotations__"):
                found[name] = function.__annotations__.get("return")
    return found


def _returned_by(cls: type) -> list[tuple[str, object]]:
    return [(f"{cls.__name__}.{name}", returned) for name, returned in _returns(cls).items()
            if f"{cls.__name__}.{name}" not in PLUMBING]


def _types_callers_get() -> dict[str, str]:
    """Every memfold type a caller of Memory or of a server's bank can get back, by name,
    with where it was met: the return types of the public methods and properties of
    `Memory`, `RemoteMemory` and `MemoryAPI`, then of those types' own public methods and
    dataclass fields, transitively.  A name memfold does not export is returned too (the
    test then names it and where it came from)."""
    met: dict[str, str] = {}
    todo = [member for face in FACES for member in _returned_by(face)]
    while todo:
        where, annotation = todo.pop()
        for name in sorted(_names_in(annotation) - set(met)):
            met[name] = where
            cls = getattr(memfold, name, None)
            if not inspect.isclass(cls) or cls.__module__ == "builtins" \
                    or issubclass(cls, BaseException):
                continue
            todo += _returned_by(cls)
            if dataclasses.is_dataclass(cls):
                todo += [(f"{name}.{field.name}", field.type)
                         for field in dataclasses.fields(cls)]
    return met


def test_every_type_a_caller_gets_back_is_exported() -> None:
    """`from memfold import X` works for every type a method of Memory (or of a server's
    bank) returns, and for the types those hold: a caller can name what it is given."""
    met = _types_callers_get()
    missing = {name: where for name, where in met.items() if name not in memfold.__all__}
    assert not missing, f"returned but not in memfold.__all__: {missing}"
    assert {"ReflectPlan", "PurgePlan", "Trace", "CoreEdit", "CoreMemory", "SessionContext",
            "Views", "Event", "RecallResult", "Hit", "Freshness"} <= set(met)
    for name in met:
        cls = getattr(memfold, name)
        assert cls.__name__ == name and cls.__module__.startswith("memfold."), name


def test_all_is_sorted_and_every_name_imports() -> None:
    assert memfold.__all__ == sorted(memfold.__all__)
    assert len(set(memfold.__all__)) == len(memfold.__all__)
    namespace: dict[str, object] = {}
    exec("from memfold import *", namespace)  # noqa: S102 - the star import is the contract
    for name in memfold.__all__:
        assert name in namespace, name
        assert getattr(memfold, name) is namespace[name]


def test_all_holds_every_error_and_nothing_else() -> None:
    """`__all__` is the errors, the faces (Memory, MemoryAPI, connect and the RemoteMemory it
    gives) and the types their methods return, and nothing else."""
    returned = set(_types_callers_get())
    assert {"Memory", "RemoteMemory"} <= returned
    assert memfold.Memory is Memory and memfold.RemoteMemory is RemoteMemory
    assert memfold.MemoryAPI is MemoryAPI
    errors_named = {cls.__name__ for cls in _error_classes()}
    assert set(memfold.__all__) == errors_named | returned | {"MemoryAPI", "connect",
                                                              "__version__"}


def test_import_memfold_loads_only_the_errors() -> None:
    """`import memfold` stays cheap (the warm process answers `memfold recall` after it):
    every public name but the errors is loaded on first use."""
    code = ("import sys, memfold; print(' '.join(sorted(m for m in sys.modules "
            "if m.startswith('memfold'))))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True).stdout.split()
    assert loaded == ["memfold", "memfold.errors"]


def test_the_package_is_typed_and_its_version_written_once() -> None:
    """py.typed ships (PEP 561), and the installed version is memfold.__version__, which
    pyproject reads (one place the version is written)."""
    assert (PACKAGE / "py.typed").is_file()
    pyproject = tomllib.loads((PACKAGE.parents[1] / "pyproject.toml").read_text("utf-8"))
    assert "py.typed" in pyproject["tool"]["setuptools"]["package-data"]["memfold"]
    assert "version" not in pyproject["project"]
    assert pyproject["project"]["dynamic"] == ["version"]
    assert importlib.metadata.version("memfold") == memfold.__version__


def test_every_error_is_defined_in_errors_and_drawn_in_its_tree() -> None:
    error_names = {cls.__name__ for cls in _error_classes()}
    for cls in _error_classes():
        assert cls.__module__ == "memfold.errors", cls
        assert re.search(rf"^\s*(?:[│├└─ ]*){re.escape(cls.__name__)}\s+exit {cls.exit_code}\b",
                         errors.__doc__ or "", re.MULTILINE), cls
    assert sorted(errors.__all__) == sorted(error_names)
    # No module defines a class on a memfold error's name, or derives one from a memfold error,
    # anywhere but errors.py (checked on the source, so nothing has to be imported for it).
    for path in PACKAGE.rglob("*.py"):
        if path.name == "errors.py" and path.parent == PACKAGE:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases = {ast.unparse(base).rsplit(".", 1)[-1] for base in node.bases}
                assert node.name not in error_names, (path, node.name)
                assert not bases & error_names, (path, node.name)


def test_moved_errors_keep_their_old_homes() -> None:
    files = importlib.import_module("memfold.workspace.files")
    embed = importlib.import_module("memfold.embed")
    assert files.StorageError is memfold.StorageError is errors.StorageError
    assert embed.EmbedUnavailable is memfold.EmbedUnavailable is errors.EmbedUnavailable
    assert issubclass(memfold.StorageError, OSError)
    assert issubclass(memfold.IndexDamaged, memfold.IndexError_)
    assert str(memfold.StorageError(28, "No space left on device", "notes/a.md")) == (
        "could not write notes/a.md: No space left on device")
