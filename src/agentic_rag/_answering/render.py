"""Answer text as a person would write it from the quotes.

A claim quotes its source verbatim (the citation keeps the exact span); the answer text shows
what a reader of the rendered page would see: no reStructuredText directive (``.. note::``,
``.. click:example::``) or role (``:func:`render```), no MkDocs directive
(``::: httpx.Client`` with its ``:members:`` options) or admonition marker (``!!! note``), no
Markdown or reStructuredText link target (``[text](url)``, ```text <url>`_``). Code keeps
its lines. :func:`render_claim` renders one claim; :func:`fit_answer` keeps each sentence once
and, for a one-part question, the answer within :data:`MAX_ONE_PART_CHARS`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from agentic_rag._regex import lazy_regex
from agentic_rag._text.relevance import RelevanceModel
from agentic_rag._text.sentences import split_sentences

__all__ = ["MAX_ONE_PART_CHARS", "fit_answer", "quote_span", "render_claim", "select_claims"]

#: The longest answer text to a one-part question: the first claim, then whole further claims
#: while they fit.
MAX_ONE_PART_CHARS = 400
# The share of a part a claim must cover to be part of the answer: the earned check's claim
# coverage (a claim below it cannot earn the part either).
_ANSWERS_A_PART = 0.3

_RST_DIRECTIVE = lazy_regex(r"^[ \t]*\.\.[ \t]+[\w:.-]+::.*$")
_RST_TARGET = lazy_regex(r"^[ \t]*\.\.[ \t]+_[^:]*:.*$")
# A directive's option lines (a loader may have taken their indentation away).
_RST_OPTION = lazy_regex(r"^[ \t]*:[\w -]+:(?:[ \t].*)?$")
_MKDOCS_DIRECTIVE = lazy_regex(r"^[ \t]*:::[ \t]+\S.*$")
_MKDOCS_OPTION = lazy_regex(r"^[ \t]+[\w-]+:(?:[ \t].*)?$")
_ADMONITION = lazy_regex(r"^([ \t]*)(?:!!!|\?\?\?\+?)[ \t]*[\w-]+(?:[ \t]+\"([^\"]*)\")?[ \t]*$")
_ROLE = lazy_regex(r":[\w.-]+(?::[\w.-]+)?:`([^`]*)`")
_RST_LINK = lazy_regex(r"`([^`<]+?)\s*<[^>`]+>`__?")
# ```text`_``: a named reference; ``Name_`` is left alone (``class_`` is a Python name too).
_RST_REFERENCE = lazy_regex(r"`([^`<]+)`__?(?![\w`])")
_MD_IMAGE = lazy_regex(r"!\[([^\]]*)\]\([^)]*\)")
_MD_LINK = lazy_regex(r"\[([^\]]+)\](?:\([^)\s]*(?:\s+\"[^\"]*\")?\)|\[[^\]]*\])")
_MD_DEFINITION = lazy_regex(r"^[ \t]*\[[^\]]+\]:[ \t]+\S+.*$")
_FENCE = lazy_regex(r"^[ \t]*(?:```|~~~)")


def _target_text(inner: str) -> str:
    """The shown text of a role's content: ``text <target>`` shows ``text``; ``~a.b.c`` shows
    ``c``; ``!name`` shows ``name``."""
    # ``text <target>``: the target is the last ``<...>``, closing the content (or before a
    # final newline); read with string methods, as the lazy ``(.*?)\s*<[^>]*>$`` it replaces
    # rescanned the rest from every character (quadratic in a long content).
    closed = inner[:-1] if inner.endswith(">\n") else inner
    if closed.endswith(">"):
        end = len(closed) - 1
        opening = closed.find("<", closed.rfind(">", 0, end) + 1, end)
        shown = closed[:opening].rstrip() if opening >= 0 else ""
        if shown:
            return shown
    inner = inner.lstrip("!")
    return inner.rsplit(".", 1)[-1] if inner.startswith("~") else inner


def render_claim(text: str) -> str:
    """``text`` as a rendered page shows it: directive, option, admonition-marker and
    link-definition lines removed; roles and links replaced by their shown text. Lines inside
    a fenced code block are kept as written."""
    out: list[str] = []
    in_fence = False
    after_directive = True  # a claim may open with the options of a directive cut off above it
    for line in text.split("\n"):
        if _FENCE.match(line):
            in_fence = not in_fence
            out.append(line)
            continue
        if in_fence:
            out.append(line)
            continue
        if _RST_DIRECTIVE.match(line) or _MKDOCS_DIRECTIVE.match(line) or _RST_TARGET.match(line) or _MD_DEFINITION.match(line):
            after_directive = True
            continue
        if after_directive and (_RST_OPTION.match(line) or _MKDOCS_OPTION.match(line)):
            continue
        after_directive = False
        admonition = _ADMONITION.match(line)
        if admonition:
            if admonition.group(2):
                out.append(f"{admonition.group(1)}{admonition.group(2)}:")
            continue
        line = _ROLE.sub(lambda m: f"`{_target_text(m.group(1))}`", line)
        line = _RST_LINK.sub(lambda m: m.group(1), line)
        line = _RST_REFERENCE.sub(lambda m: m.group(1), line)
        line = _MD_IMAGE.sub(lambda m: m.group(1), line)
        line = _MD_LINK.sub(lambda m: m.group(1), line)
        out.append(line)
    rendered = "\n".join(out).strip("\n")
    return rendered if "\n" in rendered.strip() else " ".join(rendered.split())


def fit_answer(texts: Sequence[str], *, parts: int) -> list[tuple[int, str]]:
    """Which claims an answer shows, and how much of each: each sentence once and, for a
    one-part question, no more than :data:`MAX_ONE_PART_CHARS` characters: each claim gets an
    equal share of what is left, cut at a line or sentence end within it (left out when its
    first line is longer), so a long first claim does not crowd out the one that answers.

    Each sentence once: a claim whose every sentence an earlier claim already says is left
    out, and a claim that repeats some (a closest passage holding a claimed sentence) shows
    its longest run of sentences not yet said (its citation then quotes just that, see
    :func:`quote_span`).

    Args:
        texts: The claims' rendered texts, in answer order.
        parts: How many parts the question has.

    Returns:
        ``(index, text to show)`` per claim shown, in order.
    """
    unique = _each_sentence_once(texts)
    if parts > 1:
        return unique
    out: list[tuple[int, str]] = []
    left = MAX_ONE_PART_CHARS
    for position, (index, text) in enumerate(unique):
        share = left // (len(unique) - position) - (1 if out else 0)
        shown = _cut(text, max(share, 0))
        if not out and not shown and position == len(unique) - 1:
            shown = text  # the only claim left: an answer shows at least one
        if shown:
            out.append((index, shown))
            left -= len(shown) + (1 if len(out) > 1 else 0)
    return out


def _sentence_key(text: str) -> str:
    return " ".join(text.split()).casefold()


def _each_sentence_once(texts: Sequence[str]) -> list[tuple[int, str]]:
    """``(index, text)`` per claim kept, each sentence said once (see :func:`fit_answer`)."""
    seen: set[str] = set()
    kept: list[tuple[int, str]] = []
    for index, text in enumerate(texts):
        if not text.strip():
            continue
        spans = split_sentences(text)
        keys = [_sentence_key(s.text) for s in spans] or [_sentence_key(text)]
        if all(k in seen for k in keys):
            continue
        if spans and any(k in seen for k in keys):
            # The longest run of sentences not yet said (the first of equals): one span, so
            # its citation quotes just what it shows.
            runs: list[tuple[int, int]] = []
            for n, key in enumerate(keys):
                if key in seen:
                    continue
                if runs and runs[-1][1] == n - 1:
                    runs[-1] = (runs[-1][0], n)
                else:
                    runs.append((n, n))
            first, last = max(runs, key=lambda run: (spans[run[1]].end - spans[run[0]].start, -run[0]))
            text, keys = text[spans[first].start:spans[last].end], keys[first:last + 1]
        seen.update(keys)
        kept.append((index, text))
    return kept


def _cut(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters: whole lines or sentences while they fit (a claim
    cut inside a sentence would say what its quote does not); ``""`` when none does."""
    if len(text) <= limit:
        return text
    pieces = text.split("\n") if "\n" in text else [s.text for s in split_sentences(text)]
    joiner = "\n" if "\n" in text else " "
    kept: list[str] = []
    for piece in pieces:
        if len(joiner.join([*kept, piece]).strip()) > limit:
            break
        kept.append(piece)
    return joiner.join(kept).strip()


def select_claims(parts: Sequence[str], claims: Sequence[tuple[str, str, str]], model: RelevanceModel) -> list[tuple[int, str]]:
    """The claims an answer shows, in the order it shows them.

    Only claims that answer a part: a claim whose passage (read with its heading) covers less
    than :data:`~agentic_rag._answering.earned.DEFAULT_CLAIM_COVERAGE` of every part is about
    another subject: padding, dropped (the first claim stays when every claim is). The
    passage, not the claim, is measured: "The default is {'sort_keys': True}." shares no word
    with the question its passage answers. Then ordered by the part each covers best
    (stable), and fitted by :func:`fit_answer`.

    Args:
        parts: The question's parts (:func:`~agentic_rag._text.questions.split_compound`).
        claims: ``(heading, passage, rendered text)`` per claim, in the answer's order.
        model: The relevance model.

    Returns:
        ``(index, text to show)`` per claim shown, in order.
    """
    best: dict[int, tuple[int, float]] = {}
    for index, (heading, passage, _) in enumerate(claims):
        shares = [model.coverage(part, f"{heading}\n{passage}") for part in parts]
        top = max(range(len(shares)), key=lambda n: (shares[n], -n)) if shares else 0
        if shares and shares[top] >= _ANSWERS_A_PART:
            best[index] = (top, shares[top])
    order = sorted(best, key=lambda i: (best[i][0], i)) or list(range(min(1, len(claims))))
    return [(order[n], text) for n, text in fit_answer([claims[i][2] for i in order], parts=len(parts))]


def quote_span(quote: str, shown: str) -> tuple[int, int]:
    """Where in ``quote`` the words of ``shown`` (a claim cut by :func:`fit_answer`, at its end
    or its start) begin and end, so its citation can quote just what it shows; ``(-1, -1)``
    when its last words are not found (the claim is then shown whole)."""
    words = re.findall(r"[\w'’]+", shown)
    if not words:
        return -1, -1
    # A claim may open with its heading, which its quote does not hold: it then starts where
    # the quote does.
    head = re.search(r"\W+".join(map(re.escape, words[:6])), quote)
    start = head.start() if head is not None else 0
    tail = re.search(r"\W+".join(map(re.escape, words[-6:])), quote[start:])
    if tail is None:
        return -1, -1
    return start, start + tail.end()
