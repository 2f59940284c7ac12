"""Tests for the JSON-schema validator, JSON extraction and complete_json's repair round."""

from __future__ import annotations

import json
import unittest

from agentic_rag._budget import RunBudget, use_budget
from agentic_rag._errors import BudgetExhaustedError, InvalidInputError, StructuredOutputError
from agentic_rag.llm import (
    Completion,
    Message,
    MessageRole,
    OpenAICompatibleLLM,
    ResponseFormatType,
    ScriptedLLM,
    check_schema,
    complete_json,
    extract_json,
    validate_json,
)
from agentic_rag.testing import OpenAICompatibleServer

SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["status", "items"],
    "properties": {
        "status": {"type": "string", "enum": ["sufficient", "insufficient"]},
        "score": {"type": "number", "minimum": 0, "maximum": 1},
        "count": {"type": "integer"},
        "note": {"type": ["string", "null"], "maxLength": 5},
        "items": {"type": "array", "minItems": 1, "maxItems": 2, "items": {"type": "string", "minLength": 2}},
        "meta": {"type": "object", "additionalProperties": {"type": "boolean"}},
    },
}
VALID = {"status": "sufficient", "items": ["ab"]}


class ValidatorTest(unittest.TestCase):
    def test_valid_instances_have_no_errors(self) -> None:
        for instance in (VALID, {**VALID, "score": 0.5, "count": 3, "note": None, "meta": {"x": True}}, {**VALID, "count": 2.0}):
            with self.subTest(instance=instance):
                self.assertEqual(validate_json(instance, SCHEMA), [])

    def test_each_keyword_reports_its_path(self) -> None:
        cases = [
            ({"items": ["ab"]}, "$: missing required property 'status'"),
            ({**VALID, "status": "maybe"}, "$.status: 'maybe' is not one of ['sufficient', 'insufficient']"),
            ({**VALID, "score": 1.5}, "$.score: 1.5 is above the maximum 1"),
            ({**VALID, "score": -0.1}, "$.score: -0.1 is below the minimum 0"),
            ({**VALID, "score": "high"}, "$.score: expected number, got string 'high'"),
            ({**VALID, "count": True}, "$.count: expected integer, got boolean True"),
            ({**VALID, "count": 1.5}, "$.count: expected integer, got number 1.5"),
            ({**VALID, "note": "too long"}, "$.note: string of length 8 is longer than maxLength 5"),
            ({**VALID, "note": 3}, "$.note: expected string or null, got integer 3"),
            ({**VALID, "items": []}, "$.items: 0 items, fewer than minItems 1"),
            ({**VALID, "items": ["ab", "cd", "ef"]}, "$.items: 3 items, more than maxItems 2"),
            ({**VALID, "items": ["ab", "x"]}, "$.items[1]: string of length 1 is shorter than minLength 2"),
            ({**VALID, "extra": 1}, "$: unexpected property 'extra'; allowed: ['count', 'items', 'meta', 'note', 'score', 'status']"),
            ({**VALID, "meta": {"x": "yes"}}, "$.meta.x: expected boolean, got string 'yes'"),
            (["not", "an", "object"], "$: expected object, got array ['not', 'an', 'object']"),
        ]
        for instance, expected in cases:
            with self.subTest(expected=expected):
                self.assertEqual(validate_json(instance, SCHEMA), [expected])

    def test_nan_is_not_a_number(self) -> None:
        self.assertEqual(len(validate_json({**VALID, "score": float("nan")}, SCHEMA)), 1)

    def test_unsupported_schemas_are_refused(self) -> None:
        for bad in ({"type": "object", "pattern": "x"}, {"type": "tuple"}, {"anyOf": []}, {"required": "name"},
                    {"additionalProperties": "no"}, {"properties": {"a": {"oneOf": []}}}):
            with self.subTest(schema=bad), self.assertRaises(InvalidInputError):
                check_schema(bad)
        check_schema(SCHEMA)


class ExtractJsonTest(unittest.TestCase):
    def test_tolerates_fences_prose_and_thinking(self) -> None:
        cases = [
            '{"a": 1}',
            '```json\n{"a": 1}\n```',
            '```\n{"a": 1}\n```\nHope this helps!',
            'Here is the JSON: {"a": 1} Let me know if you need more.',
            '<think>I should answer {a} carefully</think>\n{"a": 1}',
            'Use {braces} wisely. {"a": 1}',
            '  {"a": 1}}} trailing junk',
        ]
        for text in cases:
            with self.subTest(text=text):
                self.assertEqual(extract_json(text), {"a": 1})
        self.assertEqual(extract_json("list: [1, 2]"), [1, 2])

    def test_an_answer_whose_strings_quote_code_fences_is_read_whole(self) -> None:
        # A quote copied from a Markdown page holds a fenced example; the fenced text ("[1]")
        # inside the answer's strings is no answer of its own.
        answer = {"answer": "Write:\n```python\nprint([1])\n```\nto print [1].", "claims": [{"text": "x", "quote": "```\n[1]\n```"}]}
        self.assertEqual(extract_json(json.dumps(answer)), answer)
        self.assertEqual(extract_json("  " + json.dumps(answer) + "\nDone."), answer)

    def test_no_json_raises(self) -> None:
        for text in ("", "no json here", "{'single': 'quotes'}", '{"a": 1'):
            with self.subTest(text=text), self.assertRaises(StructuredOutputError):
                extract_json(text)


class CompleteJsonTest(unittest.TestCase):
    def messages(self) -> list[Message]:
        return [Message.system("You judge."), Message.user("Is it enough?")]

    def test_valid_first_answer_needs_no_repair(self) -> None:
        llm = ScriptedLLM([f"```json\n{json.dumps(VALID)}\n```"])
        self.assertEqual(complete_json(llm, self.messages(), SCHEMA, name="judge"), VALID)
        call = llm.calls[0]
        self.assertEqual(len(llm.calls), 1)
        self.assertEqual(call.response_format.type, ResponseFormatType.JSON_SCHEMA)
        self.assertEqual(call.response_format.name, "judge")
        self.assertIn('"enum"', call.messages[0].content)
        self.assertTrue(call.messages[0].content.startswith("You judge."))

    def test_one_repair_round_shows_the_validation_errors(self) -> None:
        llm = ScriptedLLM(['{"status": "maybe", "items": []}', json.dumps(VALID)])
        self.assertEqual(complete_json(llm, self.messages(), SCHEMA), VALID)
        repair = llm.calls[1].messages
        self.assertEqual([m.role for m in repair[-2:]], [MessageRole.ASSISTANT, MessageRole.USER])
        self.assertEqual(repair[-2].content, '{"status": "maybe", "items": []}')
        self.assertIn("$.status: 'maybe' is not one of", repair[-1].content)
        self.assertIn("$.items: 0 items, fewer than minItems 1", repair[-1].content)

    def test_still_invalid_after_repair_raises_with_errors(self) -> None:
        llm = ScriptedLLM(["not json at all", '{"status": "sufficient"}'])
        with self.assertRaises(StructuredOutputError) as ctx:
            complete_json(llm, self.messages(), SCHEMA, name="judge")
        self.assertEqual(len(llm.calls), 2)
        self.assertEqual(ctx.exception.errors, ("$: missing required property 'items'",))
        self.assertEqual(ctx.exception.text, '{"status": "sufficient"}')
        self.assertIn("judge", str(ctx.exception))
        self.assertIn("1 repair round", str(ctx.exception))

    def test_repair_rounds_zero_and_two(self) -> None:
        with self.assertRaises(StructuredOutputError):
            complete_json(ScriptedLLM(["{}", json.dumps(VALID)]), self.messages(), SCHEMA, repair_rounds=0)
        llm = ScriptedLLM(["{}", "[]", json.dumps(VALID)])
        self.assertEqual(complete_json(llm, self.messages(), SCHEMA, repair_rounds=2), VALID)

    def test_truncated_answer_is_told_to_be_shorter(self) -> None:
        llm = ScriptedLLM([Completion('{"status": "suff', finish_reason="length"), json.dumps(VALID)])
        complete_json(llm, self.messages(), SCHEMA)
        self.assertIn("cut off", llm.calls[1].messages[-1].content)

    def test_schema_goes_in_a_new_system_message_when_there_is_none(self) -> None:
        llm = ScriptedLLM([json.dumps(VALID)])
        complete_json(llm, [Message.user("q")], SCHEMA, response_format=None)
        self.assertEqual(llm.calls[0].messages[0].role, MessageRole.SYSTEM)
        self.assertIsNone(llm.calls[0].response_format)

    def test_budget_exhaustion_is_not_swallowed(self) -> None:
        with use_budget(RunBudget(max_llm_calls=1)), self.assertRaises(BudgetExhaustedError):
            complete_json(ScriptedLLM(["{}", json.dumps(VALID)]), self.messages(), SCHEMA)

    def test_bad_schema_or_arguments(self) -> None:
        with self.assertRaises(InvalidInputError):
            complete_json(ScriptedLLM(["{}"]), self.messages(), {"type": "array"})
        with self.assertRaises(InvalidInputError):
            complete_json(ScriptedLLM(["{}"]), self.messages(), SCHEMA, repair_rounds=-1)

    def test_schema_violating_server_answers_over_http(self) -> None:
        answers = ['Sure! {"status": "unknown", "items": ["ab"]}', '{"status": "insufficient", "items": ["ab"], "extra": 1}']
        with OpenAICompatibleServer(answers) as server:
            llm = OpenAICompatibleLLM(server.url, "tiny-model")
            with self.assertRaises(StructuredOutputError) as ctx:
                complete_json(llm, self.messages(), SCHEMA)
            bodies = [r.json() for r in server.requests]
        self.assertEqual(len(bodies), 2)
        self.assertEqual(bodies[0]["response_format"]["type"], "json_schema")
        self.assertIn("unknown", bodies[1]["messages"][-1]["content"])
        self.assertIn("unexpected property 'extra'", str(ctx.exception))


class ScriptedLLMTest(unittest.TestCase):
    def test_sequence_function_exceptions_and_exhaustion(self) -> None:
        llm = ScriptedLLM(["a", RuntimeError("boom")])
        self.assertEqual(llm.complete([Message.user("q")]).text, "a")
        with self.assertRaises(RuntimeError):
            llm.complete([Message.user("q")])
        with self.assertRaises(Exception) as ctx:
            llm.complete([Message.user("q")])
        self.assertIn("no reply for call 3", str(ctx.exception))
        echo = ScriptedLLM(lambda call: call.messages[-1].content.upper())
        self.assertEqual(echo.complete([Message.user("hi")]).text, "HI")
        self.assertEqual(ScriptedLLM(["x"], repeat_last=True).complete([Message.user("q")]).text, "x")
        with self.assertRaises(InvalidInputError):
            ScriptedLLM([1, 2])  # type: ignore[list-item]

    def test_charges_estimated_usage(self) -> None:
        budget = RunBudget()
        with use_budget(budget):
            ScriptedLLM(["12345678"]).complete([Message.user("abcd")])
        snap = budget.snapshot()
        self.assertEqual((snap.llm_calls, snap.prompt_tokens, snap.completion_tokens), (1, 1, 2))


if __name__ == "__main__":
    unittest.main()
