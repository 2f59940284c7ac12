"""Dataset loaders on tiny fixtures written to a temp dir, plus smoke tests on ../shared/data."""

from __future__ import annotations

import dataclasses
import gzip
import json
import tempfile
import unittest
from pathlib import Path
from types import MappingProxyType

from agentic_rag._contracts.corpus import Document
from agentic_rag._errors import InvalidInputError
from agentic_rag.evaluation.datasets import (
    BeirDataset,
    DatasetFormat,
    MultiHopDataset,
    MultiHopQuestion,
    Query,
    detect_format,
    load_beir,
    load_dataset,
    load_multihop,
    load_trec,
)

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def _write(path: Path, text: str, *, gz: bool = False) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if gz:
        with gzip.open(path.with_name(path.name + ".gz"), "wt", encoding="utf-8") as handle:
            handle.write(text)
    else:
        path.write_text(text, encoding="utf-8")


def _jsonl(*records: object) -> str:
    return "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records)


CORPUS = _jsonl(
    {"_id": "d1", "title": "First", "text": "alpha beta"},
    {"_id": 2, "title": "Only a title", "text": ""},  # int id, empty text
    {"_id": "d3", "text": "line\u2028separator inside"},  # no title; a raw U+2028
)
QUERIES = _jsonl(
    {"_id": "q1", "text": "what is alpha", "metadata": {}},
    {"_id": "q2", "text": "unjudged in test"},
    {"_id": "q3", "text": "third"},
)
TEST_QRELS = "query-id\tcorpus-id\tscore\nq3\td1\t2\nq1\td1\t1\nq1\t2\t0\n"


def write_beir(folder: Path, *, gz: bool = False) -> Path:
    _write(folder / "corpus.jsonl", CORPUS, gz=gz)
    _write(folder / "queries.jsonl", QUERIES, gz=gz)
    _write(folder / "qrels" / "test.tsv", TEST_QRELS, gz=gz)
    _write(folder / "qrels" / "train.tsv", "query-id\tcorpus-id\tscore\nq2\td3\t1\n")
    return folder


DOC_TEXT = """<DOC>
<DOCNO> 1 </DOCNO>
compact   memories have
flexible capacities
</DOC>
< DOC ><docno>2</docno><TITLE> A
title </TITLE><TEXT>body
text</TEXT></DOC >
<DOC>
<DOCNO>3</DOCNO>three</DOC>
"""
QUERY_TEXT = """<top>
<num>1</num><title>
MEASUREMENT OF   DIELECTRIC
</title>
</top>
<top>
<num> Number: 2
<title> classic topic
<desc> Description:
not part of the title
</top>
<top><num>3</num><title>no judgements</title></top>
"""
TREC_QRELS = "1 0 1 1\n1 0 3 1\n\n2 0 2 2\n"


def write_trec(folder: Path, *, gz: bool = True) -> Path:
    _write(folder / "doc-text.trec", DOC_TEXT, gz=gz)
    _write(folder / "query-text.trec", QUERY_TEXT)
    _write(folder / "qrels", TREC_QRELS)
    return folder


PARAGRAPHS = _jsonl(*({"_id": f"p{i}", "title": f"T{i}", "text": f"text {i}", "sentences": []}
                      for i in range(5)))
HOTPOT_STYLE = {"id": "h1", "question": "Which band?", "answer": "Rush", "answer_aliases": [],
                "type": "bridge", "gold_doc_ids": ["p1", "p0"], "pool_doc_ids": ["p0", "p1", "p2"],
                "decomposition": None, "supporting_facts": [["T1", 0]]}
MUSIQUE_STYLE = {"id": "m1", "question": "Seat of the county?", "answer": "Stanley",
                 "answer_aliases": ["Stanley, ND"], "type": "2hop", "gold_doc_ids": ["p3", "p4"],
                 "pool_doc_ids": ["p2", "p3", "p4"],
                 "decomposition": [{"id": 1, "question": "Van Hook >> county", "answer": "M",
                                    "paragraph_support_idx": 1},
                                   {"id": 2, "question": "#1 >> capital", "answer": "Stanley",
                                    "paragraph_support_idx": 2}]}
PLAIN_STYLE = {"id": 7, "question": "q?", "answer": "a", "type": "comparison",
               "gold_doc_ids": ["p0"], "pool_doc_ids": ["p0"], "decomposition": ["sub one", "sub two"]}


def write_multihop(folder: Path, questions: str | None = None) -> Path:
    _write(folder / "corpus.jsonl", PARAGRAPHS, gz=True)
    # The blank second line still counts: line numbers are physical 0-based lines.
    default = _jsonl(HOTPOT_STYLE) + "\n" + _jsonl(MUSIQUE_STYLE, PLAIN_STYLE)
    _write(folder / "questions.jsonl", default if questions is None else questions)
    return folder


class TempDirTest(unittest.TestCase):
    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self._tmp.cleanup)
        self.root = Path(self._tmp.name)


class BeirLoaderTest(TempDirTest):
    def test_plain_folder(self) -> None:
        data = load_beir(write_beir(self.root / "tiny"))
        self.assertEqual((data.name, data.format, data.split), ("tiny", DatasetFormat.BEIR, "test"))
        self.assertEqual(data.corpus[0], Document(id="d1", text="alpha beta", title="First", corpus_id="tiny"))
        self.assertEqual(data.corpus[1].id, "2")  # an int id becomes a str
        self.assertEqual(data.corpus[1].title, "Only a title")
        self.assertEqual(data.corpus[2].text, "line\u2028separator inside")  # not split at U+2028
        self.assertEqual(len(data.corpus), 3)
        # Only judged queries are kept, in file order (q1 before q3, though qrels list q3 first).
        self.assertEqual(data.queries, (Query("q1", "what is alpha"), Query("q3", "third")))
        self.assertEqual(dict(data.qrels["q1"]), {"d1": 1, "2": 0})
        self.assertEqual(dict(data.qrels["q3"]), {"d1": 2})

    def test_gzip_folder_loads_the_same(self) -> None:
        plain = load_beir(write_beir(self.root / "a" / "tiny"))
        packed = load_beir(write_beir(self.root / "b" / "tiny", gz=True))
        self.assertFalse((self.root / "b" / "tiny" / "corpus.jsonl").exists())
        self.assertEqual(plain, packed)

    def test_qrels_are_read_only(self) -> None:
        data = load_beir(write_beir(self.root / "tiny"))
        self.assertIsInstance(data.qrels, MappingProxyType)
        self.assertIsInstance(data.qrels["q1"], MappingProxyType)
        with self.assertRaises(TypeError):
            data.qrels["q1"]["d9"] = 1  # type: ignore[index]
        with self.assertRaises(dataclasses.FrozenInstanceError):
            data.split = "train"  # type: ignore[misc]

    def test_split_and_corpus_id(self) -> None:
        folder = write_beir(self.root / "tiny")
        train = load_beir(folder, "train", corpus_id="sci")
        self.assertEqual([q.id for q in train.queries], ["q2"])
        self.assertEqual({doc.corpus_id for doc in train.corpus}, {"sci"})
        with self.assertRaisesRegex(InvalidInputError, r"qrels/dev\.tsv.*\['test', 'train'\]"):
            load_beir(folder, "dev")
        with self.assertRaisesRegex(InvalidInputError, "split must be a name"):
            load_beir(folder, "../test")

    def test_missing_and_ambiguous_files(self) -> None:
        folder = write_beir(self.root / "tiny")
        _write(folder / "corpus.jsonl", CORPUS, gz=True)
        with self.assertRaisesRegex(InvalidInputError, "keep only one"):
            load_beir(folder)
        (folder / "corpus.jsonl").unlink()
        (folder / "corpus.jsonl.gz").unlink()
        with self.assertRaisesRegex(InvalidInputError, r"expected corpus\.jsonl or corpus\.jsonl\.gz"):
            load_beir(folder)
        with self.assertRaisesRegex(InvalidInputError, "does not exist"):
            load_beir(self.root / "absent")

    def test_malformed_files_name_path_and_line(self) -> None:
        cases = {
            "corpus.jsonl": (CORPUS + "{not json\n", r"corpus\.jsonl:4: invalid JSON"),
            "queries.jsonl": (QUERIES + '["a list"]\n', r"queries\.jsonl:4: expected a JSON object"),
            "qrels/test.tsv": (TEST_QRELS + "q1\td3\n", r"test\.tsv:5: expected 'query-id"),
        }
        for name, (text, pattern) in cases.items():
            with self.subTest(file=name):
                folder = write_beir(self.root / name.replace("/", "_"))
                _write(folder / name, text)
                with self.assertRaisesRegex(InvalidInputError, pattern):
                    load_beir(folder)

    def test_inconsistent_content_is_refused(self) -> None:
        cases = {
            "qrels/test.tsv": (TEST_QRELS + "q9\td1\t1\n", "queries absent from"),
            "corpus.jsonl": (CORPUS + _jsonl({"_id": "d1", "text": "again"}), "duplicate document id"),
            "queries.jsonl": (QUERIES + _jsonl({"_id": "q4", "text": 5}), "field 'text' must be a str"),
        }
        for name, (text, pattern) in cases.items():
            with self.subTest(file=name):
                folder = write_beir(self.root / name.replace("/", "_"))
                _write(folder / name, text)
                with self.assertRaisesRegex(InvalidInputError, pattern):
                    load_beir(folder)
        folder = write_beir(self.root / "grades")
        _write(folder / "qrels" / "test.tsv", TEST_QRELS + "q1\td1\t2\n")
        with self.assertRaisesRegex(InvalidInputError, "judged twice"):
            load_beir(folder)
        _write(folder / "qrels" / "test.tsv", TEST_QRELS + "q1\td3\tyes\n")
        with self.assertRaisesRegex(InvalidInputError, "must be an integer"):
            load_beir(folder)

    def test_corrupt_gzip_is_refused(self) -> None:
        folder = write_beir(self.root / "tiny")
        (folder / "corpus.jsonl").unlink()
        (folder / "corpus.jsonl.gz").write_bytes(b"\x1f\x8b\x08 this is not gzip")
        with self.assertRaisesRegex(InvalidInputError, r"cannot read .*corpus\.jsonl\.gz"):
            load_beir(folder)

    def test_hand_built_dataset_is_checked(self) -> None:
        doc = Document(id="d1", text="x")
        with self.assertRaisesRegex(InvalidInputError, "exactly the judged queries"):
            BeirDataset("n", DatasetFormat.BEIR, "test", (doc,), (Query("q1", "t"),), {"q2": {"d1": 1}})
        with self.assertRaisesRegex(InvalidInputError, "must be an int"):
            BeirDataset("n", DatasetFormat.BEIR, "test", (doc,), (Query("q1", "t"),), {"q1": {"d1": 1.0}})
        with self.assertRaisesRegex(InvalidInputError, "duplicate"):
            BeirDataset("n", DatasetFormat.BEIR, "test", (doc, doc), (), {})
        with self.assertRaisesRegex(InvalidInputError, "'beir' or 'trec'"):
            BeirDataset("n", DatasetFormat.MULTIHOP, "test", (doc,), (), {})  # type: ignore[arg-type]
        self.assertEqual(BeirDataset("n", "trec", "all", (doc,), (), {}).format, DatasetFormat.TREC)  # type: ignore[arg-type]


class TrecLoaderTest(TempDirTest):
    def test_tolerant_parsing(self) -> None:
        data = load_trec(write_trec(self.root / "npl"))
        self.assertEqual((data.format, data.split, data.name), (DatasetFormat.TREC, "all", "npl"))
        self.assertEqual(
            [(doc.id, doc.title, doc.text) for doc in data.corpus],
            [("1", "", "compact memories have flexible capacities"),
             ("2", "A title", "body text"),
             ("3", "", "three")],
        )
        # Topic 3 has no judgements and is dropped; topic 2 is classic unclosed TREC markup.
        self.assertEqual(data.queries, (Query("1", "MEASUREMENT OF DIELECTRIC"), Query("2", "classic topic")))
        self.assertEqual({q: dict(j) for q, j in data.qrels.items()}, {"1": {"1": 1, "3": 1}, "2": {"2": 2}})

    def test_plain_and_gzip_documents_agree(self) -> None:
        self.assertEqual(load_trec(write_trec(self.root / "a" / "npl", gz=True)),
                         load_trec(write_trec(self.root / "b" / "npl", gz=False)))

    def test_malformed_files_are_refused(self) -> None:
        cases = {
            "doc-text.trec": (DOC_TEXT + "<DOC><DOCNO>4</DOCNO> never closed", "4 <DOC> tags but 3 closed"),
            "query-text.trec": ("<top><num>1</num></top>", r"topic #1: expected <num>id</num>"),
            "qrels": ("1 0 1\n", r"qrels:1: expected 'qid iteration docid relevance'"),
        }
        for name, (text, pattern) in cases.items():
            with self.subTest(file=name):
                folder = write_trec(self.root / name, gz=False)
                _write(folder / name, text)
                with self.assertRaisesRegex(InvalidInputError, pattern):
                    load_trec(folder)
        folder = write_trec(self.root / "nodocno", gz=False)
        _write(folder / "doc-text.trec", "<DOC>text only</DOC>")
        with self.assertRaisesRegex(InvalidInputError, r"document #1: expected a <DOCNO>"):
            load_trec(folder)


class MultiHopLoaderTest(TempDirTest):
    def test_questions(self) -> None:
        data = load_multihop(write_multihop(self.root / "mh"))
        self.assertIsInstance(data, MultiHopDataset)
        self.assertEqual((data.name, len(data.corpus)), ("mh", 5))
        hotpot, musique, plain = data.questions
        self.assertEqual(hotpot, MultiHopQuestion(
            id="h1", question="Which band?", answer="Rush", aliases=(), type="bridge",
            gold_doc_ids=("p1", "p0"), pool_doc_ids=("p0", "p1", "p2"), line_number=0,
            decomposition=()))
        self.assertEqual(musique.decomposition, ("Van Hook >> county", "#1 >> capital"))
        self.assertEqual(musique.answers, ("Stanley", "Stanley, ND"))
        self.assertEqual(plain.id, "7")
        self.assertEqual(plain.decomposition, ("sub one", "sub two"))
        self.assertEqual(plain.aliases, ())  # answer_aliases absent
        self.assertEqual([q.line_number for q in data.questions], [0, 2, 3])  # line 1 is blank

    def test_question_round_trips_through_json(self) -> None:
        question = load_multihop(write_multihop(self.root / "mh")).questions[1]
        self.assertEqual(MultiHopQuestion.from_dict(json.loads(json.dumps(question.to_dict()))), question)

    def test_bad_questions_are_refused(self) -> None:
        cases = {
            "unknown paragraph": ({**HOTPOT_STYLE, "gold_doc_ids": ["p9"], "pool_doc_ids": []},
                                  "not in the corpus: \\['p9'\\]"),
            "gold outside pool": ({**HOTPOT_STYLE, "gold_doc_ids": ["p4"]}, "not in its pool_doc_ids"),
            "no gold": ({**HOTPOT_STYLE, "gold_doc_ids": []}, "at least one document"),
            "bad decomposition": ({**HOTPOT_STYLE, "decomposition": [1, 2]}, "decomposition must hold"),
            "missing answer": ({k: v for k, v in HOTPOT_STYLE.items() if k != "answer"},
                               r"questions\.jsonl:1: field 'answer' must be a str"),
        }
        for label, (record, pattern) in cases.items():
            with self.subTest(case=label):
                folder = write_multihop(self.root / label.replace(" ", "_"), _jsonl(record))
                with self.assertRaisesRegex(InvalidInputError, pattern):
                    load_multihop(folder)
        folder = write_multihop(self.root / "dupes", _jsonl(HOTPOT_STYLE, HOTPOT_STYLE))
        with self.assertRaisesRegex(InvalidInputError, "duplicate question id"):
            load_multihop(folder)


class DetectFormatTest(TempDirTest):
    def test_each_layout_is_detected_and_loaded(self) -> None:
        folders = {
            DatasetFormat.BEIR: write_beir(self.root / "beir", gz=True),
            DatasetFormat.TREC: write_trec(self.root / "trec"),
            DatasetFormat.MULTIHOP: write_multihop(self.root / "mh"),
        }
        for fmt, folder in folders.items():
            with self.subTest(format=fmt):
                self.assertEqual(detect_format(folder), fmt)
                loaded = load_dataset(str(folder))
                self.assertEqual(type(loaded), MultiHopDataset if fmt is DatasetFormat.MULTIHOP else BeirDataset)
        self.assertEqual(load_dataset(folders[DatasetFormat.BEIR], split="train").split, "train")

    def test_unknown_and_ambiguous_layouts(self) -> None:
        empty = self.root / "empty"
        empty.mkdir()
        with self.assertRaisesRegex(InvalidInputError, "no known layout.*beir: corpus.jsonl"):
            detect_format(empty)
        both = write_multihop(write_beir(self.root / "both"))
        with self.assertRaisesRegex(InvalidInputError, r"several layouts \['beir', 'multihop'\]"):
            load_dataset(both)
        with self.assertRaisesRegex(InvalidInputError, "must be a path"):
            detect_format(42)  # type: ignore[arg-type]


class RealDataSmokeTest(unittest.TestCase):
    """The shared evaluation data loads with its documented sizes."""

    def _folder(self, name: str) -> Path:
        folder = DATA / name
        if not folder.is_dir():
            self.skipTest(f"../shared/data/{name} is absent; real-data smoke test skipped")
        return folder

    def test_scifact(self) -> None:
        data = load_dataset(self._folder("scifact"))
        assert isinstance(data, BeirDataset)
        self.assertEqual(data.format, DatasetFormat.BEIR)
        self.assertEqual(len(data.corpus), 5183)
        self.assertEqual(len(data.queries), 300)
        self.assertEqual(len(data.qrels), 300)
        self.assertEqual(sum(len(judged) for judged in data.qrels.values()), 339)

    def test_vaswani(self) -> None:
        data = load_dataset(self._folder("vaswani"))
        assert isinstance(data, BeirDataset)
        self.assertEqual(data.format, DatasetFormat.TREC)
        self.assertEqual(len(data.corpus), 11429)
        self.assertEqual(len(data.queries), 93)
        self.assertEqual(sum(len(judged) for judged in data.qrels.values()), 2083)
        self.assertTrue(all(doc.text and "  " not in doc.text for doc in data.corpus))

    def test_hotpotqa(self) -> None:
        data = load_dataset(self._folder("hotpotqa"))
        assert isinstance(data, MultiHopDataset)
        self.assertEqual((len(data.questions), len(data.corpus)), (200, 1971))
        types = [q.type for q in data.questions]
        self.assertEqual((types.count("bridge"), types.count("comparison")), (134, 66))
        self.assertTrue(all(len(q.gold_doc_ids) == 2 for q in data.questions))
        # Every pool holds its gold pair; one question comes with only those two paragraphs.
        self.assertEqual(sorted({len(q.pool_doc_ids) for q in data.questions}), [2, 10])
        self.assertEqual(sum(len(q.pool_doc_ids) == 10 for q in data.questions), 199)
        self.assertEqual([q.line_number for q in data.questions], list(range(200)))

    def test_musique(self) -> None:
        data = load_dataset(self._folder("musique"))
        assert isinstance(data, MultiHopDataset)
        self.assertEqual((len(data.questions), len(data.corpus)), (292, 4543))
        # One sub-question per hop: type "3hop1" has 3.
        self.assertTrue(all(len(q.decomposition) == int(q.type[0]) for q in data.questions))
        self.assertEqual(sum(1 for q in data.questions if q.aliases), 88)


if __name__ == "__main__":
    unittest.main()
