"""The house has no circle: no module imports a module that imports it back, wherever the
import statement stands (module level, ``TYPE_CHECKING`` blocks, or inside a function, where an
import is only deferred, not gone), in the package (``src/``) and in the scripts around it
(``bench/``, ``scripts/``, ``tests/``).

``bench/`` is one package in groups (``bench/agents/bench_agent_cost.py`` is
``bench.agents.bench_agent_cost``): its scripts put the repository root on ``sys.path`` and
import each other by full name (``from bench.agents import agent_cost_measures``). The files
of ``scripts/`` and ``tests/`` import each other by their bare names, because each script puts
its own folder on ``sys.path``; some put another folder there too
(``bench/ingestion/bench_hostile_inputs.py`` imports ``tests/hostile_inputs.py``). So a name is
looked up in the importing file's own folder first (a script's folder is on ``sys.path`` when it
runs), then in its script folder, then in the package, then in the other script folders.
Folders named ``data`` and hidden folders (a virtual environment) hold no module of the tree.
"""

from __future__ import annotations

import ast
import os
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Folders of scripts: ``tests/x.py`` is module ``x``; a folder with an ``__init__.py`` is a
#: package, so ``bench/agents/x.py`` is ``bench.agents.x``.
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
            if (ROOT / folder / "__init__.py").is_file():
                spaces[folder] = {".".join(filter(None, (folder, name))): path for name, path in _module_names(ROOT / folder).items()}
                spaces[folder][folder] = ROOT / folder / "__init__.py"
            else:
                spaces[folder] = _module_names(ROOT / folder)
    return spaces


def _siblings(path: Path) -> dict[str, Path]:
    """The modules a script finds by bare name in its own folder (on ``sys.path`` when it runs)."""
    return {p.stem: p for p in sorted(path.parent.glob("*.py")) if p.name != "__init__.py"}


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
            lookup = order if space == "src" else [_siblings(path), *order]
            for candidates in _imported_names(name, path):
                target = next((known[c] for c in candidates for known in lookup if c in known), None)
                if target is not None and target != path:
                    targets.add(_node(target))
            graph[_node(path)] = targets
    return graph


#: The layers above text analysis (``docs/architecture.md``, bottom to top): a module of
#: ``_text/`` imports none of them, nor the package's root namespaces, which reach every layer.
ABOVE_TEXT = ("_answering", "_retrieval", "_agentic", "_parallel", "_http", "llm", "providers", "_ingest", "_store", "evaluation",
              "_interfaces", "compat", "testing", "_samples")
ROOT_NAMESPACES = ("agentic_rag", "agentic_rag.components", "agentic_rag.types")


def upward_imports(name: str, path: Path) -> list[str]:
    """The modules above text analysis that module ``name`` (in ``path``) imports anywhere in
    its source, by absolute or relative import (``from m import x`` is ``m.x`` when that is a
    module, else ``m``): those under one of :data:`ABOVE_TEXT`, and the root namespaces."""
    modules = _module_names(ROOT / "src")
    out = []
    for candidates in _imported_names(name, path):
        module = next((c for c in candidates if c in modules), candidates[-1])
        parts = module.split(".")
        if parts[0] == "agentic_rag" and (module in ROOT_NAMESPACES or (len(parts) > 1 and parts[1] in ABOVE_TEXT)):
            out.append(module)
    return out


def bare_imports(name: str, path: Path, stems: set[str]) -> list[str]:
    """The names in ``stems`` (file names without ``.py``) that ``path`` imports bare."""
    return [next(c for c in candidates if c in stems) for candidates in _imported_names(name, path) if any(c in stems for c in candidates)]


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
        if "bench/agents/bench_agent_cost.py" in graph:
            # The bench package's modules in their groups: a module of the same group, of another
            # group, of the package's root (deferred), a deferred one, the library, another folder.
            self.assertIn("bench/agents/agent_cost_measures.py", graph["bench/agents/bench_agent_cost.py"])
            self.assertIn("bench/corpora/docs_qa_sets.py", graph["bench/agents/bench_agent_cost.py"])
            self.assertIn("bench/benchmark_doc.py", graph["bench/agents/bench_agent_cost.py"])
            self.assertIn("bench/agents/in_process_cli.py", graph["bench/agents/focus_diagnosis.py"])
            self.assertIn("bench/agents/focus_diagnosis.py", graph["bench/fitting/study_earned_ceiling.py"])
            self.assertIn(src + "_interfaces/cli.py", graph["bench/agents/in_process_cli.py"])
            self.assertIn("tests/hostile_inputs.py", graph["bench/ingestion/bench_hostile_inputs.py"])
            self.assertIn("tests/pdf_builder.py", graph["bench/ingestion/fuzz_structured.py"])
        if "scripts/workflow.py" in graph:
            self.assertIn("scripts/parallel_skill/function_adapters.py", graph["scripts/workflow.py"])
            self.assertIn("scripts/parallel_skill/__init__.py", graph["scripts/workflow.py"])
        self.assertIn("tests/cli_support.py", graph["tests/test_linear_text_passes.py"])
        self.assertIn(src + "_text/segments.py", graph["tests/test_linear_text_passes.py"])
        self.assertFalse(any("/data/" in node for node in graph))

    def test_bench_modules_import_each_other_by_their_full_names(self):
        # One way in: a bench module imported by its bare name is found only while the importing
        # script runs from that module's folder, and not when another group imports the script.
        bench = _namespaces().get("bench", {})
        stems = {path.stem for path in bench.values() if path.name != "__init__.py"}
        bare = [f"{_node(path)}: {found}" for name, path in bench.items() for found in bare_imports(name, path, stems)]
        self.assertEqual(bare, [])
        with tempfile.TemporaryDirectory() as folder:
            (Path(folder) / "a.py").write_text("import json\nimport b\nfrom c import d\nfrom g.c import d\n", encoding="utf-8")
            self.assertEqual(bare_imports("g.a", Path(folder) / "a.py", {"b", "c"}), ["b", "c"])

    def test_no_module_imports_one_that_imports_it_back(self):
        cycles = find_cycles(import_graph())
        self.assertEqual([" -> ".join(c) for c in cycles], [], "import circles (each file imports the next; break each one)")

    def test_text_analysis_imports_no_layer_above_it(self):
        # The bottom layer: what needs a layer above it (the relevance reads statements as the
        # earned check does) is passed in by the caller, never imported.
        text = {name: path for name, path in _module_names(ROOT / "src").items() if name.startswith("agentic_rag._text.")}
        self.assertIn("agentic_rag._text.focus", text)
        upward = [f"{_node(path)}: {found}" for name, path in text.items() for found in upward_imports(name, path)]
        self.assertEqual(upward, [], "a _text module imports a layer above it (pass what it needs in instead)")
        with tempfile.TemporaryDirectory() as folder:
            planted = Path(folder) / "planted.py"
            planted.write_text("import re\nfrom agentic_rag._text.lines import split_lines\nfrom agentic_rag._contracts import Snippet\n"
                               "from agentic_rag._answering.earned import earned_verdict\nfrom .._store import records\nfrom agentic_rag import components\n"
                               "def late():\n    import agentic_rag.llm.chat\n    from agentic_rag.providers import vertex\n", encoding="utf-8")
            self.assertEqual(upward_imports("agentic_rag._text.planted", planted),
                             ["agentic_rag._answering.earned", "agentic_rag._store.records", "agentic_rag.components", "agentic_rag.llm.chat",
                              "agentic_rag.providers.vertex"])


if __name__ == "__main__":
    unittest.main()
