"""Ranking-quality metrics: nDCG@k, Recall@k, P@k, MRR and MAP, per query and over a run.

Conventions follow trec_eval and BEIR, so figures compare with published ones:

* A ranking is a sequence of document ids, best first. A repeated id counts once, at its first
  position: later copies are dropped *before* the cutoff, so ``k`` counts distinct ids.
* ``qrels`` maps a document id to a graded relevance. A grade of 0 or below, or an id that is
  absent, is not relevant.
* nDCG uses linear gain, ``rel / log2(rank + 1)`` with ranks from 1; the ideal ranking is the
  qrels' positive grades sorted in descending order.
* P@k divides by ``k`` even when the ranking is shorter than ``k`` (trec_eval's ``P_k``).
* Every metric is 0.0 for a query without relevant documents.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from agentic_rag._contracts.validation import is_int, require_int
from agentic_rag._errors import InvalidInputError

__all__ = [
    "RunEvaluation",
    "SUPPORTED_METRICS",
    "average_precision",
    "evaluate_run",
    "ndcg_at_k",
    "precision_at_k",
    "recall_at_k",
    "reciprocal_rank",
]

_STAGE = "evaluation"


def _fail(message: str) -> InvalidInputError:
    return InvalidInputError(message, stage=_STAGE)


# --- validation at the public boundary ------------------------------------------------------


def _check_k(k: object, *, optional: bool = False) -> None:
    require_int(k, "k", minimum=1, optional=optional, stage=_STAGE)


def _unique_ranking(ranked_ids: object) -> tuple[str, ...]:
    """Validate a ranking and drop repeated ids, keeping each at its first position."""
    if isinstance(ranked_ids, (str, bytes)) or not isinstance(ranked_ids, Sequence):
        raise _fail(
            "ranked_ids must be a list or tuple of str document ids, "
            f"got {type(ranked_ids).__name__}: {ranked_ids!r:.80}"
        )
    seen: set[str] = set()
    unique: list[str] = []
    for doc_id in ranked_ids:
        if not isinstance(doc_id, str):
            raise _fail(f"ranked_ids must hold str document ids, got {doc_id!r}")
        if doc_id not in seen:
            seen.add(doc_id)
            unique.append(doc_id)
    return tuple(unique)


def _check_qrels(qrels: object, *, query_id: str | None = None) -> None:
    where = "" if query_id is None else f" for query {query_id!r}"
    if not isinstance(qrels, Mapping):
        raise _fail(f"qrels{where} must map document id -> int grade, got {type(qrels).__name__}")
    for doc_id, grade in qrels.items():
        if not isinstance(doc_id, str) or not is_int(grade):
            raise _fail(f"qrels{where} must map str ids to int grades, got {doc_id!r}: {grade!r}")


# --- metric kernels (inputs already validated, ranking already de-duplicated) ---------------


def _ndcg(ranking: tuple[str, ...], qrels: Mapping[str, int], k: int | None) -> float:
    ideal = sorted((grade for grade in qrels.values() if grade > 0), reverse=True)[:k]
    idcg = sum(grade / math.log2(rank + 1) for rank, grade in enumerate(ideal, start=1))
    if idcg == 0.0:
        return 0.0
    dcg = sum(
        max(qrels.get(doc_id, 0), 0) / math.log2(rank + 1)
        for rank, doc_id in enumerate(ranking[:k], start=1)
    )
    return dcg / idcg


def _recall(ranking: tuple[str, ...], qrels: Mapping[str, int], k: int | None) -> float:
    relevant = sum(1 for grade in qrels.values() if grade > 0)
    if relevant == 0:
        return 0.0
    return sum(1 for doc_id in ranking[:k] if qrels.get(doc_id, 0) > 0) / relevant


def _precision(ranking: tuple[str, ...], qrels: Mapping[str, int], k: int | None) -> float:
    assert k is not None
    return sum(1 for doc_id in ranking[:k] if qrels.get(doc_id, 0) > 0) / k


def _reciprocal_rank(ranking: tuple[str, ...], qrels: Mapping[str, int], k: int | None) -> float:
    for rank, doc_id in enumerate(ranking[:k], start=1):
        if qrels.get(doc_id, 0) > 0:
            return 1.0 / rank
    return 0.0


def _average_precision(ranking: tuple[str, ...], qrels: Mapping[str, int], k: int | None) -> float:
    relevant = sum(1 for grade in qrels.values() if grade > 0)
    if relevant == 0:
        return 0.0
    hits = 0
    total = 0.0
    for rank, doc_id in enumerate(ranking[:k], start=1):
        if qrels.get(doc_id, 0) > 0:
            hits += 1
            total += hits / rank
    # Dividing by every relevant doc in qrels, not only the retrieved ones, is what makes MAP
    # penalise relevant documents the ranking never returned.
    return total / relevant


# --- public per-query functions -------------------------------------------------------------


def ndcg_at_k(ranked_ids: Sequence[str], qrels: Mapping[str, int], k: int) -> float:
    """Normalised discounted cumulative gain of the top ``k`` (linear gain, trec_eval/BEIR).

    Args:
        ranked_ids: Document ids, best first; a repeated id counts once, at its first position.
        qrels: Document id -> graded relevance (0 or below, or absent, = not relevant).
        k: Cutoff, an int >= 1.

    Returns:
        ``DCG@k / IDCG@k`` in [0, 1] with ``DCG = sum(rel_i / log2(i + 1))`` over ranks ``i``
        from 1; 0.0 when qrels hold no relevant document.

    Raises:
        InvalidInputError: If ``k`` is not an int >= 1, or the ranking or qrels are malformed.
    """
    _check_k(k)
    ranking = _unique_ranking(ranked_ids)
    _check_qrels(qrels)
    return _ndcg(ranking, qrels, k)


def recall_at_k(ranked_ids: Sequence[str], qrels: Mapping[str, int], k: int) -> float:
    """Fraction of the relevant documents (grade > 0) found in the top ``k``.

    Args:
        ranked_ids: Document ids, best first; a repeated id counts once, at its first position.
        qrels: Document id -> graded relevance (0 or below, or absent, = not relevant).
        k: Cutoff, an int >= 1.

    Returns:
        Relevant documents in the top ``k`` over all relevant documents in qrels; 0.0 when
        qrels hold no relevant document.

    Raises:
        InvalidInputError: If ``k`` is not an int >= 1, or the ranking or qrels are malformed.
    """
    _check_k(k)
    ranking = _unique_ranking(ranked_ids)
    _check_qrels(qrels)
    return _recall(ranking, qrels, k)


def precision_at_k(ranked_ids: Sequence[str], qrels: Mapping[str, int], k: int) -> float:
    """Fraction of the top ``k`` positions holding a relevant document (grade > 0).

    Args:
        ranked_ids: Document ids, best first; a repeated id counts once, at its first position.
        qrels: Document id -> graded relevance (0 or below, or absent, = not relevant).
        k: Cutoff, an int >= 1.

    Returns:
        Relevant documents in the top ``k`` divided by ``k``, also when the ranking is shorter.

    Raises:
        InvalidInputError: If ``k`` is not an int >= 1, or the ranking or qrels are malformed.
    """
    _check_k(k)
    ranking = _unique_ranking(ranked_ids)
    _check_qrels(qrels)
    return _precision(ranking, qrels, k)


def reciprocal_rank(
    ranked_ids: Sequence[str], qrels: Mapping[str, int], k: int | None = None
) -> float:
    """Reciprocal rank of the first relevant document (one query's contribution to MRR).

    Args:
        ranked_ids: Document ids, best first; a repeated id counts once, at its first position.
        qrels: Document id -> graded relevance (0 or below, or absent, = not relevant).
        k: Optional cutoff, an int >= 1; a first hit below rank ``k`` then scores 0.

    Returns:
        ``1 / rank`` of the first relevant document; 0.0 when none is ranked (within ``k``).

    Raises:
        InvalidInputError: If ``k`` is neither None nor an int >= 1, or the ranking or qrels
            are malformed.
    """
    _check_k(k, optional=True)
    ranking = _unique_ranking(ranked_ids)
    _check_qrels(qrels)
    return _reciprocal_rank(ranking, qrels, k)


def average_precision(ranked_ids: Sequence[str], qrels: Mapping[str, int]) -> float:
    """Average precision over all relevant documents in qrels (one query's share of MAP).

    Args:
        ranked_ids: Document ids, best first; a repeated id counts once, at its first position.
        qrels: Document id -> graded relevance (0 or below, or absent, = not relevant).

    Returns:
        The sum of the precision at each retrieved relevant document's rank, divided by the
        number of relevant documents in qrels; 0.0 when qrels hold no relevant document.

    Raises:
        InvalidInputError: If the ranking or qrels are malformed.
    """
    ranking = _unique_ranking(ranked_ids)
    _check_qrels(qrels)
    return _average_precision(ranking, qrels, None)


# --- metric-name registry and run evaluation ------------------------------------------------


class _Cutoff(str, enum.Enum):
    REQUIRED = "required"
    OPTIONAL = "optional"
    NONE = "none"


@dataclass(frozen=True, slots=True)
class _MetricFamily:
    prefix: str
    cutoff: _Cutoff
    kernel: Callable[[tuple[str, ...], Mapping[str, int], int | None], float]

    def spellings(self) -> tuple[str, ...]:
        with_k = (f"{self.prefix}@k",) if self.cutoff is not _Cutoff.NONE else ()
        return ((self.prefix,) if self.cutoff is not _Cutoff.REQUIRED else ()) + with_k


_REGISTRY: tuple[_MetricFamily, ...] = (
    _MetricFamily("ndcg", _Cutoff.REQUIRED, _ndcg),
    _MetricFamily("recall", _Cutoff.REQUIRED, _recall),
    _MetricFamily("p", _Cutoff.REQUIRED, _precision),
    _MetricFamily("mrr", _Cutoff.OPTIONAL, _reciprocal_rank),
    _MetricFamily("map", _Cutoff.NONE, _average_precision),
)

SUPPORTED_METRICS: tuple[str, ...] = tuple(s for family in _REGISTRY for s in family.spellings())
"""Accepted metric-name patterns (``k`` an int >= 1), generated from the registry."""


@dataclass(frozen=True, slots=True)
class _ParsedMetric:
    name: str
    family: _MetricFamily
    k: int | None


def _parse_metric(name: object) -> _ParsedMetric:
    """Parse a case-insensitive name such as ``"nDCG@10"`` into its canonical form."""
    if isinstance(name, str):
        prefix, has_k, k_text = name.strip().lower().partition("@")
        for family in _REGISTRY:
            if family.prefix != prefix:
                continue
            if not has_k and family.cutoff is not _Cutoff.REQUIRED:
                return _ParsedMetric(prefix, family, None)
            if has_k and family.cutoff is not _Cutoff.NONE and k_text.isdigit() and int(k_text):
                return _ParsedMetric(f"{prefix}@{int(k_text)}", family, int(k_text))
    raise _fail(
        f"unknown metric name {name!r}; expected one of {', '.join(SUPPORTED_METRICS)} "
        "with k an int >= 1"
    )


@dataclass(frozen=True, slots=True)
class RunEvaluation:
    """Scores of one run against qrels: per-metric means and every per-query value.

    Args:
        metrics: Canonical metric names (for example ``"ndcg@10"``), in the requested order.
        means: Mean of each metric over every query in qrels, aligned with ``metrics``.
        per_query: ``(query_id, metric, value)`` triples, sorted.
        num_queries: Number of queries averaged over (every query in qrels).
        unranked_query_ids: Sorted ids of qrels queries the run had no ranking for (scored 0).

    Raises:
        InvalidInputError: If the fields are inconsistent with one another.
    """

    metrics: tuple[str, ...]
    means: tuple[float, ...]
    per_query: tuple[tuple[str, str, float], ...]
    num_queries: int
    unranked_query_ids: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        names, count = self.metrics, self.num_queries
        if not isinstance(names, tuple) or not names or len(set(names)) != len(names):
            raise _fail(f"metrics must be a non-empty tuple of distinct names, got {names!r}")
        if not isinstance(self.means, tuple) or len(self.means) != len(names):
            raise _fail(f"means must hold one value per metric ({len(names)}), got {self.means!r}")
        require_int(count, "num_queries", minimum=1, stage=_STAGE)
        if not isinstance(self.per_query, tuple) or len(self.per_query) != count * len(names):
            raise _fail(
                f"per_query must hold num_queries x metrics = {count * len(names)} triples, "
                f"got {len(self.per_query)!r}"
            )
        if list(self.per_query) != sorted(self.per_query):
            raise _fail("per_query triples must be sorted by (query_id, metric)")

    def _index(self, metric: str) -> int:
        name = _parse_metric(metric).name
        if name not in self.metrics:
            evaluated = ", ".join(self.metrics)
            raise _fail(f"metric {metric!r} was not evaluated; evaluated: {evaluated}")
        return self.metrics.index(name)

    def mean(self, metric: str) -> float:
        """The mean of one metric over every query in qrels.

        Args:
            metric: A metric name as accepted by :func:`evaluate_run` (case-insensitive).

        Returns:
            The mean value.

        Raises:
            InvalidInputError: If the name is malformed or that metric was not evaluated.
        """
        return self.means[self._index(metric)]

    def query_values(self, metric: str) -> tuple[tuple[str, float], ...]:
        """Every query's value of one metric, sorted by query id (for paired comparisons).

        Args:
            metric: A metric name as accepted by :func:`evaluate_run` (case-insensitive).

        Returns:
            ``(query_id, value)`` pairs sorted by query id.

        Raises:
            InvalidInputError: If the name is malformed or that metric was not evaluated.
        """
        name = self.metrics[self._index(metric)]
        return tuple((query_id, value) for query_id, m, value in self.per_query if m == name)


def evaluate_run(
    run: Mapping[str, Sequence[str]],
    qrels: Mapping[str, Mapping[str, int]],
    metrics: Sequence[str] = ("ndcg@10", "recall@100"),
) -> RunEvaluation:
    """Score a run (query id -> ranking) against qrels with the named metrics.

    Every query in ``qrels`` is averaged over; one missing from ``run`` scores 0 on every
    metric, and run queries absent from ``qrels`` are ignored.

    Args:
        run: Query id -> document ids, best first.
        qrels: Query id -> (document id -> graded relevance).
        metrics: Names matching :data:`SUPPORTED_METRICS` (case-insensitive), for example
            ``"ndcg@10"``, ``"recall@100"``, ``"p@5"``, ``"mrr"``, ``"mrr@10"``, ``"map"``.

    Returns:
        A :class:`RunEvaluation` with canonical names, means and sorted per-query values.

    Raises:
        InvalidInputError: If a metric name is unknown or repeated, qrels are empty, or the
            run or qrels are malformed.
    """
    if isinstance(metrics, str) or not isinstance(metrics, Sequence) or not metrics:
        raise _fail(f"metrics must be a non-empty list or tuple of names, got {metrics!r}")
    parsed = tuple(_parse_metric(name) for name in metrics)
    names = tuple(metric.name for metric in parsed)
    if len(set(names)) != len(names):
        raise _fail(f"metrics must not name a metric twice, got {list(metrics)!r}")
    if not isinstance(run, Mapping):
        raise _fail(f"run must map query id -> ranking, got {type(run).__name__}")
    if not isinstance(qrels, Mapping) or not qrels:
        raise _fail(f"qrels must be a non-empty mapping query id -> judgements, got {qrels!r:.80}")
    rankings: dict[str, tuple[str, ...]] = {}
    for query_id, ranked_ids in run.items():
        if not isinstance(query_id, str):
            raise _fail(f"run query ids must be str, got {query_id!r}")
        rankings[query_id] = _unique_ranking(ranked_ids)
    per_query: list[tuple[str, str, float]] = []
    unranked: list[str] = []
    for query_id, judged in qrels.items():
        if not isinstance(query_id, str):
            raise _fail(f"qrels query ids must be str, got {query_id!r}")
        _check_qrels(judged, query_id=query_id)
        if query_id not in rankings:
            unranked.append(query_id)
        ranking = rankings.get(query_id, ())
        for metric in parsed:
            value = metric.family.kernel(ranking, judged, metric.k)
            per_query.append((query_id, metric.name, value))
    per_query.sort()
    # fsum makes each mean exact, so it does not depend on the order queries were summed in.
    means = tuple(
        math.fsum(value for _, m, value in per_query if m == name) / len(qrels) for name in names
    )
    return RunEvaluation(
        metrics=names,
        means=means,
        per_query=tuple(per_query),
        num_queries=len(qrels),
        unranked_query_ids=tuple(sorted(unranked)),
    )
