"""The analyzer's ASCII fast path gives exactly the tokens of the general path."""

from __future__ import annotations

import random
import re
import string
import unicodedata
import unittest

from agentic_rag._text.analyzer import MAX_TOKEN_LENGTH, Analyzer

_WORD = re.compile(r"[^\W_]+")


def general_tokens(text: str) -> list[str]:
    """The general path written out: NFKC, case folding, Unicode words, over-long words dropped."""
    words = _WORD.findall(unicodedata.normalize("NFKC", text).casefold())
    return [w for w in words if len(w) <= MAX_TOKEN_LENGTH]


class AsciiFastPathTest(unittest.TestCase):
    def test_random_ascii_text_tokenises_as_the_general_path(self):
        rng = random.Random(20261201)
        alphabet = string.printable + "_" * 5
        analyzer = Analyzer()
        for _ in range(3000):
            text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 120)))
            if rng.random() < 0.05:
                text += "x" * rng.randint(250, 300)  # an over-long token
            with self.subTest(text=text[:60]):
                self.assertEqual(analyzer.tokenize(text), general_tokens(text))

    def test_ascii_edge_cases(self):
        analyzer = Analyzer()
        for text in ("", "   ", "snake_case_name", "Mixed CASE and 123 numbers", "a-b/c.d", "x" * 300 + " ok",
                     "tab\tand\nnew\rlines", "\x00\x1f control"):
            with self.subTest(text=text[:40]):
                self.assertEqual(analyzer.tokenize(text), general_tokens(text))


if __name__ == "__main__":
    unittest.main()
