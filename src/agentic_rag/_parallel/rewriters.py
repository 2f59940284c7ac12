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

from agentic_rag._regex import LazyRegex, lazy_regex
from agentic_rag._text.questions import find_comparison, fold_query, split_clauses
from agentic_rag._contracts.validation import require_bool, require_fraction, require_int, require_text
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
    seen = {fold_query(original)} if keep_original else set()
    out = []
    for text in queries:
        text = " ".join(text.split())
        if text and fold_query(text) not in seen:
            seen.add(fold_query(text))
            out.append(text)
    if not out:
        out = [original]
    return RewriteResult(queries=tuple(out), keep_original=keep_original)


def _bool(value: object, name: str) -> bool:
    return bool(require_bool(value, name, stage=_STAGE))


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


_STATEMENT_RULES: tuple[tuple[LazyRegex, Callable[[re.Match[str]], str]], ...] = (
    (lazy_regex(r"^(?:what|who|which|where|when)\s+(is|are|was|were)\s+(.+)$", re.I), lambda m: f"{m.group(2)} {m.group(1).lower()}"),
    (lazy_regex(r"^why\s+(?:do|does|did)\s+(.+)$", re.I), lambda m: f"{m.group(1)} because"),
    (lazy_regex(r"^how\s+(?:do|does|did)\s+(.+)$", re.I), lambda m: f"{m.group(1)} by"),
    (lazy_regex(r"^(?:what|when|where)\s+(?:do|does|did)\s+(.+)$", re.I), lambda m: m.group(1)),
    (lazy_regex(r"^(?:is|are|was|were|do|does|did|can|could|will|would|should|has|have|had)\s+(.+)$", re.I), lambda m: m.group(1)),
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


class DecompositionRewriter:
    """Splits compound and comparison questions into sub-queries.

    Compound questions split into their clauses as written
    (:func:`~agentic_rag._text.questions.split_clauses`: at ``;``, at ``?`` between questions
    and at ``and`` before a new question word, ``"Who founded Apple and when did it go
    public?"``). A clause that compares (:func:`~agentic_rag._text.questions.find_comparison`:
    ``"Which magazine came first, X or Y?"``, ``"difference between X and Y"``, ``"compare X
    with Y"``, ``"Is X faster than Y?"``, ``"X vs Y"``) becomes one sub-query per side, the
    compared aspect appended. A question with no such structure is returned unchanged.

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
        out: list[str] = []
        for clause in split_clauses(query):
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
    scores are not positive).

    With ``original_query_weight`` (``alpha``, Anserini's ``rm3.originalQueryWeight``) the view
    is RM3 proper: the ``feedback_terms`` heaviest terms of ``P(w|R)`` (query terms included),
    renormalised, are interpolated with the query model ``P(w|Q) = tf(w, Q) / |Q|`` as
    ``alpha * P(w|Q) + (1 - alpha) * P(w|R)``. A retriever takes text, and BM25 counts a
    repeated query term that many times, so the weights travel as repetitions: the query is
    written ``c = max(4, ceil(20 / |Q|))`` times (so one copy is at most a twentieth of the
    query model's weight) and each feedback term as many extra times as its weight is worth
    on that scale, rounded; terms worth less than half a copy are dropped, and when none is
    left the view is the query itself.

    With ``None`` the ``feedback_terms`` heaviest terms that are not query terms (ties by
    term) are appended once each to the query, which then weighs no more than any one
    expansion term (the behaviour before the weight existed).

    The default weight, 0.9, was chosen on the SciFact train queries (docs/benchmarks.md), by
    the nDCG@10 of BM25 and vector branches over the original and the expanded query fused by
    RRF: the unweighted append scored 0.687 there, 0.5 (Anserini's default) 0.695, 0.9 0.709.

    Feedback terms are written in their most frequent surface form.

    Args:
        retriever: The first-pass retriever.
        analyzer: Must match the retriever's so terms line up (default: English, Snowball).
        feedback_docs: First-pass hits used.
        feedback_terms: Expansion terms added.
        original_query_weight: ``alpha`` in [0, 1], the query model's share (default 0.9);
            ``None`` appends the terms unweighted.
        keep_original: Also search the original query (on by default).
        name: Label for traces.

    Raises:
        BindingError: ``retriever`` has no ``retrieve`` method.
        InvalidInputError: ``feedback_docs`` or ``feedback_terms`` below 1, or
            ``original_query_weight`` neither ``None`` nor a number in [0, 1].
    """

    #: A weighted view writes the query at least this often...
    MIN_QUERY_COPIES = 4
    #: ...and its terms at least this many times in all: the resolution of the weights.
    MIN_QUERY_TERMS = 20

    def __init__(
        self,
        retriever: Retriever,
        *,
        analyzer: Analyzer | None = None,
        feedback_docs: int = 10,
        feedback_terms: int = 10,
        original_query_weight: float | None = 0.9,
        keep_original: bool = True,
        name: str = "rm3",
    ) -> None:
        if not callable(getattr(retriever, "retrieve", None)):
            raise BindingError(f"RM3Rewriter's retriever must have retrieve(query, k, *, corpus_ids=None), got {type(retriever).__name__}", stage=_STAGE)
        self.retriever = retriever
        self.analyzer = analyzer or Analyzer()
        self.feedback_docs = require_int(feedback_docs, "feedback_docs", minimum=1, stage=_STAGE)
        self.feedback_terms = require_int(feedback_terms, "feedback_terms", minimum=1, stage=_STAGE)
        self.original_query_weight = None if original_query_weight is None else require_fraction(
            original_query_weight, "original_query_weight", stage=_STAGE)
        self.keep_original = _bool(keep_original, "keep_original")
        self.name = require_text(name, "name", stage=_STAGE)

    def rewrite(self, request: RewriteRequest) -> RewriteResult:
        """Run the first pass and return the expanded query.

        Raises:
            InvalidInputError: ``request`` is not a :class:`RewriteRequest`.
        """
        query = _query(request)
        if self.original_query_weight is not None:
            return _views([self.weighted_query(query)], self.keep_original, query)
        terms = self.expansion_terms(query)
        if not terms:
            return RewriteResult(queries=(query,), keep_original=self.keep_original)
        return _views([f"{query} {' '.join(terms)}"], self.keep_original, query)

    def expansion_terms(self, query: str) -> list[str]:
        """Return the expansion words for ``query`` that are not query terms, heaviest first."""
        weights, surface, query_terms = self._relevance_model(query)
        candidates = [(w, t) for t, w in weights.items() if t not in query_terms]
        candidates.sort(key=lambda pair: (-pair[0], pair[1]))
        return [surface[t] for _, t in candidates[: self.feedback_terms]]

    def feedback_model(self, query: str) -> list[tuple[str, float]]:
        """Return RM3's feedback model: the ``feedback_terms`` heaviest terms of ``P(w|R)``,
        query terms included, as ``(surface word, weight)`` renormalised to sum 1, heaviest
        first (ties by term)."""
        weights, surface, _ = self._relevance_model(query)
        top = sorted(((w, t) for t, w in weights.items()), key=lambda pair: (-pair[0], pair[1]))[: self.feedback_terms]
        total = sum(w for w, _ in top)
        return [(surface[t], w / total) for w, t in top] if total > 0 else []

    def weighted_query(self, query: str) -> str:
        """Return the interpolated query as text: copies of ``query``, then each feedback term
        repeated as often as its weight is worth (heaviest first); ``query`` alone when no
        feedback term is worth a copy.

        Raises:
            InvalidInputError: The rewriter has no ``original_query_weight``.
        """
        alpha = self.original_query_weight
        if alpha is None:
            raise InvalidInputError("weighted_query needs original_query_weight, got None", stage=_STAGE)
        length = len(self.analyzer.analyze(query))
        model = self.feedback_model(query) if alpha < 1.0 else []
        if not model or not length:
            return query
        copies = max(self.MIN_QUERY_COPIES, -(-self.MIN_QUERY_TERMS // length))
        # One copy of a word is worth alpha / (|Q| * copies); without a query model (alpha 0)
        # the lightest feedback term is worth `copies` copies instead.
        scale = copies * length / alpha if alpha > 0.0 else copies / model[-1][1]
        words = [word for word, weight in model for _ in range(round((1.0 - alpha) * weight * scale))]
        if not words:
            return query
        return " ".join([query] * (copies if alpha > 0.0 else 0) + words)

    def _relevance_model(self, query: str) -> tuple[Counter[str], dict[str, str], set[str]]:
        """``P(w|R)`` over the first-pass hits (terms of one letter and numbers left out), the
        surface word of each term, and the query's own terms."""
        hits = self.retriever.retrieve(query, self.feedback_docs)
        weights: Counter[str] = Counter()
        surface: dict[str, Counter[str]] = {}
        query_terms = set(self.analyzer.analyze(query))
        if not hits:
            return weights, {}, query_terms
        positive = [max(0.0, h.score) for h in hits]
        total = sum(positive)
        priors = [p / total for p in positive] if total > 0 else [1.0 / len(hits)] * len(hits)
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
        kept = Counter({t: w for t, w in weights.items() if len(t) > 1 and not t.isdigit()})
        words = {t: min(surface[t].items(), key=lambda kv: (-kv[1], kv[0]))[0] for t in kept}
        return kept, words, query_terms


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
