"""Pins the public surface of agentic_rag.llm, agentic_rag.providers and agentic_rag.testing."""

from __future__ import annotations

import importlib
import inspect
import unittest

PACKAGES = ("agentic_rag.llm", "agentic_rag.providers", "agentic_rag.testing")


class PublicApiTest(unittest.TestCase):
    def test_all_is_sorted_and_equals_the_names_defined(self) -> None:
        for name in PACKAGES:
            with self.subTest(package=name):
                package = importlib.import_module(name)
                exported = list(package.__all__)
                self.assertEqual(exported, sorted(exported))
                defined = {n for n, v in vars(package).items() if not n.startswith("_") and not inspect.ismodule(v) and n != "annotations"}
                self.assertEqual(set(exported), defined)

    def test_names_the_acceptance_checks_use(self) -> None:
        from agentic_rag.llm import AnthropicLLM, OpenAICompatibleLLM

        params = list(inspect.signature(OpenAICompatibleLLM).parameters)
        self.assertEqual(params[:5], ["base_url", "model", "api_key", "timeout_s", "max_retries"])
        self.assertIn("api_key", inspect.signature(AnthropicLLM).parameters)

    def test_public_callables_have_docstrings(self) -> None:
        for name in PACKAGES:
            package = importlib.import_module(name)
            for attr in package.__all__:
                value = getattr(package, attr)
                if inspect.isclass(value) or inspect.isfunction(value):
                    with self.subTest(name=f"{name}.{attr}"):
                        self.assertTrue((value.__doc__ or "").strip())


if __name__ == "__main__":
    unittest.main()
