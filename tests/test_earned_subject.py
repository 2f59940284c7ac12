"""Deterministic answers stay on their subject (issue 35, item 5): a value earns ``answered``
only from a sentence about the question's subject, about the asked attribute (not the other
bound, another stage of a life cycle, another end of a connection, another term's
definition), stated as a present or past fact (not planned, possible or denied); a partial
answer quotes no closest line from another entity's passage, nor one that shares no word
with what is missing."""

from __future__ import annotations

import unittest

from agentic_rag._answering.attributes import statement_problem
from agentic_rag._text.asked_attribute import Aspect, asked_aspects, aspects_in, defined_term, read_attribute
from agentic_rag._text.relevance import RelevanceModel
from cli_support import indexed_service
from earned_support import VerdictCase



class QuestionReadingTest(unittest.TestCase):
    def test_attribute_and_subject(self):
        cases = {
            "What is the land area of Veloria?": (("land", "area"), ("veloria",)),
            "What was Acme Robotics' total revenue for fiscal 2023?": (("revenue",), ("acme", "robotics")),
            "Where is Acme Robotics headquartered?": (("headquartered",), ("acme", "robotics")),
            "Who is the chief executive of Brightline Systems?": (("chief", "executive"), ("brightline", "systems")),
        }
        for question, (words, subject) in cases.items():
            with self.subTest(question=question):
                attribute = read_attribute(question)
                self.assertEqual((attribute.words, attribute.subject), (words, subject))
        self.assertIsNone(read_attribute("How do I register an error handler without the decorator?"))

    def test_aspects(self):
        self.assertEqual(asked_aspects("What is the shortest password Corvid Auth accepts?"), {Aspect.MINIMUM})
        self.assertEqual(asked_aspects("Which Reportly release removed XML export?"), {Aspect.REMOVED})
        # The "max" of a name is not a bound.
        self.assertEqual(asked_aspects("What is the default value of max_connections?"), frozenset())
        self.assertEqual(aspects_in("Business plans support up to 250 seats."), {Aspect.MAXIMUM})

    def test_defined_term(self):
        self.assertEqual(defined_term("What is a cold replica in Loglake?"), ("cold", "replica"))
        self.assertEqual(defined_term("What does Acme mean by net retention?"), ("net", "retention"))
        self.assertEqual(defined_term("What is the capital of Veloria?"), ())


class OtherAttributeTest(VerdictCase):
    def test_another_attribute_of_the_subject_does_not_answer(self):
        ostrand = "Ostrand lies north of Veloria, along the Kessel Sea coast.\n\n- Area: 48,000 km²\n- Land: mostly forest"
        self.assertNotAnswered("What is the land area of Veloria?", "Ostrand — Country Notes", "Ostrand lies north of Veloria, along the Kessel Sea coast.", ostrand)
        faq = "Is there an upload size limit per plan?\nUploads are not limited by plan.\n\nStorage quotas are: Free 5 GB, Pro 200 GB, Team 1 TB, Business 5 TB."
        self.assertNotAnswered("What is the upload size limit on the Filebox Pro plan?", "Filebox FAQ: Storage and Uploads",
                               "Storage quotas are: Free 5 GB, Pro 200 GB, Team 1 TB, Business 5 TB.", faq)

    def test_the_attribute_stated_answers(self):
        self.assertAnswered("What is the capital of Ostrand?", "Ostrand — Country Notes", "- Capital: Talvik")


class BoundTest(VerdictCase):
    def test_the_other_bound_does_not_answer(self):
        self.assertNotAnswered("What is the shortest password Corvid Auth accepts?", "Corvid Auth: Password Policy › Length",
                               "Passwords may be up to 128 characters long.",
                               "Corvid Auth accepts passwords of a length set per tenant; the shortest is configurable. Passwords may be up to 128 characters long.")
        self.assertNotAnswered("What is the lowest operating temperature of the Wren K2 sensor?", "Wren K2 Environmental Sensor — Datasheet › Environmental",
                               "- Maximum operating temperature: 70 °C")
        table = "Setting | Default | Notes\nworker_threads | 4 | Must be at least 1.\nmax_connections | 512 | Per worker.\n\n"
        self.assertNotAnswered("What is the maximum value allowed for worker_threads in Harbor Proxy?", "Harbor Proxy Configuration Reference",
                               "worker_threads | 4 | Must be at least 1.", table + "The maximum value allowed depends on the host.")
        # A default is no limit, and the "max" of the setting's own name is no bound.
        self.assertNotAnswered("What is the upper limit for max_connections in Harbor Proxy?", "Harbor Proxy Configuration Reference",
                               "max_connections | 512 | Per worker.", table + "The upper limit of each setting depends on the host.")

    def test_a_bound_stated_through_a_negation_answers(self):
        # "does not support trees wider than 5 dimensions" states a maximum; it denies nothing.
        self.assertAnswered("What is the shortest password Corvid Auth accepts?", "Corvid Auth: Password Policy",
                            "Corvid Auth does not accept passwords shorter than 12 characters.")
        self.assertEqual(statement_problem("How many levels can a Quill tree have at most?", "The Quill tree",
                                           "The Quill implementation does not support trees deeper than 8 levels.", "8", RelevanceModel()), "")

    def test_the_asked_bound_answers(self):
        self.assertAnswered("What is the maximum operating temperature of the Wren K2 sensor?", "Wren K2 Environmental Sensor — Datasheet › Environmental",
                            "- Maximum operating temperature: 70 °C")


class OtherEntityTest(VerdictCase):
    def test_another_entitys_value_does_not_answer(self):
        self.assertNotAnswered("What is the capital of Veloria?", "Veloria — Geography Notes › Borders",
                               "Ostrand's capital, Talvik, lies only 40 km from the Velorian border.")
        self.assertNotAnswered("Where is Acme Robotics headquartered?", "Acme Robotics — Company Fact Sheet › History",
                               "Acme's subsidiary Brightline Systems is headquartered in Ghent, Belgium.")
        self.assertNotAnswered("Where is Larkspur Tea headquartered?", "Larkspur Tea › Partners",
                               "Larkspur's US partner, Kestrel Coffee, is headquartered in Portland, Oregon.")
        self.assertNotAnswered("What is the official language of Ostrand?", "Ostrand — Country Notes › Languages",
                               "Across the southern border in Veloria, the official language is Velorian.")
        self.assertNotAnswered("What is the default port of the Harbor server's proxy listener?", "Harbor Proxy Server: Network Ports",
                               "- Admin API: the admin API listens on port 9443 by default (`admin.port`).")

    def test_a_line_under_another_entitys_heading_does_not_answer(self):
        # The agentic workflow reads a hop's claim with the claims of the hop it leans on
        # after it: those name the subject, the line does not.
        self.assertNotAnswered("What is the lowest operating temperature of the Wren K2 sensor?", "Wren K1 Environmental Sensor — Datasheet › Environmental",
                               "- Operating temperature: −20 °C to 60 °C\n\nThe K1 was replaced by the K2 in 2023.")

    def test_a_how_to_is_not_answered_by_the_other_end(self):
        table = ("Key | Default | Description\nclient.listen_port | 9101 | Local port the client agent listens on\n"
                 "client.server_url | (required) | URL of the Harbor server")
        row = "client.listen_port | 9101 | Local port the client agent listens on"
        self.assertNotAnswered("How do I change the port of the Harbor server?", "Harbor Client Agent: Configuration", row,
                               table + "\n\nThe agent forwards traffic to the Harbor server; change its port here.")
        self.assertAnswered("How do I change the port the Harbor client agent listens on?", "Harbor Client Agent: Configuration", row, table)

    def test_the_subjects_own_value_answers(self):
        self.assertAnswered("Where is Kestrel Coffee's roastery?", "Careers at Kestrel Coffee › Where we work", "Our roastery and support office are in Portland.")


class LifeCycleTest(VerdictCase):
    def test_another_stage_does_not_answer(self):
        self.assertNotAnswered("Which Reportly release removed XML export?", "Reportly: Exporting Reports › XML export",
                               "XML export is deprecated since 5.1 and scheduled for removal in a future release.")
        self.assertNotAnswered("In which Tessera CLI version was the --legacy-auth flag introduced?", "Tessera CLI Changelog › 3.2.0",
                               "- Deprecated `--legacy-auth`.")

    def test_the_asked_stage_answers(self):
        self.assertAnswered("In which version was the mirror command added to Tessera CLI?", "Tessera CLI Changelog › Version 2.4.0", "- Added the `mirror` command.")

    def test_a_yes_no_question_is_answered_by_a_denial(self):
        self.assertAnswered("Does Harbor Proxy support HTTP/3?", "Harbor Proxy FAQ", "No. HTTP/3 (QUIC) is not supported.")


class DefinitionTest(VerdictCase):
    def test_another_terms_definition_or_a_mention_does_not_answer(self):
        self.assertNotAnswered("What is a cold replica in Loglake?", "Loglake Glossary: Replicas and Tiers",
                               "**Cold storage** — object storage where archived logs are kept; they must be restored before querying.")
        self.assertNotAnswered("What is a drain window in Harbor Proxy?", "Harbor Proxy: Graceful Shutdown › Drain windows",
                               "Drain windows are covered in the operations guide.")
        self.assertNotAnswered("What does soft quota mean in Loglake?", "Loglake: Ingestion Quotas › Soft quotas",
                               "Soft quotas can be set per team. Contact support to enable them.")

    def test_the_terms_definition_answers(self):
        self.assertAnswered("What is a warm replica in Loglake?", "Loglake Glossary: Replicas and Tiers",
                            "**Warm replica** — a read-only copy of a shard kept on cheaper disks and used for queries older than 7 days.")


class NoValueTest(VerdictCase):
    def test_a_denied_or_withheld_value_does_not_answer(self):
        self.assertNotAnswered("What is the default value of idle_timeout in Harbor Proxy?", "Harbor Proxy Configuration Reference › idle_timeout",
                               "`idle_timeout` has no default; most deployments set it to 30 seconds.")
        self.assertNotAnswered("What is the upload size limit on the Filebox Pro plan?", "Filebox FAQ: Storage and Uploads",
                               "Uploads are not limited by plan. Very large files should use multipart uploads.")


class HedgedTest(VerdictCase):
    def test_a_planned_or_possible_value_does_not_answer(self):
        self.assertNotAnswered("What is the battery life of the Wren K2 sensor?", "Wren K2 Environmental Sensor — Datasheet › Battery",
                               "In lab conditions, with the radio disabled, battery life could reach 5 years.")
        self.assertNotAnswered("Where is Kestrel Coffee's European office?", "Careers at Kestrel Coffee › Where we work",
                               "We plan to open a European office in Oslo in 2026, starting with a small wholesale team.")
        self.assertNotAnswered("Which Tessera CLI version removed --legacy-auth?", "Tessera CLI: Authentication › Legacy authentication",
                               "`--legacy-auth` sends your username and password on every request. It will be removed in Tessera 4.0.")


_CORPUS = {
    "ostrand.md": "# Ostrand — Country Notes\n\nOstrand lies north of Veloria, along the Kessel Sea coast.\n\n- Capital: Talvik\n- Area: 48,000 km²\n\n"
                  "## Languages\n\nAcross the southern border in Veloria, the official language is Velorian.\n",
    "veloria.md": "# Veloria — Geography Notes\n\nVeloria is a landlocked country in the Marren basin.\n\n## People\n\n"
                  "- Population: 2.3 million (2021 census)\n- Official language: Velorian\n",
    "brightline.md": "# Brightline Systems — Fact Sheet\n\nBrightline Systems makes industrial machine-vision cameras.\n\n"
                     "## Key figures\n\n| Year | Revenue | Operating margin |\n|------|---------|------------------|\n| 2023 | €48 million | 13% |\n",
    "acme.md": "# Acme Robotics — Company Fact Sheet\n\nAcme Robotics designs autonomous pallet movers.\n\n## At a glance\n\n"
               "- Operations: 3 factories (Lyon, Brno, Monterrey)\n- Chief Executive Officer: Dana Whitfield\n",
}


class StoreTest(unittest.TestCase):
    """Near misses in one store, asked through the service behind ``agentic-rag ask`` in both
    workflows (the agentic one reads a hop with the hop it leans on: their headings must not
    lend each other a subject)."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.service = indexed_service(cls, _CORPUS, "company and country notes")

    def test_near_misses_are_not_answered(self):
        for question in ("What is the official language of Ostrand?", "Who is the chief executive of Brightline Systems?",
                         "What is the population of Ostrand?", "What is the land area of Veloria?"):
            for mode in ("agentic", "parallel"):
                with self.subTest(question=question, mode=mode):
                    payload = self.service.ask(question, mode).payload
                    self.assertNotEqual(payload["status"], "answered", payload["answer"])

    def test_a_table_row_reads_under_its_header(self):
        for mode in ("agentic", "parallel"):
            with self.subTest(mode=mode):
                payload = self.service.ask("What was Brightline Systems' revenue in 2023?", mode).payload
                self.assertEqual(payload["status"], "answered", payload["answer"])
                self.assertIn("€48 million", payload["answer"])


class DemoTest(unittest.TestCase):
    def test_the_partial_answer_quotes_no_other_subject(self):
        from agentic_rag._interfaces.mcp_demo import demo_service
        from agentic_rag._samples import PARTIAL_QUESTION

        with demo_service() as service:
            payload = service.ask(PARTIAL_QUESTION).payload
        self.assertEqual(payload["status"], "partial")
        paths = {c["path"] for claim in payload["claims"] for c in claim["citations"]}
        self.assertEqual(paths, {"company-records/acme-robotics.md"})  # not cobalt-foods.md
        self.assertNotIn("850 employees", payload["answer"])
        self.assertNotIn("Atlas picker", payload["answer"])  # a product sentence for a head count


if __name__ == "__main__":
    unittest.main()
