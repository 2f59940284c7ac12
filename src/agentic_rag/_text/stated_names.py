"""The names a query states as written, and which of them a hit's printed lines lack.

A query that names something asks about that thing: ``cache_size``, ``http.server``,
``--no-cache``, ``render_template()``, a quoted ``"strict mode"``. Lines that
use the same words apart ("the cache has a size", "a balanced merge tree") talk about
something else, yet share most of the query's terms, so their coverage is high. The
term-level check (:meth:`~agentic_rag._text.relevance.RelevanceModel.missing_named`) matches
a name on its stems, one part at a time, and cannot tell them apart. Here a name must stand
in the text as written, case and white space folded (a dotted name: each of its parts as a
word, the module in the heading path): an identifier split into words does not hold it.

What counts as a stated name:

- an identifier: a word joined by ``_`` or ``.`` (``cache_size``, ``os.path``), camel case
  (``followRedirects``), a command-line option (``--option``) or a call (``name()``, held
  by ``name``);
- a quoted term (``"..."``, ``'...'``, a backtick span);
- in a keyword query (no question word, at most eight words: what an agent types after its
  first search), a run of capitalised keywords (``MERGE``, ``MERGE INTO``), unless the
  collection uses each of its words in more than a fifth of its documents;
- the words of a keyword query ("rate limiting") when the collection rarely uses one of them,
  held when they stand side by side (on their stems). Only in a store of at least 100
  chunks: in a few notes almost every word is rare.

Not counted, because on the development halves (questions as users ask them) they made right
top hits weak: runs of capitals in a question (``PEP 681``, ``RSA``) and a question's
asked-about noun ("which *library*").

Every pattern is applied once to the query (short) and the text is folded once: linear in
both.
"""

from __future__ import annotations

import re

from agentic_rag._regex import lazy_regex
from agentic_rag._text.relevance import RelevanceModel

__all__ = ["absent_names", "name_words", "stated_names", "unused_names"]

# An identifier: dotted or underscored (a letter in it: "3.8" is a version, checked on its
# stems elsewhere), camel case, an option, or a call. Each alternative starts at a word
# boundary so that no pattern is retried from inside one long word.
_IDENTIFIER = lazy_regex(
    r"(?<![\w-])--?[A-Za-z][\w-]*"  # --option, -m
    r"|\b\w*[A-Za-z]\w*(?:[._]\w+)+\(?\)?"  # cache_size, os.path.join(), _private
    r"|\b_\w+"
    r"|\b[a-z]+[A-Z]\w*\(?\)?"  # followRedirects
    r"|\b[A-Z][a-z]+[A-Z]\w*\(?\)?"  # FrozenInstanceError
    r"|\b\w+\(\)"  # name()
)
_QUOTED = lazy_regex(r"\"([^\"\n]{2,60})\"|(?<!\w)'([^'\n]{2,60})'(?!\w)|`([^`\n]{2,60})`|\u201c([^\u201d\n]{2,60})\u201d")
# A question opens with one of these; a query without one is a few keywords, all topic.
_QUESTION = lazy_regex(r"^\s*(?:how|what|which|why|when|where|who|whose|whom|is|are|was|were|do|does|did|can|could|should|would|will|"
                       r"may|might|must|has|have|had|shall)\b", re.IGNORECASE)
_SPACE = lazy_regex(r"\s+")
# A written word of a query, with the joiners an identifier or a version keeps ("os.path",
# "3.17.0", "--no-cache", "get_FOO_display()").
_QUERY_WORD = lazy_regex(r"[\w.\-/()]+")
# A word names something when it mixes capitals into its letters ("MongoDB", "MERGE"), joins
# parts ("cache_size", "os.path", "3.17.0"), is an option ("--no-cache") or mixes letters and
# digits ("utf8mb4"); a capital opening a later word ("the Lambert function") names too.
_NAME_SHAPE = lazy_regex(r"^--?[A-Za-z]|\w[._/]\w|[a-z][A-Z]|^[A-Z]{2,}|[A-Za-z]\d|\d[A-Za-z]|^\d+(?:\.\d+)+$")
# A keyword query of more words than this is a sentence without a question mark, not a topic.
_MOST_KEYWORDS = 4
# Capitalised keywords are names in a keyword query of at most this many words.
_MOST_CAPITAL_KEYWORDS = 8
# All-capital keywords, a run of them one name ("MERGE INTO"); two letters at least ("I",
# "A" open sentences).
_CAPITALS = lazy_regex(r"\b[A-Z][A-Z0-9]+(?:\s+[A-Z][A-Z0-9]+)*\b")
# Ordinary words written in capitals ("OK"): no keyword.
_CAPITAL_WORDS = frozenset({"OK"})
# A keyword the collection uses in more than this share of its documents pins nothing down.
_COMMON_SHARE = 0.2
# "Rarely": in at most this share of the collection's documents (and at least a few).
_RARE_SHARE = 0.005
_RARE_MIN = 3
# Rarity is read in a store of at least this many chunks (as the likelihood's unknown words are).
_VOCABULARY_CHUNKS = 100


def _fold(text: str) -> str:
    return _SPACE.sub(" ", text.casefold()).strip()


def stated_names(query: str, model: RelevanceModel) -> tuple[str, ...]:
    """The names ``query`` states, folded (case and white space), once each, in order.

    Args:
        query: The query or question.
        model: The store's relevance model (its statistics tell a common keyword).

    Returns:
        The folded names (the topic words are not among them: see :func:`absent_names`).
    """
    written, capitals = _names(query, model)
    return tuple(dict.fromkeys(f for f in (_fold(n) for n in written + capitals) if f))


def _names(query: str, model: RelevanceModel) -> tuple[list[str], list[str]]:
    """The names ``query`` states as written: identifiers and quoted terms (held case folded),
    and a keyword query's capitalised keywords (held in capitals), each as the query writes it."""
    written: list[str] = []
    for match in _IDENTIFIER.finditer(query):
        name = match.group().rstrip("()").strip(".")
        if len(name.strip("-_")) >= 2:
            written.append(name)
    written += [next(g for g in m.groups() if g) for m in _QUOTED.finditer(query)]
    capitals = _capital_names(query, model) if _keywords(query, _MOST_CAPITAL_KEYWORDS) else []
    return written, capitals


def _keywords(query: str, most: int) -> bool:
    """Whether ``query`` is a few keywords (no question word, no question mark, at most
    ``most`` words): what an agent types after its first search, in the documents' terms."""
    return not _QUESTION.match(query) and "?" not in query and len(query.split()) <= most


def _capital_names(query: str, model: RelevanceModel) -> list[str]:
    """The runs of capitalised keywords of a keyword query (``MERGE``, ``MERGE INTO``), less
    those the collection uses in more than a fifth of its documents (``SQL`` in SQL
    documentation pins nothing down) and ordinary words written so (``OK``). In a question
    they are left to the coverage: "PEP 681", "RSA and ECDSA" as required names made right
    top hits weak on the development halves."""
    weights = model.weights
    limit = _COMMON_SHARE * weights.document_count
    names = []
    for match in _CAPITALS.finditer(query):
        words = match.group().split()
        if len(words) == len(query.split()) or match.group() in _CAPITAL_WORDS:
            continue  # a query written in capitals names nothing by it
        terms = [t for w in words for t in model.analyzer.analyze(w)]
        if terms and weights.has_statistics and all(weights.frequency(t) > limit for t in terms):
            continue
        names.append(match.group())
    return names


def _rare_phrase(query: str, model: RelevanceModel) -> list[str]:
    """The terms of a keyword query (in order) when one of them is rare in the collection, as
    the phrase a hit must hold; ``[]`` for a question, a long query or a common one."""
    weights = model.weights
    if weights.document_count < _VOCABULARY_CHUNKS:
        return []  # in a few notes almost every word is rare: rarity says nothing
    if not _keywords(query, _MOST_KEYWORDS):
        # A question's asked-about noun ("which *library*") is left to the coverage: measured
        # on the development halves, requiring it as written made right top hits weak.
        return []
    # A few keywords name one thing together ("rate limiting"): a text that uses its rare
    # word in another sense ("rated") does not hold it, the words side by side do.
    rare = max(_RARE_MIN, _RARE_SHARE * weights.document_count)
    phrase = model.analyzer.analyze(query)
    return phrase if any(weights.frequency(t) <= rare for t in phrase) else []


def _holds_phrase(terms: list[str], text_terms: list[str]) -> bool:
    """Whether ``terms`` stand side by side, in order, in ``text_terms`` (a short phrase: at
    most a few positions compared per text term)."""
    n = len(terms)
    return any(text_terms[i:i + n] == terms for i in range(len(text_terms) - n + 1) if text_terms[i] == terms[0])


def _holds_name(name: str, folded: str) -> bool:
    """Whether folded ``text`` holds ``name`` as written, or, for a dotted name, each of its
    parts as a word (``textwrap.fill`` under the heading "textwrap — Text wrapping", in a line
    naming ``fill()``)."""
    if name in folded:
        return True
    parts = [p for p in name.split(".") if p]
    return len(parts) > 1 and all(re.search(rf"(?<![\w.]){re.escape(p)}(?!\w)", folded) for p in parts)


def absent_names(query: str, text: str, model: RelevanceModel) -> tuple[str, ...]:
    """What ``query`` names that ``text`` (a hit's printed lines with its heading path) lacks.

    Args:
        query: The query or question.
        text: The text to look in.
        model: The store's relevance model.

    Returns:
        The folded names not in ``text`` as written, then the rarely used topic not in it
        (a question's topic term in no form of it, a keyword query's words not side by
        side); empty when it holds them all.
    """
    folded, spaced = _fold(text), _SPACE.sub(" ", text)
    written, capitals = _names(query, model)
    missing = [name for name in (_fold(n) for n in written) if name and not _holds_name(name, folded)]
    # A keyword written in capitals is a name in capitals: "MERGE" (the statement) is not held
    # by "a balanced merge tree".
    missing += [_fold(name) for name in capitals if _SPACE.sub(" ", name) not in spaced]
    phrase = _rare_phrase(query, model)
    if phrase and not _holds_phrase(phrase, model.analyzer.analyze(text)):
        missing.append(" ".join(phrase))
    return tuple(dict.fromkeys(missing))


def name_words(query: str) -> tuple[str, ...]:
    """The words of ``query`` that name something, as written (without surrounding
    punctuation), once each, in order: a word in capitals or mixed case ("MongoDB", "MERGE"),
    joined parts ("cache_size", "os.path", "3.17.0"), an option ("--no-cache"), letters mixed
    with digits ("utf8mb4"), or a capitalised word inside a sentence ("the Lambert function";
    not "Which" opening the query's second sentence) or opening a keyword query ("Mermaid
    diagrams": no question word, no sentence mark, at most eight words)."""
    out = []
    # An agent's keyword query starts with its topic, often a name ("Mermaid diagram
    # extension"): its first word is read like any other. A sentence's first word is
    # capitalised by rule, so it tells nothing.
    keywords = _is_keyword_query(query)
    for match in _QUERY_WORD.finditer(query):
        word = match.group().rstrip(".-/()").lstrip("./()")  # an option keeps its leading dashes
        before = query[:match.start()].rstrip()[-1:]
        opens = before in (".", "?", "!", ":", ";") or (before == "" and not keywords)  # a sentence's first word
        if len(word) >= 3 and (_NAME_SHAPE.search(word) or (not opens and word[0].isupper())):
            out.append(word)
    return tuple(dict.fromkeys(out))


def _is_keyword_query(query: str) -> bool:
    """No question word first, no sentence mark, at most eight words: a topic typed as keywords."""
    return (_QUESTION.match(query) is None and not any(mark in query for mark in ".?!;:")
            and len(query.split()) <= _MOST_CAPITAL_KEYWORDS)


def unused_names(query: str, model: RelevanceModel) -> tuple[str, ...]:
    """The names ``query`` writes (:func:`name_words`) that no document of the collection
    uses in any form.

    A search for "MongoDB backend" in documentation that never says MongoDB still prints its
    best hits (about other backends); the reader then searches again to be sure. Saying which
    named word no document holds answers that at once. Only names count: an ordinary word the
    documents do not use is likely a paraphrase of one they do.

    Args:
        query: The query or question.
        model: The store's relevance model (its statistics say which terms occur).

    Returns:
        The words as written, once each, in order; empty without statistics.
    """
    weights = model.weights
    if not weights.has_statistics:
        return ()
    out = []
    for word in name_words(query):
        terms = model.analyzer.analyze(word)
        # A name in a versioned form ("GPLv2" for GPL) is the name in another form.
        if terms and all(weights.frequency(t) == 0 and not weights.versioned_forms(t) for t in terms):
            out.append(word)
    return tuple(out)
