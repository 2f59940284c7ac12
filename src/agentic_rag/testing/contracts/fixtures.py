"""The small fixture world every agentic port contract checks against.

Three corpora (one a distractor), six documents with a two-hop path, a year conflict and a
wrong person, a two-hop plan, and evidence states from nothing to everything. Any
implementation of a port is checked on the same evidence.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from agentic_rag._contracts import (
    AnswerabilityLabel,
    ConflictEvidence,
    ConflictGroup,
    ContextAssessment,
    Corpus,
    Document,
    FactPriority,
    FeedbackQuery,
    RequiredFact,
    RetrievalPlan,
    Route,
    Snippet,
    SufficiencyStatus,
)
from agentic_rag._text import Analyzer

__all__ = [
    "QUESTION",
    "TermOverlapRetriever",
    "contract_json",
    "fixture_corpora",
    "fixture_documents",
    "fixture_plan",
    "fixture_snippet",
    "snippet_sets",
    "synthesis_scenarios",
]

QUESTION = "Where was the founder of Zeta Labs born?"

_DOCUMENTS = (
    ("companies", "zeta-labs", "Zeta Labs", "Zeta Labs was founded in 1999 by Ann Vale in Porto. The company makes optical sensors for ships."),
    ("companies", "zeta-directory", "Trade directory", "A trade directory lists many firms. Zeta Labs was founded in 2003 by Ann Vale, it says."),
    ("companies", "omega-works", "Omega Works", "Omega Works was founded in 2005 by Bob Stone in Faro. Omega Works employs 40 people."),
    ("people", "ann-vale", "Ann Vale", "Ann Vale was born in Braga in 1960. She studied physics in Coimbra."),
    ("people", "bob-stone", "Bob Stone", "Bob Stone was born in Faro in 1970. He was a founder of a rowing club."),
    ("recipes", "bread", "Bread", "Bake the bread at 220 degrees for 30 minutes. Let it cool on a rack."),
)


def fixture_corpora() -> tuple[Corpus, ...]:
    """Three corpora whose descriptions make routing matter (``recipes`` is a distractor)."""
    return (
        Corpus("companies", "Company records: founders, founding years, headquarters and staff numbers."),
        Corpus("people", "Biographies of people: where and when they were born, careers and awards."),
        Corpus("recipes", "Cooking recipes: breads, soups, sauces and baking times."),
    )


def fixture_documents() -> tuple[Document, ...]:
    """The documents behind the fixture snippets."""
    return tuple(Document(id=d, text=text, title=title, corpus_id=c) for c, d, title, text in _DOCUMENTS)


def fixture_snippet(document_id: str, score: float = 1.0) -> Snippet:
    """A whole-document snippet of a fixture document, found by ``q1.1``."""
    doc = next(d for d in fixture_documents() if d.id == document_id)
    return Snippet(id="", corpus_id=doc.corpus_id, document_id=doc.id, text=doc.text, score=score,
                   metadata={"title": doc.title}, query_id="q1.1", fact_id="founder")


def fixture_plan() -> RetrievalPlan:
    """A two-hop plan: who founded Zeta Labs (MUST, with a year conflict), where that person
    was born (MUST, depends on the founder), how many staff (SHOULD)."""
    facts = (
        RequiredFact("founder", "Who founded Zeta Labs", required_terms=("Zeta Labs", "founded"), conflict_terms=("1999", "2003")),
        RequiredFact("birthplace", "Where the founder of Zeta Labs was born", required_terms=("born",), depends_on=("founder",)),
        RequiredFact("staff", "How many people Zeta Labs employs", priority=FactPriority.SHOULD),
    )
    routes = (Route("founder", ("companies",)), Route("birthplace", ("people",)), Route("staff", ("companies",)))
    return RetrievalPlan(QUESTION, facts, routes, corpora=fixture_corpora())


def snippet_sets() -> tuple[tuple[Snippet, ...], ...]:
    """Evidence states from nothing to everything: empty, one hop, a wrong person, two hops,
    a conflict, a distractor only, all documents."""
    s = fixture_snippet
    return (
        (),
        (s("zeta-labs", 3),),
        (s("zeta-labs", 3), s("bob-stone", 2)),
        (s("zeta-labs", 3), s("ann-vale", 2)),
        (s("zeta-labs", 3), s("zeta-directory", 2), s("ann-vale", 1)),
        (s("bread", 1),),
        tuple(s(d[1], float(len(_DOCUMENTS) - n)) for n, d in enumerate(_DOCUMENTS)),
    )


def contract_json(contract) -> str:
    """A contract's canonical JSON, to compare two results byte for byte."""
    return json.dumps(contract.to_dict(), sort_keys=True)


class TermOverlapRetriever:
    """Deterministic in-test retriever: score = distinct analysed query terms in the document.

    Args:
        documents: Documents to search (default: the fixture documents).
    """

    def __init__(self, documents: Sequence[Document] | None = None) -> None:
        self.documents = tuple(documents if documents is not None else fixture_documents())
        self.analyzer = Analyzer()

    def retrieve(self, query: str, k: int, *, corpus_ids: Sequence[str] | None = None) -> tuple[Snippet, ...]:
        """Return at most ``k`` whole-document snippets, best first, ties by id."""
        wanted = set(self.analyzer.analyze(query))
        hits = []
        for doc in self.documents:
            if corpus_ids is not None and doc.corpus_id not in corpus_ids:
                continue
            score = len(wanted & set(self.analyzer.analyze(f"{doc.title} {doc.text}")))
            if score:
                hits.append(Snippet(id="", corpus_id=doc.corpus_id, document_id=doc.id, text=doc.text, score=score, metadata={"title": doc.title}))
        hits.sort(key=lambda s: (-s.score, s.id))
        return tuple(hits[:k])



def synthesis_scenarios() -> tuple[tuple[str, tuple[Snippet, ...], ContextAssessment], ...]:
    """Evidence with a hand-written assessment of every label, consistent with the evidence."""
    s = fixture_snippet
    one_hop = (s("zeta-labs", 3),)
    two_hop = (s("zeta-labs", 3), s("ann-vale", 2))
    conflict = (s("zeta-labs", 3), s("zeta-directory", 2), s("ann-vale", 1))
    groups = (ConflictGroup("1999", (conflict[0].id,)), ConflictGroup("2003", (conflict[1].id,)))
    feedback = (FeedbackQuery("staff", "Zeta Labs employees"),)
    return (
        ("sufficient", two_hop, ContextAssessment(SufficiencyStatus.SUFFICIENT, 0.8, ("founder", "birthplace"), ("staff",),
                                                  feedback_queries=feedback, label=AnswerabilityLabel.SUFFICIENT)),
        ("useful", one_hop, ContextAssessment(SufficiencyStatus.INSUFFICIENT, 0.4, ("founder",), ("birthplace", "staff"),
                                              label=AnswerabilityLabel.USEFUL_BUT_INCOMPLETE)),
        ("conflicting", conflict, ContextAssessment(SufficiencyStatus.INSUFFICIENT, 0.8, ("founder", "birthplace"), ("staff",),
                                                    conflicts=(ConflictEvidence("founder", groups),), label=AnswerabilityLabel.CONFLICTING)),
        ("insufficient", (s("bob-stone"),), ContextAssessment(SufficiencyStatus.INSUFFICIENT, 0.1, (), ("founder", "birthplace", "staff"),
                                                              label=AnswerabilityLabel.INSUFFICIENT)),
        ("unanswerable", (), ContextAssessment(SufficiencyStatus.INSUFFICIENT, 0.0, (), ("founder", "birthplace", "staff"),
                                               label=AnswerabilityLabel.UNANSWERABLE)),
        # A judge may call evidence insufficient that another component would accept: the
        # status must follow the assessment, not the synthesizer's own reading.
        ("strict judge", two_hop, ContextAssessment(SufficiencyStatus.INSUFFICIENT, 0.9, ("founder",), ("birthplace", "staff"),
                                                    label=AnswerabilityLabel.USEFUL_BUT_INCOMPLETE)),
    )
