"""Tests for scripts/validate_skill.py, run against temporary skill folders."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
SCRIPT = REPO_ROOT / "scripts" / "validate_skill.py"


def _load_script():
    spec = importlib.util.spec_from_file_location("validate_skill_under_test", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    # Dataclasses look their module up in sys.modules while the class body is built.
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


vs = _load_script()

SKILL_MD = """---
name: agentic-rag
description: "Build agentic retrieval pipelines in Python. Use when: the user asks for RAG."
---
# Agentic RAG

Read [the loop](references/agentic-rag-behavior.md#loop) and [`README.md`](README.md).
"""

OPENAI_YAML = """# Host metadata for the skill.
interface:
  display_name: "Agentic RAG"
  short_description: "Agentic retrieval pipelines for Python"
  default_prompt: "Use $agentic-rag to answer from my documents."
policy:
  allow_implicit_invocation: true
dependencies:
  tools:
    - type: "mcp"
      value: "agentic-rag"
      transport: "stdio"
      command: "python"
      args:
        - "-m"
        - "agentic_rag.mcp"
"""

# Relative links in VALID_FILES; AGENTS.md has none, so tests rewrite it freely.
VALID_LINK_COUNT = 6
VALID_FILES = {
    "SKILL.md": SKILL_MD,
    "README.md": "# Agentic RAG\n\nSee [AGENTS.md](AGENTS.md) and [the license](LICENSE).\n",
    "AGENTS.md": "# Agents\n\nRun `python scripts/validate_skill.py`.\n",
    "LICENSE": "MIT License\n",
    "pyproject.toml": "[project]\nname = \"agentic-rag\"\n",
    "agents/openai.yaml": OPENAI_YAML,
    "references/agentic-rag-behavior.md": "# Behavior\n\n## Loop\n\n[Sources](source-map.md).\n",
    "references/prompts-and-schemas.md": "# Prompts\n\nBack to [the skill](../SKILL.md).\n",
    "references/source-map.md": "# Source map\n",
}


def make_skill(parent: Path, folder: str = "agentic-rag") -> Path:
    """Write a valid skill folder under ``parent`` and return it."""
    root = parent / folder
    for rel, text in VALID_FILES.items():
        write(root, rel, text)
    (root / "scripts").mkdir(parents=True, exist_ok=True)
    shutil.copyfile(SCRIPT, root / "scripts" / "validate_skill.py")
    return root


def write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def skill_md(name: str = "agentic-rag", description: str = '"Build RAG pipelines."',
             extra: str = "", body: str = "# Agentic RAG\n") -> str:
    return f"---\nname: {name}\ndescription: {description}\n{extra}---\n{body}"


class SkillTestCase(unittest.TestCase):
    def setUp(self) -> None:
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.tmp = Path(tmp.name)
        self.root = make_skill(self.tmp)

    def run_validate(self, installed: bool = False):
        return vs.validate(self.root, installed=installed)

    def assert_error(self, fragment: str, installed: bool = False):
        report = self.run_validate(installed)
        self.assertFalse(report.ok)
        matching = [error for error in report.errors if fragment in error]
        self.assertTrue(matching, f"no error contains {fragment!r}: {report.errors}")
        return report

    def assert_valid(self, installed: bool = False):
        report = self.run_validate(installed)
        self.assertEqual(report.errors, ())
        self.assertTrue(report.ok)
        return report


class ValidSkillTests(SkillTestCase):
    def test_valid_skill_has_no_errors_or_warnings(self) -> None:
        report = self.assert_valid()
        self.assertEqual(report.warnings, ())
        self.assertEqual(report.root, "agentic-rag")
        checked = report.checked
        self.assertEqual(checked.name, "agentic-rag")
        self.assertEqual(checked.frontmatter_keys, ("description", "name"))
        self.assertEqual(checked.required_files, vs.REQUIRED_FILES)
        self.assertEqual(checked.skill_md_lines, len(SKILL_MD.splitlines()))
        self.assertEqual(checked.relative_links, VALID_LINK_COUNT)
        self.assertTrue(checked.openai_yaml_parsed)
        self.assertEqual(checked.markdown_files[:3], ("SKILL.md", "README.md", "AGENTS.md"))

    def test_installed_folder_with_matching_name_is_valid(self) -> None:
        self.assertTrue(self.assert_valid(installed=True).checked.installed)

    def test_checkout_folder_name_is_only_reported(self) -> None:
        root = make_skill(self.tmp, folder="checkout-clone")
        report = vs.validate(root, installed=False)
        self.assertEqual(report.errors, ())
        self.assertEqual(report.checked.folder, "checkout-clone")
        self.assertEqual(report.checked.name, "agentic-rag")

    def test_to_json_has_the_documented_shape(self) -> None:
        data = self.assert_valid().to_json()
        self.assertEqual(list(data), ["ok", "root", "errors", "warnings", "checked"])
        self.assertIs(data["ok"], True)
        self.assertEqual(data["checked"]["frontmatter_keys"], ["description", "name"])
        json.dumps(data)  # must be serialisable as is

    def test_missing_root_raises(self) -> None:
        with self.assertRaises(NotADirectoryError):
            vs.validate(self.tmp / "nope")


class FrontmatterTests(SkillTestCase):
    def test_missing_description(self) -> None:
        write(self.root, "SKILL.md", "---\nname: agentic-rag\n---\n# Body\n")
        self.assert_error("missing required key 'description'")

    def test_missing_name(self) -> None:
        write(self.root, "SKILL.md", "---\ndescription: \"Does things.\"\n---\n# Body\n")
        self.assert_error("missing required key 'name'")

    def test_extra_key_is_named(self) -> None:
        write(self.root, "SKILL.md", skill_md(extra="license: MIT\n"))
        self.assert_error("key 'license' is not allowed")

    def test_extra_nested_key_is_named(self) -> None:
        write(self.root, "SKILL.md", skill_md(extra="metadata:\n  version: \"1.0\"\n"))
        report = self.assert_error("key 'metadata' is not allowed")
        self.assertEqual(len(report.errors), 1, report.errors)

    def test_no_frontmatter(self) -> None:
        write(self.root, "SKILL.md", "# Agentic RAG\n")
        self.assert_error("must start with a '---' line")

    def test_unclosed_frontmatter(self) -> None:
        write(self.root, "SKILL.md", "---\nname: agentic-rag\ndescription: \"x\"\n# Body\n")
        self.assert_error("no closing '---'")

    def test_bad_name_characters(self) -> None:
        for name in ("Agentic-RAG", "agentic_rag", "agentic rag"):
            with self.subTest(name=name):
                write(self.root, "SKILL.md", skill_md(name=f'"{name}"'))
                self.assert_error("may contain only lowercase a-z, 0-9 and '-'")

    def test_double_hyphen(self) -> None:
        write(self.root, "SKILL.md", skill_md(name="agentic--rag"))
        self.assert_error("must not contain '--'")

    def test_leading_and_trailing_hyphen(self) -> None:
        for name in ("-agentic-rag", "agentic-rag-"):
            with self.subTest(name=name):
                write(self.root, "SKILL.md", skill_md(name=name))
                self.assert_error("must not start or end with '-'")

    def test_name_length_limit(self) -> None:
        write(self.root, "SKILL.md", skill_md(name="a" * 64))
        self.assert_valid()
        write(self.root, "SKILL.md", skill_md(name="a" * 65))
        self.assert_error("at most 64 characters, got 65")

    def test_name_folder_mismatch_only_fails_when_installed(self) -> None:
        write(self.root, "SKILL.md", skill_md(name="other-name"))
        self.assertEqual(self.assert_valid(installed=False).checked.folder, "agentic-rag")
        self.assert_error("must equal the skill folder name 'agentic-rag'", installed=True)

    def test_description_length_limit(self) -> None:
        write(self.root, "SKILL.md", skill_md(description="d" * 1024))
        self.assert_valid()
        write(self.root, "SKILL.md", skill_md(description="d" * 1025))
        self.assert_error("description must be at most 1024 characters, got 1025")

    def test_description_angle_brackets(self) -> None:
        for description in ('"Use <tool> here."', '"a -> b"'):
            with self.subTest(description=description):
                write(self.root, "SKILL.md", skill_md(description=description))
                self.assert_error("must not contain '<' or '>'")

    def test_description_must_be_single_line(self) -> None:
        write(self.root, "SKILL.md", skill_md(description=">\n  Folded over\n  two lines."))
        self.assert_error("description must be a single-line string")
        write(self.root, "SKILL.md", skill_md(description='"Two\\nlines"'))
        self.assert_error("description must be a single line")

    def test_empty_description(self) -> None:
        write(self.root, "SKILL.md", skill_md(description='""'))
        self.assert_error("description must be a non-empty string")

    def test_unquoted_colon_in_description_must_be_quoted(self) -> None:
        write(self.root, "SKILL.md", skill_md(description="Use when: asked"))
        self.assert_error("must be quoted")
        write(self.root, "SKILL.md", skill_md(description="'Use when: it''s asked'"))
        self.assert_valid()

    def test_line_limit(self) -> None:
        header = skill_md()
        filler = 199 - len(header.splitlines())
        write(self.root, "SKILL.md", header + "text\n" * filler)
        self.assertEqual(self.assert_valid().checked.skill_md_lines, 199)
        write(self.root, "SKILL.md", header + "text\n" * (filler + 1))
        self.assert_error("SKILL.md has 200 lines; it must have fewer than 200")


class RequiredFilesTests(SkillTestCase):
    def test_each_missing_required_file_is_reported(self) -> None:
        for rel in vs.REQUIRED_FILES:
            with self.subTest(rel=rel):
                root = make_skill(self.tmp, folder="missing-one")
                (root / rel).unlink()
                report = vs.validate(root)
                self.assertIn(f"missing required file: {rel}", report.errors)
                self.assertNotIn(rel, report.checked.required_files)
                shutil.rmtree(root)

    def test_required_file_that_is_a_folder_is_missing(self) -> None:
        (self.root / "LICENSE").unlink()
        (self.root / "LICENSE").mkdir()
        self.assert_error("missing required file: LICENSE")


class LinkTests(SkillTestCase):
    def test_broken_link_in_reference(self) -> None:
        write(self.root, "references/source-map.md", "See [code](../src/missing.py#L1).\n")
        self.assert_error("references/source-map.md:1: broken link '../src/missing.py#L1' "
                          "(src/missing.py does not exist)")

    def test_links_resolve_relative_to_their_file(self) -> None:
        write(self.root, "references/source-map.md", "[x](references/prompts-and-schemas.md)\n")
        self.assert_error("references/references/prompts-and-schemas.md does not exist")

    def test_anchor_is_stripped(self) -> None:
        write(self.root, "README.md", "[a](AGENTS.md#setup) and [b](NOPE.md#setup)\n")
        report = self.assert_error("broken link 'NOPE.md#setup'")
        self.assertEqual(len(report.errors), 1, report.errors)

    def test_fenced_and_inline_code_are_ignored(self) -> None:
        write(self.root, "AGENTS.md",
              "```markdown\n[a](missing.md)\n````\n~~~\n[b](missing.md)\n~~~\n"
              "Write `[c](missing.md)` to link.\n")
        self.assertEqual(self.assert_valid().checked.relative_links, VALID_LINK_COUNT)

    def test_external_and_anchor_links_are_skipped(self) -> None:
        write(self.root, "AGENTS.md",
              "[w](https://example.com/x.md) [h](http://example.com) [m](mailto:a@b.c) [t](#top)\n")
        self.assertEqual(self.assert_valid().checked.relative_links, VALID_LINK_COUNT)

    def test_images_titles_and_reference_definitions_are_checked(self) -> None:
        write(self.root, "AGENTS.md",
              '![logo](img/logo.png "Logo")\n\n[ref]: docs/guide.md\n[^note]: not a link\n')
        report = self.run_validate()
        self.assertIn("AGENTS.md:1: broken link 'img/logo.png' (img/logo.png does not exist)",
                      report.errors)
        self.assertIn("AGENTS.md:3: broken link 'docs/guide.md' (docs/guide.md does not exist)",
                      report.errors)
        self.assertEqual(len(report.errors), 2, report.errors)

    def test_link_to_folder_and_absolute_link_fail(self) -> None:
        write(self.root, "AGENTS.md", "[refs](references/) [abs](/etc/hosts)\n")
        self.assert_error("points to the folder references; link a file")
        self.assert_error("link '/etc/hosts' is absolute")

    def test_link_outside_the_skill_is_a_warning(self) -> None:
        write(self.tmp, "outside.md", "# Outside\n")
        write(self.root, "AGENTS.md", "[o](../outside.md)\n")
        report = self.assert_valid()
        self.assertEqual(len(report.warnings), 1)
        self.assertIn("points outside the skill folder", report.warnings[0])

    def test_extra_reference_files_are_checked(self) -> None:
        write(self.root, "references/extra.md", "[gone](gone.md)\n")
        report = self.assert_error("references/extra.md:1: broken link 'gone.md'")
        self.assertIn("references/extra.md", report.checked.markdown_files)


class OpenAIYamlTests(SkillTestCase):
    def set_yaml(self, old: str, new: str) -> None:
        self.assertIn(old, OPENAI_YAML)
        write(self.root, "agents/openai.yaml", OPENAI_YAML.replace(old, new))

    def test_short_description_length(self) -> None:
        old = "Agentic retrieval pipelines for Python"
        for text, ok in (("x" * 24, False), ("x" * 25, True), ("x" * 64, True), ("x" * 65, False)):
            with self.subTest(length=len(text)):
                self.set_yaml(old, text)
                if ok:
                    self.assert_valid()
                else:
                    self.assert_error(f"short_description must be 25-64 characters, "
                                      f"got {len(text)} characters")

    def test_unquoted_string_is_an_error(self) -> None:
        self.set_yaml('display_name: "Agentic RAG"', "display_name: Agentic RAG")
        self.assert_error("agents/openai.yaml line 3: string value of interface.display_name "
                          "must be quoted, got 'Agentic RAG'")

    def test_unquoted_list_item_is_an_error(self) -> None:
        self.set_yaml('- "-m"', "- -m")
        self.assert_error("string value of dependencies.tools[0].args[0] must be quoted")

    def test_implicit_invocation_must_be_boolean(self) -> None:
        self.set_yaml("allow_implicit_invocation: true", 'allow_implicit_invocation: "true"')
        self.assert_error("policy.allow_implicit_invocation must be true or false, got 'true'")

    def test_missing_display_name_and_empty_prompt(self) -> None:
        self.set_yaml('  display_name: "Agentic RAG"\n', "")
        self.assert_error("interface.display_name must be a non-empty string, got None")
        self.set_yaml('"Use $agentic-rag to answer from my documents."', '""')
        self.assert_error("interface.default_prompt must be a non-empty string")

    def test_mcp_tool_needs_transport_and_command(self) -> None:
        self.set_yaml('      command: "python"\n', "")
        self.assert_error("dependencies.tools[0] needs a non-empty string 'command'")
        self.set_yaml('      transport: "stdio"\n', "")
        self.assert_error("dependencies.tools[0] needs a non-empty string 'transport'")

    def test_tool_needs_type_and_value(self) -> None:
        self.set_yaml('    - type: "mcp"\n      value: "agentic-rag"\n', '    - name: "x"\n')
        self.assert_error("dependencies.tools[0] needs a non-empty string 'type'")
        self.assert_error("dependencies.tools[0] needs a non-empty string 'value'")

    def test_syntax_outside_the_subset_is_reported_with_line(self) -> None:
        cases = (
            ("  display_name:", "\tdisplay_name:", "line 3: tab in indentation"),
            ("  display_name:", "   display_name:", "line 3: indentation 3 is not a multiple of 2"),
            ('"Agentic RAG"', "[Agentic, RAG]", "must be quoted"),
            ('"Agentic RAG"', '"Agentic RAG', "unterminated quoted string"),
        )
        for old, new, fragment in cases:
            with self.subTest(new=new):
                self.set_yaml(old, new)
                report = self.assert_error(fragment)
                self.assertFalse(report.checked.openai_yaml_parsed)

    def test_unknown_key_is_a_warning(self) -> None:
        self.set_yaml("policy:\n", 'policy:\n  sandbox: "strict"\n')
        report = self.assert_valid()
        self.assertEqual(report.warnings, ("agents/openai.yaml: unknown key policy.sandbox",))


class YamlSubsetParserTests(unittest.TestCase):
    def test_parses_nested_mappings_lists_and_scalars(self) -> None:
        doc = vs.parse_yaml_subset(OPENAI_YAML)
        self.assertEqual(doc.unquoted, ())
        self.assertEqual(doc.data["policy"], {"allow_implicit_invocation": True})
        self.assertEqual(doc.data["dependencies"]["tools"][0]["args"], ["-m", "agentic_rag.mcp"])
        self.assertEqual(doc.data["interface"]["display_name"], "Agentic RAG")

    def test_scalar_quoting_rules(self) -> None:
        self.assertEqual(vs.parse_scalar('"a \\"b\\" \\\\ c"  # note'), ('a "b" \\ c', True))
        self.assertEqual(vs.parse_scalar("'it''s'"), ("it's", True))
        self.assertEqual(vs.parse_scalar("false"), (False, False))
        self.assertEqual(vs.parse_scalar("plain text # note"), ("plain text", False))
        for bad in ('"a" b', '"\\q"', "{a: 1}", "a: b", "|"):
            with self.subTest(bad=bad), self.assertRaises(vs.YamlSubsetError):
                vs.parse_scalar(bad)

    def test_structure_errors(self) -> None:
        cases = (
            ("a: \"1\"\na: \"2\"\n", "duplicate key 'a'"),
            ("a:\n", "key 'a' has no value"),
            ("a:\n    b: \"1\"\n", "expected indentation 2, got 4"),
            ("  a: \"1\"\n", "first key is indented"),
            ("a:\n  -   b: \"1\"\n", "exactly one space after '-'"),
            ("a:\n  - \"x\"\n  b: \"1\"\n", "expected a '- ' list item"),
        )
        for text, fragment in cases:
            with self.subTest(text=text), self.assertRaisesRegex(vs.YamlSubsetError, fragment):
                vs.parse_yaml_subset(text)

    def test_records_unquoted_strings_with_their_path(self) -> None:
        doc = vs.parse_yaml_subset("a:\n  b: plain\n  c:\n    - x: \"q\"\n      y: bare\n")
        self.assertEqual(doc.unquoted, ((2, "a.b", "plain"), (5, "a.c[0].y", "bare")))


class CommandLineTests(unittest.TestCase):
    def run_cli(self, *args: str, script: Path = SCRIPT) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, str(script), *args], capture_output=True,
                              text=True, timeout=60, check=False)

    def test_json_output_and_exit_codes(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            root = make_skill(Path(tmp))
            copy = root / "scripts" / "validate_skill.py"
            # Default root is the parent of the scripts folder, shown by folder name only.
            done = self.run_cli("--installed", script=copy)
            self.assertEqual(done.returncode, 0, done.stderr)
            report = json.loads(done.stdout)
            self.assertEqual(list(report), ["ok", "root", "errors", "warnings", "checked"])
            self.assertEqual((report["ok"], report["root"], report["errors"]),
                             (True, "agentic-rag", []))
            self.assertNotIn(str(Path(tmp).resolve()), done.stdout)
            self.assertNotIn(tmp, done.stdout)

            write(root, "SKILL.md", skill_md(extra="license: MIT\n"))
            done = self.run_cli("--root", str(root))
            self.assertEqual(done.returncode, 1)
            report = json.loads(done.stdout)
            self.assertFalse(report["ok"])
            self.assertEqual(report["root"], str(root))
            self.assertTrue(any("'license'" in error for error in report["errors"]))
            self.assertIn("1 error(s)", done.stderr)

            done = self.run_cli("--root", str(Path(tmp) / "nope"))
            self.assertEqual((done.returncode, done.stdout), (2, ""))
            self.assertIn("is not a directory", done.stderr)

        done = self.run_cli("--bogus")
        self.assertEqual((done.returncode, done.stdout), (2, ""))
        done = self.run_cli("--help")
        self.assertEqual(done.returncode, 0)
        self.assertIn("--installed", done.stdout)


class RepositoryTests(unittest.TestCase):
    def test_repository_root_is_a_valid_skill(self) -> None:
        if not (REPO_ROOT / "SKILL.md").is_file():
            self.skipTest("SKILL.md is not in the repository root yet; nothing to validate")
        report = vs.validate(REPO_ROOT)
        self.assertEqual(report.errors, ())


if __name__ == "__main__":
    unittest.main()
