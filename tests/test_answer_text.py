"""Answer text as a person would write it from the quotes: rendered, each sentence once,
ordered by the question's parts, padding dropped, short for a one-part question."""

from __future__ import annotations

import json
import unittest

from agentic_rag._answering.render import MAX_ONE_PART_CHARS, fit_answer, render_claim, select_claims
from agentic_rag._text.relevance import RelevanceModel
from cli_support import enter_temp_folder, run_cli


class RenderClaimTest(unittest.TestCase):
    def test_markup_is_rendered(self) -> None:
        cases = {
            ".. click:example::\n\n    import click\n\nUse :func:`click.echo` to print.": "    import click\n\nUse `click.echo` to print.",
            "::: httpx.Client\n    :docstring:\n    :members: get post\n\nThe client sends requests.": "The client sends requests.",
            '!!! note "Timeouts"\n    Pass `timeout=None` to wait forever.': "Timeouts:\n    Pass `timeout=None` to wait forever.",
            "!!! warning\n    Never share the key.": "Never share the key.",
            "::: httpx.Client\n:docstring:\n:members: get\n\nIt sends requests.": "It sends requests.",
            "See [the guide](https://example.org/guide) or `Jinja <https://jinja.example>`_.": "See the guide or Jinja.",
            ":class:`~jinja2.Environment` holds it; see :ref:`loading <loaders>`.": "`Environment` holds it; see `loading`.",
            "[guide]: https://example.org\nRead the [guide][guide].": "Read the guide.",
        }
        for raw, shown in cases.items():
            with self.subTest(raw=raw):
                self.assertEqual(render_claim(raw), shown)

    def test_code_in_a_fence_is_kept_as_written(self) -> None:
        code = "```python\nx = [a](b)\n.. note::\n```"
        self.assertEqual(render_claim(code), code)


class FitAnswerTest(unittest.TestCase):
    def test_each_sentence_once(self) -> None:
        self.assertEqual(fit_answer(["The port is 5000.", "The port is 5000.", "It reloads."], parts=2), [(0, "The port is 5000."), (2, "It reloads.")])

    def test_a_passage_repeating_a_claim_shows_only_the_rest(self) -> None:
        # Measured on the dev half: a claim, then the closest passage quoting it again with
        # more, printed the claimed sentence twice.
        first = "The JSON functions are built in as of version 3.38.0."
        passage = f"{first} They can be omitted with -DSQLITE_OMIT_JSON."
        self.assertEqual(fit_answer([first, passage], parts=2), [(0, first), (1, "They can be omitted with -DSQLITE_OMIT_JSON.")])
        middle = f"Before it. {first} After it, a longer sentence."
        self.assertEqual(fit_answer([first, middle], parts=2), [(0, first), (1, "After it, a longer sentence.")])

    def test_sentences_an_earlier_claim_says_are_cut_from_a_later_one(self) -> None:
        texts = ["Colors are used on a TTY. Set NO_COLOR to turn them off.", "Set NO_COLOR to turn them off. FORCE_COLOR turns them on."]
        self.assertEqual(fit_answer(texts, parts=2), [(0, texts[0]), (1, "FORCE_COLOR turns them on.")])

    def test_a_one_part_answer_is_short(self) -> None:
        code = "\n".join(f"line_{n} = call_{n}(argument_{n})" for n in range(12))
        texts = [code, "Use `Factory(list)` as a shorter spelling.", "The default factory runs once per instance, " * 3]
        shown = fit_answer(texts, parts=1)
        self.assertEqual([i for i, _ in shown], [0, 1, 2])
        self.assertLessEqual(len(" ".join(t for _, t in shown)), MAX_ONE_PART_CHARS)
        self.assertEqual(shown[1][1], texts[1])  # a long first claim no longer crowds it out
        self.assertTrue(code.startswith(shown[0][1]))
        self.assertEqual(fit_answer(texts, parts=2), list(enumerate(texts)))

    def test_padding_is_dropped_and_parts_ordered(self) -> None:
        model = RelevanceModel()
        parts = ["Which port does the server listen on?", "How do I enable the debugger?"]
        claims = [("Debugging", "Pass --debug to enable the debugger.", "Pass --debug to enable the debugger."),
                  ("", "Not a single command line utility for Python does this.", "Not a single command line utility for Python does this."),
                  ("Server", "The server listens on port 5000. The default is 5000.", "The default is 5000.")]
        # The last claim shares no word with its part; its passage answers it.
        self.assertEqual([i for i, _ in select_claims(parts, claims, model)], [2, 0])


DOCS = """# Clients

::: httpx.Client
    :docstring:
    :members: get post

!!! note
    To set a timeout for every request, pass `timeout=10.0` when you create the [Client](api.md#client).

The [timeout](https://example.org/timeouts) applies to connect, read and write.
"""


class AnswerTextEndToEndTest(unittest.TestCase):
    def test_both_modes_render_and_stay_short(self) -> None:
        root = enter_temp_folder(self)
        (root / "docs").mkdir()
        (root / "docs" / "clients.md").write_text(DOCS, encoding="utf-8")
        code, _, err = run_cli("index", "docs", "--store", "store", "--quiet")
        self.assertEqual(code, 0, err)
        for mode in ("agentic", "parallel"):
            with self.subTest(mode=mode):
                code, out, err = run_cli("ask", "How do I set a timeout for every request of a client?", "--store", "store", "--mode", mode, "--json")
                self.assertEqual(code, 0, err)
                answer = json.loads(out)["answer"]
                self.assertIn("timeout=10.0", answer)
                for markup in (":::", ":docstring:", ":members:", "!!!", "](", "https://"):
                    self.assertNotIn(markup, answer)
                self.assertLessEqual(len(answer), MAX_ONE_PART_CHARS + 100, answer)  # the claims, and at most a note


if __name__ == "__main__":
    unittest.main()


class ConsistentVerdictTest(unittest.TestCase):
    """A part a claim answers is never in ``missing``, whatever the passage check said."""

    def test_a_part_the_claims_earn_is_not_missing(self) -> None:
        from agentic_rag._contracts import AnswerStatus, Snippet
        from agentic_rag._parallel import ExtractiveGenerator, reciprocal_rank_fusion
        from agentic_rag._parallel.answerability import Answerability, RelevanceAnswerability
        from agentic_rag._parallel.verdict import answer_verdict

        question = "Which port does the server listen on?"
        hits = [Snippet(id="", corpus_id="c", document_id="d1", text="The server listens on port 5000 unless told otherwise.", score=1.0)]
        docs = reciprocal_rank_fusion([hits])
        answer = ExtractiveGenerator().generate(question, docs)

        class PassageCheckMisses(RelevanceAnswerability):
            def check(self, query, documents):  # a passage check that found no covering passage
                return Answerability(AnswerStatus.PARTIAL, 0.2, (query,))

        notes: list[str] = []
        guarded, status, missing = answer_verdict(question, answer, docs, notes, PassageCheckMisses(), owns_text=True)
        self.assertEqual((status, missing), (AnswerStatus.ANSWERED, ()))
        self.assertIn("5000", guarded.text)
        self.assertNotIn("Not found", guarded.text)


class CutClaimQuotesWhatItShowsTest(unittest.TestCase):
    def test_a_cut_claim_keeps_a_quote_that_holds_it(self) -> None:
        from agentic_rag._answering.render import quote_span

        quote = "Django provides three storage classes:\n\nSessionStorage\nstores messages in the session.\n\nIt does not use cookies."
        shown = "Django provides three storage classes:\n\nSessionStorage"
        start, end = quote_span(quote, shown)
        self.assertEqual(quote[start:end], shown)
        self.assertEqual(quote_span(quote, "Nothing of it"), (-1, -1))
        # A claim cut at its start (its first sentence said by an earlier claim).
        start, end = quote_span(quote, "It does not use cookies.")
        self.assertEqual(quote[start:end], "It does not use cookies")
        # A claim that opens with its heading: the quote starts where it does.
        start, end = quote_span(quote, "Messages: Django provides three storage classes: SessionStorage stores messages")
        self.assertEqual(quote[start:end], "Django provides three storage classes:\n\nSessionStorage\nstores messages")

    def test_a_one_part_answer_cut_to_fit_still_holds(self) -> None:
        from agentic_rag._agentic.extractive import _cut_claim
        from agentic_rag._answering.grounding import grounding_problem
        from agentic_rag._contracts import Citation, Claim

        quote = "Django provides three storage classes:\n\nSessionStorage\nstores messages in the session.\n\nIt does not use cookies."
        claim = Claim(text=quote, citations=(Citation(snippet_id="c/d", quote=quote, start=10, end=10 + len(quote)),))
        shown = "Django provides three storage classes:\n\nSessionStorage"
        # A quote's denial of something the claim does not say is no disagreement (polarity
        # is a statement's); one of what it says is.
        self.assertEqual(grounding_problem(shown, [quote], [quote]), "")
        self.assertIn("negation", grounding_problem("SessionStorage uses cookies.", [quote], [quote]))
        cut = _cut_claim(claim, shown)
        self.assertEqual((cut.text, cut.citations[0].quote, cut.citations[0].end), (shown, shown, 10 + len(shown)))
        self.assertEqual(grounding_problem(cut.text, [cut.citations[0].quote], [quote]), "")
