"""Which passages a bridge question's hops may use: the first hop's passage the question
names most exactly, a next hop that states what the first hop lacks, and links that a bare
number does not make. Small fixtures written for these tests."""

from __future__ import annotations

import unittest

from agentic_rag import Corpus, Document, Snippet
from agentic_rag.components import HeuristicPlanner
from agentic_rag._agentic.fact_evidence import FactEvidenceModel

WIKI = Corpus(id="wiki")


def snippets(*docs: Document) -> list[Snippet]:
    return [Snippet(id=d.id, corpus_id=d.corpus_id, document_id=d.id, text=d.text, metadata={"title": d.title}) for d in docs]


def doc(id: str, title: str, text: str) -> Document:
    return Document(id=id, corpus_id="wiki", title=title, text=text)


def assess(question: str, pool: list[Snippet]):
    plan = HeuristicPlanner().plan(question, (WIKI,))
    return plan, {e.fact_id: e for e in FactEvidenceModel().assess(plan, pool)}


EDITION_QUESTION = "Pro Evolution Soccer 2016 includes which Brazilian footballer on the cover?"
SERIES = doc("series", "Pro Evolution Soccer", "Pro Evolution Soccer is a series of football games by Konami, sold in Europe and Asia.")
EDITION = doc("edition", "Pro Evolution Soccer 2016", "Pro Evolution Soccer 2016 is a football game by Konami for PlayStation 4. The cover of the game features Neymar.")
FOURTH = doc("fourth", "Pro Evolution Soccer 4", "Pro Evolution Soccer 4 is a football game by Konami. Its cover includes Thierry Henry, a French footballer.")
NEYMAR = doc("neymar", "Neymar", "Neymar is a Brazilian professional footballer who plays as a forward.")

BATTLE_QUESTION = "What kind of unit was led by the German general who wanted to capture Calais during the Battle of Boulogne?"
BATTLE = doc("battle", "Battle of Boulogne", "The Battle of Boulogne was fought in 1940, beside the Siege of Calais. German units waited despite General Heinz Guderian, who wanted to capture Calais.")
SIEGE = doc("siege", "Siege of Calais", "The Siege of Calais was fought beside the Battle of Boulogne. German units waited despite General Heinz Guderian, who wanted to capture Calais.")
GUDERIAN = doc("guderian", "Heinz Guderian", "Heinz Guderian was a German general who led Panzer units at Calais and in France.")


class FirstHopTest(unittest.TestCase):
    def test_the_first_hop_is_the_longest_title_the_question_names(self):
        for order in ((SERIES, EDITION), (EDITION, SERIES)):
            plan, evidence = assess(EDITION_QUESTION, snippets(*order))
            self.assertEqual(plan.facts[0].required_terms, ("Pro Evolution Soccer",))
            self.assertEqual(evidence["f1"].snippet_ids, ("edition",))

    def test_a_title_the_question_does_not_spell_out_is_no_better_than_the_fact(self):
        # "Pro Evolution Soccer 4" holds the fact's terms and more, but the question names
        # no fourth edition: the earlier covering passage keeps the first hop.
        _, evidence = assess(EDITION_QUESTION, snippets(SERIES, FOURTH))
        self.assertEqual(evidence["f1"].snippet_ids, ("series",))


class NextHopTest(unittest.TestCase):
    def test_a_short_number_does_not_link_to_every_title_holding_it(self):
        model = FactEvidenceModel()
        fourth, neymar, grand_prix = snippets(FOURTH, NEYMAR, doc("gp", "1967 Italian Grand Prix", "The race was won by John Surtees."))
        self.assertFalse(model._links(fourth, "4"))
        self.assertTrue(model._links(grand_prix, "1967"))
        self.assertTrue(model._links(neymar, "Neymar"))
        self.assertTrue(model._links(fourth, "Pro Evolution Soccer 4"))

    def test_the_edition_passage_does_not_lead_to_another_edition_by_its_number(self):
        _, evidence = assess(EDITION_QUESTION, snippets(EDITION, FOURTH, SERIES))
        self.assertEqual(evidence["f1"].snippet_ids, ("edition",))
        self.assertNotIn("fourth", evidence["f2"].snippet_ids)
        self.assertFalse(evidence["f2"].covered)

    def test_a_next_hop_that_only_repeats_the_first_does_not_cover_the_question(self):
        _, evidence = assess(BATTLE_QUESTION, snippets(BATTLE, SIEGE))
        self.assertTrue(evidence["f1"].covered)
        self.assertFalse(evidence["f2"].covered)
        self.assertIn("led", evidence["f2"].missing_terms)

    def test_a_next_hop_that_adds_what_the_first_lacks_covers_it(self):
        _, evidence = assess(BATTLE_QUESTION, snippets(BATTLE, SIEGE, GUDERIAN))
        self.assertTrue(evidence["f2"].covered)
        self.assertEqual(evidence["f2"].snippet_ids, ("guderian",))


if __name__ == "__main__":
    unittest.main()
