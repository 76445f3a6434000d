"""tools/structure.py (a developer's script, not memfold): rooms, arrows, floors, cycles and
sizes of a small package built here, whose figures are known."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

TOOL = Path(__file__).resolve().parent.parent / "tools" / "structure.py"
LONG = "def long():\n" + "    x = 1\n" * 64  # 65 lines
PACKAGE = {
    "__init__.py": "from structfake import top\n",  # the front door: not a room
    "base.py": "",
    "util.py": "import structfake.base\n",
    "a.py": "from structfake import b, util\n",
    "b.py": "def f():\n    from structfake import a\n",  # inside a function: still an arrow
    "sub/__init__.py": "",
    "sub/x.py": "from structfake.sub import y\nfrom structfake import a\n",
    "sub/y.py": "from structfake import a, base\n",
    "top.py": "import structfake.sub.x\n\n\nclass C:\n    def m(self):\n        pass\n\n\n" + LONG,
}


@pytest.fixture(scope="module")
def tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("structure_tool", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["structure_tool"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def src(tmp_path: Path) -> Path:
    for name, text in PACKAGE.items():
        path = tmp_path / "structfake" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


def short(rooms: list[str]) -> list[str]:
    return [r.removeprefix("structfake.") for r in rooms]


def test_rooms_arrows_floors_and_the_cycle(tool: ModuleType, src: Path) -> None:
    s = tool.measure("structfake", src=src)
    assert short(s.rooms) == ["a", "b", "base", "sub", "top", "util"]
    assert {(a[11:], b[11:]) for a, b in s.arrows} == {
        ("util", "base"),
        ("a", "b"),
        ("a", "util"),
        ("b", "a"),
        ("sub", "a"),
        ("sub", "base"),
        ("top", "sub"),
    }  # sub.x and sub.y both import a: one arrow
    assert [short(f) for f in s.floors] == [["base"], ["util"], ["a", "b"], ["sub"], ["top"]]
    assert [short(c) for c in s.cycles] == [["a", "b"]]


def test_depth_two_counts_a_subpackages_children(tool: ModuleType, src: Path) -> None:
    s = tool.measure("structfake", src=src, depth=2)
    assert short(s.rooms) == ["a", "b", "base", "sub", "sub.x", "sub.y", "top", "util"]
    assert len(s.arrows) == 9
    assert [short(f) for f in s.floors] == [
        ["base", "sub"],
        ["util"],
        ["a", "b"],
        ["sub.y"],
        ["sub.x"],
        ["top"],
    ]


def test_files_and_functions_over_the_limits(tool: ModuleType, src: Path) -> None:
    s = tool.measure("structfake", src=src, file_limit=50, function_limit=60, top=2)
    top = (src / "structfake" / "top.py").as_posix()
    assert [(f.name, f.lines) for f in s.files_over] == [(top, 73)]
    assert [(f.name, f.lines) for f in s.functions_over] == [(f"{top}:long", 65)]
    assert (f"{top}:C.m", 2) in [(f.name, f.lines) for f in tool.sizes(src / "structfake")[1]]
    assert len(s.largest_files) == 2


def test_command_json_check_and_bad_package(
    tool: ModuleType, src: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert tool.main(["structfake", "--src", str(src), "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert (figures["room_count"], figures["floor_count"], figures["arrow_count"]) == (6, 5, 7)
    assert figures["cycles"] == [["structfake.a", "structfake.b"]]
    assert tool.main(["structfake", "--src", str(src), "--check"]) == 1  # the cycle, the sizes
    assert "6 rooms on 5 floors with 7 arrows, 1 cycles" in capsys.readouterr().out
    assert tool.main(["nosuch", "--src", str(src)]) == 2
    assert capsys.readouterr().err == f"structure: no top-level package nosuch under {src}\n"
