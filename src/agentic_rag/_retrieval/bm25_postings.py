"""The BM25 index's mutable store: documents, vocabulary and raw term-frequency postings.

Documents get increasing internal numbers (``int``), so appending a new document to a term's
``array('i')`` keeps every posting list sorted, which removal (binary search) and the pruned
search's probing rely on. Removing a document deletes its postings in place and leaves a hole
in the number space; when holes outnumber live documents the store renumbers (a monotone
remap, so lists stay sorted). The store keeps raw term frequencies only: impacts depend on
``N`` and the mean length, which every write changes, so they live in the index's
per-generation :mod:`~agentic_rag._retrieval.bm25_derived` cache. The store is not
thread-safe by itself; the index locks around it.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Mapping

from agentic_rag._contracts.corpus import Document
from agentic_rag._retrieval.bm25_storage import BM25Snapshot
from agentic_rag._retrieval.hits import DocumentFilter

__all__ = ["AnalysedDocument", "PostingStore", "analyse_document"]

#: ``(document, term -> title-weighted tf, text term count, title term count)``
AnalysedDocument = tuple[Document, Mapping[str, float], int, int]


def analyse_document(analyze: Callable[[str], list[str]], title_weight: float, text: str, title: str) -> tuple[dict[str, float], int, int]:
    """A document's title-weighted term frequencies and its text and title term counts.

    Args:
        analyze: The index's analyzer function (``Analyzer.analyze``).
        title_weight: Multiplier of title term counts (0 ignores the title).
        text: The document's text.
        title: Its title.

    Returns:
        ``(term -> tf, text term count, title term count)``; with ``title_weight`` 1 the
        frequencies are ints.
    """
    text_terms = analyze(text)
    title_terms = analyze(title) if title and title_weight > 0.0 else []
    tfs: dict[str, float] = Counter(text_terms)
    if title_terms:
        if title_weight == 1.0:
            tfs.update(title_terms)  # type: ignore[attr-defined]
        else:
            for term, count in Counter(title_terms).items():
                tfs[term] = tfs.get(term, 0) + title_weight * count
    return tfs, len(text_terms), len(title_terms)


# Renumber once this many holes exist and they outnumber the live documents.
_MIN_HOLES_TO_COMPACT = 1024


class PostingStore:
    """Documents by number, and per-term sorted postings of (document number, tf).

    Args:
        title_weight: Multiplier of title term counts in document lengths.
    """

    __slots__ = (
        "corpora", "docs", "docs_of", "ids", "lengths", "numbers", "terms", "text_lengths",
        "text_total", "tfs_of", "title_lengths", "title_total", "title_weight", "vocab",
    )

    def __init__(self, title_weight: float) -> None:
        self.title_weight = title_weight
        self.ids: list[str | None] = []
        self.docs: list[Document | None] = []
        self.numbers: dict[str, int] = {}
        self.text_lengths = array("i")
        self.title_lengths = array("i")
        self.lengths = array("d")
        self.corpora: dict[str, set[int]] = {}
        self.vocab: dict[str, int] = {}
        self.terms: list[str] = []
        self.docs_of: list[array] = []
        self.tfs_of: list[array] = []
        self.text_total = 0
        self.title_total = 0

    @property
    def live(self) -> int:
        """Number of documents held."""
        return len(self.numbers)

    def average_length(self) -> float:
        """Mean title-weighted document length (0.0 when empty)."""
        if not self.numbers:
            return 0.0
        # From integer totals, so the mean is exact whatever the order of adds and removes.
        return (self.text_total + self.title_weight * self.title_total) / len(self.numbers)

    def insert(self, entries: Iterable[AnalysedDocument]) -> None:
        """Append analysed documents (ids must be new: the caller checks)."""
        vocab, terms, docs_of, tfs_of = self.vocab, self.terms, self.docs_of, self.tfs_of
        weight, corpora = self.title_weight, self.corpora
        for document, tfs, text_n, title_n in entries:
            number = len(self.ids)
            self.ids.append(document.id)
            self.docs.append(document)
            self.numbers[document.id] = number
            self.text_lengths.append(text_n)
            self.title_lengths.append(title_n)
            self.lengths.append(text_n + weight * title_n)
            self.text_total += text_n
            self.title_total += title_n
            corpora.setdefault(document.corpus_id, set()).add(number)
            # A plain loop of array appends measured faster here than grouping the batch
            # with a sort and extending each list once.
            for term, tf in tfs.items():
                tid = vocab.get(term)
                if tid is None:
                    tid = vocab[term] = len(terms)
                    terms.append(term)
                    docs_of.append(array("i"))
                    tfs_of.append(array("d"))
                docs_of[tid].append(number)
                tfs_of[tid].append(tf)

    def delete(self, number: int, doc_terms: Iterable[str], text_n: int, title_n: int) -> None:
        """Remove document ``number`` and its postings.

        Args:
            number: The document's number.
            doc_terms: Its distinct terms, from re-analysing its stored text.
            text_n: Its text term count from that re-analysis.
            title_n: Its title term count from that re-analysis.
        """
        clean = text_n == self.text_lengths[number] and title_n == self.title_lengths[number]
        for term in doc_terms:
            tid = self.vocab.get(term)
            if tid is None or not self._drop_posting(tid, number):
                clean = False
        if not clean:
            # The analyzer no longer reproduces what was indexed (e.g. an index saved by
            # another version): find the document's postings the slow, certain way.
            for tid in range(len(self.terms)):
                self._drop_posting(tid, number)
        document: Document = self.docs[number]  # type: ignore[assignment]  # callers pass live numbers
        del self.numbers[document.id]
        self.corpora[document.corpus_id].discard(number)
        if not self.corpora[document.corpus_id]:
            del self.corpora[document.corpus_id]
        self.text_total -= self.text_lengths[number]
        self.title_total -= self.title_lengths[number]
        self.text_lengths[number] = self.title_lengths[number] = 0
        self.lengths[number] = 0.0
        self.ids[number] = None
        self.docs[number] = None

    def filter_numbers(self, doc_filter: DocumentFilter) -> frozenset[int] | None:
        """Numbers of the documents ``doc_filter`` accepts (``None``: every document)."""
        if doc_filter.corpus_ids is not None:
            groups = [self.corpora[c] for c in sorted(doc_filter.corpus_ids) if c in self.corpora]
            everything = sum(map(len, groups)) == len(self.numbers)
            base: Iterable[int] = set().union(*groups)
        else:
            everything, base = True, self.numbers.values()
        if doc_filter.where:
            docs = self.docs
            return frozenset(n for n in base if doc_filter.accepts(docs[n]))  # type: ignore[arg-type]
        return None if everything else frozenset(base)

    def _drop_posting(self, tid: int, number: int) -> bool:
        docs = self.docs_of[tid]
        pos = bisect_left(docs, number)
        if pos == len(docs) or docs[pos] != number:
            return False
        del docs[pos]
        del self.tfs_of[tid][pos]
        return True

    def maybe_compact(self) -> None:
        """Renumber documents and drop emptied terms when holes dominate."""
        holes = len(self.ids) - len(self.numbers)
        if holes >= _MIN_HOLES_TO_COMPACT and holes > len(self.numbers):
            self.load(self.snapshot_parts())

    def snapshot_parts(self) -> tuple[tuple[Document, ...], array, array, tuple[str, ...], array, array, array]:
        """Compacted copies: documents, text/title lengths, terms, offsets, posting docs and tfs."""
        live = [n for n, i in enumerate(self.ids) if i is not None]
        remap = array("i", [-1]) * len(self.ids)
        for new, old in enumerate(live):
            remap[old] = new
        documents = tuple(self.docs[n] for n in live)  # type: ignore[misc]
        # array(list(map(...))) is much faster than array(map(...)), which grows one by one.
        text_lengths = array("i", list(map(self.text_lengths.__getitem__, live)))
        title_lengths = array("i", list(map(self.title_lengths.__getitem__, live)))
        has_holes = len(live) != len(self.ids)
        terms: list[str] = []
        offsets = array("q", [0])
        all_docs, all_tfs = array("i"), array("d")
        for term, docs, tfs in zip(self.terms, self.docs_of, self.tfs_of):
            if docs:
                terms.append(term)
                all_docs.extend(array("i", list(map(remap.__getitem__, docs))) if has_holes else docs)
                all_tfs.extend(tfs)
                offsets.append(len(all_docs))
        return documents, text_lengths, title_lengths, tuple(terms), offsets, all_docs, all_tfs

    def load(self, parts: tuple[tuple[Document, ...], array, array, tuple[str, ...], array, array, array]) -> None:
        """Replace the whole content by compacted parts (from :meth:`snapshot_parts` or a file)."""
        documents, text_lengths, title_lengths, terms, offsets, all_docs, all_tfs = parts
        weight = self.title_weight
        self.ids = [d.id for d in documents]
        self.docs = list(documents)
        self.numbers = {d.id: n for n, d in enumerate(documents)}
        self.text_lengths = array("i", text_lengths)
        self.title_lengths = array("i", title_lengths)
        self.lengths = array("d", [t + weight * h for t, h in zip(text_lengths, title_lengths)])
        self.text_total = sum(text_lengths)
        self.title_total = sum(title_lengths)
        self.corpora = {}
        for number, document in enumerate(documents):
            self.corpora.setdefault(document.corpus_id, set()).add(number)
        self.terms = list(terms)
        self.vocab = {t: i for i, t in enumerate(terms)}
        bounds = list(zip(offsets[:-1], offsets[1:]))
        self.docs_of = [all_docs[a:b] for a, b in bounds]
        self.tfs_of = [all_tfs[a:b] for a, b in bounds]

    @classmethod
    def from_snapshot(cls, snapshot: BM25Snapshot) -> PostingStore:
        """Build a store from a loaded snapshot."""
        store = cls(snapshot.title_weight)
        store.load((snapshot.documents, snapshot.text_lengths, snapshot.title_lengths, snapshot.terms,
                    snapshot.offsets, snapshot.postings_docs, snapshot.postings_tfs))
        return store
