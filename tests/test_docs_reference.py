"""The reference pages in docs/ lose nothing: every flag the command line's ``--help`` lists is
in docs/cli.md (under its command), every public name in docs/library.md, every environment
variable the library reads in docs/providers.md, and every relative link in docs/ resolves.

The lists are taken from the parser, the packages' ``__all__`` and the environment module,
never retyped here."""

from __future__ import annotations

import argparse
import importlib
import re
import unittest
import warnings
from pathlib import Path

from agentic_rag._http import environment
from agentic_rag._interfaces.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PUBLIC_PACKAGES = (
    "agentic_rag", "agentic_rag.compat", "agentic_rag.components", "agentic_rag.evaluation", "agentic_rag.llm",
    "agentic_rag.llm.components", "agentic_rag.providers", "agentic_rag.testing", "agentic_rag.testing.contracts",
    "agentic_rag.types",
)


def _read(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def _sections(text: str, level: int = 2) -> dict[str, str]:
    """Heading text -> the text under it, up to the next heading of the same or a higher level."""
    marks = re.compile(rf"^#{{1,{level}}} (.+)$", re.M)
    found = list(marks.finditer(text))
    return {m.group(1).strip(): text[m.end(): found[i + 1].start() if i + 1 < len(found) else len(text)]
            for i, m in enumerate(found)}


def _mentions(text: str, word: str) -> bool:
    """``word`` stands on its own in ``text`` (``--json`` is not found inside ``--json-mode``)."""
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text) is not None


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:  # argparse keeps sub-parsers here and nowhere public
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("the parser has no sub-commands")


def _options(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    return [a for a in parser._actions if a.option_strings and not isinstance(a, argparse._HelpAction)]


def _slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    text = heading.strip().lower().replace("`", "")
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


class CliReferenceTest(unittest.TestCase):
    def setUp(self) -> None:
        self.parser = build_parser()
        self.page = _read("cli.md")
        self.sections = _sections(self.page)

    def test_the_flag_walk_sees_the_parser(self) -> None:
        commands = _commands(self.parser)
        self.assertIn("index", commands)
        self.assertIn("--store", [s for a in _options(commands["index"]) for s in a.option_strings])

    def test_every_command_has_a_section_with_each_of_its_flags_and_choices(self) -> None:
        for name, sub in _commands(self.parser).items():
            with self.subTest(command=name):
                section = self.sections.get(f"`agentic-rag {name}`")
                self.assertIsNotNone(section, f"docs/cli.md has no section '## `agentic-rag {name}`'")
                for action in _options(sub):
                    for flag in action.option_strings:
                        self.assertTrue(_mentions(section, flag), f"{name} {flag} is not documented in its section of docs/cli.md")
                    for choice in action.choices or ():
                        self.assertTrue(_mentions(section, str(choice)), f"{name} {action.option_strings[0]} {choice} is not documented")

    def test_the_top_level_flags_are_documented(self) -> None:
        for action in _options(self.parser):
            for flag in action.option_strings:
                self.assertTrue(_mentions(self.page, flag), f"agentic-rag {flag} is not in docs/cli.md")

    def test_every_exit_code_of_the_cli_module_is_in_the_table(self) -> None:
        from agentic_rag._interfaces import cli

        table = self.sections["Exit codes"]
        for name in (n for n in cli.__all__ if n.startswith("EXIT_")):
            self.assertRegex(table, rf"\| {getattr(cli, name)} \|", f"{name} is not in the exit-code table")


class LibraryReferenceTest(unittest.TestCase):
    def test_every_public_name_is_on_the_library_page(self) -> None:
        page = _read("library.md")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # the lazy roots warn for moved names only
            packages = {name: importlib.import_module(name) for name in PUBLIC_PACKAGES}
        for package, module in packages.items():
            for name in module.__all__:
                with self.subTest(package=package, name=name):
                    self.assertTrue(_mentions(page, f"`{name}`"), f"{package}.{name} is not mentioned in docs/library.md")

    def test_the_name_tables_hold_only_public_names(self) -> None:
        page = _read("library.md")
        tables = page[page.index("## Every public name"):]
        public = {name for package in PUBLIC_PACKAGES for name in importlib.import_module(package).__all__}
        listed = set(re.findall(r"^\| `([^`]+)`", tables, re.M))
        self.assertGreater(len(listed), 200)
        self.assertEqual(sorted(listed - public), [], "names listed in docs/library.md that are no longer public")


class ProvidersReferenceTest(unittest.TestCase):
    def test_every_environment_variable_is_in_the_table(self) -> None:
        page = _read("providers.md")
        names = [getattr(environment, n) for n in environment.__all__ if n.startswith("ENV_")]
        self.assertIn("AGENTIC_RAG_LLM_BASE_URL", names)
        for variable in names:
            self.assertTrue(f"| `{variable}` |" in page, f"{variable} is not in docs/providers.md's table")


class DocsLinksTest(unittest.TestCase):
    def test_relative_links_and_their_anchors_resolve(self) -> None:
        pages = sorted(DOCS.glob("*.md")) + [ROOT / "README.md"]
        for page in pages:
            text = page.read_text(encoding="utf-8")
            for target in re.findall(r"\]\(([^)\s]+)\)", text):
                if re.match(r"[a-z]+:", target):
                    continue  # a URL
                with self.subTest(page=page.name, link=target):
                    path, _, anchor = target.partition("#")
                    resolved = (page.parent / path).resolve() if path else page
                    self.assertTrue(resolved.exists(), f"{page.name}: {target} points at nothing")
                    if anchor and resolved.suffix == ".md":
                        headings = re.findall(r"^#+ (.+)$", resolved.read_text(encoding="utf-8"), re.M)
                        self.assertIn(anchor, [_slug(h) for h in headings], f"{page.name}: no heading for #{anchor}")


if __name__ == "__main__":
    unittest.main()
