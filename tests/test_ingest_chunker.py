"""chunk_sections: word budget, whole sentences, overlap, stable ids and exact line ranges."""

from __future__ import annotations

import hashlib
import re
import unittest

from agentic_rag._errors import InvalidInputError
from agentic_rag._ingest import ChunkOptions, chunk_sections, parse_markdown, parse_source
from agentic_rag._text.sentences import split_sentences

_WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau".split()


def _sentence(n: int, length: int = 9) -> str:
    words = [_WORDS[(n * 7 + i) % len(_WORDS)] for i in range(length - 2)]
    return f"Sentence {n} " + " ".join(words) + "."


def _paragraph(first: int, count: int, length: int = 9) -> str:
    return " ".join(_sentence(n, length) for n in range(first, first + count))


def _words(text: str) -> int:
    return len(text.split())


class ChunkShapeTest(unittest.TestCase):
    def test_short_file_is_one_chunk_numbered_from_zero(self):
        (chunk,) = chunk_sections(parse_markdown("# Title\n\nOne short paragraph.\n"), "docs/a.md")
        self.assertEqual((chunk.id, chunk.n, chunk.path, chunk.text), ("docs/a.md#0", 0, "docs/a.md", "One short paragraph."))
        self.assertEqual((chunk.start_line, chunk.end_line, chunk.section, chunk.title), (3, 3, "Title", "Title"))
        self.assertEqual(chunk.sha256, hashlib.sha256(b"One short paragraph.").hexdigest())
        self.assertEqual(chunk.citation, "docs/a.md:3-3")

    def test_title_falls_back_to_the_file_stem(self):
        (chunk,) = chunk_sections(parse_source(b"Plain words here.", ".txt").sections, "notes/todo.list.txt")
        self.assertEqual((chunk.section, chunk.title), ("", "todo.list"))

    def test_budget_is_respected_and_sentences_are_whole(self):
        text = "\n\n".join(_paragraph(p * 20, 12 + p) for p in range(6))
        sentences = {s.text for s in split_sentences(text)}
        options = ChunkOptions(max_words=60, overlap_words=15)
        chunks = chunk_sections(parse_source(text.encode(), ".txt").sections, "t.txt", options)
        self.assertGreater(len(chunks), 5)
        for chunk in chunks:
            self.assertLessEqual(_words(chunk.text), 60, chunk.id)
            for sentence in split_sentences(chunk.text):
                self.assertIn(sentence.text, sentences, f"{chunk.id} cuts a sentence")
        # Every sentence of the file is in some chunk, in order.
        covered = [s.text for c in chunks for s in split_sentences(c.text)]
        self.assertEqual(sorted(set(covered)), sorted(sentences))

    def test_consecutive_chunks_overlap_by_whole_sentences_within_the_budget(self):
        text = _paragraph(0, 40)
        options = ChunkOptions(max_words=50, overlap_words=20)
        chunks = chunk_sections(parse_source(text.encode(), ".txt").sections, "t.txt", options)
        self.assertGreater(len(chunks), 3)
        for before, after in zip(chunks, chunks[1:]):
            first = [s.text for s in split_sentences(before.text)]
            second = [s.text for s in split_sentences(after.text)]
            shared = [s for s in second if s in first]
            self.assertTrue(shared, f"{after.id} repeats nothing of {before.id}")
            self.assertEqual(shared, first[-len(shared):])
            self.assertEqual(shared, second[:len(shared)])
            self.assertLessEqual(sum(_words(s) for s in shared), 20)

    def test_zero_overlap_repeats_nothing(self):
        chunks = chunk_sections(parse_source(_paragraph(0, 30).encode(), ".txt").sections, "t.txt", ChunkOptions(40, 0))
        joined = " ".join(c.text for c in chunks)
        self.assertEqual(joined, _paragraph(0, 30))

    def test_chunks_end_at_paragraph_breaks_when_half_full(self):
        first, second = _paragraph(0, 11), _paragraph(100, 11)  # 99 words each
        chunks = chunk_sections(parse_source(f"{first}\n\n{second}\n".encode(), ".txt").sections, "t.txt", ChunkOptions(180, 30))
        self.assertEqual(chunks[0].text, first)
        self.assertTrue(chunks[1].text.endswith(second))
        self.assertEqual((chunks[0].start_line, chunks[0].end_line, chunks[1].end_line), (1, 1, 3))

    def test_an_over_long_sentence_is_cut_by_words(self):
        sentence = " ".join(f"w{i}" for i in range(250)) + "."
        chunks = chunk_sections(parse_source(sentence.encode(), ".txt").sections, "long.txt", ChunkOptions(100, 10))
        self.assertEqual([_words(c.text) for c in chunks], [100, 100, 50])
        self.assertEqual(" ".join(c.text for c in chunks), sentence)

    def test_an_over_long_code_block_is_cut_at_lines_first(self):
        code = "\n".join(f"line_{i} = value_{i} + other_{i}" for i in range(60))  # 5 words a line
        chunks = chunk_sections(parse_markdown(f"```\n{code}\n```\n"), "c.md", ChunkOptions(100, 0))
        self.assertEqual([(c.start_line, c.end_line) for c in chunks], [(2, 21), (22, 41), (42, 61)])
        for chunk in chunks:
            self.assertTrue(chunk.text.startswith("line_") and chunk.text.endswith(tuple("0123456789")))

    def test_chunks_never_span_sections(self):
        text = "# One\n\n" + _paragraph(0, 3) + "\n\n# Two\n\n" + _paragraph(10, 3) + "\n"
        chunks = chunk_sections(parse_markdown(text), "s.md")
        self.assertEqual([(c.section, c.start_line, c.end_line) for c in chunks], [("One", 3, 3), ("Two", 7, 7)])

    def test_ids_are_stable_and_records_cite_their_lines(self):
        data = b'{"_id": "a", "title": "Alpha", "text": "First record."}\n{"_id": "b", "text": "Second record."}\n'
        sections = parse_source(data, ".jsonl").sections
        first = chunk_sections(sections, "d/recs.jsonl")
        self.assertEqual(first, chunk_sections(parse_source(data, ".jsonl").sections, "d/recs.jsonl"))
        self.assertEqual([(c.id, c.title, c.record_id, c.start_line) for c in first],
                         [("d/recs.jsonl#0", "Alpha", "a", 1), ("d/recs.jsonl#1", "b", "b", 2)])
        document = first[0].to_document("corpus")
        self.assertEqual(dict(document.metadata), {"path": "d/recs.jsonl", "start_line": 1, "end_line": 1, "section": "Alpha",
                                                   "sha256": first[0].sha256, "record_id": "a"})
        self.assertEqual((document.id, document.title, document.corpus_id), ("d/recs.jsonl#0", "Alpha", "corpus"))

    def test_options_are_validated(self):
        for bad in ({"max_words": 0}, {"max_words": 10, "overlap_words": 10}, {"overlap_words": -1}, {"max_words": 5.0}):
            with self.subTest(bad=bad), self.assertRaises(InvalidInputError):
                ChunkOptions(**bad)
        with self.assertRaises(InvalidInputError):
            chunk_sections((), "")


class MarkdownLineRangeTest(unittest.TestCase):
    """Lines start_line..end_line of the original file hold the chunk's first and last words."""

    DOCUMENT = "\n".join([
        "---",
        "title: Field guide",
        "---",
        "Intro paragraph with **bold** words and a [link](https://example.com/page).",
        "",
        "# Installing",
        "",
        _paragraph(0, 8),
        "",
        "> " + _paragraph(20, 3),
        "",
        "- first item " + _sentence(40),
        "- second *item* " + _sentence(41),
        "",
        "## Configuring",
        "",
        "```ini",
        "key = value",
        "other = thing",
        "```",
        "",
        _paragraph(50, 4).replace(". ", ".\n"),
        "",
        "Setext title",
        "------------",
        "",
        "| col | value |",
        "|-----|-------|",
        "| a   | " + _sentence(60) + " |",
        "",
        _paragraph(70, 12),
        "",
    ])

    def _check(self, options: ChunkOptions) -> None:
        lines = self.DOCUMENT.split("\n")
        chunks = chunk_sections(parse_markdown(self.DOCUMENT), "guide.md", options)
        self.assertGreater(len(chunks), 3)
        for chunk in chunks:
            words = re.findall(r"\w+", chunk.text)
            span = lines[chunk.start_line - 1:chunk.end_line]
            with self.subTest(chunk=chunk.id, lines=(chunk.start_line, chunk.end_line)):
                self.assertLessEqual(chunk.start_line, chunk.end_line)
                self.assertIn(words[0], re.findall(r"\w+", span[0]))
                self.assertIn(words[-1], re.findall(r"\w+", span[-1]))
                for word in words:
                    self.assertIn(word, " ".join(span))

    def test_line_ranges_are_exact_with_default_options(self):
        self._check(ChunkOptions())

    def test_line_ranges_are_exact_with_small_chunks(self):
        self._check(ChunkOptions(max_words=25, overlap_words=8))


if __name__ == "__main__":
    unittest.main()


class HeadingPathAndLineMapTest(unittest.TestCase):
    """What a hit shows is made at index time: its section's heading path and its line map."""

    TEXT = "# Guide\n\nIntro.\n\n## Install\n\n### With pip\n\nRun pip install demo\nthen import it.\n\n## Use\n\nCall run().\n"

    def test_each_chunk_carries_every_heading_above_it(self):
        chunks = chunk_sections(parse_markdown(self.TEXT), "guide.md")
        sections = [c.section for c in chunks]
        self.assertEqual(sections, ["Guide", "Guide \u203a Install \u203a With pip", "Guide \u203a Use"])
        # the title the retriever reads stays the nearest two headings
        self.assertEqual(chunks[1].title, "Install \u203a With pip")

    def test_the_line_map_places_every_line_of_the_chunk(self):
        (chunk,) = [c for c in chunk_sections(parse_markdown(self.TEXT), "guide.md", line_marks=True) if "pip" in c.text]
        source = self.TEXT.split("\n")
        offsets = [offset for offset, _ in chunk.line_marks]
        for offset, line in chunk.line_marks:
            end = chunk.text.find("\n", offset)
            self.assertEqual(chunk.text[offset:end if end >= 0 else None].strip(), source[line - 1].strip())
        self.assertEqual(offsets, sorted(offsets))
