"""Messages as plain ``{"role", "content"}`` dicts: every ``LLM`` implementation takes them like
``Message`` objects (one normaliser, ``check_messages``), and a bad dict is refused before
anything is sent, with an error naming the key."""

from __future__ import annotations

import unittest

from agentic_rag._errors import InvalidInputError
from agentic_rag.llm import AnthropicLLM, McpSamplingLLM, Message, OpenAICompatibleLLM, ScriptedLLM, complete_json
from agentic_rag.llm.port import check_messages, coerce_message
from agentic_rag.testing import AnthropicServer, OpenAICompatibleServer

DICTS = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Yes?"},
         {"role": "user", "content": ""}]
OBJECTS = [Message.system("Be brief."), Message.user("Hi"), Message.assistant("Yes?"), Message.user("")]

# (bad message, words the error must hold)
BAD = (
    ({"content": "x"}, ("messages[1]", "'role'")),
    ({"role": "user"}, ("messages[1]", "'content'")),
    ({"role": "tool", "content": "x"}, ("messages[1]['role']", "'tool'", "system")),
    ({"role": "developer", "content": "x"}, ("messages[1]['role']", "'developer'")),
    ({"role": None, "content": "x"}, ("messages[1]['role']", "None")),
    ({"role": "user", "content": None}, ("messages[1]['content']", "string", "NoneType")),
    ({"role": "user", "content": [{"type": "text", "text": "x"}]}, ("messages[1]['content']", "join the text parts")),
    ({"role": "user", "content": "x", "name": "bob"}, ("messages[1]", "'name'", "only 'role' and 'content'")),
    ("just text", ("messages[1]", "str")),
    (("user", "x"), ("messages[1]", "tuple")),
)


class _Channel:
    """A sampling channel that answers every request with ``text`` and records the params."""

    def __init__(self, text: str = "ok") -> None:
        self.text, self.params = text, []

    def unavailable_reason(self, capability):
        return None

    def request(self, method, params, *, timeout_s):
        self.params.append(params)
        return {"role": "assistant", "content": {"type": "text", "text": self.text}, "model": "host", "stopReason": "endTurn"}


class CoerceTest(unittest.TestCase):
    def test_dicts_become_the_same_messages(self) -> None:
        self.assertEqual(check_messages(DICTS, stage="t"), tuple(OBJECTS))
        self.assertEqual(check_messages([DICTS[1], OBJECTS[2]], stage="t"), (OBJECTS[1], OBJECTS[2]))
        self.assertIs(coerce_message(OBJECTS[0]), OBJECTS[0])

    def test_role_may_be_the_enum(self) -> None:
        self.assertEqual(coerce_message({"role": OBJECTS[1].role, "content": "Hi"}), OBJECTS[1])

    def test_bad_dicts_name_the_key(self) -> None:
        for bad, words in BAD:
            with self.subTest(bad=bad), self.assertRaises(InvalidInputError) as ctx:
                check_messages([DICTS[1], bad], stage="t")
            for word in words:
                self.assertIn(word, str(ctx.exception))

    def test_a_single_dict_or_an_empty_list_is_not_a_conversation(self) -> None:
        for bad in (DICTS[1], [], "hello", None):
            with self.subTest(bad=bad), self.assertRaises(InvalidInputError):
                check_messages(bad, stage="t")


class EveryClientTest(unittest.TestCase):
    """Each client kind sends the same request for dicts as for Message objects."""

    def test_scripted(self) -> None:
        llm = ScriptedLLM(["a", "b"])
        llm.complete(DICTS)
        llm.complete(OBJECTS)
        self.assertEqual(llm.calls[0].messages, llm.calls[1].messages)
        for bad, words in BAD:
            with self.subTest(bad=bad), self.assertRaises(InvalidInputError) as ctx:
                llm.complete([DICTS[1], bad])
            self.assertIn(words[0], str(ctx.exception))
        self.assertEqual(len(llm.calls), 2)

    def test_openai_compatible(self) -> None:
        with OpenAICompatibleServer(["a", "b"]) as server:
            llm = OpenAICompatibleLLM(server.url, "m")
            self.assertEqual(llm.complete(DICTS).text, "a")
            llm.complete(OBJECTS)
            for bad, words in BAD:
                with self.subTest(bad=bad), self.assertRaises(InvalidInputError) as ctx:
                    llm.complete([DICTS[1], bad])
                self.assertIn(words[0], str(ctx.exception))
            sent = [r.json()["messages"] for r in server.requests]
        self.assertEqual(len(sent), 2)  # bad dicts never reached the server
        self.assertEqual(sent[0], sent[1])
        self.assertEqual(sent[0], DICTS)

    def test_anthropic(self) -> None:
        with AnthropicServer(["a", "b"]) as server:
            llm = AnthropicLLM(server.url, "claude-test", "k-1")
            self.assertEqual(llm.complete(DICTS).text, "a")
            llm.complete(OBJECTS)
            for bad, words in BAD:
                with self.subTest(bad=bad), self.assertRaises(InvalidInputError) as ctx:
                    llm.complete([DICTS[1], bad])
                self.assertIn(words[0], str(ctx.exception))
            sent = [r.json() for r in server.requests]
        self.assertEqual(len(sent), 2)
        self.assertEqual(sent[0]["messages"], sent[1]["messages"])
        self.assertEqual(sent[0]["system"], "Be brief.")

    def test_mcp_sampling(self) -> None:
        channel = _Channel()
        llm = McpSamplingLLM(channel)
        llm.complete(DICTS)
        llm.complete(OBJECTS)
        for bad, words in BAD:
            with self.subTest(bad=bad), self.assertRaises(InvalidInputError) as ctx:
                llm.complete([DICTS[1], bad])
            self.assertIn(words[0], str(ctx.exception))
        self.assertEqual(len(channel.params), 2)
        self.assertEqual(channel.params[0], channel.params[1])

    def test_complete_json_takes_dicts(self) -> None:
        llm = ScriptedLLM(['{"n": 1}'])
        value = complete_json(llm, [{"role": "user", "content": "a number"}], {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]})
        self.assertEqual(value, {"n": 1})
        self.assertEqual(llm.calls[0].messages[-1], Message.user("a number"))


if __name__ == "__main__":
    unittest.main()
