"""The general rules that keep a deterministic ``answered`` on the asked subject, attribute,
bound, stage and modality (issue 35, item 5, second round): each rule with a near miss it
refuses and a plain statement it still accepts."""

from __future__ import annotations

import unittest

from agentic_rag._answering.assertions import states_fact
from agentic_rag._answering.attributes import statement_problem
from agentic_rag._answering.earned import ClaimContext, earned_verdict
from agentic_rag._answering.grounding import check_grounding
from agentic_rag._answering.modality import modality_problem
from agentic_rag._contracts import AnswerStatus
from agentic_rag._text.answer_slots import SlotKind, read_fact, read_slot, slot_filler
from agentic_rag._text.asked_attribute import Aspect, asked_aspects, framed_words, implied_bounds, read_attribute, without_aspect_words
from agentic_rag._text.questions import anchor_entity
from agentic_rag._text.relevance import RelevanceModel
from earned_support import VerdictCase



class ModalityTest(unittest.TestCase):
    def test_a_plan_a_target_or_a_proposal_is_no_value(self):
        for clause in ("The Classic theme will be retired on 1 May 2031.", "We aim to reach 30 million in revenue by 2032.",
                       "If approved, the bridge would be 2 km long.", "The board has a proposal of 0.40 per share."):
            with self.subTest(clause=clause):
                self.assertEqual(modality_problem("What is the value?", clause), "unreal")
        # A question about the plan is answered by it.
        self.assertEqual(modality_problem("When will the Classic theme be retired?", "The Classic theme will be retired on 1 May 2031."), "")

    def test_plan_as_a_noun_is_no_plan(self):
        self.assertEqual(modality_problem("How many seats does the plan include?", "The Starter plan includes 3 seats."), "")
        self.assertEqual(modality_problem("Which release deprecated --check?", "--check is deprecated in 2.1; use the plan command instead."), "")

    def test_a_heading_files_a_proposal(self):
        self.assertEqual(modality_problem("What is the per-user quota?", "- A per-user quota of 5 GB", "Product notes › Proposed for 3.0"), "unreal")
        self.assertEqual(modality_problem("What is the per-user quota?", "- A per-user quota of 5 GB", "Product notes › What could change?"), "")

    def test_what_people_do_is_no_value(self):
        self.assertEqual(modality_problem("How long is the lock timeout?", "Most operators set it to 45 seconds."), "practice")
        self.assertEqual(modality_problem("How long is the lock timeout?", "We recommend 45 seconds."), "practice")
        self.assertEqual(modality_problem("What lock timeout do you recommend?", "We recommend 45 seconds."), "")

    def test_a_yes_no_question_is_answered_by_a_denial(self):
        self.assertEqual(modality_problem("Does the lock timeout have a default?", "It has no default."), "")
        self.assertEqual(modality_problem("What is the default lock timeout?", "It has no default."), "denied")


class BoundTest(VerdictCase):
    def test_the_most_before_a_plural_noun_asks_the_maximum(self):
        self.assertEqual(asked_aspects("What's the most users a Team account can have?"), {Aspect.MAXIMUM})
        self.assertEqual(asked_aspects("What is the most famous bridge?"), frozenset())

    def test_an_amount_asked_with_can_or_must_implies_its_bound(self):
        self.assertEqual(implied_bounds("How many users can a Team account have?"), {Aspect.MAXIMUM})
        self.assertEqual(implied_bounds("How long must a passphrase be?"), {Aspect.MINIMUM})
        self.assertEqual(implied_bounds("How many users does a Team account include?"), frozenset())
        self.assertNotAnswered("How many users can a Team account have?", "Team plan › Users", "A Team account requires a minimum of 3 users.")
        self.assertAnswered("How many users can a Team account have?", "Team plan › Users", "A Team account holds up to 40 users.")

    def test_an_open_question_for_a_bound_needs_the_bound(self):
        row = "Key | Default | Description\nlock.timeout | 30s | How long a lock is held"
        self.assertNotAnswered("What's the longest lock timeout Quarry supports?", "Quarry Reference › Keys", "lock.timeout | 30s | How long a lock is held", row)

    def test_a_description_cell_does_not_make_a_default_a_bound(self):
        table = "Key | Default | Description\nbody_limit | 64 KiB | Largest request body accepted"
        problem = statement_problem("What's the highest value body_limit accepts in Quarry?", "Quarry Reference", table, table, RelevanceModel())
        self.assertEqual(problem, "no aspect")

    def test_range_as_a_noun_gives_no_range(self):
        self.assertNotAnswered("What is the maximum radio range of the Pell R2?", "Pell R2 › Radio", "The typical radio range indoors is about 30 m.")

    def test_the_words_asking_a_bound_are_left_to_the_bound_check(self):
        self.assertEqual(without_aspect_words("What's the smallest payout Quarry sends?"), "What's the payout Quarry sends?")
        self.assertAnswered("What's the smallest payout Quarry Pay sends?", "Quarry Pay › Payouts", "- The minimum payout Quarry Pay sends is 25.00.")


class LifeCycleTest(VerdictCase):
    def test_plain_verbs_ask_for_a_stage(self):
        self.assertEqual(asked_aspects("In which release did Quarry drop the v2 API?"), {Aspect.REMOVED})
        self.assertEqual(asked_aspects("When did Quarry get rid of the old theme?"), {Aspect.REMOVED})
        self.assertEqual(asked_aspects("How do I add a route?"), frozenset())

    def test_a_date_question_reads_the_stage_and_the_modality(self):
        self.assertNotAnswered("When did Quarry get rid of the Mosaic theme?", "Quarry FAQ › The Mosaic theme",
                               "The Mosaic theme will be retired on 1 March 2031.")
        self.assertNotAnswered("In which release did Quarry drop the v2 endpoints?", "Quarry Changelog › Deprecation notice",
                               "The v2 endpoints are deprecated and may be removed in a future release.")

    def test_a_major_version_named_as_one_fills_a_version_slot(self):
        slot = read_slot("In which Quarry version is CSV import going away?")
        self.assertEqual(slot_filler(slot, "CSV import will be removed in version 7."), "version 7")
        # The question's own "v2" is never its answer.
        self.assertEqual(slot_filler(read_slot("Which release dropped the v2 endpoints?"), "The v2 endpoints are gone."), "")


class AttributeAndSubjectTest(VerdictCase):
    def test_an_attribute_asked_before_its_subject_and_verb(self):
        attribute = read_attribute("What write latency can a Quarry leader sustain?")
        self.assertEqual((attribute.words, attribute.subject, attribute.kind), (("write", "latency"), ("quarry", "leader"), ("leader",)))
        self.assertIsNone(read_attribute("What range should I expect from the Pell R2?"))
        self.assertIsNone(read_attribute("Which exception does quarry.open raise?"))  # a name is of its own kind
        self.assertNotAnswered("What write latency can a Quarry leader sustain?", "Quarry: Leader Guide › Sizing",
                               "A leader node sustains up to 9,000 reads per second.")

    def test_the_subjects_kind_tells_it_from_a_sibling(self):
        row = "Setting | Default (follower) | Description\nmax_peers | 64 | Peers accepted by the follower"
        self.assertNotAnswered("What's the default max_peers on a Quarry leader?", "Quarry: Follower Guide › Settings",
                               "max_peers | 64 | Peers accepted by the follower", row)
        self.assertAnswered("What's the default max_peers on a Quarry follower?", "Quarry: Follower Guide › Settings",
                            "max_peers | 64 | Peers accepted by the follower", row)

    def test_an_amount_asked_by_its_dimension_needs_its_unit(self):
        self.assertEqual(read_slot("How heavy is the Pell R2?").dimension, "heavy")
        self.assertEqual(slot_filler(read_slot("How heavy is the Pell R2?"), "Internal storage | 8 GB"), "")
        self.assertEqual(slot_filler(read_slot("How heavy is the Pell R2?"), "Weight | 0.9 kg"), "0.9")
        self.assertEqual(slot_filler(read_slot("How far can the Pell R2 fly?"), "It flies for 20 minutes."), "")

    def test_how_many_is_no_word_a_statement_repeats(self):
        self.assertEqual(framed_words("In how many cities does Quarry have offices?"), "In how cities does Quarry have offices?")
        self.assertAnswered("In how many cities does Quarry Labs have offices?", "Quarry Labs › At a glance",
                            "- Offices: Quarry Labs operates offices in four cities.")

    def test_a_table_row_is_covered_with_its_header(self):
        table = "Setting | Default | Notes\nlock_timeout | 30 s | Per lock"
        self.assertAnswered("What is the default lock_timeout in Quarry?", "Quarry Reference", "lock_timeout | 30 s | Per lock", table)


class AskedInOtherWordsTest(VerdictCase):
    def test_the_kind_of_value_asked_is_said_by_the_value(self):
        model = RelevanceModel()
        terms = {t.term: t for t in model.question_terms("In which version was the graft command added to Quarry?")}
        self.assertFalse(terms["version"].topic)
        self.assertAnswered("In which version was the graft command added to Quarry?", "Quarry Changelog › 3.1.0", "- Added the graft command.")

    def test_a_version_heading_answers_a_when_question_about_a_stage(self):
        model = RelevanceModel()
        self.assertTrue(model.wants_number("When was legacy_mode deprecated in Quarry Server?"))
        self.assertTrue(model.wants_number("Which Quarry Server version added the graft command?"))
        units = model.rank_units("Which Quarry Server version added the graft command?", [("Quarry Server Changelog › 3.1.0", "- Added the graft command.")])
        self.assertEqual(units[0].heading, "Quarry Server Changelog › 3.1.0")

    def test_out_of_the_box_asks_for_the_default(self):
        table = "Key | Default | Description\nbody_limit | 64 KiB | Largest request body accepted"
        self.assertAnswered("Out of the box, what's body_limit in Quarry?", "Quarry Reference", "body_limit | 64 KiB | Largest request body accepted", table)

    def test_a_text_names_an_attribute_in_its_own_words(self):
        self.assertAnswered("How many people live in Pellandia?", "Pellandia — Notes › People", "- Population: 4.1 million (2030 census)")
        self.assertAnswered("How many people does Quarry Labs employ?", "Quarry Labs — Fact Sheet", "Employees | about 1,200 across all offices")

    def test_modal_verbs_and_the_kind_of_value_frame_a_question(self):
        self.assertEqual(framed_words("What's the smallest payout Quarry will send?"), "What's the smallest payout Quarry send?")
        self.assertEqual(framed_words("Which Quarry Server version added the graft command?"), "Which Quarry Server added the graft command?")
        self.assertEqual(framed_words("Out of the box, what's body_limit?"), "by default , what's body_limit?")


class MoreShapesTest(VerdictCase):
    def test_a_question_opening_with_a_phrase_still_asks_for_a_value(self):
        self.assertNotAnswered("In Quarry 4, what's the upper limit for worker_slots?", "Quarry 4.x Release Notes › 4.0.0",
                               "The default value of worker_slots is now 4 (it was 1 in 3.x).")

    def test_a_value_asked_by_its_name_is_read_for_its_modality(self):
        self.assertNotAnswered("What dividend per share did Quarry Group pay for 2031?", "Quarry Group › Dividends",
                               "For 2031 the board has proposed a dividend of 0.80 per share, subject to approval in May 2032.")

    def test_a_thing_named_first_then_asked_about(self):
        attribute = read_attribute("Default job timeout in Quarry 4 — what is it?")
        self.assertEqual((attribute.words, attribute.subject), (("job", "timeout"), ("quarry", "4")))
        self.assertEqual(read_attribute("What is the largest part size allowed in a Quarry upload?").words, ("part", "size"))

    def test_the_words_that_say_which_one_stand_with_the_value(self):
        self.assertNotAnswered("What is the grace period on a Quarry subscription?", "Quarry FAQ › Closing",
                               "Closing cancels the subscription at the end of the billing period.")
        self.assertAnswered("What is the grace period on a Quarry subscription?", "Quarry FAQ › Grace period",
                            "The grace period of a subscription is 7 days after a failed payment.")

    def test_a_line_introducing_a_list_files_its_items(self):
        text = "Goals the team is working toward:\n\n- One Quarry leader can support up to 32 followers."
        self.assertNotAnswered("How many followers can one Quarry leader support?", "Quarry Release Notes › Quarry 9", text)
        plain = "Limits of this release:\n\n- One Quarry leader can support up to 32 followers."
        self.assertAnswered("How many followers can one Quarry leader support?", "Quarry Release Notes › Quarry 8", plain)

    def test_a_default_cell_with_no_value_states_no_default(self):
        table = "Setting | Default | Notes\nidle_wait | — | See below."
        self.assertNotAnswered("What is the default value of idle_wait in Quarry?", "Quarry Reference", "idle_wait | — | See below.", table)

    def test_how_many_of_a_unit_needs_a_number_in_that_unit(self):
        self.assertEqual(read_slot("How many times does the Quarry client retry?").dimension, "times")
        self.assertEqual(slot_filler(read_slot("How many times does the Quarry client retry?"), "It retries 429 and 503 responses up to 3 times."), "3")
        table = "Key | Default | Description\nclient.connect_timeout | 5s | Time to wait for the server"
        self.assertNotAnswered("How many times does the Quarry client retry by default?", "Quarry Client › Configuration",
                               "client.connect_timeout | 5s | Time to wait for the server", table)


class ChoosingTheLineThatStatesItTest(unittest.TestCase):
    """When the best-ranked lines of accepted passages do not state the value, a line of the
    same evidence that does is quoted (the earned check still decides the status)."""

    QUESTION = "What's the max flush_interval the Quarry Agent will take?"
    TEXT = ("The flush_interval of the Quarry Agent sets how often the Quarry Agent flushes; a longer flush_interval risks rejected samples.\n\n"
            "The Quarry Agent does not accept flush_interval values above 120 seconds.")

    def test_the_parallel_generator_quotes_the_line_that_earns(self):
        from agentic_rag._contracts import Snippet
        from agentic_rag._parallel import ExtractiveGenerator, reciprocal_rank_fusion

        docs = reciprocal_rank_fusion([[Snippet(id="", corpus_id="c", document_id="d1", text=self.TEXT, score=1.0, metadata={"title": "Quarry Agent › flush_interval"})]])
        answer = ExtractiveGenerator(max_sentences=1).generate(self.QUESTION, docs)
        self.assertIn("120 seconds", answer.text)

    def test_the_agentic_synthesizer_quotes_the_line_that_earns(self):
        from agentic_rag._agentic.extractive import ExtractiveDrafter, ExtractiveGroundedSynthesizer
        from agentic_rag._agentic.fact_evidence import FactEvidenceModel
        from agentic_rag._contracts import (AnswerabilityLabel, ContextAssessment, Corpus, RequiredFact, RetrievalPlan, Route, Snippet,
                                            SufficiencyStatus)
        from agentic_rag._contracts.assessment import FactSupport

        relevance = RelevanceModel()
        drafter = ExtractiveDrafter(evidence_model=FactEvidenceModel(relevance.analyzer, relevance=relevance), max_units=1)
        fact = RequiredFact(id="f1", description=self.QUESTION)
        plan = RetrievalPlan(question=self.QUESTION, facts=(fact,), routes=(Route(fact_id="f1", corpus_ids=("docs",)),), corpora=(Corpus(id="docs"),))
        snippet = Snippet(id="s1", corpus_id="docs", document_id="d1", text=self.TEXT, score=1.0, metadata={"title": "Quarry Agent › flush_interval"})
        assessment = ContextAssessment(status=SufficiencyStatus.SUFFICIENT, sufficiency_score=1.0, covered_fact_ids=("f1",), label=AnswerabilityLabel.SUFFICIENT,
                                       support=(FactSupport("f1", ("s1",), 1.0),))
        answer = ExtractiveGroundedSynthesizer(drafter).synthesize(self.QUESTION, plan, [snippet], assessment)
        self.assertIs(answer.status, AnswerStatus.ANSWERED)
        self.assertIn("120 seconds", answer.text)


class OtherDoerTest(VerdictCase):
    def test_a_sentence_whose_own_subject_does_the_verb_is_about_that_subject(self):
        self.assertEqual(read_attribute("Which port does Quarry Server listen on?").verb, "listen")
        self.assertNotAnswered("Which port does Quarry Server listen on?", "Quarry Server › Networking",
                               "The agent itself listens on port 7421, for Quarry Server health checks only.")
        self.assertAnswered("Which port does Quarry Server listen on?", "Quarry Server › Networking", "The Quarry Server listens on port 9090.")


class VerbAndOptionTest(VerdictCase):
    def test_a_verb_that_names_the_attribute_must_stand_with_the_value(self):
        self.assertEqual(read_attribute("What does the Pell R2 weigh?").words, ("weigh",))
        self.assertEqual(read_attribute("How fast can the Pell R2 climb?").words, ("climb",))
        self.assertIsNone(read_attribute("What does 'lease window' mean in Quarry?"))  # a definition
        self.assertIsNone(read_attribute("How fast can the Pell R2 fly horizontally?"))
        self.assertNotAnswered("What does the Pell R2 weigh?", "Pell R2 › Service", "The Pell R2 comes with a two-year warranty.")
        self.assertAnswered("What does the Pell R2 weigh?", "Pell R2 › Specifications", "- The Pell R2 weight is 0.9 kg.")

    def test_how_fast_needs_a_speed(self):
        self.assertEqual(slot_filler(read_slot("How fast can the Pell R2 climb?"), "It has a two-year warranty."), "")
        self.assertEqual(slot_filler(read_slot("How fast can the Pell R2 climb?"), "It climbs at 6 m/s."), "6")

    def test_a_command_line_option_is_a_name(self):
        model = RelevanceModel()
        self.assertTrue(model.missing_named("Which Quarry version introduced the --legacy-auth flag?", "Quarry Changelog › 3.2.0\n- Added --output json."))


class YesNoAndMeasureTest(unittest.TestCase):
    def test_a_yes_no_question_is_not_answered_by_a_change_to_come(self):
        from agentic_rag._answering.modality import yes_no_problem

        self.assertEqual(yes_no_problem("Does Quarry support HTTP/3?", "HTTP/3 will be supported in Quarry 5.0."), "unreal")
        self.assertEqual(yes_no_problem("Does Quarry support HTTP/3?", "HTTP/3 is not supported by Quarry."), "")
        self.assertEqual(yes_no_problem("Will Quarry support HTTP/3?", "HTTP/3 will be supported in Quarry 5.0."), "")

    def test_a_value_in_the_attributes_unit_names_it(self):
        model = RelevanceModel()
        self.assertEqual(statement_problem("What is the maximum file size in Quarry?", "Quarry Limits", "Quarry accepts files of up to 5 GB.", "5", model), "")
        self.assertEqual(statement_problem("What is the maximum file size in Quarry?", "Quarry Limits", "Quarry accepts up to 5,000 files.", "5,000", model),
                         "another attribute")


class FramingWordsTest(VerdictCase):
    def test_words_that_frame_the_question_are_left_out_of_its_coverage(self):
        self.assertEqual(framed_words("Roughly how many people does Quarry Labs employ overall?"), "how people does Quarry Labs employ ?")
        self.assertEqual(framed_words("What is the smallest allowed value of worker_slots in Quarry?"), "What is the smallest of worker_slots in Quarry?")
        table = "Setting | Default | Notes\nworker_slots | 4 | Must be at least 1."
        self.assertAnswered("What is the smallest allowed value of worker_slots in Quarry Proxy?", "Quarry Proxy Configuration Reference",
                            "worker_slots | 4 | Must be at least 1.", table)

    def test_a_fact_stated_with_the_predicates_synonym(self):
        fact = read_fact("In what year was Quarry Labs founded?")
        self.assertTrue(states_fact(fact, "- Established: 2004, in Ghent"))
        self.assertFalse(states_fact(fact, "- Acquired: 2014"))


class CompoundAndNameTest(unittest.TestCase):
    QUESTION = "Which policy sets the rel attribute of links the linkify filter makes, and what is its default value?"
    POLICIES = ("linkify.rel:\nA string that defines the rel attribute of links the linkify filter makes. Defaults to noopener.\n\n"
                "json.dumps_function:\nThe function tojson dumps with instead of the default one.")

    def test_a_part_that_refers_back_is_answered_about_what_it_refers_to(self):
        model = RelevanceModel()
        other = "json.dumps_function:\nThe function tojson dumps with instead of the default one."
        own = "linkify.rel:\nA string that defines the rel attribute of links the linkify filter makes. Defaults to noopener."
        self.assertIsNot(earned_verdict("What is its default value?", [ClaimContext("API › Policies", other, self.POLICIES)], model,
                                        before="Which policy sets the rel attribute of links the linkify filter makes?").status, AnswerStatus.ANSWERED)
        self.assertIs(earned_verdict("What is its default value?", [ClaimContext("API › Policies", own, self.POLICIES)], model,
                                     before="Which policy sets the rel attribute of links the linkify filter makes?").status, AnswerStatus.ANSWERED)

    def test_what_is_it_called_asks_for_a_name_of_the_kind_named(self):
        self.assertIs(read_slot("Is there an environment variable for the search path? What's it called?").kind, SlotKind.NAME)
        question = "Is there an environment variable that tells quarry where to look for zone files? What's it called?"
        model = RelevanceModel()
        wrong = "The environment variable holds an os.pathsep-separated string that tells quarry where to look for zone files."
        right = "The quarry module looks for zone files in the paths the environment variable QUARRYZONEPATH names."
        self.assertIsNot(earned_verdict(question, [ClaimContext("quarry › Environment", wrong, wrong)], model).status, AnswerStatus.ANSWERED)
        self.assertIs(earned_verdict(question, [ClaimContext("quarry › Environment", right, right)], model).status, AnswerStatus.ANSWERED)


class PassiveQuestionTest(unittest.TestCase):
    def test_an_active_sentence_answers_a_passive_question(self):
        fact = read_fact("When was the Pell R2 announced?")
        self.assertTrue(fact.passive)
        self.assertTrue(states_fact(fact, "Pell Aerial announced the R2 on 4 April 2030."))
        self.assertFalse(states_fact(fact, "Pell Aerial announced the R3 on 4 April 2030."))
        self.assertFalse(states_fact(read_fact("When did the Pell R2 announce its partner?"), "Pell Aerial announced the R2 on 4 April 2030."))


class ReadingFixesTest(unittest.TestCase):
    def test_a_contracted_question_word_is_no_entity(self):
        self.assertEqual(anchor_entity("What's the capital of Veloria?"), "Veloria")

    def test_a_table_row_or_a_labelled_line_is_a_statement(self):
        for quote in ("Storage | 500 GB", "- Headquarters: Portland, Oregon"):
            with self.subTest(quote=quote):
                self.assertEqual(check_grounding(quote, [quote], [quote]).problem, "")
        self.assertIn("bare name", check_grounding("Jane Doe Smith", ["Jane Doe Smith"], ["Jane Doe Smith"]).problem)


if __name__ == "__main__":
    unittest.main()
