"""The house has no circle: no module imports a module that imports it back, wherever the
import statement stands (module level, ``TYPE_CHECKING`` blocks, or inside a function, where an
import is only deferred, not gone), in the package (``src/``) and in the scripts around it
(``bench/``, ``scripts/``, ``tests/``).

A script folder's files import each other by their bare names (``import agent_cost_measures``)
because each script puts its own folder on ``sys.path``; some put another folder there too
(``bench/bench_hostile_inputs.py`` imports ``tests/hostile_inputs.py``). So a bare name is
looked up in the importing file's own folder first, then in the package, then in the other
script folders. Folders named ``data`` and hidden folders (a virtual environment) hold no
module of the tree.
"""

from __future__ import annotations

import ast
import os
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Folders whose files are top-level modules of their folder (``bench/fuzz.py`` is ``fuzz``).
SCRIPT_FOLDERS = ("bench", "scripts", "tests")


def _module_names(top: Path) -> dict[str, Path]:
    """Module name -> file for every ``.py`` under ``top``, named relative to it (``data``,
    ``__pycache__`` and hidden folders are not entered)."""
    out = {}
    for folder, subfolders, files in os.walk(top):
        subfolders[:] = sorted(d for d in subfolders if d not in ("data", "__pycache__") and not d.startswith("."))
        for file in sorted(f for f in files if f.endswith(".py")):
            path = Path(folder) / file
            parts = list(path.relative_to(top).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            if parts:
                out[".".join(parts)] = path
    return out


def _namespaces() -> dict[str, dict[str, Path]]:
    """``"src"`` (the package, ``agentic_rag...``) and each script folder, with their modules."""
    spaces = {"src": {name: path for name, path in _module_names(ROOT / "src").items() if name.split(".")[0] == "agentic_rag"}}
    for folder in SCRIPT_FOLDERS:
        if (ROOT / folder).is_dir():
            spaces[folder] = _module_names(ROOT / folder)
    return spaces


def _node(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _imported_names(name: str, path: Path) -> list[tuple[str, ...]]:
    """What module ``name`` (in ``path``) imports anywhere in its source: per imported name,
    the module names it may be, in order (``from m import x`` is ``m.x`` when that is a module,
    else ``m``)."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: list[tuple[str, ...]] = []
    for statement in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(statement, ast.ImportFrom):
            base = package[: len(package) - statement.level + 1] if statement.level else []
            module = ".".join(base + ([statement.module] if statement.module else []))
            found += [(f"{module}.{alias.name}", module) if module else (alias.name,) for alias in statement.names]
        elif isinstance(statement, ast.Import):
            found += [(alias.name,) for alias in statement.names]
    return found


def import_graph() -> dict[str, set[str]]:
    """File -> the files of the tree it imports (repository-relative paths)."""
    spaces = _namespaces()
    graph: dict[str, set[str]] = {}
    for space, modules in spaces.items():
        # Where a name is looked up: the file's own folder, the package, the other folders.
        order = [modules] if space == "src" else [modules, spaces["src"], *(spaces[f] for f in SCRIPT_FOLDERS if f in spaces and f != space)]
        for name, path in modules.items():
            targets = set()
            for candidates in _imported_names(name, path):
                target = next((known[c] for c in candidates for known in order if c in known), None)
                if target is not None and target != path:
                    targets.add(_node(target))
            graph[_node(path)] = targets
    return graph


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every cycle a depth-first walk meets, each as the path that closes it."""
    state: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    return cycles


class ImportGraphTest(unittest.TestCase):
    def test_the_cycle_finder_finds_a_two_module_circle(self):
        self.assertEqual(find_cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}), [["a", "b", "a"]])
        self.assertEqual(find_cycles({"a": {"b"}, "b": set()}), [])

    def test_the_graph_sees_every_kind_of_import(self):
        graph = import_graph()
        src = "src/agentic_rag/"
        self.assertIn(src + "_ingest/blocks.py", graph[src + "_ingest/loaders.py"])
        # ... imports deferred into a function (the CLI imports each command's modules there)
        self.assertIn(src + "_interfaces/mcp_demo.py", graph[src + "_interfaces/cli_commands.py"])
        # The demo builds on the MCP server, never the other way round.
        self.assertIn(src + "_interfaces/mcp_server.py", graph[src + "_interfaces/mcp_demo.py"])
        if "bench/bench_agent_cost.py" in graph:
            # A script's siblings by bare name, a deferred one, the package, another folder.
            self.assertIn("bench/agent_cost_measures.py", graph["bench/bench_agent_cost.py"])
            self.assertIn("bench/in_process_cli.py", graph["bench/focus_diagnosis.py"])
            self.assertIn(src + "_interfaces/cli.py", graph["bench/in_process_cli.py"])
            self.assertIn("tests/hostile_inputs.py", graph["bench/bench_hostile_inputs.py"])
        if "scripts/workflow.py" in graph:
            self.assertIn("scripts/parallel_skill/function_adapters.py", graph["scripts/workflow.py"])
            self.assertIn("scripts/parallel_skill/__init__.py", graph["scripts/workflow.py"])
        self.assertIn("tests/cli_support.py", graph["tests/test_linear_text_passes.py"])
        self.assertIn(src + "_text/segments.py", graph["tests/test_linear_text_passes.py"])
        self.assertFalse(any("/data/" in node for node in graph))

    def test_no_module_imports_one_that_imports_it_back(self):
        cycles = find_cycles(import_graph())
        self.assertEqual([" -> ".join(c) for c in cycles], [], "import circles (each file imports the next; break each one)")


if __name__ == "__main__":
    unittest.main()
