"""Routing: which corpora a fact or a follow-up query should search, by where its best passages
stand when the collection can say so, else by corpus description."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from agentic_rag._contracts import Corpus
from agentic_rag._contracts.validation import require_int, require_number
from agentic_rag._errors import InvalidInputError
from agentic_rag._text import Analyzer

__all__ = ["CorpusRouter", "RoutingDecision"]


@dataclass(frozen=True, slots=True)
class RoutingDecision:
    """The corpora chosen for a text, best first, and why."""

    corpus_ids: tuple[str, ...]
    reason: str


class CorpusRouter:
    """Chooses the corpora a text should search.

    With ``locate`` (a collection that can search every corpus at once, as a knowledge store
    can): the corpora its best passages stand in, in the order of their best passage, up to
    ``max_corpora``. A description names a corpus's titles and commonest words, not what each
    page says: "What is the default timeout of urlopen?" shares "default" with a folder about
    installing Python and no word with the library reference that answers it.

    Otherwise, and when ``locate`` finds nothing: corpora scored by analysed-term overlap
    between the text and each corpus's id and description. A corpus is kept when its overlap
    is positive and at least ``min_relative`` of the best overlap, up to ``max_corpora``; ties
    are broken by corpus id. When no description shares a term with the text, the fallback
    corpora are used (or every corpus when none is given), because searching nowhere cannot
    find anything.

    Args:
        analyzer: The analyzer for both sides (default: English stop words, Snowball stems).
        max_corpora: At most this many corpora per route.
        min_relative: Keep corpora scoring at least this fraction of the best score.
        locate: The corpus ids of a text's best passages in the whole collection, best first
            (repeats allowed); ``None``: route by description only.

    Raises:
        InvalidInputError: ``max_corpora`` below 1 or ``min_relative`` outside (0, 1].
    """

    def __init__(self, analyzer: Analyzer | None = None, *, max_corpora: int = 2, min_relative: float = 0.5,
                 locate: Callable[[str], Sequence[str]] | None = None) -> None:
        if locate is not None and not callable(locate):
            raise InvalidInputError(f"locate must be callable, got {locate!r}", stage="router")
        self.locate = locate
        self.analyzer = analyzer or Analyzer()
        self.max_corpora = require_int(max_corpora, "max_corpora", minimum=1, stage="router")
        self.min_relative = require_number(min_relative, "min_relative", above=0, maximum=1, stage="router")

    def route(self, text: str, corpora: Sequence[Corpus], *, fallback: Sequence[str] = ()) -> RoutingDecision:
        """Choose corpora for ``text``.

        Args:
            text: A fact description or a query.
            corpora: Candidate corpora.
            fallback: Corpus ids to use when no description overlaps (``()``: all corpora).

        Returns:
            The chosen corpus ids (best first) and a reason for the trace.

        Raises:
            InvalidInputError: ``corpora`` is empty.
        """
        if not corpora:
            raise InvalidInputError("cannot route without corpora; pass at least one Corpus", stage="router")
        if self.locate is not None:
            known = {c.id for c in corpora}
            found = tuple(dict.fromkeys(c for c in self.locate(text) if c in known))[: self.max_corpora]
            if found:
                return RoutingDecision(found, f"its best passages stand in {', '.join(found)}")
        wanted = set(self.analyzer.analyze(text))
        scored = []
        for corpus in corpora:
            terms = set(self.analyzer.analyze(f"{corpus.id.replace('_', ' ').replace('-', ' ')} {corpus.description}"))
            overlap = sorted(wanted & terms)
            if overlap:
                scored.append((-len(overlap), corpus.id, overlap))
        scored.sort()
        if not scored:
            ids = tuple(fallback) if fallback else tuple(sorted(c.id for c in corpora))
            return RoutingDecision(ids, "no corpus description shares a term with the text")
        best = -scored[0][0]
        kept = [(cid, overlap) for neg, cid, overlap in scored if -neg >= best * self.min_relative][: self.max_corpora]
        reason = "; ".join(f"{cid} matches {', '.join(overlap)}" for cid, overlap in kept)
        return RoutingDecision(tuple(cid for cid, _ in kept), reason)

    def widened(self, text: str, chosen: Sequence[str], corpora: Sequence[Corpus]) -> RoutingDecision:
        """``chosen`` (corpora picked from their descriptions, as a model picks them), followed
        by the corpora ``text``'s best passages stand in when the best one's is not chosen.

        A model reads a corpus's generated description, not its pages: it sends "the default
        timeout of urlopen" to a folder whose description says "default" as readily as to the
        library reference. When the passages point elsewhere, searching there as well costs a
        few more candidates; missing the corpus that holds the answer costs the answer. When
        the best passage stands in a chosen corpus, the choice stands alone: another corpus
        sharing the words only puts unrelated passages before the model.

        Args:
            text: A fact description with its search terms, or a query.
            chosen: Corpus ids already chosen, best first (kept first, in their order).
            corpora: Candidate corpora (located corpora outside them are ignored).

        Returns:
            The chosen ids, then, when the best passage's corpus is not among them, the located
            ones (up to ``max_corpora``) not among them.
        """
        kept = tuple(dict.fromkeys(chosen))
        if self.locate is None or not corpora:
            return RoutingDecision(kept, "")
        known = {c.id for c in corpora}
        found = tuple(dict.fromkeys(c for c in self.locate(text) if c in known))[: self.max_corpora]
        added = () if not found or found[0] in kept else tuple(c for c in found if c not in kept)
        return RoutingDecision(kept + added, f"its best passages also stand in {', '.join(added)}" if added else "")
