"""Putting retrieved text into prompts as clearly delimited, escaped, untrusted data.

Each snippet becomes one ``<untrusted_document index="N" ...>`` block, numbered from 1 so a
model can cite it by index. Inside the text, anything that could pass for the delimiter (an
opening or closing tag, in any case, with spaces, hyphens, zero-width characters or a
look-alike ``<``) has its ``<`` replaced by ``&lt;``, so a document cannot close its own block
and smuggle text out as instructions. Everything else is left verbatim, so quotes copied
from a block match the snippet's text.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from agentic_rag._contracts import Snippet
from agentic_rag._contracts.validation import require_int
from agentic_rag._errors import InvalidInputError

__all__ = ["NO_DOCUMENTS", "UNTRUSTED_TAG", "escape_untrusted", "render_untrusted"]

UNTRUSTED_TAG = "untrusted_document"
NO_DOCUMENTS = "(no documents were retrieved)"

# "<" and characters that render like it (fullwidth, small form, angle brackets, modifier).
_LT = "<\uff1c\ufe64\u2039\u3008\u27e8\u276e\u02c2"
# Spaces, slashes and invisible characters a forged tag may hide behind.
_GAP = r"[\s/\\\u200b-\u200f\u2060\ufeff\u00ad]*"
_LOOKALIKE_RE = re.compile(
    rf"[{_LT}](?={_GAP}u{_GAP}n{_GAP}t{_GAP}r{_GAP}u{_GAP}s{_GAP}t{_GAP}e{_GAP}d)",
    re.IGNORECASE,
)
_SOURCE_KEYS = ("source_uri", "source", "url", "path")


def escape_untrusted(text: str) -> str:
    """Return ``text`` with every delimiter look-alike's ``<`` replaced by ``&lt;``."""
    return _LOOKALIKE_RE.sub("&lt;", text)


def _attr(value: object) -> str:
    return html.escape(" ".join(str(value).split()), quote=True)


def render_untrusted(snippets: Sequence[Snippet], *, start: int = 1, max_chars: int | None = None) -> str:
    """Render snippets as numbered ``<untrusted_document>`` blocks for a prompt.

    Args:
        snippets: The retrieved snippets, in the order the model should see them.
        start: Index of the first block (citations refer to these indices).
        max_chars: Cut each text to this many characters (marked ``[truncated]``).

    Returns:
        The blocks separated by blank lines, or a note that nothing was retrieved.

    Raises:
        InvalidInputError: An item that is not a Snippet, or a bad ``start``/``max_chars``.
    """
    require_int(start, "start", minimum=0, stage="prompts")
    if max_chars is not None:
        require_int(max_chars, "max_chars", minimum=1, stage="prompts")
    blocks: list[str] = []
    for offset, snippet in enumerate(snippets):
        if not isinstance(snippet, Snippet):
            raise InvalidInputError(f"snippets[{offset}] must be a Snippet, got {type(snippet).__name__}", stage="prompts")
        attrs = [f'index="{start + offset}"', f'id="{_attr(snippet.id)}"', f'corpus="{_attr(snippet.corpus_id)}"']
        if snippet.title:
            attrs.append(f'title="{_attr(snippet.title)}"')
        source = next((snippet.metadata[k] for k in _SOURCE_KEYS if isinstance(snippet.metadata.get(k), str)), "")
        if source:
            attrs.append(f'source="{_attr(source)}"')
        text = snippet.text
        if max_chars is not None and len(text) > max_chars:
            text = text[:max_chars] + " [truncated]"
        blocks.append(f"<{UNTRUSTED_TAG} {' '.join(attrs)}>\n{escape_untrusted(text)}\n</{UNTRUSTED_TAG}>")
    return "\n\n".join(blocks) if blocks else NO_DOCUMENTS
