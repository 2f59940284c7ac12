"""What a question asks for, and whether claims earn ``answered``."""

from __future__ import annotations

import unittest

from agentic_rag._answering.earned import ClaimContext, earned_verdict
from agentic_rag._contracts import AnswerStatus
from agentic_rag._text.answer_slots import SlotKind, identifiers, read_slot, slot_filler
from agentic_rag._text.relevance import RelevanceModel


class ReadSlotTest(unittest.TestCase):
    def test_kinds(self):
        cases = {
            "What is the default value of SESSION_COOKIE_NAME?": SlotKind.DEFAULT,
            "Since which attrs release can I import define from attrs?": SlotKind.VERSION,
            "Which version added the --port option?": SlotKind.VERSION,
            "How many workers does the server start?": SlotKind.NUMBER,
            "What is the maximum body size?": SlotKind.NUMBER,
            "Which exception is raised when a frozen instance is changed?": SlotKind.NAME,
            "How do I serve a blueprint under a prefix?": SlotKind.NAME,
            "Is there a way to switch off every validator?": SlotKind.NAME,
            "Why does my logger print twice?": SlotKind.OPEN,
            "What does the partial status mean?": SlotKind.OPEN,
            # Hyphenated words between "which" and the kind (read as open before).
            "Which compile-time option removes them?": SlotKind.NAME,
            "Which built-in function sorts a list?": SlotKind.NAME,
            # A question that opens by asking for a version wants one, "by default" or not
            # (read as a default before).
            "Since when are the JSON functions built into SQLite by default?": SlotKind.VERSION,
            "Which release made slots the default?": SlotKind.VERSION,
            "What is the default timeout?": SlotKind.DEFAULT,
        }
        for question, kind in cases.items():
            with self.subTest(question=question):
                self.assertIs(read_slot(question).kind, kind)

    def test_the_question_keeps_its_own_numbers_and_names(self):
        slot = read_slot("Which release dropped Python 3.7 for attr.s?")
        self.assertIn("3.7", slot.numbers)
        self.assertIn("attr.s", slot.names)


class SlotFillerTest(unittest.TestCase):
    def test_a_version_the_question_does_not_state(self):
        slot = read_slot("Which release dropped Python 3.7?")
        self.assertEqual(slot_filler(slot, "Python 3.7 support was dropped."), "")
        self.assertEqual(slot_filler(slot, "24.3.0: dropped support for Python 3.7."), "24.3.0")

    def test_a_number(self):
        slot = read_slot("How many workers run by default with -w 4?")
        self.assertEqual(slot_filler(read_slot("How many workers does it run?"), "It runs 1 worker."), "1")
        self.assertEqual(slot_filler(slot, "Pass -w 4 to run more."), "")

    def test_how_long_wants_a_number_with_its_unit(self):
        # Measured on the dev half: "For how long does a long-term support release get
        # security fixes?" was answered by "Django 5.2 is designated as a long-term support
        # release" (5.2 read as the amount).
        slot = read_slot("For how long does a long-term support release get security fixes?")
        self.assertEqual(slot_filler(slot, "Django 5.2 is designated as a long-term support release."), "")
        self.assertEqual(slot_filler(slot, "They get security fixes for three years."), "three")
        self.assertEqual(slot_filler(read_slot("How often does it run?"), "It runs twice a day."), "twice")
        self.assertEqual(slot_filler(read_slot("How long can a nonce be?"), "A nonce is at most 16 octets."), "16")
        self.assertEqual(slot_filler(read_slot("How many workers does it run?"), "It runs 1 worker."), "1")

    def test_a_default_is_stated_or_assigned_to_the_named_setting(self):
        slot = read_slot("What is the default of max_connections?")
        self.assertTrue(slot_filler(slot, "Default: 'session'"))
        self.assertTrue(slot_filler(slot, "limits = Limits(max_connections=100)"))
        self.assertEqual(slot_filler(slot, "The pool keeps connections open."), "")

    def test_a_name_the_question_does_not_give(self):
        slot = read_slot("Which exception is raised when a frozen instance is changed?")
        self.assertEqual(slot_filler(slot, "attrs raises FrozenInstanceError then."), "frozeninstanceerror")
        self.assertEqual(slot_filler(slot, "Frozen instances cannot be changed."), "")
        own = read_slot("What does define_class do?")
        self.assertEqual(slot_filler(read_slot("Which hook does define_class call?"), "define_class is fast."), "")
        self.assertEqual(own.kind, SlotKind.OPEN)

    def test_open_questions_take_any_text(self):
        self.assertEqual(slot_filler(read_slot("Why is it slow?"), "  It parses twice. "), "It parses twice.")

    def test_identifiers(self):
        self.assertEqual(identifiers("Use attrs.define, cache_hash=True, FrozenInstanceError and --port or @define."),
                         ("attrs.define", "cache_hash", "frozeninstanceerror", "port", "define"))


class EarnedVerdictTest(unittest.TestCase):
    def setUp(self) -> None:
        self.model = RelevanceModel()

    def test_a_claim_that_holds_the_default_earns_answered(self):
        passage = "SESSION_COOKIE_NAME\nThe name of the session cookie.\nDefault: 'session'"
        claim = ClaimContext("Builtin Configuration Values", "SESSION_COOKIE_NAME ... Default: 'session'", passage)
        self.assertIs(earned_verdict("What is the default value of SESSION_COOKIE_NAME?", [claim], self.model).status, AnswerStatus.ANSWERED)

    def test_a_claim_about_the_topic_without_the_asked_value_does_not(self):
        passage = "SESSION_COOKIE_NAME\nThe name of the session cookie. Can be changed."
        claim = ClaimContext("Builtin Configuration Values", "SESSION_COOKIE_NAME The name of the session cookie.", passage)
        verdict = earned_verdict("What is the default value of SESSION_COOKIE_NAME?", [claim], self.model)
        self.assertIs(verdict.status, AnswerStatus.UNANSWERABLE)
        self.assertEqual(verdict.missing, ("What is the default value of SESSION_COOKIE_NAME?",))

    def test_a_number_the_question_states_must_stand_as_written(self):
        passage = "Changes in 16.0.0: Python 3.3 is no longer supported; the last Python 2.7 release ..."
        claim = ClaimContext("16.0.0", passage, passage)
        self.assertIsNot(earned_verdict("Which attrs release dropped support for Python 3.7?", [claim], self.model).status, AnswerStatus.ANSWERED)

    def test_a_passage_that_barely_covers_the_question_does_not(self):
        claim = ClaimContext("", "It raises FrozenInstanceError.", "It raises FrozenInstanceError.")
        verdict = earned_verdict("Which exception is raised when someone assigns to an attribute of a frozen instance?", [claim], self.model)
        self.assertIsNot(verdict.status, AnswerStatus.ANSWERED)
        claim = ClaimContext("Immutability", "Assigning to an attribute of a frozen instance raises FrozenInstanceError.",
                             "Assigning to an attribute of a frozen instance raises FrozenInstanceError.")
        self.assertIs(earned_verdict("Which exception is raised when someone assigns to an attribute of a frozen instance?", [claim], self.model).status,
                      AnswerStatus.ANSWERED)

    def test_one_part_of_two_is_partial(self):
        claim = ClaimContext("Server", "The server listens on port 5000 by default.", "The server listens on port 5000 by default.")
        verdict = earned_verdict("Which port does the server listen on, and which exception does it raise when the port is taken?", [claim], self.model)
        self.assertIs(verdict.status, AnswerStatus.PARTIAL)
        self.assertEqual(len(verdict.missing), 1)


if __name__ == "__main__":
    unittest.main()
