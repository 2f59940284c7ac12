"""Printed hits that repeat an earlier hit's statements are folded into it: the earlier hit
lists where else they stand (``also_at``; ``also:`` in the text output), the repeat is not
printed on its own."""

from __future__ import annotations

import json
import tempfile
import unittest
from pathlib import Path

from agentic_rag._errors import InvalidInputError
from agentic_rag._interfaces.evidence_payload import store_hits_payload
from agentic_rag._interfaces.mcp_server import PROTOCOL_VERSION_META_KEY, STATELESS_PROTOCOL_VERSIONS, McpServer, store_tools
from agentic_rag._interfaces.store_service import StoreService
from agentic_rag._store import KnowledgeStore, StoreHit
from agentic_rag._store.records import AlsoAt
from agentic_rag._store.repeated_hits import focus_statements, fold_repeats, in_file_order
from cli_support import enter_temp_folder, run_cli

NOTES = ("Add support for frobnicating widgets with the new frob() call.\n\n"
         "The widget cache is now twice as large as before.\n\n"
         "Fix a crash when the gizmo list is empty.\n")
# The patch release restates its release's notes as a list, wrapped and marked up otherwise.
REPEATED = ("- Add support for **frobnicating** widgets\n  with the new `frob()` call.\n"
            "- The widget cache is now twice\n  as large as before.\n"
            "- Fix a crash when the gizmo list is empty.\n")
QUERY = "frobnicating widgets frob call"


def _hit(path: str, focus: str, start: int = 3, end: int = 7, **fields) -> StoreHit:
    return StoreHit(f"{path}#0", path, 1, 20, 1.0, "text", "docs", focus_start_line=start, focus_end_line=end, focus_text=focus,
                    relevance=0.8, **fields)


def _folder(root: Path, patch_notes: str) -> None:
    (root / "v1_0.md").write_text("# Release 1.0\n\n" + NOTES, encoding="utf-8")
    (root / "v1_0_1.md").write_text("# Release 1.0.1\n\n" + patch_notes, encoding="utf-8")
    (root / "other.md").write_text("# Sprockets\n\nSprockets turn widgets. Each sprocket holds a frob counter.\n", encoding="utf-8")


class FoldRepeatsTest(unittest.TestCase):
    def test_statements_are_compared_as_words(self):
        self.assertEqual(focus_statements("12-13: - Add **Frob()**\nsupport.\n14: `x_y` = 2"), ["add frob support", "x y 2"])
        self.assertEqual(focus_statements("plain line\n\n*second*"), ["plain line", "second"])

    def test_a_hit_whose_statements_stand_in_an_earlier_focus_is_folded(self):
        first = _hit("3_39_1.html", "3: Add RIGHT JOIN.\n4-5: Add IS NOT DISTINCT FROM operators.\n6: Fix a warning.")
        repeat = _hit("3_39_0.html", "120-121: add **IS NOT distinct** FROM\noperators.", 120, 121, page=2, page_label="ii")
        other = _hit("3_38_0.html", "9: Add the unixepoch() function.", 9, 9)
        folded = fold_repeats([first, repeat, other])
        self.assertEqual([h.path for h in folded], ["3_39_1.html", "3_38_0.html"])
        self.assertEqual(folded[0].also_at, (AlsoAt("3_39_0.html", 120, 121, page=2, page_label="ii"),))
        self.assertEqual(folded[1].also_at, ())

    def test_a_hit_with_one_statement_not_in_the_earlier_focus_is_kept(self):
        first = _hit("a.md", "3: Add RIGHT JOIN.\n4: Fix a warning.")
        differs = _hit("b.md", "3: Add RIGHT JOIN.\n4: Fix two warnings.")
        part_of_a_word = _hit("c.md", "3: Add RIGHT JOINS.")
        self.assertEqual(fold_repeats([first, differs, part_of_a_word]), [first, differs, part_of_a_word])

    def test_the_better_hit_keeps_its_place_and_places_come_in_file_order(self):
        first = _hit("a.md", "1: Alpha beta gamma.\n2: Delta epsilon.")
        second = _hit("b.md", "1: Alpha beta gamma.\n2: Delta epsilon.\n3: Zeta.")
        repeats = [_hit(f"r{n}.md", "5: alpha beta gamma.", 5, 5) for n in (3, 1, 2)]
        hits = [first, second, *repeats]
        folded = fold_repeats(hits)
        self.assertEqual([h.path for h in folded], ["a.md", "b.md"])  # b.md holds a statement a.md lacks
        self.assertEqual([p.path for p in folded[0].also_at], ["r1.md", "r2.md", "r3.md"])
        self.assertEqual(folded[1].also_at, ())
        self.assertEqual(fold_repeats(hits), folded)  # same hits, same fold

    def test_releases_in_version_order_so_the_first_place_made_the_change(self):
        # A patch release's page restates the notes before it: the reader wants the release
        # that made the change, the first in version order, not the best-ranked copy.
        notes = "7: Fix the offset function for view columns."
        hits = [_hit("log/3_38_2.html", notes, 7, 7)] + [_hit(f"log/{name}.html", notes, 7, 7) for name in ("3_38_10", "3_38_3", "3_38_1", "3_9_0")]
        self.assertEqual([p.path for p in fold_repeats(hits)[0].also_at],
                         ["log/3_9_0.html", "log/3_38_1.html", "log/3_38_3.html", "log/3_38_10.html"])
        mixed = [AlsoAt(path, 1, 1) for path in ("v2/b.md", "v10/a.md", "v2/a.md", "notes.md", "v2/a.md")]
        self.assertEqual([p.path for p in in_file_order(mixed)], ["notes.md", "v2/a.md", "v2/a.md", "v2/b.md", "v10/a.md"])

    def test_a_folded_hit_is_never_a_target(self):
        hits = [_hit("a.md", "1: One two three.\n2: Four five."), _hit("b.md", "1: One two three."), _hit("c.md", "1: one two THREE")]
        self.assertEqual([p.path for p in fold_repeats(hits)[0].also_at], ["b.md", "c.md"])

    def test_also_at_round_trips_and_is_checked(self):
        hit = _hit("a.md", "1: x", also_at=(AlsoAt("b.md", 4, 5, cell=2),))
        self.assertEqual(StoreHit.from_dict(json.loads(json.dumps(hit.to_dict()))), hit)
        with self.assertRaises(InvalidInputError):
            _hit("a.md", "1: x", also_at=({"path": "b.md", "start_line": 1, "end_line": 1},))
        with self.assertRaises(InvalidInputError):
            AlsoAt("b.md", 5, 4)


class FoldedPayloadTest(unittest.TestCase):
    def test_payload_carries_also_at_only_when_there_is_one(self):
        model = None  # a search hit carries its focus: the model is not read
        plain, paged = _hit("a.md", "1: x"), _hit("a.pdf", "1: x", page=3, also_at=(AlsoAt("b.pdf", 4, 5, page=7, page_label="v"),
                                                                                     AlsoAt("c.md", 1, 2)))
        payload = store_hits_payload("q", [plain, paged], model)
        self.assertNotIn("also_at", payload[0])
        self.assertEqual(payload[1]["also_at"], [{"path": "b.pdf", "start_line": 4, "end_line": 5, "page": 7, "page_label": "v"},
                                                 {"path": "c.md", "start_line": 1, "end_line": 2}])


class FoldedSearchTest(unittest.TestCase):
    def test_search_prints_the_repeat_as_a_place_of_the_earlier_hit(self):
        root = enter_temp_folder(self)
        _folder(root, REPEATED)
        self.assertEqual(run_cli("index", ".", "--quiet")[0], 0)
        code, out, _ = run_cli("search", QUERY, "-k", "5")
        self.assertEqual(code, 0)
        self.assertIn("1. v1_0.md:3-7", out)
        self.assertIn("\n   also: v1_0_1.md:3-", out)
        self.assertNotIn("2. v1_0_1.md", out)
        hits = json.loads(run_cli("search", QUERY, "-k", "5", "--json")[1])
        self.assertEqual(hits[0]["also_at"][0]["path"], "v1_0_1.md")
        self.assertNotIn("v1_0_1.md", [h["path"] for h in hits])

    def test_a_paragraph_repeated_word_for_word_is_listed_under_the_hit_it_repeats(self):
        # The second stage finds the same focus text in another file before the fold runs; it
        # lists that file's lines under the better hit instead of dropping them unseen.
        root = enter_temp_folder(self)
        _folder(root, NOTES)
        self.assertEqual(run_cli("index", ".", "--quiet")[0], 0)
        hits = json.loads(run_cli("search", QUERY, "-k", "5", "--json")[1])
        paths = [h["path"] for h in hits]
        self.assertEqual(len([p for p in paths if p.startswith("v1_0")]), 1, paths)
        first = next(h for h in hits if h["path"].startswith("v1_0"))
        other = "v1_0_1.md" if first["path"] == "v1_0.md" else "v1_0.md"
        self.assertEqual([place["path"] for place in first.get("also_at", [])], [other])

    def test_search_keeps_a_page_that_changes_one_statement(self):
        root = enter_temp_folder(self)
        _folder(root, REPEATED.replace("twice", "three times"))
        run_cli("index", ".", "--quiet")
        out = run_cli("search", QUERY, "-k", "5")[1]
        self.assertNotIn("also:", out)
        self.assertIn("2. v1_0_1.md", out)

    def test_mcp_search_carries_also_at(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        root = Path(tmp.name) / "docs"
        root.mkdir()
        _folder(root, REPEATED)
        store = KnowledgeStore(Path(tmp.name) / "store", base=root)
        store.index(root, corpus="docs")
        server = McpServer(store_tools(StoreService(store)))
        line = server.handle_line(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                              "params": {"name": "search", "arguments": {"query": QUERY}, "_meta": {
                                                  PROTOCOL_VERSION_META_KEY: STATELESS_PROTOCOL_VERSIONS[-1],
                                                  "io.modelcontextprotocol/clientCapabilities": {}}}}))
        result = json.loads(line)["result"]
        self.assertFalse(result.get("isError"))
        hits = result["structuredContent"]["hits"]  # checked against the tool's output schema
        self.assertEqual(hits[0]["also_at"][0]["path"], "v1_0_1.md")
        self.assertEqual(json.loads(result["content"][0]["text"])["hits"], hits)


class PlacesLineTest(unittest.TestCase):
    def test_the_text_output_names_three_places_and_counts_the_rest(self):
        from agentic_rag._interfaces.cli_commands import _places

        places = [{"path": f"notes/3_{n}.html", "start_line": 10, "end_line": 11} for n in range(5)]
        self.assertEqual(_places(places), "notes/3_0.html:10-11, notes/3_1.html:10-11, notes/3_2.html:10-11 (+2 more)")
        self.assertEqual(_places(places[:2]), "notes/3_0.html:10-11, notes/3_1.html:10-11")


if __name__ == "__main__":
    unittest.main()
