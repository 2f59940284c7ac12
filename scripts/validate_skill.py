"""Check that a folder is an installable Agent Skill and print one JSON report.

Checks the SKILL.md frontmatter and length, the required files, every relative Markdown
link in SKILL.md, README.md, AGENTS.md and references/*.md, and agents/openai.yaml.
Standard library only: agents run this on bare machines before anything is installed.

Usage: ``python scripts/validate_skill.py [--root DIR] [--installed]``.
Exit status: 0 valid, 1 validation errors, 2 usage error. The report goes to stdout;
diagnostics go to stderr.
"""

from __future__ import annotations

import argparse
import json
import posixpath
import re
import sys
import urllib.parse
from dataclasses import asdict, dataclass
from pathlib import Path

# The spec also allows license, compatibility, metadata and allowed-tools; our policy
# keeps the frontmatter to the two keys every skill loader understands.
ALLOWED_FRONTMATTER_KEYS = ("name", "description")
REQUIRED_FRONTMATTER_KEYS = ("name", "description")
MAX_NAME_CHARS = 64
MAX_DESCRIPTION_CHARS = 1024
MAX_SKILL_MD_LINES = 200  # SKILL.md must have fewer lines than this, frontmatter included
SHORT_DESCRIPTION_CHARS = (25, 64)
REQUIRED_FILES = (
    "SKILL.md",
    "README.md",
    "AGENTS.md",
    "LICENSE",
    "pyproject.toml",
    "agents/openai.yaml",
    "references/agentic-rag-behavior.md",
    "references/prompts-and-schemas.md",
    "references/source-map.md",
    "scripts/validate_skill.py",
)
LINK_CHECKED_FILES = ("SKILL.md", "README.md", "AGENTS.md")
LINK_CHECKED_GLOB = "references/*.md"
OPENAI_YAML = "agents/openai.yaml"
# Keys we know in agents/openai.yaml, by parent path; anything else is only a warning
# because hosts add fields over time.
KNOWN_OPENAI_KEYS = (
    ("", ("interface", "policy", "dependencies")),
    ("interface", ("display_name", "short_description", "icon_small", "icon_large",
                   "brand_color", "default_prompt")),
    ("policy", ("allow_implicit_invocation",)),
    ("dependencies", ("tools",)),
)

_NAME_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_FRONTMATTER_KEY_RE = re.compile(r"^([A-Za-z0-9_][A-Za-z0-9_.-]*):(?:[ \t]+(.*))?$")
_YAML_KEY_RE = re.compile(r"^([A-Za-z_][A-Za-z0-9_-]*):(?:[ ]+(.*))?$")
_PLAIN_FORBIDDEN_START = tuple("[]{}&*!|>%@`,?")
_FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_CODE_SPAN_RE = re.compile(r"(`+)(.+?)\1")
_INLINE_LINK_RE = re.compile(
    r"\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)"
)
_REFERENCE_DEF_RE = re.compile(r"^ {0,3}\[([^\]^][^\]]*)\]:\s+(<[^>]*>|\S+)")
_SCHEME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "n": "\n", "t": "\t", "r": "\r", "0": "\0"}


@dataclass(frozen=True, slots=True)
class Checked:
    """What the validator looked at, for the ``checked`` part of the report."""

    folder: str
    installed: bool
    name: str | None
    frontmatter_keys: tuple[str, ...]
    skill_md_lines: int | None
    required_files: tuple[str, ...]
    markdown_files: tuple[str, ...]
    relative_links: int
    openai_yaml_parsed: bool

    def __post_init__(self) -> None:
        if self.relative_links < 0:
            raise ValueError(f"relative_links must be >= 0, got {self.relative_links!r}")


@dataclass(frozen=True, slots=True)
class Report:
    """Outcome of :func:`validate`; ``ok`` is true exactly when there are no errors."""

    root: str
    errors: tuple[str, ...]
    warnings: tuple[str, ...]
    checked: Checked

    def __post_init__(self) -> None:
        for label, messages in (("errors", self.errors), ("warnings", self.warnings)):
            if not all(isinstance(message, str) for message in messages):
                raise TypeError(f"{label} must be a tuple of str, got {messages!r}")

    @property
    def ok(self) -> bool:
        """True when validation found no errors (warnings do not count)."""
        return not self.errors

    def to_json(self) -> dict[str, object]:
        """Return the report as JSON-ready data with keys ok, root, errors, warnings, checked."""
        checked = {key: list(value) if isinstance(value, tuple) else value
                   for key, value in asdict(self.checked).items()}
        return {"ok": self.ok, "root": self.root, "errors": list(self.errors),
                "warnings": list(self.warnings), "checked": checked}


class YamlSubsetError(ValueError):
    """Text outside the small YAML subset that agents/openai.yaml and frontmatter may use."""


@dataclass(frozen=True, slots=True)
class YamlDocument:
    """A parsed YAML-subset document plus every string scalar that was written unquoted.

    ``unquoted`` holds ``(line number, dotted key path, raw text)`` triples.
    """

    data: object
    unquoted: tuple[tuple[int, str, str], ...]


def parse_scalar(text: str) -> tuple[str | bool, bool]:
    """Decode one single-line YAML scalar.

    Args:
        text: The value text after ``key:``; may carry a trailing ``# comment``.

    Returns:
        ``(value, quoted)``: quoted strings are decoded; bare ``true``/``false`` become
        booleans; any other bare text is returned as a string with ``quoted`` False.

    Raises:
        YamlSubsetError: An unterminated quote, an unknown escape, text after the closing
            quote, or a bare value that real YAML would read as something else.
    """
    text = text.strip()
    if text[:1] in ('"', "'"):
        quote, out, i = text[0], [], 1
        while i < len(text):
            ch = text[i]
            if quote == '"' and ch == "\\":
                escape = text[i + 1 : i + 2]
                if escape not in _ESCAPES:
                    raise YamlSubsetError(f"unsupported escape \\{escape} in {text!r}")
                out.append(_ESCAPES[escape])
                i += 2
            elif ch == quote and quote == "'" and text[i + 1 : i + 2] == "'":
                out.append("'")
                i += 2
            elif ch == quote:
                rest = text[i + 1 :].strip()
                if rest and not rest.startswith("#"):
                    raise YamlSubsetError(f"unexpected text {rest!r} after closing quote")
                return "".join(out), True
            else:
                out.append(ch)
                i += 1
        raise YamlSubsetError(f"unterminated quoted string {text!r}")
    plain = re.split(r"\s#", text, maxsplit=1)[0].rstrip()
    if plain.startswith(_PLAIN_FORBIDDEN_START) or ": " in plain or plain.endswith(":"):
        raise YamlSubsetError(f"value {plain!r} must be quoted (YAML would not read it as text)")
    if plain in ("true", "false"):
        return plain == "true", False
    return plain, False


def parse_yaml_subset(text: str) -> YamlDocument:
    """Parse the YAML subset used by agents/openai.yaml.

    Supports nested mappings indented by 2 spaces, quoted or bare scalars, booleans,
    lists (``- key: value`` mappings or scalars) and ``#`` comment lines.

    Args:
        text: The whole file.

    Returns:
        The parsed document (dicts, lists, str, bool) and the unquoted string scalars.

    Raises:
        YamlSubsetError: With the line number, for anything outside the subset.
    """
    return _YamlParser(text).parse()


class _YamlParser:
    def __init__(self, text: str) -> None:
        self.lines: list[tuple[int, int, str]] = []  # (line number, indent, content)
        self.unquoted: list[tuple[int, str, str]] = []
        self.pos = 0
        for number, raw in enumerate(text.splitlines(), 1):
            content = raw.strip()
            if not content or content.startswith("#"):
                continue
            indent = len(raw) - len(raw.lstrip(" "))
            if raw[indent] == "\t":
                raise YamlSubsetError(f"line {number}: tab in indentation; use spaces")
            if indent % 2:
                raise YamlSubsetError(f"line {number}: indentation {indent} is not a multiple of 2")
            # Split "- key: v" into a list marker and a content line 2 columns deeper, so
            # the item body parses like any nested block.
            while content == "-" or content.startswith("- "):
                self.lines.append((number, indent, "-"))
                content, indent = content[2:], indent + 2
                if content.startswith(" "):
                    raise YamlSubsetError(f"line {number}: use exactly one space after '-'")
            if content:
                self.lines.append((number, indent, content))

    def parse(self) -> YamlDocument:
        data: object = {}
        if self.lines:
            if self.lines[0][1] != 0:
                raise YamlSubsetError(f"line {self.lines[0][0]}: the first key is indented")
            data = self._block(0, "")
            if self.pos < len(self.lines):
                raise YamlSubsetError(f"line {self.lines[self.pos][0]}: unexpected indentation")
        return YamlDocument(data=data, unquoted=tuple(self.unquoted))

    def _block(self, indent: int, path: str) -> object:
        if self.lines[self.pos][2] == "-":
            return self._sequence(indent, path)
        return self._mapping(indent, path)

    def _mapping(self, indent: int, path: str) -> dict[str, object]:
        result: dict[str, object] = {}
        while self.pos < len(self.lines):
            number, line_indent, content = self.lines[self.pos]
            if line_indent < indent:
                break
            match = _YAML_KEY_RE.match(content)
            if line_indent > indent or match is None:
                raise YamlSubsetError(f"line {number}: expected 'key: value' at indentation "
                                      f"{indent}, got {content!r}")
            key, rest = match.group(1), (match.group(2) or "").strip()
            if rest.startswith("#"):  # "key:  # comment" opens a nested block
                rest = ""
            if key in result:
                raise YamlSubsetError(f"line {number}: duplicate key {key!r}")
            child_path = f"{path}.{key}" if path else key
            self.pos += 1
            if rest:
                result[key] = self._scalar(rest, number, child_path)
                continue
            nxt = self.lines[self.pos] if self.pos < len(self.lines) else None
            if nxt is None or nxt[1] <= indent:
                raise YamlSubsetError(f"line {number}: key {child_path!r} has no value")
            if nxt[1] != indent + 2:
                raise YamlSubsetError(
                    f"line {nxt[0]}: expected indentation {indent + 2}, got {nxt[1]}"
                )
            result[key] = self._block(indent + 2, child_path)
        return result

    def _sequence(self, indent: int, path: str) -> list[object]:
        items: list[object] = []
        while self.pos < len(self.lines):
            number, line_indent, content = self.lines[self.pos]
            if line_indent < indent:
                break
            if line_indent > indent or content != "-":
                raise YamlSubsetError(f"line {number}: expected a '- ' list item, got {content!r}")
            self.pos += 1
            item_path = f"{path}[{len(items)}]"
            nxt = self.lines[self.pos] if self.pos < len(self.lines) else None
            if nxt is None or nxt[1] <= indent:
                raise YamlSubsetError(f"line {number}: empty list item in {path!r}")
            if nxt[2] == "-" or _YAML_KEY_RE.match(nxt[2]):
                items.append(self._block(indent + 2, item_path))
            else:
                self.pos += 1
                items.append(self._scalar(nxt[2], nxt[0], item_path))
        return items

    def _scalar(self, text: str, number: int, path: str) -> str | bool:
        try:
            value, quoted = parse_scalar(text)
        except YamlSubsetError as exc:
            raise YamlSubsetError(f"line {number}: {path}: {exc}") from None
        if isinstance(value, str) and not quoted:
            self.unquoted.append((number, path, value))
        return value


class _Findings:
    """Collects messages in discovery order, which follows the fixed order of the checks."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.warnings: list[str] = []


def _read_text(root: Path, rel: str, found: _Findings) -> str | None:
    try:
        return (root / rel).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        found.errors.append(f"{rel}: not valid UTF-8 ({exc.reason} at byte {exc.start})")
    except OSError as exc:
        found.errors.append(f"{rel}: cannot be read ({exc.strerror})")
    return None


def _check_frontmatter(
    lines: list[str], found: _Findings
) -> tuple[tuple[str, ...], dict[str, str | bool]]:
    """Return the keys present and the decodable allowed values; record errors."""
    if not lines or lines[0].rstrip() != "---":
        found.errors.append("SKILL.md must start with a '---' line opening the YAML frontmatter")
        return (), {}
    end = next((i for i in range(1, len(lines)) if lines[i].rstrip() == "---"), None)
    if end is None:
        found.errors.append("SKILL.md frontmatter has no closing '---' line")
        return (), {}
    raw: dict[str, tuple[int, str, bool]] = {}  # key -> (line, value text, continued)
    last_key: str | None = None
    for i in range(1, end):
        line, number = lines[i], i + 1
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line[:1] in (" ", "\t") or line.startswith("- "):
            if last_key is None:
                found.errors.append(f"SKILL.md line {number}: indented line before any key")
            else:
                raw[last_key] = raw[last_key][:2] + (True,)
            continue
        match = _FRONTMATTER_KEY_RE.match(line.rstrip())
        if match is None:
            found.errors.append(f"SKILL.md line {number}: expected 'key: value', got {line!r}")
            continue
        last_key = match.group(1)
        if last_key in raw:
            found.errors.append(f"SKILL.md frontmatter repeats key {last_key!r} (line {number})")
        raw[last_key] = (number, match.group(2) or "", False)
    for key in sorted(raw):
        if key not in ALLOWED_FRONTMATTER_KEYS:
            found.errors.append(f"SKILL.md frontmatter key {key!r} is not allowed; allowed keys: "
                                f"{', '.join(ALLOWED_FRONTMATTER_KEYS)}")
    for key in REQUIRED_FRONTMATTER_KEYS:
        if key not in raw:
            found.errors.append(f"SKILL.md frontmatter is missing required key {key!r}")
    values: dict[str, str | bool] = {}
    for key in ALLOWED_FRONTMATTER_KEYS:
        if key not in raw:
            continue
        number, text, continued = raw[key]
        if continued or text.strip()[:1] in ("|", ">"):
            found.errors.append(f"SKILL.md {key} must be a single-line string (line {number})")
            continue
        try:
            values[key] = parse_scalar(text)[0]
        except YamlSubsetError as exc:
            found.errors.append(f"SKILL.md {key} (line {number}): {exc}")
    return tuple(sorted(raw)), values


def _check_name(value: str | bool, folder: str, installed: bool, found: _Findings) -> None:
    if not isinstance(value, str) or not value:
        found.errors.append(f"name must be a non-empty string, got {value!r}")
        return
    if len(value) > MAX_NAME_CHARS:
        found.errors.append(f"name must be at most {MAX_NAME_CHARS} characters, got {len(value)}")
    if re.search(r"[^a-z0-9-]", value):
        found.errors.append(f"name {value!r} may contain only lowercase a-z, 0-9 and '-'")
    if value.startswith("-") or value.endswith("-"):
        found.errors.append(f"name {value!r} must not start or end with '-'")
    if "--" in value:
        found.errors.append(f"name {value!r} must not contain '--'")
    if installed and value != folder:
        found.errors.append(
            f"name {value!r} must equal the skill folder name {folder!r} when installed"
        )


def _check_description(value: str | bool, found: _Findings) -> None:
    if not isinstance(value, str) or not value.strip():
        found.errors.append(f"description must be a non-empty string, got {value!r}")
        return
    if len(value) > MAX_DESCRIPTION_CHARS:
        found.errors.append(f"description must be at most {MAX_DESCRIPTION_CHARS} characters, "
                            f"got {len(value)}")
    if "<" in value or ">" in value:
        found.errors.append("description must not contain '<' or '>'")
    if "\n" in value or "\r" in value:
        found.errors.append("description must be a single line")


def _link_path(destination: str) -> str | None:
    """Return the file part of a link destination, or None for links we do not check."""
    if destination.startswith("<") and destination.endswith(">"):
        destination = destination[1:-1].strip()
    if not destination or destination.startswith(("#", "//")) or _SCHEME_RE.match(destination):
        return None
    return urllib.parse.unquote(destination.split("#", 1)[0].split("?", 1)[0]) or None


def _check_links(root: Path, rel: str, text: str, found: _Findings) -> int:
    """Check every relative link in one Markdown file; return how many were checked."""
    checked, fence = 0, ""
    root_resolved = root.resolve()
    for number, line in enumerate(text.splitlines(), 1):
        opening = _FENCE_RE.match(line)
        if fence:
            if opening and opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence) \
                    and not line.strip().lstrip(fence[0]):
                fence = ""
            continue
        if opening:
            fence = opening.group(1)
            continue
        # Blank out code spans so `[x](y)` examples in prose are not taken for links.
        scan = _CODE_SPAN_RE.sub(lambda m: "x" * len(m.group(0)), line)
        destinations = [m.group(1) for m in _INLINE_LINK_RE.finditer(scan)]
        destinations += [m.group(2) for m in _REFERENCE_DEF_RE.finditer(scan)]
        for destination in destinations:
            path = _link_path(destination)
            if path is None:
                continue
            checked += 1
            if path.startswith("/"):
                found.errors.append(f"{rel}:{number}: link {destination!r} is absolute; use a "
                                    "path relative to the file")
                continue
            shown = posixpath.normpath(posixpath.join(posixpath.dirname(rel), path))
            target = (root / rel).parent / path
            if target.is_dir():
                found.errors.append(f"{rel}:{number}: link {destination!r} points to the folder "
                                    f"{shown}; link a file")
            elif not target.is_file():
                found.errors.append(f"{rel}:{number}: broken link {destination!r} ({shown} does "
                                    "not exist)")
            elif not target.resolve().is_relative_to(root_resolved):
                found.warnings.append(f"{rel}:{number}: link {destination!r} points outside the "
                                      "skill folder and will break once installed")
    return checked


def _mapping_at(data: object, path: str) -> object:
    for key in path.split("."):
        if not isinstance(data, dict) or key not in data:
            return None
        data = data[key]
    return data


def _check_openai_yaml(root: Path, found: _Findings) -> bool:
    """Check agents/openai.yaml; return whether it parsed."""
    if not (root / OPENAI_YAML).is_file():
        return False
    text = _read_text(root, OPENAI_YAML, found)
    if text is None:
        return False
    try:
        doc = parse_yaml_subset(text)
    except YamlSubsetError as exc:
        found.errors.append(f"{OPENAI_YAML}: {exc}")
        return False
    for number, path, value in doc.unquoted:
        found.errors.append(f"{OPENAI_YAML} line {number}: string value of {path} must be "
                            f"quoted, got {value!r}")
    data = doc.data
    if not isinstance(data, dict):
        found.errors.append(f"{OPENAI_YAML}: the top level must be a mapping")
        return True
    for parent, known in KNOWN_OPENAI_KEYS:
        section = data if not parent else _mapping_at(data, parent)
        if isinstance(section, dict):
            for key in sorted(set(section) - set(known)):
                shown = f"{parent}.{key}" if parent else key
                found.warnings.append(f"{OPENAI_YAML}: unknown key {shown}")
    for path in ("interface.display_name", "interface.default_prompt"):
        value = _mapping_at(data, path)
        if not isinstance(value, str) or not value.strip():
            found.errors.append(f"{OPENAI_YAML}: {path} must be a non-empty string, got {value!r}")
    low, high = SHORT_DESCRIPTION_CHARS
    short = _mapping_at(data, "interface.short_description")
    if not isinstance(short, str) or not low <= len(short) <= high:
        got = f"{len(short)} characters" if isinstance(short, str) else repr(short)
        found.errors.append(f"{OPENAI_YAML}: interface.short_description must be {low}-{high} "
                            f"characters, got {got}")
    implicit = _mapping_at(data, "policy.allow_implicit_invocation")
    if not isinstance(implicit, bool):
        found.errors.append(f"{OPENAI_YAML}: policy.allow_implicit_invocation must be true or "
                            f"false, got {implicit!r}")
    if "dependencies" in data:
        _check_tools(data["dependencies"], found)
    return True


def _check_tools(dependencies: object, found: _Findings) -> None:
    if not isinstance(dependencies, dict):
        found.errors.append(f"{OPENAI_YAML}: dependencies must be a mapping")
        return
    tools = dependencies.get("tools", [])
    if not isinstance(tools, list):
        found.errors.append(f"{OPENAI_YAML}: dependencies.tools must be a list")
        return
    for index, tool in enumerate(tools):
        where = f"{OPENAI_YAML}: dependencies.tools[{index}]"
        if not isinstance(tool, dict):
            found.errors.append(f"{where} must be a mapping")
            continue
        required = ("type", "value")
        if tool.get("type") == "mcp":
            required += ("transport", "command")
        for key in required:
            if not isinstance(tool.get(key), str) or not tool[key].strip():
                found.errors.append(f"{where} needs a non-empty string {key!r}")


def validate(root: Path, installed: bool = False, display_root: str | None = None) -> Report:
    """Validate the skill folder ``root``.

    Args:
        root: The folder that should hold SKILL.md.
        installed: True when ``root`` is the installed skill folder, so the frontmatter
            ``name`` must equal the folder name; a checkout may live in any folder.
        display_root: How to show ``root`` in the report; defaults to the folder name so
            no machine path leaks into logs that get committed.

    Returns:
        The report; ``report.ok`` is False when any error was found.

    Raises:
        NotADirectoryError: ``root`` is not an existing directory.
    """
    if not root.is_dir():
        raise NotADirectoryError(f"root must be an existing directory, got {str(root)!r}")
    found = _Findings()
    folder = root.resolve().name
    for rel in REQUIRED_FILES:
        if not (root / rel).is_file():
            found.errors.append(f"missing required file: {rel}")
    name, keys, line_count = None, (), None
    skill_text = _read_text(root, "SKILL.md", found) if (root / "SKILL.md").is_file() else None
    if skill_text is not None:
        lines = skill_text.splitlines()
        line_count = len(lines)
        if line_count >= MAX_SKILL_MD_LINES:
            found.errors.append(f"SKILL.md has {line_count} lines; it must have fewer than "
                                f"{MAX_SKILL_MD_LINES}")
        keys, values = _check_frontmatter(lines, found)
        if "name" in values:
            _check_name(values["name"], folder, installed, found)
            name = values["name"] if isinstance(values["name"], str) else None
        if "description" in values:
            _check_description(values["description"], found)
    markdown = [rel for rel in LINK_CHECKED_FILES if (root / rel).is_file()]
    markdown += sorted(
        path.relative_to(root).as_posix() for path in root.glob(LINK_CHECKED_GLOB) if path.is_file()
    )
    links = 0
    for rel in markdown:
        text = skill_text if rel == "SKILL.md" else _read_text(root, rel, found)
        if text is not None:
            links += _check_links(root, rel, text, found)
    parsed = _check_openai_yaml(root, found)
    checked = Checked(
        folder=folder, installed=installed, name=name, frontmatter_keys=keys,
        skill_md_lines=line_count,
        required_files=tuple(rel for rel in REQUIRED_FILES if (root / rel).is_file()),
        markdown_files=tuple(markdown), relative_links=links, openai_yaml_parsed=parsed,
    )
    return Report(root=display_root if display_root is not None else (folder or str(root)),
                  errors=tuple(found.errors), warnings=tuple(found.warnings), checked=checked)


def validate_errors(root: Path, installed: bool = False) -> list[str]:
    """Validate ``root`` and return only the error messages (the earlier scaffold's
    ``validate`` returned this list: empty when the skill is valid).

    Raises:
        NotADirectoryError: ``root`` is not an existing directory.
    """
    return list(validate(root, installed=installed).errors)


def parse_frontmatter(text: str) -> dict[str, str | bool]:
    """Return the SKILL.md frontmatter of ``text`` as ``{key: value}``, every top-level key
    included (a value that is not a plain scalar is returned as its raw text).

    Raises:
        YamlSubsetError: No frontmatter (no opening or closing ``---`` line).
    """
    lines = text.splitlines()
    if not lines or lines[0].rstrip() != "---":
        raise YamlSubsetError("SKILL.md must start with a '---' line opening the YAML frontmatter")
    end = next((i for i in range(1, len(lines)) if lines[i].rstrip() == "---"), None)
    if end is None:
        raise YamlSubsetError("SKILL.md frontmatter has no closing '---' line")
    fields: dict[str, str | bool] = {}
    for line in lines[1:end]:
        match = _FRONTMATTER_KEY_RE.match(line.rstrip())
        if match is None or line[:1] in (" ", "\t"):
            continue
        value = match.group(2) or ""
        try:
            fields[match.group(1)] = parse_scalar(value)[0]
        except YamlSubsetError:
            fields[match.group(1)] = value
    return fields


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status (0 ok, 1 invalid, 2 usage error).

    Args:
        argv: Arguments without the program name; defaults to ``sys.argv[1:]``.

    Returns:
        The process exit status.
    """
    parser = argparse.ArgumentParser(
        prog="validate_skill.py",
        description="Check that a folder is an installable Agent Skill; print a JSON report.",
        epilog="Exit status: 0 valid, 1 validation errors, 2 usage error.",
    )
    parser.add_argument("--root", help="skill folder (default: the parent of this script's folder)")
    parser.add_argument("--installed", action="store_true",
                        help="the folder is the installed skill: name must equal the folder name")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on usage errors and 0 for --help
        return int(exc.code or 0)
    if args.root is None:
        root = Path(__file__).resolve().parent.parent
        display = root.name
    else:
        root, display = Path(args.root), args.root
    if not root.is_dir():
        print(f"validate_skill.py: --root {display!r} is not a directory", file=sys.stderr)
        return 2
    report = validate(root, installed=args.installed, display_root=display)
    sys.stdout.write(json.dumps(report.to_json(), indent=2) + "\n")
    status = "ok" if report.ok else f"{len(report.errors)} error(s)"
    print(f"validate_skill.py: {status}, {len(report.warnings)} warning(s)", file=sys.stderr)
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
