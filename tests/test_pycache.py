"""The cache of derived data kept between processes: regular-expression programs and tables."""

from __future__ import annotations

import os
import re
import tempfile
import unittest
from pathlib import Path

from agentic_rag._pycache import ProgramCache, derived
from agentic_rag._text import instruction_lexicon

PATTERNS = (
    (r"(?P<name>[A-Za-z_]\w*)\s*=\s*(?P<value>\d+(?:\.\d+)?)", 0),
    (r"^\s*(?:what|which)\s+(?:is|are)\b", re.IGNORECASE | re.MULTILINE),
    (r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]+", 0),
    (r"(?<=[.!?])\s+(?=[A-Z])", 0),
    (r"a.b", re.DOTALL),
    (r"(?x) \d+  # digits\n  [a-z]*", 0),
)
TEXTS = ("timeout = 30.5 and retries=3", "What is it?\nwhich are they", "日本語のテキスト", "One. Two! three? Four", "a\nb", "123abc 45")


class ProgramCacheTest(unittest.TestCase):
    def setUp(self) -> None:
        self.folder = Path(tempfile.mkdtemp())
        self.path = self.folder / "programs.marshal"

    def _round_trip(self) -> ProgramCache:
        first = ProgramCache(self.path, writable=True)
        for source, flags in PATTERNS:
            first.compile(source, flags)
        first.save()
        self.assertTrue(self.path.exists())
        return ProgramCache(self.path, writable=True)

    def test_a_pattern_built_from_its_stored_program_behaves_as_re_compiles_it(self):
        second = self._round_trip()
        for (source, flags), text in zip(PATTERNS, TEXTS):
            cached, plain = second.compile(source, flags), re.compile(source, flags)
            self.assertEqual((cached.pattern, cached.flags, cached.groups, cached.groupindex),
                             (plain.pattern, plain.flags, plain.groups, plain.groupindex))
            self.assertEqual([m.span() for m in cached.finditer(text)], [m.span() for m in plain.finditer(text)])
            self.assertEqual(cached.findall(text), plain.findall(text))
        second.save()  # nothing new: the file is left as it was
        stored = ProgramCache(self.path, writable=True)._read()
        self.assertEqual(len(stored), len(PATTERNS))
        # Codes are kept packed: a file of a few hundred programs reads in a fraction of a
        # millisecond, where tuples of small ints took a cold process milliseconds to unmarshal.
        self.assertTrue(all(isinstance(program[1], bytes) for program in stored.values()))

    def test_a_damaged_file_or_entry_is_compiled_afresh(self):
        self._round_trip()
        self.path.write_bytes(b"\x00not marshal")
        cache = ProgramCache(self.path, writable=True)
        self.assertEqual(cache.compile(r"\d+", 0).findall("a1b22"), ["1", "22"])
        # A stored program the engine refuses (a wrong code list) is not used.
        cache = self._round_trip()
        key = PATTERNS[0]
        final, code, groups, groupindex, indexgroup = cache._read()[key]
        cache._stored = {key: (final, (1, 2, 3), groups, groupindex, indexgroup)}
        self.assertEqual(cache.compile(*key).search("x = 1").group("value"), "1")

    def test_an_invalid_pattern_is_the_error_re_raises(self):
        with self.assertRaises(re.error):
            ProgramCache(self.path, writable=True).compile(r"(unclosed", 0)

    def test_nothing_is_written_when_byte_code_is_not(self):
        cache = ProgramCache(self.path, writable=False)
        cache.compile(r"\w+", 0)
        cache.save()
        self.assertFalse(self.path.exists())

    def test_a_file_for_another_python_is_ignored(self):
        import marshal

        self.path.write_bytes(marshal.dumps(((0, "another version", 0, 0), {(r"\d", 0): (0, (1,), 0, {}, ())})))
        self.assertEqual(ProgramCache(self.path, writable=True)._read(), {})


class DerivedTest(unittest.TestCase):
    def setUp(self) -> None:
        self.folder = Path(tempfile.mkdtemp())
        self.source = self.folder / "words.txt"
        self.source.write_text("alpha beta\n", encoding="utf-8")
        self.calls = 0

    def _build(self) -> dict[str, set[str]]:
        self.calls += 1
        return {word: {word[0]} for word in self.source.read_text(encoding="utf-8").split()}

    def _table(self) -> dict[str, set[str]]:
        return derived("words", (self.source,), self._build, folder=self.folder, writable=True)

    def test_a_table_is_built_once_while_its_sources_stay_unchanged(self):
        self.assertEqual(self._table(), {"alpha": {"a"}, "beta": {"b"}})
        self.assertEqual(self._table(), {"alpha": {"a"}, "beta": {"b"}})
        self.assertEqual(self.calls, 1)

    def test_a_changed_source_builds_it_again(self):
        self._table()
        self.source.write_text("gamma delta epsilon\n", encoding="utf-8")
        stat = self.source.stat()
        os.utime(self.source, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
        self.assertEqual(self._table(), {"gamma": {"g"}, "delta": {"d"}, "epsilon": {"e"}})
        self.assertEqual(self.calls, 2)

    def test_a_value_marshal_cannot_hold_is_returned_and_not_kept(self):
        value = derived("objects", (self.source,), lambda: {"x": object}, folder=self.folder, writable=True)
        self.assertIs(value["x"], object)
        self.assertEqual(list(self.folder.glob("objects.*")), [])

    def test_not_kept_when_not_writable(self):
        derived("words", (self.source,), self._build, folder=self.folder, writable=False)
        derived("words", (self.source,), self._build, folder=self.folder, writable=False)
        self.assertEqual(self.calls, 2)

    def test_the_instruction_lexicon_read_from_the_cache_equals_the_built_one(self):
        built = instruction_lexicon._build_tables()
        kept = derived("lexicon", (instruction_lexicon.WORDS_FILE,), instruction_lexicon._build_tables,
                       folder=self.folder, writable=True)
        again = derived("lexicon", (instruction_lexicon.WORDS_FILE,), lambda: self.fail("built again"),
                        folder=self.folder, writable=True)
        self.assertEqual(built, kept)
        self.assertEqual(built, again)
        self.assertEqual((instruction_lexicon._EXACT, instruction_lexicon._STEMS, instruction_lexicon._PHRASES,
                          instruction_lexicon._RUNS), built)


if __name__ == "__main__":
    unittest.main()
