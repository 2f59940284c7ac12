"""The second stage's signals beyond word coverage: a passage that keeps the question's word
pairs together, and one whose focus names a thing made of the question's words, come before a
near miss that holds the same words as well."""

from __future__ import annotations

import dataclasses
import unittest

from agentic_rag._store.records import StoreHit
from agentic_rag._store.second_stage import DEFAULT_WEIGHTS, finish_hits
from agentic_rag._text.relevance import RelevanceModel

# Every hit is printed, so the order is the ranking's alone.
ALL = dataclasses.replace(DEFAULT_WEIGHTS, keep_ratio=0.0)


def _hit(chunk_id: str, text: str, score: float = 5.0) -> StoreHit:
    path = chunk_id.partition("#")[0]
    marks, offset = [], 0
    for n, line in enumerate(text.split("\n")):
        marks.append((offset, 1 + n))
        offset += len(line) + 1
    return StoreHit(chunk_id, path, 1, len(marks), score, text, "docs", "", line_marks=tuple(marks))


class WordPairsSignalTest(unittest.TestCase):
    # Both passages hold every word of the question in one statement, with the same BM25
    # score; the chunk id alone would put the near miss first.
    QUESTION = "What address does the development server listen on by default?"
    NEAR_MISS = _hit("a.md#0", "The address that the log prints beside every incoming request is described first; development tools "
                               "such as debuggers, reloaders and profilers come next; then each server option, worker count and timeout; "
                               "sockets listen after startup, and the chapter ends with every default.")
    ANSWER = _hit("b.md#0", "The development server listens on an address of its own by default: 127.0.0.1:5000.")

    def test_the_passage_that_keeps_the_question_s_words_together_comes_first(self):
        hits = finish_hits(self.QUESTION, [self.NEAR_MISS, self.ANSWER], RelevanceModel(), 2, weights=ALL)
        self.assertEqual([h.path for h in hits], ["b.md", "a.md"])

    def test_without_the_signal_the_near_miss_stays_first(self):
        unpaired = dataclasses.replace(ALL, pairs=0.0)
        hits = finish_hits(self.QUESTION, [self.NEAR_MISS, self.ANSWER], RelevanceModel(), 2, weights=unpaired)
        self.assertEqual([h.path for h in hits], ["a.md", "b.md"])


class ComposedNamesSignalTest(unittest.TestCase):
    # The same words, the same BM25 score and one name each: only the answer's name is made
    # of the question's words.
    QUESTION = "Is there a logger that simply returns whatever you pass to it?"
    NEAR_MISS = _hit("a.md#0", "PrintLogger is a logger that never simply returns whatever you pass to it: it prints it.")
    ANSWER = _hit("b.md#0", "ReturnLogger is a logger that simply returns whatever you pass to it, for tests.")

    def test_the_focus_naming_a_thing_in_the_question_s_words_comes_first(self):
        hits = finish_hits(self.QUESTION, [self.NEAR_MISS, self.ANSWER], RelevanceModel(), 2, weights=ALL)
        self.assertEqual([h.path for h in hits], ["b.md", "a.md"])

    def test_without_the_signal_the_near_miss_stays_first(self):
        unnamed = dataclasses.replace(ALL, names=0.0)
        hits = finish_hits(self.QUESTION, [self.NEAR_MISS, self.ANSWER], RelevanceModel(), 2, weights=unnamed)
        self.assertEqual([h.path for h in hits], ["a.md", "b.md"])


if __name__ == "__main__":
    unittest.main()
