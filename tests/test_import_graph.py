"""The house has no circle: no module of the package imports a module that imports it back,
wherever the import statement stands (module level, ``TYPE_CHECKING`` blocks, or inside a
function, where an import is only deferred, not gone)."""

from __future__ import annotations

import ast
import unittest
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted((SRC / "agentic_rag").rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The package modules ``name`` imports anywhere in its source (``from m import x`` counts
    as ``m.x`` when that is a module, else ``m``)."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for statement in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(statement, ast.ImportFrom):
            base = package[: len(package) - statement.level + 1] if statement.level else []
            module = ".".join(base + ([statement.module] if statement.module else []))
            for alias in statement.names:
                found.add(f"{module}.{alias.name}" if f"{module}.{alias.name}" in known else module)
        elif isinstance(statement, ast.Import):
            found.update(alias.name for alias in statement.names)
    return {m for m in found if m in known and m != name}


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

    def test_no_module_imports_one_that_imports_it_back(self):
        known = _modules()
        graph = {name: _imports(name, path, known) for name, path in known.items()}
        self.assertIn("agentic_rag._ingest.blocks", graph["agentic_rag._ingest.loaders"])  # the graph sees imports
        # ... and imports deferred into a function (the CLI imports each command's modules there)
        self.assertIn("agentic_rag._interfaces.mcp_demo", graph["agentic_rag._interfaces.cli_commands"])
        # The demo builds on the MCP server, never the other way round.
        self.assertIn("agentic_rag._interfaces.mcp_server", graph["agentic_rag._interfaces.mcp_demo"])
        self.assertEqual([" -> ".join(c) for c in find_cycles(graph)], [])


if __name__ == "__main__":
    unittest.main()
