"""Checking the citations a model writes, shared by the drafter, synthesizer and generator.

A model cites a document by the ``index`` attribute of its ``<untrusted_document>`` block
(1-based, as :func:`~agentic_rag.llm.untrusted.render_untrusted` numbers them) and a quote
copied from it. A citation holds when the index is in range and the quote stands in that
snippet's text: verbatim, or once runs of white space are collapsed and typographic quotes
and dashes are read as their ASCII forms (both sides alike, so offsets map back exactly).
The :class:`~agentic_rag._contracts.Citation` built from it carries the snippet's own text at
those exact offsets. A claim with any citation that does not hold is dropped, with the reason.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agentic_rag._contracts import Citation, Claim, Snippet
from agentic_rag._contracts.validation import instance_tuple, is_int, require_int, require_text
from agentic_rag._errors import InvalidInputError

__all__ = [
    "ClaimVerification",
    "DroppedClaim",
    "ModelCitation",
    "ModelClaim",
    "VerifiedClaim",
    "locate_quote",
    "parse_model_claims",
    "strip_markers",
    "verify_model_claims",
]

_STAGE = "citations"
_MARKERS = re.compile(r"\s*\[\d+(?:\s*[,;]\s*\d+)*\]")
# One-for-one replacements, so an offset in the folded text is an offset in the original.
_TYPOGRAPHY = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-", "\u00a0": " "})
_ENCLOSING = ('""', "''", "\u201c\u201d", "\u2018\u2019")


@dataclass(frozen=True, slots=True)
class ModelCitation:
    """A citation as the model wrote it: a block index and a quote.

    Args:
        index: The ``index`` attribute of the cited block (1-based).
        quote: The quoted words.
    """

    index: int
    quote: str

    def __post_init__(self) -> None:
        require_int(self.index, "ModelCitation.index", stage=_STAGE)
        if not isinstance(self.quote, str):
            raise InvalidInputError(f"ModelCitation.quote must be a string, got {type(self.quote).__name__}", stage=_STAGE)


@dataclass(frozen=True, slots=True)
class ModelClaim:
    """A claim as the model wrote it.

    Args:
        text: The statement.
        citations: Its citations.
        fact_id: The fact it answers ("" when none or unknown).
    """

    text: str
    citations: tuple[ModelCitation, ...]
    fact_id: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.text, str) or not isinstance(self.fact_id, str):
            raise InvalidInputError(f"ModelClaim.text and fact_id must be strings, got {self.text!r} and {self.fact_id!r}", stage=_STAGE)
        object.__setattr__(self, "citations", instance_tuple(self.citations, ModelCitation, "ModelClaim.citations", stage=_STAGE))


@dataclass(frozen=True, slots=True)
class VerifiedClaim:
    """A claim whose every citation holds.

    Args:
        claim: The claim with exact citations.
        indices: The 1-based block index of each citation, in citation order.
    """

    claim: Claim
    indices: tuple[int, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.claim, Claim):
            raise InvalidInputError(f"VerifiedClaim.claim must be a Claim, got {type(self.claim).__name__}", stage=_STAGE)
        indices = tuple(require_int(i, "VerifiedClaim.indices", minimum=1, stage=_STAGE) for i in self.indices)
        if len(indices) != len(self.claim.citations):
            raise InvalidInputError(f"VerifiedClaim needs one index per citation, got {len(indices)} for {len(self.claim.citations)}", stage=_STAGE)
        object.__setattr__(self, "indices", indices)


@dataclass(frozen=True, slots=True)
class DroppedClaim:
    """A claim left out, and why."""

    text: str
    reason: str

    def __post_init__(self) -> None:
        require_text(self.text, "DroppedClaim.text", stage=_STAGE)
        require_text(self.reason, "DroppedClaim.reason", stage=_STAGE)


@dataclass(frozen=True, slots=True)
class ClaimVerification:
    """The outcome of checking a model's claims.

    Args:
        verified: Claims kept, in the model's order (duplicates merged).
        dropped: Claims left out, with reasons.
    """

    verified: tuple[VerifiedClaim, ...]
    dropped: tuple[DroppedClaim, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "verified", instance_tuple(self.verified, VerifiedClaim, "ClaimVerification.verified", stage=_STAGE))
        object.__setattr__(self, "dropped", instance_tuple(self.dropped, DroppedClaim, "ClaimVerification.dropped", stage=_STAGE))

    @property
    def claims(self) -> tuple[Claim, ...]:
        """The kept claims."""
        return tuple(v.claim for v in self.verified)

    @property
    def problems(self) -> tuple[str, ...]:
        """One line per dropped claim."""
        return tuple(f"{d.reason}: {d.text[:80]!r}" for d in self.dropped)


def strip_markers(text: str) -> str:
    """Return ``text`` without ``[n]`` citation markers and with white space collapsed."""
    return " ".join(_MARKERS.sub("", text).split())


def _fold(text: str) -> tuple[str, list[int]]:
    """Collapse white-space runs to one space and fold typography; keep each kept character's
    offset in ``text``."""
    chars: list[str] = []
    offsets: list[int] = []
    previous_space = False
    for position, char in enumerate(text.translate(_TYPOGRAPHY)):
        if char.isspace():
            if previous_space:
                continue
            char = " "
        previous_space = char == " "
        chars.append(char)
        offsets.append(position)
    return "".join(chars), offsets


def is_slight(quote: str, min_chars: int = 3) -> bool:
    """True when ``quote`` is too slight to support anything: fewer than ``min_chars``
    non-space characters, or no letter or digit (``"..."``, ``"(?>...)"``)."""
    return len("".join(quote.split())) < min_chars or not any(c.isalnum() for c in quote)


def locate_quote(text: str, quote: str, *, min_chars: int = 3) -> tuple[int, int] | None:
    """Return the ``(start, end)`` offsets of ``quote`` in ``text``, or ``None``.

    Tried in order: the quote verbatim; without a pair of enclosing quotation marks; with the
    ``&lt;`` escape of :func:`~agentic_rag.llm.untrusted.escape_untrusted` undone; and each of
    those with white space collapsed and typography folded on both sides. The first
    occurrence wins, so the result is deterministic.

    Args:
        text: The snippet's text.
        quote: The model's quote.
        min_chars: Quotes with fewer non-space characters, or with no letter or digit, do not
            count (a quote of "a" supports nothing).

    Returns:
        Offsets such that ``text[start:end]`` is the matched span, or ``None``.
    """
    stripped = quote.strip()
    if is_slight(stripped, min_chars):
        return None
    variants = [stripped]
    if len(stripped) > 2 and stripped[0] + stripped[-1] in _ENCLOSING:
        variants.append(stripped[1:-1].strip())
    variants += [v.replace("&lt;", "<") for v in variants if "&lt;" in v]
    variants = [v for v in variants if len("".join(v.split())) >= min_chars]
    for variant in variants:
        found = text.find(variant)
        if found >= 0:
            return found, found + len(variant)
    folded, offsets = _fold(text)
    for variant in variants:
        needle = " ".join(variant.translate(_TYPOGRAPHY).split())
        if len(needle) < min_chars:
            continue
        found = folded.find(needle)
        if found >= 0:
            return offsets[found], offsets[found + len(needle) - 1] + 1
    return None


def parse_model_claims(items: Any) -> tuple[ModelClaim, ...]:
    """Turn the ``claims`` array of a schema-validated answer into :class:`ModelClaim`.

    Items of the wrong shape are skipped (the schema already refused them); claim texts lose
    their ``[n]`` markers.

    Args:
        items: The ``claims`` value of the answer.

    Returns:
        The claims in the model's order.
    """
    out = []
    for item in items if isinstance(items, list) else ():
        if not isinstance(item, Mapping):
            continue
        citations = []
        for cite in item.get("citations") or ():
            if isinstance(cite, Mapping) and isinstance(cite.get("quote"), str):
                index = cite.get("snippet")
                if isinstance(index, float) and index.is_integer():
                    index = int(index)
                if is_int(index):
                    citations.append(ModelCitation(index, cite["quote"]))
        fact_id = item.get("fact_id")
        out.append(ModelClaim(strip_markers(str(item.get("text", ""))), tuple(citations), fact_id.strip() if isinstance(fact_id, str) else ""))
    return tuple(out)


def verify_model_claims(
    claims: Sequence[ModelClaim],
    snippets: Sequence[Snippet],
    *,
    fact_ids: Collection[str] = (),
    min_quote_chars: int = 3,
) -> ClaimVerification:
    """Keep the claims whose every citation holds, with exact offsets; drop the rest.

    Args:
        claims: The model's claims.
        snippets: The snippets in the order they were rendered (block ``n`` is
            ``snippets[n - 1]``).
        fact_ids: Fact ids a claim may name (others become "").
        min_quote_chars: See :func:`locate_quote`.

    Returns:
        The kept and dropped claims.

    Raises:
        InvalidInputError: A claim or snippet of the wrong type.
    """
    require_int(min_quote_chars, "min_quote_chars", minimum=1, stage=_STAGE)
    for position, snippet in enumerate(snippets):
        if not isinstance(snippet, Snippet):
            raise InvalidInputError(f"snippets[{position}] must be a Snippet, got {type(snippet).__name__}", stage=_STAGE)
    kept: list[VerifiedClaim] = []
    dropped: list[DroppedClaim] = []
    seen: set[tuple[str, tuple[Citation, ...]]] = set()
    for claim in claims:
        if not isinstance(claim, ModelClaim):
            raise InvalidInputError(f"claims must be ModelClaim objects, got {type(claim).__name__}", stage=_STAGE)
        text = strip_markers(claim.text)
        if not text:
            dropped.append(DroppedClaim(claim.text.strip() or "(empty)", "the claim has no text"))
            continue
        if not claim.citations:
            dropped.append(DroppedClaim(text, "the claim cites nothing"))
            continue
        citations: list[Citation] = []
        indices: list[int] = []
        problem = ""
        for cite in claim.citations:
            if not 1 <= cite.index <= len(snippets):
                problem = f"cites document {cite.index}, but documents are numbered 1 to {len(snippets)}"
                break
            if is_slight(cite.quote.strip(), min_quote_chars):
                # A syntax quoted alone beside the quote that states the claim ("(?>...)" next
                # to the paragraph saying what it does) supports nothing and invents nothing:
                # it is set aside, and the claim stands or falls on its other quotes (with none,
                # it falls).
                continue
            snippet = snippets[cite.index - 1]
            span = locate_quote(snippet.text, cite.quote, min_chars=min_quote_chars)
            if span is None:
                problem = f"quote {cite.quote[:60]!r} is not in document {cite.index}"
                break
            citation = Citation(snippet.id, snippet.text[span[0]:span[1]], span[0], span[1])
            if citation not in citations:
                citations.append(citation)
                indices.append(cite.index)
        if not problem and not citations:
            problem = "its quotes are too slight to support anything (no letter or digit, or under three characters)"
        if problem:
            dropped.append(DroppedClaim(text, problem))
            continue
        key = (text.casefold(), tuple(citations))
        if key in seen:
            continue
        seen.add(key)
        fact_id = claim.fact_id if claim.fact_id in fact_ids else ""
        kept.append(VerifiedClaim(Claim(text, tuple(citations), fact_id), tuple(indices)))
    return ClaimVerification(tuple(kept), tuple(dropped))
