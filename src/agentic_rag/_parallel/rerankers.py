"""Deterministic rerankers for one branch's hits: a lexical cross-scorer and MMR.

Both follow the :class:`~agentic_rag._parallel.ports.Reranker` port: they return at most
``top_k`` of the hits, without duplicates, with ``Snippet.score`` replaced by their own score,
best first and ties broken by snippet id. Both depend only on the set of hits, not on the
order they arrive in.
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from collections.abc import Sequence

from agentic_rag._contracts import Snippet
from agentic_rag._contracts.validation import require_int, require_number, require_text
from agentic_rag._errors import InvalidInputError
from agentic_rag._text.analyzer import Analyzer

__all__ = ["LexicalReranker", "MMRReranker"]

_STAGE = "reranker"


def _checked_hits(query: object, hits: object, top_k: object) -> list[Snippet]:
    """Validate a rerank call and return the hits with duplicate ids dropped (first kept)."""
    require_text(query, "query", stage=_STAGE, allow_empty=True)
    require_int(top_k, "top_k", minimum=1, stage=_STAGE)
    if isinstance(hits, (str, bytes)) or not isinstance(hits, Sequence):
        raise InvalidInputError(f"hits must be a sequence of Snippet, got {type(hits).__name__}", stage=_STAGE)
    seen: set[str] = set()
    out: list[Snippet] = []
    for position, hit in enumerate(hits):
        if not isinstance(hit, Snippet):
            raise InvalidInputError(f"hits[{position}] must be a Snippet, got {type(hit).__name__}", stage=_STAGE)
        if hit.id not in seen:
            seen.add(hit.id)
            out.append(hit)
    return out


def _unit_scores(hits: Sequence[Snippet], *, flat: float) -> list[float]:
    """Min-max normalise the hits' own scores to [0, 1]; ``flat`` when they are all equal."""
    if not hits:
        return []
    low = min(h.score for h in hits)
    high = max(h.score for h in hits)
    if high == low:
        return [flat] * len(hits)
    return [(h.score - low) / (high - low) for h in hits]


def _terms(analyzer: Analyzer, hit: Snippet) -> list[str]:
    return analyzer.analyze(hit.title) + analyzer.analyze(hit.text) if hit.title else analyzer.analyze(hit.text)


def _ranked(hits: Sequence[Snippet], scores: Sequence[float], top_k: int) -> tuple[Snippet, ...]:
    order = sorted(range(len(hits)), key=lambda i: (-scores[i], hits[i].id))[:top_k]
    return tuple(dataclasses.replace(hits[i], score=scores[i]) for i in order)


class LexicalReranker:
    """A cross-scorer over analysed text: query-term coverage, exact phrase, term proximity and
    saturated term frequency, mixed with the retriever's own (first-stage) score.

    All features lie in [0, 1]; the score is their weighted sum. Over the query's analysed
    terms ``q`` (stop words removed, stemmed) and a passage's terms:

    * coverage: the share of distinct query terms the passage holds;
    * phrase: the longest run of consecutive query terms found contiguously, over ``len(q)``
      (1.0 is the exact phrase);
    * proximity: distinct query terms present over the length of the shortest window holding
      them all (1.0 when adjacent; 0 with fewer than two present);
    * frequency: mean of ``tf / (tf + 1.2 * length_norm)`` over the query terms;
    * prior: the retriever's score, min-max normalised within the hits.

    For a one-term query phrase and proximity equal coverage (there is no order to measure).

    The first stage's share of the score is ``prior_weight / (prior_weight + 2.5)`` with the
    other weights at their defaults (which sum to 2.5). The default, 25 (a share of 0.91), was
    chosen on the SciFact train queries (docs/benchmarks.md): the lexical features alone rank
    far below BM25 there (nDCG@10 0.54 against 0.70), so they serve best to reorder hits whose
    first-stage scores are close (within a tenth of the hits' score range) rather than to
    replace that order; the old default, 0.25, reranked by the features almost alone and
    lowered nDCG@10 by about 0.08.

    Args:
        analyzer: The analyzer (default: English stop words and Snowball stemming).
        coverage_weight: Weight of coverage.
        phrase_weight: Weight of the phrase feature.
        proximity_weight: Weight of proximity.
        frequency_weight: Weight of term frequency.
        prior_weight: Weight of the retriever's own (first-stage) score.
        name: Label for traces.

    Raises:
        InvalidInputError: A negative or non-finite weight.
    """

    def __init__(
        self,
        analyzer: Analyzer | None = None,
        *,
        coverage_weight: float = 1.0,
        phrase_weight: float = 0.5,
        proximity_weight: float = 0.5,
        frequency_weight: float = 0.5,
        prior_weight: float = 25.0,
        name: str = "lexical",
    ) -> None:
        weights = {
            "coverage_weight": coverage_weight,
            "phrase_weight": phrase_weight,
            "proximity_weight": proximity_weight,
            "frequency_weight": frequency_weight,
            "prior_weight": prior_weight,
        }
        self.analyzer = analyzer or Analyzer()
        self.weights = tuple(require_number(value, label, minimum=0, stage=_STAGE) for label, value in weights.items())
        self.name = require_text(name, "name", stage=_STAGE)

    def rerank(self, query: str, hits: Sequence[Snippet], top_k: int) -> tuple[Snippet, ...]:
        """Score every hit against ``query`` and return the best ``top_k``.

        Args:
            query: The original query (not a rewritten view).
            hits: One branch's hits.
            top_k: At most this many are returned.

        Returns:
            Hits best first with the reranker's score, ties by snippet id.

        Raises:
            InvalidInputError: ``query`` not a string, ``top_k`` below 1, or a hit that is not
                a :class:`Snippet`.
        """
        unique = _checked_hits(query, hits, top_k)
        if not unique:
            return ()
        q_terms = self.analyzer.analyze(query)
        docs = [_terms(self.analyzer, hit) for hit in unique]
        mean_length = sum(len(d) for d in docs) / len(docs) or 1.0
        priors = _unit_scores(unique, flat=0.0)
        w_cov, w_phrase, w_prox, w_freq, w_prior = self.weights
        scores = []
        for terms, prior in zip(docs, priors):
            cov, phrase, prox, freq = self.features(q_terms, terms, mean_length)
            scores.append(w_cov * cov + w_phrase * phrase + w_prox * prox + w_freq * freq + w_prior * prior)
        return _ranked(unique, scores, top_k)

    @staticmethod
    def features(q_terms: Sequence[str], terms: Sequence[str], mean_length: float = 0.0) -> tuple[float, float, float, float]:
        """Return (coverage, phrase, proximity, frequency) of a passage for a query.

        Args:
            q_terms: The query's analysed terms, in order.
            terms: The passage's analysed terms, in order.
            mean_length: Mean passage length in terms, for the frequency's length norm
                (0: no length normalisation).

        Returns:
            Four features in [0, 1].
        """
        distinct = list(dict.fromkeys(q_terms))
        if not distinct or not terms:
            return (0.0, 0.0, 0.0, 0.0)
        counts = Counter(terms)
        present = [t for t in distinct if counts[t]]
        coverage = len(present) / len(distinct)
        norm = 0.25 + 0.75 * len(terms) / mean_length if mean_length > 0 else 1.0
        frequency = sum(counts[t] / (counts[t] + 1.2 * norm) for t in distinct) / len(distinct)
        if len(distinct) == 1:
            return (coverage, coverage, coverage, frequency)
        return (coverage, _longest_phrase(q_terms, terms) / len(q_terms), _proximity(present, terms), frequency)


def _longest_phrase(q_terms: Sequence[str], terms: Sequence[str]) -> int:
    """Length of the longest run of consecutive query terms appearing contiguously in ``terms``."""
    positions: dict[str, list[int]] = {}
    for pos, term in enumerate(terms):
        positions.setdefault(term, []).append(pos)
    best = 0
    for start in range(len(q_terms)):
        for pos in positions.get(q_terms[start], ()):
            run = 1
            while start + run < len(q_terms) and pos + run < len(terms) and terms[pos + run] == q_terms[start + run]:
                run += 1
            best = max(best, run)
    return best


def _proximity(present: Sequence[str], terms: Sequence[str]) -> float:
    """Distinct query terms present over the shortest window of ``terms`` holding them all."""
    if len(present) < 2:
        return 0.0
    wanted = set(present)
    need = len(wanted)
    window: Counter[str] = Counter()
    covered = 0
    left = 0
    shortest = len(terms) + 1
    for right, term in enumerate(terms):
        if term not in wanted:
            continue
        window[term] += 1
        if window[term] == 1:
            covered += 1
        while covered == need:
            if terms[left] in wanted:
                shortest = min(shortest, right - left + 1)
                window[terms[left]] -= 1
                if window[terms[left]] == 0:
                    covered -= 1
            left += 1
    return need / shortest


class MMRReranker:
    """Maximal marginal relevance: trade relevance for diversity, greedily.

    Each step picks the hit maximising ``lambda * relevance - (1 - lambda) * max_sim``, where
    relevance is the retriever's score min-max normalised within the hits (1.0 when all are
    equal) and ``max_sim`` the highest cosine similarity (term frequencies over analysed text)
    to the hits already picked. The returned score is that value at the step the hit was
    picked; it never increases from one step to the next, so the output is best first.

    Args:
        lambda_: Relevance share in [0, 1] (1.0 keeps the retriever's order).
        analyzer: The analyzer for the similarity (default: English, Snowball).
        name: Label for traces.

    Raises:
        InvalidInputError: ``lambda_`` outside [0, 1].
    """

    def __init__(self, lambda_: float = 0.7, *, analyzer: Analyzer | None = None, name: str = "mmr") -> None:
        self.lambda_ = require_number(lambda_, "lambda_", minimum=0, maximum=1, stage=_STAGE)
        self.analyzer = analyzer or Analyzer()
        self.name = require_text(name, "name", stage=_STAGE)

    def rerank(self, query: str, hits: Sequence[Snippet], top_k: int) -> tuple[Snippet, ...]:
        """Pick ``top_k`` relevant but mutually different hits.

        Args:
            query: The original query (validated; relevance comes from the hits' scores).
            hits: One branch's hits.
            top_k: At most this many are returned.

        Returns:
            Hits in pick order with their MMR value as score, ties by snippet id.

        Raises:
            InvalidInputError: ``query`` not a string, ``top_k`` below 1, or a hit that is not
                a :class:`Snippet`.
        """
        unique = _checked_hits(query, hits, top_k)
        relevance = _unit_scores(unique, flat=1.0)
        vectors = [Counter(_terms(self.analyzer, hit)) for hit in unique]
        norms = [math.sqrt(sum(v * v for v in vec.values())) for vec in vectors]
        remaining = set(range(len(unique)))
        max_sim = [0.0] * len(unique)
        picked: list[int] = []
        values: list[float] = []
        lam = self.lambda_
        while remaining and len(picked) < top_k:
            best = min(remaining, key=lambda i: (-(lam * relevance[i] - (1.0 - lam) * max_sim[i]), unique[i].id))
            picked.append(best)
            values.append(lam * relevance[best] - (1.0 - lam) * max_sim[best])
            remaining.discard(best)
            for i in remaining:
                max_sim[i] = max(max_sim[i], _cosine(vectors[i], norms[i], vectors[best], norms[best]))
        return tuple(dataclasses.replace(unique[i], score=value) for i, value in zip(picked, values))


def _cosine(a: Counter[str], norm_a: float, b: Counter[str], norm_b: float) -> float:
    if norm_a == 0.0 or norm_b == 0.0:
        return 0.0
    if len(a) > len(b):
        a, b = b, a
    return sum(count * b[term] for term, count in a.items() if term in b) / (norm_a * norm_b)
