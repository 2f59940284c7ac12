"""The general readings that keep a deterministic ``answered`` off a near miss (issue 35, item
5, fourteenth round): each reading with a near miss it refuses and a plain statement it still
accepts."""

from __future__ import annotations

import unittest

from agentic_rag._answering.definitions import classing_subject
from earned_support import VerdictCase


class AnotherBodysRuleTest(VerdictCase):
    """A question asking how one body counts or classes a thing is not answered by another
    named body's rule told in running prose, only by the asked body's own (or an unnamed
    "we", "the park")."""

    # Each question, a heading naming the asked body (so the near miss is refused for whose
    # rule it tells, not for a missing name), another body's rule and the asked body's own.
    _CASES = (
        ("Harrowfield Unified board minutes", "How many minutes after the bell does Harrowfield Unified count a student as tardy?",
         "Trustee Okafor noted that neighbouring Corbin Valley School District counts a student as tardy if they arrive more than 10 minutes after the first bell.",
         "Harrowfield Unified counts a student as tardy if they arrive more than 5 minutes after the first bell."),
        ("Tolland Valley Buses fares", "Before what time on a weekday does Tolland Valley Buses count a journey as peak?",
         "For that product, the Authority counts journeys starting before 09:30 on weekdays as peak.",
         "Tolland Valley Buses counts journeys starting before 09:00 on weekdays as peak."),
        ("IronLeaf Fitness policies", "How many visits a month does IronLeaf Fitness require for someone to count as an active member?",
         'In that survey, the Federation counts an "active member" as someone who visits at least four times a month.',
         'IronLeaf Fitness counts an "active member" as someone who visits at least six times a month.'),
    )

    def test_another_named_body_classing_gives_no_answer(self):
        for heading, question, other, own in self._CASES:
            with self.subTest(question=question):
                self.assertNotAnswered(question, heading, other)
                self.assertAnswered(question, heading, own)

    def test_the_subject_is_read_past_an_opening_and_an_appositive(self):
        question = "Which days does Cobalt Cove class as peak days?"
        self.assertEqual(classing_subject(question, "Visit Saltmarsh, the regional tourism board, classes bank holidays as peak days."), "Visit Saltmarsh")
        self.assertEqual(classing_subject(question, "In that survey, the Federation classes bank holidays as peak days."), "the Federation")
        # A question that asks no one's classing, and a noun "classes", read no subject.
        self.assertEqual(classing_subject("What days are busiest at Cobalt Cove?", "Visit Saltmarsh classes bank holidays as peak days."), "")
        self.assertEqual(classing_subject(question, "Yoga classes as well as swimming are free."), "")


if __name__ == "__main__":
    unittest.main()
