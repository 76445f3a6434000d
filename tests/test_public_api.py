"""The public contract of `import memfold`: `__all__` is sorted and complete, every name in it
imports, every error lives in memfold.errors (and is drawn in its tree), and the old homes of
moved errors still hand out the same class."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import re
from pathlib import Path

import memfold
from memfold import errors
from memfold import values as model
from memfold.lifecycle import review
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


def _model_classes_named_in(annotation: object) -> set[type]:
    """The classes of memfold.values (and memfold.lifecycle.review's) that a (string) annotation
    mentions."""
    names = set(re.findall(r"\b[A-Za-z_]\w*\b", str(annotation)))
    return {value for module in (model, review) for name, value in vars(module).items()
            if name in names and inspect.isclass(value)
            and value.__module__.startswith(module.__name__)}  # memfold.values.facts too


def _model_types_callers_get() -> set[type]:
    """Every memfold.values class a caller of `Memory` can get back: the return types of its
    public methods and properties, and the field types of those, transitively."""
    todo: set[type] = set()
    members = {name: member for cls in reversed(Memory.__mro__)
               for name, member in vars(cls).items()}
    for name, member in members.items():
        if name.startswith("_"):
            continue
        function = member.fget if isinstance(member, property) else member
        function = getattr(function, "__func__", function)
        returned = getattr(function, "__annotations__", {}).get("return")
        todo |= _model_classes_named_in(returned)
    seen: set[type] = set()
    while todo:
        cls = todo.pop()
        seen.add(cls)
        if dataclasses.is_dataclass(cls):
            for field in dataclasses.fields(cls):
                todo |= _model_classes_named_in(field.type) - seen
    return seen


def test_all_is_sorted_and_every_name_imports() -> None:
    assert memfold.__all__ == sorted(memfold.__all__)
    assert len(set(memfold.__all__)) == len(memfold.__all__)
    namespace: dict[str, object] = {}
    exec("from memfold import *", namespace)  # noqa: S102 - the star import is the contract
    for name in memfold.__all__:
        assert name in namespace, name
        assert getattr(memfold, name) is namespace[name]


def test_all_holds_every_error_and_every_type_a_caller_gets_back() -> None:
    public = set(memfold.__all__)
    assert {cls.__name__ for cls in _error_classes()} <= public
    returned = _model_types_callers_get()
    assert {model.RecallResult, model.Hit, model.StatusReport, model.Freshness} <= returned
    assert {cls.__name__ for cls in returned} <= public
    assert "Memory" in public and memfold.Memory is Memory
    for cls in returned:
        assert getattr(memfold, cls.__name__) is cls


def test_all_names_nothing_else() -> None:
    errors_and_models = {cls.__name__ for cls in _error_classes() | _model_types_callers_get()}
    assert set(memfold.__all__) == errors_and_models | {"Memory", "__version__"}


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
