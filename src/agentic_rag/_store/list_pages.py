"""Pages that only list other pages rank below content pages, unless the query asks for one.

An alphabetical index, a table of contents or a site map holds the terms of many pages, so a
lexical search finds it for almost any question, although it answers none. The loaders flag
such pages by their shape at index time (``page_kind`` ``"list"`` in a chunk's metadata:
:func:`agentic_rag._ingest.list_pages.is_list_page`); here, where a store's hits are made, a
flagged hit is moved below every content hit of the same search, its score lowered to just
under the lowest content score so any later sort by score keeps the order. A query that asks
for the list itself ("table of contents", "alphabetical index", "site map") ranks as it is.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from agentic_rag._ingest.chunk_metadata import LIST_PAGE
from agentic_rag._regex import lazy_regex
from agentic_rag._retrieval.hits import SearchHit
from agentic_rag._store.rows import record_facts
from agentic_rag._store.stored_bm25 import StoredBM25Index

__all__ = ["asks_for_list", "demote_list_pages", "search_ranked"]

# "index" alone is no request for the index page (a question about database indexes uses it):
# the phrases name the page.
_ASKS = lazy_regex(r"(?i)\b(table of contents|contents page|alphabetical index|general index|index page|book index|"
                   r"site ?map|toc|list of (?:all )?(?:pages|sections|chapters|topics|entries)|(?:the |an? )?index of)\b")
_BARE = lazy_regex(r"(?i)^\W*(?:the\s+)?(?:index|contents|sitemap)\W*$")
# Extra hits searched for, so the hits a demotion pushes out of the first k are replaced.
_SLACK = 10


def asks_for_list(query: str) -> bool:
    """Whether ``query`` asks for an index, a table of contents or a site map itself."""
    return bool(_ASKS.search(query) or _BARE.match(query))


def demote_list_pages(hits: Sequence[SearchHit], query: str, is_list: Callable[[SearchHit], bool]) -> list[SearchHit]:
    """``hits`` with those on list pages moved below every other one.

    Args:
        hits: Best first.
        query: The query they were found for (a query asking for a list demotes nothing).
        is_list: Whether a hit is on a list page.

    Returns:
        Content hits in their order, then list-page hits in theirs, each of the latter scored
        just under the lowest content score (unchanged when it already is lower).
    """
    if not hits or asks_for_list(query):
        return list(hits)
    flagged = [is_list(hit) for hit in hits]
    if not any(flagged):
        return list(hits)
    content = [hit for hit, flag in zip(hits, flagged) if not flag]
    listed = [hit for hit, flag in zip(hits, flagged) if flag]
    if content:
        ceiling = math.nextafter(min(hit.score for hit in content), -math.inf)
        listed = [hit if hit.score <= ceiling else SearchHit(hit.document_id, ceiling, hit.corpus_id) for hit in listed]
        # Best first again; lowered hits share a score and keep their order (a stable sort).
        listed = sorted(listed, key=lambda hit: -hit.score)
    return content + listed


def search_ranked(index: Any, query: str, k: int, **options: Any) -> list[SearchHit]:
    """``index.search(query, k, **options)`` with list pages demoted (see the module).

    Args:
        index: A loaded index with ``search`` and ``get`` (BM25 or vector).
        query: The query text.
        k: At most this many hits.
        **options: Passed to ``index.search`` (``corpus_ids``, ``where``).

    Returns:
        At most ``k`` hits, best first.
    """
    if asks_for_list(query):
        return list(index.search(query, k, **options))
    hits = index.search(query, k + _SLACK, **options)

    def is_list(hit: SearchHit) -> bool:
        if isinstance(index, StoredBM25Index):  # the flag read off the raw row: no Document to make
            return record_facts(index.row(hit.document_id))[1]
        document = index.get(hit.document_id)
        return document is not None and document.metadata.get("page_kind") == LIST_PAGE

    return demote_list_pages(hits, query, is_list)[:k]
