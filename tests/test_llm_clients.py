"""Tests for the chat clients (OpenAI-compatible and Anthropic) over loopback servers."""

from __future__ import annotations

import os
import unittest
from unittest import mock

from agentic_rag._budget import RunBudget, use_budget
from agentic_rag._errors import BudgetExhaustedError, InvalidInputError, ProviderError, ProviderHTTPError
from agentic_rag.llm import LLM, AnthropicLLM, HttpOptions, Message, OpenAICompatibleLLM, ResponseFormat
from agentic_rag.testing import AnthropicServer, Fault, OpenAICompatibleServer, json_reply

KEY = "sk-live-TOPSECRET-0123456789"
SCHEMA = {"type": "object", "required": ["answer"], "properties": {"answer": {"type": "string"}}}
NO_SLEEP = {"http": HttpOptions(sleep=lambda _s: None)}


def openai(server: OpenAICompatibleServer, **kwargs) -> OpenAICompatibleLLM:
    return OpenAICompatibleLLM(server.url, "test-model", **{**NO_SLEEP, **kwargs})


class OpenAIRequestTest(unittest.TestCase):
    def test_sends_the_chat_completions_request(self) -> None:
        with OpenAICompatibleServer(["Paris."], api_key=KEY) as server:
            llm = openai(server, api_key=KEY)
            completion = llm.complete([Message.system("Be brief."), Message.user("Capital of France?")], temperature=0.2, max_tokens=20)
            request = server.requests[0]
        self.assertEqual(request.path, "/v1/chat/completions")
        self.assertEqual(request.header("authorization"), f"Bearer {KEY}")
        self.assertEqual(request.header("content-type"), "application/json")
        body = request.json()
        self.assertEqual(body["model"], "test-model")
        self.assertEqual(body["messages"], [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Capital of France?"}])
        self.assertEqual((body["temperature"], body["max_tokens"]), (0.2, 20))
        self.assertNotIn("response_format", body)
        self.assertEqual(completion.text, "Paris.")
        self.assertEqual(completion.model, "test-model")
        self.assertEqual(completion.finish_reason, "stop")
        self.assertEqual((completion.usage.prompt_tokens, completion.usage.completion_tokens), (5, 1))
        self.assertFalse(completion.usage.estimated)
        self.assertEqual(completion.raw["id"], "chatcmpl-1")
        self.assertIsInstance(llm, LLM)

    def test_response_formats_follow_json_mode(self) -> None:
        cases = [
            ("json_schema", ResponseFormat.json_schema("answer", SCHEMA), {"type": "json_schema", "json_schema": {"name": "answer", "schema": SCHEMA}}),
            ("json_schema", {"type": "json_object"}, {"type": "json_object"}),
            ("json_schema", {"type": "json_schema", "json_schema": {"name": "a", "schema": SCHEMA, "strict": True}},
             {"type": "json_schema", "json_schema": {"name": "a", "schema": SCHEMA, "strict": True}}),
            ("json_object", ResponseFormat.json_schema("answer", SCHEMA), {"type": "json_object"}),
            ("none", ResponseFormat.json_schema("answer", SCHEMA), None),
        ]
        for mode, requested, expected in cases:
            with self.subTest(mode=mode, requested=requested):
                with OpenAICompatibleServer(['{"answer": "x"}']) as server:
                    openai(server, json_mode=mode).complete([Message.user("q")], response_format=requested)
                    self.assertEqual(server.requests[0].json().get("response_format"), expected)

    def test_server_refusing_json_schema_falls_back_to_json_mode_once(self) -> None:
        with OpenAICompatibleServer(["{}"], supports_json_schema=False) as server:
            client = openai(server)
            client.complete([Message.user("q")], response_format=ResponseFormat.json_schema("a", SCHEMA))
            client.complete([Message.user("q")], response_format=ResponseFormat.json_schema("a", SCHEMA))
            formats = [r.json().get("response_format") for r in server.requests]
        # One refused json_schema request, then the schema inside JSON mode for this call and
        # every later one.
        with_schema = {"type": "json_object", "schema": SCHEMA}
        self.assertEqual(formats, [{"type": "json_schema", "json_schema": {"name": "a", "schema": SCHEMA}}, with_schema, with_schema])
        self.assertEqual(client.json_mode, "json_object_schema")

    def test_a_500_refusing_json_schema_switches_to_the_schema_in_json_mode_at_once(self) -> None:
        # llama-cpp-python's server: a json_schema format is a 500 validation error (not worth
        # retrying); {"type": "json_object", "schema": ...} is accepted and enforced.
        refusal = Fault.http(500, "[{'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), "
                                  "'msg': \"Input should be 'text' or 'json_object'\", 'input': 'json_schema'}]")
        with OpenAICompatibleServer(['{"answer": "x"}'], faults=[refusal]) as server:
            client = openai(server)
            completion = client.complete([Message.user("q")], response_format=ResponseFormat.json_schema("a", SCHEMA))
            formats = [r.json().get("response_format") for r in server.requests]
        self.assertEqual(completion.text, '{"answer": "x"}')
        self.assertEqual([f["type"] for f in formats], ["json_schema", "json_object"])
        self.assertEqual(formats[1], {"type": "json_object", "schema": SCHEMA})
        self.assertEqual(client.json_mode, "json_object_schema")

    def test_schema_in_json_mode_refused_too_falls_back_to_plain_json_mode(self) -> None:
        faults = [Fault.http(400, "Invalid parameter: 'response_format' of type 'json_schema' is not supported."),
                  Fault.http(400, "Invalid parameter: 'response_format.schema' is not supported.")]
        with OpenAICompatibleServer(["{}"], faults=faults) as server:
            client = openai(server)
            client.complete([Message.user("q")], response_format=ResponseFormat.json_schema("a", SCHEMA))
            formats = [r.json().get("response_format") for r in server.requests]
        self.assertEqual(formats[1:], [{"type": "json_object", "schema": SCHEMA}, {"type": "json_object"}])
        self.assertEqual(client.json_mode, "json_object")

    def test_schema_in_json_mode_can_be_chosen_up_front(self) -> None:
        with OpenAICompatibleServer(["{}"]) as server:
            openai(server, json_mode="json_object_schema").complete([Message.user("q")], response_format=ResponseFormat.json_schema("a", SCHEMA))
            with mock.patch.dict(os.environ, {"AGENTIC_RAG_LLM_JSON_MODE": "json_object_schema"}):
                from_env = openai(server)
                from_env.complete([Message.user("q")], response_format=ResponseFormat.json_schema("a", SCHEMA))
            formats = [r.json().get("response_format") for r in server.requests]
        self.assertEqual(formats, [{"type": "json_object", "schema": SCHEMA}] * 2)
        self.assertEqual(from_env.json_mode, "json_object_schema")
        with mock.patch.dict(os.environ, {"AGENTIC_RAG_LLM_JSON_MODE": "grammar"}):
            with self.assertRaises(InvalidInputError) as ctx:
                OpenAICompatibleLLM("http://127.0.0.1:9/v1", "m")
        self.assertIn("AGENTIC_RAG_LLM_JSON_MODE", str(ctx.exception))
        self.assertIn("grammar", str(ctx.exception))

    def test_schema_in_json_mode_leaves_out_bounds_that_grammars_expand(self) -> None:
        bounded = {"type": "object", "required": ["a"], "properties": {
            "a": {"type": "string", "minLength": 1, "maxLength": 3000},
            "b": {"type": "array", "maxItems": 24, "items": {"type": "string", "maxLength": 40}}}}
        with OpenAICompatibleServer(["{}"]) as server:
            openai(server, json_mode="json_object_schema").complete([Message.user("q")], response_format=ResponseFormat.json_schema("a", bounded))
            sent = server.requests[0].json()["response_format"]["schema"]
        self.assertEqual(sent, {"type": "object", "required": ["a"], "properties": {
            "a": {"type": "string", "minLength": 1}, "b": {"type": "array", "items": {"type": "string"}}}})

    def test_other_400s_are_not_retried(self) -> None:
        with OpenAICompatibleServer(["{}"], faults=[Fault.http(400, "The model `m` does not exist.")]) as server:
            with self.assertRaises(ProviderHTTPError) as ctx:
                openai(server).complete([Message.user("q")], response_format=ResponseFormat.json_schema("a", SCHEMA))
            self.assertEqual(len(server.requests), 1)
        self.assertEqual(ctx.exception.status, 400)

    def test_max_completion_tokens_and_extra_body(self) -> None:
        with OpenAICompatibleServer(["ok"]) as server:
            openai(server, token_limit_param="max_completion_tokens", extra_body={"seed": 7}).complete([Message.user("q")], max_tokens=9)
            body = server.requests[0].json()
        self.assertEqual((body["max_completion_tokens"], body["seed"]), (9, 7))
        self.assertNotIn("max_tokens", body)

    def test_usage_is_estimated_when_the_server_reports_none(self) -> None:
        with OpenAICompatibleServer(["twelve chars"], report_usage=False) as server:
            usage = openai(server).complete([Message.user("x" * 40)]).usage
        self.assertEqual((usage.prompt_tokens, usage.completion_tokens, usage.estimated), (10, 3, True))

    def test_answer_without_choices_is_a_provider_error(self) -> None:
        with OpenAICompatibleServer(lambda payload: "unused") as server:
            server.route = lambda request: json_reply({"object": "list"})
            with self.assertRaises(ProviderError) as ctx:
                openai(server).complete([Message.user("q")])
        self.assertIn("choices", str(ctx.exception))

    def test_bad_arguments_are_refused_at_the_boundary(self) -> None:
        with OpenAICompatibleServer() as server:
            llm = openai(server)
            for kwargs in ({"temperature": 3.0}, {"temperature": True}, {"max_tokens": 0}, {"response_format": {"type": "xml"}}):
                with self.subTest(kwargs=kwargs), self.assertRaises(InvalidInputError):
                    llm.complete([Message.user("q")], **kwargs)
            with self.assertRaises(InvalidInputError):
                llm.complete([])
            with self.assertRaises(InvalidInputError):
                llm.complete([{"role": "user"}])  # a message dict without content (good dicts: test_llm_messages.py)
            self.assertEqual(server.requests, ())
        with self.assertRaises(InvalidInputError):
            Message("robot", "x")  # type: ignore[arg-type]


class OpenAIConfigTest(unittest.TestCase):
    def test_reads_the_documented_environment_variables(self) -> None:
        with OpenAICompatibleServer(["ok"], api_key=KEY) as server:
            env = {"AGENTIC_RAG_LLM_BASE_URL": server.url + "/", "AGENTIC_RAG_LLM_MODEL": "env-model", "AGENTIC_RAG_LLM_API_KEY": KEY}
            with mock.patch.dict(os.environ, env):
                llm = OpenAICompatibleLLM(http=HttpOptions(sleep=lambda _s: None))
                llm.complete([Message.user("q")])
            self.assertEqual(server.requests[0].json()["model"], "env-model")
            self.assertEqual(llm.base_url, server.url)

    def test_missing_configuration_names_the_variables(self) -> None:
        with mock.patch.dict(os.environ, {}, clear=True):
            with self.assertRaises(InvalidInputError) as ctx:
                OpenAICompatibleLLM()
        for name in ("AGENTIC_RAG_LLM_BASE_URL", "AGENTIC_RAG_LLM_MODEL"):
            self.assertIn(name, str(ctx.exception))

    def test_pasted_endpoint_suffix_is_stripped(self) -> None:
        llm = OpenAICompatibleLLM("http://localhost:8080/v1/chat/completions", "m")
        self.assertEqual(llm.base_url, "http://localhost:8080/v1")

    def test_key_is_not_in_repr_or_errors(self) -> None:
        with OpenAICompatibleServer(["ok"], api_key="the-right-key") as server:
            llm = openai(server, api_key=KEY)
            with self.assertRaises(ProviderHTTPError) as ctx:
                llm.complete([Message.user("q")])
        self.assertEqual(ctx.exception.status, 401)
        for text in (repr(llm), str(llm), str(ctx.exception), repr(ctx.exception.attempts), repr(vars(llm)), repr(llm.attempts)):
            self.assertNotIn(KEY, text)


class BudgetTest(unittest.TestCase):
    def test_usage_is_charged_to_the_run(self) -> None:
        budget = RunBudget()
        with OpenAICompatibleServer(["one two three"]) as server, use_budget(budget):
            llm = openai(server)
            llm.complete([Message.user("a b")])
            llm.complete([Message.user("c")])
        snap = budget.snapshot()
        self.assertEqual((snap.llm_calls, snap.prompt_tokens, snap.completion_tokens), (2, 3, 6))

    def test_call_cap_stops_before_sending(self) -> None:
        budget = RunBudget(max_llm_calls=1)
        with OpenAICompatibleServer(["ok"]) as server, use_budget(budget):
            llm = openai(server)
            llm.complete([Message.user("q")])
            with self.assertRaises(BudgetExhaustedError) as ctx:
                llm.complete([Message.user("q")])
            self.assertEqual(len(server.requests), 1)
        self.assertEqual(ctx.exception.reason, "call_budget")

    def test_token_cap_stops_the_next_call(self) -> None:
        budget = RunBudget(max_tokens=5)
        with OpenAICompatibleServer(["a b c d e f"]) as server, use_budget(budget):
            llm = openai(server)
            llm.complete([Message.user("q")])
            with self.assertRaises(BudgetExhaustedError) as ctx:
                llm.complete([Message.user("q")])
        self.assertEqual(ctx.exception.reason, "token_budget")

    def test_failed_call_counts_as_a_call_without_tokens(self) -> None:
        budget = RunBudget()
        with OpenAICompatibleServer(["ok"], faults=[Fault.http(400)]) as server, use_budget(budget):
            with self.assertRaises(ProviderHTTPError):
                openai(server).complete([Message.user("q")])
        snap = budget.snapshot()
        self.assertEqual((snap.llm_calls, snap.prompt_tokens), (1, 0))


class AnthropicTest(unittest.TestCase):
    def test_sends_a_messages_request_with_system_separated(self) -> None:
        with AnthropicServer(["Hello!"], api_key=KEY) as server:
            llm = AnthropicLLM(server.url, "claude-test", KEY, **NO_SLEEP)
            completion = llm.complete(
                [Message.system("Be kind."), Message.user("Hi"), Message.user("there"), Message.assistant("Yes?"), Message.user("Bye")],
                max_tokens=64,
            )
            request = server.requests[0]
        self.assertEqual(request.path, "/v1/messages")
        self.assertEqual(request.header("x-api-key"), KEY)
        self.assertEqual(request.header("anthropic-version"), "2023-06-01")
        self.assertIsNone(request.header("authorization"))
        body = request.json()
        self.assertEqual(body["system"], "Be kind.")
        self.assertEqual([m["role"] for m in body["messages"]], ["user", "assistant", "user"])
        self.assertEqual(body["messages"][0]["content"], "Hi\n\nthere")
        self.assertEqual(body["max_tokens"], 64)
        self.assertEqual(completion.text, "Hello!")
        self.assertEqual(completion.finish_reason, "end_turn")
        self.assertEqual((completion.usage.prompt_tokens, completion.usage.completion_tokens), (6, 1))

    def test_json_format_becomes_a_system_instruction(self) -> None:
        with AnthropicServer(['{"a": 1}']) as server:
            AnthropicLLM(server.url, "m", "k-123").complete([Message.user("q")], response_format={"type": "json_object"})
            self.assertIn("single JSON object", server.requests[0].json()["system"])

    def test_overloaded_529_is_retried_and_401_is_not(self) -> None:
        with AnthropicServer(["ok"], faults=[Fault.http(529, "Overloaded")]) as server:
            completion = AnthropicLLM(server.url, "m", "k-123", **NO_SLEEP).complete([Message.user("q")])
        self.assertEqual([a.status for a in completion.attempts], [529, 200])
        with AnthropicServer(["ok"], api_key="right") as server:
            llm = AnthropicLLM(server.url, "m", KEY, **NO_SLEEP)
            with self.assertRaises(ProviderHTTPError) as ctx:
                llm.complete([Message.user("q")])
            self.assertEqual(len(server.requests), 1)
        self.assertEqual(ctx.exception.status, 401)
        self.assertIn("authentication_error", str(ctx.exception))
        self.assertNotIn(KEY, str(ctx.exception) + repr(llm))

    def test_environment_and_missing_configuration(self) -> None:
        with AnthropicServer(["ok"]) as server:
            env = {"ANTHROPIC_API_KEY": KEY, "ANTHROPIC_MODEL": "claude-env", "ANTHROPIC_BASE_URL": server.url + "/v1"}
            with mock.patch.dict(os.environ, env):
                AnthropicLLM().complete([Message.user("q")])
            self.assertEqual(server.requests[0].json()["model"], "claude-env")
        with mock.patch.dict(os.environ, {}, clear=True), self.assertRaises(InvalidInputError) as ctx:
            AnthropicLLM()
        self.assertIn("ANTHROPIC_API_KEY", str(ctx.exception))

    def test_only_system_messages_or_high_temperature_are_refused(self) -> None:
        llm = AnthropicLLM("http://127.0.0.1:9", "m", "k-123")
        with self.assertRaises(InvalidInputError):
            llm.complete([Message.system("only")])
        with self.assertRaises(InvalidInputError):
            llm.complete([Message.user("q")], temperature=1.5)

    def test_budget_is_charged(self) -> None:
        budget = RunBudget(max_llm_calls=1)
        with AnthropicServer(["a b"]) as server, use_budget(budget):
            llm = AnthropicLLM(server.url, "m", "k-123")
            llm.complete([Message.user("q")])
            with self.assertRaises(BudgetExhaustedError):
                llm.complete([Message.user("q")])
        self.assertEqual(budget.snapshot().completion_tokens, 2)


if __name__ == "__main__":
    unittest.main()
