"""The engine's layout is its architecture: play → runtime ← compile. runtime/ imports neither compile/ nor
play/, compile/ may import runtime/, play/ may import both; only the CLI and the package's front door
(interpreter/__init__.py) sit beside them. Imports under `if TYPE_CHECKING:` are type-only and exempt."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "interpreter"
BESIDE = {"interpreter", "interpreter.cli"}  # the front door and the CLI: may import any layer
MAY_IMPORT = {"runtime": {"runtime"}, "compile": {"compile", "runtime"}, "play": {"play", "compile", "runtime"}}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer(module: str) -> str:
    """compile, runtime or play; "" for the front door and the CLI."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in MAY_IMPORT else ""


def _type_only(node: ast.If) -> bool:
    return isinstance(node.test, (ast.Name, ast.Attribute)) and ast.unparse(node.test).endswith("TYPE_CHECKING")


def engine_imports(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, module) of every engine import that runs, at the top or inside a function; a from-import
    of a subpackage's module (`from interpreter.runtime import ops`) counts as importing that module."""
    found: list[tuple[int, str]] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_only(child):
                for other in child.orelse:
                    visit(other)
                continue
            if isinstance(child, ast.Import):
                found.extend((child.lineno, a.name) for a in child.names if a.name.split(".")[0] == "interpreter")
            elif isinstance(child, ast.ImportFrom) and not child.level and child.module:
                if child.module.split(".")[0] == "interpreter":
                    subpackage = child.module.count(".") == 1 and bool(layer(child.module))
                    found.extend([(child.lineno, f"{child.module}.{a.name}") for a in child.names] if subpackage
                                 else [(child.lineno, child.module)])
            visit(child)

    visit(tree)
    return found


def wrong_way(module: str, source: str) -> list[str]:
    """Every import of `module` (given its source) that runs against the layers."""
    here = layer(module)
    if module in BESIDE:
        return []
    if not here:
        return [f"{module} is neither in compile/, runtime/ nor play/: give it a home"]
    return [f"{module}:{line} imports {target}" for line, target in engine_imports(ast.parse(source))
            if target in BESIDE or target.startswith("interpreter.cli.") or layer(target) not in MAY_IMPORT[here]]


def engine_modules() -> dict[str, str]:
    return {module_name(p): p.read_text(encoding="utf-8") for p in sorted(ENGINE.rglob("*.py"))}


def test_imports_run_one_way() -> None:
    """play → runtime ← compile; a wrong-way import would bring back the circles this layout broke."""
    problems = [problem for module, source in engine_modules().items() for problem in wrong_way(module, source)]
    assert not problems, "\n".join(problems)


def test_no_import_circles() -> None:
    """Within a layer too, modules import each other one way (lazy imports inside functions count)."""
    modules = engine_modules()
    graph = {m: {t for _, t in engine_imports(ast.parse(s)) if t in modules and t != m} for m, s in modules.items()}
    done: set[str] = set()

    def walk(node: str, path: list[str]) -> None:
        if node in path:
            pytest.fail("import circle: " + " → ".join(path[path.index(node):] + [node]))
        if node not in done:
            for target in sorted(graph[node]):
                walk(target, path + [node])
            done.add(node)

    for module in sorted(graph):
        walk(module, [])


@pytest.mark.parametrize("module, source, wrong", [
    ("interpreter.runtime.state", "from interpreter.play.simulate import simulate", True),
    ("interpreter.runtime.state", "def f():\n    from interpreter.compile.loading import load_game", True),
    ("interpreter.runtime.state", "from interpreter import load_game", True),
    ("interpreter.runtime.state", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                  "    from interpreter.compile.types import T", False),
    ("interpreter.runtime.game", "from interpreter.runtime import ops, state", False),
    ("interpreter.compile.compiler", "from interpreter.runtime import ops as O", False),
    ("interpreter.compile.compiler", "import interpreter.play.agents", True),
    ("interpreter.play.simulate", "from interpreter.compile.loading import load_game", False),
    ("interpreter.play.simulate", "from interpreter.cli import main", True),
    ("interpreter.helpers", "", True),
    ("interpreter.cli", "from interpreter.play.simulate import simulate", False),
])
def test_the_check_sees_wrong_way_imports(module: str, source: str, wrong: bool) -> None:
    """The check itself: it flags what runs against the layers and lets the rest through."""
    assert bool(wrong_way(module, source)) is wrong
