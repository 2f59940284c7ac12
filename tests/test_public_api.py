"""The public surface: a curated root ``__all__``, public subpackages, private implementation.

The golden lists below are the surface. Adding or removing a public name means editing them
here on purpose, in the same change that edits the package.
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
import unittest
import warnings
from pathlib import Path

import agentic_rag

SRC = Path(__file__).resolve().parents[1] / "src"

ROOT_NAMES = (
    "AgenticRAGError", "AgenticRAGOrchestrator", "AnswerStatus", "AnswerabilityLabel",
    "AutoraterStyleSufficiencyJudge", "BM25Index", "BM25Retriever", "BindingError", "BranchFailureError",
    "BranchOutcome", "BudgetExhaustedError", "Citation", "Claim", "ContextAssessment", "Corpus", "Document",
    "Drafter", "Embedder", "ExtractiveGenerator", "FunctionRetriever", "FusedDocument", "GeneratedAnswer",
    "Generator", "GroundedAnswer", "HashingEmbedder", "IndexFormatError", "IndexRetriever", "InvalidInputError",
    "IterationTrace", "KnowledgeStore", "MultiQueryRewriter", "OrchestratorConfig", "ParallelRAGWorkflow",
    "Planner", "ProviderError", "ProviderHTTPError", "ProviderTimeoutError", "QueryRewriter",
    "QueryViewRewriter", "RAGRequest", "RAGResult", "Reranker", "RequiredFact", "RetrievalError",
    "RetrievalPlan", "Retriever", "RunBudget", "RunResult", "Snippet", "StopReason", "StoreError",
    "StructuredOutputError", "Subquery", "SufficiencyJudge", "Synthesizer", "Usage", "VectorIndex",
    "current_budget", "reciprocal_rank_fusion", "use_budget",
)

COMPONENT_NAMES = (
    "AbstentionPolicy", "Analyzer", "CallableEmbedder", "CorpusRouter", "DecompositionRewriter",
    "ExtractiveDrafter", "ExtractiveGroundedSynthesizer", "FunctionGenerator", "HeuristicPlanner",
    "HyDERewriter", "IdentityRewriter", "LexicalClaimVerifier", "LexicalReranker", "MMRReranker", "PlanFeedbackRewriter",
    "RM3Rewriter", "RelevanceAnswerability", "RelevanceModel", "TermWeights", "collection_orchestrator",
    "distribution_based_score_fusion", "fuse", "relative_score_fusion", "verify_citations",
)

TYPE_NAMES = (
    "AnswerCitation", "Answerability", "BranchStatus", "ClaimCheck", "ClaimJudgement", "ClaimReview", "ClaimVerifier",
    "ConflictEvidence", "ConflictGroup", "Contribution",
    "DraftAnswer", "FactPriority", "FactSupport", "FeedbackQuery", "FusionMethod", "IndexPhase",
    "IndexProgress", "IndexReport", "ParallelTrace", "QueryView", "RankedList", "RetrieverKind", "ReviewOutcome",
    "RewriteRequest", "RewriteResult", "Route", "SearchHit", "StopConditions", "StoreHit", "StoreStats",
    "SubqueryOrigin", "SufficiencyStatus", "SupportVerdict", "ViewKind",
)

PUBLIC_SUBPACKAGES = (
    "agentic_rag.compat", "agentic_rag.components", "agentic_rag.evaluation", "agentic_rag.llm",
    "agentic_rag.llm.components", "agentic_rag.providers", "agentic_rag.testing", "agentic_rag.types",
)


def _run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          cwd=str(SRC), check=True)
    return done.stdout


class RootSurfaceTest(unittest.TestCase):
    def test_root_all_is_the_golden_list(self):
        self.assertEqual(list(agentic_rag.__all__), sorted(ROOT_NAMES))
        self.assertLessEqual(len(agentic_rag.__all__), 60)

    def test_all_is_the_lazy_table(self):
        # The root keeps its own small lazy loader: importing it must load no other module.
        self.assertEqual(list(agentic_rag.__all__), sorted(agentic_rag._HOME))

    def test_every_root_name_resolves(self):
        for name in agentic_rag.__all__:
            with self.subTest(name=name):
                self.assertIsNotNone(getattr(agentic_rag, name))

    def test_unknown_name_is_an_attribute_error(self):
        with self.assertRaises(AttributeError):
            agentic_rag.NoSuchThing  # noqa: B018

    def test_type_checking_imports_match_the_lazy_table(self):
        # The TYPE_CHECKING block is what IDEs and type checkers read; it must name exactly
        # the modules and names the lazy table imports at run time.
        tree = ast.parse((SRC / "agentic_rag" / "__init__.py").read_text(encoding="utf-8"))
        guarded = next(node for node in tree.body if isinstance(node, ast.If)
                       and getattr(node.test, "id", None) == "TYPE_CHECKING")
        static = {(imp.module, alias.name) for imp in guarded.body for alias in imp.names}
        runtime = {(module, name) for module, names in agentic_rag._EXPORTS.items() for name in names}
        self.assertEqual(static, runtime)

    def test_import_is_lazy(self):
        loaded = _run("import sys, agentic_rag; print(sorted(m for m in sys.modules if m.startswith('agentic_rag')))")
        self.assertEqual(loaded.strip(), "['agentic_rag']")

    def test_core_names_do_not_load_the_optional_layers(self):
        code = ("import sys; from agentic_rag import ParallelRAGWorkflow, AgenticRAGOrchestrator, KnowledgeStore; "
                "print(sorted({m.split('.')[1] for m in sys.modules if m.startswith('agentic_rag.')}))")
        layers = set(ast.literal_eval(_run(code).strip()))
        self.assertFalse(layers & {"llm", "providers", "evaluation", "_interfaces"}, layers)


class MovedNamesTest(unittest.TestCase):
    def test_moved_names_warn_and_resolve_to_their_new_home(self):
        for name, home in sorted(agentic_rag._MOVED.items()):
            with self.subTest(name=name):
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    value = getattr(agentic_rag, name)
                self.assertIs(value, getattr(importlib.import_module(home), name))
                self.assertEqual([w.category for w in caught], [DeprecationWarning])
                self.assertIn(f"from {home} import {name}", str(caught[0].message))

    def test_moved_names_are_not_in_the_root_surface(self):
        self.assertFalse(set(agentic_rag._MOVED) & set(agentic_rag.__all__))


class SubpackageSurfaceTest(unittest.TestCase):
    def test_components_and_types_golden_lists(self):
        import agentic_rag.components as components
        import agentic_rag.types as types_module

        self.assertEqual(list(components.__all__), sorted(COMPONENT_NAMES))
        self.assertEqual(list(types_module.__all__), sorted(TYPE_NAMES))

    def test_each_public_name_has_one_public_home(self):
        homes: dict[str, list[str]] = {}
        for module in ("agentic_rag", "agentic_rag.components", "agentic_rag.types"):
            for name in importlib.import_module(module).__all__:
                homes.setdefault(name, []).append(module)
        self.assertEqual({name: where for name, where in homes.items() if len(where) > 1}, {})

    def test_public_subpackages_have_sorted_resolvable_all(self):
        for module in PUBLIC_SUBPACKAGES:
            with self.subTest(module=module):
                mod = importlib.import_module(module)
                self.assertEqual(list(mod.__all__), sorted(set(mod.__all__)))
                for name in mod.__all__:
                    self.assertTrue(hasattr(mod, name), name)

    def test_implementation_packages_are_private(self):
        public = {"compat", "components", "evaluation", "llm", "providers", "testing", "types"}
        package = SRC / "agentic_rag"
        names = {p.stem for p in package.iterdir()
                 if (p.suffix == ".py" or (p.is_dir() and (p / "__init__.py").exists()))
                 and not p.name.startswith("_")}
        self.assertEqual(names, public)

    def test_status_and_stop_reason_are_string_enums(self):
        from agentic_rag import AnswerStatus, StopReason

        self.assertEqual(AnswerStatus("partial"), AnswerStatus.PARTIAL)
        self.assertIsInstance(StopReason.NO_PROGRESS, str)
        self.assertEqual(StopReason.NO_PROGRESS.value, "no_progress")


if __name__ == "__main__":
    unittest.main()
