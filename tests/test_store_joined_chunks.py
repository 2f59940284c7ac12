"""A printed hit joined with the consecutive chunks of its section that the first stage found:
its text and lines cover them, its focus shows their best statements, its rank is unchanged."""

from __future__ import annotations

import dataclasses
import unittest

from agentic_rag._store.joined_chunks import MAX_JOINED, join_printed, view_joined
from agentic_rag._store.records import StoreHit
from agentic_rag._store.second_stage import DEFAULT_WEIGHTS, finish_hits
from agentic_rag._text.focus import view_passage
from agentic_rag._text.relevance import RelevanceModel
from marks_support import marks_of

SECTION = "random — Generate pseudo-random numbers"
# The chunker opens a chunk with the previous one's last sentences: line 14 stands in both.
FIRST = ("The random module implements pseudo-random number generators for various distributions.\n\n"
         "Almost all module functions depend on the basic function random().\n\n"
         "It generates a random float uniformly in the half-open range 0.0 <= X < 1.0.")
SECOND = ("It generates a random float uniformly in the half-open range 0.0 <= X < 1.0.\n\n"
          "Python uses the Mersenne Twister as the core generator.\n"
          "The period of the pseudo-random generator behind the random module is 2**19937-1.")
QUESTION = "What's the period of the pseudo-random generator behind the random module?"


def _hit(n: int, text: str, first_line: int, score: float = 5.0, *, section: str = SECTION, path: str = "library/random.html") -> StoreHit:
    return StoreHit(f"{path}#{n}", path, first_line, first_line + text.count("\n"), score, text, "docs", section,
                    line_marks=marks_of(text, first_line))


class JoinPrintedTest(unittest.TestCase):
    def setUp(self) -> None:
        self.first, self.second = _hit(3, FIRST, 10, 9.0), _hit(4, SECOND, 14, 4.0)
        self.other = _hit(1, "Unrelated text about the secrets module.", 1, 6.0, path="library/secrets.html")

    def test_the_found_next_chunk_is_joined_without_its_repeated_lines(self):
        joined = join_printed([self.first], [self.first, self.other, self.second])[self.first.chunk_id]
        hit = joined.hit
        self.assertEqual((hit.chunk_id, hit.start_line, hit.end_line, hit.score), ("library/random.html#3", 10, 17, 9.0))
        self.assertEqual(hit.text.count("It generates a random float"), 1)
        self.assertTrue(hit.text.startswith(FIRST) and hit.text.endswith(SECOND.split("\n\n", 1)[1]))
        at = hit.text.index("Python uses")
        self.assertIn((at, 16), hit.line_marks)
        self.assertEqual([m.chunk_id for m in joined.members], [self.first.chunk_id, self.second.chunk_id])
        self.assertEqual(joined.last, self.second.chunk_id)
        # The repeated sentence of the second chunk stands where the first chunk has it.
        self.assertEqual(joined.offset(1, 0), FIRST.index("It generates"))

    def test_the_previous_chunk_is_joined_too_and_the_hit_keeps_its_own_score(self):
        joined = join_printed([self.second], [self.second, self.first])[self.second.chunk_id]
        self.assertEqual((joined.hit.chunk_id, joined.hit.score, joined.own), (self.first.chunk_id, 4.0, 1))

    def test_nothing_is_joined_that_is_printed_not_found_of_another_section_or_not_next(self):
        cases = {
            "printed itself": ([self.first, self.second], [self.first, self.second]),
            "not a candidate": ([self.first], [self.first, self.other]),
            "another section": ([self.first], [self.first, dataclasses.replace(self.second, section="random › Bookkeeping")]),
            "another file": ([self.first], [self.first, _hit(4, SECOND, 14, path="library/other.html")]),
            "not the next chunk": ([self.first], [self.first, _hit(5, SECOND, 14)]),
        }
        for name, (printed, candidates) in cases.items():
            with self.subTest(name):
                self.assertEqual(join_printed(printed, candidates), {})

    def test_a_run_holds_at_most_max_joined_chunks_the_better_ranked_neighbour_first(self):
        chunks = [_hit(n, f"Statement number {n} about generators.", n * 10, 10.0 - n) for n in range(1, 6)]
        middle = chunks[2]
        joined = join_printed([middle], [middle, chunks[3], chunks[1], chunks[4], chunks[0]])[middle.chunk_id]
        self.assertEqual(len(joined.members), MAX_JOINED)
        self.assertEqual([m.chunk_id for m in joined.members], [c.chunk_id for c in chunks[1:4]])

    def test_the_same_candidates_give_the_same_hit(self):
        runs = [join_printed([self.first], [self.first, self.other, self.second])[self.first.chunk_id].hit for _ in range(3)]
        self.assertEqual(len({(h.text, h.line_marks, h.end_line) for h in runs}), 1)


class JoinedViewTest(unittest.TestCase):
    def setUp(self) -> None:
        self.model = RelevanceModel()
        self.first, self.second = _hit(3, FIRST, 10, 9.0), _hit(4, SECOND, 14, 4.0)

    def _view(self, joined):
        own = view_passage(QUESTION, self.first.text, self.model, title=SECTION, marks=self.first.line_marks)
        return view_joined(view_passage, joined, own, self.model, QUESTION, title=SECTION)

    def test_the_joined_chunks_best_statement_is_shown_numbered_as_in_the_file(self):
        joined = join_printed([self.first], [self.first, self.second])[self.first.chunk_id]
        view = self._view(joined)
        self.assertIn("17: The period of the pseudo-random generator behind the random module is 2**19937-1.", view.numbered_text)
        for line in view.focus.lines:  # offsets point into the joined text
            self.assertEqual(" ".join(joined.hit.text[line.start:line.end].split()), line.text)

    def test_a_joined_chunk_that_scores_far_below_the_hits_own_adds_no_line(self):
        weak = _hit(4, FIRST.split("\n\n")[-1] + "\n\nSee the tutorial for more examples.", 14, 4.0)
        joined = join_printed([self.first], [self.first, weak])[self.first.chunk_id]
        own = view_passage(QUESTION, self.first.text, self.model, title=SECTION, marks=self.first.line_marks)
        self.assertEqual(self._view(joined).numbered_text, own.numbered_text)


class SearchTest(unittest.TestCase):
    def test_a_search_prints_the_answer_from_the_found_next_chunk_in_its_hit(self):
        model = RelevanceModel()
        first, second = _hit(3, FIRST, 10, 9.0), _hit(4, SECOND, 14, 4.0)
        fillers = [_hit(20 + n, f"Notes on module number {n} and its functions.", 100 + 10 * n, 8.0 - n, path=f"library/m{n}.html") for n in range(4)]
        candidates = [first, *fillers, second]
        [hit] = finish_hits(QUESTION, candidates, model, 1)
        [alone] = finish_hits(QUESTION, candidates, model, 1, weights=dataclasses.replace(DEFAULT_WEIGHTS, join=False))
        # The second stage's hit, with its found neighbour: the hit's lines cover the lone one's.
        self.assertTrue(hit.start_line <= alone.start_line and alone.end_line <= hit.end_line, (hit.citation, alone.citation))
        self.assertIn("Mersenne Twister", hit.text)
        self.assertIn("Almost all module functions", hit.text)
        self.assertFalse("Mersenne Twister" in alone.text and "Almost all module functions" in alone.text)
        self.assertEqual((hit.start_line, hit.end_line), (10, 17))
        self.assertLessEqual(hit.focus_end_line, 17)


if __name__ == "__main__":
    unittest.main()
