"""The fusion engine: named, weighted rankings in, fused documents out, by one total order.

:func:`fuse_ranked_lists` is the primitive behind every function of
:mod:`agentic_rag._parallel.fusion` (which documents the formulas and the rules). It validates
once at entry, collapses duplicates inside each ranking, accumulates per-document scores and
contributions, sorts by the total order (score, best rank, branch order, document id, corpus
id) and builds only the fused documents asked for.
"""

from __future__ import annotations

import dataclasses
import enum
import heapq
import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from agentic_rag._contracts import Snippet
from agentic_rag._contracts.validation import require_enum, require_int, require_number, require_text
from agentic_rag._errors import InvalidInputError
from agentic_rag._parallel.evidence import Contribution, FusedDocument

__all__ = ["DEFAULT_CORPUS", "DedupKey", "FusionMethod", "RankedList", "default_dedup_key", "fuse_ranked_lists"]

_STAGE = "fusion"
DEFAULT_CORPUS = "default"

DedupKey = Callable[[Any], Hashable]


class FusionMethod(str, enum.Enum):
    """How branch rankings are combined."""

    RRF = "rrf"
    RELATIVE_SCORE = "relative_score"
    DBSF = "dbsf"


def default_dedup_key(item: Any) -> tuple[str, str]:
    """The default dedup key: ``(corpus id, document id)``. A bare id string, or a hit without
    a corpus, belongs to the ``"default"`` corpus (as a ``Document`` does unless told
    otherwise), so ``"d1"`` and a hit for ``d1`` fuse as one document."""
    if isinstance(item, str):
        return (DEFAULT_CORPUS, item)
    return (getattr(item, "corpus_id", "") or DEFAULT_CORPUS, item.document_id)


@dataclass(frozen=True, slots=True)
class RankedList:
    """One ranking to fuse, with its name, weight and where it came from.

    Not a JSON contract: ``items`` holds whatever hits the caller ranks (ids, ``SearchHit``,
    ``Snippet``...).

    Args:
        name: The ranking's name (used in contributions and explanations).
        items: Document ids or hits, best first.
        weight: The ranking's weight (>= 0).
        retriever: The retriever behind it, for the workflow's explanations.
        query: The query view it searched, for the workflow's explanations.

    Raises:
        InvalidInputError: An empty name, ``items`` given as a bare string, or a negative or
            non-finite weight.
    """

    name: str
    items: tuple[Any, ...]
    weight: float = 1.0
    retriever: str = ""
    query: str = ""

    def __post_init__(self) -> None:
        require_text(self.name, "RankedList.name", stage=_STAGE)
        if isinstance(self.items, (str, bytes)) or not isinstance(self.items, Sequence):
            raise InvalidInputError(f"ranking {self.name!r} must be a sequence of ids or hits, got {type(self.items).__name__}", stage=_STAGE)
        object.__setattr__(self, "items", tuple(self.items))
        object.__setattr__(self, "weight", require_number(self.weight, f"weight of ranking {self.name!r}", minimum=0, stage=_STAGE))


def fuse_ranked_lists(
    lists: Sequence[RankedList],
    *,
    method: FusionMethod | str = FusionMethod.RRF,
    k: int = 60,
    rank_window: int | None = None,
    key: DedupKey | None = None,
    limit: int | None = None,
) -> tuple[FusedDocument, ...]:
    """Fuse named, weighted rankings; the primitive the other fusion functions call.

    Args:
        lists: The rankings, in branch order (the order breaks ties).
        method: ``rrf``, ``relative_score`` or ``dbsf``.
        k: The RRF rank constant (>= 0; ignored by score fusions).
        rank_window: Only the first N distinct documents of each ranking count.
        key: Dedup key of a hit (default ``(corpus id, document id)``).
        limit: Return only the best N fused documents (``None``: all).

    Returns:
        Fused documents best first, ranks from 1.

    Raises:
        InvalidInputError: A bad method, ``k``, ``rank_window``, ``limit``, duplicate ranking names, or a
            hit that is neither a non-empty id nor has ``.document_id`` (and ``.score`` for
            score fusions).
    """
    method = require_enum(FusionMethod, method, "fusion method", stage=_STAGE)
    require_int(k, "k", minimum=0, stage=_STAGE)
    if rank_window is not None:
        require_int(rank_window, "rank_window", minimum=1, stage=_STAGE)
    if limit is not None:
        require_int(limit, "limit", minimum=1, stage=_STAGE)
    if key is not None and not callable(key):
        raise InvalidInputError(f"key must be a callable hit -> hashable, got {key!r}", stage=_STAGE)
    lists = tuple(lists)
    names = [rl.name for rl in lists if isinstance(rl, RankedList)]
    if len(names) != len(lists):
        raise InvalidInputError("fuse_ranked_lists takes RankedList objects", stage=_STAGE)
    if len(set(names)) != len(names):
        raise InvalidInputError(f"ranking names must be unique, got {names}", stage=_STAGE)
    acc: dict[Hashable, list[Any]] = {}
    for index, ranked in enumerate(lists):
        _scan(acc, index, ranked, method, k, rank_window, key)
    return _ranked_documents(acc, lists, _best_possible(method, k, lists), custom_key=key is not None, limit=limit)


def _scan(
    acc: dict[Hashable, list[Any]],
    index: int,
    ranked: RankedList,
    method: FusionMethod,
    k: int,
    window: int | None,
    key: DedupKey | None,
) -> None:
    """Add one ranking's distinct documents (first occurrence wins, cut to the window) to ``acc``.

    An entry is a flat list, built for speed: ``[score, best rank, branch of the best rank,
    item at the best rank, document id, corpus id]`` followed by four values per contribution
    ``(branch index, rank, value, raw score)``. RRF adds each value as it scans; score fusions
    need the ranking's score statistics first, so they add values after the scan.
    """
    seen: set[Hashable] = set()
    add = seen.add
    get = acc.get
    weight = ranked.weight
    rule = _RULES[method]
    by_rank = rule.by_rank
    pending: list[tuple[list[Any], int, float]] | None = None if by_rank is not None else []
    rank = 0
    for position, item in enumerate(ranked.items):
        if isinstance(item, str):
            if not item:
                raise InvalidInputError(f"ranking {ranked.name!r} item {position} is an empty id", stage=_STAGE)
            doc_id, corpus, score = item, DEFAULT_CORPUS, None
        else:
            doc_id = getattr(item, "document_id", None)
            if not doc_id or not isinstance(doc_id, str):
                raise InvalidInputError(f"ranking {ranked.name!r} item {position} must be an id string or have a non-empty .document_id, got {item!r:.80}", stage=_STAGE)
            corpus = getattr(item, "corpus_id", None) or DEFAULT_CORPUS
            score = _finite_or_none(getattr(item, "score", None))
        dedup = (corpus, doc_id) if key is None else key(item)
        if dedup in seen:
            continue
        add(dedup)
        rank += 1
        entry = get(dedup)
        if entry is None:
            acc[dedup] = entry = [0.0, rank, index, item, doc_id, corpus]
        elif rank < entry[1]:
            entry[1], entry[2], entry[3], entry[4], entry[5] = rank, index, item, doc_id, corpus
        if by_rank is not None:
            value = by_rank(weight, k, rank)
            entry[0] += value
            entry += (index, rank, value, score)
        elif score is None:
            raise InvalidInputError(f"score fusion needs a finite numeric .score; ranking {ranked.name!r} item {position} has none: {item!r:.80}", stage=_STAGE)
        else:
            pending.append((entry, rank, score))
        if window is not None and rank >= window:
            break
    if pending:
        for (entry, rank, score), unit in zip(pending, rule.normalise([p[2] for p in pending])):  # type: ignore[misc]
            value = weight * unit
            entry[0] += value
            entry += (index, rank, value, score)


def _finite_or_none(score: object) -> float | None:
    """``score`` as a float when it is a finite real number (not a bool), else ``None``."""
    kind = score.__class__
    if kind is float:
        # ``x - x`` is 0.0 only for finite floats (NaN and infinities give NaN).
        return score if score - score == 0 else None  # type: ignore[operator,return-value]
    if kind is bool or not isinstance(score, (int, float)):
        return None
    value = float(score)
    return value if value - value == 0 else None


def _rrf_value(weight: float, k: int, rank: int) -> float:
    """Reciprocal rank: ``w / (k + rank)``, ranks from 1."""
    return weight / (k + rank)


def _rrf_best(weight: float, k: int) -> float:
    """A document ranked first: ``w / (k + 1)``."""
    return weight / (k + 1)


def _score_best(weight: float, k: int) -> float:
    """A document scored best: its normalised score is 1.0."""
    return weight * 1.0


def _min_max(scores: list[float]) -> list[float]:
    """Relative-score fusion: ``(s - min) / (max - min)``; 1.0 each when all are equal."""
    n = len(scores)
    low, high = min(scores), max(scores)
    if high == low:
        return [1.0] * n
    return [(s - low) / (high - low) for s in scores]


def _three_sigma(scores: list[float]) -> list[float]:
    """Distribution-based score fusion: ``[mu - 3 sigma, mu + 3 sigma]`` onto [0, 1], clipped
    (population sigma); 0.5 each, the value the mean maps to, when there is no spread."""
    n = len(scores)
    mean = math.fsum(scores) / n
    sigma = math.sqrt(math.fsum((s - mean) ** 2 for s in scores) / n)
    if sigma == 0.0:
        return [0.5] * n
    low, span = mean - 3.0 * sigma, 6.0 * sigma
    return [min(1.0, max(0.0, (s - low) / span)) for s in scores]


@dataclass(frozen=True, slots=True)
class _Rule:
    """How one fusion method scores a ranking.

    Exactly one of ``by_rank`` and ``normalise`` is set: a rank fusion values each document
    from its rank as it scans (``by_rank(weight, k, rank)``); a score fusion needs the ranking's
    score statistics first, so it maps the ranking's raw scores to unweighted values after the
    scan (``normalise(scores)``, in ranking order). ``best(weight, k)`` is the value of a
    document ranked (or scored) best, which ``normalized_score`` divides by.
    """

    by_rank: Callable[[float, int, int], float] | None
    normalise: Callable[[list[float]], list[float]] | None
    best: Callable[[float, int], float]


# Adding a fusion method: a member of FusionMethod and its rule here (a test checks every
# member has one); the public ``fuse(method=...)`` then accepts it.
_RULES: dict[FusionMethod, _Rule] = {
    FusionMethod.RRF: _Rule(by_rank=_rrf_value, normalise=None, best=_rrf_best),
    FusionMethod.RELATIVE_SCORE: _Rule(by_rank=None, normalise=_min_max, best=_score_best),
    FusionMethod.DBSF: _Rule(by_rank=None, normalise=_three_sigma, best=_score_best),
}


def _best_possible(method: FusionMethod, k: int, lists: Sequence[RankedList]) -> float:
    """The fused score of a document ranked first (or scored best) by every ranking.

    Summed in branch order like the fused scores themselves, so a document that is first
    everywhere normalises to exactly 1.0.
    """
    best_of = _RULES[method].best
    best = 0.0
    for ranked in lists:
        best += best_of(ranked.weight, k)
    return best


def _ranked_documents(
    acc: dict[Hashable, list[Any]],
    lists: Sequence[RankedList],
    best: float,
    *,
    custom_key: bool,
    limit: int | None,
) -> tuple[FusedDocument, ...]:
    """Sort the accumulated documents by the total order and build the best ``limit`` of them."""
    entries = list(acc.values())
    if custom_key:
        keys = [(-e[0], e[1], e[2], e[4], e[5], repr(dedup), n) for n, (dedup, e) in enumerate(acc.items())]
    else:
        keys = [(-e[0], e[1], e[2], e[4], e[5], n) for n, e in enumerate(entries)]
    if limit is not None and limit < len(keys):
        keys = heapq.nsmallest(limit, keys)
    else:
        keys.sort()
    branches = [(rl.name, rl.weight, rl.retriever, rl.query) for rl in lists]
    new = _new
    s_doc, s_corpus, s_score, s_norm = _F_SET["document_id"], _F_SET["corpus_id"], _F_SET["score"], _F_SET["normalized_score"]
    s_rank, s_contrib, s_snippet = _F_SET["rank"], _F_SET["contributions"], _F_SET["snippet"]
    s_branch, s_index, s_crank, s_weight = _C_SET["branch"], _C_SET["branch_index"], _C_SET["rank"], _C_SET["weight"]
    s_value, s_raw, s_retriever, s_query = _C_SET["value"], _C_SET["raw_score"], _C_SET["retriever"], _C_SET["query"]
    out = []
    append = out.append
    position = 0
    for sort_key in keys:
        entry = entries[sort_key[-1]]
        score, item, doc_id, corpus = entry[0], entry[3], entry[4], entry[5]
        contributions = []
        for at in range(6, len(entry), 4):
            index, rank, value, raw = entry[at], entry[at + 1], entry[at + 2], entry[at + 3]
            name, weight, retriever, query = branches[index]
            c = new(Contribution)
            s_branch(c, name)
            s_index(c, index)
            s_crank(c, rank)
            s_weight(c, weight)
            s_value(c, value)
            s_raw(c, raw)
            s_retriever(c, retriever)
            s_query(c, query)
            contributions.append(c)
        position += 1
        normalized = score / best if best > 0 else 0.0
        if normalized > 1.0:  # float rounding of a document ranked first everywhere
            normalized = 1.0
        d = new(FusedDocument)
        s_doc(d, doc_id)
        s_corpus(d, corpus)
        s_score(d, score)
        s_norm(d, normalized if normalized > 0.0 else 0.0)
        s_rank(d, position)
        s_contrib(d, tuple(contributions))
        s_snippet(d, item if type(item) is Snippet else None)
        append(d)
    return tuple(out)


# Trusted construction. Every value reaching it was checked on the way in (ids, scores,
# weights), and building thousands of contributions through ``__post_init__`` would triple the
# cost of fusion, so fusion sets the slots directly through these descriptors, by field name
# (a field added without a value here stays unset, which a test catches).
_new = object.__new__
_C_SET = {f.name: Contribution.__dict__[f.name].__set__ for f in dataclasses.fields(Contribution)}
_F_SET = {f.name: FusedDocument.__dict__[f.name].__set__ for f in dataclasses.fields(FusedDocument)}
