"""The analyzer: text -> index terms, identical at index and query time.

Pipeline: Unicode NFKC normalisation and case folding; tokens are runs of Unicode letters and
digits (so "Zürich", "naïve", Cyrillic and Greek survive); runs of CJK characters become
overlapping character bigrams (CJK has no spaces, so whole runs would never match a query);
tokens longer than :data:`MAX_TOKEN_LENGTH` (255, Lucene's default token limit) dropped;
optional stop words; optional stemming. An analyzer is described by a small dict
(:meth:`Analyzer.to_dict`) that saved indexes store, so a loaded index analyses queries exactly
as it analysed documents.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from typing import Any

from agentic_rag._contracts.validation import require_int
from agentic_rag._errors import InvalidInputError
from agentic_rag._regex import lazy_regex
from agentic_rag._text.stopwords import STOPWORD_LISTS

__all__ = ["MAX_TOKEN_LENGTH", "STEMMERS", "Analyzer"]

#: Tokens longer than this many characters (after case folding) are dropped: no word is that
#: long, and a run of letters or digits this long is data (a hash, base64, a hostile file).
MAX_TOKEN_LENGTH = 255

_WORD = re.compile(r"[^\W_]+")
# The same words in lower-cased ASCII text are the runs of [0-9a-z]: this table makes every
# other byte a space, so a split finds them (four times faster than a pattern's findall).
_ASCII_WORD_BYTES = bytes(b if 48 <= b <= 57 or 97 <= b <= 122 else 32 for b in range(256))
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
_TERM_CACHE_SIZE = 500_000
_CJK = lazy_regex(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+")


def _porter() -> Callable[[str], str]:
    from agentic_rag._text.porter import PorterStemmer

    return PorterStemmer().stem


def _snowball() -> Callable[[str], str]:
    from agentic_rag._text.snowball import SnowballEnglishStemmer

    return SnowballEnglishStemmer().stem


#: Stemmers by name; the analyzer's ``stemmer`` argument accepts these keys or ``None``.
STEMMERS: Mapping[str, Callable[[], Callable[[str], str]]] = {"porter": _porter, "snowball": _snowball}


@lru_cache(maxsize=None)
def _stem_function(name: str) -> Callable[[str], str]:
    return STEMMERS[name]()


class Analyzer:
    """Turns text into terms.

    Args:
        stopwords: A registered list name (``"english"``, ``"lucene"``, ``"none"``), ``None``
            for none, or an iterable of custom words (matched after case folding).
        stemmer: ``"snowball"`` (English Porter2), ``"porter"`` (original Porter) or ``None``.
        min_length: Drop terms shorter than this many characters (after stemming).

    Raises:
        InvalidInputError: An unknown list or stemmer name, or ``min_length`` below 1.
    """

    __slots__ = ("_stem", "_stop", "_stop_spec", "_terms", "min_length", "stemmer")

    def __init__(
        self,
        *,
        stopwords: str | Iterable[str] | None = "english",
        stemmer: str | None = "snowball",
        min_length: int = 1,
    ) -> None:
        if stopwords is None:
            stopwords = "none"
        if isinstance(stopwords, str):
            if stopwords not in STOPWORD_LISTS:
                raise InvalidInputError(f"unknown stop-word list {stopwords!r}; expected one of {sorted(STOPWORD_LISTS)} or an iterable of words", stage="analyzer")
            self._stop_spec: str | tuple[str, ...] = stopwords
            self._stop = STOPWORD_LISTS[stopwords]
        else:
            given = tuple(stopwords) if isinstance(stopwords, Iterable) and not isinstance(stopwords, (bytes, Mapping)) else None
            if given is None or not all(isinstance(w, str) for w in given):
                raise InvalidInputError(f"stopwords must be a list name, None or an iterable of words, got {stopwords!r}", stage="analyzer")
            words = tuple(sorted({unicodedata.normalize("NFKC", w).casefold() for w in given}))
            self._stop_spec = words
            self._stop = frozenset(words)
        if stemmer is not None and (not isinstance(stemmer, str) or stemmer not in STEMMERS):
            raise InvalidInputError(f"unknown stemmer {stemmer!r}; expected one of {sorted(STEMMERS)} or None", stage="analyzer")
        require_int(min_length, "min_length", minimum=1, stage="analyzer")
        self.stemmer = stemmer
        self.min_length = min_length
        self._stem = _stem_function(stemmer) if stemmer else None
        # token -> term ("" for a dropped token). Plain dict lookups are the hot path of
        # indexing; a bounded size keeps a long-lived analyzer from growing without end.
        self._terms: dict[str, str] = {}

    def tokenize(self, text: str) -> list[str]:
        """Split ``text`` into normalised tokens (no stop words removed, no stemming).

        Args:
            text: Any string.

        Returns:
            Case-folded tokens in text order; CJK runs as character bigrams; tokens longer
            than :data:`MAX_TOKEN_LENGTH` characters dropped.
        """
        if not isinstance(text, str):
            raise InvalidInputError(f"text must be a string, got {type(text).__name__}", stage="analyzer")
        ascii_only = text.isascii()
        # ASCII text is its own NFKC form, its case folding is lower() and it holds no CJK:
        # the checks below are skipped for it (most text), with the very same tokens. So is
        # text whose folded form is ASCII (its only other characters were ligatures, ellipses...).
        folded = text.lower() if ascii_only else unicodedata.normalize("NFKC", text).casefold()
        ascii_words = ascii_only or folded.isascii()
        if ascii_words:
            # Folded ASCII is lower case: its words are the runs of [0-9a-z] (what ``_WORD`` finds in it).
            words = folded.encode("ascii").translate(_ASCII_WORD_BYTES).decode("ascii").split()
        elif not any(map(str.isalnum, _NON_ASCII.findall(folded))):
            # Its other characters are no letters or digits (quotes, dashes, pilcrows): they part
            # words as spaces do (``[^\W_]`` is what ``str.isalnum`` accepts), so each becomes one,
            # and its words are ASCII (no CJK run to split).
            ascii_words = True
            words = folded.encode("ascii", "replace").translate(_ASCII_WORD_BYTES).decode("ascii").split()
        else:
            words = _WORD.findall(folded)
        if len(folded) > MAX_TOKEN_LENGTH and words and max(map(len, words)) > MAX_TOKEN_LENGTH:
            words = [w for w in words if len(w) <= MAX_TOKEN_LENGTH]
        if ascii_words or not _CJK.search(folded):
            return words  # the common case: one scan of the text, not one per word
        tokens: list[str] = []
        for word in words:
            if _CJK.search(word):
                tokens.extend(_split_cjk(word))
            else:
                tokens.append(word)
        return tokens

    def analyze(self, text: str) -> list[str]:
        """Return the index terms of ``text``: tokens minus stop words, stemmed.

        Args:
            text: Any string.

        Returns:
            Terms in text order (duplicates kept, so term frequencies can be counted).
        """
        return self.terms_of(self.tokenize(text))

    def terms_of(self, tokens: list[str]) -> list[str]:
        """The index terms of ``tokens`` (as :meth:`tokenize` gives them): stop words dropped,
        the rest stemmed, in order.

        Args:
            tokens: Normalised tokens.

        Returns:
            Terms in token order.
        """
        cache = self._terms
        # Most tokens were met before: looked up in one pass, and only the new ones stemmed.
        terms = list(map(cache.get, tokens))
        if None in terms:
            for n, term in enumerate(terms):
                if term is None:
                    token = tokens[n]
                    term = cache.get(token)  # an earlier token of this text may have been the same
                    if term is None:
                        term = self._term(token)
                        if len(cache) < _TERM_CACHE_SIZE:
                            cache[token] = term
                    terms[n] = term
        return list(filter(None, terms))

    def _term(self, token: str) -> str:
        if token in self._stop:
            return ""
        term = self._stem(token) if self._stem is not None else token
        return term if len(term) >= self.min_length else ""

    def is_stopword(self, token: str) -> bool:
        """True when ``token`` (already case folded) is a stop word for this analyzer."""
        return token in self._stop

    def to_dict(self) -> dict[str, Any]:
        """Describe the analyzer as JSON-compatible data (stored inside saved indexes)."""
        stop = self._stop_spec if isinstance(self._stop_spec, str) else list(self._stop_spec)
        return {"stopwords": stop, "stemmer": self.stemmer, "min_length": self.min_length}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Analyzer:
        """Rebuild an analyzer from :meth:`to_dict` output.

        Raises:
            InvalidInputError: Unknown keys or values.
        """
        if not isinstance(data, Mapping):
            raise InvalidInputError(f"analyzer settings must be an object, got {data!r}", stage="analyzer")
        unknown = sorted(set(data) - {"stopwords", "stemmer", "min_length"})
        if unknown:
            raise InvalidInputError(f"unknown analyzer settings {unknown}", stage="analyzer")
        return cls(stopwords=data.get("stopwords", "english"), stemmer=data.get("stemmer"), min_length=data.get("min_length", 1))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Analyzer) and self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return hash(repr(self.to_dict()))

    def __repr__(self) -> str:
        stop = self._stop_spec if isinstance(self._stop_spec, str) else f"<{len(self._stop_spec)} custom words>"
        return f"Analyzer(stopwords={stop!r}, stemmer={self.stemmer!r}, min_length={self.min_length})"


def _split_cjk(word: str) -> list[str]:
    """Split a token holding CJK runs: CJK runs into bigrams, other runs kept whole."""
    out: list[str] = []
    pos = 0
    for match in _CJK.finditer(word):
        if match.start() > pos:
            out.append(word[pos:match.start()])
        run = match.group()
        out.extend([run] if len(run) == 1 else [run[i:i + 2] for i in range(len(run) - 1)])
        pos = match.end()
    if pos < len(word):
        out.append(word[pos:])
    return out
