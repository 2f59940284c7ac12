"""HotpotQA, 2WikiMultihopQA and MuSiQue files as published, on tiny files written in their
shapes; duplicate pool entries and evidence-triple decompositions in normalised folders; and
the shared data rewritten into the published shapes (skipped when ../shared is absent)."""

from __future__ import annotations

import gzip
import json
import tempfile
import unittest
from pathlib import Path

from cli_support import run_cli

from agentic_rag._errors import InvalidInputError
from agentic_rag.evaluation import (
    DatasetFormat,
    MultiHopDataset,
    detect_format,
    load_2wikimultihopqa,
    load_dataset,
    load_hotpotqa,
    load_multihop,
    load_musique,
)
from agentic_rag.evaluation.suites import run_eval

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def hotpot_record(qid: str, **changes: object) -> dict:
    record = {
        "_id": qid, "question": "Which band did the drummer of Counterparts join?", "answer": "Rush",
        "supporting_facts": [["Counterparts", 0], ["Neil Peart", 0], ["Neil Peart", 1]],
        # HotpotQA keeps each sentence's leading space; the loader joins without doubling it.
        "context": [["Counterparts", ["Counterparts is an album", " by Rush."]],
                    ["Neil Peart", ["Neil Peart was a drummer.", " He joined Rush."]],
                    ["Soup", ["Tomato soup needs tomatoes."]]],
        "type": "bridge", "level": "hard",
    }
    record.update(changes)
    return record


HOTPOT = [
    hotpot_record("h1"),
    # Shares "Soup" (same text: one paragraph) and has another "Counterparts" paragraph.
    hotpot_record("h2", supporting_facts=[["Counterparts", 0]], type="comparison",
                  context=[["Counterparts", ["A different", "paragraph."]], ["Soup", ["Tomato soup needs tomatoes."]]]),
]
TWOWIKI = [{
    "_id": "w1", "type": "compositional", "question": "Who is the director of Move's father?", "answer": "Ann",
    "context": [["Move", ["Move is a film by Bo."]], ["Bo", ["Bo is the child of Ann."]], ["Tea", ["Tea is a drink."]]],
    "supporting_facts": [["Move", 0], ["Bo", 0]],
    "evidences": [["Move", "director", "Bo"], ["Bo", "father", "Ann"]],
}]


def musique_record(qid: str, **changes: object) -> dict:
    record = {
        "id": qid, "question": "What is the seat of the county of Van Hook?", "answer": "Stanley",
        "answer_aliases": ["Stanley, ND"],
        "paragraphs": [
            {"idx": 0, "title": "Port Blair", "paragraph_text": "Port Blair is a city.", "is_supporting": False},
            {"idx": 1, "title": "Mountrail County", "paragraph_text": "Its seat is  Stanley.", "is_supporting": True},
            {"idx": 2, "title": "Van Hook", "paragraph_text": "Van Hook is in Mountrail County.", "is_supporting": True},
        ],
        "question_decomposition": [
            {"id": 1, "question": "Van Hook >> county", "answer": "Mountrail County", "paragraph_support_idx": 2},
            {"id": 2, "question": "#1 >> capital", "answer": "Stanley", "paragraph_support_idx": 1},
        ],
        "answerable": True,
    }
    record.update(changes)
    return record


def write_json(path: Path, records: object) -> Path:
    path.write_text(json.dumps(records), encoding="utf-8")
    return path


def write_jsonl(path: Path, records: list, *, gz: bool = False) -> Path:
    text = "".join(json.dumps(r) + "\n" for r in records)
    if gz:
        with gzip.open(path, "wt", encoding="utf-8") as handle:
            handle.write(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


class TempDirTest(unittest.TestCase):
    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self._tmp.cleanup)
        self.root = Path(self._tmp.name)


class HotpotQATest(TempDirTest):
    def test_published_shape(self) -> None:
        path = write_json(self.root / "hotpot_dev_distractor_v1.json", HOTPOT)
        self.assertEqual(detect_format(path), DatasetFormat.HOTPOTQA)
        data = load_dataset(path)
        self.assertEqual(data, load_hotpotqa(path))
        assert isinstance(data, MultiHopDataset)
        self.assertEqual((data.name, data.format, data.notes), ("hotpot_dev_distractor_v1", DatasetFormat.HOTPOTQA, ()))
        self.assertEqual([(d.id, d.title, d.text) for d in data.corpus], [
            ("Counterparts", "Counterparts", "Counterparts is an album by Rush."),
            ("Neil Peart", "Neil Peart", "Neil Peart was a drummer. He joined Rush."),
            ("Soup", "Soup", "Tomato soup needs tomatoes."),
            ("Counterparts#2", "Counterparts", "A different paragraph."),  # same title, other text
        ])
        self.assertEqual({d.corpus_id for d in data.corpus}, {"hotpot_dev_distractor_v1"})
        first, second = data.questions
        self.assertEqual(first.gold_doc_ids, ("Counterparts", "Neil Peart"))
        self.assertEqual(first.pool_doc_ids, ("Counterparts", "Neil Peart", "Soup"))
        self.assertEqual((first.type, first.answer, first.line_number, first.decomposition), ("bridge", "Rush", 0, ()))
        self.assertEqual((second.gold_doc_ids, second.pool_doc_ids), (("Counterparts#2",), ("Counterparts#2", "Soup")))
        self.assertEqual((second.type, second.line_number), ("comparison", 1))

    def test_a_paragraph_listed_twice_is_kept_once_and_counted(self) -> None:
        context = HOTPOT[0]["context"]
        records = [hotpot_record("h1", context=[*context, context[2]]), hotpot_record("h2"),
                   hotpot_record("h3", context=[context[0], *context, context[1]])]
        data = load_hotpotqa(write_json(self.root / "dev.json", records))
        self.assertEqual([q.pool_doc_ids for q in data.questions], [("Counterparts", "Neil Peart", "Soup")] * 3)
        self.assertEqual(data.notes, ("3 duplicate pool entries in 2 questions dropped, the first of each kept "
                                      "(e.g. question 'h1' lists 'Soup' twice)",))

    def test_gzip_and_json_lines_read_the_same(self) -> None:
        plain = load_hotpotqa(write_json(self.root / "a.json", HOTPOT))
        packed = load_hotpotqa(write_jsonl(self.root / "a.jsonl.gz", HOTPOT, gz=True))
        self.assertEqual((plain.name, plain.corpus, plain.questions), (packed.name, packed.corpus, packed.questions))


class TwoWikiTest(TempDirTest):
    def test_evidences_become_the_decomposition(self) -> None:
        path = write_json(self.root / "dev.json", TWOWIKI)
        self.assertEqual(detect_format(path), DatasetFormat.TWOWIKI)
        data = load_dataset(path)
        self.assertEqual(data, load_2wikimultihopqa(path))
        assert isinstance(data, MultiHopDataset)
        question = data.questions[0]
        self.assertEqual(data.format, DatasetFormat.TWOWIKI)
        self.assertEqual(question.decomposition, ("Move >> director", "Bo >> father"))
        self.assertEqual((question.gold_doc_ids, question.type), (("Move", "Bo"), "compositional"))

    def test_hotpotqa_record_is_not_2wiki(self) -> None:
        path = write_json(self.root / "dev.json", HOTPOT)
        with self.assertRaisesRegex(InvalidInputError, r"dev\.json: record 1: expected a 2wikimultihopqa record "
                                                       r"\{_id, .*evidences: \[\[subject, relation, object\]\]\}"):
            load_2wikimultihopqa(path)

    def test_normalised_folder_with_evidence_triples_loads(self) -> None:
        folder = self.root / "2wiki"
        folder.mkdir()
        write_jsonl(folder / "corpus.jsonl", [{"_id": "p0", "title": "Move", "text": "Move is a film by Bo."},
                                             {"_id": "p1", "title": "Bo", "text": "Bo is the child of Ann."}])
        question = {"id": "w1", "question": "q?", "answer": "Ann", "type": "compositional",
                    "gold_doc_ids": ["p0", "p1", "p0"], "pool_doc_ids": ["p0", "p1", "p1"],
                    "decomposition": [["Move", "director", "Bo"], ["Bo", "father", "Ann"]]}
        write_jsonl(folder / "questions.jsonl", [question])
        data = load_multihop(folder)
        self.assertEqual(data.questions[0].decomposition, ("Move >> director", "Bo >> father"))
        self.assertEqual((data.questions[0].gold_doc_ids, data.questions[0].pool_doc_ids), (("p0", "p1"), ("p0", "p1")))
        self.assertEqual(data.notes, ("1 duplicate pool entries in 1 questions dropped, the first of each kept "
                                      "(e.g. question 'w1' lists 'p1' twice)",))
        bad = {**question, "decomposition": [["Move", "director"]]}
        write_jsonl(folder / "questions.jsonl", [bad])
        with self.assertRaisesRegex(InvalidInputError, r"questions\.jsonl:1: decomposition must hold .*triples"):
            load_multihop(folder)


class MuSiQueTest(TempDirTest):
    def test_published_shape(self) -> None:
        records = [musique_record("2hop__1_2"), musique_record("3hop1__9_8_7", answerable=False),
                   musique_record("odd-id", question_decomposition=[])]
        path = write_jsonl(self.root / "musique_full_v1.0_dev.jsonl", records)
        self.assertEqual(detect_format(path), DatasetFormat.MUSIQUE)
        data = load_dataset(path)
        self.assertEqual(data, load_musique(path))
        assert isinstance(data, MultiHopDataset)
        self.assertEqual([d.id for d in data.corpus], ["Port Blair", "Mountrail County", "Van Hook"])
        self.assertEqual(data.corpus[1].text, "Its seat is Stanley.")
        hops, plain = data.questions
        self.assertEqual(hops.gold_doc_ids, ("Van Hook", "Mountrail County"))  # hop order
        self.assertEqual(plain.gold_doc_ids, ("Mountrail County", "Van Hook"))  # is_supporting order
        self.assertEqual((hops.type, plain.type), ("2hop", ""))
        self.assertEqual(hops.decomposition, ("Van Hook >> county", "#1 >> capital"))
        self.assertEqual(hops.answers, ("Stanley", "Stanley, ND"))
        self.assertEqual([q.line_number for q in data.questions], [0, 2])
        self.assertEqual(data.notes, ("1 unanswerable questions (answerable: false) skipped",))


class MalformedFilesTest(TempDirTest):
    def test_errors_name_file_record_and_shape(self) -> None:
        paragraph = musique_record("m")["paragraphs"][0]
        cases = [
            ("hotpot.json", [hotpot_record("h", context=[["Soup", "not a list"]])],
             r"hotpot\.json: record 1: context entries must be \[title, \[sentences\]\]"),
            ("hotpot.json", [HOTPOT[0], hotpot_record("h", supporting_facts=[["Nowhere", 0]])],
             r"record 2: supporting fact title 'Nowhere' is not a context title"),
            ("hotpot.json", [hotpot_record("h", supporting_facts=[["Soup", "0"]])],
             r"supporting_facts entries must be \[title, sentence index\]"),
            ("hotpot.json", [hotpot_record("h", answer=None)], r"record 1: field 'answer' must be a str"),
            ("hotpot.json", [hotpot_record("h", context={"Soup": []})],
             r"field 'context' must be a list of \[title, \[sentences\]\] pairs"),
            ("musique.jsonl", [musique_record("m", paragraphs=[{**paragraph, "is_supporting": "yes"}])],
             r"musique\.jsonl:1: paragraphs entries must be \{idx: int, title: str, paragraph_text: str, is_supporting: bool\}"),
            ("musique.jsonl", [musique_record("m", question_decomposition=[{"question": "x", "paragraph_support_idx": 7}])],
             r"musique\.jsonl:1: question_decomposition paragraph_support_idx 7 is no paragraph idx"),
            ("musique.jsonl", [musique_record("m", answerable="yes")], r"field 'answerable' must be true or false"),
            ("musique.jsonl", [musique_record("m", paragraphs=[{**paragraph, "is_supporting": False}], question_decomposition=[])],
             r"musique\.jsonl:1: MultiHopQuestion 'm' gold_doc_ids must name at least one document"),
            ("duplicate.json", [HOTPOT[0], HOTPOT[0]], r"duplicate question id"),
        ]
        for name, records, pattern in cases:
            with self.subTest(pattern=pattern):
                path = self.root / name
                (write_jsonl if name.endswith(".jsonl") else write_json)(path, records)
                with self.assertRaisesRegex(InvalidInputError, pattern):
                    load_dataset(path)

    def test_unreadable_or_unknown_files(self) -> None:
        broken = self.root / "broken.json"
        broken.write_text('[{"_id": "h",\n "question": }]', encoding="utf-8")
        with self.assertRaisesRegex(InvalidInputError, r"broken\.json:2:\d+: invalid JSON .*expected a JSON list"):
            load_hotpotqa(broken)
        lines = write_jsonl(self.root / "lines.jsonl", [musique_record("m")])
        lines.write_text(lines.read_text(encoding="utf-8") + "{oops\n", encoding="utf-8")
        with self.assertRaisesRegex(InvalidInputError, r"lines\.jsonl:2: invalid JSON"):
            load_musique(lines)
        other = write_json(self.root / "other.json", [{"query": "q"}])
        with self.assertRaisesRegex(InvalidInputError, r"other\.json: record 1: a record with \['query'\] is none of "
                                                       r"the published QA formats; expected hotpotqa: \{_id"):
            load_dataset(other)
        empty = write_json(self.root / "empty.json", [])
        with self.assertRaisesRegex(InvalidInputError, "holds no questions"):
            detect_format(empty)
        with self.assertRaisesRegex(InvalidInputError, "does not exist or is not a file"):
            load_musique(self.root / "absent.jsonl")
        with self.assertRaisesRegex(InvalidInputError, r"no dataset folder or file at .*absent\.json'"):
            load_dataset(self.root / "absent.json")

    def test_explicit_format(self) -> None:
        hotpot = write_json(self.root / "dev.json", HOTPOT)
        self.assertEqual(load_dataset(hotpot, format="hotpotqa"), load_dataset(hotpot, format=DatasetFormat.HOTPOTQA))
        with self.assertRaisesRegex(InvalidInputError, r"record 1: expected a musique record \{id, question"):
            load_dataset(hotpot, format="musique")
        with self.assertRaisesRegex(InvalidInputError, r"format 'beir' expects a folder"):
            load_dataset(hotpot, format="beir")
        with self.assertRaisesRegex(InvalidInputError, r"format 'hotpotqa' expects a file"):
            load_dataset(self.root, format="hotpotqa")
        with self.assertRaisesRegex(InvalidInputError, r"format must be one of \['auto', 'beir', 'trec', 'multihop', "
                                                       r"'hotpotqa', '2wikimultihopqa', 'musique'\], got 'squad'"):
            load_dataset(hotpot, format="squad")


class EvalCommandTest(TempDirTest):
    def test_eval_reads_a_published_file_and_reports_the_notes(self) -> None:
        context = HOTPOT[0]["context"]
        path = write_json(self.root / "dev.json", [hotpot_record("h1", context=[*context, context[0]])])
        report = run_eval(path, format="auto")
        self.assertEqual((report.dataset, report.format), ("dev", "hotpotqa"))
        self.assertEqual(report.notes, load_hotpotqa(path).notes)
        code, out, err = run_cli("eval", str(path), "--format", "hotpotqa")
        self.assertEqual(code, 0, err)
        self.assertIn("dev (hotpotqa)\nnote: 1 duplicate pool entries in 1 questions dropped", out)
        code, out, err = run_cli("eval", str(path), "--json")
        self.assertEqual(code, 0, err)
        self.assertEqual(sorted(json.loads(out)), ["iterative", "one_shot", "parallel"])
        self.assertIn("note: 1 duplicate pool entries", err)
        code, _, err = run_cli("eval", str(path), "--format", "musique")
        self.assertNotEqual(code, 0)
        self.assertIn("expected a musique record", err)


class SharedDataInPublishedShapesTest(TempDirTest):
    """The shared HotpotQA and MuSiQue questions, written back into the published shapes, load
    to the same questions, gold paragraphs and pools as the normalised folders."""

    def _folder(self, name: str) -> Path:
        folder = DATA / name
        if not folder.is_dir():
            self.skipTest(f"../shared/data/{name} is absent; real-data test skipped")
        return folder

    @staticmethod
    def _read(folder: Path) -> tuple[dict[str, dict], list[dict]]:
        with gzip.open(folder / "corpus.jsonl.gz", "rt", encoding="utf-8") as handle:
            docs = {d["_id"]: d for d in map(json.loads, handle)}
        questions = [json.loads(line) for line in (folder / "questions.jsonl").read_text(encoding="utf-8").splitlines()]
        return docs, questions

    def _same_questions(self, official: MultiHopDataset, normalised: object) -> None:
        assert isinstance(normalised, MultiHopDataset)
        titles = {d.id: d.title for d in normalised.corpus}
        self.assertEqual(len(official.corpus), len(normalised.corpus))
        self.assertEqual(len(official.questions), len(normalised.questions))
        for mine, theirs in zip(official.questions, normalised.questions):
            self.assertEqual((mine.id, mine.answer, mine.type), (theirs.id, theirs.answer, theirs.type))
            self.assertEqual([official_title.split("#")[0] for official_title in mine.gold_doc_ids],
                             [titles[d] for d in theirs.gold_doc_ids])
            self.assertEqual(len(mine.pool_doc_ids), len(theirs.pool_doc_ids))
        self.assertEqual(official.notes, ())

    def test_hotpotqa(self) -> None:
        folder = self._folder("hotpotqa")
        docs, questions = self._read(folder)
        records = [{"_id": q["id"], "question": q["question"], "answer": q["answer"], "type": q["type"], "level": q["level"],
                    "supporting_facts": q["supporting_facts"],
                    "context": [[docs[d]["title"], docs[d]["sentences"]] for d in q["pool_doc_ids"]]} for q in questions]
        path = write_json(self.root / "hotpot_dev_distractor_v1.json", records)
        self._same_questions(load_dataset(path), load_dataset(folder))

    def test_musique(self) -> None:
        folder = self._folder("musique")
        docs, questions = self._read(folder)
        path = write_jsonl(self.root / "musique_ans_v1.0_dev.jsonl", [{
            "id": q["id"], "question": q["question"], "answer": q["answer"], "answer_aliases": q["answer_aliases"],
            "paragraphs": [{"idx": n, "title": docs[d]["title"], "paragraph_text": docs[d]["text"],
                            "is_supporting": d in q["gold_doc_ids"]} for n, d in enumerate(q["pool_doc_ids"])],
            "question_decomposition": q["decomposition"], "answerable": True} for q in questions])
        official = load_dataset(path)
        self._same_questions(official, load_dataset(folder))
        assert isinstance(official, MultiHopDataset)
        self.assertTrue(all(len(q.decomposition) == int(q.type[0]) for q in official.questions))


if __name__ == "__main__":
    unittest.main()
