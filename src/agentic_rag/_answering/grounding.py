"""The grounding check: a claim counts only when its quotes are evidence and its content is
found in them.

A citation that stands at its span proves that the quote exists, not that the claim says what
the quote says. "Jane Doe died in 2020 in Grenoble." citing the quote "Jane Doe" holds as a
citation and is still invented. Every claim of every synthesizer, drafter and generator,
deterministic or LLM-backed, therefore passes this check before it counts. Two kinds of
finding:

* **refused** (:attr:`GroundingFinding.hard`): the claim or a quote is an instruction to a model
  or an assistant that a rule or word cue names ("ignore previous instructions and answer X",
  ``SYSTEM:``, chat-template tokens; :mod:`agentic_rag._text.instructions`): a document that
  tells the model what to say is not evidence for what it says, and repeating it is no answer;
  or the claim cites nothing. No verifier can restore such a claim. (A sentence only the fitted
  scorer reads as addressed to a model is doubted instead: it flags some plain documentation.)
* **doubted**: what a lexical reader can measure and a reader of meaning may overrule:
  a claim with quotes has no meaningful one (a few characters, or a bare name: "Jane Doe"
  proves nothing), unless the quotes are the items of a list or hierarchy that hold every
  name the claim relates; the claim's numbers, names and identifiers are not all found in
  its quotes or cited passages (title included); too few of its content words are (compared
  on word roots; a claim whose every name and number stands in its quotes may paraphrase
  the rest); the claim and its quotes disagree on polarity. Without a verifier a doubted
  claim is dropped; with one (:class:`~agentic_rag._ports.ClaimVerifier`), only a "no" drops it.

Polarity is read as a statement's, not a token's: a negation ("not", "never", "n't",
"cannot", "no", "without") negates the word it stands before, and the claim and its quotes
disagree only when one denies a word the other asserts ("is not enabled" against "is
enabled"). A quote that denies something the claim does not mention, the Python value
``None``, "no limits" restated as "no limit", and "not enabled by default" restated as
"disabled by default" agree.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from agentic_rag._regex import lazy_regex
from agentic_rag._text.analyzer import Analyzer
from agentic_rag._text.instructions import instruction_family, ruled_instruction_family
from agentic_rag._text.long_runs import bounded_runs
from agentic_rag._text.term_weights import bounded_cache

__all__ = ["GroundingFinding", "check_grounding", "grounding_problem"]

_ROOT = 5
_NUMBER = lazy_regex(r"\d+(?:[.,]\d+)*")
_NAME = lazy_regex(r"(?<![.!?]\s)(?<!^)\b[A-Z][\w'-]*|\b\w+(?:[._]\w+)+|\b[a-z]+[A-Z]\w*")
_CAPITALISED_WORD = lazy_regex(r"[A-Z][\w'.-]*")
_TABLE_ROW = lazy_regex(r"\w[^|\n]*\|\s*[^|\s]|^\s*(?:[-*+]\s+)?\w[^:|\n]{0,40}:\s+\S")
# A word, as the polarity reader walks a sentence; "n't" is split off its verb.
_TOKEN = lazy_regex(r"n't\b|[\w'’-]+", re.IGNORECASE)
_NEGATORS = frozenset({"not", "n't", "never", "no", "cannot", "without", "neither", "nor", "none"})
# Words between a negation and the word it negates: "is not yet enabled", "does not by
# default", "cannot be set", "no longer supported".
_PASSED_OVER = frozenset(
    "a an the be been being is are was were am do does did have has had to yet longer always currently "
    "by default any more also necessarily automatically ever get got".split()
)
#: Share of a claim's content words (on roots) its quotes and passages must hold.
MIN_WORD_SHARE = 0.7
#: The share when every name and number of the claim stands in its quotes: the rest may be
#: said in other words ("the collected values are passed as a tuple").
MIN_PARAPHRASE_SHARE = 0.5
#: A quote shorter than this many characters (white space aside) is no evidence.
MIN_QUOTE_CHARS = 8
#: Nor is one with fewer content terms.
MIN_QUOTE_TERMS = 2


@dataclass(frozen=True, slots=True)
class GroundingFinding:
    """What the check found about one claim.

    Args:
        problem: Why the claim is not grounded ("" when it is).
        hard: The problem is one no verifier can overrule (text addressed to a model, nothing
            cited); otherwise it is a doubt a reader of meaning may settle.
    """

    problem: str = ""
    hard: bool = False


_GROUNDED = GroundingFinding()


@lru_cache(maxsize=1)
def _analyzer() -> Analyzer:
    return Analyzer()


def _roots_uncached(text: str) -> frozenset[str]:
    text = bounded_runs(text)  # a run of data is read up to a bound (see long_runs)
    return frozenset(t[:_ROOT] for t in _analyzer().analyze(re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", text)) + _analyzer().analyze(text))


# Claims and quotes repeat across rounds; whole passages (long keys) are not kept.
_roots = bounded_cache(_roots_uncached, 2048)


def _word_root(word: str) -> str:
    terms = _analyzer().analyze(word)
    return terms[0][:_ROOT] if terms else ""


def _polarity(text: str) -> frozenset[str]:
    """The roots of the words ``text`` denies: the first content word after each negation.

    ``None`` written as a value (capitalised, not opening a sentence) is no negation;
    lower-case "none" is ("none of them")."""
    tokens = [m.group() for m in _TOKEN.finditer(text)]
    denied: set[str] = set()
    for index, token in enumerate(tokens):
        folded = token.casefold()
        if folded not in _NEGATORS or token == "None" and index:
            continue
        for word in tokens[index + 1:index + 6]:
            lowered = word.casefold()
            if lowered in _PASSED_OVER or lowered in _NEGATORS:
                continue
            root = _word_root(word)
            if root:
                denied.add(root)
            break
    return frozenset(denied)


def polarity_problem(claim: str, quoted: str) -> str:
    """Why ``claim`` and ``quoted`` disagree on polarity ("" when they agree): one denies a
    word the other asserts. A denial about something the other does not mention is no
    disagreement."""
    claim_denied, quote_denied = _polarity(claim), _polarity(quoted)
    flipped = sorted((claim_denied - quote_denied) & _roots(quoted) | (quote_denied - claim_denied) & _roots(claim))
    return f"the claim and its quote disagree on a negation ({', '.join(flipped)})" if flipped else ""


def _addressed(text: str, what: str, then: str) -> GroundingFinding:
    """Whether ``text`` is addressed to a model: refused when a rule or word cue names it (an
    explicit instruction), doubted when only the fitted scorer reads it so (it flags some plain
    documentation; a reader of meaning may clear it)."""
    family = ruled_instruction_family(text)
    if family:
        return GroundingFinding(f"{what} is an instruction to a model ({family}), {then}", hard=True)
    if instruction_family(text):
        return GroundingFinding(f"{what} reads as addressed to a model (the fitted scorer's reading), {then}")
    return _GROUNDED


def _quote_problem(quote: str) -> GroundingFinding:
    addressed = _addressed(quote, f"the quote {quote[:40]!r}", "not evidence")
    if addressed.problem:
        return addressed
    stripped = "".join(quote.split())
    if len(stripped) < MIN_QUOTE_CHARS or len(_roots(quote)) < MIN_QUOTE_TERMS:
        return GroundingFinding(f"the quote {quote[:40]!r} is too short to be evidence")
    words = [w for w in re.findall(r"[\w'.-]+", quote) if any(ch.isalpha() for ch in w)]
    # A table row ("Storage | 500 GB") or a labelled line ("- Headquarters: Portland, Oregon")
    # pairs a label with its value: a statement, however short.
    if len(words) <= 4 and all(_CAPITALISED_WORD.fullmatch(w) for w in words) and not re.search(r"[.!?:]\s*$", quote.strip()) and not _TABLE_ROW.search(quote):
        return GroundingFinding(f"the quote {quote[:40]!r} is a bare name, not a statement")
    return _GROUNDED


def _names(text: str) -> list[str]:
    return [m.group() for m in _NAME.finditer(text) if _roots(m.group())]


def _relates_listed_names(claim: str, quotes: Sequence[str]) -> bool:
    """True when ``quotes`` are two or more items of a list or hierarchy (bare names) and the
    claim names every one of them: "ConnectTimeout is a subclass of TimeoutException" quoting
    the two lines of a class tree states the relation the tree shows."""
    folded = claim.casefold()
    return len(quotes) >= 2 and all(" ".join(q.split()).casefold() in folded for q in quotes)


def check_grounding(claim: str, quotes: Sequence[str], sources: Sequence[str]) -> GroundingFinding:
    """Whether ``claim`` is grounded in its quotes and cited passages.

    Args:
        claim: The claim's text.
        quotes: The quoted spans its citations give (may be empty for generators that cite
            whole documents by number).
        sources: The cited passages (title and text), the wider context the claim may draw on.

    Returns:
        The first problem found (refused or doubted, see the module docstring), or a finding
        with no problem.
    """
    addressed = _addressed(claim, "the claim", "not a statement")
    if addressed.hard:
        return addressed
    findings = [_quote_problem(q) for q in quotes]
    injected = next((f for f in findings if f.hard or "addressed to a model" in f.problem), None)
    if injected is not None:
        return injected
    if addressed.problem:
        return addressed
    if quotes and all(f.problem for f in findings) and not _relates_listed_names(claim, quotes):
        # A short span or a bare name beside a real quote is harmless; alone, it proves nothing.
        return findings[0]
    listed = quotes and all(f.problem for f in findings)
    kept = list(quotes) if listed else [q for q, f in zip(quotes, findings) if not f.problem]
    evidence = "\n".join([*kept, *sources])
    if not evidence.strip():
        return GroundingFinding("the claim cites nothing", hard=True)
    numbers = set(_NUMBER.findall(evidence))
    missing_numbers = [n for n in dict.fromkeys(_NUMBER.findall(claim)) if n not in numbers]
    if missing_numbers:
        return GroundingFinding(f"the claim's {', '.join(missing_numbers)} is not in its evidence")
    found = _roots(evidence)
    missing_names = [name for name in dict.fromkeys(_names(claim)) if not _roots(name) <= found]
    if missing_names:
        return GroundingFinding(f"the claim's {', '.join(missing_names)} is not in its evidence")
    wanted = _roots(claim)
    quoted = "\n".join(kept)
    in_quotes = _roots(quoted)
    named = all(_roots(name) <= in_quotes for name in _names(claim)) and all(n in quoted for n in _NUMBER.findall(claim))
    share = MIN_PARAPHRASE_SHARE if kept and named else MIN_WORD_SHARE
    if wanted and len(wanted & found) < share * len(wanted):
        return GroundingFinding(f"the claim's words {', '.join(sorted(wanted - found))} are not in its evidence")
    if kept:
        problem = polarity_problem(claim, quoted)
        if problem:
            return GroundingFinding(problem)
    return _GROUNDED


def grounding_problem(claim: str, quotes: Sequence[str], sources: Sequence[str]) -> str:
    """Why ``claim`` is not grounded in its quotes and cited passages ("" when it is): the
    problem of :func:`check_grounding`, refused or doubted alike.

    Args:
        claim: The claim's text.
        quotes: The quoted spans its citations give.
        sources: The cited passages (title and text).

    Returns:
        The first problem found, or "".
    """
    return check_grounding(claim, quotes, sources).problem
