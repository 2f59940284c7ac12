"""Text analysis: normalisation, tokenisation, stop words, stemming, sentences, entities."""

from __future__ import annotations

from agentic_rag._text.analyzer import STEMMERS, Analyzer
from agentic_rag._text.entities import EntityMention, extract_entities
from agentic_rag._text.lines import normalize_newlines, split_lines
from agentic_rag._text.porter import PorterStemmer
from agentic_rag._text.relevance import RelevanceModel, ScoredUnit, TermWeights, WeightedTerm
from agentic_rag._text.segments import PassageUnit, UnitKind, split_units
from agentic_rag._text.sentences import SentenceSpan, split_sentences
from agentic_rag._text.snowball import SnowballEnglishStemmer
from agentic_rag._text.stopwords import STOPWORD_LISTS

__all__ = [
    "Analyzer",
    "EntityMention",
    "PassageUnit",
    "PorterStemmer",
    "RelevanceModel",
    "STEMMERS",
    "STOPWORD_LISTS",
    "ScoredUnit",
    "SentenceSpan",
    "SnowballEnglishStemmer",
    "TermWeights",
    "UnitKind",
    "WeightedTerm",
    "extract_entities",
    "normalize_newlines",
    "split_lines",
    "split_sentences",
    "split_units",
]
