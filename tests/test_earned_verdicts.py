"""`answered` is earned by the claims, in both workflows, end to end over a store."""

from __future__ import annotations

import unittest

from cli_support import indexed_service

CONFIG = """# Configuration

## Builtin values

SESSION_COOKIE_NAME
The name of the session cookie. Can be changed in case you already have a
cookie with the same name.

Default: 'session'

SESSION_COOKIE_PATH
The path that the session cookie will be valid for.

## Pager

The pager shows long output one screen at a time. It reads the PAGER variable.
"""

SERVER = """# Server

The development server reloads the code when a file changes. Pass --port to choose the port;
the server listens on port 5000 unless told otherwise.
"""


class EarnedVerdictEndToEndTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.service = indexed_service(cls, {"config.md": CONFIG, "server.md": SERVER}, "configuration and server docs")

    def test_a_claim_holding_the_asked_default_is_answered(self) -> None:
        for mode in ("agentic", "parallel"):
            with self.subTest(mode=mode):
                payload = self.service.ask("What is the default value of SESSION_COOKIE_NAME?", mode).payload
                self.assertEqual(payload["status"], "answered", payload["answer"])
                self.assertIn("'session'", payload["answer"])

    def test_a_passage_only_about_the_topic_is_partial_with_its_evidence(self) -> None:
        question = "What is the default maximum body size of a request?"
        for mode in ("agentic", "parallel"):
            with self.subTest(mode=mode):
                payload = self.service.ask(question, mode).payload
                self.assertNotEqual(payload["status"], "answered", payload["answer"])
                self.assertTrue(all("focus_text" in item and "text" not in item for item in payload["evidence"]))

    def test_a_number_asked_for_must_be_stated(self) -> None:
        for mode in ("agentic", "parallel"):
            with self.subTest(mode=mode):
                answered = self.service.ask("Which port does the development server listen on?", mode).payload
                self.assertEqual(answered["status"], "answered", answered["answer"])
                self.assertIn("5000", answered["answer"])
                topic_only = self.service.ask("How many seconds does the development server wait before it reloads?", mode).payload
                self.assertNotEqual(topic_only["status"], "answered", topic_only["answer"])


if __name__ == "__main__":
    unittest.main()
