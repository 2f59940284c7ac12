"""Tests for the Porter and Snowball English stemmers.

The vocabulary tests compare every word of the official test vocabularies, kept in
``../shared/data/stemmer/`` relative to the repo root (``porter/`` and ``english/``,
each with ``voc.txt.gz`` and ``output.txt.gz``, line N of one being the stem of line N
of the other). They skip when that folder is absent; the hand-picked cases always run.
"""

from __future__ import annotations

import gzip
import threading
import unittest
from collections.abc import Callable
from pathlib import Path

from agentic_rag._errors import InvalidInputError
from agentic_rag._text.porter import PorterStemmer
from agentic_rag._text.snowball import SnowballEnglishStemmer

_STEMMER_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "stemmer"


def _read_lines(path: Path) -> list[str]:
    """Return the lines of a gzipped UTF-8 word list, without a final empty line."""
    with gzip.open(path, "rt", encoding="utf-8", newline="") as handle:
        lines = handle.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


class _VocabularyCase(unittest.TestCase):
    """Shared check: a stemmer reproduces a whole test vocabulary word for word."""

    def check_vocabulary(
        self, folder_name: str, stem: Callable[[str], str], expected_count: int
    ) -> None:
        folder = _STEMMER_DATA / folder_name
        voc_path, out_path = folder / "voc.txt.gz", folder / "output.txt.gz"
        if not (voc_path.is_file() and out_path.is_file()):
            self.skipTest(
                f"test vocabulary not found: expected ../shared/data/stemmer/{folder_name}/"
                "voc.txt.gz and output.txt.gz next to the repo"
            )
        words, stems = _read_lines(voc_path), _read_lines(out_path)
        self.assertEqual(len(words), len(stems), "voc and output line counts differ")
        self.assertEqual(len(words), expected_count, "unexpected vocabulary size")
        mismatches = [
            (word, want, got)
            for word, want in zip(words, stems)
            if (got := stem(word)) != want
        ]
        if mismatches:
            shown = "\n".join(f"  {w!r}: expected {e!r}, got {g!r}" for w, e, g in mismatches[:20])
            self.fail(f"{len(mismatches)} of {len(words)} words mismatch; first 20:\n{shown}")


class PorterVocabularyTest(_VocabularyCase):
    def test_every_word_of_porter_vocabulary(self) -> None:
        self.check_vocabulary("porter", PorterStemmer(cache_size=0).stem, 23531)


class SnowballVocabularyTest(_VocabularyCase):
    def test_every_word_of_snowball_english_vocabulary(self) -> None:
        self.check_vocabulary("english", SnowballEnglishStemmer(cache_size=0).stem, 42649)


class PorterKnownCasesTest(unittest.TestCase):
    def setUp(self) -> None:
        self.stemmer = PorterStemmer()

    def assertStems(self, cases: dict[str, str]) -> None:
        for word, expected in cases.items():
            with self.subTest(word=word):
                self.assertEqual(self.stemmer.stem(word), expected)

    def test_paper_examples(self) -> None:
        self.assertStems({
            "caresses": "caress", "ponies": "poni", "ties": "ti", "cats": "cat",
            "feed": "feed", "agreed": "agre", "hopping": "hop", "falling": "fall",
            "filing": "file", "happy": "happi", "relational": "relat",
            "rational": "ration", "generalization": "gener", "hopefulness": "hope",
            "adjustment": "adjust", "adoption": "adopt", "controll": "control",
            "cease": "ceas", "communism": "commun",
        })

    def test_reference_implementation_departures(self) -> None:
        self.assertStems({
            "as": "as", "is": "is", "a": "a",  # length <= 2 untouched
            "archaeology": "archaeolog", "analogy": "analog",  # -logi -> -log
            "possibly": "possibl", "sensibiliti": "sensibl",  # -bli -> -ble
        })


class SnowballKnownCasesTest(unittest.TestCase):
    def setUp(self) -> None:
        self.stemmer = SnowballEnglishStemmer()

    def assertStems(self, cases: dict[str, str]) -> None:
        for word, expected in cases.items():
            with self.subTest(word=word):
                self.assertEqual(self.stemmer.stem(word), expected)

    def test_common_words(self) -> None:
        self.assertStems({
            "generously": "generous", "caresses": "caress", "ponies": "poni",
            "ties": "tie", "happy": "happi", "hopping": "hop", "added": "add",
            "generalization": "general", "communism": "communism", "rational": "ration",
        })

    def test_exceptional_forms(self) -> None:
        self.assertStems({
            "dying": "die", "lying": "lie", "skies": "sky", "skis": "ski", "news": "news",
            "early": "earli", "inning": "inning", "innings": "inning", "exceed": "exceed",
            "succeeding": "succeed", "atlas": "atlas",
        })

    def test_y_handling(self) -> None:
        self.assertStems({
            "sky": "sky", "cry": "cri", "say": "say", "yield": "yield", "enjoying": "enjoy",
        })

    def test_r1_prefixes(self) -> None:
        self.assertStems({
            "universal": "universal", "university": "universiti", "pasted": "paste",
            "internal": "internal", "international": "internat", "interfered": "interfer",
            "emergency": "emergenc", "arsenal": "arsenal",
        })

    def test_apostrophes(self) -> None:
        self.assertStems({"there's": "there", "'a'": "a", "a''": "a'"})


class StemmerContractTest(unittest.TestCase):
    def test_rejects_non_string_words(self) -> None:
        for stemmer in (PorterStemmer(), SnowballEnglishStemmer()):
            with self.subTest(stemmer=type(stemmer).__name__):
                with self.assertRaises(InvalidInputError):
                    stemmer.stem(b"running")  # type: ignore[arg-type]
                with self.assertRaises(InvalidInputError):
                    stemmer.stem(None)  # type: ignore[arg-type]

    def test_rejects_bad_cache_size(self) -> None:
        for cls in (PorterStemmer, SnowballEnglishStemmer):
            for bad in (-1, 1.5, True, "10"):
                with self.subTest(cls=cls.__name__, cache_size=bad):
                    with self.assertRaises(InvalidInputError):
                        cls(cache_size=bad)  # type: ignore[arg-type]

    def test_memo_does_not_change_results(self) -> None:
        words = ["running", "generously", "relational", "skies", "universal", "a", ""]
        for cls in (PorterStemmer, SnowballEnglishStemmer):
            with self.subTest(cls=cls.__name__):
                cached, uncached, tiny = cls(), cls(cache_size=0), cls(cache_size=2)
                expected = [uncached.stem(w) for w in words]
                self.assertEqual([cached.stem(w) for w in words * 2], expected * 2)
                self.assertEqual([tiny.stem(w) for w in words * 2], expected * 2)

    def test_shared_instance_across_threads(self) -> None:
        words = ["connection", "connected", "connecting", "generalizations", "hopeful"] * 200
        for cls in (PorterStemmer, SnowballEnglishStemmer):
            shared, reference = cls(cache_size=8), cls(cache_size=0)
            expected = [reference.stem(w) for w in words]
            results: list[list[str]] = [[] for _ in range(4)]

            def work(slot: int) -> None:
                results[slot] = [shared.stem(w) for w in words]

            threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            with self.subTest(cls=cls.__name__):
                self.assertEqual(results, [expected] * 4)


if __name__ == "__main__":
    unittest.main()
