"""Rank fusion: reciprocal rank fusion, relative-score fusion and distribution-based score fusion.

Our reciprocal rank fusion is the one of Cormack, Clarke and Buettcher (SIGIR 2009)::

    score(d) = sum over rankings r that hold d of  w_r / (k + rank_r(d))

with ranks counted **from 1**, ``k = 60`` by default and ``w_r = 1`` unless weights are given.
Peers differ and their numbers are not comparable with ours: LangChain's EnsembleRetriever
uses the same formula but weights default to ``1/n``; LlamaIndex uses ``1/(rank0 + 60)``, that
is ``k = 59`` on 1-based ranks, and ignores weights; Haystack uses ``61 + rank0`` and rescales
the top score to 1; Elasticsearch's ``rrf`` retriever matches ours (``rank_constant`` 60, ranks
from 1) with ``rank_window_size``; Qdrant's default ``k`` is 2 on 0-based ranks.

Rules every fusion here follows:

* A ranking is a sequence of document ids or of hits with ``.document_id`` (and
  ``.corpus_id``, ``.score`` when present; a bare id or a hit without a corpus is in the
  ``"default"`` corpus). Duplicates inside one ranking count once, at their
  best (first) rank, and ranks are the positions among distinct documents. The dedup key is
  configurable and defaults to ``(corpus id, document id)``, never the text.
* ``rank_window=N`` keeps the first N distinct documents of each ranking.
* Ties break by a total order: fused score, then best rank in any ranking, then the order of
  the ranking that gave that rank, then document id (then corpus id). Output never depends on
  dict or set iteration order, so it is identical across runs and thread timings.
* ``normalized_score`` divides the fused score by the best score possible (a document ranked
  first everywhere), so it lies in [0, 1] and can be thresholded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from agentic_rag._errors import InvalidInputError
from agentic_rag._parallel.evidence import FusedDocument
from agentic_rag._parallel.fusion_engine import DedupKey, FusionMethod, RankedList, default_dedup_key, fuse_ranked_lists

__all__ = [
    "FusionMethod",
    "RankedList",
    "default_dedup_key",
    "distribution_based_score_fusion",
    "fuse",
    "fuse_ranked_lists",
    "reciprocal_rank_fusion",
    "relative_score_fusion",
]

_STAGE = "fusion"


def reciprocal_rank_fusion(
    rankings: Sequence[Sequence[Any]] | Mapping[str, Sequence[Any]],
    *,
    k: int = 60,
    weights: Sequence[float] | Mapping[str, float] | None = None,
    rank_window: int | None = None,
    key: DedupKey | None = None,
    limit: int | None = None,
) -> tuple[FusedDocument, ...]:
    """Fuse rankings by reciprocal rank: ``score(d) = sum_r w_r / (k + rank_r(d))``, ranks from 1.

    Args:
        rankings: Rankings best first, each a sequence of document ids or of hits with
            ``.document_id``; a mapping names them (otherwise ``ranking1``, ``ranking2``...).
        k: The rank constant (>= 0); 60 as in the paper.
        weights: One weight per ranking (a sequence in ranking order, or a mapping by name;
            names left out weigh 1.0).
        rank_window: Only the first N distinct documents of each ranking count.
        key: Dedup key of a hit (default ``(corpus id, document id)``).
        limit: Return only the best N fused documents (``None``: all); the others are ranked
            but never built, which is what makes a small ``limit`` cheap.

    Returns:
        Fused documents best first, each with ``score``, ``normalized_score`` (score over
        ``sum_r w_r / (k + 1)``) and ``contributions``.

    Raises:
        InvalidInputError: Bad rankings, weights, ``k`` or ``rank_window``.
    """
    return fuse_ranked_lists(_ranked_lists(rankings, weights), method=FusionMethod.RRF, k=k, rank_window=rank_window, key=key, limit=limit)


def relative_score_fusion(
    rankings: Sequence[Sequence[Any]] | Mapping[str, Sequence[Any]],
    *,
    weights: Sequence[float] | Mapping[str, float] | None = None,
    rank_window: int | None = None,
    key: DedupKey | None = None,
    limit: int | None = None,
) -> tuple[FusedDocument, ...]:
    """Fuse by weighted sum of min-max normalised scores: ``sum_r w_r (s - min_r)/(max_r - min_r)``.

    A ranking whose scores are all equal gives each of its documents 1.0 (each is its best).

    Args:
        rankings: Rankings of hits with a numeric ``.score``, best first (sequence or mapping).
        weights: One weight per ranking (sequence or mapping by name).
        rank_window: Only the first N distinct documents of each ranking count (and only they
            set the min and max).
        key: Dedup key of a hit.
        limit: Return only the best N fused documents (``None``: all).

    Returns:
        Fused documents best first; ``normalized_score`` is the score over ``sum_r w_r``.

    Raises:
        InvalidInputError: Bad rankings or weights, or a hit without a numeric score.
    """
    return fuse_ranked_lists(_ranked_lists(rankings, weights), method=FusionMethod.RELATIVE_SCORE, rank_window=rank_window, key=key, limit=limit)


def distribution_based_score_fusion(
    rankings: Sequence[Sequence[Any]] | Mapping[str, Sequence[Any]],
    *,
    weights: Sequence[float] | Mapping[str, float] | None = None,
    rank_window: int | None = None,
    key: DedupKey | None = None,
    limit: int | None = None,
) -> tuple[FusedDocument, ...]:
    """Fuse by weighted sum of scores normalised with mean +- 3 standard deviations.

    Each ranking's scores map ``[mu - 3 sigma, mu + 3 sigma]`` onto [0, 1] (population sigma,
    clipped). A ranking with zero spread gives each document 0.5, the value its mean maps to,
    rather than zeroing every score.

    Args:
        rankings: Rankings of hits with a numeric ``.score``, best first (sequence or mapping).
        weights: One weight per ranking (sequence or mapping by name).
        rank_window: Only the first N distinct documents of each ranking count.
        key: Dedup key of a hit.
        limit: Return only the best N fused documents (``None``: all).

    Returns:
        Fused documents best first; ``normalized_score`` is the score over ``sum_r w_r``.

    Raises:
        InvalidInputError: Bad rankings or weights, or a hit without a numeric score.
    """
    return fuse_ranked_lists(_ranked_lists(rankings, weights), method=FusionMethod.DBSF, rank_window=rank_window, key=key, limit=limit)


def fuse(
    rankings: Sequence[Sequence[Any]] | Mapping[str, Sequence[Any]],
    *,
    method: FusionMethod | str = FusionMethod.RRF,
    k: int = 60,
    weights: Sequence[float] | Mapping[str, float] | None = None,
    rank_window: int | None = None,
    key: DedupKey | None = None,
    limit: int | None = None,
) -> tuple[FusedDocument, ...]:
    """Fuse rankings with the named method (see the method-specific functions).

    Raises:
        InvalidInputError: An unknown method, or bad rankings, weights or parameters.
    """
    return fuse_ranked_lists(_ranked_lists(rankings, weights), method=method, k=k, rank_window=rank_window, key=key, limit=limit)


def _ranked_lists(
    rankings: Sequence[Sequence[Any]] | Mapping[str, Sequence[Any]],
    weights: Sequence[float] | Mapping[str, float] | None,
) -> list[RankedList]:
    """Turn the public ``rankings``/``weights`` arguments into named, weighted lists."""
    if isinstance(rankings, Mapping):
        pairs = [(str(name), items) for name, items in rankings.items()]
    elif isinstance(rankings, (str, bytes)) or not isinstance(rankings, Sequence):
        raise InvalidInputError(f"rankings must be a sequence of rankings or a mapping of name to ranking, got {type(rankings).__name__}", stage=_STAGE)
    else:
        pairs = [(f"ranking{i}", items) for i, items in enumerate(rankings, 1)]
    names = [name for name, _ in pairs]
    if weights is None:
        resolved = [1.0] * len(pairs)
    elif isinstance(weights, Mapping):
        unknown = sorted(str(n) for n in weights if n not in names)
        if unknown:
            raise InvalidInputError(f"weights name unknown rankings {unknown}; rankings are {names}", stage=_STAGE)
        resolved = [weights.get(name, 1.0) for name in names]
    elif isinstance(weights, (str, bytes)) or not isinstance(weights, Sequence):
        raise InvalidInputError(f"weights must be a sequence or a mapping of numbers, got {type(weights).__name__}", stage=_STAGE)
    elif len(weights) != len(pairs):
        raise InvalidInputError(f"got {len(weights)} weights for {len(pairs)} rankings; give one per ranking", stage=_STAGE)
    else:
        resolved = list(weights)
    return [RankedList(name, items, weight) for (name, items), weight in zip(pairs, resolved)]
