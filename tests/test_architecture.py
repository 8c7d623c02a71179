"""The import layering of src/chronoqa, checked over ``ast`` imports (see docs/architecture.md).

Every module belongs to a *room* (its top-level package or module under ``chronoqa``) and every room
to a *floor*. An import may go down or stay on its floor, never up; the rooms import each other without
a cycle; the three stage rooms of floor 5 (retrieve, answer, score) never import each other (they meet
through ``chronoqa.artifacts``); and no module imports another module's private (``_name``) name.
Imports inside functions and under ``TYPE_CHECKING`` count: they are dependencies too. The one import
of the top package allowed below it is ``from chronoqa import __version__``.

Run it alone with ``python -m pytest tests/test_architecture.py``.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "chronoqa"

FLOORS: tuple[tuple[str, ...], ...] = (
    ("time",),
    ("errors", "escape", "records", "io", "outdir", "paths", "spec", "_gc"),
    ("artifacts",),
    ("sources", "store", "datasets"),
    ("generate",),
    ("retrieve", "answer", "score"),
    ("report", "export", "validate", "integrations", "judge", "paraphrase"),  # judge, paraphrase: use answer/
    ("pipeline",),
    ("cli",),
    ("chronoqa",),  # the top package: re-exports the public API (lazily)
)
SIBLINGS = frozenset({"retrieve", "answer", "score"})
FLOOR_OF = {room: i for i, rooms in enumerate(FLOORS) for room in rooms}

Edge = tuple[str, str, str, int]  # (importing module, imported module, file, line)


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def room(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "chronoqa"


def imports(root: Path = SRC) -> tuple[list[Edge], list[str]]:
    """Every chronoqa import under ``root`` as edges, and every private name imported from another module."""
    edges: list[Edge] = []
    private: list[str] = []
    for path in sorted(root.rglob("*.py")):
        me = module_name(path, root)
        file = str(path.relative_to(root.parent))
        package = me if path.name == "__init__.py" else me.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [(a.name, None) for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # relative import
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                targets = [(base, a.name) for a in node.names]
            else:
                continue
            for target, name in targets:
                if target.split(".")[0] != "chronoqa":
                    continue
                if target == "chronoqa" and name == "__version__":
                    continue
                if target == "chronoqa" and name and ((root / name).is_dir() or (root / f"{name}.py").is_file()):
                    target, name = f"chronoqa.{name}", None  # from chronoqa import datasets: a room
                edges.append((me, target, file, node.lineno))
                if name and name.startswith("_") and not name.startswith("__") and target != me:
                    private.append(f"{file}:{node.lineno}: {name} from {target}")
    return edges, private


def violations(edges: list[Edge]) -> list[str]:
    """Upward imports, imports between sibling stages and unknown rooms, one line each."""
    out = []
    for me, target, file, line in edges:
        a, b = room(me), room(target)
        if a == b:
            continue
        for r in (a, b):
            if r not in FLOOR_OF:
                out.append(f"{file}:{line}: room {r!r} has no floor: add it to FLOORS (and docs/architecture.md)")
        if a not in FLOOR_OF or b not in FLOOR_OF:
            continue
        if FLOOR_OF[b] > FLOOR_OF[a]:
            out.append(f"{file}:{line}: {me} (floor {FLOOR_OF[a]}) imports {target} (floor {FLOOR_OF[b]}): upward")
        elif a in SIBLINGS and b in SIBLINGS:
            out.append(f"{file}:{line}: stage {a} imports stage {b}: share a format through chronoqa.artifacts")
    return out


def cycles(edges: list[Edge]) -> list[list[str]]:
    """Cycles of the room graph (each found once, from its smallest room)."""
    graph: dict[str, set[str]] = defaultdict(set)
    for me, target, _, _ in edges:
        if room(me) != room(target):
            graph[room(me)].add(room(target))
    found: list[list[str]] = []

    def visit(start: str, node: str, path: list[str]) -> None:
        for nxt in sorted(graph[node]):
            if nxt == start:
                found.append([*path, start])
            elif nxt > start and nxt not in path:
                visit(start, nxt, [*path, nxt])

    for start in sorted(graph):
        visit(start, start, [start])
    return found


def test_no_import_runs_up_the_floors() -> None:
    edges, _ = imports()
    assert len(edges) > 100, "the walk found the package's imports"
    assert violations(edges) == []


def test_rooms_import_each_other_without_a_cycle() -> None:
    assert cycles(imports()[0]) == []


def test_no_private_name_crosses_a_module_boundary() -> None:
    assert imports()[1] == []


def test_the_checks_fail_on_a_back_edge_a_cycle_and_a_private_import(tmp_path: Path) -> None:
    fake = tmp_path / "chronoqa"
    for rel, text in {
        "time/__init__.py": "from chronoqa.records import Fact\n",  # up: floor 0 -> 1, and a cycle
        "records.py": "from chronoqa.time import TimePoint\n",
        "score/__init__.py": "from chronoqa.answer.base import _private\n",  # siblings + private
        "answer/base.py": "_private = 1\n",
        "cli/__init__.py": "def f():\n    from chronoqa.pipeline import run\n",
        "pipeline/__init__.py": "run = 1\n",
    }.items():
        (fake / rel).parent.mkdir(parents=True, exist_ok=True)
        (fake / rel).write_text(text)
    edges, private = imports(fake)
    bad = violations(edges)
    assert any("upward" in v and "chronoqa.time" in v for v in bad)
    assert any("stage score imports stage answer" in v for v in bad)
    assert not any("cli" in v for v in bad)  # cli -> pipeline runs down
    assert cycles(edges) == [["records", "time", "records"]]
    assert private == ["chronoqa/score/__init__.py:1: _private from chronoqa.answer.base"]


@pytest.mark.parametrize("room_name", sorted({p.name.removesuffix(".py") for p in SRC.iterdir()} - {"__pycache__"}))
def test_every_room_has_a_floor(room_name: str) -> None:
    if room_name in ("__init__", "py.typed"):
        return
    assert room_name in FLOOR_OF, f"chronoqa.{room_name} has no floor in FLOORS"


#: The longest function src/ may hold (under 80 lines): a function a reader takes in at once.
MAX_FUNCTION_LINES = 79


def _long_functions(root: Path, limit: int) -> list[str]:
    out = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > limit:
                    out.append(f"{path.relative_to(root)}:{node.lineno} {node.name} ({length} lines)")
    return out


def test_no_function_in_src_is_longer_than_the_limit() -> None:
    assert _long_functions(SRC, MAX_FUNCTION_LINES) == []


def test_the_length_check_finds_a_long_function(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES))
    (tmp_path / "m.py").write_text(f"def short():\n    return 1\n\n\ndef long():\n{body}\n", encoding="utf-8")
    assert _long_functions(tmp_path, MAX_FUNCTION_LINES) == [f"m.py:5 long ({MAX_FUNCTION_LINES + 1} lines)"]
