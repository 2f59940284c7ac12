"""Generated corpus descriptions: the files' titles that name them, then the corpus's words."""

from __future__ import annotations

import unittest

from agentic_rag._store.descriptions import MAX_DESCRIPTION_LENGTH, describe_corpora

_TERMS = (("manual", 3), ("option", 2))


def _describe(titles: list[tuple[str, str]], corpus: str = "pdfs") -> str:
    files = [(corpus, _TERMS) for _ in titles]
    return dict(describe_corpora(files, [corpus], [(corpus, path, title) for path, title in titles]))[corpus]


class DescriptionTitlesTest(unittest.TestCase):
    def test_titles_that_name_their_files_are_listed_before_the_words(self):
        text = _describe([("pdfs/bzip2-doc/manual.pdf", "bzip2 and libbzip2, version 1.0.8"), ("pdfs/nettle/nettle.pdf", "Nettle Manual")])
        self.assertEqual(text, "pdfs: 2 files: bzip2 and libbzip2, version 1.0.8; Nettle Manual; about manual, option")

    def test_a_title_many_files_share_or_that_names_nothing_gives_way_to_the_file_name(self):
        text = _describe([("man/curl.pdf", "NAME"), ("man/grep.pdf", "NAME"), ("fc/fontconfig-user.pdf", "Name"),
                          ("x/spec.pdf", "X Desktop Group")])
        self.assertIn(": fontconfig-user; curl; grep; spec; about", text)
        self.assertNotIn("NAME", text)
        self.assertNotIn("Desktop", text)

    def test_shallow_files_first_and_only_the_first_level_of_a_title(self):
        text = _describe([("docs/deep/guide.md", "Guide \u203a Install"), ("docs/api.md", "API Reference")])
        self.assertIn(": API Reference; Guide; about", text)

    def test_project_files_and_numbers_are_not_names(self):
        text = _describe([("p/LICENSE.txt", "LICENSE"), ("p/README.md", "README"), ("p/3_0_0.html", "Release"), ("p/tools.md", "Tools")])
        self.assertEqual(text, "pdfs: 4 files: Tools; about manual, option")

    def test_many_titles_stop_at_a_budget_and_the_description_stays_bounded(self):
        titles = [(f"notes/topic{n:03d}.md", f"Topic {n:03d} notes on a long subject heading") for n in range(200)]
        text = _describe(titles)
        self.assertIn("\u2026; about manual, option", text)
        self.assertLessEqual(len(text), MAX_DESCRIPTION_LENGTH)
        self.assertEqual(text, _describe(list(reversed(titles))))  # the order of the rows does not matter

    def test_a_site_s_index_pages_are_not_names(self):
        text = _describe([("m/genindex-A.html", "Index – A"), ("m/py-modindex.html", "Python Module Index"), ("m/search.html", "Search"),
                          ("m/contents.html", "Python Documentation contents"), ("m/glossary.html", "Glossary")])
        self.assertEqual(text, "pdfs: 5 files: Glossary; about manual, option")

    def test_sub_folders_are_named_with_their_counts_before_the_files_beside_them(self):
        # A manual of hundreds of pages: its folders say what it covers; the files beside
        # them are its own pages, and the pages inside the folders are not listed one by one.
        titles = [(f"py/docs/library/m{n}.html", f"module m{n}") for n in range(15)] + [
            (f"py/docs/c-api/c{n}.html", f"c{n} objects") for n in range(3)] + [
            ("py/docs/tutorial/intro.html", "An Informal Introduction"), ("py/docs/glossary.html", "Glossary"), ("py/README.md", "README")]
        text = _describe(titles)
        self.assertEqual(text, "pdfs: 21 files: library/ (15), c-api/ (3), tutorial/ (1); Glossary; about manual, option")
        self.assertEqual(text, _describe(list(reversed(titles))))
        many = [(f"d/{name}/page{n}.md", f"{name} page") for name in "abcdefgh" for n in range(3)]
        self.assertIn("a/ (3), b/ (3), c/ (3), d/ (3), e/ (3), f/ (3), \u2026;", _describe(many))
        # One folder, a few files, or a folder a file (a package's one manual): titles only.
        self.assertNotIn("/ (", _describe([(f"d/guide/p{n}.md", f"Guide {n}") for n in range(30)]))
        self.assertNotIn("/ (", _describe([(f"d/{name}/manual.pdf", f"{name} manual") for name in "abcdefghijklmnopqrstuvwxyz"]))
        self.assertNotIn("/ (", _describe(titles[:1] + titles[15:]))

    def test_without_titles_the_words_alone(self):
        self.assertEqual(dict(describe_corpora([("a", _TERMS)], ["a"]))["a"], "a: 1 file about manual, option")


if __name__ == "__main__":
    unittest.main()
