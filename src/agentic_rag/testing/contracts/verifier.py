"""The ``ClaimVerifier`` port's contract, written once and applied to every implementation.

Combine the mixin with ``unittest.TestCase`` and give it a factory::

    class TestMyVerifierContract(ClaimVerifierContract, unittest.TestCase):
        def make_verifier(self):
            return MyVerifier()

A verifier reads meaning, so the suite does not say which verdict a check deserves; it pins
the shape every caller relies on: one judgement per check, in order, the same for the same
input, nothing for nothing, and a clear error for an item that is not a check.
"""

from __future__ import annotations

from agentic_rag._contracts import ClaimCheck, ClaimJudgement, SupportVerdict
from agentic_rag._errors import InvalidInputError

__all__ = ["ClaimVerifierContract", "contract_checks"]

_PASSAGE = "Cache\nThe cache holds at most maxsize entries, or None for no limits. It is not shared between processes."


def contract_checks() -> tuple[ClaimCheck, ...]:
    """Doubted claims of several kinds: a restated value, a paraphrase, a flipped negation, an
    invented number, and one repeated."""
    rows = (
        ("Setting maxsize to None removes the limit.", "or None for no limits", "the claim and its quote disagree on a negation (limit)"),
        ("Each process has a cache of its own.", "It is not shared between processes.", "the claim's words own are not in its evidence"),
        ("The cache is shared between processes.", "It is not shared between processes.", "the claim and its quote disagree on a negation (share)"),
        ("The cache holds at most 128 entries.", "The cache holds at most maxsize entries", "the claim's 128 is not in its evidence"),
        ("Setting maxsize to None removes the limit.", "or None for no limits", "the claim and its quote disagree on a negation (limit)"),
    )
    return tuple(ClaimCheck(claim, (quote,), (_PASSAGE,), doubt) for claim, quote, doubt in rows)


class ClaimVerifierContract:
    """Every :class:`~agentic_rag._ports.ClaimVerifier` must satisfy these."""

    def make_verifier(self):
        """Return the verifier under test."""
        raise NotImplementedError

    def test_one_judgement_per_check_in_order(self):
        checks = contract_checks()
        judgements = self.make_verifier().verify(checks)
        self.assertIsInstance(judgements, tuple)
        self.assertEqual(len(judgements), len(checks))
        for judgement in judgements:
            self.assertIsInstance(judgement, ClaimJudgement)
            self.assertIsInstance(judgement.verdict, SupportVerdict)
        # The same check, twice in one call, gets the same verdict.
        self.assertEqual(judgements[0].verdict, judgements[4].verdict)

    def test_nothing_to_check_gives_nothing(self):
        self.assertEqual(tuple(self.make_verifier().verify(())), ())

    def test_same_input_same_verdicts(self):
        first = self.make_verifier().verify(contract_checks())
        second = self.make_verifier().verify(contract_checks())
        self.assertEqual([j.verdict for j in first], [j.verdict for j in second])

    def test_a_single_check_reads_as_in_a_batch(self):
        checks = contract_checks()
        alone = self.make_verifier().verify(checks[2:3])
        self.assertEqual(len(alone), 1)

    def test_items_that_are_not_checks_are_refused(self):
        with self.assertRaises(InvalidInputError):
            self.make_verifier().verify(["The cache is shared."])
