"""Query-view rewriters: identity, multi-query, decomposition, RM3 feedback and HyDE.

All follow :class:`~agentic_rag._parallel.ports.QueryViewRewriter`. The first four are
deterministic and need no model. :class:`HyDERewriter` takes an injected function that writes
the hypothetical document, so its rule can be tested now; model-backed rewriters plug into the
same port.

Whether the user's query is also searched as its own view is each rewriter's ``keep_original``
option, on by default; it travels in :attr:`RewriteResult.keep_original` and the workflow adds
the original view first (duplicates of it are dropped).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

from agentic_rag._text.questions import find_comparison
from agentic_rag._contracts.validation import require_int, require_text
from agentic_rag._errors import BindingError, InvalidInputError
from agentic_rag._parallel.contracts import RewriteRequest, RewriteResult
from agentic_rag._ports import Retriever
from agentic_rag._text.analyzer import Analyzer

__all__ = ["DecompositionRewriter", "HyDERewriter", "IdentityRewriter", "MultiQueryRewriter", "RM3Rewriter"]

_STAGE = "rewriter"


def _query(request: object) -> str:
    if not isinstance(request, RewriteRequest):
        raise InvalidInputError(f"rewrite takes a RewriteRequest, got {type(request).__name__}; wrap a string as RewriteRequest(query)", stage=_STAGE)
    return request.query.strip()


def _views(queries: list[str], keep_original: bool, original: str) -> RewriteResult:
    """Drop empty and repeated views (compared case- and space-insensitively)."""
    seen = {_fold(original)} if keep_original else set()
    out = []
    for text in queries:
        text = " ".join(text.split())
        if text and _fold(text) not in seen:
            seen.add(_fold(text))
            out.append(text)
    if not out:
        out = [original]
    return RewriteResult(queries=tuple(out), keep_original=keep_original)


def _fold(text: str) -> str:
    return " ".join(text.casefold().split()).rstrip("?.! ")


def _bool(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidInputError(f"{name} must be a bool, got {value!r}", stage=_STAGE)
    return value


class IdentityRewriter:
    """Searches the query as given: one view."""

    name = "identity"

    def rewrite(self, request: RewriteRequest) -> RewriteResult:
        """Return the query itself as the only view.

        Raises:
            InvalidInputError: ``request`` is not a :class:`RewriteRequest`.
        """
        query = _query(request)
        return RewriteResult(queries=(query,))


_STATEMENT_RULES: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (re.compile(r"^(?:what|who|which|where|when)\s+(is|are|was|were)\s+(.+)$", re.I), lambda m: f"{m.group(2)} {m.group(1).lower()}"),
    (re.compile(r"^why\s+(?:do|does|did)\s+(.+)$", re.I), lambda m: f"{m.group(1)} because"),
    (re.compile(r"^how\s+(?:do|does|did)\s+(.+)$", re.I), lambda m: f"{m.group(1)} by"),
    (re.compile(r"^(?:what|when|where)\s+(?:do|does|did)\s+(.+)$", re.I), lambda m: m.group(1)),
    (re.compile(r"^(?:is|are|was|were|do|does|did|can|could|will|would|should|has|have|had)\s+(.+)$", re.I), lambda m: m.group(1)),
)


class MultiQueryRewriter:
    """Several views of one query: the original, a keyword-only view and the question turned
    into a statement (``"What is the capital of France?"`` -> ``"the capital of France is"``),
    so a lexical and a vector retriever each get a view that suits them.

    Args:
        analyzer: Its stop words decide the keyword view (default: English).
        keep_original: Also search the original query (on by default).
        name: Label for traces.
    """

    def __init__(self, analyzer: Analyzer | None = None, *, keep_original: bool = True, name: str = "multi_query") -> None:
        self.analyzer = analyzer or Analyzer()
        self.keep_original = _bool(keep_original, "keep_original")
        self.name = require_text(name, "name", stage=_STAGE)

    def rewrite(self, request: RewriteRequest) -> RewriteResult:
        """Return the keyword and statement views (views equal to another are dropped).

        Raises:
            InvalidInputError: ``request`` is not a :class:`RewriteRequest`.
        """
        query = _query(request)
        keywords = [t for t in dict.fromkeys(self.analyzer.tokenize(query)) if not self.analyzer.is_stopword(t)]
        return _views([" ".join(keywords), self.statement(query)], self.keep_original, query)

    @staticmethod
    def statement(query: str) -> str:
        """Turn a question into a statement-like view, or return ``""`` when no rule fits."""
        text = query.strip().rstrip("?").strip()
        for pattern, build in _STATEMENT_RULES:
            match = pattern.match(text)
            if match:
                return build(match)
        return ""


_QUESTION_ANALYZER = Analyzer()
_WH = r"(?:what|who|whom|whose|when|where|why|how|which|is|are|was|were|did|does|do|can)"
_COMPARISONS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], list[str]]], ...] = (
    (re.compile(r"^(?:what\s+(?:is|are)\s+)?(?:the\s+)?differences?\s+between\s+(.+?)\s+and\s+(.+)$", re.I), lambda m: [m.group(1), m.group(2)]),
    (re.compile(r"^compare\s+(.+?)\s+(?:and|with|to|vs\.?|versus)\s+(.+)$", re.I), lambda m: [m.group(1), m.group(2)]),
    (re.compile(r"^(?:which|who)\s+(?:is|was|are|were)\s+(.+?),\s*(.+?)\s+or\s+(.+)$", re.I), lambda m: [f"{m.group(2)} {m.group(1)}", f"{m.group(3)} {m.group(1)}"]),
    (re.compile(r"^(?:is|are|was|were)\s+(.+?)\s+(\w+er|more\s+\w+|less\s+\w+)\s+than\s+(.+)$", re.I), lambda m: [f"{m.group(1)} {m.group(2)}", f"{m.group(3)} {m.group(2)}"]),
    (re.compile(r"^(.+?)\s+(?:vs\.?|versus)\s+(.+)$", re.I), lambda m: [m.group(1), m.group(2)]),
)
_CLAUSE_SPLIT = re.compile(rf"\s*;\s*|,?\s+and\s+(?={_WH}\b)|\?\s+", re.I)


class DecompositionRewriter:
    """Splits compound and comparison questions into sub-queries.

    Comparisons (``"difference between X and Y"``, ``"compare X with Y"``, ``"Which is older,
    X or Y?"``, ``"Is X faster than Y?"``, ``"X vs Y"``) become one sub-query per side;
    compound questions split at ``;``, at ``?`` between questions and at ``and`` before a new
    question word (``"Who founded Apple and when did it go public?"``). A question with no such
    structure is returned unchanged.

    Args:
        keep_original: Also search the original question (on by default).
        name: Label for traces.
    """

    def __init__(self, *, keep_original: bool = True, name: str = "decomposition") -> None:
        self.keep_original = _bool(keep_original, "keep_original")
        self.name = require_text(name, "name", stage=_STAGE)

    def rewrite(self, request: RewriteRequest) -> RewriteResult:
        """Return the sub-queries (or the question itself when it does not split).

        Raises:
            InvalidInputError: ``request`` is not a :class:`RewriteRequest`.
        """
        query = _query(request)
        return _views(self.decompose(query), self.keep_original, query)

    @staticmethod
    def decompose(query: str) -> list[str]:
        """Return the sub-queries of ``query`` (``[query]`` when it does not split)."""
        clauses = [c.strip(" ,?") for c in _CLAUSE_SPLIT.split(query.strip()) if c and c.strip(" ,?")]
        out: list[str] = []
        for clause in clauses:
            for pattern, build in _COMPARISONS:
                match = pattern.match(clause)
                if match:
                    out.extend(part.strip(" ,?") for part in build(match))
                    break
            else:
                # The agentic planner's reading of comparisons ("Which magazine was started
                # first Arthur's Magazine or First for Women?"), shared rather than retyped.
                comparison = find_comparison(clause, _QUESTION_ANALYZER)
                if comparison is not None:
                    out.extend(f"{item} {comparison.aspect}".strip() for item in comparison.items)
                else:
                    out.append(clause)
        return out or [query]


class RM3Rewriter:
    """Pseudo-relevance feedback, RM3 style: expand the query with the terms that weigh most
    in the top documents of a first retrieval pass (BM25 in the usual setup).

    The relevance model is ``P(w|R) = sum_D P(D) * tf(w, D) / |D|`` over the ``feedback_docs``
    first-pass hits, with ``P(D)`` the hit's score over the sum of scores (uniform when the
    scores are not positive). The ``feedback_terms`` heaviest terms that are not query terms
    (ties by term) are appended to the query in their most frequent surface form. The
    interpolation with the original query model is carried by keeping the query's own words
    first and, with ``keep_original``, the original query as a view of its own.

    Args:
        retriever: The first-pass retriever.
        analyzer: Must match the retriever's so terms line up (default: English, Snowball).
        feedback_docs: First-pass hits used.
        feedback_terms: Expansion terms added.
        keep_original: Also search the original query (on by default).
        name: Label for traces.

    Raises:
        BindingError: ``retriever`` has no ``retrieve`` method.
        InvalidInputError: ``feedback_docs`` or ``feedback_terms`` below 1.
    """

    def __init__(
        self,
        retriever: Retriever,
        *,
        analyzer: Analyzer | None = None,
        feedback_docs: int = 10,
        feedback_terms: int = 10,
        keep_original: bool = True,
        name: str = "rm3",
    ) -> None:
        if not callable(getattr(retriever, "retrieve", None)):
            raise BindingError(f"RM3Rewriter's retriever must have retrieve(query, k, *, corpus_ids=None), got {type(retriever).__name__}", stage=_STAGE)
        self.retriever = retriever
        self.analyzer = analyzer or Analyzer()
        self.feedback_docs = require_int(feedback_docs, "feedback_docs", minimum=1, stage=_STAGE)
        self.feedback_terms = require_int(feedback_terms, "feedback_terms", minimum=1, stage=_STAGE)
        self.keep_original = _bool(keep_original, "keep_original")
        self.name = require_text(name, "name", stage=_STAGE)

    def rewrite(self, request: RewriteRequest) -> RewriteResult:
        """Run the first pass and return the expanded query.

        Raises:
            InvalidInputError: ``request`` is not a :class:`RewriteRequest`.
        """
        query = _query(request)
        terms = self.expansion_terms(query)
        if not terms:
            return RewriteResult(queries=(query,), keep_original=self.keep_original)
        return _views([f"{query} {' '.join(terms)}"], self.keep_original, query)

    def expansion_terms(self, query: str) -> list[str]:
        """Return the expansion words for ``query``, heaviest first."""
        hits = self.retriever.retrieve(query, self.feedback_docs)
        if not hits:
            return []
        positive = [max(0.0, h.score) for h in hits]
        total = sum(positive)
        priors = [p / total for p in positive] if total > 0 else [1.0 / len(hits)] * len(hits)
        query_terms = set(self.analyzer.analyze(query))
        weights: Counter[str] = Counter()
        surface: dict[str, Counter[str]] = {}
        stem_of: dict[str, str] = {}
        for hit, prior in zip(hits, priors):
            doc_terms: list[str] = []
            for token in self.analyzer.tokenize(f"{hit.title}\n{hit.text}" if hit.title else hit.text):
                if token not in stem_of:
                    analysed = self.analyzer.analyze(token)
                    stem_of[token] = analysed[0] if len(analysed) == 1 else ""
                stem = stem_of[token]
                if stem:
                    doc_terms.append(stem)
                    surface.setdefault(stem, Counter())[token] += 1
            if not doc_terms:
                continue
            for term, count in Counter(doc_terms).items():
                weights[term] += prior * count / len(doc_terms)
        candidates = [(w, t) for t, w in weights.items() if t not in query_terms and len(t) > 1 and not t.isdigit()]
        candidates.sort(key=lambda pair: (-pair[0], pair[1]))
        return [min(surface[t].items(), key=lambda kv: (-kv[1], kv[0]))[0] for _, t in candidates[: self.feedback_terms]]


class HyDERewriter:
    """Hypothetical document embeddings: a function writes a passage that would answer the
    query, and vector retrievers search with that passage.

    The workflow enforces HyDE's rule: a workflow binding this rewriter must bind at least one
    vector retriever (``requires_vector_retriever``), the hypothetical document is searched by
    vector retrievers only, and it never reaches fusion or the generator as evidence.

    Args:
        generate: ``generate(query) -> str``, the hypothetical document (an LLM call in
            production, any function in tests).
        keep_original: Also search the original query with the vector retrievers (the other
            retrievers always search it).
        name: Label for traces.

    Raises:
        InvalidInputError: ``generate`` is not callable.
    """

    requires_vector_retriever = True

    def __init__(self, generate: Callable[[str], str], *, keep_original: bool = True, name: str = "hyde") -> None:
        if not callable(generate):
            raise InvalidInputError(f"generate must be callable as generate(query) -> str, got {generate!r}", stage=_STAGE)
        self.generate = generate
        self.keep_original = _bool(keep_original, "keep_original")
        self.name = require_text(name, "name", stage=_STAGE)

    def rewrite(self, request: RewriteRequest) -> RewriteResult:
        """Write the hypothetical document.

        Raises:
            InvalidInputError: ``request`` is not a :class:`RewriteRequest`, or the function
                returned something other than a non-empty string.
        """
        query = _query(request)
        document = self.generate(query)
        if not isinstance(document, str) or not document.strip():
            raise InvalidInputError(f"HyDE generate function must return a non-empty string, got {document!r:.60}", stage=_STAGE)
        return RewriteResult(rewritten_query=document, keep_original=self.keep_original)
