"""The ``LLM`` port's contract, written once and applied to every implementation.

Combine the mixin with ``unittest.TestCase`` and give it a factory that returns a model which
answers its calls with the given replies, in order (an in-process double, or a real client
pointed at one of :mod:`agentic_rag.testing`'s loopback servers)::

    class TestMyClientContract(LLMContract, unittest.TestCase):
        def make_llm(self, replies):
            server = OpenAICompatibleServer(list(replies))
            self.enterContext(server)   # Python 3.11+; or addCleanup(server.__exit__, ...)
            return MyClient(server.url, "test-model")
"""

from __future__ import annotations

from collections.abc import Sequence

from agentic_rag._errors import InvalidInputError
from agentic_rag.llm.port import Completion, Message

__all__ = ["LLMContract"]


class LLMContract:
    """Every :class:`agentic_rag.llm.LLM` must satisfy these."""

    def make_llm(self, replies: Sequence[str]):
        """Return the model under test, answering its calls with ``replies`` in order."""
        raise NotImplementedError

    def test_complete_returns_the_reply_as_a_completion(self):
        llm = self.make_llm(["Tides follow the Moon."])
        completion = llm.complete([Message.user("What causes tides?")])
        self.assertIsInstance(completion, Completion)
        self.assertEqual(completion.text, "Tides follow the Moon.")
        self.assertGreaterEqual(completion.usage.total_tokens, 0)

    def test_dict_messages_are_accepted(self):
        llm = self.make_llm(["ok"])
        completion = llm.complete([{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hi"}])
        self.assertEqual(completion.text, "ok")

    def test_calls_are_answered_in_order(self):
        llm = self.make_llm(["first", "second"])
        self.assertEqual([llm.complete([Message.user(q)]).text for q in ("a", "b")], ["first", "second"])

    def test_bad_messages_are_refused_before_any_call(self):
        for bad in ([], "hi", [{"role": "user"}], [{"role": "wizard", "content": "x"}], [42]):
            with self.subTest(messages=bad):
                with self.assertRaises(InvalidInputError):
                    self.make_llm(["never used"]).complete(bad)
