"""Text analysis: normalisation, tokenisation, stop words, stemming, sentences, entities."""

from __future__ import annotations

from agentic_rag.text.analyzer import STEMMERS, Analyzer
from agentic_rag.text.entities import EntityMention, extract_entities
from agentic_rag.text.porter import PorterStemmer
from agentic_rag.text.sentences import SentenceSpan, split_sentences
from agentic_rag.text.snowball import SnowballEnglishStemmer
from agentic_rag.text.stopwords import STOPWORD_LISTS

__all__ = [
    "Analyzer",
    "EntityMention",
    "PorterStemmer",
    "STEMMERS",
    "STOPWORD_LISTS",
    "SentenceSpan",
    "SnowballEnglishStemmer",
    "extract_entities",
    "split_sentences",
]
