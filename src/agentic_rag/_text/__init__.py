"""Text analysis: normalisation, tokenisation, stop words, stemming, sentences, entities."""

from __future__ import annotations

from agentic_rag._lazy import lazy_exports

# Where each name lives; a module is imported when one of its names is first used.
_EXPORTS: dict[str, tuple[str, ...]] = {
    "agentic_rag._text.analyzer": ("STEMMERS", "Analyzer"),
    "agentic_rag._text.entities": ("EntityMention", "extract_entities"),
    "agentic_rag._text.lines": ("normalize_newlines", "split_lines"),
    "agentic_rag._text.porter": ("PorterStemmer",),
    "agentic_rag._text.relevance": ("RelevanceModel", "ScoredUnit", "TermWeights", "WeightedTerm"),
    "agentic_rag._text.segments": ("PassageUnit", "UnitKind", "split_units"),
    "agentic_rag._text.sentences": ("SentenceSpan", "split_sentences"),
    "agentic_rag._text.snowball": ("SnowballEnglishStemmer",),
    "agentic_rag._text.stopwords": ("STOPWORD_LISTS",),
}

__getattr__, __dir__, __all__ = lazy_exports(__name__, _EXPORTS)
