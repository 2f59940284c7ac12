"""The README stays short, in its order, and true: its sample output is what the demo prints,
its two set-up commands are the ones CI runs, and the Python examples of the README and of
docs/library.md run as written (so the tour stays true)."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
import unittest
from pathlib import Path

from cli_support import run_cli

from agentic_rag._interfaces.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
LIBRARY = ROOT / "docs" / "library.md"
MAX_CHARS = 8_000
SECTIONS = ["Set up and run", "Install as an agent skill", "Index, search, ask", "The library", "Read more", "Licence"]
DEMO_COMMAND = "python3 -m pip install -e . && agentic-rag demo"
TEST_COMMAND = "python3 -m pip install -e '.[test]' && python3 -m pytest -q"


def _python_blocks(path: Path) -> list[str]:
    return [b for b in re.findall(r"```python\n(.*?)```", path.read_text(encoding="utf-8"), re.S)
            if not b.startswith("# needs a model endpoint")]


def _run_blocks(path: Path, blocks: list[str]) -> str:
    namespace: dict = {}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for block in blocks:
            exec(compile(block, str(path), "exec"), namespace)  # noqa: S102 - our own docs
    return out.getvalue()


class ReadmeShapeTest(unittest.TestCase):
    def setUp(self) -> None:
        self.text = README.read_text(encoding="utf-8")

    def test_short(self) -> None:
        self.assertLessEqual(len(self.text), MAX_CHARS)

    def test_sections_in_order(self) -> None:
        self.assertEqual(re.findall(r"^## (.+)$", self.text, re.M), SECTIONS)

    def test_the_two_set_up_commands_are_the_ones_ci_runs(self) -> None:
        setup = self.text[self.text.index("## Set up and run"):self.text.index("## Install as an agent skill")]
        self.assertIn(f"```bash\n{DEMO_COMMAND}\n```", setup)
        self.assertIn(f"```bash\n{TEST_COMMAND}\n```", setup)
        self.assertIn(TEST_COMMAND, (ROOT / ".ci" / "run").read_text(encoding="utf-8"))

    def test_the_first_screen_shows_an_answer_and_the_skill_install(self) -> None:
        intro = self.text[:self.text.index("## Set up and run")]
        self.assertRegex(intro, r"\n```\nQuestion: ")
        self.assertRegex(intro, r"\(\S+\.md:\d+-\d+\)")  # a file:lines citation
        self.assertIn("Status: ", intro)
        self.assertLess(self.text.index("~/.claude/skills/agentic-rag"), self.text.index("## Index, search, ask"))

    def test_the_sample_output_is_what_the_demo_prints(self) -> None:
        sample = re.search(r"\n```\n(Question: .*?)```", self.text, re.S)
        self.assertIsNotNone(sample)
        code, out, err = run_cli("demo")
        self.assertEqual(code, 0, err)
        printed = {line.rstrip() for line in out.splitlines()}
        for line in filter(None, (line.rstrip() for line in sample.group(1).splitlines())):
            self.assertIn(line, printed, "a README sample line the demo no longer prints: refresh the sample from `agentic-rag demo`")


class CommandsParseTest(unittest.TestCase):
    """Every ``agentic-rag ...`` line in the README's and docs/cli.md's shell blocks is a
    command line the parser accepts (the flags exist and their values fit)."""

    def test_shell_lines_parse(self) -> None:
        parser = build_parser()
        seen = 0
        for path in (README, ROOT / "docs" / "cli.md"):
            for block in re.findall(r"```bash\n(.*?)```", path.read_text(encoding="utf-8"), re.S):
                for line in block.splitlines():
                    words = shlex.split(line, comments=True)
                    if "--" in words:  # `claude mcp add NAME -- agentic-rag mcp ...` registers one
                        words = words[words.index("--") + 1:]
                    if words[:1] != ["agentic-rag"]:
                        continue
                    seen += 1
                    with self.subTest(path=path.name, line=line), contextlib.redirect_stderr(io.StringIO()):
                        try:
                            parser.parse_args(words[1:])
                        except SystemExit as exc:
                            self.fail(f"{path.name}: {line!r} does not parse (exit {exc.code})")
        self.assertGreaterEqual(seen, 10)


class ExamplesRunTest(unittest.TestCase):
    def test_readme_python_runs(self) -> None:
        blocks = _python_blocks(README)
        self.assertGreaterEqual(len(blocks), 1)
        out = _run_blocks(README, blocks)
        self.assertIn("answered", out)
        self.assertIn("Lyon", out)

    def test_library_page_python_runs_in_order(self) -> None:
        blocks = _python_blocks(LIBRARY)
        self.assertGreaterEqual(len(blocks), 3)
        out = _run_blocks(LIBRARY, blocks)
        self.assertIn("answered", out)
        self.assertIn("Lyon", out)
        self.assertIn("acme", out)  # the parallel workflow's fused documents


if __name__ == "__main__":
    unittest.main()
