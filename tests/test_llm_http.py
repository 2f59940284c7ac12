"""Tests for the JSON HTTP client: retries, Retry-After, deadlines, error mapping, redaction."""

from __future__ import annotations

import email.utils
import random
import unittest

from agentic_rag._budget import RunBudget, use_budget
from agentic_rag._errors import BudgetExhaustedError, InvalidInputError, ProviderError, ProviderHTTPError, ProviderTimeoutError
from agentic_rag.llm import HttpRequest, HttpResponse, JsonHttpClient, RetryPolicy, Secret
from agentic_rag._http.client import provider_message
from agentic_rag._http.redaction import redact_url, scrub
from agentic_rag._http.retry import parse_retry_after
from agentic_rag.testing import Fault, OpenAICompatibleServer

KEY = "sk-test-SECRET-4242424242"


class Sleeps:
    """Records the waits instead of sleeping."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


def client(sleep: Sleeps, **kwargs) -> JsonHttpClient:
    kwargs.setdefault("timeout_s", 2.0)
    return JsonHttpClient(stage="test", sleep=sleep, rng=random.Random(7), **kwargs)


def chat_payload() -> dict:
    return {"model": "m", "messages": [{"role": "user", "content": "hi"}]}


class RetryTest(unittest.TestCase):
    def test_429_with_retry_after_seconds_is_waited_then_succeeds(self) -> None:
        sleeps = Sleeps()
        with OpenAICompatibleServer(["fine"], faults=[Fault.http(429, "slow down", retry_after="3")]) as server:
            result = client(sleeps).post_json(f"{server.url}/chat/completions", chat_payload())
        self.assertEqual(result.status, 200)
        self.assertEqual(sleeps.delays, [3.0])
        self.assertEqual([a.status for a in result.attempts], [429, 200])
        self.assertEqual(result.attempts[0].retry_delay_s, 3.0)
        self.assertIn("slow down", result.attempts[0].error)

    def test_every_retryable_status_is_retried(self) -> None:
        for status in (408, 409, 425, 429, 500, 502, 503, 504, 529):
            with self.subTest(status=status):
                sleeps = Sleeps()
                with OpenAICompatibleServer(["ok"], faults=[Fault.http(status)]) as server:
                    result = client(sleeps).post_json(f"{server.url}/chat/completions", chat_payload())
                self.assertEqual([a.status for a in result.attempts], [status, 200])

    def test_500_then_success_uses_full_jitter_backoff(self) -> None:
        sleeps = Sleeps()
        policy = RetryPolicy(max_retries=3, base_delay_s=0.5, max_delay_s=20.0)
        with OpenAICompatibleServer(["ok"], faults=[Fault.http(500), Fault.http(503)]) as server:
            client(sleeps, retry=policy).post_json(f"{server.url}/chat/completions", chat_payload())
        rng = random.Random(7)
        self.assertEqual(sleeps.delays, [rng.uniform(0, 0.5), rng.uniform(0, 1.0)])

    def test_gives_up_after_max_retries_with_status_and_message(self) -> None:
        sleeps = Sleeps()
        faults = [Fault.http(503, "overloaded, try later")] * 3
        with OpenAICompatibleServer(["ok"], faults=faults) as server:
            with self.assertRaises(ProviderHTTPError) as ctx:
                client(sleeps, retry=RetryPolicy(max_retries=2)).post_json(f"{server.url}/chat/completions", chat_payload())
            self.assertEqual(len(server.requests), 3)
        self.assertEqual(ctx.exception.status, 503)
        self.assertIn("overloaded, try later", str(ctx.exception))
        self.assertIn("gave up after 3 attempts", str(ctx.exception))
        self.assertEqual(len(ctx.exception.attempts), 3)
        self.assertIsNone(ctx.exception.attempts[-1].retry_delay_s)

    def test_other_4xx_are_not_retried(self) -> None:
        for status in (400, 401, 403, 404, 422):
            with self.subTest(status=status):
                sleeps = Sleeps()
                with OpenAICompatibleServer(["ok"], faults=[Fault.http(status, "bad thing")]) as server:
                    with self.assertRaises(ProviderHTTPError) as ctx:
                        client(sleeps).post_json(f"{server.url}/chat/completions", chat_payload())
                    self.assertEqual(len(server.requests), 1)
                self.assertEqual(ctx.exception.status, status)
                self.assertEqual(sleeps.delays, [])
                self.assertIn("bad thing", ctx.exception.message)

    def test_a_status_whose_body_says_the_request_is_invalid_is_not_retried(self) -> None:
        # llama-cpp-python's server answers a request it cannot validate with a 500.
        invalid = ("1 validation error for CreateChatCompletionRequest response_format.type "
                   "Input should be 'text' or 'json_object' [type=literal_error, input_value='json_schema', input_type=str]")
        for status, message in ((500, invalid), (503, "Field required: body.messages"), (429, "Extra inputs are not permitted")):
            with self.subTest(status=status):
                sleeps = Sleeps()
                with OpenAICompatibleServer(["ok"], faults=[Fault.http(status, message)]) as server:
                    with self.assertRaises(ProviderHTTPError) as ctx:
                        client(sleeps).post_json(f"{server.url}/chat/completions", chat_payload())
                    self.assertEqual(len(server.requests), 1)
                self.assertEqual((ctx.exception.status, sleeps.delays), (status, []))
                self.assertIn(message.split()[0], ctx.exception.message)

    def test_only_validation_errors_count_as_invalid_requests(self) -> None:
        self.assertTrue(RetryPolicy.says_request_invalid("Input should be 'text' or 'json_object'"))
        for message in ("The server had an error while processing your request.", "overloaded, try later", "Bad gateway"):
            with self.subTest(message=message):
                self.assertFalse(RetryPolicy.says_request_invalid(message))
                self.assertTrue(RetryPolicy.is_retryable_response(503, message))
        self.assertFalse(RetryPolicy.is_retryable_response(500, "1 validation error for CreateChatCompletionRequest"))

    def test_retry_after_longer_than_policy_allows_is_not_waited(self) -> None:
        sleeps = Sleeps()
        with OpenAICompatibleServer(["ok"], faults=[Fault.http(429, retry_after="3600")]) as server:
            with self.assertRaises(ProviderHTTPError) as ctx:
                client(sleeps, retry=RetryPolicy(max_retry_after_s=60)).post_json(f"{server.url}/chat/completions", chat_payload())
        self.assertEqual(sleeps.delays, [])
        self.assertIn("Retry-After", str(ctx.exception))

    def test_slow_response_times_out(self) -> None:
        sleeps = Sleeps()
        with OpenAICompatibleServer(["ok"], faults=[Fault.slow(3.0)]) as server:
            with self.assertRaises(ProviderTimeoutError) as ctx:
                client(sleeps, timeout_s=0.2, retry=RetryPolicy(max_retries=0)).post_json(f"{server.url}/chat/completions", chat_payload())
        self.assertIn("did not answer within", str(ctx.exception))
        self.assertIsNone(ctx.exception.attempts[0].status)

    def test_timeout_is_retried_and_then_succeeds(self) -> None:
        sleeps = Sleeps()
        with OpenAICompatibleServer(["ok"], faults=[Fault.slow(3.0)]) as server:
            result = client(sleeps, timeout_s=0.2).post_json(f"{server.url}/chat/completions", chat_payload())
        self.assertEqual([a.status for a in result.attempts], [None, 200])

    def test_malformed_json_is_a_provider_error_without_retry(self) -> None:
        sleeps = Sleeps()
        with OpenAICompatibleServer(["ok"], faults=[Fault.malformed_json()]) as server:
            with self.assertRaises(ProviderError) as ctx:
                client(sleeps).post_json(f"{server.url}/chat/completions", chat_payload())
            self.assertEqual(len(server.requests), 1)
        self.assertNotIsInstance(ctx.exception, ProviderHTTPError)
        self.assertIn("malformed JSON", str(ctx.exception))

    def test_dropped_connection_is_retried(self) -> None:
        sleeps = Sleeps()
        with OpenAICompatibleServer(["ok"], faults=[Fault.drop()]) as server:
            result = client(sleeps).post_json(f"{server.url}/chat/completions", chat_payload())
        self.assertEqual(result.attempts[0].status, None)
        self.assertEqual(result.attempts[-1].status, 200)

    def test_connection_refused_is_a_provider_error(self) -> None:
        server = OpenAICompatibleServer().start()
        url = server.url
        server.stop()
        with self.assertRaises(ProviderError) as ctx:
            client(Sleeps(), retry=RetryPolicy(max_retries=0)).post_json(f"{url}/chat/completions", chat_payload())
        self.assertIn("failed", str(ctx.exception))

    def test_client_trace_is_bounded(self) -> None:
        with OpenAICompatibleServer(["ok"]) as server:
            http = client(Sleeps(), trace_limit=2)
            for _ in range(3):
                http.post_json(f"{server.url}/chat/completions", chat_payload())
        self.assertEqual(len(http.attempts), 2)


class DeadlineTest(unittest.TestCase):
    def test_retry_wait_past_the_deadline_is_not_taken(self) -> None:
        sleeps = Sleeps()
        budget = RunBudget(deadline_s=1.0)
        with OpenAICompatibleServer(["ok"], faults=[Fault.http(429, retry_after="5")]) as server:
            with use_budget(budget), self.assertRaises(ProviderHTTPError) as ctx:
                client(sleeps).post_json(f"{server.url}/chat/completions", chat_payload())
        self.assertEqual(sleeps.delays, [])
        self.assertIn("deadline", str(ctx.exception))

    def test_attempt_timeout_is_capped_by_the_deadline(self) -> None:
        budget = RunBudget(deadline_s=0.3)
        with OpenAICompatibleServer(["ok"], faults=[Fault.slow(3.0)]) as server:
            with use_budget(budget), self.assertRaises(ProviderTimeoutError):
                client(Sleeps(), timeout_s=60.0).post_json(f"{server.url}/chat/completions", chat_payload())

    def test_passed_deadline_raises_budget_exhausted_before_sending(self) -> None:
        now = [0.0]
        budget = RunBudget(deadline_s=1.0, clock=lambda: now[0])
        now[0] = 2.0
        with OpenAICompatibleServer(["ok"]) as server:
            with use_budget(budget), self.assertRaises(BudgetExhaustedError) as ctx:
                client(Sleeps()).post_json(f"{server.url}/chat/completions", chat_payload())
            self.assertEqual(server.requests, ())
        self.assertEqual(ctx.exception.reason, "deadline")


class RetryAfterTest(unittest.TestCase):
    def test_parses_seconds_dates_and_milliseconds(self) -> None:
        now = 1_700_000_000.0
        date = email.utils.formatdate(now + 4, usegmt=True)
        cases = [
            ((("retry-after", "2"),), 2.0),
            ((("retry-after", " 1.5 "),), 1.5),
            ((("retry-after", date),), 4.0),
            ((("retry-after", email.utils.formatdate(now - 30, usegmt=True)),), 0.0),
            ((("retry-after-ms", "250"), ("retry-after", "9")), 0.25),
            ((("retry-after", "soon"),), None),
            ((), None),
        ]
        for headers, expected in cases:
            with self.subTest(headers=headers):
                self.assertEqual(parse_retry_after(HttpResponse(429, headers), now=now), expected)

    def test_http_date_retry_after_is_honoured_by_the_client(self) -> None:
        sleeps = Sleeps()
        now = 1_700_000_000.0
        with OpenAICompatibleServer(["ok"], faults=[Fault.http(503, retry_after=email.utils.formatdate(now + 2, usegmt=True))]) as server:
            http = JsonHttpClient(sleep=sleeps, wall_clock=lambda: now)
            http.post_json(f"{server.url}/chat/completions", chat_payload())
        self.assertEqual(sleeps.delays, [2.0])


class MessagesTest(unittest.TestCase):
    def test_provider_messages_from_each_error_shape(self) -> None:
        cases = [
            (b'{"error": {"message": "Rate limit reached", "type": "requests"}}', "requests: Rate limit reached"),
            (b'{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}', "overloaded_error: Overloaded"),
            (b'{"error": "model \\"x\\" not found"}', 'model "x" not found'),
            (b'{"error": {"root_cause": [], "type": "index_not_found_exception", "reason": "no such index [a]"}, "status": 404}',
             "index_not_found_exception: no such index [a]"),
            (b'{"error": {"code": 403, "message": "Permission denied", "status": "PERMISSION_DENIED"}}', "PERMISSION_DENIED: Permission denied"),
            (b'{"detail": "Not Found"}', "Not Found"),
            (b"<html>Bad Gateway</html>", "<html>Bad Gateway</html>"),
            (b"", "(empty body)"),
        ]
        for body, expected in cases:
            with self.subTest(body=body):
                self.assertEqual(provider_message(body), expected)

    def test_secrets_are_scrubbed_from_provider_messages(self) -> None:
        body = f'{{"error": {{"message": "Incorrect API key provided: {KEY}"}}}}'.encode()
        self.assertNotIn(KEY, provider_message(body, [KEY]))
        self.assertNotIn("abcdefgh12345678", scrub("got Bearer abcdefgh12345678", []))

    def test_urls_lose_user_info_and_key_parameters(self) -> None:
        shown = redact_url(f"https://user:pw@example.com/v1/x?key={KEY}&alt=json")
        self.assertNotIn(KEY, shown)
        self.assertNotIn("pw", shown)
        self.assertIn("alt=json", shown)


class RedactionTest(unittest.TestCase):
    def test_key_never_reaches_repr_errors_traces_or_logs(self) -> None:
        headers = {"Authorization": f"Bearer {KEY}", "x-api-key": KEY}
        request = HttpRequest("POST", "http://127.0.0.1/x", tuple(headers.items()), b"{}")
        self.assertNotIn(KEY, repr(request))
        self.assertNotIn(KEY, repr(Secret(KEY)))
        self.assertNotIn(KEY, str(Secret(KEY)))
        with OpenAICompatibleServer(["ok"], api_key="another-key", faults=[Fault.http(500, f"echo {KEY}")]) as server:
            http = client(Sleeps())
            with self.assertLogs("agentic_rag.http", level="DEBUG") as logs, self.assertRaises(ProviderHTTPError) as ctx:
                http.request("POST", f"{server.url}/chat/completions?key={KEY}", headers=headers, body=b"{}")
        everything = " ".join([str(ctx.exception), repr(ctx.exception.attempts), repr(http.attempts), *logs.output])
        self.assertNotIn(KEY, everything)
        self.assertEqual(ctx.exception.status, 401)

    def test_bad_options_are_refused(self) -> None:
        with self.assertRaises(InvalidInputError):
            RetryPolicy(max_retries=-1)
        with self.assertRaises(InvalidInputError):
            JsonHttpClient(timeout_s=0)
        with self.assertRaises(InvalidInputError):
            HttpRequest("GET", "file:///etc/passwd")


if __name__ == "__main__":
    unittest.main()
