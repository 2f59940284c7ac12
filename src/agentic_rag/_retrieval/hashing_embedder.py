"""The hashing embedder: character n-grams and words hashed into a sparse tf-idf space.

No model and no vocabulary: every feature is hashed (BLAKE2b, stable across processes and
Python versions) to a dimension and a sign. Counting happens in C (``Counter`` over memoised
per-word feature codes), so embedding stays fast in pure Python. The vectors are sparse;
:class:`~agentic_rag._retrieval.vector.VectorIndex` keeps them in an inverted file.
"""

from __future__ import annotations

import hashlib
import math
from array import array
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import chain, compress, count, islice, repeat
from operator import and_, eq, mul, rshift
from typing import Any

from agentic_rag._contracts.validation import require_bool, require_int
from agentic_rag._errors import InvalidInputError
from agentic_rag._retrieval.embedding_checks import require_texts
from agentic_rag._text.analyzer import Analyzer

__all__ = ["MAX_DENSE_DIMENSIONS", "HashingEmbedder"]

_STAGE = "embedder"

#: The largest ``dimensions`` for which :meth:`HashingEmbedder.embed` returns dense lists.
MAX_DENSE_DIMENSIONS = 65_536

_HASH_SCHEME = "blake2b64-signed-v1"
_WORD_MARK = "\x01"  # prefixes whole-word features so "cat" never collides with the n-gram "cat"
_CACHE_LIMIT = 400_000
# Texts whose vectors are kept: a parallel ask embeds BM25's best candidates once per query
# view, and the views of one question find mostly the same chunks.
_TEXT_CACHE_LIMIT = 2_048
# The keyed (salted) 8-byte BLAKE2b state per salt, never fed: features are hashed on copies.
# Kept here, not on the embedder, which stays picklable.
_KEYED: dict[bytes, Any] = {}


def _keyed_hash(salt: bytes) -> Any:
    state = _KEYED.get(salt)
    if state is None:
        state = _KEYED[salt] = hashlib.blake2b(digest_size=8, salt=salt)
    return state
_SIGNS = (1, -1)


class HashingEmbedder:
    """A deterministic embedder: hashed character n-grams and words, tf-idf, L2-normalised.

    Each analysed word is padded with boundary markers (``<word>``) and cut into character
    n-grams (a padded word shorter than the smallest n-gram is one feature); with
    ``use_words`` the whole word is a feature too. Features are hashed with
    BLAKE2b (64 bits, keyed by ``seed``, identical across processes and Python versions):
    the high bits choose one of ``dimensions`` dimensions and the low bit a sign, so colliding
    features cancel in expectation instead of piling up. A text's signed counts per
    dimension are weighted ``1 + ln(count)`` (``sublinear_tf``) times the smoothed idf
    ``ln((1 + N) / (1 + df)) + 1``, then L2-normalised.

    Vectors are sparse: :meth:`embed_sparse` gives sorted (dimension, weight) pairs, and
    :meth:`embed` densifies only when ``dimensions`` is at most :data:`MAX_DENSE_DIMENSIONS`.
    Document frequencies come from :meth:`fit`; before it every idf is 1. A
    :class:`~agentic_rag._retrieval.vector.VectorIndex` does not use the embedder's fitted
    state: it keeps the frequencies of the documents it holds (so one embedder can serve
    several indexes), and they depend only on the document set, never on insertion order.

    Args:
        dimensions: Size of the hashed space. The default 2**20 puts most features of a
            corpus of a hundred thousand distinct n-grams on a dimension of their own, and
            costs nothing: vectors are sparse.
        ngram_range: Smallest and largest n-gram length (padding included), or ``None`` for
            whole words only. The default (4, 4) shares enough between "colour" and "color",
            or "retrieval" and "retreival", to match them; on SciFact it ranked as well as
            (3, 5), alone and fused with BM25, from 40% of the postings (faster to build
            and to query).
        use_words: Add each whole word as a feature, so exact matches weigh more.
        sublinear_tf: Weight a count ``c`` as ``1 + ln(c)`` instead of ``c``.
        analyzer: Splits text into words; default ``Analyzer(stopwords="english",
            stemmer=None)`` (the n-grams already cover morphology).
        seed: Keys the hash; different seeds give independent feature spaces.

    Raises:
        InvalidInputError: A setting of the wrong type or out of range, or no features at all.
    """

    def __init__(
        self,
        *,
        dimensions: int = 2**20,
        ngram_range: tuple[int, int] | None = (4, 4),
        use_words: bool = True,
        sublinear_tf: bool = True,
        analyzer: Analyzer | None = None,
        seed: int = 0,
    ) -> None:
        require_int(dimensions, "dimensions", minimum=2, stage=_STAGE)
        if dimensions > 2**30:
            raise InvalidInputError(f"dimensions must be <= 2**30, got {dimensions}", stage=_STAGE)
        if ngram_range is not None:
            if not isinstance(ngram_range, (tuple, list)) or len(ngram_range) != 2:
                raise InvalidInputError(f"ngram_range must be a (min, max) pair or None, got {ngram_range!r}", stage=_STAGE)
            low, high = (require_int(n, "ngram_range item", minimum=1, stage=_STAGE) for n in ngram_range)
            if low > high or high > 16:
                raise InvalidInputError(f"ngram_range must satisfy 1 <= min <= max <= 16, got {ngram_range!r}", stage=_STAGE)
            ngram_range = (low, high)
        for flag, field in ((use_words, "use_words"), (sublinear_tf, "sublinear_tf")):
            require_bool(flag, field, stage=_STAGE)
        if not use_words and ngram_range is None:
            raise InvalidInputError("HashingEmbedder needs features: set use_words=True or give an ngram_range", stage=_STAGE)
        if analyzer is not None and not isinstance(analyzer, Analyzer):
            raise InvalidInputError(f"analyzer must be an Analyzer or None, got {type(analyzer).__name__}", stage=_STAGE)
        require_int(seed, "seed", minimum=0, stage=_STAGE)
        if seed >= 2**64:
            raise InvalidInputError(f"seed must be < 2**64, got {seed}", stage=_STAGE)
        self._dimensions = dimensions
        self._ngram_range = ngram_range
        self._use_words = use_words
        self._sublinear_tf = sublinear_tf
        self._analyzer = analyzer if analyzer is not None else Analyzer(stopwords="english", stemmer=None)
        self._seed = seed
        self._salt = seed.to_bytes(16, "little")
        self._word_cache: dict[str, tuple[int, ...]] = {}
        self._text_cache: dict[str, tuple[array, array]] = {}  # read-only vectors: never changed once made
        self._tf_weights: list[float] = []
        self._fitted: tuple[int, dict[int, int]] = (0, {})

    # Read-only: the memoised features would go stale if a setting changed.
    dimensions = property(lambda self: self._dimensions, doc="Size of the hashed space.")
    ngram_range = property(lambda self: self._ngram_range, doc="(min, max) n-gram length, or None.")
    use_words = property(lambda self: self._use_words, doc="Whether whole words are features.")
    sublinear_tf = property(lambda self: self._sublinear_tf, doc="Whether counts are weighted 1 + ln(c).")
    analyzer = property(lambda self: self._analyzer, doc="The analyzer splitting text into words.")
    seed = property(lambda self: self._seed, doc="The hash key.")

    # -- features -------------------------------------------------------------------------

    def _word_codes(self, word: str) -> tuple[int, ...]:
        """Feature codes of one word, ``dimension << 1 | sign bit`` (memoised: words repeat)."""
        cached = self._word_cache.get(word)
        if cached is not None:
            return cached
        features = [_WORD_MARK + word] if self.use_words else []
        if self.ngram_range is not None:
            padded = f"<{word}>"
            low, high = self.ngram_range
            if len(padded) < low:
                features.append(padded)
            for n in range(low, min(high, len(padded)) + 1):
                features.extend(padded[i:i + n] for i in range(len(padded) - n + 1))
        keyed, dims = _keyed_hash(self._salt).copy, self.dimensions
        codes = []
        for feature in features:
            # A copy of the keyed hash, fed the feature, digests exactly as a new keyed hash of
            # it does, at about half the cost of setting the key up again (a cold parallel ask
            # hashes some forty thousand features).
            state = keyed()
            state.update(feature.encode("utf-8"))
            code = int.from_bytes(state.digest(), "little")
            codes.append(((code >> 1) % dims) << 1 | (code & 1))
        result = tuple(codes)
        if len(self._word_cache) >= _CACHE_LIMIT:
            self._word_cache.clear()
        self._word_cache[word] = result
        return result

    def _tf_table(self, largest: int) -> list[float]:
        """tf weight by count, grown to cover ``largest`` (a lookup keeps the hot path in C)."""
        table = self._tf_weights
        if len(table) <= largest:
            grown = [float(c) if not self.sublinear_tf else (1.0 + math.log(c) if c else 0.0) for c in range(max(2 * largest, 64))]
            self._tf_weights = table = grown
        return table

    def _vector(self, text: str) -> tuple[array, array]:
        """(dimensions ascending, tf weights) of one text (memoised: the same chunks come back)."""
        cached = self._text_cache.get(text)
        if cached is None:
            cached = self._vector_uncached(text)
            if len(self._text_cache) >= _TEXT_CACHE_LIMIT:
                self._text_cache.clear()
            self._text_cache[text] = cached
        return cached

    def _vector_uncached(self, text: str) -> tuple[array, array]:
        """(dimensions ascending, tf weights) of one text, with the counting done in C."""
        codes_of = self._word_codes
        counter = Counter(chain.from_iterable(map(codes_of, self.analyzer.analyze(text))))
        codes = sorted(counter)
        counts = list(map(counter.__getitem__, codes))
        dims = list(map(rshift, codes, repeat(1)))
        values = list(map(mul, counts, map(_SIGNS.__getitem__, map(and_, codes, repeat(1)))))
        # Features of opposite signs on one dimension sit next to each other: net them.
        for i in reversed(list(compress(count(), map(eq, dims, islice(dims, 1, None))))):
            values[i] += values.pop(i + 1)
            del dims[i + 1]
        if 0 in values:
            nonzero = list(map(bool, values))
            dims, values = list(compress(dims, nonzero)), list(compress(values, nonzero))
        magnitudes = list(map(abs, values))
        table = self._tf_table(max(magnitudes, default=0))
        weights = array("f", map(math.copysign, map(table.__getitem__, magnitudes), values))
        return array("i", dims), weights

    def term_weights(self, texts: Sequence[str]) -> list[tuple[array, array]]:
        """Return each text's sparse tf vector, the input of an index's inverted file.

        Args:
            texts: The texts, in order.

        Returns:
            Per text, ``(dimensions, weights)``: ``dimensions`` (``array('i')``) strictly
            ascending and ``weights`` (``array('f')``) of the same length holding the signed
            tf weights, without idf or normalisation. Dimensions whose signed counts cancel
            out are left out.

        Raises:
            InvalidInputError: ``texts`` not a sequence of strings.
        """
        return [self._vector(text) for text in require_texts(texts)]

    # -- idf ------------------------------------------------------------------------------

    def idf(self, document_frequency: int, document_count: int) -> float:
        """Smoothed idf ``ln((1 + N) / (1 + df)) + 1``: positive, finite even when df is 0.

        Args:
            document_frequency: How many documents hold the dimension (``df``).
            document_count: How many documents there are (``N``).

        Returns:
            The idf, >= 1 whenever ``df <= N``.
        """
        return math.log((1 + document_count) / (1 + document_frequency)) + 1.0

    def fit(self, texts: Iterable[str]) -> HashingEmbedder:
        """Learn document frequencies from ``texts`` (replacing any learned before).

        Args:
            texts: The documents; only the set matters, not the order.

        Returns:
            ``self``, for chaining.

        Raises:
            InvalidInputError: ``texts`` not a sequence of strings.
        """
        frequencies: Counter[int] = Counter()
        items = require_texts(texts)
        for text in items:
            frequencies.update(self._vector(text)[0])
        self._fitted = (len(items), dict(frequencies))  # one assignment: readers see both or neither
        return self

    @property
    def document_count(self) -> int:
        """How many documents :meth:`fit` saw (0 before fitting)."""
        return self._fitted[0]

    def embed_sparse(self, texts: Sequence[str]) -> list[list[tuple[int, float]]]:
        """Embed ``texts`` as sparse tf-idf vectors with the fitted frequencies, L2-normalised.

        Args:
            texts: The texts, in order.

        Returns:
            Per text, (dimension, weight) pairs sorted by dimension (empty for a text with no
            features, such as only stop words).

        Raises:
            InvalidInputError: ``texts`` not a sequence of strings.
        """
        n, frequencies = self._fitted
        out = []
        for dims, weights in self.term_weights(texts):
            vector = list(zip(dims, weights))
            if n:
                vector = [(d, w * self.idf(frequencies.get(d, 0), n)) for d, w in vector]
            norm = math.sqrt(math.fsum(w * w for _, w in vector))
            out.append([(d, w / norm) for d, w in vector] if norm else [])
        return out

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Embed ``texts`` as dense lists (only for ``dimensions <= MAX_DENSE_DIMENSIONS``).

        Args:
            texts: The texts, in order.

        Returns:
            One list of ``dimensions`` floats per text: :meth:`embed_sparse` densified.

        Raises:
            InvalidInputError: ``dimensions`` too large for dense output, or bad ``texts``.
        """
        if self.dimensions > MAX_DENSE_DIMENSIONS:
            raise InvalidInputError(
                f"dense output needs dimensions <= {MAX_DENSE_DIMENSIONS}, got {self.dimensions}; "
                "use embed_sparse() or a smaller dimensions",
                stage=_STAGE,
            )
        out = []
        for vector in self.embed_sparse(texts):
            dense = [0.0] * self.dimensions
            for d, w in vector:
                dense[d] = w
            out.append(dense)
        return out

    # -- description ----------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Describe the settings (not the fitted frequencies) as JSON-compatible data."""
        return {
            "type": "hashing",
            "name": "hashing",
            "hash": _HASH_SCHEME,
            "dimensions": self.dimensions,
            "ngram_range": list(self.ngram_range) if self.ngram_range is not None else None,
            "use_words": self.use_words,
            "sublinear_tf": self.sublinear_tf,
            "analyzer": self.analyzer.to_dict(),
            "seed": self.seed,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HashingEmbedder:
        """Rebuild an embedder from :meth:`to_dict` output.

        Raises:
            InvalidInputError: Another type or hash scheme, unknown keys or bad values.
        """
        if not isinstance(data, Mapping) or data.get("type") != "hashing":
            raise InvalidInputError(f"not a hashing embedder description: {data!r:.120}", stage=_STAGE)
        if data.get("hash") != _HASH_SCHEME:
            raise InvalidInputError(f"hash scheme {data.get('hash')!r} is not supported; expected {_HASH_SCHEME!r}", stage=_STAGE)
        unknown = sorted(set(data) - {"type", "name", "hash", "dimensions", "ngram_range", "use_words", "sublinear_tf", "analyzer", "seed"})
        if unknown:
            raise InvalidInputError(f"unknown hashing embedder settings {unknown}", stage=_STAGE)
        ngrams = data.get("ngram_range", (4, 4))
        analyzer = data.get("analyzer")
        return cls(
            dimensions=data.get("dimensions", 2**20),
            ngram_range=tuple(ngrams) if ngrams is not None else None,  # type: ignore[arg-type]
            use_words=data.get("use_words", True),
            sublinear_tf=data.get("sublinear_tf", True),
            analyzer=Analyzer.from_dict(analyzer) if analyzer is not None else None,
            seed=data.get("seed", 0),
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HashingEmbedder) and self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return hash(repr(self.to_dict()))

    def __repr__(self) -> str:
        return (
            f"HashingEmbedder(dimensions={self.dimensions}, ngram_range={self.ngram_range}, "
            f"use_words={self.use_words}, sublinear_tf={self.sublinear_tf}, seed={self.seed})"
        )
